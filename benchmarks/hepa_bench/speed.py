"""Speed benchmark: the FD001 protocol end to end, alone or beside the authors' code; throughput, FLOPs, scaling."""

import argparse
import functools
import gzip
import json
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch.utils.flop_counter import FlopCounterMode

from hepa_sklearn._version import __version__


def _one_run(args):
    """Child process: one full protocol run, printed as one JSON line."""
    from .protocol import run_cmapss

    if args.threads:
        torch.set_num_threads(args.threads)
    result = run_cmapss(
        "FD001",
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        device=args.device,
        log=lambda message: None,
        pretrain_params={"batch_layout": args.batch_layout},
    )
    result["torch_threads"] = torch.get_num_threads()
    print(json.dumps(result))


class _Child:
    """A child process started on construction, its output kept in temporary files.

    ``cores`` pins the child to those CPU cores (set in the child before it
    executes ``argv``, so every thread it starts inherits the mask).
    """

    def __init__(self, argv, *, env=None, cores=None, cwd=None):
        self.argv = [str(arg) for arg in argv]
        self.stdout = tempfile.TemporaryFile("w+")
        self.stderr = tempfile.TemporaryFile("w+")
        pin = None if cores is None else functools.partial(os.sched_setaffinity, 0, tuple(cores))
        self.start = time.perf_counter()
        self.process = subprocess.Popen(self.argv, stdout=self.stdout, stderr=self.stderr, env=env, cwd=cwd,
                                        preexec_fn=pin)

    def wait(self):
        """Wait for the exit: exit code, wall and CPU seconds, peak RSS, stdout and stderr."""
        _, status, usage = os.wait4(self.process.pid, 0)
        wall = time.perf_counter() - self.start
        self.process.returncode = os.waitstatus_to_exitcode(status)
        output = {}
        for name, handle in (("stdout", self.stdout), ("stderr", self.stderr)):
            handle.seek(0)
            output[name] = handle.read()
            handle.close()
        return {
            "argv": self.argv,
            "returncode": self.process.returncode,
            "wall_s": wall,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024,  # Linux reports KiB
            **output,
        }


def _check_exit(what, finished, tail_lines=20):
    """Raise ``RuntimeError`` with the end of the child's output if it failed."""
    if finished["returncode"]:
        tail = (finished["stderr"].strip() or finished["stdout"].strip()).splitlines()[-tail_lines:]
        raise RuntimeError(
            f"{what} failed with exit code {finished['returncode']}: {shlex.join(finished['argv'])}\n"
            + "\n".join(tail)
        )


def _child_result(finished):
    """The JSON result a run of this package printed last, with its wall, CPU time and peak RSS."""
    _check_exit("benchmark run", finished)
    lines = finished["stdout"].strip().splitlines()
    try:
        result = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError) as exc:
        raise RuntimeError(
            f"benchmark run {shlex.join(finished['argv'])} printed no JSON result line; its output ended "
            f"with {lines[-1:]!r}"
        ) from exc
    result.update({key: finished[key] for key in ("wall_s", "cpu_s", "peak_rss_mb")})
    return result


def _timed_child(argv, **child):
    """Run ``argv`` in a child process; its JSON result plus wall, CPU time and peak RSS."""
    return _child_result(_Child(argv, **child).wait())


def _thread_env(threads, **extra):
    """This environment with the OpenMP and MKL pools set to ``threads`` and ``extra`` added."""
    env = dict(os.environ)
    if threads:
        env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    env.update(extra)
    return env


