"""Does a row's validation part rank the methods as its test part does?

Every choice in the benchmark (hyperparameters, early stopping, the
defaults' selection in ``benchmarks/decisions/default_selection.md``) is made on
validation units. That is only worth something where validation predicts
test. For each row this module ranks the methods by their mean validation
h-AUROC and by their mean test h-AUROC and gives Spearman's rank
correlation of the two, with the method a choice on validation would make
and what it scores on test. It is descriptive: one correlation per row, no
correction across rows.
"""

import numpy as np
from scipy import stats

from ..stats import markdown_table

__all__ = ["MIN_METHODS", "validation_agreement", "agreement_table"]

MIN_METHODS = 4  # fewer methods than this give a rank correlation too coarse to read


def _means(records):
    """``(validation mean, test mean)`` over the seeds with both figures finite; NaNs with fewer than two."""
    pairs = [
        (r["valid_h_auroc"], r["h_auroc"])
        for r in records
        if r.get("valid_h_auroc") is not None and r.get("h_auroc") is not None
    ]
    pairs = [pair for pair in pairs if np.isfinite(pair).all()]
    return tuple(np.mean(pairs, axis=0)) if len(pairs) >= 2 else (np.nan, np.nan)


def validation_agreement(cells, rows, methods):
    """Per row with :data:`MIN_METHODS` or more methods: the rank agreement of validation and test.

    ``cells`` maps ``(dataset, fraction, method)`` to records, ``rows`` is a
    list of ``(dataset, fraction, _)``. A method takes part in a row when it
    has 2+ seeds with a finite validation and test h-AUROC. Returns a list of
    dicts with ``dataset``, ``fraction``, ``n_methods``, ``rho`` and ``p``
    (Spearman), ``chosen`` (the method with the highest validation mean),
    ``chosen_test`` (its test mean) and ``best_test`` (the highest test mean).
    """
    out = []
    for name, fraction, _ in rows:
        means = {m: _means(cells.get((name, fraction, m), [])) for m in methods}
        means = {m: v for m, v in means.items() if np.isfinite(v).all()}
        if len(means) < MIN_METHODS:
            continue
        valid = np.array([v for v, _ in means.values()])
        test = np.array([t for _, t in means.values()])
        rho, p = stats.spearmanr(valid, test)
        chosen = max(means, key=lambda m: means[m][0])
        out.append(
            {
                "dataset": name,
                "fraction": fraction,
                "n_methods": len(means),
                "rho": float(rho),
                "p": float(p),
                "chosen": chosen,
                "chosen_test": means[chosen][1],
                "best_test": float(test.max()),
            }
        )
    return out


def agreement_table(cells, rows, methods):
    """Markdown lines of :func:`validation_agreement`, or a sentence when no row has enough methods."""
    found = validation_agreement(cells, rows, methods)
    if not found:
        return [f"No row has {MIN_METHODS} methods with validation and test figures on 2+ seeds."]
    lines = [
        [
            a["dataset"],
            f"{a['fraction'] * 100:g}%",
            str(a["n_methods"]),
            f"{a['rho']:+.2f}",
            f"{a['p']:.3g}",
            f"{a['chosen']} ({a['chosen_test']:.3f})",
            f"{a['best_test']:.3f}",
            f"{a['chosen_test'] - a['best_test']:+.3f}",
        ]
        for a in found
    ]
    header = [
        "dataset",
        "labels",
        "methods",
        "Spearman ρ",
        "p",
        "chosen on validation (its test mean)",
        "best test mean",
        "chosen − best",
    ]
    return markdown_table(header, lines)
