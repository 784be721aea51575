"""A discrete-time hazard model by gradient boosting: the censored-likelihood candidate for the boosting baseline's
targets.

The boosting baseline of the library regresses a log time and reads a
log-normal surface around it; it leaves out the windows censored inside
the horizon. This candidate uses them: the horizon ``1..K`` is cut into
intervals, each window gives one row per interval it is known to reach,
labelled 1 when its event falls in that interval, and a
:class:`~sklearn.ensemble.HistGradientBoostingClassifier` learns the
interval hazard from the window's multiscale features and the interval.
A window censored inside an interval gives no row for it (its status
there is unknown), but counts as a survivor of every interval before.
The surface is ``1 - prod(1 - h)``, with each interval's hazard spread
evenly over its steps, so it is non-decreasing in the horizon.

It lives in the harness: the choice between it and the library's capped
log-time targets is made on validation units (``gbm-hazard`` against
``gbm``), and only a winner would move into the library.
"""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.ensemble import HistGradientBoostingClassifier

from hepa_sklearn.baselines import multiscale_features, summary_features

__all__ = ["DiscreteHazardBoosting", "interval_edges"]

N_INTERVALS = 12  # geometric cuts of 1..K: fine where events are dense (near k = 1), coarse far out


def interval_edges(K, n_intervals=N_INTERVALS):
    """Right edges of the hazard intervals: distinct integers, geometric from 1 to ``K``, the last one ``K``.

    >>> interval_edges(10, 4).tolist()
    [1, 2, 5, 10]
    """
    return np.unique(np.round(np.geomspace(1, K, n_intervals)).astype(int))


class DiscreteHazardBoosting(BaseEstimator):
    """Interval hazards of the next event by gradient boosting on multiscale features.

    Parameters
    ----------
    K : int, default=150
    features : {"multiscale", "last"}, default="multiscale"
    max_iter, learning_rate, max_leaf_nodes, min_samples_leaf, l2_regularization
        Passed to :class:`~sklearn.ensemble.HistGradientBoostingClassifier`;
        ``min_samples_leaf="auto"`` is ``max(1, min(20, n // 20))`` for the
        ``n`` windows, as in the library's boosting baseline.
    search : ignored
        Accepted so that the harness's candidate grid can be passed as for
        the log-time baseline.
    random_state : int or None, default=None
    """

    def __init__(
        self,
        *,
        K=150,
        features="multiscale",
        max_iter=200,
        learning_rate=0.1,
        max_leaf_nodes=31,
        min_samples_leaf="auto",
        l2_regularization=0.0,
        search=None,
        random_state=None,
    ):
        self.K = K
        self.features = features
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.search = search
        self.random_state = random_state

    def _features(self, X):
        return summary_features(X, n_last=30) if self.features == "last" else multiscale_features(X)

    def _rows(self, features, n_intervals):
        """Every window's features once per interval, with the interval's index as the last column."""
        n = features.shape[0]
        index = np.repeat(np.arange(n_intervals, dtype=float), n)
        return np.column_stack([np.tile(features, (n_intervals, 1)), index])

    def fit(self, X, y, groups=None):
        event, time = np.asarray(y["event"], bool), np.asarray(y["time"], float)
        features = self._features(X)
        features[:, np.isnan(features).all(axis=0)] = 0.0
        right = interval_edges(self.K)
        left = np.concatenate([[0], right[:-1]])
        rows = self._rows(features, len(right))
        t = np.tile(time, len(right))
        e = np.tile(event, len(right))
        lo, hi = np.repeat(left, len(time)), np.repeat(right, len(time))
        # an event reaches the interval when it comes after its left edge; a censored window
        # tells the interval's outcome only when it is observed through the right edge
        use = np.where(e, t > lo, t >= hi)
        label = e & (t <= hi)
        if not label[use].any():
            raise ValueError("no event falls within the K horizons of the usable windows.")
        leaf = self.min_samples_leaf
        if leaf == "auto":
            leaf = max(1, min(20, X.shape[0] // 20))
        self.classifier_ = HistGradientBoostingClassifier(
            max_iter=self.max_iter,
            learning_rate=self.learning_rate,
            max_leaf_nodes=self.max_leaf_nodes,
            min_samples_leaf=leaf,
            l2_regularization=self.l2_regularization,
            early_stopping=False,
            random_state=self.random_state,
        ).fit(rows[use], label[use])
        self.best_params_ = {
            "max_iter": self.max_iter,
            "learning_rate": self.learning_rate,
            "max_leaf_nodes": self.max_leaf_nodes,
            "min_samples_leaf": leaf,
        }
        self.edges_ = right
        self.horizons_ = np.arange(1, self.K + 1)
        return self

    def predict_proba(self, X):
        features = self._features(X)
        n, edges = features.shape[0], self.edges_
        hazard = self.classifier_.predict_proba(self._rows(features, len(edges)))[:, 1].reshape(len(edges), n).T
        lengths = np.diff(np.concatenate([[0], edges]))
        # per-step log survival inside each interval, the interval's hazard spread evenly over its steps
        step_log_survival = np.log1p(-np.clip(hazard, 0.0, 1.0 - 1e-12)) / lengths
        per_step = np.repeat(step_log_survival, lengths, axis=1)  # (n, K)
        return -np.expm1(np.cumsum(per_step, axis=1))
