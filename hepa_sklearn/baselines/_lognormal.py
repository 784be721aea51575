"""The log-time model of the boosting baseline: its regression targets and the log-normal surface around a prediction.

The boosting baseline regresses one number per window, the log time to its
next event, and reads the event surface off a log-normal law around the
prediction. Which number each window is trained on, and how the surface
follows from a prediction, are this module; the regressor, its features and
its search are :mod:`hepa_sklearn.baselines._boosting`.
"""

import numpy as np
from scipy.special import ndtr

__all__ = ["MIN_SIGMA", "log_normal_surface", "survival_targets"]

# The residual scale never drops below this (0.1 % of the time, in log space),
# so the surface stays a proper, if steep, distribution when the regressor
# predicts its targets exactly; real residuals are far larger (0.25 on FD001).
MIN_SIGMA = 1e-3


def survival_targets(event, time, K):
    """Log-time regression targets: ``log(max(time, 1))`` for events within ``K`` steps, ``log(K + 1)`` past the
    horizon.

    Every window known to survive the ``K`` horizons (an event at
    ``time > K``, or censoring at ``time >= K``) gets the same target, as
    the surface treats them alike; a window censored before ``K`` gets NaN
    (its time is bounded only from below, inside the horizon).

    >>> survival_targets(np.array([True, True, False, False]), np.array([3.0, 500.0, 1000.0, 2.0]), 10).round(3)
    array([1.099, 2.398, 2.398,   nan])
    """
    survives = (event & (time > K)) | (~event & (time >= K))
    target = np.log(np.where(survives, K + 1.0, np.maximum(time, 1.0)))
    return np.where(event | survives, target, np.nan)


def log_normal_surface(mu, sigma, horizons):
    """``P[i, k-1] = Φ((log k - μ_i) / σ)`` for the horizons ``k``."""
    return ndtr((np.log(horizons)[None, :] - mu[:, None]) / sigma)
