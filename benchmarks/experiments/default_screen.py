"""The screening table of the candidate defaults: validation h-AUROC per row, from the benchmark's result records.

Reads ``benchmarks/cmapss_results.jsonl`` (C-MAPSS rows),
``benchmarks/event_results.jsonl`` (the event datasets; retired ones left
out) and ``benchmarks/screen_results.jsonl`` (the candidates' screening
cells, kept out of the report, whose tables compare methods on test
units) and, for the given seeds (their mean) and label fraction, prints one
markdown row per dataset with the validation h-AUROC (``valid_h_auroc``,
the figure the selection rule of ``benchmarks/default_selection.md`` reads)
of ``hepa-default`` and of each
candidate, then each candidate's largest shortfall against ``hepa-default``
and its mean rank over the rows where every method ran (rank 1: the highest
in the row). The lines of ``level_features.txt`` (the same rows, the
embedding beside the window's level) are read as extra columns.

Usage: python benchmarks/experiments/default_screen.py --seeds 0 1
"""

import argparse
import json
import os

import numpy as np
from hepa_bench.registry import BENCHMARKS

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = [
    os.path.join(HERE, "..", name) for name in ("cmapss_results.jsonl", "event_results.jsonl", "screen_results.jsonl")
]
METHODS = [
    "hepa-default",
    "hepa-default-rank",
    "hepa-default-untrained",
    "hepa-default-regime0",
    "hepa-default-auto0-spread",
    "hepa-default-auto0",
]
ARMS = ["revin+level", "regime+level", "regime-revin+level"]


def screen(seeds, fraction, methods=METHODS):
    """``{dataset: {column: mean validation h-AUROC over seeds}}``; a column needs every seed; C-MAPSS from its own
    file."""
    scores = {}
    for path in RESULTS:
        # C-MAPSS rows from the C-MAPSS file, event rows from the event file, the screening file for both
        wanted = {"cmapss_results.jsonl": True, "event_results.jsonl": False}.get(os.path.basename(path))
        for line in open(path):
            record = json.loads(line)
            dataset = record.get("dataset", record.get("subset"))
            if (
                record["seed"] not in seeds
                or float(record["fraction"]) != fraction
                or BENCHMARKS[dataset].retired
                or record.get("split", "fixed") != "fixed"
            ):  # the rolling origin's seeds are other data
                continue
            if record["method"] in methods and wanted in (None, dataset.startswith("FD")) and "valid_h_auroc" in record:
                scores.setdefault(dataset, {}).setdefault(record["method"], {})[record["seed"]] = record[
                    "valid_h_auroc"
                ]
    levels = os.path.join(HERE, "level_features.txt")
    if os.path.exists(levels) and fraction == 1.0 and methods is METHODS:
        for line in open(levels):
            if line.startswith("{"):
                record = json.loads(line)
                if record["seed"] in seeds:
                    scores.setdefault(record["dataset"], {}).setdefault(record["arm"], {})[record["seed"]] = record[
                        "valid_h_auroc"
                    ]
    return {
        dataset: {
            column: float(np.mean(list(by_seed.values())))
            for column, by_seed in row.items()
            if set(by_seed) == set(seeds)
        }
        for dataset, row in scores.items()
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--fraction", type=float, default=1.0)
    args = parser.parse_args()
    table = screen(args.seeds, args.fraction)
    columns = METHODS + [arm for arm in ARMS if any(arm in row for row in table.values())]
    print("| dataset | " + " | ".join(f"`{c}`" for c in columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for dataset, row in table.items():
        print(f"| {dataset} | " + " | ".join(f"{row[c]:.3f}" if c in row else "–" for c in columns) + " |")
    # the level arms are ranked beside the candidates where they ran on most rows
    ranked = METHODS + [arm for arm in ARMS if sum(arm in row for row in table.values()) >= len(table) // 2]
    for group in (METHODS, ranked) if ranked != METHODS else (METHODS,):
        complete = [row for row in table.values() if all(c in row for c in group)]
        ranks = np.array([[sorted(-row[c] for c in group).index(-row[c]) + 1 for c in group] for row in complete])
        print(f"\nover the {len(complete)} rows where {', '.join(group)} all ran:")
        for i, c in enumerate(group):
            shortfall = max(row["hepa-default"] - row[c] for row in complete)
            print(f"{c}: largest shortfall against hepa-default {shortfall:+.3f}, mean rank {ranks[:, i].mean():.2f}")


if __name__ == "__main__":
    main()
