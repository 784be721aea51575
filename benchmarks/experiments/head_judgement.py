"""The test-unit judgement of a cheaper event head against ``hepa-default-auto0`` (benchmarks/default_selection.md).

Per row × label fraction (C-MAPSS FD001-FD004 from
``benchmarks/cmapss_results.jsonl``, the event datasets from
``benchmarks/event_results.jsonl``, fixed split): the test h-AUROC of the
candidate and of ``hepa-default-auto0`` over the seeds both ran, their
mean difference, the paired t-test's p and its Holm adjustment over the
rows (``hepa_bench.stats``). Then the two conditions: no row significantly
below (Holm p < 0.05 with a negative difference) and the mean of the row
differences at least -0.005::

    python benchmarks/experiments/head_judgement.py --method hepa-default-auto0-knots12
"""

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np
from hepa_bench.results import read_results
from hepa_bench.stats import holm, markdown_table, paired_by_seed, paired_tests

REPOSITORY = Path(__file__).resolve().parents[2]
FILES = [REPOSITORY / "benchmarks" / "cmapss_results.jsonl", REPOSITORY / "benchmarks" / "event_results.jsonl"]
REFERENCE = "hepa-default-auto0"
ALPHA, MAX_MEAN_SHORTFALL = 0.05, 0.005


def records_of(methods):
    cells = defaultdict(list)
    for path in FILES:
        for record in read_results(path):
            if record.get("method") in methods and record.get("split") in (None, "fixed"):
                cells[record.get("dataset") or record.get("subset"), record["fraction"], record["method"]].append(
                    record
                )
    return cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="hepa-default-auto0-knots12")
    args = parser.parse_args()
    cells = records_of({args.method, REFERENCE})
    rows = sorted({(d, f) for d, f, m in cells if m == args.method}, key=lambda row: (row[0], -row[1]))
    table, differences, pvalues = [], [], []
    for dataset, fraction in rows:
        seeds, mine, theirs = paired_by_seed(cells[dataset, fraction, args.method], cells[dataset, fraction, REFERENCE])
        t_p, _ = paired_tests(mine, theirs)
        differences.append(float(np.mean(mine - theirs)) if seeds else np.nan)
        pvalues.append(t_p)
        table.append([dataset, f"{fraction:.0%}", f"{mine.mean():.3f}", f"{theirs.mean():.3f}", str(len(seeds))])
    adjusted = holm(pvalues)
    for row, difference, p, q in zip(table, differences, pvalues, adjusted, strict=True):
        row += [f"{difference:+.4f}", f"{p:.3g}", f"{q:.3g}"]
    header = ["dataset", "labels", f"`{args.method}`", f"`{REFERENCE}`", "seeds", "difference", "t-test p", "Holm p"]
    print("\n".join(markdown_table(header, table)))
    below = [f"{r[0]} {r[1]}" for r, d, q in zip(table, differences, adjusted, strict=True) if q < ALPHA and d < 0]
    mean = float(np.nanmean(differences)) if rows else np.nan
    print()
    print(f"rows: {len(rows)}; significantly below {REFERENCE} (Holm p < {ALPHA}): {below or 'none'}")
    print(f"mean difference over the rows: {mean:+.4f} (at least -{MAX_MEAN_SHORTFALL} required)")
    print("passes" if not below and mean >= -MAX_MEAN_SHORTFALL and len(rows) == 20 else "does not pass")


if __name__ == "__main__":
    main()
