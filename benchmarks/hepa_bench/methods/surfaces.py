"""The surface callables of the method table: each fits a model on the cell's windows and returns ``(model, info)``.

``surface(entry, data, mask, *, epochs, device, seed, encoder, **params)``:
the fitted model has ``predict_proba(X)`` on raw windows; ``info`` is a
dict of what the fit chose, stored in the cell's record; ``encoder`` is the
method's fitted encoder, where it has one (:mod:`hepa_bench.methods.table`).
"""

import numpy as np

from hepa_sklearn import HEPAFinetuner
from hepa_sklearn.baselines import BOOSTING_SEARCH_GRID, ElapsedTimeEventPredictor, GradientBoostingEventPredictor
from hepa_sklearn.metrics import h_auroc

from ..registry import PATIENCE
from .position import PositionOnlyPredictor

__all__ = ["elapsed_time", "end_to_end", "gradient_boosting", "position_only"]


def gradient_boosting(
    entry, data, mask, *, epochs, device, seed, encoder=None, estimator=GradientBoostingEventPredictor, **params
):
    """``estimator`` (GradientBoostingEventPredictor) on the raw windows; ``params`` are passed to it.

    C-MAPSS: its own out-of-fold search on the training units. Elsewhere:
    each candidate of its search grid is fitted on the training windows and
    the one with the best validation h-AUROC is kept (the first among
    equals); ``info`` names it. ``choose_features=True`` (not on C-MAPSS)
    searches each candidate with both feature sets, multiscale and the last
    30 steps, so that the validation units choose the features too.
    """
    choose = params.pop("choose_features", False)
    X, y, groups = data.X_train[mask], data.y_train[mask], data.g_train[mask]
    if entry.is_cmapss:
        if choose:
            raise ValueError("gbm-select runs on the event datasets; on C-MAPSS gbm searches out of fold instead.")
        return estimator(K=entry.K, random_state=seed, **params).fit(X, y, groups=groups), {}
    best, best_score, best_index = None, -np.inf, 0
    grid = (
        [{**c, "features": f} for f in ("multiscale", "last") for c in BOOSTING_SEARCH_GRID]
        if choose
        else BOOSTING_SEARCH_GRID
    )
    for index, candidate in enumerate(grid):
        model = estimator(K=entry.K, search=None, random_state=seed, **candidate, **params)
        model.fit(X, y, groups=groups)
        score = h_auroc(data.y_valid, model.predict_proba(data.X_valid))
        if best is None or (np.isfinite(score) and score > best_score):
            best, best_score, best_index = model, score if np.isfinite(score) else -np.inf, index
    return best, {"gbm_candidate": best_index, "gbm_params": best.best_params_, "gbm_features": best.features}


def elapsed_time(entry, data, mask, *, epochs, device, seed, encoder=None):
    """ElapsedTimeEventPredictor: the event-time distribution given the unit's visible age, nothing else."""
    return ElapsedTimeEventPredictor(K=entry.K).fit(data.X_train[mask], data.y_train[mask]), {}


def position_only(entry, data, mask, *, epochs, device, seed, encoder=None):
    """The position-only score (:class:`~hepa_bench.methods.position.PositionOnlyPredictor`): the
    leakage guard of a row."""
    return PositionOnlyPredictor(K=entry.K).fit(data.X_train[mask], data.y_train[mask]), {}


def end_to_end(entry, data, mask, *, epochs, device, seed, encoder, **params):
    """HEPAFinetuner: the method's encoder and a fresh event head trained together, stopped as the entry says.

    The head runs at every horizon and reads the encoder's state alone, as
    the finetuner did before 0.3.0 and as the paper's ablation does.
    """
    model = HEPAFinetuner(
        encoder,
        K=entry.K,
        horizon_knots=None,
        window_level=False,
        max_epochs=epochs,
        early_stopping=entry.finetune_stop != "fixed",
        validation_fraction=0.5,
        n_iter_no_change=PATIENCE,
        device=device,
        random_state=seed,
        **params,
    )
    return entry.fit_head(model, data.X_train[mask], data.y_train[mask], data.X_valid, data.y_valid), {}
