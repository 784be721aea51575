"""HEPA event prediction for multivariate time series, as scikit-learn estimators."""

from .event_predictor import HEPAEventPredictor
from .metrics import h_auroc, h_auroc_scorer, per_horizon_auroc
from .pretrainer import HEPAPretrainer
from .windows import label_surface, make_survival_y, make_windows

__version__ = "0.1.0"

__all__ = [
    "HEPAEventPredictor",
    "HEPAPretrainer",
    "h_auroc",
    "h_auroc_scorer",
    "label_surface",
    "make_survival_y",
    "make_windows",
    "per_horizon_auroc",
    "__version__",
]
