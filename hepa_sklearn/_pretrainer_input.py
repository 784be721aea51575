"""What HEPAPretrainer does to windows outside its network: standardisation by operating regime, the window level."""

import warnings

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._stats import RECENT_STEPS, nan_mean_std, window_level
from ._validation import POSITIVE_INT, StrOptions, check_windows
from .nn.encoder import NORM_MODES
from .preprocessing import CHUNK, normalise_steps, window_regimes

__all__ = ["INPUT_CONSTRAINTS", "LEVEL_ATTRIBUTES", "LEVEL_SPANS", "PretrainerInputMixin", "REGIME_ATTRIBUTES"]

# the fitted attributes of the regime standardisation (None with regimes=None, or where one regime is found)
REGIME_ATTRIBUTES = ("regime_centers_", "regime_loc_", "regime_scale_")
# the fitted statistics of the window level (None with window_level=False)
LEVEL_ATTRIBUTES = ("level_loc_", "level_scale_")
# the window level's spans: the whole window (None), then its last RECENT_STEPS steps
LEVEL_SPANS = (None, RECENT_STEPS)

# The values of norm that release 0.2.0 gave several effects, and the network normalisation each stands for
# now; the regime standardisation and the window level are their own parameters (removed in 0.4.0).
DEPRECATED_NORMS = {"auto": "revin", "regime": "global"}
DEPRECATED_NORM_READINGS = {
    "auto": 'norm="revin" with the defaults regimes="auto", window_level=True',
    "regime": 'norm="global", window_level=False (regimes="auto" is the default)',
}

INPUT_CONSTRAINTS = {
    "norm": [StrOptions({*NORM_MODES, *DEPRECATED_NORMS}, deprecated=set(DEPRECATED_NORMS))],
    "regimes": [StrOptions({"auto"}), POSITIVE_INT, None],
    "window_level": ["boolean"],
}


