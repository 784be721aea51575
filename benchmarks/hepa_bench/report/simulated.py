"""The simulated rows: each method's h-AUROC, its share of the gap between the exact age-only surface and
the oracle, and the paired tests between the methods.

On a simulated fleet (:mod:`hepa_bench.simulated.rows`) the oracle knows each
unit's hidden damage and rates, so its surface is the ceiling of any model
of the sensors, and the age oracle (the exact surface given the unit's age
alone) is the floor a model of the sensors should clear: what the visible
age tells, known exactly. A method's share of the gap is
``(m - age-oracle) / (oracle - age-oracle)`` on the mean h-AUROC over the
seeds all three ran: 0 is the age alone, 1 the ceiling; it is negative
below the age and above 1 only by chance. Neither reference learns
anything, so both are the same at every label fraction. The floor was the
fitted elapsed-time baseline (``elapsed``, the age curve learnt from the
labelled windows) until it collapsed with few labels (0.718 on
``sim-modes`` with a tenth of them, where the age-only surface scores
0.854) and so inflated every share there; ``elapsed`` is now a method of
the tables like the others, its share the distance of a fitted age curve
from the exact one.

Every pair of methods in each fleet and label fraction (the references
included) is compared by the paired t-test over the seeds, each seed a
fleet both ran on; Holm's correction runs over all the comparisons of the
section together, a family of its own (:func:`simulated_comparisons`).
"""

import numpy as np

from ..methods.table import METHODS
from ..simulated.rows import PRESETS
from ..stats import ALPHA, cells_by, compare, comparisons_table, family_note, leaders, markdown_table, mean_std

__all__ = ["CEILING", "FLOOR", "gap_share", "render_simulated", "simulated_cells", "simulated_comparisons"]

AGE_FLOOR, CEILING = "age-oracle", "oracle"  # the shares of this section: from the exact age-only surface
#: The fitted floor, ``elapsed``: a method of this section's tables, and the floor of the competing-risks
#: section (:mod:`hepa_bench.report.causes`), whose records hold no age-only surface.
FLOOR = "elapsed"
ENDS = (AGE_FLOOR, CEILING)  # the shares' 0 and 1
_GAP_COLUMNS = ["fleet", "labels", "method", "mean", "share", "seeds"] + [f"− {r} (Holm p)" for r in ENDS]
_FIRST, _LAST = ("oracle", "age-oracle"), ("elapsed",)  # columns first and last; the methods between, table order


def _scored(records):
    """The records of simulated rows with a finite numeric test h-AUROC."""
    return [
        r
        for r in records
        if r.get("dataset") in PRESETS
        and isinstance(r.get("h_auroc"), (int, float))
        and not isinstance(r["h_auroc"], bool)
        and np.isfinite(r["h_auroc"])
    ]


def simulated_cells(records):
    """``{(row, fraction, method): {seed: h_auroc}}`` of the records of simulated rows (finite scores only)."""
    cells = {}
    for r in _scored(records):
        cells.setdefault((r["dataset"], float(r["fraction"]), r["method"]), {})[r["seed"]] = float(r["h_auroc"])
    return cells


def gap_share(method, floor, ceiling):
    """``(share, seeds)``: ``(mean m - mean floor) / (mean ceiling - mean floor)`` over the seeds all three have.

    ``method``, ``floor`` and ``ceiling`` map seeds to scores. NaN when no
    seed is shared or the ceiling does not exceed the floor.

    Examples
    --------
    >>> share, n_seeds = gap_share({0: 0.8, 1: 0.9}, {0: 0.7, 1: 0.7}, {0: 0.95, 1: 0.95, 2: 0.9})
    >>> round(share, 6), n_seeds  # (0.85 - 0.7) / (0.95 - 0.7) over seeds 0 and 1
    (0.6, 2)
    """
    seeds = sorted(set(method) & set(floor) & set(ceiling))
    if not seeds:
        return float("nan"), 0
    m, lo, hi = (np.mean([scores[s] for s in seeds]) for scores in (method, floor, ceiling))
    return (float((m - lo) / (hi - lo)) if hi > lo else float("nan")), len(seeds)


def _share_text(share):
    return "—" if not np.isfinite(share[0]) else f"{share[0]:.2f}"


def _methods(present):
    """The columns: the oracles, the methods in the method table's order (others by name), elapsed last."""
    middle = [m for m in METHODS if m in present and m not in _FIRST + _LAST]
    middle += sorted(set(present) - set(middle) - set(_FIRST + _LAST))
    return [m for m in _FIRST if m in present] + middle + [m for m in _LAST if m in present]


def _rows(cells):
    """``(row, fraction)`` pairs that ran: the rows in :data:`PRESETS` order, all labels first."""
    return sorted({(name, fraction) for name, fraction, _ in cells}, key=lambda r: (list(PRESETS).index(r[0]), -r[1]))


def simulated_comparisons(records):
    """``(grouped, rows, comparisons)``: every pair of methods per simulated row and label fraction, Holm-adjusted
    together.

    ``grouped`` maps ``(row, fraction, method)`` to its records, ``rows`` lists
    ``(row, fraction, methods)`` as :func:`~hepa_bench.stats.compare` reads
    them, and ``comparisons`` are its paired t-tests over the seeds (a
    method that scored the same on every seed is one run and not tested).
    """
    cells = simulated_cells(records)
    grouped = cells_by(_scored(records), "dataset")
    methods = _methods({m for _, _, m in cells})
    rows = [(name, fraction, [m for m in methods if (name, fraction, m) in cells]) for name, fraction in _rows(cells)]
    return grouped, rows, compare(grouped, rows)


