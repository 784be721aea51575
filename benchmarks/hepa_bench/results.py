"""Results files of the benchmark sweeps: JSON lines appended whole, cell by cell, read back tolerant of a torn line.

Several processes may append to one file at once (sweeps on the same
machine sharing a results file): each record is written under an exclusive
``fcntl.flock`` in one ``write`` of its whole line, then flushed to disk, so
lines never interleave. A sweep killed while writing leaves at most one
torn line, without its newline; readers skip it, and the next append starts
on a new line so that the torn piece is never glued to a whole record.

A line that is whole JSON but no record a command can read (not an object,
or without a field the command reads, or with one of another type) is no
torn line. A command that appends to the file or writes a file from it
(``hepa-bench run``, ``snapshots``, ``yardstick run`` and ``yardstick
family``) refuses it before any work, naming the file, the line and the
field: skipping it would rerun or duplicate its cell. A command that only
reads (``hepa-bench report``, ``query``, ``yardstick report``) skips it
with a warning naming the file and the line.
"""

import contextlib
import fcntl
import json
import math
import os
import platform
import signal
import sys
import threading
import warnings

import numpy as np
import sklearn
import torch

from hepa_sklearn import __version__
from hepa_sklearn.training import resolve_device

__all__ = [
    "CELL_FIELDS",
    "RUN_FIELDS",
    "append_record",
    "command_line",
    "environment",
    "noting_interrupts",
    "read_results",
    "record_problem",
    "uninterrupted",
]

# options whose value is a path: stored relative to the working directory, never as a path of this machine
PATH_OPTIONS = ("--results", "--data-home", "--cache-dir", "--output", "--snapshots", "--events")


@contextlib.contextmanager
def _locked(descriptor, kind):
    """Hold ``fcntl.flock`` of ``kind`` on the open file ``descriptor`` inside the block."""
    fcntl.flock(descriptor, kind)
    try:
        yield
    finally:
        fcntl.flock(descriptor, fcntl.LOCK_UN)


#: the fields naming a record's cell, each (or its alternatives: the former C-MAPSS sweep's ``subset``)
#: to its types
CELL_FIELDS = {("dataset", "subset"): str, "seed": int, "fraction": (int, float), "method": str}
#: the fields ``hepa-bench run`` reads of each record of the file it resumes
RUN_FIELDS = {**CELL_FIELDS, "pretrain_epochs": int, "finetune_epochs": int}

_JSON_NAMES = {dict: "object", list: "array", str: "string", int: "integer", float: "number", bool: "boolean"}


def _json_name(value):
    return "null" if value is None else _JSON_NAMES.get(type(value), type(value).__name__)


def _wanted(types):
    """``types`` in words: "a number" when they hold float, else "an integer", "a string", ..."""
    types = types if isinstance(types, tuple) else (types,)
    if float in types:
        return "a number"
    return " or ".join(f"an {n}" if n[0] in "aeiou" else f"a {n}" for n in map(_JSON_NAMES.get, types))


def record_problem(record, fields):
    """Why ``record`` is no record with ``fields``, or None.

    ``fields`` maps a field's name (or a tuple of names, any one of which
    will do) to its type or tuple of types; a boolean is no integer, and a
    number must be finite.
    """
    if not isinstance(record, dict):
        return f"a JSON {_json_name(record)}, not an object"
    for names, types in fields.items():
        names = (names,) if isinstance(names, str) else names
        name = next((n for n in names if n in record), None)
        if name is None:
            return f"no field {' or '.join(map(repr, names))}"
        value = record[name]
        if isinstance(value, bool) or not isinstance(value, types):
            return f"field {name!r} is {json.dumps(value)}, not {_wanted(types)}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"field {name!r} is {json.dumps(value)}, not a finite number"
    return None


def read_results(path, fields=None, *, damaged="raise"):
    """Records of a results file (an absent file has none); a torn line (not JSON) is skipped.

    Without ``fields``, a line that is JSON but no object is skipped as
    well. With ``fields`` (as :func:`record_problem` takes them), a line
    that is JSON but no record with those fields raises ValueError naming
    the file, the line and the field (``damaged="raise"``), or is skipped
    with a warning naming them (``damaged="warn"``).

    The file is read under a shared lock, so a record being appended is
    read whole or not at all.
    """
    if damaged not in ("raise", "warn"):
        raise ValueError(f"damaged must be 'raise' or 'warn', got {damaged!r}.")
    if not os.path.exists(path):
        return []
    records = []
    with open(path, "rb") as handle, _locked(handle.fileno(), fcntl.LOCK_SH):
        for number, line in enumerate(handle, start=1):
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            problem = record_problem(record, fields) if fields is not None else None
            if fields is None and not isinstance(record, dict):
                continue
            if problem and damaged == "warn":
                warnings.warn(f"{path}, line {number}: skipped, {problem}.", stacklevel=2)
            elif problem:
                needed = ", ".join("/".join(n) if isinstance(n, tuple) else n for n in fields)
                raise ValueError(
                    f"{path}, line {number}: {problem}; each record there needs {needed}. "
                    f"Mend or remove the line; nothing was run or written."
                )
            else:
                records.append(record)
    return records


