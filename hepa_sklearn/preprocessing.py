"""Operating-condition-aware normalisation of windows: per-regime statistics of each channel.

Also the NaN-aware statistics of windows that the normalisers and features
share: :func:`nan_mean_std`, and :func:`window_level`, each channel's level
over the window's last steps (what ``HEPAPretrainer(window_level=True)``
appends to the embedding, through its ``level_features``).
"""

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.cluster import KMeans
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._docs import fill_doc
from ._stats import nan_mean_std, window_level
from ._validation import POSITIVE_INT, StrOptions, WindowTransformerTags, check_windows

__all__ = ["RegimeNormalizer", "RegimeWarning", "nan_mean_std", "normalise_steps", "window_level", "window_regimes"]

# transform() works on this many windows at a time; each chunk holds
# (chunk, n_regimes, n_settings, T) float64 differences to the centres,
# 19 MB at 256 windows, 6 regimes, 3 settings and 512 steps
CHUNK = 256

# A spread below this counts as a constant channel: it gets scale 1, so it is
# centred but not blown up. In C-MAPSS FD002 (all 21 sensors) s1, s5, s18 and
# s19 are constant within every regime; the smallest spread that is not zero
# is 1.9e-4 (s10), far above this.
MIN_STD = 1e-8


# n_regimes="auto" tries 1 to AUTO_MAX_REGIMES regimes on at most AUTO_SAMPLE
# standardised steps and keeps the fewest that explain at least
# AUTO_EXPLAINED of their variance when one more regime would add less than
# AUTO_GAIN; none such: one regime. Operating conditions are crisp: on the
# 14 C-MAPSS sensors alone FD002 and FD004 reach 0.998 with six regimes
# (5: 0.993, 7: 0.998); FD001, FD003 and the event benchmarks stay below
# 0.97 with eight (VIX 0.968, MBA 0.81, FD001 0.63).
AUTO_MAX_REGIMES = 8
AUTO_SAMPLE = 5000
AUTO_EXPLAINED = 0.99
AUTO_GAIN = 0.002


def choose_n_regimes(Z, random_state):
    """The number of regimes for standardised steps ``Z`` (m, s) by the rule of ``n_regimes="auto"``."""
    total = float((Z**2).sum())
    if Z.shape[0] < 2 * AUTO_MAX_REGIMES or total == 0.0:
        return 1
    explained = {}
    for k in range(2, AUTO_MAX_REGIMES + 1):
        inertia = KMeans(n_clusters=k, n_init=3, random_state=random_state).fit(Z).inertia_
        explained[k] = 1.0 - inertia / total
    for k in range(2, AUTO_MAX_REGIMES + 1):
        gain = explained[k + 1] - explained[k] if k < AUTO_MAX_REGIMES else 0.0
        if explained[k] >= AUTO_EXPLAINED and gain < AUTO_GAIN:
            return k
    return 1


def _channels(values, channels):
    """``values[:, channels]``, without a copy where ``channels`` are all of them in order.

    Every step's regime is read from every channel unless setting channels
    are named, and the windows are the fit's largest array.
    """
    if np.array_equal(channels, np.arange(values.shape[1])):
        return values
    return values[:, channels]


class RegimeWarning(UserWarning):
    """Operating regimes could not be looked for: too few time steps have every channel observed."""


def window_regimes(X, random_state, n_regimes="auto"):
    """The regimes ``HEPAPretrainer(regimes=n_regimes)`` finds from every channel of windows ``X`` (n, C, T).

    ``n_regimes`` is a number of regimes or ``"auto"`` (as
    :class:`RegimeNormalizer`'s). Returns ``(centers, loc, scale)`` as
    :meth:`RegimeNormalizer.regime_statistics` gives the last three, or
    None when one regime is found. A step takes part only where every
    channel is observed; with fewer such steps than ``2 * AUTO_MAX_REGIMES``
    (``"auto"``) or ``n_regimes`` (channels logged at different steps, or a
    channel never observed) the regimes cannot be told apart, so a
    :class:`RegimeWarning` says why and None is returned: the windows are
    then not standardised by regime, as with one regime.
    """
    missing = np.isnan(X)
    complete = int((~missing.any(axis=1)).sum())
    needed = 2 * AUTO_MAX_REGIMES if n_regimes == "auto" else n_regimes
    if complete < needed:
        never = np.flatnonzero(missing.all(axis=(0, 2)))
        why = (
            f"channel(s) {never.tolist()} of X are never observed, so no time step has them all"
            if never.size
            else f"only {complete} time steps of X have them all (its channels are observed at different steps)"
        )
        warnings.warn(
            f"regimes={n_regimes!r} finds operating regimes from the time steps where every channel is observed, "
            f"and {why}; it needs at least {needed}. The windows are not standardised by regime, as with one "
            "regime. To use regimes, pass windows whose channels are observed at the same steps (resample or "
            "forward-fill the series before windowing); where one regime is meant, pass regimes=None.",
            RegimeWarning,
            stacklevel=4,
        )
        return None
    del missing  # as large as a quarter of X: freed before the regimes are looked for
    regimes = RegimeNormalizer(None, n_regimes=n_regimes, random_state=random_state).fit(X)
    if regimes.n_regimes_ == 1:
        return None
    # with every channel a setting, the settings' statistics are the last (global) row of regime_loc/scale
    return regimes.regime_statistics()[2:]


