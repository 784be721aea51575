"""Metrics on event probability surfaces p(t, Δt): ranking, calibration, per-cause incidences, consistency, time to
event, thresholded F1, event recall and the cost of alarms; scorers, including scikit-survival's IPCW metrics."""

from .._stats import effective_rank
from ._alarms import alarm_budget_score, alarm_cost, make_alarm_budget_scorer, make_alarm_cost_scorer
from ._calibration import brier_decomposition, expected_calibration_error
from ._causes import cause_calibration_error, cause_h_auroc
from ._ranking import h_auroc, h_auroc_scorer, per_horizon_auroc, pooled_auprc, pooled_auroc
from ._sksurv import (
    concordance_ipcw_scorer,
    cumulative_dynamic_auc_scorer,
    make_sksurv_scorer,
    neg_integrated_brier_scorer,
)
from ._summary import monotonicity_violation_rate, rul_rmse, surface_metrics
from ._thresholds import best_f1_threshold, event_recall, f1_at_threshold, false_alarm_threshold, point_adjust

__all__ = [
    "per_horizon_auroc",
    "h_auroc",
    "h_auroc_scorer",
    "pooled_auroc",
    "pooled_auprc",
    "expected_calibration_error",
    "brier_decomposition",
    "cause_h_auroc",
    "cause_calibration_error",
    "monotonicity_violation_rate",
    "effective_rank",
    "rul_rmse",
    "surface_metrics",
    "point_adjust",
    "f1_at_threshold",
    "best_f1_threshold",
    "false_alarm_threshold",
    "event_recall",
    "alarm_cost",
    "alarm_budget_score",
    "make_alarm_cost_scorer",
    "make_alarm_budget_scorer",
    "make_sksurv_scorer",
    "concordance_ipcw_scorer",
    "neg_integrated_brier_scorer",
    "cumulative_dynamic_auc_scorer",
]
