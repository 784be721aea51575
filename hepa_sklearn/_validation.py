"""Input and hyperparameter checks shared by the estimators, with messages that name the problem."""

import contextlib
from numbers import Integral, Real

import numpy as np
import scipy.sparse
import torch


def integer(low):
    return (lambda v: isinstance(v, Integral) and not isinstance(v, bool) and v >= low), f"an integer >= {low}"


def real(low, high=None, *, low_open=False, high_open=False):
    def check(v):
        if not isinstance(v, Real) or isinstance(v, bool) or not np.isfinite(v):
            return False
        above = v > low if low_open else v >= low
        below = True if high is None else (v < high if high_open else v <= high)
        return above and below

    left = "(" if low_open else "["
    right = "inf)" if high is None else (f"{high})" if high_open else f"{high}]")
    return check, f"a real number in {left}{low}, {right}"


def one_of(*values):
    return (lambda v: isinstance(v, str) and v in values), f"one of {list(values)}"


def boolean():
    return (lambda v: isinstance(v, (bool, np.bool_))), "a bool"


def as_three_d(X):
    """Windows as (n_windows, n_channels, n_timepoints): 2-D input is one channel; other ranks raise."""
    if X.ndim == 2:
        X = X[:, None, :]
    if X.ndim != 3:
        raise ValueError(
            f"X must be 3-D (n_windows, n_channels, n_timepoints) or 2-D (n_windows, n_timepoints), "
            f"got {X.ndim}-D with shape {X.shape}."
        )
    return X


def check_params(estimator, rules):
    """Raise ValueError naming the first hyperparameter that breaks its rule."""
    for name, (predicate, description) in rules.items():
        value = getattr(estimator, name)
        if not predicate(value):
            raise ValueError(
                f"{type(estimator).__name__}: parameter {name} must be {description}, got {value!r}."
            )


def _as_float32(X, name, inf_hint):
    if isinstance(X, torch.Tensor):
        X = X.detach().cpu().numpy()
    if scipy.sparse.issparse(X):
        raise TypeError(f"{name} is a sparse matrix; sparse input is not supported, pass a dense array.")
    try:
        array = np.asarray(X)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array: {exc}") from exc
    if array.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {array.dtype}.")
    if array.dtype.kind not in "biuf":
        try:
            array = array.astype(np.float32)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"{name} must hold numbers, got dtype {array.dtype} that cannot be cast to float."
            ) from exc
    array = array.astype(np.float32, copy=False)
    if any(np.isinf(part).any() for part in row_chunks(array)):
        raise ValueError(f"{name} contains infinite values; {inf_hint}.")
    return np.ascontiguousarray(array)


# Checks over large inputs read this many rows at a time, so their temporary
# boolean arrays stay small (measured: a whole-array isinf over 200,000 C-MAPSS
# windows held 1.4 GB)
CHECK_CHUNK = 4096


def row_chunks(array, size=CHECK_CHUNK):
    """Views of ``array`` in blocks of ``size`` rows."""
    return (array[start : start + size] for start in range(0, max(array.shape[0], 1), size))


def check_windows(estimator, X, *, reset):
    """Validate windows: (n, C, L) float32, or (n, L) read as one channel; NaN allowed, inf not.

    Without ``reset`` the channel count must match ``n_features_in_`` of the
    fitted estimator; ``fit`` stores the shape itself once every check passed,
    so a failed ``fit`` never leaves a half-updated estimator.
    """
    X = as_three_d(_as_float32(X, "X", "mark missing values with NaN instead"))
    n, C, L = X.shape
    if n == 0 or C == 0 or L == 0:
        raise ValueError(f"X is empty: shape {X.shape}; at least one window, channel and step are needed.")
    empty = np.concatenate([np.isnan(part).all(axis=(1, 2)) for part in row_chunks(X)])
    if empty.any():
        raise ValueError(
            f"X has {int(empty.sum())} window(s) with no observed value at all (first at index "
            f"{int(np.argmax(empty))}); every window needs at least one non-NaN value."
        )
    if not reset and C != estimator.n_features_in_:
        raise ValueError(
            f"X has {C} channels, but {type(estimator).__name__} was fitted with "
            f"{estimator.n_features_in_} channels."
        )
    return X


def check_embeddings(estimator, E, *, reset):
    """Validate embeddings (n, d): finite float32; d must match ``n_features_in_`` when not ``reset``."""
    E = _as_float32(E, "E", "embeddings must be finite")
    if E.ndim != 2:
        raise ValueError(f"E must be 2-D (n_samples, n_features), got shape {E.shape}.")
    if E.shape[0] == 0 or E.shape[1] == 0:
        raise ValueError(f"E is empty: shape {E.shape}.")
    if any(np.isnan(part).any() for part in row_chunks(E)):
        raise ValueError("E contains NaN values; embeddings must be finite.")
    if not reset and E.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"E has {E.shape[1]} features, but {type(estimator).__name__} was fitted with "
            f"{estimator.n_features_in_} features."
        )
    return E


@contextlib.contextmanager
def seeded_torch(seed, device):
    """Seed torch inside the block without changing the caller's global generator state."""
    devices = [torch.device(device).index or 0] if str(device).startswith("cuda") else []
    with torch.random.fork_rng(devices=devices):
        torch.manual_seed(seed)
        yield
