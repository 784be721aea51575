"""The plain boosting model a user writes in twenty lines: the floor that the package's boosting must clear.

Four features per channel of the window's last 30 steps (the last value,
the mean of the last 10, the mean of the last 30, the least-squares slope
over the 30), with padded (NaN) steps read as 0; a
:class:`~sklearn.ensemble.HistGradientBoostingRegressor` at its defaults
fitted on the windows whose event is observed, on ``log1p(time)``.
Censored windows are left out, whatever their time. The prediction ranks
the windows at every horizon alike (a shorter predicted time is a higher
risk); the surface is the log-normal law around it, with the scale of the
training residuals, so that it is a distribution in Δt and its ranking at
each horizon is that of the negative prediction.

It lives in the harness as a baseline (``gbm-simple``): nothing is chosen,
no search, no regime normalisation.
"""

import numpy as np
from scipy.special import ndtr
from sklearn.base import BaseEstimator
from sklearn.ensemble import HistGradientBoostingRegressor

__all__ = ["SimpleBoosting", "last_steps_features"]

SPAN = 30  # the steps the features read
SHORT = 10  # the steps of the short mean


def last_steps_features(X, span=SPAN, short=SHORT):
    """``(n, 4 * C)``: last value, mean of the last ``short``, mean of the last ``span``, slope, per channel.

    ``X`` is ``(n, C, L)``; padded (NaN) steps count as 0. The slope is the
    least-squares slope over the last ``span`` steps, one step one unit.

    >>> X = np.array([[[np.nan, 1.0, 2.0, 3.0]]])
    >>> last_steps_features(X, span=4, short=2)
    array([[3. , 2.5, 1.5, 1. ]])
    """
    X = np.asarray(X, dtype=np.float64)
    tail = np.nan_to_num(X[:, :, -span:], nan=0.0)
    steps = np.arange(tail.shape[-1], dtype=np.float64)
    centred = steps - steps.mean()
    slope = (tail * centred).sum(-1) / (centred**2).sum() if tail.shape[-1] > 1 else np.zeros(tail.shape[:2])
    parts = (tail[:, :, -1], tail[:, :, -short:].mean(-1), tail.mean(-1), slope)
    return np.concatenate(parts, axis=1)


class SimpleBoosting(BaseEstimator):
    """The twenty-line boosting model as a surface estimator (see the module docstring).

    Parameters
    ----------
    K : int
        Horizons of the surface.
    random_state : int or None
        Seed of the regressor.
    """

    def __init__(self, K=150, random_state=None):
        self.K = K
        self.random_state = random_state

    def fit(self, X, y, groups=None):
        event, time = np.asarray(y["event"], dtype=bool), np.asarray(y["time"], dtype=np.float64)
        if not event.any():
            raise ValueError("SimpleBoosting needs windows with an observed event; y has none.")
        features = last_steps_features(X)[event]
        target = np.log1p(time[event])
        self.regressor_ = HistGradientBoostingRegressor(random_state=self.random_state).fit(features, target)
        residual = target - self.regressor_.predict(features)
        self.sigma_ = max(float(np.std(residual)), 1e-3)
        return self

    def predict(self, X):
        """The predicted ``log1p`` of the time to the event."""
        return self.regressor_.predict(last_steps_features(X))

    def predict_proba(self, X):
        """``P[i, k-1] = Φ((log1p(k) - μ_i) / σ)``: non-decreasing in k, ranked by ``-μ`` at every horizon."""
        mu = self.predict(X)
        horizons = np.log1p(np.arange(1, self.K + 1, dtype=np.float64))
        return ndtr((horizons[None, :] - mu[:, None]) / self.sigma_)