class PretrainerInputMixin:
    """The parameters ``norm``, ``regimes`` and ``window_level`` of a pretrainer, and the steps they set.

    Before the network: each step standardised by its operating regime
    (``regimes``). In the network: its own normalisation (``norm``). After
    it: the window level beside the embedding (``window_level``), which
    widens ``transform``'s output by ``2 * n_channels`` columns.
    """

    # -- the parameters, read once --------------------------------------------------------

    def _network_norm(self):
        """The network's own normalisation: ``norm``, a deprecated value read as what it stands for."""
        return DEPRECATED_NORMS.get(self.norm, self.norm)

    def _appends_level(self):
        """Whether ``fit`` learns the window level (``norm="regime"`` of 0.2.0 never appended one)."""
        return bool(self.window_level) and self.norm != "regime"

    def _warn_deprecated_norm(self):
        if self.norm in DEPRECATED_NORMS:
            warnings.warn(
                f"norm={self.norm!r} is deprecated since 0.3.0 and will be removed in 0.4.0: norm sets the "
                f"network's normalisation alone, and the regime standardisation and the window level are the "
                f"parameters regimes and window_level. norm={self.norm!r} reads as "
                f"{DEPRECATED_NORM_READINGS[self.norm]}; pass those to keep this behaviour without the warning.",
                FutureWarning,
                stacklevel=4,
            )

    # -- fit ------------------------------------------------------------------------------

    def _fit_input(self, X):
        """Windows ``X`` as the network reads them, and the fitted attributes of the steps outside it.

        ``regimes`` (a number, or ``"auto"``) finds operating regimes in
        ``X``; one regime found is no regime. ``window_level`` learns the
        level's statistics from the regime-standardised windows.
        """
        self._warn_deprecated_norm()
        found = None if self.regimes is None else window_regimes(X, self._torch_seed(), self.regimes)
        regimes = (
            dict.fromkeys(REGIME_ATTRIBUTES) if found is None else dict(zip(REGIME_ATTRIBUTES, found, strict=True))
        )
        X = self._standardise_by(X, regimes)
        level = dict.fromkeys(LEVEL_ATTRIBUTES)
        if self._appends_level():
            loc, scale, _ = nan_mean_std(self.level_features(X), axis=0)
            level = {"level_loc_": np.nan_to_num(loc), "level_scale_": np.where(scale > 0, scale, 1.0)}
        return X, {**regimes, **level}

    # -- the regime standardisation --------------------------------------------------------

    @staticmethod
    def _standardise_by(X, regimes):
        """Checked windows ``X`` standardised by the regimes ``regimes`` (the fitted attributes); ``X`` if none."""
        if regimes["regime_centers_"] is None:
            return X
        channels = np.arange(X.shape[1])
        loc, scale = regimes["regime_loc_"], regimes["regime_scale_"]
        out = np.empty(X.shape, dtype=np.float32)
        for start in range(0, X.shape[0], CHUNK):
            out[start : start + CHUNK] = normalise_steps(
                X[start : start + CHUNK].astype(np.float64),
                channels,
                channels,
                loc[-1],
                scale[-1],
                regimes["regime_centers_"],
                loc,
                scale,
            )[0]
        return out

    def standardise_by_regime(self, X):
        """Windows ``X`` with each step standardised by its operating regime, as the network reads them.

        A step belongs to the regime whose centre is nearest to its
        globally standardised channels, and takes that regime's per-channel
        statistics; a step with a missing channel takes the global ones.
        Where ``fit`` found no regimes (``regimes=None``, or a single
        regime) the windows come back as they are.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            NaN marks missing values and left padding; they stay NaN.

        Returns
        -------
        X_standardised : ndarray of shape (n_windows, n_channels, n_timepoints), float32
        """
        check_is_fitted(self, "net_")
        X = check_windows(self, X, reset=False)
        return self._standardise_by(X, {name: getattr(self, name) for name in REGIME_ATTRIBUTES})

    def _validated_input(self, X):
        return self.standardise_by_regime(X)

    # -- the window level -----------------------------------------------------------------

    def level_features(self, X):
        """The window level before its standardisation: per channel the mean over the window and over its end.

        What ``window_level=True`` passes beside the embedding, which RevIN
        takes out of it: for each channel, the mean of its observed values
        over the whole window, then over the window's last 30 steps. ``fit``
        learns the mean and standard deviation of these columns on the
        training windows, and ``transform`` appends them standardised by
        those (0 where a channel is not observed). A subclass may override
        this method to pass other statistics (:mod:`hepa_sklearn.export`
        exports HEPAPretrainer itself, with this level, not a subclass).

        Parameters
        ----------
        X : ndarray of shape (n_windows, n_channels, n_timepoints)
            Windows as the network reads them
            (:meth:`standardise_by_regime`); NaN where missing.

        Returns
        -------
        level : ndarray of shape (n_windows, 2 * n_channels), float64
            The means over the window for every channel, then those over
            its last 30 steps; NaN where a channel has no observed value.
        """
        return window_level(X, spans=LEVEL_SPANS, spread=False, slope=False)

    def transform(self, X):
        """Embed windows ``X``; with ``window_level`` the window level follows the embedding.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.

        Returns
        -------
        E : ndarray of shape (n_windows, n_features_out), float32
            ``h_t`` at each window's end (``d_model`` columns), then, with
            ``window_level``, the :meth:`level_features` standardised by
            the training windows' statistics, 0 where a channel is not
            observed (``2 * n_channels`` columns); see
            :meth:`get_feature_names_out`.
        """
        return self._embed(self._validated_input(X))

    def fit_transform(self, X, y=None, groups=None):
        """Fit on windows ``X``, then embed them: ``fit(X, y, groups).transform(X)``, reading ``X`` once.

        The windows are checked and standardised by regime once, for the fit
        and the embedding alike, so a pipeline's ``fit`` holds one copy of
        them. A subclass that overrides :meth:`transform` gets exactly
        ``fit`` then ``transform``.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.
        y : None
            Ignored.
        groups : array-like of shape (n_windows,), default=None
            As in :meth:`fit`.

        Returns
        -------
        E : ndarray of shape (n_windows, n_features_out), float32
            As :meth:`transform` returns.
        """
        if type(self).transform is not PretrainerInputMixin.transform:
            return self.fit(X, y, groups).transform(X)
        plan = self._fit_plan(X, y, groups)
        self._fit_planned(plan)
        return self._embed(plan.data.X.numpy())  # the windows as the network read them in fit

    def _embed(self, X):
        """:meth:`transform` of windows ``X`` that are checked and standardised by regime already."""
        E = self._infer(X, "transform", forward=lambda module: module.embed)
        if self.level_loc_ is None:
            return E
        level = np.nan_to_num((self.level_features(X) - self.level_loc_) / self.level_scale_)
        return np.hstack([E, level.astype(np.float32)])

    @property
    def _n_features_out(self):
        return self.d_model + (0 if self.level_loc_ is None else self.level_loc_.shape[0])

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns of :meth:`transform`.

        ``hepapretrainer0`` ... ``hepapretrainer{d_model - 1}`` for the
        embedding, then with ``window_level`` ``mean_x{c}`` and
        ``mean30_x{c}`` for each channel ``c`` (a subclass whose
        :meth:`level_features` has other columns numbers them
        ``level{j}``).

        Parameters
        ----------
        input_features : None
            Ignored; the channels are named ``x0``, ``x1``, ...

        Returns
        -------
        names : ndarray of shape (n_features_out,), dtype object
        """
        check_is_fitted(self, "net_")
        prefix = type(self).__name__.lower()
        names = [f"{prefix}{i}" for i in range(self.d_model)]
        if self.level_loc_ is not None:
            if type(self).level_features is PretrainerInputMixin.level_features:
                channels = [f"x{c}" for c in range(self.n_features_in_)]
                names += [f"{kind}_{channel}" for kind in ("mean", f"mean{RECENT_STEPS}") for channel in channels]
            else:
                names += [f"level{j}" for j in range(self.level_loc_.shape[0])]
        return np.asarray(names, dtype=object)
