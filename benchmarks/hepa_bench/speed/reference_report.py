"""The results of the speed comparison with the reference, as a markdown table and as a file any machine can read."""

import os
import re
import sys
import tempfile
from pathlib import Path

from .reference_checkout import SIDES

__all__ = ["portable_paths", "program_name", "reference_table"]


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
    if results.get("options"):
        ours_name += f", {results['options']}"
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
    lines.append(
        f"| reference / hepa_sklearn | {ratio['wall_s']:.2f}x | {ratio['cpu_s']:.2f}x | "
        f"{ratio['peak_rss_mb']:.2f}x | not paired |"
    )
    for label, variant in results.get("variants", {}).items():
        m, r = variant["median"], variant["ratio"]
        lines += [
            f"| hepa_sklearn, {label} | {m['wall_s']:.1f} | {m['cpu_s']:.1f} | {m['peak_rss_mb']:.0f} | "
            f"{m['h_auroc']:.4f} |",
            f"| reference / hepa_sklearn, {label} | {r['wall_s']:.2f}x | {r['cpu_s']:.2f}x | "
            f"{r['peak_rss_mb']:.2f}x | not paired |",
        ]
    lines += ["", results["note"]]
    floor = results["rss_floor_mb"]
    if min(medians[side]["peak_rss_mb"] for side in SIDES) < 1.05 * floor:
        lines += [
            "",
            f"A child's peak RSS starts at the measuring process's resident size (at most {floor:.0f} "
            "MB; Linux carries the high-water mark across fork and exec): a figure near it is an upper "
            "bound.",
        ]
    return lines


def program_name(program):
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
