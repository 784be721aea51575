"""HorizonClassifier: a surface estimator seen as the binary classifier "event within H steps?", and the binary label at
H."""

import re
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import Pipeline
from sklearn.utils import get_tags
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d

from ._interval_labels import make_interval_y
from ._surface_estimator import SurfaceNetEstimator
from ._validation import POSITIVE_INT, HasMethods, Interval, check_event_indicator, validate_params
from .event_predictor import HEPAEventPredictor
from .surface import check_survival_y

# the torch surface estimators, which read the partial label surface of binary labels as interval labels
TORCH_SURFACE_ESTIMATORS = (HEPAEventPredictor, SurfaceNetEstimator)

__all__ = ["HorizonClassifier", "label_at_horizon"]


@validate_params({"horizon": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def label_at_horizon(y, horizon):
    """The binary label "event within ``horizon`` steps" of each window, and whether it is known.

    A window is positive when its event comes within ``horizon`` steps
    (``event`` and ``time <= horizon``) and negative when it is known to
    be event-free that long (``time > horizon``, or censored at ``time >=
    horizon``). A window censored before ``horizon`` has an unknown label:
    drop it, as :func:`~hepa_sklearn.metrics.per_horizon_auroc` masks it.
    These are the cells of column ``horizon`` of
    :func:`~hepa_sklearn.surface.label_surface`.

    Parameters
    ----------
    y : structured ndarray with fields ``event`` and ``time``
    horizon : int
        Steps ahead, at least 1.

    Returns
    -------
    labels : ndarray of shape (n_samples,), bool
        True for an event within ``horizon`` steps; False for a negative
        and for an unknown label.
    known : ndarray of shape (n_samples,), bool
        False where the label is unknown; select the windows to keep with it
        (``X[known], labels[known], groups[known]``).

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True, False, False], [3, 40, 50, 10])
    >>> labels, known = label_at_horizon(y, 30)
    >>> labels.tolist(), known.tolist()
    ([True, False, False, False], [True, True, True, False])
    """
    event, time = check_survival_y(y)
    return event & (time <= horizon), event | (time >= horizon)


def _binary_labels(y, horizon):
    """``y`` as a bool array; ValueError for a survival ``y``, more than two classes, values other than 0/1 and
    False/True."""
    if y is None:
        raise ValueError(
            "HorizonClassifier requires y to be passed, but the target y is None: pass the binary label "
            "'event within horizon steps' of each window."
        )
    values = np.asarray(y)
    if values.dtype.names is not None:
        raise ValueError(
            f"y is a structured array of fields {list(values.dtype.names)}: HorizonClassifier.fit takes the "
            f"binary label at horizon {horizon} as y. Build it with label_at_horizon(y, {horizon}); to train on "
            "the full (event, time) labels, pass them as survival_y through metadata routing "
            "(sklearn.set_config(enable_metadata_routing=True) and set_fit_request(survival_y=True))."
        )
    values = column_or_1d(values, warn=True)
    kind = type_of_target(values, input_name="y")
    if kind not in ("binary", "unknown"):
        raise ValueError(
            f"Only binary classification is supported: y must be the binary label at horizon {horizon}, got "
            f"a {kind} target (Unknown label type: {kind}). Build it from (event, time) with "
            f"label_at_horizon(y, {horizon})."
        )
    try:
        labels = check_event_indicator(values, "y")
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"y must be the binary label at horizon {horizon} (False/True or 0/1); {error} "
            f"Build it from (event, time) with label_at_horizon(y, {horizon})."
        ) from None
    if labels.all() or not labels.any():
        raise ValueError(
            f"y holds one class only ({bool(labels[0]) if labels.size else 'no sample'}); the classifier "
            "needs windows of both classes."
        )
    return labels


def _final_step(estimator):
    """The estimator that makes the surface (the last step of pipelines), and whether fit leaves it unchanged."""
    frozen = False
    while True:
        if isinstance(estimator, FrozenEstimator):
            estimator, frozen = estimator.estimator, True
        elif isinstance(estimator, Pipeline):
            estimator = estimator.steps[-1][1]
        else:
            return estimator, frozen


class HorizonClassifier(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """The binary classifier "event within ``horizon`` steps?" read from column ``horizon`` of a surface.

    ``predict_proba(X)[:, 1]`` is the surface ``P[:, horizon - 1]``, so
    scikit-learn's classification tools (``roc_auc`` and
    ``average_precision`` scoring, ``CalibratedClassifierCV``,
    ``TunedThresholdClassifierCV``, ``classification_report``) work on it
    unchanged, and its ROC AUC is the surface's per-horizon AUROC at
    ``horizon`` (:func:`~hepa_sklearn.metrics.per_horizon_auroc`).

    ``fit(X, y)`` takes the binary label at ``horizon``
    (:func:`~hepa_sklearn.classifier.label_at_horizon`) and trains a clone of ``estimator`` on the
    cells of the label surface that this label determines, exactly: a
    positive (event within ``horizon`` steps) makes the cells at horizons
    ``>= horizon`` positive, a negative makes those at horizons ``<=
    horizon`` negative, and every other cell is unknown, left out of the
    loss as censored cells are. No right-censored ``(event, time)``
    record says "the event came by ``horizon``, at some step", so the
    binary labels travel to the surface estimator as interval labels, the
    event time in ``(0, horizon]`` or ``(horizon, inf)``; the torch surface
    estimators read them (with the surface BCE loss). Given the full
    labels ``survival_y`` (through scikit-learn's metadata routing), it
    trains on all of them instead, and ``y`` must agree with them.

    Parameters
    ----------
    estimator : estimator or Pipeline
        Maps windows to a surface with ``predict_proba`` (n_samples, K),
        for example ``make_pipeline(HEPAPretrainer(),
        HEPAEventPredictor(K=150))``. Fitted or not: ``fit`` trains a clone
        (wrap a fitted one in ``sklearn.frozen.FrozenEstimator`` to keep
        it), and a fitted one can be used without ``fit``.
    horizon : int
        Steps ahead, in ``1..K``.
    threshold : float in [0, 1], default=0.5
        ``predict`` flags the windows whose probability reaches it; tune it
        with ``sklearn.model_selection.TunedThresholdClassifierCV``.

    Attributes
    ----------
    estimator_ : estimator
        The fitted clone of ``estimator`` (or ``estimator`` itself when
        frozen).
    classes_ : ndarray of shape (2,)
        ``[False, True]``.
    n_features_in_ : int
        That of ``estimator_``.

    See Also
    --------
    hepa_sklearn.classifier.label_at_horizon : the binary label at a horizon from ``(event, time)``.
    hepa_sklearn.metrics.make_alarm_cost_scorer : a scorer for tuning the threshold by cost.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAEventPredictor, HorizonClassifier
    >>> from hepa_sklearn.classifier import label_at_horizon
    >>> from hepa_sklearn.surface import make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> E = rng.normal(size=(64, 4)).astype("float32")
    >>> y = make_survival_y(np.ones(64, bool), 1 + np.round(5 * (E[:, 0] + 3)))
    >>> labels, known = label_at_horizon(y, 15)
    >>> model = HEPAEventPredictor(K=20, hidden=16, max_epochs=2, random_state=0)
    >>> clf = HorizonClassifier(model, horizon=15).fit(E[known], labels[known])
    >>> clf.classes_.tolist(), clf.predict_proba(E[:3]).shape
    ([False, True], (3, 2))
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict_proba"])],
        "horizon": [POSITIVE_INT],
        "threshold": [Interval(Real, 0, 1, closed="both")],
    }

    def __init__(self, estimator, *, horizon, threshold=0.5):
        self.estimator = estimator
        self.horizon = horizon
        self.threshold = threshold

    def _check_horizon(self, width, what):
        if self.horizon > width:
            raise ValueError(
                f"horizon={self.horizon} lies outside the surface's horizons 1..{width} ({what}); "
                f"choose a horizon in 1..{width} or a surface estimator with K >= {self.horizon}."
            )

    def _surface_target(self, labels, final, frozen):
        """Interval labels of the binary ``labels`` for ``final`` to train on; TypeError/ValueError if it cannot."""
        if not frozen and not isinstance(final, TORCH_SURFACE_ESTIMATORS):
            raise TypeError(
                f"{type(final).__name__} cannot learn from binary labels alone (only the torch surface "
                "estimators read the partial label surface they give); pass the full (event, time) labels as "
                "survival_y through metadata routing."
            )
        if not frozen and getattr(final, "loss", "bce") == "nll":
            raise ValueError(
                "loss='nll' needs each event's step, which a binary label does not give; use loss='bce', or "
                "pass the full (event, time) labels as survival_y through metadata routing."
            )
        return make_interval_y(np.where(labels, 0.0, self.horizon), np.where(labels, self.horizon, np.inf))

    def _check_survival_y(self, survival_y, labels):
        """ValueError unless every window's label at ``horizon`` is known and equals ``labels``."""
        try:
            _, time = check_survival_y(survival_y)
        except (TypeError, ValueError) as error:  # its messages name the target y; here it is survival_y
            raise type(error)(re.sub(r"\by\b", "survival_y", str(error))) from None
        if time.shape[0] != labels.shape[0]:
            raise ValueError(
                f"survival_y has {time.shape[0]} windows but y has {labels.shape[0]}; route the full "
                "labels of the same windows as y (params={'survival_y': ...} with their X and y)."
            )
        expected, known = label_at_horizon(survival_y, self.horizon)
        if not known.all():
            raise ValueError(
                f"survival_y has {int((~known).sum())} window(s) censored before horizon={self.horizon}, whose "
                f"binary label is unknown; drop them from X, y and survival_y with the mask that "
                f"label_at_horizon(survival_y, {self.horizon}) returns."
            )
        if np.any(expected != labels):
            raise ValueError(
                f"y disagrees with survival_y's label at horizon={self.horizon} on "
                f"{int((expected != labels).sum())} window(s); pass y = label_at_horizon(survival_y, "
                f"{self.horizon})[0] for the same windows."
            )

    def fit(self, X, y, *, survival_y=None):
        """Train the surface estimator on windows ``X`` and the binary labels ``y`` at ``horizon``.

        Parameters
        ----------
        X : array-like
            The surface estimator's input, for example windows (n_windows,
            n_channels, n_timepoints).
        y : array-like of shape (n_samples,)
            True (or 1) where the event comes within ``horizon`` steps,
            False (or 0) where it does not; see :func:`~hepa_sklearn.classifier.label_at_horizon`.
        survival_y : structured ndarray with fields ``event`` and ``time``, default=None
            The full labels of the same windows: the surface then learns
            from all of them. Routed by scikit-learn's metadata routing
            (``set_fit_request(survival_y=True)``), so ``cross_val_score(...,
            params={"survival_y": y_full})`` splits it with the folds.

        Returns
        -------
        self : object
        """
        self._validate_params()
        labels = _binary_labels(y, self.horizon)
        final, frozen = _final_step(self.estimator)
        if isinstance(getattr(final, "K", None), int):
            self._check_horizon(final.K, f"K={final.K} of {type(final).__name__}")
        if survival_y is None:
            target = self._surface_target(labels, final, frozen)
        else:
            self._check_survival_y(survival_y, labels)
            target = survival_y
        self.estimator_ = clone(self.estimator).fit(X, target)
        return self

    def __sklearn_is_fitted__(self):
        if hasattr(self, "estimator_"):
            return True
        try:
            check_is_fitted(self.estimator)
        except NotFittedError:
            return False
        return True

    def _surface_estimator(self):
        check_is_fitted(self)
        return getattr(self, "estimator_", self.estimator)

    @property
    def classes_(self):
        """``[False, True]``: no event within ``horizon`` steps, an event within them."""
        check_is_fitted(self)
        return np.array([False, True])

    @property
    def n_features_in_(self):
        """Number of features (or channels) the surface estimator was fitted with."""
        return self._surface_estimator().n_features_in_

    def decision_function(self, X):
        """The score of each window: ``P(event within horizon steps)``, shape (n_samples,)."""
        # a fitted estimator is used without fit: the parameters are checked where they are read, as
        # fit checks them (horizon=0 or -1 would index the surface from its end)
        self._validate_params()
        surface = np.asarray(self._surface_estimator().predict_proba(X), dtype=float)
        self._check_horizon(surface.shape[1], f"the surface has {surface.shape[1]} columns")
        return surface[:, self.horizon - 1]

    def predict_proba(self, X):
        """Class probabilities (n_samples, 2): ``[1 - p, p]`` with ``p`` the surface at ``horizon``."""
        p = self.decision_function(X)
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        """True where the probability reaches ``threshold``."""
        return self.decision_function(X) >= self.threshold

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.input_tags = inner.input_tags
        tags.non_deterministic = inner.non_deterministic
        tags.classifier_tags.multi_class = False
        tags.target_tags.required = True
        return tags
