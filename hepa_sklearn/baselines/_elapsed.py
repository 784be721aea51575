"""The elapsed-time baseline: the event-time distribution conditioned on a unit's age, read from the window alone."""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._validation import POSITIVE_INT, WindowSurfaceTags, check_windows
from ..surface import check_survival_y, expected_time_to_event
from ..survival import SurvivalMixin
from ..windows import window_age

__all__ = ["ElapsedTimeEventPredictor"]


class ElapsedTimeEventPredictor(WindowSurfaceTags, SurvivalMixin, BaseEstimator):
    """Event surface from the unit's age alone: the reliability engineer's baseline.

    Each training window says that its unit, seen for ``a`` steps (its
    visible age, :func:`window_age`), has its event ``time`` steps later
    (or is censored then): a lifetime ``a + time`` entered at age ``a``.
    ``fit`` estimates the survival function ``S`` of the lifetime by the
    product-limit (Kaplan–Meier) estimator with left truncation: at each
    event time ``t`` the windows at risk are those with ``a < t <= a +
    time``. The surface is the event probability conditioned on the age,

    ``P[i, k-1] = 1 - S(a_i + k) / S(a_i)``, ``k = 1..K``,

    computed as the product of ``1 - d/n`` over the event times in ``(a_i,
    a_i + k]`` (``d`` events among ``n`` at risk), so it is defined at
    every age, and 0 past the last event time seen in training. It learns
    nothing from the sensor values: a method that does not beat it reads
    only how long the unit has been observed. Where every window is filled
    from its first step (one long series), every age is the window length,
    and the surface is the event-time distribution of the training windows
    at every window.

    Parameters
    ----------
    K : int, default=150
        Number of unit-step horizons.

    Attributes
    ----------
    event_times_ : ndarray of shape (n_event_times,)
        The distinct lifetimes with an event, increasing.
    hazard_ : ndarray of shape (n_event_times,)
        ``d / n`` at each event time: the events among the windows at risk.
    horizons_ : ndarray of shape (K,)
        ``1..K``.
    n_features_in_ : int
        Channels of the training windows.
    n_timepoints_in_ : int
        Steps of the training windows.

    See Also
    --------
    GradientBoostingEventPredictor : A baseline on the sensor values of the window's end.

    References
    ----------
    Kaplan, E. L. and Meier, P. (1958). Nonparametric estimation from
    incomplete observations. JASA, 53(282), 457-481.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn.baselines import ElapsedTimeEventPredictor
    >>> from hepa_sklearn.surface import make_survival_y
    >>> X = np.ones((3, 1, 4))
    >>> X[[0, 2], :, :3] = np.nan      # units seen for 1 step
    >>> X[1, :, :2] = np.nan           # a unit seen for 2 steps
    >>> y = make_survival_y([True, True, False], [2, 2, 5])  # lifetimes 3, 4, > 6
    >>> model = ElapsedTimeEventPredictor(K=3).fit(X, y)
    >>> model.predict_proba(X[:2]).round(3)
    array([[0.   , 0.333, 0.667],
           [0.333, 0.667, 0.667]])
    """

    def __init__(self, *, K=150):
        self.K = K

    _parameter_constraints = {"K": [POSITIVE_INT]}

    def fit(self, X, y):
        """Estimate the lifetime's survival function from windows ``X`` (n, C, L) and survival labels ``y``."""
        self._validate_params()
        X = check_windows(self, X, reset=True)
        event, time = check_survival_y(y, n_samples=X.shape[0], events_within=self.K)
        entry = window_age(X)
        exit_ = entry + time
        event_times = np.unique(exit_[event & (time > 0)])
        entered = np.searchsorted(np.sort(entry), event_times, side="left")  # a < t
        left = np.searchsorted(np.sort(exit_), event_times, side="left")  # a + time < t
        at_risk = entered - left
        failed = np.bincount(np.searchsorted(event_times, exit_[event & (time > 0)]), minlength=event_times.size)
        self.event_times_ = event_times
        self.hazard_ = failed / np.maximum(at_risk, 1)
        self.horizons_ = np.arange(1, self.K + 1)
        self.n_features_in_, self.n_timepoints_in_ = X.shape[1], X.shape[2]
        return self

    def _cumulative(self):
        """``at(t)``: the sum of ``log(1 - h)`` over the event times up to ``t`` where ``h < 1``, and the count where
        ``h = 1``."""
        certain = self.hazard_ >= 1.0
        log_terms = np.concatenate([[0.0], np.cumsum(np.log1p(-np.where(certain, 0.0, self.hazard_)))])
        certain_count = np.concatenate([[0], np.cumsum(certain)])

        def at(t):
            index = np.searchsorted(self.event_times_, t, side="right")
            return log_terms[index], certain_count[index]

        return at

    def predict_proba(self, X):
        """Event probability surface, shape (n_windows, K): ``P[i, k-1]`` = P(event within k steps | age)."""
        check_is_fitted(self, "hazard_")
        X = check_windows(self, X, reset=False)
        age = window_age(X)[:, None]
        cumulative = self._cumulative()
        log_start, zeros_start = cumulative(age)
        log_later, zeros_later = cumulative(age + self.horizons_[None, :])
        survival = np.where(zeros_later > zeros_start, 0.0, np.exp(log_later - log_start))
        return np.clip(1.0 - survival, 0.0, 1.0)

    def predict(self, X):
        """Expected time to the event within the horizon, ``E[min(T, K)]``, shape (n_windows,)."""
        return expected_time_to_event(self.predict_proba(X))
