"""Step 3 of the default selection: the chosen defaults judged on test units against the acceptance of the defaults.

For every benchmark row that is not retired (C-MAPSS FD001 to FD004 and the
event datasets; 100% and 10% labels; the fixed split) it prints the mean
test h-AUROC of the headline line with today's defaults
(``hepa-default-auto0``) beside what ``benchmarks/default_selection.md``
judges it against: the strongest boosting baseline that needs nothing from
the user (the best mean of ``gbm``, ``gbm-select`` and ``gbm-last30``),
``elapsed``, the best HEPA variant (the report summary's choice: the
highest mean of family ``hepa`` on 2+ seeds) and the 0.1.0 defaults
(``hepa-default``), with the paired t-test against ``hepa-default`` on the
seeds both ran, Holm-adjusted over the rows. The last columns say which of
the four conditions the row meets. Records as the report reads them.

The judgement read boosting with the targets of release 0.2.0; those
records are now named ``gbm-logtime``, ``gbm-select-logtime`` and
``gbm-last30-logtime``, and the table gives them as judged. The two columns
after it give the best mean of the same three methods rerun with the
corrected targets (``benchmarks/boosting_targets.md``) and the first
condition against it.

Usage: python benchmarks/experiments/default_judgement.py
"""

import os

import numpy as np
from hepa_bench.registry import BENCHMARKS
from hepa_bench.report_cmapss import cmapss_records
from hepa_bench.report_events import event_records
from hepa_bench.report_summary import HEADLINE, best_variant, finite_scores, merged_cells
from hepa_bench.results import read_results
from hepa_bench.stats import holm, markdown_table, paired_by_seed, paired_tests

HERE = os.path.dirname(os.path.abspath(__file__))
BOOSTING = ("gbm", "gbm-select", "gbm-last30")  # boosting that needs no setting channels named
AS_JUDGED = "-logtime"  # the records of release 0.2.0's boosting targets, which the judgement read
MARGIN = 0.02


def cells():
    """The report's cells of both results files (C-MAPSS rows from the C-MAPSS records)."""
    results = cmapss_records(
        read_results(os.path.join(HERE, "..", "cmapss_results.jsonl")), pretrain_epochs=50, finetune_epochs=30
    )
    events = event_records(read_results(os.path.join(HERE, "..", "event_results.jsonl")))
    return merged_cells(results, events)


def mean(table, name, fraction, method):
    """``(mean, n)`` of the finite test h-AUROC of ``method`` in the row; ``(nan, 0)`` without records."""
    values = finite_scores(table, name, method, fraction)
    return (float(values.mean()), values.size) if values.size else (np.nan, 0)


def judge():
    table = cells()
    rows, pvalues = [], []
    for name, entry in BENCHMARKS.items():
        if entry.retired:
            continue
        for fraction in (1.0, 0.1):
            headline, n = mean(table, name, fraction, HEADLINE)
            if not n:
                continue
            boosting, corrected = (
                max(
                    (mean(table, name, fraction, m + suffix) + (m,) for m in BOOSTING),
                    key=lambda item: -np.inf if np.isnan(item[0]) else item[0],
                )
                for suffix in (AS_JUDGED, "")
            )
            best = best_variant(table, name, fraction)
            seeds, a, b = paired_by_seed(
                table.get((name, fraction, HEADLINE), []), table.get((name, fraction, "hepa-default"), [])
            )
            t_p = paired_tests(a, b)[0] if len(seeds) >= 2 else np.nan
            pvalues.append(t_p)
            rows.append(
                dict(
                    name=name,
                    fraction=fraction,
                    headline=headline,
                    n=n,
                    old=mean(table, name, fraction, "hepa-default")[0],
                    difference=float(np.mean(a - b)) if len(seeds) else np.nan,
                    n_paired=len(seeds),
                    boosting=boosting,
                    corrected=corrected,
                    elapsed=mean(table, name, fraction, "elapsed")[0],
                    best=best,
                    best_mean=mean(table, name, fraction, best)[0] if best else np.nan,
                )
            )
    adjusted = holm(np.array(pvalues))
    lines = []
    for row, p in zip(rows, adjusted, strict=True):
        worse = row["difference"] < 0 and p < 0.05
        checks = [
            row["headline"] >= row["boosting"][0] - MARGIN,
            row["headline"] >= row["elapsed"],
            row["headline"] >= row["best_mean"] - MARGIN,
            not worse,
        ]
        lines.append(
            [
                row["name"],
                f"{row['fraction']:.0%}",
                f"{row['headline']:.3f} ({row['n']})",
                f"{row['old']:.3f}",
                f"{row['difference']:+.3f} ({row['n_paired']})",
                f"{p:.3g}",
                f"{row['boosting'][0]:.3f} ({row['boosting'][2]})",
                f"{row['elapsed']:.3f}",
                f"{row['best_mean']:.3f} ({row['best']})" if row["best"] else "–",
                *("yes" if ok else "**no**" for ok in checks),
                "–" if np.isnan(row["corrected"][0]) else f"{row['corrected'][0]:.3f} ({row['corrected'][2]})",
                "–"
                if np.isnan(row["corrected"][0])
                else ("yes" if row["headline"] >= row["corrected"][0] - MARGIN else "**no**"),
            ]
        )
    header = [
        "row",
        "labels",
        f"`{HEADLINE}`",
        "`hepa-default`",
        "difference (seeds)",
        "Holm p",
        "best boosting",
        "`elapsed`",
        "best HEPA variant",
        ">= boosting - 0.02",
        ">= elapsed",
        ">= best variant - 0.02",
        "not significantly below 0.1.0",
        "best boosting, corrected targets",
        ">= corrected boosting - 0.02",
    ]
    return markdown_table(header, lines)


if __name__ == "__main__":
    print("\n".join(judge()))
