"""A gradient-boosting baseline on per-channel summary features of each window, at several scales."""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.utils.validation import check_is_fitted

from .._docs import fill_doc
from .._incidence import IncidenceMixin
from .._validation import (
    NON_NEGATIVE_REAL,
    POSITIVE_INT,
    POSITIVE_REAL,
    Count,
    StrOptions,
    WindowSurfaceTags,
    check_windows,
)
from ..metrics import h_auroc
from ..surface import check_survival_y, make_survival_y
from ..survival import SurvivalMixin
from ._boosting_search import SEARCH_GRID, SEARCHED, auto_leaf_size
from ._boosting_search import candidates as search_candidates
from ._cause_mix import fit_cause_classifier
from ._features import multiscale_features, summary_features
from ._folds import unit_folds
from ._lognormal import MIN_SIGMA, log_normal_surface, survival_targets

__all__ = ["GradientBoostingEventPredictor", "SEARCH_GRID", "auto_leaf_size"]


@fill_doc
class GradientBoostingEventPredictor(IncidenceMixin, WindowSurfaceTags, SurvivalMixin, BaseEstimator):
    """Log-normal event surface from gradient boosting on summary features.

    The baseline a scikit-learn user would try first: summarise each window
    by :func:`multiscale_features` (level, trend, spread and extremes of
    every channel over its last 10, 30, 100 steps and all of it, its
    missingness and its visible age), regress the log time to the
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

    Training targets. Only the order of the event times within the horizon
    matters to the surface: at each ``k <= K`` a window is positive when its
    event comes within ``k`` steps and negative otherwise, so every window
    known to survive the horizon is negative at every ``k``, whether its
    event is observed later or it is censored later. Such windows (an event
    at ``time > K``, or censoring at ``time >= K``) all get the target
    ``log(K + 1)``; a window with an event within the horizon gets
    ``log(max(time, 1))``; a censored window with ``time < K`` carries only
    a lower bound inside the horizon and is left out (counted in
    ``n_dropped_censored_``). The common target puts a point mass at
    ``log(K + 1)`` that the Gaussian residual model ignores. (Targets of
    ``log(time)`` for every observed event, as in release 0.2.0, rank a
    window whose event is observed 500 steps later as safer than one known
    only to survive ``K`` steps, which inverts the ranking on data with
    recurring events and censoring beyond the horizon.)

    Several failure types: for a ``y`` with a ``cause`` field, a
    classifier of the cause among the events within the horizon, on the
    same features and with the chosen parameters, splits the surface:
    ``predict_cumulative_incidence`` gives ``P[i, k-1] π_c(i)``, which
    assumes the mix of causes does not depend on the horizon (see
    :mod:`hepa_sklearn.baselines._cause_mix`).

    Parameters
    ----------
    K : int, default=150
        Number of unit-step horizons.
    features : {"multiscale", "last"} or callable, default="multiscale"
        What the regressor sees: :func:`multiscale_features`, or
        :func:`summary_features` of the last ``n_last`` steps only (four
        features per channel, this baseline's features before multiscale
        became the default; they cannot see slow trends, the unit's age or
        missingness), or ``features(X)``: a function of the windows (n, C,
        T) returning one row of features per window (n, n_features), for
        example a fitted encoder's embedding beside
        :func:`multiscale_features`. It is called as it is, never fitted.
    n_last : int, default=30
        Final steps that ``features="last"`` summarises; unused otherwise.
    max_iter : int, default=200
        Boosting iterations; all of them run (no early stopping: windows of
        one unit overlap, so a random validation split would leak).
    learning_rate : float, default=0.1
    max_leaf_nodes : int, default=31
    min_samples_leaf : int or "auto", default="auto"
        Least training windows per leaf. ``"auto"`` is
        ``max(1, min(20, n // 20))`` for the ``n`` windows kept for
        training: scikit-learn's 20 from 400 windows on, and below that
        small enough to leave room for about 20 leaves. A tree needs twice
        ``min_samples_leaf`` rows to split at all, so a fixed 20 makes any
        fit on fewer than 40 windows a constant.
    l2_regularization : float, default=0.0
    search : "auto", list of dict or None, default="auto"
        An inner search for ``max_iter``, ``learning_rate``,
        ``max_leaf_nodes`` and ``min_samples_leaf``, scored by the
        out-of-fold :func:`~hepa_sklearn.metrics.h_auroc` on the training
        windows (the folds of ``sigma_``). Each candidate is a dict that
        overrides some of these four parameters; ``"auto"`` tries four
        candidates, the first being the parameters as given (see
        :data:`~hepa_sklearn.baselines.BOOSTING_SEARCH_GRID`), when fewer than 500 windows are
        kept for training, and fits the parameters as given on more; a list
        always tries the given candidates; ``None`` fits the parameters as
        given. The best candidate, the first among equals, is refit on all
        training windows.
    n_causes : int, default=None
        Causes to learn, for a ``y`` with a ``cause`` field: None learns
        causes ``1..`` the largest in ``y``; an int also covers causes that
        never occur in the training labels (each named in a warning).
    random_state : int, RandomState instance or None, default=None
        Passed to the regressor.

    Attributes
    ----------
    regressor_ : HistGradientBoostingRegressor
        The fitted regressor of the log time on the summary features.
    best_params_ : dict
        ``max_iter``, ``learning_rate``, ``max_leaf_nodes`` and
        ``min_samples_leaf`` of ``regressor_`` (``"auto"`` resolved).
    search_params_ : list of dict
        The candidates tried, resolved like ``best_params_``; the
        parameters as given alone when there is no search.
    search_scores_ : ndarray of shape (n_candidates,)
        Out-of-fold h-AUROC of each candidate on the training windows; NaN
        where no fold can be held out (one window) or every horizon is
        degenerate.
    sigma_ : float
        Standard deviation of the residuals in log space, at least 0.001,
        out of fold, from the chosen candidate. The folds are
        ``GroupKFold`` over ``groups`` when ``fit`` gets two groups or more
        (so that no unit is predicted by a regressor that saw its other
        windows), else 3 contiguous folds of the training windows in input
        order (so that the overlapping windows of one unit mostly share a
        fold); at most 3 folds either way. The training residuals of the
        final regressor would be far too small: on FD001 they give
        σ = 0.010 against 0.29 on held-out units.
    n_dropped_censored_ : int
        Censored windows with ``time < K`` left out of training.
    n_causes_ : int
        Causes learned: ``n_causes``, or the largest cause in ``y`` (1
        without a cause field).
    cause_classifier_ : ShrunkCauseClassifier or None
        The classifier of the cause, shrunk towards the training mix of
        causes by its out-of-fold log loss; None with one cause.
    horizons_ : ndarray of shape (K,)
        The horizons 1..K of the surface columns.
    %(window_shape_attributes)s

    See Also
    --------
    summary_features : The features the regressor sees.
    HEPAEventPredictor : The event predictor on pretrained embeddings.

    Notes
    -----
    ``fit`` fits ``3 * n_candidates + 1`` regressors (each candidate on
    each fold, then the chosen one on all windows): 13 with
    ``search="auto"`` on fewer than 500 windows, else 4. A fit whose
    predictions are all equal while its targets are not is redone with
    ``min_samples_leaf=1``, so the surface is constant only when the
    summary features or the targets are.
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
    >>> from hepa_sklearn import GradientBoostingEventPredictor
    >>> from hepa_sklearn.surface import make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> time = rng.integers(1, 40, 100)
    >>> X = (time[:, None, None] + rng.normal(size=(100, 2, 32))).astype("float32")
    >>> y = make_survival_y(np.ones(100, bool), time)
    >>> model = GradientBoostingEventPredictor(K=20, max_iter=10, random_state=0).fit(X, y)
    >>> P = model.predict_proba(X)
    >>> P.shape, bool((np.diff(P, axis=1) >= 0).all())
    ((100, 20), True)
    >>> model.best_params_["min_samples_leaf"]  # "auto": 100 // 20
    5
    >>> round(model.score(X, y), 2)
    1.0
    """

    def __init__(
        self,
        *,
        K=150,
        features="multiscale",
        n_last=30,
        # passed to HistGradientBoostingRegressor
        max_iter=200,
        learning_rate=0.1,
        max_leaf_nodes=31,
        min_samples_leaf="auto",
        l2_regularization=0.0,
        search="auto",
        n_causes=None,
        random_state=None,
    ):
        self.K = K
        self.features = features
        self.n_last = n_last
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.search = search
        self.n_causes = n_causes
        self.random_state = random_state

    _parameter_constraints = {
        "K": [POSITIVE_INT],
        "features": [StrOptions({"multiscale", "last"}), callable],
        "n_last": [POSITIVE_INT],
        "max_iter": [POSITIVE_INT],
        "learning_rate": [POSITIVE_REAL],
        "max_leaf_nodes": [Count(2)],
        "min_samples_leaf": [POSITIVE_INT, StrOptions({"auto"})],
        "l2_regularization": [NON_NEGATIVE_REAL],
        "search": [StrOptions({"auto"}), list, None],
        "n_causes": [None, POSITIVE_INT],
        "random_state": ["random_state"],
    }

    def fit(self, X, y, groups=None):
        """Fit the regressor on windows ``X`` (n, C, T) and survival labels ``y``.

        ``groups`` (n,), optional, names the unit of each window; the
        out-of-fold predictions behind ``sigma_`` and the search then hold
        out whole units. Raises ValueError when no window has its event within
        ``K`` steps (every known cell of the surface would be negative), and
        for a bad ``groups`` or search candidate.
        """
        self._validate_params()
        X = check_windows(self, X, reset=True)
        event, time = check_survival_y(y, n_samples=X.shape[0], events_within=self.K)
        if groups is not None:
            groups = np.asarray(groups)
            if groups.shape != (X.shape[0],):
                raise ValueError(
                    f"groups must hold one unit label per window, shape ({X.shape[0]},); got shape {groups.shape}."
                )
        keep = event | (time >= self.K)  # an event within K is there, checked above
        target = survival_targets(event, time, self.K)[keep]
        features = self._features(X[keep])
        candidates = search_candidates(self, target.shape[0])
        folds = unit_folds(target.shape[0], None if groups is None else groups[keep])
        horizons = np.arange(1, self.K + 1)
        scores = np.full(len(candidates), np.nan)
        predicted = np.empty((len(candidates), target.shape[0]))  # out of fold, per candidate
        for train, test in folds:
            for i, params in enumerate(candidates):
                predicted[i, test] = self._fit_regressor(features[train], target[train], params).predict(features[test])
        if folds:
            y_kept = make_survival_y(event[keep], time[keep])
            for i in range(len(candidates)):
                sigma = max(float(np.std(target - predicted[i])), MIN_SIGMA)
                scores[i] = h_auroc(y_kept, log_normal_surface(predicted[i], sigma, horizons))
        best = int(np.argmax(np.where(np.isnan(scores), -np.inf, scores)))
        regressor = self._fit_regressor(features, target, candidates[best])
        # a single window has no fold to hold out: its residual is 0
        residual = target - (predicted[best] if folds else regressor.predict(features))
        self.n_features_in_, self.n_timepoints_in_ = X.shape[1], X.shape[2]
        self.regressor_ = regressor
        self.best_params_ = {name: regressor.get_params()[name] for name in SEARCHED}
        self.search_params_ = candidates
        self.search_scores_ = scores
        self.sigma_ = max(float(np.std(residual)), MIN_SIGMA)
        self.n_dropped_censored_ = int((~keep).sum())
        self.horizons_ = horizons
        self.n_causes_, self.cause_classifier_ = fit_cause_classifier(self, y, features, keep, auto_leaf_size, folds)
        return self

    def _fit_regressor(self, features, target, params):
        """A HistGradientBoostingRegressor with ``params`` fitted on ``features``, whose all-NaN columns it zeroes in
        place.

        When its predictions are all equal although ``target`` is not, the
        fit is redone with ``min_samples_leaf=1``: a leaf size larger than
        half the rows leaves every tree a single leaf.
        """
        # HistGradientBoostingRegressor cannot bin a column without any value
        # (the slope with n_last=1, a channel never observed near the end in
        # these windows); a constant column is never split on, so predict
        # ignores whatever that column holds later
        features[:, np.isnan(features).all(axis=0)] = 0.0
        regressor = HistGradientBoostingRegressor(
            **params, l2_regularization=self.l2_regularization, early_stopping=False, random_state=self.random_state
        ).fit(features, target)
        if params["min_samples_leaf"] > 1 and np.ptp(target) > 0 and np.ptp(regressor.predict(features)) == 0:
            regressor.set_params(min_samples_leaf=1).fit(features, target)
        return regressor

    def _log_time(self, X):
        """μ̂: the predicted log time to the event of each window."""
        check_is_fitted(self, "regressor_")
        X = check_windows(self, X, reset=False)
        return self.regressor_.predict(self._features(X))

    def _incidence_parts(self, X):
        """The any-event surface and, with several causes, the classifier's probability of each cause."""
        proba = self.predict_proba(X)
        if self.cause_classifier_ is None:
            return proba, None
        return proba, self.cause_classifier_.shares(self._features(check_windows(self, X, reset=False)))

    def _features(self, X):
        if callable(self.features):
            features = np.array(self.features(X), dtype=np.float64)  # a copy: the fit zeroes empty columns
            if features.ndim != 2 or features.shape[0] != X.shape[0]:
                raise ValueError(
                    f"features(X) must return one row per window, shape ({X.shape[0]}, n_features); "
                    f"got shape {features.shape}."
                )
            return features
        if self.features == "last":
            return summary_features(X, n_last=self.n_last)
        return multiscale_features(X)

    def predict(self, X):
        """Predicted median time to the event, ``exp(μ̂)``, shape (n_windows,)."""
        return np.exp(self._log_time(X))

    def predict_proba(self, X):
        """Event probability surface, shape (n_windows, K): ``P[i, k-1]`` = P(event within k steps)."""
        return log_normal_surface(self._log_time(X), self.sigma_, self.horizons_)
