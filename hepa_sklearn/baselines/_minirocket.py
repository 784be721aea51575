"""MiniRocket features of windows (aeon's transform), with each channel's level and observed share beside them."""

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._stats import RECENT_STEPS, nan_mean_std, window_level
from .._validation import Count, WindowTransformerTags, check_windows

__all__ = ["MiniRocketEncoder"]

# MiniRocket's kernels are 9 steps long, and its 84 base kernels are the ways of
# weighting 3 of the 9 taps 2 and the others -1 (Dempster et al., 2021, §3)
MIN_TIMEPOINTS = 9
BASE_KERNELS = 84
# the level HEPAPretrainer(norm="auto") passes beside its embedding: each channel's
# mean over the window and over its last 30 steps
LEVEL = {"spans": (None, RECENT_STEPS), "spread": False, "slope": False}
# windows filled and transformed per block, which bounds the index arrays of the fill
BLOCK = 512


# -- numeric core --------------------------------------------------------------------------


def fill_missing_steps(X, channel_fill):
    """Windows without NaN: each missing step takes its channel's last observed value, left padding the first.

    A step after the channel's first observation in the window is filled
    forward (the last value seen before it); the steps before it (left
    padding, or missing values at the window's start) take that first
    observed value; a channel with no observation in a window takes
    ``channel_fill``.

    Parameters
    ----------
    X : ndarray of shape (n_windows, n_channels, n_timepoints)
        NaN marks missing values and left padding.
    channel_fill : array-like of shape (n_channels,)
        The value of a channel never observed in a window.

    Returns
    -------
    filled : ndarray of shape (n_windows, n_channels, n_timepoints), float32

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[[np.nan, np.nan, 2.0, np.nan, 5.0], [np.nan] * 5]])
    >>> fill_missing_steps(X, channel_fill=[0.0, -1.0])[0].tolist()
    [[2.0, 2.0, 2.0, 2.0, 5.0], [-1.0, -1.0, -1.0, -1.0, -1.0]]
    """
    X = np.asarray(X, dtype=np.float32)
    observed = ~np.isnan(X)
    steps = np.arange(X.shape[-1], dtype=np.int32)
    last_seen = np.maximum.accumulate(np.where(observed, steps, -1), axis=-1)  # -1 before the first observation
    first_seen = np.argmax(observed, axis=-1)[..., None]
    filled = np.take_along_axis(X, np.where(last_seen >= 0, last_seen, first_seen), axis=-1)
    never = ~observed.any(axis=-1, keepdims=True)
    fill = np.asarray(channel_fill, dtype=np.float32)[None, :, None]
    return np.where(never, fill, filled)


def _left_padded(X, length):
    """``X`` with NaN steps put before each window up to ``length`` steps (no copy when it has them)."""
    short = length - X.shape[-1]
    return X if short <= 0 else np.pad(X, ((0, 0), (0, 0), (short, 0)), constant_values=np.nan)


def _minirocket_class():
    """aeon's MiniRocket; ImportError naming the extra that installs it."""
    try:
        from aeon.transformations.collection.convolution_based import MiniRocket
    except ImportError as exc:
        raise ImportError("MiniRocketEncoder needs aeon: pip install 'hepa-sklearn[minirocket]'") from exc
    return MiniRocket


# -- the estimator --------------------------------------------------------------------------


