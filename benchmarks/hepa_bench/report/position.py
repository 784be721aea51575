"""The leakage guard of the report: each row's best method against the scores that read only where a window sits.

A row where the stronger of the two reference points (the unit's visible
age, the window's position) is not significantly below the row's best
method counts for no method in the win counts; so does a retired dataset's.
"""

import numpy as np

from ..registry import BENCHMARKS
from ..stats import ALPHA, holm, markdown_table, mean_std, one_run, paired_by_seed, paired_tests, scores_of

__all__ = ["REFERENCE_POINTS", "excluded_rows", "position_guard", "reference_section"]


# the scores that read only where a window sits: the unit's visible age and the window's padding
REFERENCE_POINTS = ("elapsed", "position")


def position_guard(cells, rows, methods):
    """``(markdown lines, rows where position is not ruled out)``: the position-only score against each row's best.

    The best method of a row is the one of ``methods`` with the highest mean
    h-AUROC on 2+ seeds among those whose score varies with the seed; a
    method that scores the same on every seed (:func:`~hepa_bench.stats.one_run`,
    a deterministic method on a fixed split) is the best only where no method
    varies, since a pair of such runs is one pair of scores. The stronger of
    the two position-only scores
    (:data:`REFERENCE_POINTS`, the higher mean in the row) is compared with
    it by the paired t-test over their shared seeds, Holm-adjusted over the
    rows (a family of its own, apart from the table's). A row where that
    score is not significantly below the best method is one where position
    is not ruled out (so is a row where both are one run, where no test can
    rule it out): solved by position where its mean is at least the best's,
    otherwise too close for the seeds to tell. Either way no method's win
    there can be credited to what the windows hold. Comparing with a varying
    method below a one-run best is conservative: position significantly below
    it is below the one-run best's higher mean too.
    """
    tests = []
    for name, fraction, _ in rows:
        means = {m: _mean(cells, name, fraction, m) for m in methods + list(REFERENCE_POINTS)}
        ran = {m: v for m, v in means.items() if np.isfinite(v)}
        stronger = max((m for m in REFERENCE_POINTS if m in ran), key=ran.get, default=None)
        candidates = {m: v for m, v in ran.items() if m in methods}
        if stronger is None or not candidates:
            continue
        varying = {m: v for m, v in candidates.items() if not one_run(_scores(cells, name, fraction, m))}
        best = max(varying or candidates, key=(varying or candidates).get)
        seeds, score_reference, score_best = paired_by_seed(
            cells[(name, fraction, stronger)], cells[(name, fraction, best)]
        )
        if one_run(score_reference) and one_run(score_best):
            t_p = np.nan  # two deterministic runs: one pair of scores, nothing for a test to rule out
        else:
            t_p, _ = paired_tests(score_reference, score_best)
        gap = float(np.mean(score_reference - score_best)) if seeds else np.nan
        tests.append([name, fraction, stronger, best, len(seeds), gap, t_p])
    if not tests:
        return ["The position-only scores have not run."], set()
    lines, solved = [], set()
    for test, adjusted in zip(tests, holm([t[-1] for t in tests]), strict=True):
        name, fraction, stronger, best, n_seeds, gap, _ = test
        below = np.isfinite(adjusted) and adjusted < ALPHA and gap < 0
        if not below:
            solved.add((name, fraction))
        verdict = "ruled out" if below else "**solved by position**" if gap >= 0 else "**not ruled out**"
        lines.append(
            [name, f"{fraction * 100:g}%"]
            + [mean_std(scores_of(cells.get((name, fraction, m), []), "h_auroc")) for m in REFERENCE_POINTS]
            + [
                f"{best} ({_mean(cells, name, fraction, best):.3f})",
                str(n_seeds),
                f"{gap:+.3f} ({stronger})",
                f"{adjusted:.3g}" if np.isfinite(adjusted) else "untested (one run each)",
                verdict,
            ]
        )
    header = ["dataset", "labels", *REFERENCE_POINTS, "best method", "seeds", "position − best", "Holm p", "position"]
    return markdown_table(header, lines), solved


def reference_section(guard, shown):
    """The reference points' subsection, when any ran."""
    if not shown:
        return []
    return [
        "### Reference points: the unit's age and the window's position",
        "",
        "Two scores that read no sensor value, in the table above without marks: `elapsed`, the event-time "
        "distribution given the unit's visible age (`ElapsedTimeEventPredictor`), and `position`, per bin of "
        "the visible age the training windows' event share per horizon. Each row's stronger of the two is "
        "compared with its best method (highest mean on 2+ seeds among the methods whose score varies with the seed; "
        "a method that scores the same on every seed is one run and is the best only where none varies) by the "
        "paired t-test over shared seeds, "
        f"Holm-adjusted over the rows of this table (a family of its own). Position is ruled out where it is "
        f"significantly below the best (Holm p < {ALPHA}); elsewhere the row is solved by position (its mean "
        "at least the best's: where a window sits gives the answer, not what it holds) or position is not "
        "ruled out (below the best, but not significantly with these seeds), and either way the row counts "
        "for no method in the win counts below.",
        "",
        *guard,
        "",
    ]


def _scores(cells, name, fraction, method):
    """The finite h-AUROC scores of ``method`` in a row."""
    values = scores_of(cells.get((name, fraction, method), []), "h_auroc")
    return values[np.isfinite(values)]


def _mean(cells, name, fraction, method):
    """Mean h-AUROC of ``method`` in a row over its finite seeds; NaN with fewer than two."""
    values = _scores(cells, name, fraction, method)
    return values.mean() if values.size >= 2 else np.nan


def excluded_rows(cells, rows, methods):
    """``(guard lines, rows that count for no method, {retired dataset: reason})``.

    A row counts for no method where the leakage guard does not rule out
    position (:func:`position_guard`) or its dataset is retired.
    """
    guard, solved = position_guard(cells, rows, methods)
    retired = {name: BENCHMARKS[name].retired for name, _, _ in rows if BENCHMARKS[name].retired}
    return guard, solved | {(name, fraction) for name, fraction, _ in rows if name in retired}, retired
