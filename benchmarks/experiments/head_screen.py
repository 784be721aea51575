"""The rule of ``benchmarks/default_selection.md`` for a cheaper event head, applied to the validation screen.

Reads the candidates' validation-only records
(``benchmarks/screen_head_results.jsonl``) and ``hepa-default-auto0``'s
records of the same cells (``benchmarks/cmapss_results.jsonl`` for the
C-MAPSS subsets, ``benchmarks/event_results.jsonl`` for the event
datasets, fixed split), and prints per row × label fraction the
validation h-AUROC (mean over the seeds given) of each, then per
candidate its largest shortfall against ``hepa-default-auto0``, its mean
difference, the CPU seconds of its cells and whether the rule finds it
eligible::

    python benchmarks/experiments/head_screen.py --seeds 0
"""

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[2]
SCREEN = REPOSITORY / "benchmarks" / "screen_head_results.jsonl"
REFERENCE_FILES = [
    REPOSITORY / "benchmarks" / "cmapss_results.jsonl",
    REPOSITORY / "benchmarks" / "event_results.jsonl",
]
REFERENCE = "hepa-default-auto0"
CANDIDATES = ["hepa-default-auto0-knots16", "hepa-default-auto0-knots8", "hepa-default-auto0-knots16-h128"]
MAX_SHORTFALL, MAX_MEAN_SHORTFALL = 0.02, 0.005


def read(path, methods, seeds):
    """``{(dataset, fraction, method): {seed: record}}`` of the fixed-split records of ``methods``."""
    cells = defaultdict(dict)
    for line in open(path):
        record = json.loads(line)
        if record.get("method") in methods and record["seed"] in seeds and record.get("split") in (None, "fixed"):
            dataset = record.get("dataset") or record.get("subset")
            cells[dataset, record["fraction"], record["method"]][record["seed"]] = record
    return cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    args = parser.parse_args()
    seeds = set(args.seeds)
    screen = read(SCREEN, CANDIDATES, seeds)
    reference = {}
    for path in REFERENCE_FILES:
        reference.update(read(path, [REFERENCE], seeds))
    rows = sorted({(d, f) for d, f, _ in screen}, key=lambda row: (row[0], -row[1]))
    methods = [m for m in CANDIDATES if any((d, f, m) in screen for d, f in rows)]
    print("| dataset | labels | " + " | ".join(f"`{m}`" for m in [REFERENCE, *methods]) + " |")
    print("|---" * (2 + len(methods) + 1) + "|")
    gaps, cpu = defaultdict(list), defaultdict(float)
    for dataset, fraction in rows:
        ref = reference.get((dataset, fraction, REFERENCE), {})
        cells = [f"{np.mean([ref[s]['valid_h_auroc'] for s in sorted(seeds)]):.3f}" if set(ref) >= seeds else "-"]
        for method in methods:
            own = screen.get((dataset, fraction, method), {})
            if set(own) >= seeds and set(ref) >= seeds:
                mine = np.mean([own[s]["valid_h_auroc"] for s in sorted(seeds)])
                theirs = np.mean([ref[s]["valid_h_auroc"] for s in sorted(seeds)])
                gaps[method].append(mine - theirs)
                cpu[method] += sum(own[s]["cpu_s"] for s in seeds)
                cells.append(f"{mine:.3f}")
            else:
                cells.append("-")
        print(f"| {dataset} | {fraction:.0%} | " + " | ".join(cells) + " |")
    print()
    n_rows = len(rows)
    for method in methods:
        g = np.array(gaps[method])
        complete = len(g) == n_rows
        eligible = complete and -g.min() <= MAX_SHORTFALL and -g.mean() <= MAX_MEAN_SHORTFALL
        print(
            f"{method}: {len(g)} of {n_rows} cells, largest shortfall {-g.min():+.3f}, mean difference "
            f"{g.mean():+.4f}, CPU {cpu[method]:.0f} s, "
            + ("eligible" if eligible else "not eligible" if complete else "incomplete")
        )


if __name__ == "__main__":
    main()
