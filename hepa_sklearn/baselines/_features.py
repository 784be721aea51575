"""Per-channel summary features of the end of each window: level and trend, ignoring missing steps."""

from numbers import Integral

import numpy as np

from .._stats import nan_mean_std
from .._validation import POSITIVE_INT, as_three_d, refuse_frame_as_windows, validate_params

__all__ = ["summary_features", "summary_feature_names"]

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
    L = span.shape[-1]

    # argmax finds the first observed step of the reversed span; with none
    # observed it points at the last step, which is NaN, as the result must be
    last_index = L - 1 - np.argmax(observed[..., ::-1], axis=-1)
    last = np.take_along_axis(span, last_index[..., None], axis=-1)[..., 0]
    short_mean = nan_mean_std(span[..., -SHORT_SPAN:], axis=-1)[0]
    mean = nan_mean_std(span, axis=-1)[0]

    step = np.where(observed, np.arange(L, dtype=np.float64), np.nan)
    step_mean = nan_mean_std(step, axis=-1)[0]
    dt = np.where(observed, step - step_mean[..., None], 0.0)
    dx = np.where(observed, span - mean[..., None], 0.0)
    sxx = (dt * dt).sum(axis=-1)
    sxy = (dt * dx).sum(axis=-1)
    # two observed steps have distinct indices, so sxx > 0 wherever count >= 2
    slope = np.divide(sxy, sxx, out=np.full(sxy.shape, np.nan), where=observed.sum(axis=-1) >= 2)
    return np.concatenate([last, short_mean, mean, slope], axis=1)


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
    if isinstance(channels, Integral) and not isinstance(channels, bool):
        if channels < 1:
            raise ValueError(f"channels must be a positive count or a sequence of names, got {channels}.")
        channels = [f"x{c}" for c in range(channels)]
    channels = [str(name) for name in channels]
    return np.asarray(
        [f"{kind}_{name}" for kind in ("last", "mean10", "mean", "slope") for name in channels],
        dtype=object,
    )
