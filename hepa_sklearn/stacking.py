"""Stacking of event surfaces: a convex mixture of surface estimators, its weights chosen out of fold."""

import inspect
import warnings
from numbers import Integral

import numpy as np
import scipy.sparse
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.model_selection import GroupKFold, KFold, check_cv
from sklearn.utils import Bunch, _safe_indexing, check_random_state, get_tags
from sklearn.utils.metaestimators import _BaseComposition
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import _check_method_params, check_is_fitted

from ._validation import Count, StrOptions, check_groups
from .metrics import h_auroc
from .metrics._ranking import MAX_PREVALENCE, MIN_PREVALENCE
from .surface import check_surface, check_survival_y, expected_time_to_event, label_surface
from .survival import SurvivalMixin

__all__ = ["StackedSurfaces"]

# the weight search: the step of the grid on the simplex (1/100 for two estimators, 1/20 for
# three, 231 mixtures) and of the coordinate search from four estimators on
GRID_STEPS = {1: 1, 2: 100, 3: 20}
COORDINATE_STEPS = 20
MAX_ROUNDS = 50
# two mixtures whose out-of-fold h-AUROC differ by less than this tie
SCORE_TOLERANCE = 1e-12
# fixed weights must sum to 1 within this
SUM_TOLERANCE = 1e-8


class _HorizonAUROC:
    """The h-AUROC of a surface against fixed labels, by ranks: ``h_auroc`` without rebuilding the labels.

    The horizons and their degeneracy are those of
    :func:`~hepa_sklearn.metrics.per_horizon_auroc`; each horizon's AUROC
    is the Mann-Whitney statistic of the known cells, with average ranks
    for ties, as ``roc_auc_score`` computes it.
    """

    def __init__(self, y, K):
        labels, known = label_surface(y, K)
        positive = (labels > 0) & known
        n_known = known.sum(axis=0)
        n_positive = positive.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            prevalence = n_positive / n_known
        valid = (n_known > 0) & (n_positive > 0) & (n_positive < n_known)
        valid &= (prevalence >= MIN_PREVALENCE) & (prevalence <= MAX_PREVALENCE)
        self.columns = np.flatnonzero(valid)
        self.known = known[:, self.columns]
        self.positive = positive[:, self.columns]
        self.n_positive = n_positive[self.columns].astype(float)
        self.n_negative = (n_known - n_positive)[self.columns].astype(float)

    def __call__(self, proba):
        if self.columns.size == 0:
            return float("nan")
        cells = np.where(self.known, proba[:, self.columns], np.nan)
        ranks = rankdata(cells, axis=0, nan_policy="omit")
        rank_sum = np.where(self.positive, ranks, 0.0).sum(axis=0)
        auroc = (rank_sum - self.n_positive * (self.n_positive + 1) / 2) / (self.n_positive * self.n_negative)
        return float(auroc.mean())


def _mixture(weights, surfaces):
    """``Σ_i w_i P_i`` over the estimators of non-zero weight, clipped to [0, 1] against rounding."""
    mixed = np.zeros_like(surfaces[0], dtype=float)
    for weight, surface in zip(weights, surfaces, strict=True):
        if weight > 0:
            mixed += weight * surface
    return np.clip(mixed, 0.0, 1.0)


def _compositions(n_parts, total):
    """Every tuple of ``n_parts`` non-negative integers summing to ``total``."""
    if n_parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(n_parts - 1, total - first):
            yield (first, *rest)


def _simplex_grid(n_estimators, steps):
    """The weight vectors of multiples of ``1 / steps`` that sum to 1, the largest single weight first.

    The vertices (one estimator alone) come first, so that a search that
    keeps the first of equal scores mixes no more than it needs to.
    """
    grid = np.array(list(_compositions(n_estimators, steps)), dtype=float) / steps
    order = np.argsort(-grid.max(axis=1), kind="stable")
    return grid[order]


