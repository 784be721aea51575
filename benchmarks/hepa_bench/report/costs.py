"""What the event cells cost in the report: CPU minutes per dataset and method, CPU kernels, cells run on a GPU."""

import statistics
from collections import Counter, defaultdict

from ..methods.table import METHODS
from ..stats import markdown_table

__all__ = ["accelerator_lines", "event_cpu_table", "kernel_counts"]


def event_cpu_table(records, datasets, methods):
    """Markdown lines: CPU minutes per dataset and method, per seed (median) and summed over the seeds that ran.

    Cells that ran on a GPU (an ``accelerator`` field) are left out: their
    CPU time is not the cost of the work. A seed's cost is its cells' fitting CPU seconds plus, for a method with
    a frozen encoder, the encoder's fitting and embedding once (a method
    sharing an encoder with another is charged the whole encoder, as if it
    ran alone); a supervised encoder is charged once per label fraction.
    """
    per_seed = defaultdict(float)
    charged = set()
    for r in records:
        if r.get("accelerator"):
            continue
        method = METHODS.get(r["method"])
        key = (r["dataset"], r["method"], r["seed"])
        per_seed[key] += r.get("cpu_s") or 0.0
        once = (key, float(r["fraction"])) if method is not None and method.supervised else key
        if once not in charged:
            charged.add(once)
            per_seed[key] += (r.get("pretrain_cpu_s") or 0.0) + (r.get("embed_cpu_s") or 0.0)
    by_method = defaultdict(list)
    for (name, m, _), seconds in per_seed.items():
        by_method[(name, m)].append(seconds)
    rows, total = [], 0.0
    for name in datasets:
        for m in methods:
            values = by_method.get((name, m))
            if values:
                total += sum(values)
                rows.append(
                    [name, m, str(len(values)), f"{statistics.median(values) / 60:.1f}", f"{sum(values) / 60:.1f}"]
                )
    header = ["dataset", "method", "seeds", "CPU min per seed (median)", "CPU min, all seeds"]
    return markdown_table(header, rows) + ["", f"All cells above: {total / 3600:.1f} CPU hours."]


def kernel_counts(records):
    """How many records ran on each CPU kernel set, e.g. ``"AVX2 4, not recorded 2"``."""
    counts = Counter(r.get("cpu_capability", "not recorded") for r in records)
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))


def accelerator_lines(records):
    """Markdown lines naming the cells that ran on a GPU, by accelerator, dataset and method; none if all ran on CPU.

    Such cells trained under the estimators' default precision there (bf16
    autocast), so they recompute only on a like GPU, not on a CPU.
    """
    groups = defaultdict(set)
    for r in records:
        if r.get("accelerator"):
            groups[(r["accelerator"], r["dataset"], r["method"])].add((r["seed"], float(r["fraction"])))
    if not groups:
        return []
    parts = [f"{name} {method} ({len(cells)})" for (_, name, method), cells in sorted(groups.items())]
    gpus = sorted({gpu for gpu, _, _ in groups})
    return [
        f"Cells run on a GPU ({', '.join(gpus)}; bf16 autocast, the estimators' default there; they recompute "
        f"on a like GPU, not on a CPU), by dataset and method with their cell counts: {', '.join(parts)}. "
        "Every other cell ran on the CPU above.",
        "",
    ]