def matmul_peak_gflops(n=2048, repeats=10):
    """Measured fp32 matrix-product rate of this machine, the compute bound used below."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    start = time.perf_counter()
    for _ in range(repeats):
        a @ b
    return 2 * n**3 * repeats / (time.perf_counter() - start) / 1e9


def stage_flops(n_channels=14, context_length=512, history=206, K=150, batch=64, batch_layout="packed"):
    """FLOPs per window of each stage with the paper's model, counted by torch's FLOP counter.

    ``history`` is the number of observed steps per window (FD001's mean unit
    length is 206 cycles); the rest of the window is padding that the
    encoder skips. ``batch_layout`` is the pretrainer's: ``"packed"`` batches
    hold blocks of 8 cuts of one window and compute no target padding;
    ``"padded"`` ones about 40 windows per 64 cuts (counted as 2 cuts per
    window) and padded target groups.
    """
    from ..nn import JEPA, EncoderConfig, EventModel
    from ..nn.losses import surface_bce

    torch.manual_seed(0)
    packed = batch_layout == "packed"
    model = JEPA(EncoderConfig(n_channels=n_channels, norm="global"), 256, K, packed=packed)
    head = EventModel(256, 256, K, float(K))
    x = torch.randn(batch, n_channels, context_length)
    x[..., : context_length - history] = float("nan")
    rng = np.random.default_rng(0)
    P = 16
    cut = torch.tensor(context_length - P * rng.integers(1, history // P, size=batch))
    dt = torch.tensor(np.minimum(np.exp(rng.uniform(0, np.log(K + 1), size=batch)).astype(int), K)).clamp(min=1)
    per_window = 8 if packed else 2  # padded FD001 batches: 64 cuts of ~40 windows
    owner = torch.arange(batch) // per_window * per_window
    counts = {}
    with FlopCounterMode(display=False) as counter:
        predicted, target, *_ = model(x, owner, cut, dt, torch.ones(batch))
        (predicted - target).square().mean().backward()
    counts["pretrain (fwd+bwd) per cut"] = counter.get_total_flops() / batch
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model.embed(x)
    transform = counter.get_total_flops() / batch
    E = torch.randn(batch, 256)
    labels = torch.zeros(batch, K)
    with FlopCounterMode(display=False) as counter:
        surface_bce(head(E), labels, torch.ones_like(labels), 1.0).backward()
    counts["finetune (fwd+bwd) per window"] = counter.get_total_flops() / batch
    counts["transform per window"] = transform
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        head(E)
    counts["predict_proba per window"] = counter.get_total_flops() / batch
    return counts


def _throughput(result):
    return {
        "pretrain cuts/s": result["pretrain_epochs"] * result["cuts_per_window"] * result["n_pretrain_windows"]
        / result["pretrain_s"],
        "finetune windows/s": result["finetune_epochs"] * result["n_finetune_windows"] / result["finetune_s"],
        "transform windows/s": result["n_embedded_windows"] / result["embed_s"],
        "predict_proba windows/s": result["n_test_windows"] / result["predict_s"],
    }


def scaling(n_windows=(1000, 10000, 100000), train_windows=(250, 1000, 4000), context_lengths=(128, 256, 512),
            n_channels=14, repeats=3):
    """Median seconds per stage on synthetic series of C-MAPSS shape, for growing inputs.

    ``transform`` + ``predict_proba`` are timed on each of ``n_windows``
    windows of 512 steps; one pretraining epoch (one cut per window, each
    window standing for a unit) and one finetuning epoch (K = 150) on each of
    ``train_windows``; the ``context`` rows time every stage on
    ``train_windows[1]`` windows of each length. Returns rows
    ``(series, n, length, seconds)``, ``seconds`` a dict keyed by stage with
    None where the stage was not timed at that size.
    """
    from hepa_sklearn.event_predictor import HEPAEventPredictor
    from hepa_sklearn.pretrainer import HEPAPretrainer
    from hepa_sklearn.surface import make_survival_y

    rng = np.random.default_rng(0)
    stages = ("pretrain epoch", "finetune epoch", "transform + predict_proba")

    def median_seconds(task):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            task()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    def problem(n, length, labels=True):
        X = rng.normal(size=(n, n_channels, length)).astype(np.float32)
        return X, make_survival_y(np.ones(n, bool), rng.integers(1, 150, n)) if labels else None

    def models():
        return (HEPAPretrainer(max_epochs=1, early_stopping=False, norm="global", random_state=0),
                HEPAEventPredictor(max_epochs=1, early_stopping=False, random_state=0))

    def fitted(length, n=256):
        X, y = problem(n, length)
        pre, event = models()
        pre.fit(X)
        return pre, event.fit(pre.transform(X), y)

    def measure(n, length, train=True, infer=True):
        seconds = dict.fromkeys(stages)
        X, y = problem(n, length, labels=train)
        if train:
            pre, event = models()
            seconds["pretrain epoch"] = median_seconds(lambda: pre.fit(X))
            E = pre.transform(X)
            seconds["finetune epoch"] = median_seconds(lambda: event.fit(E, y))
        else:
            pre, event = trained[length]
        if infer:
            seconds["transform + predict_proba"] = median_seconds(lambda: event.predict_proba(pre.transform(X)))
        return seconds

    trained = {512: fitted(512)}
    sizes = sorted(set(n_windows) | set(train_windows))
    rows = [("windows", n, 512, measure(n, 512, train=n in train_windows, infer=n in n_windows)) for n in sizes]
    middle = train_windows[len(train_windows) // 2]
    rows += [("context", middle, length, measure(middle, length)) for length in context_lengths]
    return rows


def scaling_table(rows):
    """Markdown lines for the rows of :func:`scaling`."""
    stages = list(rows[0][3])
    lines = ["", "Median of 3, seconds, synthetic series with 14 channels:", "",
             "| series | windows | context length | " + " | ".join(stages) + " |",
             "|---|---|---|" + "---|" * len(stages)]
    for kind, n, length, seconds in rows:
        cells = ("—" if seconds[s] is None else f"{seconds[s]:.2f}" for s in stages)
        lines.append(f"| {kind} | {n} | {length} | " + " | ".join(cells) + " |")
    return lines


# The commit of the authors' code (github.com/Forgis-Labs/HEPA, "Anonymise repo
# for double-blind review") that the side-by-side measurement is written for:
# its scripts/train.py command line and metrics file are what is read below.
REFERENCE_COMMIT = "85f55f39a72a677d74c3371707baea67600020d6"
REFERENCE_DATA_FILES = ("train_FD001.txt", "test_FD001.txt", "RUL_FD001.txt")
_MEASURES = ("wall_s", "cpu_s", "peak_rss_mb")
_SIDES = ("hepa_sklearn", "reference")
SPLIT_NOTE = (
    "The h-AUROC values are not paired: the reference splits the engines with a fixed seed (42) "
    "whatever --seed is, while hepa_sklearn splits them 60/10/30 by --seed, so the two score "
    "different test engines."
)


def _git(path, *args):
    """``git -C path args``: (stdout, None) on success, (None, the reason) on failure."""
    try:
        done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True)
    except FileNotFoundError:
        return None, "git is not installed"
    if done.returncode:
        return None, done.stderr.strip()
    return done.stdout.strip(), None


def _git_checkout(path):
    """Commit and local changes of the git checkout whose top level is ``path``, or None."""
    lines, _ = _git(path, "rev-parse", "--show-toplevel", "HEAD")
    if lines is None or Path(lines.splitlines()[0]).resolve() != Path(path).resolve():
        return None
    status, _ = _git(path, "status", "--porcelain")
    return {"commit": lines.splitlines()[1], "modified": bool(status)}


def check_reference(path, expected_commit=REFERENCE_COMMIT):
    """Check that ``path`` is a checkout of the authors' code at ``expected_commit``.

    Parameters
    ----------
    path : str or path-like
        Top level of the checkout (the folder holding ``scripts/train.py``).
    expected_commit : str or None, default=REFERENCE_COMMIT
        The commit HEAD must be at; None skips the check (the commit is still
        recorded when ``path`` is a git checkout).

    Returns
    -------
    reference : dict
        ``path`` (resolved), ``commit`` and ``modified`` (local changes; both
        None outside git) and ``expected_commit``.
    """
    path = Path(path).expanduser().resolve()
    if not (path / "scripts" / "train.py").is_file():
        raise ValueError(
            f"--reference {path}: no scripts/train.py there; pass the top level of a checkout of "
            f"github.com/Forgis-Labs/HEPA"
        )
    checkout = _git_checkout(path)
    if expected_commit is not None:
        if checkout is None:
            _, reason = _git(path, "rev-parse", "HEAD")
            raise ValueError(
                f"--reference {path} is not the top level of a git checkout "
                f"({reason or 'its git top level is a parent folder'}), "
                f"so its commit cannot be checked against {expected_commit}; clone the authors' "
                f"repository there, or pass --reference-commit-check off to measure it anyway"
            )
        if checkout["commit"] != expected_commit:
            raise ValueError(
                f"--reference {path} is at commit {checkout['commit']}, not {expected_commit}; run "
                f"`git -C {path} checkout {expected_commit[:7]}`, or pass --reference-commit-check off to "
                f"measure this commit anyway"
            )
    return {"path": str(path), **(checkout or {"commit": None, "modified": None}),
            "expected_commit": expected_commit}


def prepare_reference_data(directory):
    """Write C-MAPSS FD001 uncompressed where the reference reads it, ``directory/CMAPSS``.

    The files are this package's embedded copies, so both implementations
    read the same bytes. Returns ``directory``, the value for ``HEPA_DATA_DIR``.
    """
    from hepa_sklearn.datasets._cmapss import _data_file

    folder = Path(directory) / "CMAPSS"
    folder.mkdir(parents=True, exist_ok=True)
    for name in REFERENCE_DATA_FILES:
        packed = _data_file(name + ".gz")
        content = gzip.decompress(packed.read_bytes()) if packed.is_file() else _data_file(name).read_bytes()
        (folder / name).write_bytes(content)
    return Path(directory)


def _reference_argv(path, *, seed, pretrain_epochs, finetune_epochs, out):
    return [sys.executable, str(Path(path) / "scripts" / "train.py"), "--dataset", "FD001", "--seed", str(seed),
            "--pre-epochs", str(pretrain_epochs), "--ft-epochs", str(finetune_epochs), "--out", str(out)]


def _reference_result(finished, metrics):
    """Timings of a reference run and the held-out h-AUROC from its metrics file."""
    _check_exit("the reference implementation", finished)
    try:
        h = json.loads(Path(metrics).read_text())["h_auroc"]
    except (OSError, ValueError, KeyError) as exc:
        raise RuntimeError(
            f"the reference implementation exited normally but its metrics file {metrics} has no "
            f"readable h_auroc ({exc!r}); output ended with:\n" + "\n".join(finished["stdout"].splitlines()[-5:])
        ) from exc
    return {"h_auroc": h, **{key: finished[key] for key in _MEASURES}}


def _core_plan(threads, side_by_side, cores):
    """Cores of (hepa_sklearn, reference): disjoint side by side, shared one after the other."""
    cores = sorted(cores)
    needed = 2 * threads if side_by_side else threads
    if len(cores) < needed:
        how = "two implementations side by side" if side_by_side else "one implementation at a time"
        raise ValueError(
            f"{threads} thread(s) for {how} needs {needed} cores, this process may use {len(cores)} "
            f"({cores}); lower --threads" + (" or pass --sequential" if side_by_side else "")
        )
    if side_by_side:
        return cores[:threads], cores[threads : 2 * threads]
    return cores[:threads], cores[:threads]


def summarize_pairs(runs):
    """Medians per implementation and the median reference / hepa_sklearn ratio per measure.

    Every ratio is taken within a measured pair (one repeat); the h-AUROC
    gets no ratio because the two implementations score different engines.
    """
    medians = {side: {key: statistics.median(run[side][key] for run in runs) for key in (*_MEASURES, "h_auroc")}
               for side in _SIDES}
    ratios = {key: statistics.median(run["ratios"][key] for run in runs) for key in _MEASURES}
    return medians, ratios


def _pair_ratios(ours, reference):
    return {key: reference[key] / ours[key] for key in _MEASURES}


def compare_with_reference(reference, our_argv, *, seed=0, pretrain_epochs=50, finetune_epochs=30, threads=1,
                           repeats=3, side_by_side=None, expected_commit=REFERENCE_COMMIT, log=print):
    """Measure this package and the authors' code on the FD001 protocol, in pairs of child processes.

    Each repeat runs ``our_argv`` (a child printing this package's result as
    its last JSON line) and the reference's ``scripts/train.py`` with the
    same seed and epochs, both with ``threads`` OpenMP/MKL/torch threads and
    each pinned to its own cores. Side by side (the default when the process
    may use ``2 * threads`` cores) both start together and the two core sets
    swap at every repeat; sequentially they run one after the other on the
    same cores. The reference runs on a copy of the embedded FD001 files in
    a temporary folder and writes only there; its ``PYTHONPATH`` is
    ``reference`` and it writes no byte code. A child's peak RSS starts at
    this process's resident size, at most ``rss_floor_mb`` in the results.

    Returns
    -------
    results : dict
        The settings, both versions, every measured pair (wall and CPU
        seconds, peak RSS in MB, held-out h-AUROC, the ratios of the pair)
        and ``median`` and ``ratio`` from :func:`summarize_pairs`.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    checkout = check_reference(reference, expected_commit)
    cores = os.sched_getaffinity(0)
    if side_by_side is None:
        side_by_side = len(cores) >= 2 * threads
    first, second = _core_plan(threads, side_by_side, cores)
    # Linux carries the RSS high-water mark across fork and exec: a child's peak
    # starts at this process's resident size when it forks, at most this peak.
    rss_floor_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    settings = {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads),
                "PYTHONDONTWRITEBYTECODE": "1", "CUDA_VISIBLE_DEVICES": ""}
    runs = []
    with tempfile.TemporaryDirectory(prefix="hepa-reference-") as work:
        data = prepare_reference_data(Path(work) / "data")
        reference_settings = {**settings, "PYTHONPATH": checkout["path"], "HEPA_DATA_DIR": str(data)}
        for i in range(repeats):
            our_cores, reference_cores = (second, first) if side_by_side and i % 2 else (first, second)
            out = Path(work) / f"reference_run{i + 1}"
            out.mkdir()
            reference_argv = _reference_argv(checkout["path"], seed=seed, pretrain_epochs=pretrain_epochs,
                                             finetune_epochs=finetune_epochs, out=out)
            ours = dict(argv=our_argv, env=dict(os.environ, **settings), cores=our_cores)
            theirs = dict(argv=reference_argv, env=dict(os.environ, **reference_settings), cores=reference_cores,
                          cwd=out)
            if side_by_side:
                children = [_Child(**ours), _Child(**theirs)]
                with ThreadPoolExecutor(len(children)) as pool:
                    finished = list(pool.map(_Child.wait, children))
            else:
                finished = [_Child(**ours).wait(), _Child(**theirs).wait()]
            pair = {
                "hepa_sklearn": {**_child_result(finished[0]), "cores": our_cores, "argv": finished[0]["argv"]},
                "reference": {**_reference_result(finished[1], out / f"FD001_s{seed}_metrics.json"),
                              "cores": reference_cores, "argv": finished[1]["argv"]},
            }
            pair["ratios"] = _pair_ratios(pair["hepa_sklearn"], pair["reference"])
            runs.append(pair)
            log(f"pair {i + 1}/{repeats}: " + "; ".join(
                f"{side} wall {pair[side]['wall_s']:.1f} s, CPU {pair[side]['cpu_s']:.1f} s, peak RSS "
                f"{pair[side]['peak_rss_mb']:.0f} MB, h-AUROC {pair[side]['h_auroc']:.4f}" for side in _SIDES))
    medians, ratios = summarize_pairs(runs)
    return {
        "protocol": {"dataset": "FD001", "seed": seed, "pretrain_epochs": pretrain_epochs,
                     "finetune_epochs": finetune_epochs, "repeats": repeats},
        "threads": threads,
        "mode": "side by side" if side_by_side else "sequential",
        "pinning": "each child pinned with sched_setaffinity before it starts; its cores are in runs",
        "machine": _machine(),
        "torch": torch.__version__,
        "hepa_sklearn": {"version": __version__, **(_git_checkout(Path(__file__).parents[2])
                                                     or {"commit": None, "modified": None})},
        "reference": checkout,
        "environment": {"hepa_sklearn": settings, "reference": reference_settings},
        "reference_data": [f"CMAPSS/{name}" for name in REFERENCE_DATA_FILES],
        "rss_floor_mb": rss_floor_mb,
        "runs": runs,
        "median": medians,
        "ratio": ratios,
        "note": SPLIT_NOTE,
    }


