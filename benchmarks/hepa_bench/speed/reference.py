"""The speed benchmark beside the authors' implementation: pairs of FD001 runs, pinned, timed, compared.

``hepa-bench speed --reference PATH`` runs this package's protocol
(:mod:`hepa_bench.speed.protocol`) and the authors' ``scripts/train.py`` with the
same seed, epochs and threads, side by side on disjoint cores or one after
the other, and reports medians and the per-pair ratios of wall time, CPU
time and peak RSS (:func:`compare_with_reference`).
"""

import json
import os
import platform
import resource
import shlex
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch

from hepa_sklearn import __version__

from .processes import Child, child_result
from .reference_checkout import (
    MEASURES,
    REFERENCE_COMMIT,
    REFERENCE_DATA_FILES,
    SIDES,
    check_reference,
    git_checkout,
    prepare_reference_data,
    reference_argv,
    reference_result,
)
from .reference_report import portable_paths, program_name, reference_table

__all__ = [
    "REFERENCE_COMMIT",
    "check_reference",
    "compare_with_reference",
    "portable_paths",
    "prepare_reference_data",
    "reference_table",
    "run_reference",
    "summarize_pairs",
    "summarize_variants",
]

SPLIT_NOTE = (
    "The h-AUROC values are not paired: the reference splits the engines with a fixed seed (42) "
    "whatever --seed is, while hepa_sklearn splits them 60/10/30 by --seed, so the two score "
    "different test engines."
)


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
        side: {key: statistics.median(run[side][key] for run in runs) for key in (*MEASURES, "h_auroc")}
        for side in SIDES
    }
    ratios = {key: statistics.median(run["ratios"][key] for run in runs) for key in MEASURES}
    return medians, ratios


def _pair_ratios(ours, reference):
    return {key: reference[key] / ours[key] for key in MEASURES}


def summarize_variants(runs):
    """Per further configuration of this package: its medians and the median of its ratios within the pairs."""
    summary = {}
    for label in runs[0].get("variants", {}) if runs else {}:
        variant = [run["variants"][label] for run in runs]
        pairs = [{**run, "hepa_sklearn": v, "ratios": v["ratios"]} for run, v in zip(runs, variant, strict=True)]
        medians, ratios = summarize_pairs(pairs)
        summary[label] = {"median": medians["hepa_sklearn"], "ratio": ratios}
    return summary


def _in_turn(children):
    """Start and wait for each child of ``children`` (keyword dicts of :class:`Child`) one after the other."""
    return [Child(**child).wait() for child in children]


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
    variants=None,
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

    ``variants`` maps labels to further command lines of this package (other
    options of the protocol): in each pair they run on this package's cores
    one after the other, after ``our_argv``, while the reference run of the
    pair lasts or after it, and each is compared with that reference run.

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
            their_argv = reference_argv(
                checkout["path"], seed=seed, pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs, out=out
            )
            ours = [
                dict(argv=argv, env=dict(os.environ, **settings), cores=our_cores)
                for argv in (our_argv, *(variants or {}).values())
            ]
            theirs = dict(argv=their_argv, env=dict(os.environ, **reference_settings), cores=reference_cores, cwd=out)
            if side_by_side:
                with ThreadPoolExecutor(2) as pool:
                    mine, reference_run = pool.submit(_in_turn, ours), pool.submit(_in_turn, [theirs])
                    finished = [*mine.result(), *reference_run.result()]
            else:
                finished = _in_turn([*ours, theirs])
            finished = [finished[0], finished[-1], *finished[1:-1]]  # ours, the reference's, the variants
            pair = {
                "hepa_sklearn": {**child_result(finished[0]), "cores": our_cores, "argv": finished[0]["argv"]},
                "reference": {
                    **reference_result(finished[1], out / f"FD001_s{seed}_metrics.json"),
                    "cores": reference_cores,
                    "argv": finished[1]["argv"],
                },
            }
            pair["ratios"] = _pair_ratios(pair["hepa_sklearn"], pair["reference"])
            if variants:
                pair["variants"] = {}
                for label, variant in zip(variants, finished[2:], strict=True):
                    result = {**child_result(variant), "cores": our_cores, "argv": variant["argv"]}
                    pair["variants"][label] = {**result, "ratios": _pair_ratios(result, pair["reference"])}
            runs.append(pair)
            log(
                f"pair {i + 1}/{repeats}: "
                + "; ".join(
                    f"{side} wall {pair[side]['wall_s']:.1f} s, CPU {pair[side]['cpu_s']:.1f} s, peak RSS "
                    f"{pair[side]['peak_rss_mb']:.0f} MB, h-AUROC {pair[side]['h_auroc']:.4f}"
                    for side in SIDES
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
            **(git_checkout(Path(__file__).parents[3]) or {"commit": None, "modified": None}),
        },
        "reference": checkout,
        "environment": {"hepa_sklearn": settings, "reference": reference_settings},
        "reference_data": [f"CMAPSS/{name}" for name in REFERENCE_DATA_FILES],
        "rss_floor_mb": rss_floor_mb,
        "runs": runs,
        "median": medians,
        "ratio": ratios,
        **({"variants": summarize_variants(runs)} if variants else {}),
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


def run_reference(args, argv, *, options=None, variants=None):
    """``hepa-bench speed --reference``: :func:`compare_with_reference` on ``argv`` (and ``variants``), printed and
    written to ``args.output``.

    ``options`` names the protocol options of ``argv`` that differ from the
    paper's (a label, None for none). The results name no path of this
    machine (:func:`portable_paths`).
    """
    threads = args.threads or 1
    variants = {label: [*variant, "--threads", str(threads)] for label, variant in (variants or {}).items()}
    results = compare_with_reference(
        args.reference,
        [*argv, "--threads", str(threads)],
        variants=variants or None,
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        threads=threads,
        repeats=args.repeats,
        side_by_side=args.side_by_side,
        expected_commit=REFERENCE_COMMIT if args.reference_commit_check == "on" else None,
        device=args.device,
    )
    if options:
        results["options"] = options
    results["command"] = shlex.join([program_name(sys.argv[0]), *sys.argv[1:]])
    results["python"] = sys.executable
    results = portable_paths(results, args.reference)
    text = "\n".join(reference_table(results))
    Path(args.output).write_text(json.dumps(results, indent=1) + "\n")
    print(text)
    print(f"\nResults written to {args.output}")
    return text