class MiniRocketEncoder(WindowTransformerTags, TransformerMixin, BaseEstimator):
    """Random convolutional features of windows (MiniRocket), standardised, for an event head.

    A random feature map that learns only statistics of the training
    windows: ``fit`` standardises each channel by its mean and standard
    deviation over the training windows, fills the missing steps (below),
    and fits aeon's MiniRocket (Dempster et al., 2021) to the result: its
    dilations from the window length, its channel combinations at random,
    its biases from quantiles of the convolutions of random training
    windows. ``transform`` returns, per window, the proportion of positive
    values of every kernel's convolution, then (``window_level``) each
    channel's mean over the window and over its last 30 steps, as
    :class:`~hepa_sklearn.HEPAPretrainer` passes beside its embedding under
    ``norm="auto"`` (MiniRocket's kernels sum to zero: away from the
    window's edges its features do not change with a channel's level), then (``observed_fraction``) each
    channel's share of observed steps; every column is standardised by its
    mean and standard deviation over the training windows (a column
    constant there is only centred). Made for
    ``make_pipeline(MiniRocketEncoder(), HEPAEventPredictor(K=...))``.

    MiniRocket takes no NaN. Per window and channel, a missing step takes
    the channel's last observed value before it, and the steps before its
    first observation (left padding, history shorter than the window) take
    that first observed value, so the padding adds no jump (a constant
    stretch convolves to zero); a channel with no observation in the window is
    its training mean (0 after the standardisation). How much of each
    channel was filled is what ``observed_fraction`` passes on. Windows
    shorter than MiniRocket's 9 steps are left-padded with NaN to 9 in
    ``fit``; in ``transform``, windows shorter than the fitted length are
    left-padded with NaN to it (the dilations were fitted to that length),
    and longer ones are read whole.

    Needs aeon (``pip install 'hepa-sklearn[minirocket]'``).

    Parameters
    ----------
    n_kernels : int, default=252
        MiniRocket's features, rounded down to a multiple of 84 as aeon
        does. The default, 3 × 84, is the multiple of 84 nearest the 256
        columns of HEPAPretrainer's embedding: the event head's cost grows
        with its input width (its predictor outputs a vector of that width
        at each horizon), so it costs here what it costs there.
        MiniRocket's own default, 10 000, is made for a linear classifier.
    max_dilations_per_kernel : int, default=32
        Most dilations of each base kernel (aeon's default).
    window_level : bool, default=True
        Append each channel's mean over the window and over its last 30
        steps (2 columns per channel; 0 after standardisation where the
        channel is not observed).
    observed_fraction : bool, default=True
        Append each channel's share of observed (non-NaN) steps in the
        window (1 column per channel).
    n_jobs : int, default=1
        Threads of aeon's transform; -1 uses every processor.
    random_state : int, RandomState instance or None, default=None
        Draws MiniRocket's channel combinations and the windows its biases
        come from; an int gives the same features on every run. NumPy's
        global generator, which aeon seeds, is restored after ``fit``.

    Attributes
    ----------
    minirocket_ : aeon.transformations.collection.convolution_based.MiniRocket
        The fitted transform.
    channel_loc_, channel_scale_ : ndarray of shape (n_channels,)
        Each channel's mean and standard deviation over the training
        windows (0 and 1 for a channel never observed, 1 for a constant one).
    feature_loc_, feature_scale_ : ndarray of shape (n_features_out,)
        Each output column's mean and standard deviation over the training
        windows (1 where it is constant).
    n_features_in_ : int
        Channels seen in ``fit``.
    n_timepoints_in_ : int
        Window length seen in ``fit``.

    See Also
    --------
    hepa_sklearn.HEPAPretrainer : The encoder whose untrained default this random feature map stands beside.
    hepa_sklearn.HEPAEventPredictor : The event head for these features.

    References
    ----------
    A. Dempster, D. F. Schmidt and G. I. Webb, "MiniRocket: A very fast
    (almost) deterministic transform for time series classification",
    KDD, 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn.baselines import MiniRocketEncoder
    >>> X = np.random.default_rng(0).normal(size=(20, 3, 64)).astype("float32")
    >>> X[:5, :, :40] = np.nan  # left padding: five windows with 24 steps of history
    >>> encoder = MiniRocketEncoder(random_state=0).fit(X)
    >>> encoder.transform(X).shape  # 252 kernel features, then 2 level and 1 observed column per channel
    (20, 261)
    """

    _parameter_constraints = {
        "n_kernels": [Count(BASE_KERNELS)],
        "max_dilations_per_kernel": [Count(1)],
        "window_level": ["boolean"],
        "observed_fraction": ["boolean"],
        "n_jobs": [Count(-1)],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        n_kernels=252,
        max_dilations_per_kernel=32,
        window_level=True,
        observed_fraction=True,
        n_jobs=1,
        random_state=None,
    ):
        self.n_kernels = n_kernels
        self.max_dilations_per_kernel = max_dilations_per_kernel
        self.window_level = window_level
        self.observed_fraction = observed_fraction
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y=None):
        """Fit MiniRocket and the standardisation of its features to the training windows.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            Windows; 2-D ``X`` is read as single-channel windows. NaN marks
            missing values and left padding.
        y : None
            Ignored.

        Returns
        -------
        self : object
            The fitted encoder.
        """
        self._validate_params()
        if self.n_jobs == 0:
            raise ValueError("n_jobs=0 runs nothing; pass a positive number of threads, or -1 for every processor.")
        X = check_windows(self, X, reset=True)
        minirocket_class = _minirocket_class()
        loc, scale, _ = nan_mean_std(X, axis=(0, 2))
        fitted = {
            "channel_loc_": np.nan_to_num(loc).astype(np.float32),
            "channel_scale_": np.where(scale > 0, scale, 1.0).astype(np.float32),
            "n_features_in_": X.shape[1],
            "n_timepoints_in_": X.shape[2],
        }
        seed = check_random_state(self.random_state).randint(np.iinfo(np.int32).max)
        minirocket = minirocket_class(
            n_kernels=self.n_kernels,
            max_dilations_per_kernel=self.max_dilations_per_kernel,
            n_jobs=self.n_jobs,
            random_state=seed,
        )
        kernel_input = self._kernel_input(
            X, fitted["channel_loc_"], fitted["channel_scale_"], max(X.shape[2], MIN_TIMEPOINTS)
        )
        global_state = np.random.get_state()
        try:  # aeon's fit seeds NumPy's global generator; the caller's stream is put back
            minirocket.fit(kernel_input)
        finally:
            np.random.set_state(global_state)
        for name, value in {**fitted, "minirocket_": minirocket}.items():
            setattr(self, name, value)
        loc, scale, _ = nan_mean_std(self._raw_features(X), axis=0)
        self.feature_loc_ = np.nan_to_num(loc).astype(np.float32)
        self.feature_scale_ = np.where(scale > 0, scale, 1.0).astype(np.float32)
        return self

    def transform(self, X):
        """Features of windows: MiniRocket's, then the level and observed share of each channel, standardised.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            NaN marks missing values and left padding. Windows shorter than
            the fitted length are left-padded with NaN to it; longer ones are
            read whole (the fitted kernels, dilations and biases convolve
            every step, and each feature is a share of the whole window).

        Returns
        -------
        E : ndarray of shape (n_windows, n_features_out), float32
            ``n_features_out`` is ``84 * (n_kernels // 84)``, plus ``2 *
            n_channels`` with ``window_level``, plus ``n_channels`` with
            ``observed_fraction``; see :meth:`get_feature_names_out`.
        """
        check_is_fitted(self, "minirocket_")
        X = check_windows(self, X, reset=False)
        standardised = (self._raw_features(X) - self.feature_loc_) / self.feature_scale_
        return np.nan_to_num(standardised).astype(np.float32)

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns.

        ``minirocket0``, ``minirocket1``, ... for the kernel features, then
        ``mean_x{c}`` and ``mean30_x{c}`` per channel ``c`` (``window_level``),
        then ``observed_x{c}`` (``observed_fraction``).

        Parameters
        ----------
        input_features : None
            Ignored; the channels are named ``x0``, ``x1``, ...

        Returns
        -------
        names : ndarray of shape (n_features_out,), dtype object
        """
        check_is_fitted(self, "minirocket_")
        channels = [f"x{c}" for c in range(self.n_features_in_)]
        per_channel = (["mean", f"mean{RECENT_STEPS}"] if self.window_level else []) + (
            ["observed"] if self.observed_fraction else []
        )
        n_kernel_features = self.feature_loc_.shape[0] - len(per_channel) * len(channels)
        names = [f"minirocket{i}" for i in range(n_kernel_features)]
        names += [f"{kind}_{channel}" for kind in per_channel for channel in channels]
        return np.asarray(names, dtype=object)

    def _kernel_input(self, X, loc, scale, length):
        """What MiniRocket reads: ``X`` left-padded to ``length`` steps, standardised per channel, NaN filled."""
        standardised = (_left_padded(X, length) - loc[None, :, None]) / scale[None, :, None]
        return fill_missing_steps(standardised, np.zeros(X.shape[1], dtype=np.float32))

    def _raw_features(self, X):
        """The output columns before their standardisation: (n_windows, n_features_out), NaN for an unseen level."""
        length = max(self.n_timepoints_in_, MIN_TIMEPOINTS)  # the length the dilations were fitted to
        kernel_features = []
        for start in range(0, X.shape[0], BLOCK):
            block = self._kernel_input(X[start : start + BLOCK], self.channel_loc_, self.channel_scale_, length)
            if block.shape[-1] == length:
                features = self.minirocket_.transform(block)
            else:
                # a longer window, read whole: aeon's transform refuses a length other than fit's, though its
                # numeric core (its _transform, the same kernels, dilations and biases) convolves any length
                features = self.minirocket_._transform(block)
            kernel_features.append(np.asarray(features, dtype=np.float32))
        columns = [np.concatenate(kernel_features)]
        if self.window_level:
            columns.append(window_level(X, **LEVEL))
        if self.observed_fraction:
            columns.append((~np.isnan(X)).mean(axis=-1))
        return np.hstack(columns)

    @property
    def _n_features_out(self):
        return self.feature_loc_.shape[0]