def _machine():
    model = None
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), None)
    return {
        "cpu": model or platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "usable_cores": sorted(os.sched_getaffinity(0)),
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
        "load_average": os.getloadavg(),
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def _commit_label(checkout):
    if checkout["commit"] is None:
        return ""
    return f" ({checkout['commit'][:7]}{', modified' if checkout['modified'] else ''})"


def reference_table(results):
    """Markdown lines for the results of :func:`compare_with_reference`."""
    protocol, medians, ratio = results["protocol"], results["median"], results["ratio"]
    ours, reference = results["hepa_sklearn"], results["reference"]
    machine = results["machine"]
    ours_name = f"hepa_sklearn {ours['version']}" + _commit_label(ours)
    reference_name = "reference" + _commit_label(reference)
    pinning = ("side by side, each on its own cores" if results["mode"] == "side by side"
               else "one after the other, on the same cores")
    lines = [
        f"Machine: {machine['cpu']}, {machine['cpu_count']} CPU cores, torch {results['torch']}, "
        f"{results['threads']} thread(s) per implementation (OMP, MKL, torch), {pinning}.",
        f"Protocol: FD001 seed {protocol['seed']}, {protocol['pretrain_epochs']} pretraining and "
        f"{protocol['finetune_epochs']} finetuning epochs. Median of {protocol['repeats']} pair(s); each "
        f"ratio is the median of the ratios within each measured pair.",
        "",
        "| | wall s | CPU s | peak RSS MB | held-out h-AUROC |",
        "|---|---|---|---|---|",
    ]
    for name, side in ((ours_name, "hepa_sklearn"), (reference_name, "reference")):
        m = medians[side]
        lines.append(f"| {name} | {m['wall_s']:.1f} | {m['cpu_s']:.1f} | {m['peak_rss_mb']:.0f} | "
                     f"{m['h_auroc']:.4f} |")
    lines += [
        f"| reference / hepa_sklearn | {ratio['wall_s']:.2f}x | {ratio['cpu_s']:.2f}x | "
        f"{ratio['peak_rss_mb']:.2f}x | not paired |",
        "",
        results["note"],
    ]
    floor = results["rss_floor_mb"]
    if min(medians[side]["peak_rss_mb"] for side in _SIDES) < 1.05 * floor:
        lines += ["", f"A child's peak RSS starts at the measuring process's resident size (at most {floor:.0f} "
                      "MB; Linux carries the high-water mark across fork and exec): a figure near it is an upper "
                      "bound."]
    return lines


def _program_name(program):
    name = Path(program).name
    return "python -m hepa_sklearn.benchmarks.speed" if name.endswith(".py") else name


def portable_paths(results, reference, *, cwd=None):
    """Results of :func:`compare_with_reference` with no path of this machine in them.

    The interpreter becomes ``python``, the reference checkout the path it
    was given as (relative to ``cwd`` when it lies below it, else its folder
    name) and the removed temporary work folder ``TMPDIR/hepa-reference``,
    so a results file can be committed and compared across machines.

    Parameters
    ----------
    results : dict
        As returned by :func:`compare_with_reference`; not modified.
    reference : str or path-like
        The reference checkout as the user gave it.
    cwd : str or path-like, optional
        The folder relative paths start from; the current one by default.

    Returns
    -------
    results : dict
        A copy with every string rewritten.
    """
    cwd = Path(cwd or os.getcwd()).resolve()
    checkout = Path(results["reference"]["path"])
    shown = checkout.relative_to(cwd).as_posix() if checkout.is_relative_to(cwd) else checkout.name
    given = Path(reference).expanduser()
    if not given.is_absolute() and (cwd / given).resolve() == checkout:
        shown = given.as_posix()
    work = re.compile(re.escape(tempfile.gettempdir().rstrip("/")) + r"/hepa-reference-[^/\s]+")
    swaps = [(str(checkout), shown), (sys.executable, "python")]

    def rewrite(value):
        if isinstance(value, str):
            value = work.sub("TMPDIR/hepa-reference", value)
            for before, after in swaps:
                if value == before or value.startswith(before + "/"):
                    value = after + value[len(before):]
            return value
        if isinstance(value, dict):
            return {key: rewrite(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [rewrite(item) for item in value]
        return value

    return rewrite(results)


def _run_reference(args, argv):
    if args.device != "cpu":
        raise ValueError(
            f"--reference measures on the CPU (the reference has no device option), got --device {args.device}"
        )
    threads = args.threads or 1
    results = compare_with_reference(
        args.reference, [*argv, "--threads", str(threads)], seed=args.seed,
        pretrain_epochs=args.pretrain_epochs, finetune_epochs=args.finetune_epochs, threads=threads,
        repeats=args.repeats, side_by_side=args.side_by_side,
        expected_commit=REFERENCE_COMMIT if args.reference_commit_check == "on" else None,
    )
    results["command"] = shlex.join([_program_name(sys.argv[0]), *sys.argv[1:]])
    results["python"] = sys.executable
    results = portable_paths(results, args.reference)
    text = "\n".join(reference_table(results))
    Path(args.output).write_text(json.dumps(results, indent=1) + "\n")
    print(text)
    print(f"\nResults written to {args.output}")
    return text


def run(args):
    """Median of ``args.repeats`` full runs, stage throughput, FLOPs and scaling, as markdown.

    With ``args.reference`` it measures the authors' implementation side by
    side instead (:func:`compare_with_reference`), prints the table and
    writes the results to ``args.output``.
    """
    argv = [sys.executable, "-m", "hepa_sklearn.benchmarks.speed", "--one-run",
            "--seed", str(args.seed), "--pretrain-epochs", str(args.pretrain_epochs),
            "--finetune-epochs", str(args.finetune_epochs), "--device", args.device,
            "--batch-layout", args.batch_layout]
    if args.reference is not None:
        return _run_reference(args, argv)
    if args.threads:
        argv += ["--threads", str(args.threads)]
    if args.only_scaling:
        text = "\n".join(scaling_table(scaling(n_windows=args.scaling_windows,
                                                train_windows=args.scaling_train_windows))[1:])
        print(text)
        return text
    runs = []
    for i in range(args.repeats):
        runs.append(_timed_child(argv, env=_thread_env(args.threads)))
        r = runs[-1]
        print(f"run {i + 1}/{args.repeats}: wall {r['wall_s']:.1f} s, CPU {r['cpu_s']:.1f} s, "
              f"peak RSS {r['peak_rss_mb']:.0f} MB, h-AUROC {r['h_auroc']:.4f}", flush=True)

    def median(key):
        return statistics.median(r[key] for r in runs)

    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, "
        f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device}.",
        f"Protocol: FD001 seed {args.seed}, {args.pretrain_epochs} pretraining epochs x 40 cuts per "
        f"training unit, {args.finetune_epochs} finetuning epochs on stride-4 windows, K=150, "
        f"surface for every stride-1 test window. Median of {args.repeats} runs.",
        "",
        "| | wall s | CPU s | peak RSS MB | held-out h-AUROC |",
        "|---|---|---|---|---|",
        f"| hepa_sklearn | {median('wall_s'):.1f} | {median('cpu_s'):.1f} | "
        f"{median('peak_rss_mb'):.0f} | {median('h_auroc'):.4f} |",
        "",
        "Per stage (median s): " + ", ".join(
            f"{stage} {median(stage + '_s'):.1f}" for stage in ("pretrain", "embed", "finetune", "predict")
        ),
        "",
    ]
    peak = matmul_peak_gflops()
    flops = stage_flops(batch_layout=args.batch_layout)
    throughput = {key: statistics.median(_throughput(r)[key] for r in runs) for key in _throughput(runs[0])}
    lines += [
        f"Compute bound: fp32 matrix product measured at {peak:.0f} GFLOP/s.",
        "",
        "| stage | FLOPs per item | items/s | GFLOP/s reached | share of the bound |",
        "|---|---|---|---|---|",
    ]
    for (stage, per_item), (name, rate) in zip(flops.items(), throughput.items(), strict=True):
        reached = per_item * rate / 1e9
        lines.append(f"| {stage} | {per_item / 1e6:.1f} M | {rate:.0f} {name.split()[-1]} | "
                     f"{reached:.1f} | {reached / peak:.0%} |")
    if args.scaling:
        lines += scaling_table(scaling(n_windows=args.scaling_windows, train_windows=args.scaling_train_windows))
    text = "\n".join(lines)
    print(text)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hepa_sklearn.benchmarks.speed")
    add_arguments(parser)
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_run:
        _one_run(args)
    else:
        run(args)


def add_arguments(parser):
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=None,
                        help="OMP/MKL/torch threads per run (default: torch's own; 1 with --reference)")
    parser.add_argument("--batch-layout", choices=["packed", "padded"], default="packed",
                        help="the pretrainer's batch_layout (default: packed; the published C-MAPSS "
                             "results used padded)")
    parser.add_argument("--scaling", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--scaling-windows", type=int, nargs="+", default=[1000, 10000, 100000],
                        help="window counts timed for transform + predict_proba")
    parser.add_argument("--scaling-train-windows", type=int, nargs="+", default=[250, 1000, 4000],
                        help="window (unit) counts timed for one pretraining and one finetuning epoch")
    parser.add_argument("--only-scaling", action="store_true", help="print the scaling table only")
    reference = parser.add_argument_group("side by side with the authors' implementation")
    reference.add_argument("--reference", metavar="PATH",
                           help="checkout of github.com/Forgis-Labs/HEPA at commit "
                                f"{REFERENCE_COMMIT[:7]}: time it against this package in pairs of runs")
    reference.add_argument("--reference-commit-check", choices=["on", "off"], default="on",
                           help="refuse a checkout at another commit (default: on)")
    mode = reference.add_mutually_exclusive_group()
    mode.add_argument("--side-by-side", dest="side_by_side", action="store_const", const=True,
                      help="run both at once, each pinned to its own cores (default with enough cores)")
    mode.add_argument("--sequential", dest="side_by_side", action="store_const", const=False,
                      help="run one after the other on the same cores")
    reference.add_argument("--output", default="speed_reference.json",
                           help="JSON file for the results (default: speed_reference.json)")


if __name__ == "__main__":
    main()
