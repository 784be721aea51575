"""Baselines with the package's surface contract: each returns p(t, Δt) for Δt = 1..K, or feeds a head that does."""

from ._boosting import GradientBoostingEventPredictor
from ._features import summary_feature_names, summary_features
from ._foundation import ChronosEmbedder, MomentEmbedder

__all__ = [
    "ChronosEmbedder",
    "GradientBoostingEventPredictor",
    "MomentEmbedder",
    "summary_feature_names",
    "summary_features",
]
