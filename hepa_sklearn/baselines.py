"""A gradient-boosting baseline on per-channel summary features of each window."""

from numbers import Integral

import numpy as np
from scipy.special import ndtr
from sklearn.base import BaseEstimator
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import KFold
from sklearn.utils.validation import check_is_fitted

from ._validation import as_three_d, check_params, check_windows, integer, real
from .metrics import SurfaceScoreMixin
from .windows import check_survival_y

__all__ = ["summary_features", "summary_feature_names", "GradientBoostingEventPredictor"]

# Span of the short-term level, next to the n_last-step level: a fixed choice
# of this baseline, not tuned.
SHORT_SPAN = 10

# The residual scale never drops below this (0.1 % of the time, in log space),
# so the surface stays a proper, if steep, distribution when the regressor
# predicts its targets exactly; real residuals are far larger (0.25 on FD001).
MIN_SIGMA = 1e-3

# sigma_ comes from out-of-fold residuals over this many contiguous folds. On
# FD001 (60 training units, seed-0 split of cmapss_protocol) the training
# residuals have std 0.010 (200 boosting rounds fit the training windows
# closely), the out-of-fold ones 0.25 and those of the held-out units 0.29;
# with 0.010 the surface saturates to exactly 0 or 1 in most cells, and the
# resulting ties cut the held-out h-AUROC from 0.976 to 0.867.
SIGMA_FOLDS = 3


def _check_n_last(n_last):
    if not isinstance(n_last, Integral) or isinstance(n_last, bool) or n_last < 1:
        raise ValueError(f"n_last must be an integer >= 1, got {n_last!r}.")


def _observed_mean(values, observed):
    """Mean over the last axis of the entries where ``observed``; NaN where there are none."""
    count = observed.sum(axis=-1)
    total = np.where(observed, values, 0.0).sum(axis=-1)
    return np.divide(total, count, out=np.full(total.shape, np.nan), where=count > 0)


def summary_features(X, *, n_last=30):
    """Per-channel level and trend of the end of each window, ignoring missing steps.

    Over the last ``n_last`` steps of each window (all steps if the window is
    shorter), for every channel:

    - ``last``: the last observed value;
    - ``mean10``: the mean of the observed values among the last
      ``min(10, n_last)`` steps;
    - ``mean``: the mean of the observed values among the last ``n_last`` steps;
    - ``slope``: the least-squares slope of the observed values against the
      step index, in units per step.

    NaN steps (missing values, left padding) are left out. A feature is NaN
    when its span holds no observation of the channel, and the slope also
    when it holds only one.

    Parameters
    ----------
    X : array-like of shape (n_windows, n_channels, n_timepoints)
        Windows, channels first; 2-D input is read as one channel.
    n_last : int, default=30
        Number of final steps the features summarise.

    Returns
    -------
    features : ndarray of shape (n_windows, 4 * n_channels), float64
        Grouped by kind: the ``last`` of every channel, then ``mean10``, then
        ``mean``, then ``slope``, channels in input order within each group
        (see :func:`summary_feature_names`).

    See Also
    --------
    summary_feature_names : The column names, in this order.
    GradientBoostingEventPredictor : A gradient-boosting baseline on these features.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[[np.nan, 1.0, 2.0, 4.0]]])  # one window, one channel, left-padded
    >>> summary_features(X, n_last=4)
    array([[4.        , 2.33333333, 2.33333333, 1.5       ]])
    """
    _check_n_last(n_last)
    X = as_three_d(np.asarray(X))
    span = X[:, :, -n_last:].astype(np.float64)  # (n, C, L), L = min(n_last, n_timepoints)
    observed = ~np.isnan(span)
    L = span.shape[-1]

    # argmax finds the first observed step of the reversed span; with none
    # observed it points at the last step, which is NaN, as the result must be
    last_index = L - 1 - np.argmax(observed[..., ::-1], axis=-1)
    last = np.take_along_axis(span, last_index[..., None], axis=-1)[..., 0]
    short_mean = _observed_mean(span[..., -SHORT_SPAN:], observed[..., -SHORT_SPAN:])
    mean = _observed_mean(span, observed)

    step = np.broadcast_to(np.arange(L, dtype=np.float64), span.shape)
    step_mean = _observed_mean(step, observed)
    dt = np.where(observed, step - step_mean[..., None], 0.0)
    dx = np.where(observed, span - mean[..., None], 0.0)
    sxx = (dt * dt).sum(axis=-1)
    sxy = (dt * dx).sum(axis=-1)
    # two observed steps have distinct indices, so sxx > 0 wherever count >= 2
    slope = np.divide(sxy, sxx, out=np.full(sxy.shape, np.nan), where=observed.sum(axis=-1) >= 2)
    return np.concatenate([last, short_mean, mean, slope], axis=1)


