"""What a pretraining fit reads from its windows before training.

Per-channel statistics, and whether the windows can be pretrained on.
"""

import warnings

import numpy as np

from .._stats import merge_moments, nan_mean_std
from .._validation import row_chunks
from ..windows import window_age

# global_statistics reads this many windows at a time in float64
STATISTICS_CHUNK = 1024
# the fitted attributes that windows give an encoder (window_attributes)
ENCODER_ATTRIBUTES = ("n_features_in_", "n_timepoints_in_", "channel_loc_", "channel_scale_")


def global_statistics(X):
    """Per-channel mean and standard deviation over the observed values of ``X`` (n, C, L).

    In float64 over chunks of windows, merged exactly: right for magnitudes
    whose squares overflow float32 (above about 1.8e19), with memory bounded
    by the chunk. A channel with zero spread, or none observed, gets scale 1
    (and location 0 when unobserved), so it is centred but not blown up.
    """
    moments = None
    for part in row_chunks(X, STATISTICS_CHUNK):
        chunk = nan_mean_std(part, axis=(0, 2))
        moments = chunk if moments is None else merge_moments(moments, chunk)
    mean, std, count = moments
    loc = np.where(count > 0, mean, 0.0)
    scale = np.where((count > 0) & np.isfinite(std) & (std > 0), std, 1.0)
    return loc.astype(np.float32), scale.astype(np.float32)


def normalisation_statistics(X, norm):
    """Per-channel location and scale of ``norm="global"`` learned from ``X``; 0 and 1 for the other modes."""
    if norm == "global":
        return global_statistics(X)
    return np.zeros(X.shape[1], dtype=np.float32), np.ones(X.shape[1], dtype=np.float32)


def window_attributes(X, norm):
    """The fitted attributes that windows ``X`` (n, C, L) give an encoder.

    Their shape and the statistics of ``norm``.
    """
    channel_loc, channel_scale = normalisation_statistics(X, norm)
    return {
        "n_features_in_": X.shape[1],
        "n_timepoints_in_": X.shape[2],
        "channel_loc_": channel_loc,
        "channel_scale_": channel_scale,
    }


def check_pretrainable(X, patch_size):
    """Raise when no window has a (cut, horizon) pair; warn when at least half of them have none.

    A cut is a patch boundary with at least one observed step before it and
    the target after it, so a window needs more than ``patch_size`` steps
    from its first observation to its end. The first windows of each unit of
    a run-to-failure fleet are that short as a matter of course, so a few of
    them are normal; when half the windows or more add nothing, the window
    length or ``patch_size`` likely does not suit the data.
    """
    span = window_age(X)
    unusable = int(np.sum(span <= patch_size))
    if unusable == X.shape[0]:
        raise ValueError(
            f"No window can be pretrained on: each needs more than patch_size={patch_size} steps "
            f"from its first observed value to its end, and the longest here has {int(span.max())}."
        )
    if 2 * unusable >= X.shape[0]:
        warnings.warn(
            f"{unusable} of {X.shape[0]} windows have at most patch_size={patch_size} steps from "
            "their first observed value to their end; they hold no (cut, horizon) pair and add "
            "nothing to pretraining.",
            UserWarning,
            stacklevel=4,
        )
