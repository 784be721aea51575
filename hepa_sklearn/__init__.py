"""HEPA event prediction for multivariate time series, as scikit-learn estimators."""

import logging

from ._training import TrainingDivergedError
from ._version import __version__
from .baselines import (
    ElapsedTimeEventPredictor,
    GradientBoostingEventPredictor,
    ITransformerEncoder,
    MAEPretrainer,
    MatchedHeadPredictor,
    PatchTSTEncoder,
    multiscale_feature_names,
    multiscale_features,
    summary_feature_names,
    summary_features,
)
from .calibration import SurfaceCalibrator
from .classifier import HorizonClassifier, label_at_horizon
from .event_predictor import HEPAEventPredictor
from .finetune import HEPAFinetuner
from .metrics import (
    alarm_budget_score,
    alarm_cost,
    best_f1_threshold,
    brier_decomposition,
    cause_calibration_error,
    cause_h_auroc,
    event_recall,
    expected_calibration_error,
    f1_at_threshold,
    false_alarm_threshold,
    h_auroc,
    h_auroc_scorer,
    make_alarm_budget_scorer,
    make_alarm_cost_scorer,
    monotonicity_violation_rate,
    per_horizon_auroc,
    point_adjust,
    pooled_auprc,
    pooled_auroc,
    rul_rmse,
    surface_metrics,
)
from .preprocessing import RegimeNormalizer
from .pretrainer import HEPAPretrainer
from .surface import (
    cumulative_hazard,
    expected_time_to_event,
    label_surface,
    make_survival_y,
    restricted_mean_time_lost,
    survival_function,
)
from .windows import make_windows, surface_frame

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
    "SurfaceCalibrator",
    "TrainingDivergedError",
    "alarm_budget_score",
    "alarm_cost",
    "best_f1_threshold",
    "brier_decomposition",
    "cause_calibration_error",
    "cause_h_auroc",
    "cumulative_hazard",
    "event_recall",
    "expected_calibration_error",
    "expected_time_to_event",
    "f1_at_threshold",
    "false_alarm_threshold",
    "h_auroc",
    "h_auroc_scorer",
    "label_at_horizon",
    "label_surface",
    "make_alarm_budget_scorer",
    "make_alarm_cost_scorer",
    "make_survival_y",
    "make_windows",
    "monotonicity_violation_rate",
    "per_horizon_auroc",
    "point_adjust",
    "pooled_auprc",
    "pooled_auroc",
    "restricted_mean_time_lost",
    "rul_rmse",
    "multiscale_feature_names",
    "multiscale_features",
    "summary_feature_names",
    "summary_features",
    "surface_frame",
    "surface_metrics",
    "survival_function",
    "__version__",
]
