"""NaN-aware mean and standard deviation: the one implementation the normalisers and features share."""

from collections.abc import Iterable
from numbers import Integral

import numpy as np

__all__ = ["nan_mean_std", "merge_moments"]


def nan_mean_std(values, axis):
    """Mean, standard deviation and count of the non-NaN entries of ``values`` along ``axis``.

    Two passes in float64 (the spread is summed around the mean), which
    stays accurate when the mean is large against the spread, as for
    C-MAPSS sensors. Where no entry is observed, mean and std are NaN and
    the count is 0.

    Parameters
    ----------
    values : array-like
        NaN marks a missing entry.
    axis : int or tuple of int
        The axes reduced.

    Returns
    -------
    mean, std, count : ndarrays of float64 with the reduced shape

    Examples
    --------
    >>> import numpy as np
    >>> mean, std, count = nan_mean_std([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]], axis=1)
    >>> mean.tolist(), std.tolist(), count.tolist()
    ([2.0, nan], [1.0, nan], [2.0, 0.0])
    """
    values = np.asarray(values, dtype=np.float64)
    count = np.sum(~np.isnan(values), axis=axis).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nansum(values, axis=axis) / count
        squares = np.nansum(np.square(values - np.expand_dims(mean, axis)), axis=axis)
        std = np.sqrt(squares / count)
    return mean, std, count


def merge_moments(first, second):
    """Mean, std and count of the union of two samples from each one's ``(mean, std, count)``.

    The pairwise update of Chan, Golub and LeVeque (1979), so that
    statistics over data read in chunks need no second pass over the data.
    Entries with a count of 0 on one side take the other side's values.
    """
    (mean_a, std_a, n_a), (mean_b, std_b, n_b) = first, second
    n = n_a + n_b
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = np.nan_to_num(mean_b) - np.nan_to_num(mean_a)
        mean = np.nan_to_num(mean_a) + delta * n_b / n
        squares = np.nan_to_num(std_a**2 * n_a) + np.nan_to_num(std_b**2 * n_b) + delta**2 * n_a * n_b / n
        std = np.sqrt(squares / n)
    return np.where(n > 0, mean, np.nan), np.where(n > 0, std, np.nan), n


def effective_rank(values):
    """exp(entropy) of the normalised singular values of the centred rows of ``values`` (n, d).

    1 when every row lies on one line (collapse), up to ``min(n, d)`` when
    the spread is even over all directions (Roy & Vetterli 2007).
    """
    values = np.asarray(values, dtype=np.float64)
    singular = np.linalg.svd(values - values.mean(axis=0), compute_uv=False)
    if singular.sum() == 0:
        return 1.0
    p = singular / singular.sum()
    p = p[p > 0]
    return float(np.exp(-(p * np.log(p)).sum()))


# the window level's recent span, in steps (window_level and the exported graph)
RECENT_STEPS = 30
# windows window_level reads at a time: float64 working copies of about 4 MB for 24 channels of 300 steps,
# below the sizes a preceding large allocation makes glibc take from the heap, which it then keeps
LEVEL_CHUNK = 64


def observed_slope(span, observed, mean):
    """Least-squares slope of the observed values of ``span`` (..., L) against the step index; NaN below two.

    ``observed`` marks the non-NaN steps and ``mean`` (...,) is their mean.
    """
    L = span.shape[-1]
    step = np.where(observed, np.arange(L, dtype=np.float64), np.nan)
    step_mean = nan_mean_std(step, axis=-1)[0]
    dt = np.where(observed, step - step_mean[..., None], 0.0)
    dx = np.where(observed, span - mean[..., None], 0.0)
    sxx = (dt * dt).sum(axis=-1)
    sxy = (dt * dx).sum(axis=-1)
    # two observed steps have distinct indices, so sxx > 0 wherever count >= 2
    return np.divide(sxy, sxx, out=np.full(sxy.shape, np.nan), where=observed.sum(axis=-1) >= 2)


def window_level(X, spans=(None, RECENT_STEPS), spread=True, slope=False, chunk=LEVEL_CHUNK):
    """Per channel and span: the mean (standard deviation, slope) of the observed values.

    ``X`` (n, C, L) with NaN for missing values and padding. ``spans`` are
    the window's last steps in turn (None: the whole window; a span longer
    than the window is the whole window). Returns (n, k C) float64 columns,
    for each span the block ``mean`` then ``std`` (with ``spread``) then
    the least-squares ``slope`` per step (with ``slope``), each over the C
    channels; NaN where a channel has no observed value in the span (the
    slope also where it has one).

    Each window's columns depend on that window alone, so ``chunk`` windows
    are read at a time: the float64 working copies then take a few MB
    instead of several times ``X``.

    A span that is not None must be a whole number of steps, at least 1
    (TypeError or ValueError naming ``spans`` otherwise): ``X[..., -0:]``
    would be the whole window and a negative span all but its first steps.
    """
    spans = _checked_spans(spans)
    X = np.asarray(X)
    return np.concatenate(
        [_window_level(X[start : start + chunk], spans, spread, slope) for start in range(0, len(X), chunk)]
        or [_window_level(X, spans, spread, slope)]
    )


def _checked_spans(spans):
    """``spans`` as a tuple of None and whole numbers >= 1; TypeError/ValueError naming it otherwise."""
    if isinstance(spans, (str, bytes)) or not isinstance(spans, Iterable):
        raise TypeError(
            "spans must be a sequence of spans (None: the whole window, or a number of last steps), "
            f"got {spans!r}; pass spans=({spans!r},) for one span."
        )
    spans = tuple(spans)
    if not spans:
        raise ValueError("spans is empty: give at least one span (None for the whole window).")
    for span in spans:
        if span is None:
            continue
        if not isinstance(span, Integral) or isinstance(span, (bool, np.bool_)):
            raise TypeError(
                f"spans must hold None or whole numbers of steps >= 1, got {span!r} in {spans!r}; "
                "round the span to a whole number of steps."
            )
        if span < 1:
            raise ValueError(
                f"spans must hold None or whole numbers of steps >= 1, got {span!r} in {spans!r}: "
                "a span counts a window's last steps; use None for the whole window."
            )
    return spans


def _window_level(X, spans, spread, slope):
    X = np.asarray(X, dtype=np.float64)
    columns = []
    for length in spans:
        span = X if length is None else X[..., -length:]
        mean, std, _ = nan_mean_std(span, axis=-1)
        columns += [mean] + ([std] if spread else []) + ([observed_slope(span, ~np.isnan(span), mean)] if slope else [])
    return np.concatenate(columns, axis=1)
