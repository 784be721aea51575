"""A gradient-boosting baseline on per-channel summary features of each window."""

import numpy as np
from scipy.special import ndtr
from sklearn.base import BaseEstimator
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import KFold
from sklearn.utils.validation import check_is_fitted

from .._docs import fill_doc
from .._base import store_parameters
from .._validation import NON_NEGATIVE_REAL, POSITIVE_INT, POSITIVE_REAL, Count, check_windows
from ..metrics import SurfaceScoreMixin
from ..surface import check_survival_y
from ..survival import SurvivalMixin
from ._features import summary_features

__all__ = ["GradientBoostingEventPredictor"]

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


@fill_doc
class GradientBoostingEventPredictor(SurvivalMixin, SurfaceScoreMixin, BaseEstimator):
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

    The survival function, cumulative hazard and risk score that
    scikit-survival's tools read come from
    :class:`~hepa_sklearn.survival.SurvivalMixin`
    (``predict_survival_function``, ``predict_cumulative_hazard_function``,
    ``predict_risk``); the risk score falls as ``μ̂`` rises, so it ranks
    windows in the reverse order of ``predict``.

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
    %(window_shape_attributes)s

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
        K=150, n_last=30,
        # passed to HistGradientBoostingRegressor
        max_iter=200, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=20, l2_regularization=0.0,
        random_state=None,
    ):
        store_parameters(self, locals())

    _parameter_constraints = {
        "K": [POSITIVE_INT],
        "n_last": [POSITIVE_INT],
        "max_iter": [POSITIVE_INT],
        "learning_rate": [POSITIVE_REAL],
        "max_leaf_nodes": [Count(2)],
        "min_samples_leaf": [POSITIVE_INT],
        "l2_regularization": [NON_NEGATIVE_REAL],
        "random_state": ["random_state"],
    }

    def fit(self, X, y):
        """Fit the regressor on windows ``X`` (n, C, T) and survival labels ``y``.

        Raises ValueError when no window remains once the censored windows
        with ``time < K`` are left out.
        """
        self._validate_params()
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
