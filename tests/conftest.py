"""Shared fixtures: tiny windows, tiny model settings and a small C-MAPSS subset."""

import numpy as np
import pytest
import torch

from hepa_sklearn.datasets import load_cmapss

# Tiny models gain nothing from intra-op threads, and on a busy two-core machine
# the spinning worker threads made one tiny fit take 3 s instead of 0.05 s.
torch.set_num_threads(1)

# Small enough that one fit takes well under a second on two CPU cores.
TINY_PRETRAINER = dict(d_model=16, n_heads=2, n_layers=1, K=16, max_epochs=1, batch_size=16, random_state=0)
TINY_EVENT_PREDICTOR = dict(K=10, hidden=16, max_epochs=2, batch_size=16, random_state=0)

N_WINDOWS, N_CHANNELS, N_TIMEPOINTS = 40, 3, 48
N_UNITS = 12


@pytest.fixture
def tiny_pretrainer_params():
    return dict(TINY_PRETRAINER)


@pytest.fixture
def tiny_event_params():
    return dict(TINY_EVENT_PREDICTOR)


@pytest.fixture
def windows():
    """(40, 3, 48) float32 windows; every fourth window has a left-padded history."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_WINDOWS, N_CHANNELS, N_TIMEPOINTS)).astype(np.float32)
    for i in range(0, N_WINDOWS, 4):
        X[i, :, : 5 + i] = np.nan
    return X


@pytest.fixture(scope="session")
def fd001_subset():
    """FD001 training windows (64 cycles, stride 8) of the first 12 units: about 130 windows."""
    data = load_cmapss("FD001", context_length=64, stride=8)
    keep = np.isin(data.groups, np.unique(data.groups)[:N_UNITS])
    return data.X[keep], data.y[keep], data.groups[keep]


@pytest.fixture(scope="session")
def tiny_models():
    """The tiny settings above for module-scoped fixtures, which cannot request the function-scoped ones."""
    return {"pretrainer": dict(TINY_PRETRAINER), "event": dict(TINY_EVENT_PREDICTOR)}


@pytest.fixture(scope="session")
def fixed_surface():
    """A class whose instances return a given surface from ``predict_proba``, with the survival methods."""
    from sklearn.base import BaseEstimator

    from hepa_sklearn.survival import SurvivalMixin

    class FixedSurface(SurvivalMixin, BaseEstimator):
        def __init__(self, surface=None):
            self.surface = surface

        def fit(self, X, y=None):
            return self

        def predict_proba(self, X):
            return np.asarray(self.surface, dtype=float)[np.asarray(X, dtype=int).ravel()]

    return FixedSurface


@pytest.fixture
def plt():
    """matplotlib.pyplot on the Agg backend (skips without matplotlib); closes every figure afterwards."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")
