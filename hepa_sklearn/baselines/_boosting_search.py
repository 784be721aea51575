"""The hyperparameter search of GradientBoostingEventPredictor: its candidates and the leaf size "auto" resolves to."""

from sklearn.base import clone

__all__ = [
    "AUTO_LEAF_MAX",
    "AUTO_LEAF_ROWS",
    "SEARCHED",
    "SEARCH_GRID",
    "SEARCH_MAX_ROWS",
    "auto_leaf_size",
    "candidates",
]

# min_samples_leaf="auto" is min(20, n // 20), at least 1: scikit-learn's
# default of 20 from 400 training rows on, and below that a leaf size that
# still leaves room for about 20 leaves. A tree needs 2 * min_samples_leaf
# rows to split at all, so the fixed 20 turned every fit on fewer than 40
# windows into a constant: 22 cells of the C-MAPSS benchmark at 1-5 % of
# the label units (2 to 41 windows) scored an h-AUROC of exactly 0.5.
AUTO_LEAF_ROWS = 20
AUTO_LEAF_MAX = 20

# The candidates of search="auto": each overrides some of the estimator's own
# parameters, and the first keeps them all. Fewer leaves and a lower learning
# rate trade fit for stability on a few labelled units; larger leaves smooth
# a fit on hundreds of windows. Four candidates on three folds make 12
# extra fits. With six (also max_iter=100 at learning_rate 0.05, and 7
# leaves of at least 5 windows) and no row limit, a 100 %-label FD004 cell
# (4686 windows) took 45 s on one busy core against 8 s without a search,
# which made the 150-cell C-MAPSS rerun too long.
SEARCH_GRID = (
    {},
    {"max_leaf_nodes": 7, "learning_rate": 0.05},
    {"max_leaf_nodes": 3, "learning_rate": 0.05, "max_iter": 100},
    {"min_samples_leaf": 50},
)

# search="auto" searches only below this many training windows. The search
# is for few labelled units; with the 1000 to 4700 windows of all C-MAPSS
# training units the parameters as given reach held-out h-AUROC 0.91-0.99
# (docs/benchmarks.md), and a search there would cost most of the sweep.
SEARCH_MAX_ROWS = 500
SEARCHED = ("max_iter", "learning_rate", "max_leaf_nodes", "min_samples_leaf")


def auto_leaf_size(n_rows):
    """``min_samples_leaf="auto"`` for ``n_rows`` training rows: ``max(1, min(20, n_rows // 20))``."""
    return max(1, min(AUTO_LEAF_MAX, n_rows // AUTO_LEAF_ROWS))


def candidates(estimator, n_rows):
    """The settings ``estimator`` tries, each a dict of the four searched parameters, "auto" resolved for ``n_rows``.

    ``search=None``, or ``"auto"`` from :data:`SEARCH_MAX_ROWS` rows on, tries the estimator's own
    parameters alone; ``"auto"`` below that tries :data:`SEARCH_GRID`; a list tries its dicts. Each
    candidate must set only :data:`SEARCHED` and meet the estimator's own constraints.
    """
    own = {name: getattr(estimator, name) for name in SEARCHED}
    if estimator.search is None or (estimator.search == "auto" and n_rows >= SEARCH_MAX_ROWS):
        overrides = [{}]
    elif estimator.search == "auto":
        overrides = list(SEARCH_GRID)
    else:
        overrides = estimator.search
        if not overrides:
            raise ValueError("search is an empty list; pass at least one candidate dict, 'auto' or None.")
    settings = []
    for i, override in enumerate(overrides):
        if not isinstance(override, dict) or set(override) - set(SEARCHED):
            raise ValueError(
                f"search candidate {i} is {override!r}; each candidate must be a dict setting only "
                f"{', '.join(SEARCHED)}."
            )
        # the candidate's values meet the same constraints as the estimator's own
        clone(estimator).set_params(**override, search=None)._validate_params()
        params = {**own, **override}
        if params["min_samples_leaf"] == "auto":
            params["min_samples_leaf"] = auto_leaf_size(n_rows)
        settings.append(params)
    return settings
