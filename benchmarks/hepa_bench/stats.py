"""Statistics and table pieces of the report: mean ± std, paired tests over seeds, Holm's correction, comparisons.

Two methods run on the same seed share the split and the labelled windows,
so every comparison pairs their scores by seed. Each table of the report
is one family of comparisons, Holm-adjusted together; the marks, the
leaders and the win/tie/loss counts all read those adjusted p-values.
"""

import itertools
import warnings
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from scipy import stats

ALPHA = 0.05  # family-wise error rate of the markers in each table (Holm-adjusted paired t-test)
DEFAULT_TOLERANCE = 0.02  # how far below the best tuned variant the default pipeline may lie


def cells_by(records, name="subset"):
    """Records grouped by ``(record[name], label fraction, method)``."""
    cells = defaultdict(list)
    for r in records:
        cells[(r[name], float(r["fraction"]), r["method"])].append(r)
    return cells


def scores_of(records, key):
    """The ``key`` field of the records that have one, as floats."""
    return np.array([r[key] for r in records if r.get(key) is not None], dtype=float)


def mean_std(values, digits=3):
    """``mean ± std (n)`` with the sample standard deviation; one value has no spread."""
    values = values[np.isfinite(values)]
    if values.size == 0:
        return "—"
    spread = f" ± {np.std(values, ddof=1):.{digits}f}" if values.size > 1 else ""
    return f"{values.mean():.{digits}f}{spread} ({values.size})"


def paired_by_seed(records_a, records_b, key="h_auroc"):
    """Scores of two methods on the seeds both have a finite score for: ``(seeds, a, b)``, sorted by seed.

    Two methods run on the same seed share the unit split and the labelled
    units, so their scores on that seed form a pair; a seed only one of
    them ran (or where one score is missing) is left out.
    """
    a = {r["seed"]: r.get(key) for r in records_a}
    b = {r["seed"]: r.get(key) for r in records_b}
    seeds = sorted(
        s
        for s in a.keys() & b.keys()
        if a[s] is not None and b[s] is not None and np.isfinite(a[s]) and np.isfinite(b[s])
    )
    return seeds, np.array([a[s] for s in seeds], dtype=float), np.array([b[s] for s in seeds], dtype=float)


def paired_tests(a, b):
    """Two-sided p-values of the paired t-test and the Wilcoxon signed-rank test of ``a - b``.

    NaN for fewer than two pairs. Pairs that all differ by the same amount
    give the t-test no spread to scale by: p is 1 when that amount is 0 and
    0 otherwise (the limit of a vanishing spread), and Wilcoxon's p is 1
    when every difference is 0. Wilcoxon's test is exact here (scipy's
    default below 50 pairs without ties), so with n pairs its p is at
    least ``2 / 2**n``: 0.0625 for 5 seeds.
    """
    if a.size < 2:
        return np.nan, np.nan
    difference = a - b
    if np.ptp(difference) == 0:
        t_p = 1.0 if difference[0] == 0 else 0.0
    else:
        t_p = float(stats.ttest_rel(a, b).pvalue)
    if not difference.any():
        return t_p, 1.0
    with warnings.catch_warnings():  # a zero difference makes scipy fall back from the exact test with a warning
        warnings.simplefilter("ignore", UserWarning)
        w_p = float(stats.wilcoxon(a, b).pvalue)
    return t_p, w_p


def holm(pvalues):
    """Holm's step-down adjusted p-values, in the input order; NaN entries stay NaN and are not counted.

    With the ``m`` finite p-values sorted ascending, ``p_(1) <= ... <= p_(m)``,
    the adjusted ``p_(i)`` is ``max_{j <= i} min(1, (m - j + 1) p_(j))``;
    rejecting where it is below ``alpha`` keeps the family-wise error rate
    at ``alpha`` (Holm, "A simple sequentially rejective multiple test
    procedure", Scand. J. Statist. 6, 1979).
    """
    pvalues = np.asarray(pvalues, dtype=float)
    adjusted = np.full(pvalues.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(pvalues))
    order = finite[np.argsort(pvalues[finite], kind="stable")]
    m = order.size
    scaled = np.minimum(1.0, (m - np.arange(m)) * pvalues[order])
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