def normalise_steps(X, settings, others, setting_loc, setting_scale, centers, loc, scale):
    """Channels ``others`` of ``X`` (b, C, T) standardised by the regime of each step, and the standardised settings.

    A step's regime is the nearest of ``centers`` (R, s) to its standardised
    ``settings``; a step with a missing setting takes row R of ``loc`` and
    ``scale`` (R + 1, c), the global statistics. Returns float64 arrays
    (b, c, T) and (b, s, T).
    """
    Z = (X[:, settings, :] - setting_loc[:, None]) / setting_scale[:, None]
    distance = ((Z[:, None] - centers[None, :, :, None]) ** 2).sum(axis=2)  # (b, R, T)
    regime = distance.argmin(axis=1)  # (b, T)
    regime[np.isnan(Z).any(axis=1)] = centers.shape[0]
    step_loc = loc[regime].transpose(0, 2, 1)  # (b, c, T)
    step_scale = scale[regime].transpose(0, 2, 1)
    return (X[:, others, :] - step_loc) / step_scale, Z


def _group_statistics(values, labels, n_groups):
    """Mean, std and count of the observed entries of ``values`` (m, c) in each group of rows.

    ``labels`` (m,) gives each row's group in ``0..n_groups-1``; the results
    have shape (n_groups, c), with NaN statistics where a count is 0.
    """
    moments = [nan_mean_std(values[labels == group], axis=0) for group in range(n_groups)]
    return tuple(np.stack(part) for part in zip(*moments, strict=True))


def _floor_std(std):
    return np.where(std >= MIN_STD, std, 1.0)