@contextlib.contextmanager
def noting_interrupts():
    """Note each Ctrl-C (SIGINT) that arrives inside the block, even one that code inside catches.

    The library's fits raise when interrupted, but other code a cell runs
    may catch ``KeyboardInterrupt`` and go on (skorch itself ends training on
    it and keeps the weights reached so far), so a cell cut short that way
    would otherwise finish and be recorded as if it had run to the end.
    Yields a list that gains an entry per interrupt; outside the main thread
    (where no handler can be set) it stays empty.
    """
    caught = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return

    def handler(signum, frame):
        caught.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def uninterrupted(what=None, log=print):
    """Run the block under :func:`noting_interrupts`; on leaving it, stop the run if a Ctrl-C arrived.

    A fit that caught the Ctrl-C ended early, so what the block produced is
    not the protocol's: ``what`` (if given) is logged as not recorded and
    ``KeyboardInterrupt`` is raised, so the caller neither writes nor caches it.
    A ``KeyboardInterrupt`` raised in the block (the library's own fits
    raise one when interrupted) is logged alike and passes through.
    """
    with noting_interrupts() as caught:
        try:
            yield
        except KeyboardInterrupt:
            caught.append(None)
            raise
        finally:
            if caught and what is not None:
                log(f"interrupted during {what}; it is not recorded", flush=True)
    if caught:
        raise KeyboardInterrupt


def append_record(path, record):
    """Append one record as one whole line and flush it to disk; safe when several processes append at once.

    Under an exclusive lock, the line (preceded by a newline when the file
    ends in a torn line) goes out in one unbuffered ``write`` and is
    flushed to disk (``fsync``) before the lock is released, so an interrupted sweep loses at most the
    running cell and concurrent appends never interleave.
    """
    line = json.dumps(record).encode() + b"\n"
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        with _locked(descriptor, fcntl.LOCK_EX):
            size = os.fstat(descriptor).st_size
            if size and os.pread(descriptor, 1, size - 1) != b"\n":
                line = b"\n" + line  # a record cut short by a kill: end its line, never continue it
            written = 0
            while written < len(line):  # one write; a regular file takes it whole, else the rest follows
                written += os.write(descriptor, line[written:])
            os.fsync(descriptor)
    finally:
        os.close(descriptor)


def environment(device="cpu"):
    """Machine and versions, stored with every record.

    ``cpu_capability`` is the vector instruction set of torch's CPU kernels
    (``"AVX2"``, ``"AVX512"``, ...; set by the machine or by the environment
    variable ``ATEN_CPU_CAPABILITY``). Seeded fits recompute exactly only
    under the same one: other kernels round differently, and a run with early
    stopping can then stop at another epoch. When ``device`` (as the
    estimators take it) resolves to a GPU, ``accelerator`` names it: such
    cells train under bf16 autocast by default and recompute only on a like
    GPU.
    """
    env = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores",
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "torch_threads": torch.get_num_threads(),
        "versions": {
            "hepa_sklearn": __version__,
            "torch": torch.__version__,
            "sklearn": sklearn.__version__,
            "numpy": np.__version__,
            "python": platform.python_version(),
        },
    }
    resolved = resolve_device(device)
    if torch.device(resolved).type == "cuda":
        env["accelerator"] = torch.cuda.get_device_name(resolved)
    return env


def _portable(option, path):
    """``path`` relative to the working directory when inside it; outside it, the data folder as
    ``$HEPA_DATA_HOME`` (its default) and any other path by its file name."""
    absolute, cwd = os.path.abspath(path), os.getcwd()
    if os.path.commonpath([absolute, cwd]) == cwd:
        return os.path.relpath(absolute)
    return "$HEPA_DATA_HOME" if option == "--data-home" else os.path.basename(absolute)


def command_line(argv=None):
    """The ``hepa-bench`` command of this run as a record stores it.

    ``argv`` (default: ``sys.argv[1:]``) follows the thread setting that
    changes the run's timings; the paths of :data:`PATH_OPTIONS` are made
    portable, so that a stored command names no folder of the machine it
    ran on.
    """
    argv = sys.argv[1:] if argv is None else argv
    threads = f"OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}" if "OMP_NUM_THREADS" in os.environ else ""
    words, option = [], None
    for word in argv:
        name, equals, value = word.partition("=")
        if option is not None:
            word = _portable(option, word)
        elif equals and name in PATH_OPTIONS:
            word = f"{name}={_portable(name, value)}"
        words.append(word)
        option = word if word in PATH_OPTIONS else None
    return " ".join(filter(None, [threads, "hepa-bench", *words]))
