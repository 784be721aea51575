"""The competing-risks section: each cause's h-AUROC beside the oracle's, and the share of the gap from the age alone to
the oracle it closes.

Records of :mod:`hepa_bench.simulated.causes`, one per (row, seed, label
fraction, method), each with ``cause_h_auroc``, a list of one h-AUROC per
cause. For each method and cause, the mean over the seeds that the method,
``elapsed`` (the floor) and ``oracle`` (the ceiling) all ran, and the share
of the gap ``(m - elapsed) / (oracle - elapsed)`` on those means, as
:func:`hepa_bench.report.simulated.gap_share` computes it per row.
"""

import numpy as np

from ..stats import markdown_table, mean_std
from .simulated import CEILING, FLOOR, gap_share

__all__ = ["cause_cells", "cause_rows", "render_causes"]

_ORDER = ("hepa-default-auto0", "gbm", "elapsed", "oracle")


def cause_cells(records):
    """``{(row, fraction, method, cause): {seed: h_auroc}}`` and
    ``{(row, fraction, method): {seed: any-event h_auroc}}``."""
    per_cause, any_event = {}, {}
    for r in records:
        key = (r["dataset"], float(r["fraction"]), r["method"])
        if r.get("h_auroc") is not None and np.isfinite(r["h_auroc"]):
            any_event.setdefault(key, {})[r["seed"]] = float(r["h_auroc"])
        for cause, score in enumerate(r.get("cause_h_auroc", []), start=1):
            if score is not None and np.isfinite(score):
                per_cause.setdefault((*key, cause), {})[r["seed"]] = float(score)
    return per_cause, any_event


def cause_rows(records):
    """One dict per (row, fraction, method, cause) of a learned method: mean and std of its h-AUROC, the oracle's and
    elapsed's means over the shared seeds, the share of the gap."""
    per_cause, _ = cause_cells(records)
    rows = []
    for (name, fraction, method, cause), scores in sorted(per_cause.items()):
        if method in (FLOOR, CEILING):
            continue
        floor = per_cause.get((name, fraction, FLOOR, cause), {})
        ceiling = per_cause.get((name, fraction, CEILING, cause), {})
        share, n_seeds = gap_share(scores, floor, ceiling)
        seeds = sorted(set(scores) & set(floor) & set(ceiling))
        rows.append(
            {
                "row": name,
                "fraction": fraction,
                "method": method,
                "cause": cause,
                "mean": float(np.mean([scores[s] for s in seeds])) if seeds else float("nan"),
                "scores": np.array(list(scores.values())),
                "oracle": float(np.mean([ceiling[s] for s in seeds])) if seeds else float("nan"),
                "elapsed": float(np.mean([floor[s] for s in seeds])) if seeds else float("nan"),
                "share": share,
                "n_seeds": n_seeds,
            }
        )
    order = {m: i for i, m in enumerate(_ORDER)}
    return sorted(
        rows, key=lambda r: (r["row"], -r["fraction"], order.get(r["method"], len(order)), r["method"], r["cause"])
    )


def _number(value):
    return "—" if not np.isfinite(value) else f"{value:.3f}"


def render_causes(records):
    """Markdown lines of the competing-risks section; none without records."""
    rows = cause_rows(records)
    if not rows:
        return []
    _, any_event = cause_cells(records)
    table = [
        [
            r["row"],
            f"{r['fraction'] * 100:g}%",
            r["method"],
            str(r["cause"]),
            mean_std(r["scores"]),
            _number(r["mean"]),
            _number(r["oracle"]),
            _number(r["elapsed"]),
            "—" if not np.isfinite(r["share"]) else f"{r['share']:.2f}",
            str(r["n_seeds"]),
        ]
        for r in rows
    ]
    methods = sorted({m for _, _, m in any_event}, key=lambda m: (_ORDER.index(m) if m in _ORDER else len(_ORDER), m))
    keys = sorted({(name, fraction) for name, fraction, _ in any_event}, key=lambda k: (k[0], -k[1]))
    overall = [
        [name, f"{fraction * 100:g}%"]
        + [mean_std(np.array(list(any_event.get((name, fraction, m), {}).values()))) for m in methods]
        for name, fraction in keys
    ]
    return [
        "### Simulated fleets of several failure modes: per-cause incidences",
        "",
        "Competing risks on the multi-mode simulated rows (`python -m hepa_bench.simulated.causes`): "
        "the same "
        "fleets, units, windows and label fractions as the simulated section, with labels that carry each "
        "failure's mode as its cause. Each method is fitted on the labels with causes and predicts each cause's "
        "cumulative incidence (`predict_cumulative_incidence`); the h-AUROC of cause c scores its incidence "
        "against cause c's events, an event of another cause counting as a known negative "
        "(`hepa_sklearn.metrics.cause_h_auroc`). `oracle` is the fleet's exact incidence of each mode, the "
        "ceiling; `elapsed` the age-only surface split by the training mix of causes, the floor. `gbm` splits its "
        "any-event surface by a classifier of the cause that does not depend on the horizon. Test h-AUROC per "
        "cause: mean ± std (seeds) of the method; the means of the method, the oracle and elapsed over the seeds "
        "all three ran, and the share of the gap from elapsed (0) to the oracle (1) the method closes:",
        "",
        *markdown_table(
            ["fleet", "labels", "method", "cause", "h-AUROC", "mean", "oracle", "elapsed", "gap closed", "seeds"], table
        ),
        "",
        "Any-event h-AUROC of the same fits (the sum of the incidences), mean ± std (seeds):",
        "",
        *markdown_table(["fleet", "labels"] + methods, overall),
        "",
    ]
