"""scikit-survival's IPCW metrics as scikit-learn scorers: concordance, integrated Brier score, cumulative/dynamic AUC.

scikit-survival is an optional dependency (the ``survival`` extra); it is
imported when a scorer first runs, not when this module is.
"""

import importlib

import numpy as np
from sklearn.pipeline import Pipeline

from .._validation import POSITIVE_REAL, StrOptions, validate_params
from ..surface import check_survival_y, make_survival_y

__all__ = [
    "make_sksurv_scorer",
    "concordance_ipcw_scorer",
    "neg_integrated_brier_scorer",
    "cumulative_dynamic_auc_scorer",
]

METRICS = ("concordance_index_ipcw", "integrated_brier_score", "cumulative_dynamic_auc")


def _sksurv_metrics():
    """``sksurv.metrics``, or ImportError naming the extra that installs it."""
    try:
        return importlib.import_module("sksurv.metrics")
    except ImportError as exc:
        raise ImportError(
            "the IPCW scorers need scikit-survival; install it with "
            "pip install 'hepa-sklearn[survival]' (or pip install scikit-survival)."
        ) from exc


def _final_step_output(estimator, method, X):
    """``estimator.method(X)``; for a Pipeline without that method, the final step's method on the transformed ``X``."""
    if hasattr(estimator, method):
        return getattr(estimator, method)(X)
    if isinstance(estimator, Pipeline):
        return _final_step_output(estimator[-1], method, estimator[:-1].transform(X))
    raise TypeError(f"{type(estimator).__name__} has no {method} method, which this scorer needs.")


def _risk_scores(estimator, X):
    """``predict_risk(X)`` where the estimator (or its final step) has it, else ``predict(X)``, scikit-survival's
    risk."""
    final = estimator
    while not hasattr(final, "predict_risk") and isinstance(final, Pipeline):
        final = final[-1]
    method = "predict_risk" if hasattr(final, "predict_risk") else "predict"
    return np.asarray(_final_step_output(estimator, method, X), dtype=float)


def _survival_functions(estimator, X):
    """The step functions of ``predict_survival_function(X)`` and the interval on which all are defined."""
    functions = _final_step_output(estimator, "predict_survival_function", X)
    lower = max(function.domain[0] for function in functions)
    upper = min(function.domain[1] for function in functions)
    return functions, lower, upper


def _evaluation_times(event, time, lower, upper, minimum):
    """The distinct event times of the scored ``y`` inside the functions' domain and before its last time.

    The IPCW metrics need times within ``[min(time), max(time))``; the
    survival functions need them within ``[lower, upper]``.
    """
    times = np.unique(time[event])
    times = times[(times >= max(lower, time.min())) & (times <= upper) & (times < time.max())]
    if times.size < minimum:
        raise ValueError(
            f"the scored y has {times.size} event time(s) inside [{max(lower, time.min()):g}, "
            f"{min(upper, time.max()):g}) (the survival functions' domain and y's follow-up), "
            f"but this metric needs at least {minimum}; pass times= to make_sksurv_scorer."
        )
    return times


class SksurvScorer:
    """Scorer ``(estimator, X, y) -> float`` computing one of scikit-survival's IPCW metrics; build it with
    :func:`make_sksurv_scorer`."""

    def __init__(self, metric, survival_train, times, tau, tied_tol):
        self.metric = metric
        self.survival_train = survival_train
        self.times = times
        self.tau = tau
        self.tied_tol = tied_tol

    def __repr__(self):
        return f"make_sksurv_scorer({self.metric!r})"

    def __call__(self, estimator, X, y):
        metrics = _sksurv_metrics()
        event, time = check_survival_y(y)
        # scikit-survival reads (event, time) by position: give it the canonical layout
        y = make_survival_y(event, time)
        train = y if self.survival_train is None else self.survival_train
        tol = {} if self.tied_tol is None else {"tied_tol": self.tied_tol}
        if self.metric == "concordance_index_ipcw":
            tau = self.tau
            if tau is None and self.survival_train is None:
                # estimated from y, the censoring survival function can be 0 at y's last time;
                # truncating there only drops the events at that time, which are comparable
                # with nothing but the samples censored at that same time
                tau = time.max()
            return float(metrics.concordance_index_ipcw(train, y, _risk_scores(estimator, X), tau=tau, **tol)[0])
        functions, lower, upper = _survival_functions(estimator, X)
        minimum = 2 if self.metric == "integrated_brier_score" else 1
        times = self.times if self.times is not None else _evaluation_times(event, time, lower, upper, minimum)
        survival = np.vstack([np.atleast_1d(function(times)) for function in functions])
        if self.metric == "integrated_brier_score":
            return -float(metrics.integrated_brier_score(train, y, survival, times))
        # events after the last evaluation time are never cases, only controls, whatever their
        # flag, so passing them as censored changes no term of the AUC; it spares their censoring
        # weights, which are not used and can be infinite at the last time
        late = make_survival_y(event & (time <= np.max(times)), time)
        return float(metrics.cumulative_dynamic_auc(train, late, 1.0 - survival, times, **tol)[1])


