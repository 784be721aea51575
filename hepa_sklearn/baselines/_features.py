"""Per-channel summary features of each window: level, trend, spread and extremes at several scales, ignoring missing
steps."""

from numbers import Integral

import numpy as np

from .._stats import nan_mean_std
from .._stats import observed_slope as _slope
from .._validation import POSITIVE_INT, as_three_d, refuse_frame_as_windows, row_chunks, validate_params
from ..windows import window_age

__all__ = ["multiscale_feature_names", "multiscale_features", "summary_features", "summary_feature_names"]

# Span of the short-term level, next to the n_last-step level: a fixed choice
# of this baseline, not tuned.
SHORT_SPAN = 10


@validate_params({"n_last": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def summary_features(X, *, n_last=30):
    """Per-channel level and trend of the end of each window, ignoring missing steps.

    Over the last ``n_last`` steps of each window (all steps if the window is
    shorter), for every channel:

    - ``last``: the last observed value;
    - ``mean10``: the mean of the observed values among the last
      ``min(10, n_last)`` steps;
    - ``mean``: the mean of the observed values among the last ``n_last`` steps;
    - ``slope``: the least-squares slope of the observed values against the
      step index, in units per step.

    NaN steps (missing values, left padding) are left out. A feature is NaN
    when its span holds no observation of the channel, and the slope also
    when it holds only one.

    Parameters
    ----------
    X : array-like of shape (n_windows, n_channels, n_timepoints)
        Windows, channels first; 2-D input is read as one channel.
    n_last : int, default=30
        Number of final steps the features summarise.

    Returns
    -------
    features : ndarray of shape (n_windows, 4 * n_channels), float64
        Grouped by kind: the ``last`` of every channel, then ``mean10``, then
        ``mean``, then ``slope``, channels in input order within each group
        (see :func:`summary_feature_names`).

    See Also
    --------
    summary_feature_names : The column names, in this order.
    GradientBoostingEventPredictor : A gradient-boosting baseline on these features.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[[np.nan, 1.0, 2.0, 4.0]]])  # one window, one channel, left-padded
    >>> summary_features(X, n_last=4)
    array([[4.        , 2.33333333, 2.33333333, 1.5       ]])
    """
    refuse_frame_as_windows(X)
    X = as_three_d(np.asarray(X))
    span = X[:, :, -n_last:].astype(np.float64)  # (n, C, L), L = min(n_last, n_timepoints)
    observed = ~np.isnan(span)
    last = _last_observed(span, observed)
    short_mean = nan_mean_std(span[..., -SHORT_SPAN:], axis=-1)[0]
    mean = nan_mean_std(span, axis=-1)[0]
    return np.concatenate([last, short_mean, mean, _slope(span, observed, mean)], axis=1)


def _last_observed(span, observed):
    """The last observed value of each (window, channel) of ``span`` (n, C, L); NaN where none is observed."""
    # argmax finds the first observed step of the reversed span; with none
    # observed it points at the last step, which is NaN, as the result must be
    last_index = span.shape[-1] - 1 - np.argmax(observed[..., ::-1], axis=-1)
    return np.take_along_axis(span, last_index[..., None], axis=-1)[..., 0]


def summary_feature_names(channels):
    """Names of the columns of :func:`summary_features`, in its order.

    Each name is ``{kind}_{channel}`` with kind ``last``, ``mean10``,
    ``mean`` or ``slope`` as described in :func:`summary_features`.

    Parameters
    ----------
    channels : int or sequence of str
        The number of channels (named ``x0``, ``x1``, ...) or their names.

    Returns
    -------
    names : ndarray of shape (4 * n_channels,), dtype object

    Examples
    --------
    >>> summary_feature_names(2).tolist()
    ['last_x0', 'last_x1', 'mean10_x0', 'mean10_x1', 'mean_x0', 'mean_x1', 'slope_x0', 'slope_x1']
    """
    channels = _channel_names(channels)
    return np.asarray(
        [f"{kind}_{name}" for kind in ("last", "mean10", "mean", "slope") for name in channels], dtype=object
    )


# The spans of multiscale_features besides the whole window, in steps from its end.
SPANS = (10, 30, 100)
SPAN_KINDS = ("mean", "slope", "std", "min", "max")


def multiscale_features(X):
    """Per-channel level, trend, spread and extremes of each window at several scales, its missingness and its age.

    For every channel: the last observed value; over the last 10, 30 and
    100 steps and over the whole window, the mean, least-squares slope (units
    per step), standard deviation, minimum and maximum of the observed
    values; and the share of the window's visible steps (from the unit's
    first observed step on) at which the channel is missing. Then one
    column for the window: its visible age (:func:`~hepa_sklearn.windows.window_age`,
    the steps from its first observed value to its end). A span longer than
    the window is the whole window. NaN steps (missing values, left padding)
    are left out; a feature is NaN when its span holds no observation of the
    channel (the slope and spread also when it holds only one).

    Parameters
    ----------
    X : array-like of shape (n_windows, n_channels, n_timepoints)
        Windows, channels first; 2-D input is read as one channel.

    Returns
    -------
    features : ndarray of shape (n_windows, 22 * n_channels + 1), float64
        In the order of :func:`multiscale_feature_names`: ``last`` of every
        channel; then for each span (10, 30, 100, all) the mean, slope, std,
        min and max of every channel; then ``missing`` of every channel;
        then ``age``.

    See Also
    --------
    summary_features : Four features of the last steps only.
    GradientBoostingEventPredictor : Boosting on these features (its default).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[[np.nan, 1.0, np.nan, 3.0]]])  # one channel, one padded step, one missing step
    >>> features = multiscale_features(X)
    >>> features.shape
    (1, 23)
    >>> names = multiscale_feature_names(1).tolist()
    >>> {name: float(features[0, names.index(name)]) for name in ("last_x0", "slope_all_x0", "missing_x0", "age")}
    {'last_x0': 3.0, 'slope_all_x0': 1.0, 'missing_x0': 0.3333333333333333, 'age': 3.0}
    """
    refuse_frame_as_windows(X)
    X = as_three_d(np.asarray(X))
    return np.concatenate([_multiscale_rows(part) for part in row_chunks(X, 256)], axis=0)


def _multiscale_rows(X):
    window = X.astype(np.float64)
    observed = ~np.isnan(window)
    columns = [_last_observed(window, observed)]
    for length in (*SPANS, None):
        span, seen = (window, observed) if length is None else (window[..., -length:], observed[..., -length:])
        mean, std, count = nan_mean_std(span, axis=-1)
        std = np.where(count >= 2, std, np.nan)
        any_seen = count > 0
        low = np.where(any_seen, np.where(seen, span, np.inf).min(axis=-1), np.nan)
        high = np.where(any_seen, np.where(seen, span, -np.inf).max(axis=-1), np.nan)
        columns += [mean, _slope(span, seen, mean), std, low, high]
    age = window_age(X)
    columns.append((age[:, None] - observed.sum(axis=-1)) / np.maximum(age, 1.0)[:, None])
    return np.concatenate(columns + [age[:, None]], axis=1)


def multiscale_feature_names(channels):
    """Names of the columns of :func:`multiscale_features`, in its order.

    ``last_{channel}``; ``{kind}_{span}_{channel}`` with kind ``mean``,
    ``slope``, ``std``, ``min`` or ``max`` and span ``10``, ``30``, ``100`` or
    ``all``; ``missing_{channel}``; ``age``.

    Parameters
    ----------
    channels : int or sequence of str
        The number of channels (named ``x0``, ``x1``, ...) or their names.

    Returns
    -------
    names : ndarray of shape (22 * n_channels + 1,), dtype object

    Examples
    --------
    >>> names = multiscale_feature_names(["T24", "P30"])
    >>> names[:4].tolist(), names[-3:].tolist()
    (['last_T24', 'last_P30', 'mean_10_T24', 'mean_10_P30'], ['missing_T24', 'missing_P30', 'age'])
    """
    channels = _channel_names(channels)
    names = [f"last_{c}" for c in channels]
    for span in (*SPANS, "all"):
        names += [f"{kind}_{span}_{c}" for kind in SPAN_KINDS for c in channels]
    names += [f"missing_{c}" for c in channels] + ["age"]
    return np.asarray(names, dtype=object)


def _channel_names(channels):
    if isinstance(channels, Integral) and not isinstance(channels, bool):
        if channels < 1:
            raise ValueError(f"channels must be a positive count or a sequence of names, got {channels}.")
        return [f"x{c}" for c in range(channels)]
    return [str(name) for name in channels]
