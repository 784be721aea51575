"""WindowPretrainer: what HEPA's and MAE's pretrainers share, label-free training of an encoder on windows."""

from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._base import FitPlan, TorchEstimator, WindowEncoderMixin
from ._docs import fill_doc
from ._validation import ENCODER_CONSTRAINTS, NON_NEGATIVE_INT, WindowTransformerTags, check_groups, check_windows
from .training._sampling import WindowDataset
from .training._statistics import window_attributes

__all__ = ["WindowPretrainer"]


class WindowPretrainer(
    WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, WindowEncoderMixin, TorchEstimator
):
    """What HEPA's and MAE's pretrainers share: label-free training of an encoder on windows, which ``transform``
    embeds.

    A subclass builds its net (``_build_net``, whose module has ``encoder``
    and ``embed``), turns the checked windows into the training dataset
    (``_pretraining_data``) and may prepare the windows before the net
    (``_fit_input``). ``max_epochs=0`` is allowed: the encoder then keeps
    its initial weights.
    """

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        **ENCODER_CONSTRAINTS,
        "max_epochs": [NON_NEGATIVE_INT],
    }
    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "channel_loc_", "channel_scale_")

    def _fit_input(self, X):
        """Checked windows ``X`` as the net reads them, and the fitted attributes that preparing them learned."""
        return X, {}

    def _pretraining_data(self, X, groups):
        """The training dataset of checked windows ``X`` and the unit label of each of its items (or None)."""
        return WindowDataset(X), groups

    @fill_doc
    def fit(self, X, y=None, groups=None):
        """Pretrain on windows ``X`` (n_windows, n_channels, n_timepoints); ``y`` is ignored.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows (n_windows,
            n_timepoints). NaN marks missing values and left padding.
        y : None
            Ignored.
        %(fit_groups)s

        Returns
        -------
        self : object
            The fitted pretrainer.

        %(fit_interruption)s
        """
        return self._fit_planned(self._fit_plan(X, y, groups))

    def _fit_plan(self, X, y, groups):
        """Check the parameters, ``X`` and ``groups``: the plan of pretraining on them (``y`` is ignored)."""
        self._check_hyperparameters()
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        X, prepared = self._fit_input(X)
        dataset, groups = self._pretraining_data(X, groups)
        fitted = {**window_attributes(X, self._network_norm()), **prepared}
        return FitPlan(fitted, dataset, groups=groups)

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def _n_features_out(self):
        return self.d_model
