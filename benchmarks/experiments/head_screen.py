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
    python benchmarks/experiments/head_screen.py --round 2 --seeds 0 1
"""

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np
from hepa_bench.results import read_results
from scipy import stats

REPOSITORY = Path(__file__).resolve().parents[2]
SCREEN = REPOSITORY / "benchmarks" / "screen_head_results.jsonl"
REFERENCE_FILES = [
    REPOSITORY / "benchmarks" / "cmapss_results.jsonl",
    REPOSITORY / "benchmarks" / "event_results.jsonl",
]
REFERENCE = "hepa-default-auto0"
# the candidates of each screen and its rule (benchmarks/default_selection.md)
ROUNDS = {
    1: ["hepa-default-auto0-knots16", "hepa-default-auto0-knots8", "hepa-default-auto0-knots16-h128"],
    2: ["hepa-default-auto0-knots12", "hepa-default-auto0-knots12-b128"],
}
MAX_SHORTFALL, MAX_MEAN_SHORTFALL = 0.02, 0.005  # first screen: per cell (one seed), and the mean
MAX_CELL_SHORTFALL_2, MIN_WILCOXON_P = 0.10, 0.05  # second screen: per cell (mean of the seeds), the paired test


def read(path, methods, seeds):
    """``{(dataset, fraction, method): {seed: record}}`` of the fixed-split records of ``methods``."""
    cells = defaultdict(dict)
    for record in read_results(path):
        if record.get("method") in methods and record["seed"] in seeds and record.get("split") in (None, "fixed"):
            dataset = record.get("dataset") or record.get("subset")
            cells[dataset, record["fraction"], record["method"]][record["seed"]] = record
    return cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=1)
    args = parser.parse_args()
    seeds = set(args.seeds)
    candidates = ROUNDS[args.round]
    screen = read(SCREEN, candidates, seeds)
    reference = {}
    for path in REFERENCE_FILES:
        reference.update(read(path, [REFERENCE], seeds))
    rows = sorted({(d, f) for d, f, _ in screen}, key=lambda row: (row[0], -row[1]))
    methods = [m for m in candidates if any((d, f, m) in screen for d, f in rows)]
    print("| dataset | labels | " + " | ".join(f"`{m}`" for m in [REFERENCE, *methods]) + " |")
    print("|---" * (2 + len(methods) + 1) + "|")
    gaps, pairs, cpu = defaultdict(list), defaultdict(list), defaultdict(float)
    for dataset, fraction in rows:
        ref = reference.get((dataset, fraction, REFERENCE), {})
        cells = [f"{np.mean([ref[s]['valid_h_auroc'] for s in sorted(seeds)]):.3f}" if set(ref) >= seeds else "-"]
        for method in methods:
            own = screen.get((dataset, fraction, method), {})
            if set(own) >= seeds and set(ref) >= seeds:
                mine = np.mean([own[s]["valid_h_auroc"] for s in sorted(seeds)])
                theirs = np.mean([ref[s]["valid_h_auroc"] for s in sorted(seeds)])
                gaps[method].append(mine - theirs)
                pairs[method] += [own[s]["valid_h_auroc"] - ref[s]["valid_h_auroc"] for s in sorted(seeds)]
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
        if args.round == 1:
            eligible = complete and -g.min() <= MAX_SHORTFALL and -g.mean() <= MAX_MEAN_SHORTFALL
            test = ""
        else:
            d = np.array(pairs[method])
            p = stats.wilcoxon(d, alternative="less").pvalue
            eligible = complete and -d.mean() <= MAX_MEAN_SHORTFALL and p >= MIN_WILCOXON_P
            eligible = eligible and -g.min() <= MAX_CELL_SHORTFALL_2
            test = f", over {len(d)} (cell, seed) pairs mean {d.mean():+.4f}, one-sided Wilcoxon p {p:.3f}"
        print(
            f"{method}: {len(g)} of {n_rows} cells, largest shortfall {-g.min():+.3f}, mean difference "
            f"{g.mean():+.4f}{test}, CPU {cpu[method]:.0f} s, "
            + ("eligible" if eligible else "not eligible" if complete else "incomplete")
        )


if __name__ == "__main__":
    main()