def _against(by_pair, name, fraction, method, other):
    """``method - other`` over their shared seeds with its Holm-adjusted p, ``*`` below ALPHA; "—" untested."""
    c = by_pair.get((name, fraction, frozenset((method, other))))
    if c is None or not np.isfinite(c.mean_difference):
        return "—"
    difference = c.mean_difference if c.a == method else -c.mean_difference
    tested = "not tested" if not np.isfinite(c.holm_p) else f"p {c.holm_p:.3g}" + (" *" if c.holm_p < ALPHA else "")
    return f"{difference:+.3f} ({tested})"


def _reference(cells, name, fraction, reference):
    """A reference's scores at ``fraction``, or with all labels where it ran with those alone (it learns
    nothing)."""
    return cells.get((name, fraction, reference), cells.get((name, 1.0, reference), {}))


def render_simulated(records):
    """Markdown lines of the simulated section; none when no record is of a simulated row."""
    cells = simulated_cells(records)
    if not cells:
        return []
    methods = _methods({m for _, _, m in cells})
    rows = _rows(cells)
    grouped, test_rows, comparisons = simulated_comparisons(records)
    by_pair = {(c.subset, c.fraction, frozenset((c.a, c.b))): c for c in comparisons}
    scores, shares, gaps = [], [], []
    for name, fraction in rows:
        labels = f"{fraction * 100:g}%"
        scores.append(
            [name, labels] + [mean_std(np.array(list(cells.get((name, fraction, m), {}).values()))) for m in methods]
        )
        # the references learn nothing: a fraction that did not run them reads them with all labels
        floor, ceiling = (_reference(cells, name, fraction, r) for r in ENDS)
        learners = [m for m in methods if m not in ENDS]
        shares.append(
            [name, labels]
            + [_share_text(gap_share(cells.get((name, fraction, m), {}), floor, ceiling)) for m in learners]
        )
        for m in learners:
            own = cells.get((name, fraction, m), {})
            if own:
                share, n_seeds = gap_share(own, floor, ceiling)
                gaps.append(
                    [name, labels, m, f"{np.mean(list(own.values())):.3f}", _share_text((share, n_seeds)), str(n_seeds)]
                    + [_against(by_pair, name, fraction, m, other) for other in ENDS]
                )
    return [
        "### Simulated fleets: the distance to the ceiling",
        "",
        "Fleets drawn by `hepa_sklearn.datasets.make_fleet` (`hepa-bench run --datasets sim-default sim-hard "
        "sim-modes`, rows in `hepa_bench.simulated.rows`): seed s draws a new "
        "fleet of 100 units, 60 train, 10 validate, 30 test, so the seeds vary the data as well as the model. "
        "`sim-default`: one failure mode at the generator's defaults (six operating regimes, noise 0.15); "
        "`sim-hard`: noise 0.4, 4 informative sensors among 8 that carry nothing, degradation 25 % slower; "
        "`sim-modes`: three competing failure modes. `oracle` is the exact surface given each unit's hidden "
        "damage and rates: an upper bound on what any model of the sensors can reach, not a method. "
        "`age-oracle` is the exact surface given the unit's age alone, the floor: what the visible age "
        "tells; `elapsed` estimates it from the labelled windows. Test h-AUROC, mean ± std (seeds):",
        "",
        *markdown_table(["fleet", "labels"] + methods, scores),
        "",
        "Share of the gap from `age-oracle` (0) to `oracle` (1), on the mean h-AUROC over the seeds all "
        "three ran (neither reference learns, so both are the same at every label fraction). The floor is "
        "the exact age-only surface rather than the fitted `elapsed`, which collapses with few labels and "
        "would inflate the shares there; `elapsed` is a method here, its share the distance of a fitted age "
        "curve from the exact one:",
        "",
        *markdown_table(["fleet", "labels"] + [m for m in methods if m not in ENDS], shares),
        "",
        "#### The gap, tested",
        "",
        "Per method: its mean h-AUROC over its seeds, its share of the gap and the seeds that share pairs, and "
        "its mean difference from the floor (`age-oracle`) and from the ceiling (`oracle`) over the seeds "
        "both ran, with the paired t-test's p after Holm's correction over every comparison of the simulated "
        f"rows (the pairwise table below), `*` where it is below {ALPHA}: a share significantly above 0 "
        "where the method beats `age-oracle`, significantly below 1 where it falls short of `oracle`. Each "
        "seed is a fleet "
        "of its own, so the seeds pair fleets, not only fits.",
        "",
        *markdown_table(_GAP_COLUMNS, gaps),
        "",
        family_note(comparisons),
        "",
        "#### Which method, per fleet",
        "",
        "The method with the highest mean h-AUROC per fleet and label fraction (2+ seeds; the references "
        "included), and those whose difference from it is not significant after Holm's correction over the "
        "simulated rows' comparisons:",
        "",
        *leaders(grouped, comparisons, test_rows),
        "",
        "#### Pairwise comparisons on the simulated rows",
        "",
        *comparisons_table(comparisons),
        "",
    ]
