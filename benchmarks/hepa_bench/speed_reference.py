"""The speed benchmark beside the authors' implementation: pairs of FD001 runs, pinned, timed, compared.

``hepa-bench speed --reference PATH`` runs this package's protocol
(:mod:`hepa_bench.speed`) and the authors' ``scripts/train.py`` with the
same seed, epochs and threads, side by side on disjoint cores or one after
the other, and reports medians and the per-pair ratios of wall time, CPU
time and peak RSS (:func:`compare_with_reference`).
"""

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch

from hepa_sklearn._version import __version__

from .processes import Child, check_exit, child_result

__all__ = [
    "REFERENCE_COMMIT",
    "check_reference",
    "compare_with_reference",
    "portable_paths",
    "prepare_reference_data",
    "reference_table",
    "run_reference",
    "summarize_pairs",
]

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
    return {"path": str(path), **(checkout or {"commit": None, "modified": None}), "expected_commit": expected_commit}


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
    return [
        sys.executable,
        str(Path(path) / "scripts" / "train.py"),
        "--dataset",
        "FD001",
        "--seed",
        str(seed),
        "--pre-epochs",
        str(pretrain_epochs),
        "--ft-epochs",
        str(finetune_epochs),
        "--out",
        str(out),
    ]


def _reference_result(finished, metrics):
    """Timings of a reference run and the held-out h-AUROC from its metrics file."""
    check_exit("the reference implementation", finished)
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
    medians = {
        side: {key: statistics.median(run[side][key] for run in runs) for key in (*_MEASURES, "h_auroc")}
        for side in _SIDES
    }
    ratios = {key: statistics.median(run["ratios"][key] for run in runs) for key in _MEASURES}
    return medians, ratios


def _pair_ratios(ours, reference):
    return {key: reference[key] / ours[key] for key in _MEASURES}