@validate_params(
    {
        "metric": [StrOptions(set(METRICS))],
        "survival_train": [None, "array-like"],
        "times": [None, "array-like"],
        "tau": [None, POSITIVE_REAL],
        "tied_tol": [None, POSITIVE_REAL],
    },
    prefer_skip_nested_validation=True,
)
def make_sksurv_scorer(metric, *, survival_train=None, times=None, tau=None, tied_tol=None):
    """A scorer ``(estimator, X, y) -> float`` for one of scikit-survival's IPCW metrics, greater is better.

    The metrics weight each sample by the inverse probability of remaining
    uncensored, from a Kaplan-Meier estimate of the censoring distribution
    (sksurv's ``CensoringDistributionEstimator``). scikit-survival takes
    that distribution from the training labels; a scorer in
    ``GridSearchCV`` or ``cross_val_score`` only sees the scored fold, so by
    default it estimates the distribution from the scored ``y`` itself.
    That estimate is consistent when censoring is independent of the
    features, as the metrics assume anyway; it is noisier than one from the
    larger training set. Pass ``survival_train`` (for example the ``y`` of
    the whole data set) to use fixed labels instead.

    - ``"concordance_index_ipcw"``: Uno's concordance of the risk score
      (``predict_risk``, or ``predict`` for an estimator without it, such as
      scikit-survival's own) with the event order. With the censoring
      distribution from the scored ``y`` and no ``tau``, pairs are compared
      up to ``y``'s last time.
    - ``"integrated_brier_score"``: the IPCW Brier score of
      ``predict_survival_function`` integrated over ``times``; the scorer
      returns it negated (lower is better), like scikit-learn's ``neg_*``
      scorers.
    - ``"cumulative_dynamic_auc"``: the mean cumulative/dynamic AUC over
      ``times`` of the cumulative incidence ``1 - S(t)``.

    Scikit-survival needs the evaluation times inside the scored ``y``'s
    follow-up, ``[min(time), max(time))``, and the survival functions need
    them inside their domain (``[0, K]`` for the package's estimators);
    ``times=None`` takes the distinct event times of the scored ``y`` that
    lie in both. A Pipeline whose final step has the needed method is
    scored through that step.

    Parameters
    ----------
    metric : {"concordance_index_ipcw", "integrated_brier_score", "cumulative_dynamic_auc"}
    survival_train : structured ndarray of shape (n_train,), default=None
        Labels that the censoring distribution is estimated from (two
        fields, event then time, see
        :func:`~hepa_sklearn.surface.check_survival_y`); None: the scored
        ``y``. The scored times must then lie within their range.
    times : array-like of float, default=None
        Evaluation times of ``"integrated_brier_score"`` (at least two) and
        ``"cumulative_dynamic_auc"``; None picks them from the scored ``y``
        as described above.
    tau : float, default=None
        Truncation time of ``"concordance_index_ipcw"``: only events before
        ``tau`` count as the earlier member of a pair.
    tied_tol : float, default=None
        Tolerance under which two risk scores tie, for
        ``"concordance_index_ipcw"`` and ``"cumulative_dynamic_auc"``; None
        keeps scikit-survival's default (1e-8).

    Returns
    -------
    scorer : callable ``(estimator, X, y) -> float``
        Imports scikit-survival when first called, raising ImportError
        naming the ``survival`` extra when it is not installed.

    See Also
    --------
    concordance_ipcw_scorer, neg_integrated_brier_scorer, cumulative_dynamic_auc_scorer :
        The scorers with the default settings.
    hepa_sklearn.h_auroc_scorer : The package's own ranking score, which needs no censoring weights.

    References
    ----------
    Uno, H., Cai, T., Pencina, M. J., D'Agostino, R. B. and Wei, L. J. (2011).
    On the C-statistics for evaluating overall adequacy of risk prediction
    procedures with censored survival data. Statistics in Medicine, 30(10),
    1105-1117.

    Graf, E., Schmoor, C., Sauerbrei, W. and Schumacher, M. (1999).
    Assessment and comparison of prognostic classification schemes for
    survival data. Statistics in Medicine, 18(17-18), 2529-2545.

    Examples
    --------
    >>> from hepa_sklearn.metrics import make_sksurv_scorer
    >>> make_sksurv_scorer("integrated_brier_score", times=[1, 5, 10])
    make_sksurv_scorer('integrated_brier_score')
    """
    if metric != "concordance_index_ipcw" and tau is not None:
        raise ValueError(f"tau applies to 'concordance_index_ipcw' only, not to {metric!r}.")
    if metric == "concordance_index_ipcw" and times is not None:
        raise ValueError("times do not apply to 'concordance_index_ipcw'; use tau to truncate it.")
    if metric == "integrated_brier_score" and tied_tol is not None:
        raise ValueError("tied_tol does not apply to 'integrated_brier_score'.")
    if survival_train is not None:
        survival_train = make_survival_y(*check_survival_y(survival_train))
    if times is not None:
        try:
            times = np.unique(np.asarray(times, dtype=float).ravel())
        except (TypeError, ValueError) as exc:
            raise TypeError(f"times must be numbers, got {times!r}.") from exc
        minimum = 2 if metric == "integrated_brier_score" else 1
        if times.size < minimum or not np.all(np.isfinite(times)) or times.min() < 0:
            raise ValueError(
                f"times must hold at least {minimum} distinct finite non-negative value(s) for "
                f"{metric!r}, got {times.tolist()}."
            )
    return SksurvScorer(metric, survival_train, times, tau, tied_tol)


# the scorers with the default settings, as scikit-learn names its ready-made ones
concordance_ipcw_scorer = make_sksurv_scorer("concordance_index_ipcw")
neg_integrated_brier_scorer = make_sksurv_scorer("integrated_brier_score")
cumulative_dynamic_auc_scorer = make_sksurv_scorer("cumulative_dynamic_auc")
