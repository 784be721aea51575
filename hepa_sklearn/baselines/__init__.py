"""Baselines with the package's surface contract: each returns p(t, Δt) for Δt = 1..K."""

from ._boosting import GradientBoostingEventPredictor
from ._features import summary_feature_names, summary_features

__all__ = ["GradientBoostingEventPredictor", "summary_feature_names", "summary_features"]
