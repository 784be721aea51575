"""The windows of the C-MAPSS rows on NASA's test engines (:mod:`hepa_bench.nasa.rows`) under one seed."""

import numpy as np

from hepa_sklearn.cmapss_protocol import CONTEXT_LENGTH, TRAIN_STRIDE, label_units, split_units, unit_windows
from hepa_sklearn.datasets import load_cmapss
from hepa_sklearn.preprocessing import RegimeNormalizer
from hepa_sklearn.surface import make_survival_y

__all__ = ["CONDITIONS", "MIN_HISTORY", "TEST_STRIDE", "NasaSplit"]

TEST_STRIDE = 1
MIN_HISTORY = 1
# operating conditions of each subset, as given with the data
CONDITIONS = {"FD001": 1, "FD002": 6, "FD003": 1, "FD004": 6}


class NasaSplit:
    """Windows of one subset under one seed: training engines 90/10, NASA's test engines as the test part.

    The attributes are those of :class:`hepa_sklearn.cmapss_protocol.SubsetSplit`
    that the harness reads (``X_pre``, ``X_train``/``y_train``/``g_train``,
    ``X_valid``/``y_valid``, ``X_test``/``y_test``, ``split``, ``nasa``,
    :meth:`train_mask`), with ``g_valid`` and ``g_test`` beside them. With
    ``regime`` the three setting channels are kept and a
    :class:`~hepa_sklearn.preprocessing.RegimeNormalizer` fitted on the
    pretraining windows normalises every part.
    """

    def __init__(self, subset, seed, *, regime):
        self.subset, self.seed, self.regime = subset, seed, regime
        train = load_cmapss(subset, stride=CONTEXT_LENGTH)
        test = load_cmapss(subset, split="test", stride=CONTEXT_LENGTH)
        self.columns = (*train.setting_names, *train.feature_names) if regime else tuple(train.feature_names)
        self.split = split_units(train.frame["unit"].unique(), seed, fractions=(0.9, 0.1, 0.0))
        self.split.test = np.unique(test.frame["unit"])

        def windows(frame, units, stride, min_history=MIN_HISTORY):
            return unit_windows(frame, units, stride=stride, min_history=min_history, feature_cols=self.columns)

        self.X_pre, _, _ = windows(train.frame, self.split.train, CONTEXT_LENGTH)
        self.X_train, self.y_train, self.g_train = windows(train.frame, self.split.train, TRAIN_STRIDE)
        self.X_valid, self.y_valid, self.g_valid = windows(train.frame, self.split.valid, TRAIN_STRIDE)
        self.X_test, censored, self.g_test = windows(test.frame, self.split.test, TEST_STRIDE)
        # each test window is censored at its engine's last cycle; the RUL file gives the cycles from there
        rul = dict(zip(np.unique(test.frame["unit"]), test.rul, strict=True))
        self.y_test = make_survival_y(
            np.ones(len(censored), dtype=bool), censored["time"] + np.array([rul[u] for u in self.g_test])
        )
        last, _, last_units = windows(test.frame, self.split.test, 10**6)
        self.nasa = (last, np.array([rul[u] for u in last_units], dtype=float))
        self.regime_normalizer = None
        if regime:
            self.regime_normalizer = RegimeNormalizer(
                setting_channels=[0, 1, 2], n_regimes=CONDITIONS[subset], random_state=seed
            ).fit(self.X_pre)
            for name in ("X_pre", "X_train", "X_valid", "X_test"):
                setattr(self, name, self.regime_normalizer.transform(getattr(self, name)))
            self.nasa = (self.regime_normalizer.transform(last), self.nasa[1])

    def train_mask(self, fraction):
        """Which training windows belong to the labelled units of ``fraction``."""
        return np.isin(self.g_train, label_units(self.split.train, fraction))