@dataclass
class Comparison:
    """Method ``a`` against method ``b`` on one subset and label fraction, paired over seeds."""

    a: str
    b: str
    subset: str
    fraction: float
    n_seeds: int
    mean_difference: float  # mean of a - b over the paired seeds
    t_p: float
    wilcoxon_p: float
    holm_p: float = np.nan  # the paired-t p adjusted over the comparisons of one table
    one_run: bool = False  # a or b scored the same on every paired seed: not tested


def one_run(scores):
    """Whether 2+ seeds gave one and the same score: the seeds varied nothing the method sees.

    A deterministic method on a fixed split (boosting, the elapsed-time
    baseline, with all labels) scores the same on every seed. Its seeds are
    one run, and pairing them with another method's seeds would measure that
    method's spread alone, so no paired test is run against it.
    """
    return scores.size >= 2 and np.ptp(scores) == 0


def compare(cells, rows, *, key="h_auroc"):
    """Every pair of methods in each row of a table, Holm-adjusted over all of them.

    A pair where either method is :func:`one_run` is recorded untested
    (p NaN, ``one_run`` set) and takes no part in the correction.

    ``rows`` lists ``(subset, fraction, methods)``; each unordered pair of
    ``methods`` with results in a row is one comparison, with ``a`` the one
    listed first.
    """
    comparisons = []
    for subset, fraction, methods in rows:
        ran = [m for m in methods if cells.get((subset, fraction, m))]
        for a, b in itertools.combinations(ran, 2):
            seeds, score_a, score_b = paired_by_seed(cells[(subset, fraction, a)], cells[(subset, fraction, b)], key)
            single = one_run(score_a) or one_run(score_b)
            t_p, w_p = (np.nan, np.nan) if single else paired_tests(score_a, score_b)
            difference = float(np.mean(score_a - score_b)) if seeds else np.nan
            comparisons.append(Comparison(a, b, subset, fraction, len(seeds), difference, t_p, w_p, one_run=single))
    for comparison, adjusted in zip(comparisons, holm([c.t_p for c in comparisons]), strict=True):
        comparison.holm_p = float(adjusted)
    return comparisons


def beaten_by(comparisons, alpha=ALPHA):
    """``{(subset, fraction, method): [methods it beats]}``: Holm-adjusted p below ``alpha``, higher mean."""
    beaten = defaultdict(list)
    for c in comparisons:
        if c.holm_p < alpha:
            winner, loser = (c.a, c.b) if c.mean_difference > 0 else (c.b, c.a)
            beaten[(c.subset, c.fraction, winner)].append(loser)
    return beaten


def marked(score_text, losers, methods):
    """``score_text`` followed by `` >m`` for each of ``methods`` among ``losers``."""
    return score_text + "".join(f" >{o}" for o in methods if o in losers)


def family_note(comparisons):
    """The line under a table: how many comparisons Holm's correction ran over."""
    tested = sum(np.isfinite(c.t_p) for c in comparisons)
    note = f"Holm's correction over {tested} comparison{'s' if tested != 1 else ''} (paired t-test, p < {ALPHA})."
    single = sum(c.one_run for c in comparisons)
    if single:
        note += (
            f" {single} comparison{'s' if single != 1 else ''} with a method that scored the same on every "
            f"seed (a deterministic method on a fixed split: one run, not five) {'are' if single != 1 else 'is'}"
            f" not tested."
        )
    return note


def _p(value):
    return "—" if not np.isfinite(value) else f"{value:.3g}"


def comparisons_table(comparisons):
    """One row per comparison: the pair, where, the seeds paired, the mean difference and the three p-values."""
    rows = [
        [
            f"{c.a} vs {c.b}",
            c.subset,
            f"{c.fraction * 100:g}%",
            str(c.n_seeds),
            "—" if not np.isfinite(c.mean_difference) else f"{c.mean_difference:+.3f}",
            _p(c.t_p),
            _p(c.wilcoxon_p),
            _p(c.holm_p) + (" *" if c.holm_p < ALPHA else ""),
        ]
        for c in comparisons
    ]
    return markdown_table(
        ["A vs B", "subset", "labels", "seeds", "mean A − B", "paired t p", "Wilcoxon p", "Holm p"], rows
    )


