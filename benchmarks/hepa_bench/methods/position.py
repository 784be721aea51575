"""The position-only score: how far a benchmark row is solved by where a window sits, not by what it holds.

A window of a unit that started inside it is left-padded with NaN, so its
padding tells how long the unit has been observed. Where every faulty run
starts its fault at the same step (TEP), that alone gives the time to the
event. :class:`PositionOnlyPredictor` is the surface a model can learn
from the visible age alone and nothing else: per age bin, the share of
training windows whose event comes within each horizon. A row where it is
not significantly below the best method is solved by position (the report
marks it and counts it for nobody).
"""

import numpy as np
from sklearn.base import BaseEstimator

from hepa_sklearn.baselines import window_age
from hepa_sklearn.surface import label_surface

__all__ = ["AGE_BINS", "PositionOnlyPredictor"]

AGE_BINS = 64  # at most this many quantile bins of the visible age


class PositionOnlyPredictor(BaseEstimator):
    """Per bin of the visible age (:func:`~hepa_sklearn.baselines.window_age`), the training windows' event share per
    horizon.

    The bins are the age's quantiles over the training windows (at most
    :data:`AGE_BINS`, each distinct age its own bin where there are fewer);
    a bin's surface is the mean of the known label cells of its windows at
    each horizon (the share over all training windows where a bin has no
    known cell), made non-decreasing in the horizon by a running maximum.
    A window whose age lies outside the training range takes the nearest bin.
    """

    def __init__(self, K=150):
        self.K = K

    def fit(self, X, y):
        age = window_age(X)
        labels, known = label_surface(y, self.K)
        edges = np.unique(np.quantile(age, np.linspace(0, 1, AGE_BINS + 1)))
        self.edges_ = edges[1:-1]  # inner edges: np.digitize puts every age in 0..len(edges_)
        bins = np.digitize(age, self.edges_)
        overall = _share(labels, known)
        table = np.empty((self.edges_.size + 1, self.K))
        for b in range(table.shape[0]):
            rows = bins == b
            share = _share(labels[rows], known[rows])
            table[b] = np.where(np.isnan(share), overall, share)
        self.table_ = np.maximum.accumulate(np.nan_to_num(table, nan=0.0), axis=1)
        return self

    def predict_proba(self, X):
        return self.table_[np.digitize(window_age(X), self.edges_)]


def _share(labels, known):
    """Mean of the known cells per horizon; NaN at a horizon without one."""
    with np.errstate(invalid="ignore"):
        return (labels * known).sum(axis=0) / known.sum(axis=0)