@fill_doc
class RegimeNormalizer(WindowTransformerTags, TransformerMixin, BaseEstimator):
    """Normalise each channel by the statistics of the operating regime at each step.

    Machines that run under a few operating conditions (C-MAPSS FD002 and
    FD004: six, given by three setting channels) shift their sensor levels
    with the condition. A single global z-score leaves those jumps in the
    signal; this transformer removes them. ``fit`` clusters the setting
    values of the observed steps into ``n_regimes`` regimes by k-means (on
    standardised settings) and learns, per regime, the mean and standard
    deviation of every other channel. ``transform`` assigns each step to the
    nearest regime centre and standardises the other channels with that
    regime's statistics.

    Steps where a setting channel is missing cannot be assigned; their
    channels are standardised with the global statistics of each channel.
    NaN values stay NaN.

    With ``setting_channels=None`` the regimes are found from all channels
    (a step's whole sensor vector), every channel is normalised and the
    output keeps all of them; with ``n_regimes="auto"`` their number is
    chosen from the data, and data without crisp operating conditions gets
    one regime, a global z-score. ``RegimeNormalizer(None,
    n_regimes="auto")`` needs nothing named about the data.

    Parameters
    ----------
    setting_channels : list of int or None
        Indices of the channels that give the operating condition; unique,
        each in ``[0, n_channels)``, leaving at least one other channel.
        None: every channel both gives the condition and is normalised.
    n_regimes : int or "auto", default=6
        Number of operating regimes (clusters). Six for C-MAPSS FD002/FD004.
        ``"auto"``: k-means with 2 to 8 regimes on at most 5,000 standardised
        steps; the fewest regimes that explain at least 99 % of the
        variance of those steps while one more would add less than 0.2 %,
        else one regime. On the 14 sensors of C-MAPSS (no settings) this
        finds six regimes on FD002 and FD004 and one on FD001 and FD003.
    drop_settings : bool, default=True
        Leave the setting channels out of the output. Otherwise they stay in
        place, standardised by their global mean and standard deviation.
        Ignored when ``setting_channels`` is None.
    max_samples : int, default=200_000
        At most this many time steps, drawn at random among those with every
        setting observed, are used for clustering and for the statistics, so
        the cost of ``fit`` is bounded. Must be at least ``n_regimes``.
    random_state : int, RandomState instance or None, default=0
        Seeds the subsample and k-means.

    Attributes
    ----------
    n_regimes_ : int
        The number of regimes, as given or chosen by ``"auto"``.
    setting_channels_ : ndarray of shape (n_settings,)
        The setting channels, as given (all channels for None).
    other_channels_ : ndarray of shape (n_other_channels,)
        The remaining channels in input order: the output channels when
        ``drop_settings``.
    setting_mean_, setting_std_ : ndarray of shape (n_settings,)
        Global statistics of the settings, which standardise them for the
        regime assignment (and in the output when not ``drop_settings``).
    regime_centers_ : ndarray of shape (n_regimes, n_settings)
        Regime centres in the original units of the settings.
    regime_mean_, regime_std_ : ndarray of shape (n_regimes, n_other_channels)
        Per-regime statistics of the other channels. A regime in which a
        channel is never observed falls back to that channel's global
        statistics; a standard deviation below 1e-8 (a channel constant
        within the regime) is replaced by 1.
    global_mean_, global_std_ : ndarray of shape (n_other_channels,)
        Statistics of the other channels over all sampled steps, used for
        steps with a missing setting (0 and 1 for a channel never observed).
    %(window_shape_attributes)s

    See Also
    --------
    hepa_sklearn.datasets.load_cmapss : C-MAPSS data; its ``frame`` holds the settings.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import RegimeNormalizer
    >>> rng = np.random.default_rng(0)
    >>> regime = rng.integers(0, 2, size=(20, 50))               # two conditions
    >>> setting = 10.0 * regime + rng.normal(0, 0.1, regime.shape)
    >>> sensor = 100.0 * regime + rng.normal(0, 1.0, regime.shape)  # level jumps by 100
    >>> X = np.stack([setting, sensor], axis=1).astype("float32")  # (20, 2, 50)
    >>> Z = RegimeNormalizer([0], n_regimes=2).fit_transform(X)
    >>> Z.shape
    (20, 1, 50)
    >>> round(float(Z[regime[:, None, :] == 1].std()), 2)
    1.0
    """

    def __init__(self, setting_channels, *, n_regimes=6, drop_settings=True, max_samples=200_000, random_state=0):
        self.setting_channels = setting_channels
        self.n_regimes = n_regimes
        self.drop_settings = drop_settings
        self.max_samples = max_samples
        self.random_state = random_state

    _parameter_constraints = {
        "setting_channels": "no_validation",  # checked against X in fit
        "n_regimes": [POSITIVE_INT, StrOptions({"auto"})],
        "drop_settings": ["boolean"],
        "max_samples": [POSITIVE_INT],
        "random_state": ["random_state"],
    }

    def _check_setting_channels(self, n_channels):
        name = f"{type(self).__name__}: parameter setting_channels"
        channels = self.setting_channels
        if channels is None:
            return np.arange(n_channels)
        if isinstance(channels, (str, bytes)) or not np.iterable(channels):
            raise ValueError(f"{name} must be a list of channel indices, got {channels!r}.")
        channels = list(channels)
        if not channels or not all(isinstance(c, Integral) and not isinstance(c, bool) for c in channels):
            raise ValueError(f"{name} must be a non-empty list of integers, got {self.setting_channels!r}.")
        if len(set(channels)) != len(channels):
            raise ValueError(f"{name} must not repeat a channel, got {self.setting_channels!r}.")
        outside = [c for c in channels if not 0 <= c < n_channels]
        if outside:
            raise ValueError(f"{name} must lie in [0, {n_channels}) for X with {n_channels} channels, got {outside}.")
        if len(channels) == n_channels:
            raise ValueError(f"{name} names every channel of X; at least one other channel is needed.")
        return np.asarray(channels, dtype=np.intp)

    def fit(self, X, y=None):
        """Learn the regimes and their statistics from windows ``X`` (n, C, T); ``y`` is ignored."""
        self._validate_params()
        auto = self.n_regimes == "auto"
        if not auto and self.max_samples < self.n_regimes:
            raise ValueError(f"max_samples={self.max_samples} must be at least n_regimes={self.n_regimes}.")
        X = check_windows(self, X, reset=True)
        n, C, T = X.shape  # windows, channels, steps
        settings = self._check_setting_channels(C)
        others = settings if self.setting_channels is None else np.setdiff1d(np.arange(C), settings)

        assignable = ~np.isnan(_channels(X, settings)).any(axis=1)  # (n, T)
        steps = np.flatnonzero(assignable)
        if steps.size < (1 if auto else self.n_regimes):
            named = (
                "every channel (setting_channels=None)"
                if self.setting_channels is None
                else (f"the setting channels {settings.tolist()}")
            )
            raise ValueError(
                f"{type(self).__name__}: X has {steps.size} time steps with {named} observed, fewer than the "
                f"{1 if auto else self.n_regimes} that n_regimes={self.n_regimes!r} needs. Regimes are found "
                "from the steps where every setting channel is observed: name in setting_channels only "
                "channels observed at the same steps, or fill the gaps (resample or forward-fill the series) "
                "before windowing."
            )
        rng = check_random_state(self.random_state)
        if steps.size > self.max_samples:
            steps = np.sort(rng.choice(steps, self.max_samples, replace=False))
        rows = X[steps // T, :, steps % T]  # (m, C), X's float32
        # float64 copies in Fortran order, which the sums below follow; one where every channel is a setting
        S = rows[:, settings].astype(np.float64)
        V = S if others is settings else rows[:, others].astype(np.float64)
        del rows

        setting_mean = S.mean(axis=0)
        setting_std = _floor_std(S.std(axis=0))
        Z = S - setting_mean
        Z /= setting_std
        n_regimes = self.n_regimes
        if auto:
            sample = rng.permutation(Z.shape[0])[:AUTO_SAMPLE]
            n_regimes = choose_n_regimes(Z[sample], rng)
        if n_regimes == 1:  # one regime: every step in it, its centre the settings' mean
            labels, centers = np.zeros(Z.shape[0], dtype=np.int32), Z.mean(axis=0)[None]
        else:
            kmeans = KMeans(n_clusters=n_regimes, n_init=10, random_state=rng)
            labels = kmeans.fit_predict(Z)
            centers = kmeans.cluster_centers_
        del Z  # the statistics below read V alone

        global_mean, global_std, global_count = _group_statistics(V, np.zeros_like(labels), 1)
        global_mean = np.where(global_count > 0, global_mean, 0.0)[0]
        global_std = _floor_std(np.where(global_count > 0, global_std, 1.0))[0]
        regime_mean, regime_std, regime_count = _group_statistics(V, labels, n_regimes)
        unseen = regime_count == 0

        self.n_features_in_, self.n_timepoints_in_ = C, T
        self.n_regimes_ = n_regimes
        self.setting_channels_ = settings
        self.other_channels_ = others
        self.setting_mean_ = setting_mean
        self.setting_std_ = setting_std
        self.regime_centers_ = centers * setting_std + setting_mean
        self.regime_mean_ = np.where(unseen, global_mean, regime_mean)
        self.regime_std_ = _floor_std(np.where(unseen, global_std, regime_std))
        self.global_mean_ = global_mean
        self.global_std_ = global_std
        return self

    def transform(self, X):
        """Normalised windows, float32 of shape (n, n_other_channels, T), or (n, C, T) with the settings or with
        None."""
        check_is_fitted(self, "regime_mean_")
        X = check_windows(self, X, reset=False)
        n, C, T = X.shape
        settings, others = self.setting_channels_, self.other_channels_
        statistics = self.regime_statistics()
        out = np.empty((n, others.size if self.drop_settings else C, T), dtype=np.float32)  # others: all with None
        for start in range(0, n, CHUNK):
            chunk = X[start : start + CHUNK].astype(np.float64)  # (b, C, T)
            normalised, Z = normalise_steps(chunk, settings, others, *statistics)
            if self.drop_settings or self.setting_channels is None:
                out[start : start + CHUNK] = normalised
            else:
                out[start : start + CHUNK, others] = normalised
                out[start : start + CHUNK, settings] = Z
        return out

    def regime_statistics(self):
        """``(setting_loc, setting_scale, centers, loc, scale)``: what :func:`normalise_steps` needs.

        The settings' global statistics (s,), the regime centres in
        standardised settings (R, s), and per regime the location and scale
        of the other channels (R + 1, c), row R holding their global
        statistics for steps with a missing setting.
        """
        check_is_fitted(self, "regime_mean_")
        return (
            self.setting_mean_,
            self.setting_std_,
            (self.regime_centers_ - self.setting_mean_) / self.setting_std_,
            np.vstack([self.regime_mean_, self.global_mean_]),
            np.vstack([self.regime_std_, self.global_std_]),
        )
