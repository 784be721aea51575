"""The simulated rows: each method's h-AUROC and its share of the gap between the elapsed-time baseline and the oracle.

On a simulated fleet (:mod:`hepa_bench.simulated`) the oracle knows each
unit's hidden damage and rates, so its surface is the ceiling of any model
of the sensors, and the elapsed-time baseline (the unit's visible age) is
the floor a model of the sensors should clear. A method's share of the gap
is ``(m - elapsed) / (oracle - elapsed)`` on the mean h-AUROC over the seeds
all three ran: 0 is the age alone, 1 the ceiling; it is negative below the
age and above 1 only by chance. Elapsed is taken at the method's label
fraction (it learns its age curve from the labels too); the oracle learns
nothing, so it is the same at every fraction.
"""

import numpy as np

from .simulated import PRESETS
from .stats import markdown_table, mean_std

__all__ = ["FLOOR", "CEILING", "gap_share", "render_simulated", "simulated_cells"]

FLOOR, CEILING = "elapsed", "oracle"
_ORDER = ("oracle", "age-oracle", "hepa-default-auto0", "gbm", "elapsed")  # columns first, the rest after


def simulated_cells(records):
    """``{(row, fraction, method): {seed: h_auroc}}`` of the records of simulated rows (finite scores only)."""
    cells = {}
    for r in records:
        score = r.get("h_auroc")
        if r.get("dataset") in PRESETS and score is not None and np.isfinite(score):
            cells.setdefault((r["dataset"], float(r["fraction"]), r["method"]), {})[r["seed"]] = float(score)
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


def render_simulated(records):
    """Markdown lines of the simulated section; none when no record is of a simulated row."""
    cells = simulated_cells(records)
    if not cells:
        return []
    present = {m for _, _, m in cells}
    methods = [m for m in _ORDER if m in present] + sorted(present - set(_ORDER))
    rows = sorted({(name, fraction) for name, fraction, _ in cells}, key=lambda r: (list(PRESETS).index(r[0]), -r[1]))
    scores, shares = [], []
    for name, fraction in rows:
        scores.append(
            [name, f"{fraction * 100:g}%"]
            + [mean_std(np.array(list(cells.get((name, fraction, m), {}).values()))) for m in methods]
        )
        floor, ceiling = cells.get((name, fraction, FLOOR), {}), cells.get((name, 1.0, CEILING), {})
        ceiling = cells.get((name, fraction, CEILING), ceiling)
        shares.append(
            [name, f"{fraction * 100:g}%"]
            + [
                _share_text(gap_share(cells.get((name, fraction, m), {}), floor, ceiling))
                for m in methods
                if m not in (FLOOR, CEILING)
            ]
        )
    return [
        "### Simulated fleets: the distance to the ceiling",
        "",
        "Fleets drawn by `hepa_sklearn.datasets.make_fleet` (`python -m hepa_bench.simulated`): seed s draws a new "
        "fleet of 100 units, 60 train, 10 validate, 30 test, so the seeds vary the data as well as the model. "
        "`sim-default`: one failure mode at the generator's defaults (six operating regimes, noise 0.15); "
        "`sim-hard`: noise 0.4, 4 informative sensors among 8 that carry nothing, degradation 25 % slower; "
        "`sim-modes`: three competing failure modes. `oracle` is the exact surface given each unit's hidden "
        "damage and rates: an upper bound on what any model of the sensors can reach, not a method. "
        "`age-oracle` is the exact surface given the unit's age alone; `elapsed` estimates that from the "
        "labelled windows. Test h-AUROC, mean ± std (seeds):",
        "",
        *markdown_table(["fleet", "labels"] + methods, scores),
        "",
        "Share of the gap from `elapsed` (0) to `oracle` (1), on the mean h-AUROC over the seeds all three ran "
        "(elapsed at the row's label fraction):",
        "",
        *markdown_table(["fleet", "labels"] + [m for m in methods if m not in (FLOOR, CEILING)], shares),
        "",
    ]
