"""The boosting baseline's causes: a classifier of the cause among the events, whose probabilities split the any-event
surface.

With several causes, :class:`~hepa_sklearn.GradientBoostingEventPredictor`
keeps its any-event surface and adds a
:class:`~sklearn.ensemble.HistGradientBoostingClassifier` of the cause on
the same features, trained on the windows whose event falls within the K
horizons. Cause ``c``'s incidence is ``P(k) π_c``: the classifier's
probability of ``c`` times the any-event surface, non-decreasing in ``k``
and summing to ``P(k)``. This assumes that the mix of causes does not
depend on the horizon: a window whose next failure is near and one whose
failure is far get the same split at every ``k``.

The windows of one unit share their cause, so a classifier of windows
learns the training units by heart: on the simulated fleet of three modes
(60 training units, seeds 0 and 1) its held-out log loss was 2.1 to 3.3
against 1.04 to 1.17 for the training mix of causes alone. Its
probabilities are therefore shrunk towards that mix,
``π = (1 - α) π̂ + α π_train``, with ``α`` of :data:`SHRINKAGE` chosen by
the out-of-fold log loss on the regressor's folds (whole units when
``groups`` is given).
"""

import numpy as np
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import log_loss

from ..causes import fitted_causes
from ..surface import check_survival_y

__all__ = ["SHRINKAGE", "ShrunkCauseClassifier", "fit_cause_classifier"]

SHRINKAGE = (0.0, 0.25, 0.5, 0.75, 0.9, 1.0)  # the weights of the training mix tried, 1: the mix alone


class ShrunkCauseClassifier:
    """A fitted classifier of the cause whose probabilities are shrunk towards a fixed mix of causes.

    ``shares(features)`` is ``(1 - shrinkage) π̂ + shrinkage * prior``, shape
    (n_samples, n_causes), 0 for a cause the classifier never saw.

    >>> clf = DummyClassifier(strategy="prior").fit(np.zeros((4, 1)), [1, 1, 3, 3])
    >>> ShrunkCauseClassifier(clf, np.array([0.25, 0.5, 0.25]), 0.5).shares(np.zeros((1, 1))).tolist()
    [[0.375, 0.25, 0.375]]
    """

    def __init__(self, classifier, prior, shrinkage):
        self.classifier = classifier
        self.prior = prior
        self.shrinkage = shrinkage

    def shares(self, features):
        own = np.zeros((features.shape[0], self.prior.shape[0]))
        own[:, np.asarray(self.classifier.classes_, dtype=int) - 1] = self.classifier.predict_proba(features)
        return (1 - self.shrinkage) * own + self.shrinkage * self.prior[None, :]


def _classifier(X, target, params, boosting):
    """HistGradientBoostingClassifier of ``target`` with ``params``; constant when ``target`` holds one cause."""
    if np.unique(target).size < 2:
        return DummyClassifier(strategy="prior").fit(X, target)
    return HistGradientBoostingClassifier(
        **params, l2_regularization=boosting.l2_regularization, early_stopping=False, random_state=boosting.random_state
    ).fit(X, target)


def fit_cause_classifier(boosting, y, features, keep, leaf_size, folds):
    """``(n_causes, ShrunkCauseClassifier or None)``: the fitted boosting baseline's classifier of the cause.

    ``features`` are those of the training windows ``keep`` selects and
    ``folds`` the (train, test) index pairs over them; the classifier is
    trained on the windows whose event falls within the ``K`` horizons,
    with the regressor's chosen parameters (``min_samples_leaf`` of
    ``"auto"`` resolved by ``leaf_size(n_events)``), and its shrinkage is
    the one of :data:`SHRINKAGE` with the least out-of-fold log loss (1
    without folds). None with one cause.
    """
    cause, n_causes = fitted_causes(y, boosting.K, type(boosting).__name__, boosting.n_causes)
    if n_causes == 1:
        return 1, None
    event, time = check_survival_y(y)
    events = (event & (time <= boosting.K))[keep]
    X, target = features[events], cause[keep][events]
    prior = np.bincount(target - 1, minlength=n_causes) / target.size
    params = dict(boosting.best_params_)
    if boosting.min_samples_leaf == "auto":
        params["min_samples_leaf"] = leaf_size(target.shape[0])
    position = np.cumsum(events) - 1  # each kept window's row among the events
    predicted, scored = np.zeros((target.shape[0], n_causes)), np.zeros(target.shape[0], bool)
    for train, test in folds:
        train, test = position[train[events[train]]], position[test[events[test]]]
        if train.size and test.size:
            fold = ShrunkCauseClassifier(_classifier(X[train], target[train], params, boosting), prior, 0.0)
            predicted[test], scored[test] = fold.shares(X[test]), True
    losses = [
        log_loss(
            target[scored],
            np.clip((1 - a) * predicted[scored] + a * prior, 1e-12, 1),
            labels=np.arange(1, n_causes + 1),
        )
        if scored.any()
        else 0.0
        for a in SHRINKAGE
    ]
    shrinkage = SHRINKAGE[int(np.argmin(losses))] if scored.any() else 1.0
    return n_causes, ShrunkCauseClassifier(_classifier(X, target, params, boosting), prior, shrinkage)