def _grid_search(score, n_estimators):
    """The weights of the grid on the simplex with the highest score, the first among ties."""
    grid = _simplex_grid(n_estimators, GRID_STEPS[n_estimators])
    scores = np.array([score(weights) for weights in grid])
    if np.all(np.isnan(scores)):
        return None
    best = np.nanmax(scores)
    return grid[int(np.flatnonzero(scores >= best - SCORE_TOLERANCE)[0])]


def _coordinate_search(score, n_estimators):
    """Weights from the best single estimator, improved one coordinate at a time.

    Each move sets one weight to a multiple of ``1 / COORDINATE_STEPS`` and
    rescales the others to keep the sum 1 (sharing ``1 - w_i`` equally when
    the others are all 0); a move is kept only when it raises the score,
    and the search stops after a round without one.
    """
    vertices = np.eye(n_estimators)
    scores = np.array([score(vertex) for vertex in vertices])
    if np.all(np.isnan(scores)):
        return None
    best_index = int(np.flatnonzero(scores >= np.nanmax(scores) - SCORE_TOLERANCE)[0])
    weights, best = vertices[best_index], scores[best_index]
    levels = np.arange(COORDINATE_STEPS + 1) / COORDINATE_STEPS
    for _ in range(MAX_ROUNDS):
        improved = False
        for i in range(n_estimators):
            others = np.arange(n_estimators) != i
            rest = weights[others].sum()
            for level in levels:
                if np.isclose(level, weights[i]):
                    continue
                candidate = np.empty(n_estimators)
                candidate[i] = level
                if rest > 0:
                    candidate[others] = weights[others] * (1.0 - level) / rest
                else:
                    candidate[others] = (1.0 - level) / (n_estimators - 1)
                value = score(candidate)
                if value > best + SCORE_TOLERANCE:
                    weights, best, improved = candidate, value, True
                    rest = weights[others].sum()
        if not improved:
            break
    return weights


def _accepts_groups(estimator):
    """Whether ``estimator.fit`` takes a ``groups`` argument."""
    try:
        return "groups" in inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):
        return False


def _declared_horizons(estimator):
    """The ``K`` parameter of the estimator, or of a pipeline's last step; None where there is none."""
    final = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
    K = getattr(final, "K", None)
    return K if isinstance(K, Integral) and not isinstance(K, bool) else None


def _seed(estimator, seed):
    """Set each ``random_state`` of ``estimator`` (or of its pipeline steps) that is None to ``seed``."""
    params = estimator.get_params(deep=True)
    own = [key for key in params if key == "random_state" or key.endswith("__random_state")]
    unset = {key: seed for key in own if params[key] is None and key.count("__") <= 1}
    if unset:
        estimator.set_params(**unset)
    return estimator


def _fit_one(estimator, X, y, fit_params, groups, train, test):
    """Fit ``estimator`` on the rows ``train`` (all when None); its surface of the rows ``test``, or None."""
    if train is not None:
        params = _check_method_params(X, params=fit_params, indices=train)
        X_fit, y_fit = _safe_indexing(X, train), _safe_indexing(y, train)
        groups = None if groups is None else groups[train]
    else:
        params, X_fit, y_fit = dict(fit_params), X, y
    if groups is not None and _accepts_groups(estimator):
        params["groups"] = groups
    estimator.fit(X_fit, y_fit, **params)
    if test is None:
        return estimator, None
    return estimator, estimator.predict_proba(_safe_indexing(X, test))