def summary_feature_names(channels):
    """Names of the columns of :func:`summary_features`, in its order.

    Each name is ``{kind}_{channel}`` with kind ``last``, ``mean10``,
    ``mean`` or ``slope`` as described in :func:`summary_features`.

    Parameters
    ----------
    channels : int or sequence of str
        The number of channels (named ``x0``, ``x1``, ...) or their names.

    Returns
    -------
    names : ndarray of shape (4 * n_channels,), dtype object

    Examples
    --------
    >>> summary_feature_names(2).tolist()
    ['last_x0', 'last_x1', 'mean10_x0', 'mean10_x1', 'mean_x0', 'mean_x1', 'slope_x0', 'slope_x1']
    """
    if isinstance(channels, Integral) and not isinstance(channels, bool):
        if channels < 1:
            raise ValueError(f"channels must be a positive count or a sequence of names, got {channels}.")
        channels = [f"x{c}" for c in range(channels)]
    channels = [str(name) for name in channels]
    return np.asarray(
        [f"{kind}_{name}" for kind in ("last", "mean10", "mean", "slope") for name in channels],
        dtype=object,
    )


class GradientBoostingEventPredictor(SurfaceScoreMixin, BaseEstimator):
    """Log-normal event surface from gradient boosting on summary features.

    The baseline a scikit-learn user would try first: summarise the end of
    each window by :func:`summary_features`, regress the log time to the
    event with :class:`~sklearn.ensemble.HistGradientBoostingRegressor`
    (which handles the features' NaN natively), and read the surface off a
    log-normal law around the prediction,

    ``P[i, k-1] = Φ((log k - μ̂_i) / σ)``, ``k = 1..K``,

    with one residual scale σ for all windows. Each row is non-decreasing in
    ``k``, and each column is a non-increasing function of ``μ̂``: every horizon
    ranks the windows by the negated prediction, so σ only sets the
    calibration. (In float64, Φ reaches exactly 1 above ``z = 8.3``, and
    windows that far out tie; this is why σ is estimated out of fold, see
    ``sigma_``.)

    Training targets. A window with an observed event gets
    ``log(max(time, 1))``; a censored window with ``time >= K`` is known to
    survive the whole horizon and gets ``log(K)``; a censored window with
    ``time < K`` carries only a lower bound inside the horizon and is left
    out (counted in ``n_dropped_censored_``). ``log(K)`` caps the target of
    the windows censored beyond the horizon at a value their true log time
    exceeds. The surface only asks, at each ``k <= K``, whether a window's
    event comes within ``k`` steps; a window that survives ``K`` is negative
    at every such ``k`` whatever its true time, so the cap leaves it above
    the windows whose event falls within the horizon and barely changes how
    windows rank at horizons ``1..K``. It does put a point mass at
    ``log K`` that the Gaussian residual model ignores.

    Parameters
    ----------
    K : int, default=150
        Number of unit-step horizons.
    n_last : int, default=30
        Final steps of each window that :func:`summary_features` summarises.
    max_iter : int, default=200
        Boosting iterations; all of them run (no early stopping: windows of
        one unit overlap, so a random validation split would leak).
    learning_rate : float, default=0.1
    max_leaf_nodes : int, default=31
    min_samples_leaf : int, default=20
    l2_regularization : float, default=0.0
    random_state : int, RandomState instance or None, default=None
        Passed to the regressor.

    Attributes
    ----------
    regressor_ : HistGradientBoostingRegressor
        The fitted regressor of the log time on the summary features.
    sigma_ : float
        Standard deviation of the residuals in log space, at least 0.001,
        out of fold: each of 3 contiguous folds of the training windows (in
        input order, so that the overlapping windows of one unit mostly
        share a fold) is predicted by a regressor fitted on the other two.
        The training residuals of the final regressor would be far too
        small: on FD001 they give σ = 0.010 against 0.29 on held-out units.
    n_dropped_censored_ : int
        Censored windows with ``time < K`` left out of training.
    horizons_ : ndarray of shape (K,)
        The horizons 1..K of the surface columns.
    n_features_in_ : int
        Number of channels seen in ``fit``.
    n_timepoints_in_ : int
        Window length seen in ``fit``.

    See Also
    --------
    summary_features : The features the regressor sees.
    HEPAEventPredictor : The event predictor on pretrained embeddings.

    Notes
    -----
    ``fit`` fits four regressors (three for ``sigma_``, one final).
    HistGradientBoostingRegressor runs on every core through OpenMP. When
    other work keeps those cores busy, its threads wait on one another, and
    fits can become far slower: on two cores shared with other jobs, the
    fit on the 1281 FD001 training windows of ``cmapss_protocol`` took 260
    to 300 s, and 2.5 s on one thread. Limit the threads with
    ``threadpoolctl.threadpool_limits(1, user_api="openmp")`` or
    ``OMP_NUM_THREADS=1``.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import GradientBoostingEventPredictor, make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> time = rng.integers(1, 40, 100)
    >>> X = (time[:, None, None] + rng.normal(size=(100, 2, 32))).astype("float32")
    >>> y = make_survival_y(np.ones(100, bool), time)
    >>> model = GradientBoostingEventPredictor(K=20, max_iter=10, random_state=0).fit(X, y)
    >>> P = model.predict_proba(X)
    >>> P.shape, bool((np.diff(P, axis=1) >= 0).all())
    ((100, 20), True)
    >>> round(model.score(X, y), 2)
    0.98
    """

    def __init__(
        self,
        *,
        K=150,
        n_last=30,
        max_iter=200,
        learning_rate=0.1,
        max_leaf_nodes=31,
        min_samples_leaf=20,
        l2_regularization=0.0,
        random_state=None,
    ):
        self.K = K
        self.n_last = n_last
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.random_state = random_state

    _parameter_rules = {
        "K": integer(1),
        "n_last": integer(1),
        "max_iter": integer(1),
        "learning_rate": real(0.0, low_open=True),
        "max_leaf_nodes": integer(2),
        "min_samples_leaf": integer(1),
        "l2_regularization": real(0.0),
    }

    def fit(self, X, y):
        """Fit the regressor on windows ``X`` (n, C, T) and survival labels ``y``.

        Raises ValueError when no window remains once the censored windows
        with ``time < K`` are left out.
        """
        check_params(self, self._parameter_rules)
        X = check_windows(self, X, reset=True)
        event, time = check_survival_y(y, n_samples=X.shape[0])
        keep = event | (time >= self.K)
        if not keep.any():
            raise ValueError(
                f"no usable window: all {X.shape[0]} windows are censored before K={self.K} steps, "
                "which bounds their time to the event only from below; at least one window needs "
                "an observed event or censoring at time >= K."
            )
        target = np.log(np.where(event, np.maximum(time, 1.0), self.K)[keep])
        features = summary_features(X[keep], n_last=self.n_last)
        regressor = self._fit_regressor(features, target)
        folds = min(SIGMA_FOLDS, target.shape[0])
        if folds >= 2:
            predicted = np.empty_like(target)
            for train, test in KFold(folds).split(features):
                fold_regressor = self._fit_regressor(features[train], target[train])
                predicted[test] = fold_regressor.predict(features[test])
        else:  # a single window: no fold to hold out, its residual is 0
            predicted = regressor.predict(features)
        residual = target - predicted
        self.n_features_in_, self.n_timepoints_in_ = X.shape[1], X.shape[2]
        self.regressor_ = regressor
        self.sigma_ = max(float(np.std(residual)), MIN_SIGMA)
        self.n_dropped_censored_ = int((~keep).sum())
        self.horizons_ = np.arange(1, self.K + 1)
        return self

    def _fit_regressor(self, features, target):
        """A HistGradientBoostingRegressor fitted on ``features``, whose all-NaN columns it zeroes in place."""
        # HistGradientBoostingRegressor cannot bin a column without any value
        # (the slope with n_last=1, a channel never observed near the end in
        # these windows); a constant column is never split on, so predict
        # ignores whatever that column holds later
        features[:, np.isnan(features).all(axis=0)] = 0.0
        return HistGradientBoostingRegressor(
            max_iter=self.max_iter,
            learning_rate=self.learning_rate,
            max_leaf_nodes=self.max_leaf_nodes,
            min_samples_leaf=self.min_samples_leaf,
            l2_regularization=self.l2_regularization,
            early_stopping=False,
            random_state=self.random_state,
        ).fit(features, target)

    def _log_time(self, X):
        """μ̂: the predicted log time to the event of each window."""
        check_is_fitted(self, "regressor_")
        X = check_windows(self, X, reset=False)
        return self.regressor_.predict(summary_features(X, n_last=self.n_last))

    def predict(self, X):
        """Predicted median time to the event, ``exp(μ̂)``, shape (n_windows,)."""
        return np.exp(self._log_time(X))

    def predict_proba(self, X):
        """Event probability surface, shape (n_windows, K): ``P[i, k-1]`` = P(event within k steps)."""
        mu = self._log_time(X)
        return ndtr((np.log(self.horizons_)[None, :] - mu[:, None]) / self.sigma_)


    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.three_d_array = True
        tags.target_tags.required = True
        return tags