def compare_with_reference(
    reference,
    our_argv,
    *,
    seed=0,
    pretrain_epochs=50,
    finetune_epochs=30,
    threads=1,
    repeats=3,
    side_by_side=None,
    expected_commit=REFERENCE_COMMIT,
    device="cpu",
    log=print,
):
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
    ``device="cpu"`` hides the GPUs from both; ``"cuda"`` shows them (``our_argv``
    names the device; the reference takes CUDA whenever it sees it).

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
    if device not in ("cpu", "cuda") or (device == "cuda" and not torch.cuda.is_available()):
        raise ValueError(f"device must be 'cpu' or 'cuda' where torch sees a CUDA device, got {device!r}")
    checkout = check_reference(reference, expected_commit)
    cores = os.sched_getaffinity(0)
    if side_by_side is None:
        side_by_side = len(cores) >= 2 * threads
    first, second = _core_plan(threads, side_by_side, cores)
    # Linux carries the RSS high-water mark across fork and exec: a child's peak
    # starts at this process's resident size when it forks, at most this peak.
    rss_floor_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    settings = {
        "OMP_NUM_THREADS": str(threads),
        "MKL_NUM_THREADS": str(threads),
        "PYTHONDONTWRITEBYTECODE": "1",
        **({"CUDA_VISIBLE_DEVICES": ""} if device == "cpu" else {}),
    }
    runs = []
    with tempfile.TemporaryDirectory(prefix="hepa-reference-") as work:
        data = prepare_reference_data(Path(work) / "data")
        reference_settings = {**settings, "PYTHONPATH": checkout["path"], "HEPA_DATA_DIR": str(data)}
        for i in range(repeats):
            our_cores, reference_cores = (second, first) if side_by_side and i % 2 else (first, second)
            out = Path(work) / f"reference_run{i + 1}"
            out.mkdir()
            reference_argv = _reference_argv(
                checkout["path"], seed=seed, pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs, out=out
            )
            ours = dict(argv=our_argv, env=dict(os.environ, **settings), cores=our_cores)
            theirs = dict(
                argv=reference_argv, env=dict(os.environ, **reference_settings), cores=reference_cores, cwd=out
            )
            if side_by_side:
                children = [Child(**ours), Child(**theirs)]
                with ThreadPoolExecutor(len(children)) as pool:
                    finished = list(pool.map(Child.wait, children))
            else:
                finished = [Child(**ours).wait(), Child(**theirs).wait()]
            pair = {
                "hepa_sklearn": {**child_result(finished[0]), "cores": our_cores, "argv": finished[0]["argv"]},
                "reference": {
                    **_reference_result(finished[1], out / f"FD001_s{seed}_metrics.json"),
                    "cores": reference_cores,
                    "argv": finished[1]["argv"],
                },
            }
            pair["ratios"] = _pair_ratios(pair["hepa_sklearn"], pair["reference"])
            runs.append(pair)
            log(
                f"pair {i + 1}/{repeats}: "
                + "; ".join(
                    f"{side} wall {pair[side]['wall_s']:.1f} s, CPU {pair[side]['cpu_s']:.1f} s, peak RSS "
                    f"{pair[side]['peak_rss_mb']:.0f} MB, h-AUROC {pair[side]['h_auroc']:.4f}"
                    for side in _SIDES
                )
            )
    medians, ratios = summarize_pairs(runs)
    return {
        "protocol": {
            "dataset": "FD001",
            "seed": seed,
            "pretrain_epochs": pretrain_epochs,
            "finetune_epochs": finetune_epochs,
            "repeats": repeats,
        },
        "threads": threads,
        "device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
        "mode": "side by side" if side_by_side else "sequential",
        "pinning": "each child pinned with sched_setaffinity before it starts; its cores are in runs",
        "machine": _machine(),
        "torch": torch.__version__,
        "hepa_sklearn": {
            "version": __version__,
            **(_git_checkout(Path(__file__).parents[2]) or {"commit": None, "modified": None}),
        },
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
    pinning = (
        "side by side, each on its own cores"
        if results["mode"] == "side by side"
        else "one after the other, on the same cores"
    )
    device = results.get("device", "cpu")
    lines = [
        f"Machine: {machine['cpu']}, {machine['cpu_count']} CPU cores, torch {results['torch']}, "
        f"{results['threads']} thread(s) per implementation (OMP, MKL, torch), {pinning}"
        + ("." if device == "cpu" else f"; both on the GPU ({device}), this package under bf16 autocast."),
        f"Protocol: FD001 seed {protocol['seed']}, {protocol['pretrain_epochs']} pretraining and "
        f"{protocol['finetune_epochs']} finetuning epochs. Median of {protocol['repeats']} pair(s); each "
        f"ratio is the median of the ratios within each measured pair.",
        "",
        "| | wall s | CPU s | peak RSS MB | held-out h-AUROC |",
        "|---|---|---|---|---|",
    ]
    for name, side in ((ours_name, "hepa_sklearn"), (reference_name, "reference")):
        m = medians[side]
        lines.append(f"| {name} | {m['wall_s']:.1f} | {m['cpu_s']:.1f} | {m['peak_rss_mb']:.0f} | {m['h_auroc']:.4f} |")
    lines += [
        f"| reference / hepa_sklearn | {ratio['wall_s']:.2f}x | {ratio['cpu_s']:.2f}x | "
        f"{ratio['peak_rss_mb']:.2f}x | not paired |",
        "",
        results["note"],
    ]
    floor = results["rss_floor_mb"]
    if min(medians[side]["peak_rss_mb"] for side in _SIDES) < 1.05 * floor:
        lines += [
            "",
            f"A child's peak RSS starts at the measuring process's resident size (at most {floor:.0f} "
            "MB; Linux carries the high-water mark across fork and exec): a figure near it is an upper "
            "bound.",
        ]
    return lines


def _program_name(program):
    name = Path(program).name
    return "python -m hepa_bench.speed" if name.endswith(".py") else name


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
                    value = after + value[len(before) :]
            return value
        if isinstance(value, dict):
            return {key: rewrite(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [rewrite(item) for item in value]
        return value

    return rewrite(results)


def run_reference(args, argv):
    """``hepa-bench speed --reference``: :func:`compare_with_reference` on ``argv``, printed and written to ``args.output``.

    The results name no path of this machine (:func:`portable_paths`).
    """
    threads = args.threads or 1
    results = compare_with_reference(
        args.reference,
        [*argv, "--threads", str(threads)],
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        threads=threads,
        repeats=args.repeats,
        side_by_side=args.side_by_side,
        expected_commit=REFERENCE_COMMIT if args.reference_commit_check == "on" else None,
        device=args.device,
    )
    results["command"] = shlex.join([_program_name(sys.argv[0]), *sys.argv[1:]])
    results["python"] = sys.executable
    results = portable_paths(results, args.reference)
    text = "\n".join(reference_table(results))
    Path(args.output).write_text(json.dumps(results, indent=1) + "\n")
    print(text)
    print(f"\nResults written to {args.output}")
    return text