class StackedSurfaces(SurvivalMixin, _BaseComposition):
    """A convex mixture of event surfaces, weighted by their out-of-fold h-AUROC.

    The surface analogue of scikit-learn's ``StackingClassifier``. Each
    estimator returns a surface ``P_i`` (n_samples, K); the stack returns

    ``P[j, k-1] = Σ_i w_i P_i[j, k-1]``, with ``w_i >= 0`` and ``Σ_i w_i = 1``.

    A mixture of cumulative distribution functions is one, so each row stays
    non-decreasing in ``k`` and within [0, 1] whatever the weights: the
    stack is a surface estimator like the ones it mixes.

    ``fit`` first predicts every window out of fold with each estimator
    (fitted on the other folds), then chooses the weights on those
    surfaces, then refits each estimator on all the windows.

    Parameters
    ----------
    estimators : list of (str, estimator)
        The named surface estimators to mix: any estimator of the package
        whose ``predict_proba`` returns a surface, or a pipeline ending in
        one, for example ``make_pipeline(HEPAPretrainer(),
        HEPAEventPredictor(K=150))``. All must give the same ``K``. They are
        cloned, never fitted themselves.
    cv : int, cross-validation generator or iterable, default=5
        The folds of the out-of-fold surfaces. An int is the number of
        folds: ``GroupKFold`` over ``groups`` when ``fit`` gets them, so no
        unit has windows on both sides of a split, else contiguous folds in
        input order (``KFold`` without shuffling, as the boosting baseline's
        internal folds), which keep most of the overlapping windows of one
        unit together. A splitter is called as ``cv.split(X, y, groups)``;
        its test folds must hold out every window exactly once. None is 5
        folds.
    weights : "auto" or array-like of shape (n_estimators,), default="auto"
        ``"auto"`` chooses the weights that maximise the h-AUROC of the
        mixture of the out-of-fold surfaces: for two or three estimators,
        the best point of a grid on the simplex (steps of 1/100 for two,
        1/20 for three); from four on, a coordinate search from the best
        single estimator (steps of 1/20; each move sets one weight and
        rescales the others, and is kept when it raises the score). Among
        mixtures of equal score the one with the largest single weight is
        kept: the stack mixes no more than the score asks for. Fixed
        weights must be non-negative and sum to 1; the out-of-fold surfaces
        are then still computed, for ``oof_score_`` and ``oof_scores_``.
    n_jobs : int, default=None
        Fits run in parallel with joblib: the ``cv`` fits of each estimator
        and its final fit. None is one job, -1 every core.
    random_state : int, RandomState instance or None, default=None
        None leaves the estimators as they are. Otherwise each estimator's
        ``random_state`` parameters that are None (its own, or those of its
        pipeline's steps) are set to one integer drawn for that estimator,
        the same for its fold fits and its final fit, so that a fit is
        reproducible; parameters already set are kept. The folds themselves
        involve no randomness.

    Attributes
    ----------
    estimators_ : list of estimators
        Each estimator refitted on all the windows, in the order of
        ``estimators``.
    named_estimators_ : Bunch
        The same, by name.
    weights_ : ndarray of shape (n_estimators,)
        The weight of each estimator in the mixture.
    oof_scores_ : ndarray of shape (n_estimators,)
        The h-AUROC of each estimator's out-of-fold surface.
    oof_score_ : float
        The h-AUROC of the mixture of the out-of-fold surfaces with
        ``weights_``; at least ``max(oof_scores_)`` with
        ``weights="auto"``, which can choose any single estimator.
    horizons_ : ndarray of shape (K,)
        The horizons 1..K of the surface columns.

    See Also
    --------
    hepa_sklearn.metrics.h_auroc : The score the weights maximise.
    sklearn.ensemble.StackingClassifier : The classifiers' stacking.

    Notes
    -----
    The h-AUROC ranks the windows at each horizon, and the surfaces of
    different estimators can sit on different scales (one saturates near 0
    and 1, another stays near the event rate), so an estimator's weight
    also carries its scale: a mixture of per-horizon ranks would weigh
    them alike. Ranks, however, are no probabilities, and the ranks of new
    windows are not defined without a reference set, so the stack mixes
    the raw surfaces, keeping ``predict_proba`` a proper surface, and lets
    the out-of-fold search choose weights that account for the scales.

    ``fit(X, y, groups)`` passes ``groups`` (the training part of it in the
    fold fits) to each estimator whose ``fit`` takes ``groups``. Other fit
    parameters are named ``<estimator name>__<parameter>`` and go to that
    estimator's ``fit``, for a pipeline ``<name>__<step>__<parameter>``,
    such as the groups of its event predictor; in the fold fits, a
    parameter holding one value per window gets the training windows' own.

    ``fit`` fits each estimator ``cv + 1`` times; a search among the
    weights costs no fit.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import ElapsedTimeEventPredictor, GradientBoostingEventPredictor, StackedSurfaces
    >>> from hepa_sklearn.surface import make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> time = rng.integers(1, 40, 120)
    >>> X = (time[:, None, None] + rng.normal(size=(120, 2, 16))).astype("float32")
    >>> y = make_survival_y(np.ones(120, bool), time)
    >>> stack = StackedSurfaces(
    ...     [
    ...         ("boosting", GradientBoostingEventPredictor(K=20, max_iter=10, search=None)),
    ...         ("age", ElapsedTimeEventPredictor(K=20)),
    ...     ],
    ...     cv=3,
    ...     random_state=0,
    ... ).fit(X, y, groups=np.arange(120) // 4)
    >>> P = stack.predict_proba(X)
    >>> P.shape, bool((np.diff(P, axis=1) >= 0).all())
    ((120, 20), True)
    >>> bool(np.isclose(stack.weights_.sum(), 1.0)), bool(stack.oof_score_ >= stack.oof_scores_.max())
    (True, True)
    """

    _required_parameters = ["estimators"]
    _parameter_constraints = {
        "estimators": [list],
        "cv": [Count(2), "cv_object"],
        "weights": [StrOptions({"auto"}), "array-like"],
        "n_jobs": [None, Integral],
        "random_state": ["random_state"],
    }

    def __init__(self, estimators, *, cv=5, weights="auto", n_jobs=None, random_state=None):
        self.estimators = estimators
        self.cv = cv
        self.weights = weights
        self.n_jobs = n_jobs
        self.random_state = random_state

    def get_params(self, deep=True):
        """The parameters of the stack and, with ``deep``, each estimator's as ``<name>__<parameter>``."""
        return self._get_params("estimators", deep=deep)

    def set_params(self, **params):
        """Set the stack's parameters, an estimator by name, or an estimator's as ``<name>__<parameter>``."""
        self._set_params("estimators", **params)
        return self

    @property
    def named_estimators(self):
        """The estimators of ``estimators`` (unfitted), by name."""
        return Bunch(**dict(self.estimators))

    @property
    def n_features_in_(self):
        """Features of the input seen in ``fit`` (channels of windows), as the first estimator counts them."""
        if "estimators_" not in vars(self):
            raise AttributeError(f"{type(self).__name__} is not fitted, so it has no n_features_in_.")
        return self.estimators_[0].n_features_in_

    def _check_estimators(self):
        """Names and estimators of ``estimators``, checked: pairs, unique names, surfaces of one ``K``."""
        if len(self.estimators) == 0:
            raise ValueError("estimators is empty; give a list of (name, estimator) pairs, at least one.")
        for entry in self.estimators:
            if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str)):
                raise TypeError(f"each item of estimators must be a (name, estimator) pair, got {entry!r}.")
        names, estimators = zip(*self.estimators, strict=True)
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"estimators must have unique names; {duplicates} occur more than once.")
        self._validate_names(names)
        for name, estimator in self.estimators:
            missing = [method for method in ("fit", "predict_proba") if not hasattr(estimator, method)]
            if missing:
                raise TypeError(
                    f"estimator {name!r} ({type(estimator).__name__}) has no {' or '.join(missing)}; each "
                    "estimator must be a surface estimator, whose predict_proba returns (n_samples, K)."
                )
        declared = {name: _declared_horizons(estimator) for name, estimator in self.estimators}
        self._check_same_horizons({name: K for name, K in declared.items() if K is not None})
        return list(names), list(estimators)

    @staticmethod
    def _check_same_horizons(horizons):
        """ValueError naming the estimators unless every value of ``{name: K}`` is the same."""
        if len(set(horizons.values())) > 1:
            listed = ", ".join(f"{name!r} K={K}" for name, K in horizons.items())
            raise ValueError(f"the estimators must share one K, the width of their surfaces; got {listed}.")

    def _check_weights(self, n_estimators):
        """The fixed weights, checked, as a float array; None for ``"auto"``."""
        if isinstance(self.weights, str):
            return None
        weights = np.asarray(self.weights, dtype=float)
        if weights.shape != (n_estimators,):
            expected = f"one weight per estimator, shape ({n_estimators},)"
            raise ValueError(f"weights must hold {expected}; got shape {weights.shape}.")
        if not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise ValueError(f"weights must be finite and non-negative, got {weights.tolist()}.")
        if abs(weights.sum() - 1.0) > SUM_TOLERANCE:
            raise ValueError(f"weights must sum to 1, got {weights.tolist()} (sum {weights.sum():.10g}).")
        return weights

    def _folds(self, X, y, groups, n_samples):
        """The (train, test) pairs of ``cv``, checked to hold out every window exactly once."""
        cv = 5 if self.cv is None else self.cv
        if isinstance(cv, Integral):
            if groups is not None:
                n_groups = np.unique(groups).size
                if n_groups < cv:
                    raise ValueError(f"cv={cv} folds over groups need {cv} groups; groups has {n_groups}.")
                splitter = GroupKFold(n_splits=cv)
            else:
                if n_samples < cv:
                    raise ValueError(f"cv={cv} folds need at least {cv} samples; got n_samples={n_samples}.")
                splitter = KFold(n_splits=cv)
        else:
            splitter = check_cv(cv)
        folds = [(np.asarray(train), np.asarray(test)) for train, test in splitter.split(X, y, groups)]
        held_out = np.sort(np.concatenate([test for _, test in folds])) if folds else np.array([], int)
        if held_out.shape != (n_samples,) or np.any(held_out != np.arange(n_samples)):
            raise ValueError(
                "cv must hold out every window exactly once across its test folds (a partition, as KFold and "
                "GroupKFold make), so that each window has one out-of-fold surface."
            )
        return folds

    def _fit_params(self, names, fit_params):
        """``{name: {parameter: value}}`` from the ``<name>__<parameter>`` fit parameters."""
        routed = {name: {} for name in names}
        for key, value in fit_params.items():
            name, _, parameter = key.partition("__")
            if name not in routed or not parameter:
                raise ValueError(
                    f"fit parameter {key!r} names no estimator; name it '<estimator name>__<parameter>' "
                    f"with one of {names}."
                )
            routed[name][parameter] = value
        return routed

    def fit(self, X, y, groups=None, **fit_params):
        """Fit each estimator out of fold, choose the weights, then refit each estimator on all the windows.

        Parameters
        ----------
        X : array-like
            The input of the estimators: windows (n_windows, n_channels,
            n_timepoints) for the package's window estimators and pipelines.
        y : structured ndarray with fields ``event`` and ``time``
            Time from each window's end to its event, or to censoring.
        groups : array-like of shape (n_samples,), default=None
            Unit label of each window. An int ``cv`` then makes
            ``GroupKFold`` folds, and the estimators whose ``fit`` takes
            ``groups`` get it.
        **fit_params : dict
            ``<estimator name>__<parameter>``: passed to that estimator's
            ``fit``.

        Returns
        -------
        self : object
            The fitted stack.
        """
        self._validate_params()
        if scipy.sparse.issparse(X):
            raise TypeError("X is a sparse matrix; sparse input is not supported, pass a dense array.")
        names, estimators = self._check_estimators()
        fixed = self._check_weights(len(estimators))
        routed = self._fit_params(names, fit_params)
        n_samples = check_survival_y(y)[0].shape[0]
        groups = check_groups(groups, n_samples)
        folds = self._folds(X, y, groups, n_samples)
        if self.random_state is not None:
            rng = check_random_state(self.random_state)
            seeds = rng.randint(np.iinfo(np.int32).max, size=len(estimators))
            estimators = [_seed(clone(est), int(seed)) for est, seed in zip(estimators, seeds, strict=True)]
        # the folds of each estimator, then its fit on all the windows
        jobs = [(i, train, test) for i in range(len(estimators)) for train, test in [*folds, (None, None)]]
        results = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_one)(clone(estimators[i]), X, y, routed[names[i]], groups, train, test)
            for i, train, test in jobs
        )
        surfaces = [None] * len(estimators)
        fitted = [None] * len(estimators)
        for (i, train, test), (estimator, surface) in zip(jobs, results, strict=True):
            if train is None:
                fitted[i] = estimator
                continue
            surface = check_surface(surface, test.shape[0], probabilities=True)
            if surfaces[i] is None:
                surfaces[i] = np.empty((n_samples, surface.shape[1]))
            elif surface.shape[1] != surfaces[i].shape[1]:
                raise ValueError(
                    f"estimator {names[i]!r} gave surfaces of {surfaces[i].shape[1]} and {surface.shape[1]} "
                    "horizons in different folds; its K must not depend on the data."
                )
            surfaces[i][test] = surface
        self._check_same_horizons({name: P.shape[1] for name, P in zip(names, surfaces, strict=True)})
        weights = fixed if fixed is not None else self._search_weights(y, surfaces)
        self.oof_scores_ = np.array([h_auroc(y, surface) for surface in surfaces])
        self.oof_score_ = h_auroc(y, _mixture(weights, surfaces))
        self.weights_ = weights
        self.estimators_ = fitted
        self.named_estimators_ = Bunch(**dict(zip(names, fitted, strict=True)))
        self.horizons_ = np.arange(1, surfaces[0].shape[1] + 1)
        return self

    def _search_weights(self, y, surfaces):
        """The weights of ``weights="auto"``: the mixture of out-of-fold ``surfaces`` of highest h-AUROC."""
        n_estimators = len(surfaces)
        scorer = _HorizonAUROC(y, surfaces[0].shape[1])

        def score(weights):
            return scorer(_mixture(weights, surfaces))

        search = _grid_search if n_estimators in GRID_STEPS else _coordinate_search
        weights = search(score, n_estimators)
        if weights is None:
            warnings.warn(
                "every horizon of the out-of-fold surfaces is degenerate (one class among the known "
                "cells), so no weights score better than others; the estimators get equal weights.",
                UserWarning,
                stacklevel=3,
            )
            weights = np.full(n_estimators, 1.0 / n_estimators)
        return weights

    def predict_proba(self, X):
        """Event probability surface, shape (n_samples, K): the weighted mixture of the estimators'."""
        check_is_fitted(self, "estimators_")
        surfaces = []
        for weight, estimator in zip(self.weights_, self.estimators_, strict=True):
            surfaces.append(estimator.predict_proba(X) if weight > 0 else None)
        shape = next(surface.shape for surface in surfaces if surface is not None)
        surfaces = [np.zeros(shape) if surface is None else surface for surface in surfaces]
        return _mixture(self.weights_, surfaces)

    def predict(self, X):
        """Expected time to the event truncated at K, ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``."""
        return expected_time_to_event(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        try:
            inner = [get_tags(estimator) for _, estimator in self.estimators]
        except (TypeError, ValueError, AttributeError):
            return tags
        if inner:
            tags.input_tags.allow_nan = all(t.input_tags.allow_nan for t in inner)
            tags.input_tags.three_d_array = any(t.input_tags.three_d_array for t in inner)
        return tags
