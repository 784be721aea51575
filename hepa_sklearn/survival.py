"""The survival-analysis view of an event surface, in scikit-survival's vocabulary: step functions, survival and
cumulative hazard functions, risk scores; and the score of a surface estimator.

A surface ``P`` (n_samples, K) fixes, for each sample, the survival function
``S(k) = 1 - P[:, k-1]`` at the horizons ``k = 1..K`` and ``S(0) = 1``.
Events fall on whole steps, so ``S(t) = S(floor(t))`` on ``[0, K]``: a
right-continuous step function with its steps at ``0, 1, ..., K``.
:class:`SurvivalMixin` gives the surface estimators the methods through
which scikit-survival's estimators report it, and ``score``, the h-AUROC of
the surface.
"""

import importlib.util
from functools import cache

import numpy as np

from ._docs import fill_doc
from .metrics import h_auroc
from .surface import cumulative_hazard, restricted_mean_time_lost, survival_function

__all__ = ["StepFunction", "SurvivalMixin", "step_function_class"]


class StepFunction:
    """A right-continuous step function ``f(t) = y[i]`` for ``x[i] <= t < x[i+1]``, defined on ``[x[0], x[-1]]``.

    Calling it on times outside that domain raises ``ValueError``. The
    attributes and the way it is called are those of
    ``sksurv.functions.StepFunction``, which :class:`SurvivalMixin` returns
    instead when scikit-survival is installed.

    Parameters
    ----------
    x : array-like of shape (n_points,)
        The points where the function steps, strictly increasing.
    y : array-like of shape (n_points,)
        The value from each point up to the next.

    Attributes
    ----------
    x : ndarray of shape (n_points,)
    y : ndarray of shape (n_points,)
    domain : tuple of (float, float)
        The closed interval ``(x[0], x[-1])`` on which the function is defined.

    Examples
    --------
    >>> f = StepFunction([0, 1, 2], [1.0, 0.75, 0.5])
    >>> f(1.5), f([0, 0.5, 2]).tolist()
    (0.75, [1.0, 1.0, 0.5])
    """

    def __init__(self, x, y):
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        if x.ndim != 1 or x.shape != y.shape or x.size == 0:
            raise ValueError(f"x and y must be 1-D of the same non-zero length, got shapes {x.shape} and {y.shape}.")
        if not (np.all(np.isfinite(x)) and np.all(np.diff(x) > 0)):
            raise ValueError("x must be finite and strictly increasing.")
        self.x = x
        self.y = y

    @property
    def domain(self):
        """The closed interval ``(lower, upper)`` on which the function is defined."""
        return float(self.x[0]), float(self.x[-1])

    def __call__(self, t):
        """The values at times ``t`` (a float for a scalar ``t``); ValueError for times outside the domain."""
        t = np.asarray(t, dtype=float)
        if not np.all(np.isfinite(t)):
            raise ValueError("times must be finite.")
        lower, upper = self.domain
        if t.size and (t.min() < lower or t.max() > upper):
            raise ValueError(
                f"times must lie within the function's domain [{lower:g}, {upper:g}], "
                f"got values from {t.min():g} to {t.max():g}."
            )
        values = self.y[np.searchsorted(self.x, t, side="right") - 1]
        return float(values) if t.ndim == 0 else values

    def __repr__(self):
        return f"StepFunction(x={self.x!r}, y={self.y!r})"


@cache
def step_function_class():
    """``sksurv.functions.StepFunction`` when scikit-survival is installed, else :class:`StepFunction`.

    Both take ``(x, y)``, have ``x``, ``y`` and ``domain`` (from ``x[0]``,
    0 here, to ``x[-1]``) and give the same values. The choice is made once
    per process; importing scikit-survival takes a few seconds the first
    time.
    """
    if importlib.util.find_spec("sksurv") is None:
        return StepFunction
    from sksurv.functions import StepFunction as SksurvStepFunction

    return SksurvStepFunction


