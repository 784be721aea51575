"""The paper's quoted Table 1 figures in the event section: as quoted, the best baseline, and ours beside them."""

import numpy as np

from ..registry import BENCHMARKS, PAPER_COLUMNS
from ..stats import markdown_table, mean_std, scores_of

__all__ = ["SPREAD_FLOOR", "against_paper", "best_baseline", "quoted"]


def quoted(figures, fraction):
    """A quoted figure of the paper, ``mean ± std`` to its two decimals, or a dash."""
    if not figures or fraction not in figures:
        return "—"
    mean, std = figures[fraction]
    return f"{mean:.2f} ± {std:.2f}"


def best_baseline(paper, fraction):
    """The paper's best non-HEPA column(s) at ``fraction``: ``"name mean ± std"``, ties joined; or a dash."""
    baselines = {
        column: figures[fraction] for column, figures in paper.items() if column != "hepa" and fraction in figures
    }
    if not baselines:
        return "—"
    best = max(mean for mean, _ in baselines.values())
    return ", ".join(
        f"{PAPER_COLUMNS[column][0]} {quoted(paper[column], fraction)}"
        for column, (mean, _) in baselines.items()
        if mean == best
    )


SPREAD_FLOOR = 0.005  # the paper prints two decimals: a quoted std of 0.00 is below 0.005


def against_paper(cells, rows):
    """Markdown lines: each of our methods that the paper also ran, beside its quoted figure.

    "Within spread" when our mean lies within two of the paper's standard
    deviations of its mean (a quoted std below 0.005 counts as 0.005, since
    the paper prints two decimals); "above" or "below" otherwise. Only our
    cells with 2+ seeds are judged.
    """
    lines = []
    for subset, fraction, methods in rows:
        paper = BENCHMARKS[subset].paper
        for m in methods:
            values = scores_of(cells.get((subset, fraction, m), []), "h_auroc")
            values = values[np.isfinite(values)]
            if m not in paper or fraction not in paper[m] or values.size == 0:
                continue
            mean, std = paper[m][fraction]
            gap = values.mean() - mean
            verdict = (
                "—"
                if values.size < 2
                else "within spread"
                if abs(gap) <= 2 * max(std, SPREAD_FLOOR)
                else "above"
                if gap > 0
                else "below"
            )
            lines.append(
                [
                    subset,
                    f"{fraction * 100:g}%",
                    m,
                    mean_std(values),
                    quoted(paper[m], fraction),
                    f"{gap:+.3f}",
                    verdict,
                ]
            )
    return markdown_table(["dataset", "labels", "method", "ours", "paper (quoted)", "ours − paper", "judged"], lines)
