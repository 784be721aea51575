"""Baselines with the package's surface contract: each returns p(t, Δt) for Δt = 1..K, or embeddings for the matched
head.

The paper's baselines (App. "Baseline protocol") are frozen encoders with one
common downstream head, :class:`MatchedHeadPredictor`:
:class:`MAEPretrainer` (masked-patch reconstruction, self-supervised),
:class:`PatchTSTEncoder` and :class:`ITransformerEncoder` (supervised end to
end, then frozen). :class:`GradientBoostingEventPredictor` is a non-neural
baseline on summary features, and :class:`ElapsedTimeEventPredictor` the
reliability baseline that reads only how long a unit has been observed.
:class:`MiniRocketEncoder` is a random feature map (MiniRocket's
convolutions, with each channel's level) for
:class:`~hepa_sklearn.HEPAEventPredictor`. :class:`ChronosEmbedder` and
:class:`MomentEmbedder`, :class:`TimesFMEmbedder` and
:class:`MoiraiEmbedder` turn pretrained foundation models into frozen
embeddings for the same head.
"""

from ..windows import window_age
from ._boosting import SEARCH_GRID, GradientBoostingEventPredictor
from ._chronos import ChronosEmbedder
from ._elapsed import ElapsedTimeEventPredictor
from ._features import multiscale_feature_names, multiscale_features, summary_feature_names, summary_features
from ._mae import MAEPretrainer
from ._matched_head import MatchedHeadPredictor, matched_head_parameter_count
from ._minirocket import MiniRocketEncoder
from ._moirai import MoiraiEmbedder
from ._moment import MomentEmbedder
from ._supervised import ITransformerEncoder, PatchTSTEncoder
from ._timesfm import TimesFMEmbedder

#: The candidates of ``GradientBoostingEventPredictor(search="auto")``, each a dict of the parameters it
#: overrides (``max_iter``, ``learning_rate``, ``max_leaf_nodes``, ``min_samples_leaf``), the first being
#: the parameters as given; a tuple of dicts.
BOOSTING_SEARCH_GRID = SEARCH_GRID

__all__ = [
    "BOOSTING_SEARCH_GRID",
    "ChronosEmbedder",
    "ElapsedTimeEventPredictor",
    "GradientBoostingEventPredictor",
    "ITransformerEncoder",
    "MAEPretrainer",
    "MatchedHeadPredictor",
    "MiniRocketEncoder",
    "MoiraiEmbedder",
    "MomentEmbedder",
    "PatchTSTEncoder",
    "TimesFMEmbedder",
    "matched_head_parameter_count",
    "multiscale_feature_names",
    "multiscale_features",
    "summary_feature_names",
    "summary_features",
    "window_age",
]