def _step_functions(values, start):
    """One step function per row of ``values`` (n, K) on the steps 0..K, valued ``start`` at 0."""
    grid = np.arange(values.shape[1] + 1, dtype=float)
    rows = np.hstack([np.full((values.shape[0], 1), start), values])
    make = step_function_class()
    functions = np.empty(values.shape[0], dtype=object)
    for i, row in enumerate(rows):
        functions[i] = make(grid, row)
    return functions


def _check_return_array(return_array):
    if not isinstance(return_array, (bool, np.bool_)):
        raise TypeError(f"return_array must be True or False, got {return_array!r}.")


class SurvivalMixin:
    """scikit-survival's prediction methods for an estimator with ``predict_proba(X)`` -> surface (n, K).

    ``predict_survival_function`` and ``predict_cumulative_hazard_function``
    return what scikit-survival's estimators return: an array of step
    functions, or with ``return_array=True`` their values at the horizons
    ``1..K`` as an (n_samples, K) array. The step functions are defined on
    ``[0, K]`` and step at ``0, 1, ..., K`` (``x`` has K + 1 points, the
    first holding ``S(0) = 1`` and ``H(0) = 0``); beyond ``K`` the surface
    says nothing, and calling them there raises ``ValueError``.

    ``predict_risk`` is the risk score, higher for an earlier event, that
    scikit-survival's metrics expect; ``predict`` keeps the estimator's own
    meaning (a time to the event, lower for an earlier event). ``score`` is
    the h-AUROC of the surface, what ``GridSearchCV`` and
    ``cross_val_score`` maximise by default.
    """

    def score(self, X, y):
        """h-AUROC of the predicted surface against ``y`` (:func:`hepa_sklearn.metrics.h_auroc`)."""
        return h_auroc(y, self.predict_proba(X))

    @fill_doc
    def predict_survival_function(self, X, return_array=False):
        """Survival function ``S(t) = P(T > t)`` of each sample on ``[0, K]``.

        Parameters
        ----------
        %(step_function_parameters)s

        Returns
        -------
        survival : ndarray of shape (n_samples,) of step functions, or of shape (n_samples, K)
            Step functions with ``x = [0, 1, ..., K]`` and
            ``y = [1, 1 - P[i, 0], ..., 1 - P[i, K-1]]``; with
            ``return_array=True``, ``1 - P``. ``sksurv.functions.StepFunction``
            when scikit-survival is installed, else
            :class:`hepa_sklearn.survival.StepFunction`.
        """
        _check_return_array(return_array)
        survival = survival_function(self.predict_proba(X))
        return survival if return_array else _step_functions(survival, 1.0)

    @fill_doc
    def predict_cumulative_hazard_function(self, X, return_array=False):
        """Cumulative hazard ``H(t) = -log S(t)`` of each sample on ``[0, K]``; ``inf`` where ``S`` reaches 0.

        Parameters
        ----------
        %(step_function_parameters)s

        Returns
        -------
        hazard : ndarray of shape (n_samples,) of step functions, or of shape (n_samples, K)
            Step functions with ``x = [0, 1, ..., K]`` and
            ``y = [0, H(1), ..., H(K)]``; with ``return_array=True``, the
            values ``H(1..K)``.
        """
        _check_return_array(return_array)
        hazard = cumulative_hazard(self.predict_proba(X))
        return hazard if return_array else _step_functions(hazard, 0.0)

    def predict_risk(self, X):
        """Risk score, higher for an earlier event: the restricted mean time lost within the horizon.

        ``E[K - min(T, K)] = Σ_{k=1}^{K-1} P(T <= k)``, in [0, K - 1]; see
        :func:`hepa_sklearn.surface.restricted_mean_time_lost`. This is the
        score scikit-survival's concordance indices expect, where its own
        estimators return it from ``predict``. For the HEPA estimators it is
        ``K - predict(X)``, so it ranks samples exactly in the reverse order
        of the expected time.

        Parameters
        ----------
        X : array-like
            The input of ``predict_proba``.

        Returns
        -------
        risk : ndarray of shape (n_samples,), float64
        """
        return restricted_mean_time_lost(self.predict_proba(X))