def markdown_table(header, rows):
    """Lines of a markdown table with ``header`` and one line per row of strings."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _against_baselines(comparisons, method, baselines):
    """``(comparison, baseline, method ahead)`` for each comparison of ``method`` with a baseline on 2+ shared seeds."""
    for c in comparisons:
        if method in (c.a, c.b) and c.n_seeds >= 2:
            baseline = c.b if c.a == method else c.a
            if baseline in baselines:
                yield c, baseline, (c.mean_difference > 0) == (c.a == method)


def win_tie_loss(comparisons, method, baselines, alpha=ALPHA):
    """``{baseline: (wins, ties, losses)}`` of ``method`` over the table's rows where both ran on 2+ shared seeds.

    A win or a loss needs a Holm-adjusted paired-t p below ``alpha``; every
    other row where both ran is a tie, an untested one (either side one run,
    p NaN) included.
    """
    counts = {b: [0, 0, 0] for b in baselines}
    for c, baseline, ahead in _against_baselines(comparisons, method, baselines):
        significant = c.holm_p < alpha  # False for NaN: an untested pair is no win and no loss
        counts[baseline][(0 if ahead else 2) if significant else 1] += 1
    return {b: tuple(v) for b, v in counts.items()}


def ahead_of_every_baseline(comparisons, method, baselines, alpha=ALPHA):
    """``(rows where method beats every baseline that ran, after correction; rows with method and 1+ baseline)``."""
    rows = defaultdict(lambda: [0, 0])  # (subset, fraction) -> [baselines compared, baselines beaten]
    for c, _, ahead in _against_baselines(comparisons, method, baselines):
        row = rows[(c.subset, c.fraction)]
        row[0] += 1
        row[1] += int(c.holm_p < alpha and ahead)
    return sum(beaten == compared for compared, beaten in rows.values()), len(rows)


def leaders(cells, comparisons, rows, alpha=ALPHA):
    """Markdown lines: per dataset and label fraction, the method with the highest mean and those level with it.

    Only methods with 2+ seeds take part. "Level" means no significant
    difference from the leader after Holm's correction (or no shared seeds
    to test).
    """
    by_pair = {(c.subset, c.fraction, frozenset((c.a, c.b))): c for c in comparisons}
    lines = []
    for subset, fraction, methods in rows:
        means = {
            m: float(np.nanmean(scores_of(cells[(subset, fraction, m)], "h_auroc")))
            for m in methods
            if len(cells.get((subset, fraction, m), [])) >= 2
        }
        means = {m: v for m, v in means.items() if np.isfinite(v)}
        if not means:
            continue
        top = max(means, key=means.get)
        level = [
            m
            for m in sorted(means, key=means.get, reverse=True)
            if m != top
            and not ((c := by_pair.get((subset, fraction, frozenset((top, m))))) is not None and c.holm_p < alpha)
        ]
        lines.append(
            [
                subset,
                f"{fraction * 100:g}%",
                f"{top} ({means[top]:.3f})",
                ", ".join(f"{m} ({means[m]:.3f})" for m in level) or "none",
            ]
        )
    return markdown_table(["dataset", "labels", "highest mean", "not significantly below it"], lines)


def default_against_tuned(cells, rows, *, variants, tolerance=DEFAULT_TOLERANCE):
    """Markdown lines: the plain default pipeline (``hepa-default``) beside the best tuned HEPA variant of its row.

    The best variant is the one of ``variants`` with the highest
    mean h-AUROC on 2+ seeds in that dataset and label fraction (a reading
    of the test figures to judge the defaults, not a choice a user could
    make); "yes" when the default's mean is at most ``tolerance`` below it.
    Only a default with 2+ seeds is judged.
    """
    lines = []
    for subset, fraction, _ in rows:
        values = scores_of(cells.get((subset, fraction, "hepa-default"), []), "h_auroc")
        values = values[np.isfinite(values)]
        if values.size == 0:
            continue
        means = {}
        for m in variants:
            tuned = scores_of(cells.get((subset, fraction, m), []), "h_auroc")
            tuned = tuned[np.isfinite(tuned)]
            if tuned.size >= 2:
                means[m] = tuned.mean()
        if not means:
            lines.append([subset, f"{fraction * 100:g}%", mean_std(values), "—", "—", "—"])
            continue
        best = max(means, key=means.get)
        gap = values.mean() - means[best]
        verdict = "—" if values.size < 2 else "yes" if gap >= -tolerance else "no"
        lines.append(
            [subset, f"{fraction * 100:g}%", mean_std(values), f"{best} ({means[best]:.3f})", f"{gap:+.3f}", verdict]
        )
    if not lines:
        return ["The default pipeline (`hepa-default`) has not run."]
    return markdown_table(
        ["dataset", "labels", "hepa-default", "best tuned variant", "default − best", f"within {tolerance:g}"], lines
    )
