"""HEPA event prediction for multivariate time series, as scikit-learn estimators.

The package itself holds the estimators, :func:`~hepa_sklearn.metrics.h_auroc`
and :func:`~hepa_sklearn.metrics.h_auroc_scorer`; everything else is imported
from its module (:mod:`hepa_sklearn.windows`, :mod:`hepa_sklearn.surface`,
:mod:`hepa_sklearn.metrics`, ...).
"""

import importlib
import logging
import warnings

from ._version import __version__
from .baselines import (
    ElapsedTimeEventPredictor,
    GradientBoostingEventPredictor,
    ITransformerEncoder,
    MAEPretrainer,
    MatchedHeadPredictor,
    PatchTSTEncoder,
)
from .calibration import SurfaceCalibrator
from .classifier import HorizonClassifier
from .event_predictor import HEPAEventPredictor
from .finetune import HEPAFinetuner
from .metrics import h_auroc, h_auroc_scorer
from .preprocessing import RegimeNormalizer
from .pretrainer import HEPAPretrainer
from .stacking import StackedSurfaces

# a library only adds a NullHandler: where its messages go is the application's choice
logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "ElapsedTimeEventPredictor",
    "GradientBoostingEventPredictor",
    "HEPAEventPredictor",
    "HEPAFinetuner",
    "HEPAPretrainer",
    "HorizonClassifier",
    "ITransformerEncoder",
    "MAEPretrainer",
    "MatchedHeadPredictor",
    "PatchTSTEncoder",
    "RegimeNormalizer",
    "StackedSurfaces",
    "SurfaceCalibrator",
    "h_auroc",
    "h_auroc_scorer",
    "__version__",
]

# Names that 0.2.0 exported here, with the module each is imported from now. They still
# work from here, with a FutureWarning, until 0.4.0 removes them.
_MOVED = {
    "TrainingDivergedError": "training",
    "label_at_horizon": "classifier",
    **dict.fromkeys(
        ["multiscale_feature_names", "multiscale_features", "summary_feature_names", "summary_features"], "baselines"
    ),
    **dict.fromkeys(
        [
            "alarm_budget_score",
            "alarm_cost",
            "best_f1_threshold",
            "brier_decomposition",
            "cause_calibration_error",
            "cause_h_auroc",
            "event_recall",
            "expected_calibration_error",
            "f1_at_threshold",
            "false_alarm_threshold",
            "make_alarm_budget_scorer",
            "make_alarm_cost_scorer",
            "monotonicity_violation_rate",
            "per_horizon_auroc",
            "point_adjust",
            "pooled_auprc",
            "pooled_auroc",
            "rul_rmse",
            "surface_metrics",
        ],
        "metrics",
    ),
    **dict.fromkeys(
        [
            "cumulative_hazard",
            "expected_time_to_event",
            "label_surface",
            "make_survival_y",
            "restricted_mean_time_lost",
            "survival_function",
        ],
        "surface",
    ),
    **dict.fromkeys(["make_windows", "surface_frame"], "windows"),
}


def __getattr__(name):
    """A name that moved to a module, with a ``FutureWarning`` naming that module."""
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"hepa_sklearn.{name} is deprecated since 0.3.0 and will be removed in 0.4.0: import it from "
        f"hepa_sklearn.{module} (from hepa_sklearn.{module} import {name}).",
        FutureWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__():
    return sorted(__all__)
