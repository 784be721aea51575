"""MAEPretrainer: HEPA's causal patch encoder pretrained by masked-patch reconstruction."""

from numbers import Real

import numpy as np
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._base import TorchEstimator, store_parameters
from .._docs import fill_doc
from .._training import HEPANet, PatchMaskSampler, ReconstructionLoss, WindowDataset, make_net
from .._validation import (
    POSITIVE_INT, Interval, StrOptions, WindowTransformerTags, check_groups, check_windows,
)
from ..nn.baselines import MaskedAutoencoder
from ..nn.encoder import NORM_MODES, EncoderConfig
from ..pretrainer import global_statistics

__all__ = ["MAEPretrainer", "check_heads"]


def check_heads(d_model, n_heads):
    """ValueError unless ``n_heads`` divides ``d_model`` (each head gets ``d_model / n_heads`` dimensions)."""
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} must be divisible by n_heads={n_heads}.")


def normalisation_statistics(X, norm):
    """Per-channel location and scale of ``norm="global"`` learned from ``X``; 0 and 1 for the other modes."""
    if norm == "global":
        return global_statistics(X)
    return np.zeros(X.shape[1], dtype=np.float32), np.ones(X.shape[1], dtype=np.float32)


@fill_doc
class MAEPretrainer(WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, TorchEstimator):
    """Pretrain HEPA's causal patch encoder by masked-patch reconstruction, and embed windows.

    The paper's MAE baseline: the same causal patch Transformer as
    :class:`~hepa_sklearn.HEPAPretrainer` (patches of ``patch_size`` steps
    across all channels, sinusoidal positions, NaN masking, the same
    normalisation), trained without labels by masking a fraction
    ``mask_ratio`` of each window's observed patches (their projected tokens
    are replaced by a learned mask token) and reconstructing their
    normalised values with a linear decoder from each masked token's state.
    The loss is the mean squared error over the observed values of the
    masked patches only (padding and missing values count for nothing).
    Only the pretraining objective differs from HEPA's, which isolates
    predicting future representations (JEPA) against reconstructing values.

    As the encoder is causal, a masked patch is reconstructed from the
    patches before it (and the mask token), not from later ones; ``transform``
    runs the encoder without any mask and returns the state of each
    window's last observed patch, as HEPA does, so an embedding depends on
    no step after the window's end.

    Parameters
    ----------
    d_model : int, default=256
        Token width.
    n_layers : int, default=2
        Transformer blocks.
    n_heads : int, default=4
        Attention heads; must divide ``d_model``.
    dim_feedforward : int, default=256
        Width of each block's feed-forward layer.
    patch_size : int, default=16
        Steps per token (all channels of those steps form one token).
    dropout : float, default=0.1
    mask_ratio : float, default=0.4
        Fraction of each window's observed patches masked in each epoch (at
        least one). 0.4 is the masking ratio of PatchTST's masked
        self-supervised pretraining (Nie et al. 2023); He et al. (2022) use
        0.75 for images.
    norm : {"revin", "global", "none"}, default="revin"
        As :class:`~hepa_sklearn.HEPAPretrainer`'s ``norm``; the
        reconstruction target is the normalised values.
    %(training_parameters)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net; its ``module_`` holds the encoder, the mask token and
        the decoder.
    encoder_ : torch.nn.Module
        The fitted causal patch encoder
        (:class:`~hepa_sklearn.nn.PatchEncoder`).
    history_ : skorch.History
        Per epoch: ``train_loss`` (and ``valid_loss`` with early stopping),
        the reconstruction error of the masked values.
    n_epochs_ : int
        Epochs that completed.
    %(window_shape_attributes)s
    channel_loc_, channel_scale_ : ndarray of shape (n_channels,)
        Statistics of ``norm="global"`` (0 and 1 for the other modes).

    See Also
    --------
    hepa_sklearn.HEPAPretrainer : the same encoder pretrained by JEPA.
    MatchedHeadPredictor : the downstream head the paper trains on these embeddings.

    References
    ----------
    He, K., Chen, X., Xie, S., Li, Y., Dollár, P. and Girshick, R. (2022).
    Masked autoencoders are scalable vision learners. CVPR, 16000-16009.

    Nie, Y., Nguyen, N. H., Sinthong, P. and Kalagnanam, J. (2023). A time
    series is worth 64 words: long-term forecasting with Transformers. ICLR.

    Examples
    --------
    Pretrain on C-MAPSS FD001 windows and embed them:

    >>> from hepa_sklearn.baselines import MAEPretrainer
    >>> from hepa_sklearn.datasets import load_cmapss
    >>> X = load_cmapss("FD001", context_length=64, stride=16).X[:200]
    >>> mae = MAEPretrainer(d_model=16, n_heads=2, n_layers=1, max_epochs=1, norm="global",
    ...                     random_state=0).fit(X)
    >>> mae.transform(X).shape
    (200, 16)
    """

    def __init__(
        self,
        *,
        # the encoder (paper §3.1, shared with HEPAPretrainer)
        d_model=256, n_layers=2, n_heads=4, dim_feedforward=256, patch_size=16, dropout=0.1,
        # the masked-reconstruction objective
        mask_ratio=0.4, norm="revin",
        # the training parameters every torch-backed estimator shares (see _base.TorchEstimator)
        max_epochs=100, batch_size=64, lr=3e-4, weight_decay=1e-2,
        early_stopping=True, validation_fraction=0.1, n_iter_no_change=10,
        device="auto", precision="auto", random_state=None, verbose=0, callbacks=None, distributed="auto",
    ):
        store_parameters(self, locals())

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        "d_model": [POSITIVE_INT],
        "n_layers": [POSITIVE_INT],
        "n_heads": [POSITIVE_INT],
        "dim_feedforward": [POSITIVE_INT],
        "patch_size": [POSITIVE_INT],
        "dropout": [Interval(Real, 0, 1, closed="left")],
        "mask_ratio": [Interval(Real, 0, 1, closed="right")],
        "norm": [StrOptions(set(NORM_MODES))],
    }
    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "channel_loc_", "channel_scale_")
    _check_input = check_windows

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for windows of ``fitted["n_features_in_"]`` channels."""
        config = EncoderConfig(
            n_channels=fitted["n_features_in_"], d_model=self.d_model, n_layers=self.n_layers,
            n_heads=self.n_heads, dim_feedforward=self.dim_feedforward, patch_size=self.patch_size,
            dropout=float(self.dropout), norm=self.norm,
        )
        return make_net(
            HEPANet,
            MaskedAutoencoder,
            ReconstructionLoss,
            training=self._training_config(),
            params={
                "module__config": config,
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
            },
            device=device,
            collate=(PatchMaskSampler(self.patch_size, self.mask_ratio, seed),
                     PatchMaskSampler(self.patch_size, self.mask_ratio, seed, fixed=True)),
        )

    @fill_doc
    def fit(self, X, y=None, groups=None):
        """Pretrain on windows ``X`` (n_windows, n_channels, n_timepoints); ``y`` is ignored.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.
        y : None
            Ignored.
        %(fit_groups)s

        Returns
        -------
        self : MAEPretrainer
        """
        self._validate_params()
        check_heads(self.d_model, self.n_heads)
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        channel_loc, channel_scale = normalisation_statistics(X, self.norm)
        fitted = {
            "n_features_in_": X.shape[1],
            "n_timepoints_in_": X.shape[2],
            "channel_loc_": channel_loc,
            "channel_scale_": channel_scale,
        }
        return self._fit_net(fitted, WindowDataset(X), seed=self._torch_seed(), groups=groups)

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def _n_features_out(self):
        return self.d_model

    def transform(self, X):
        """Embed windows: the state of each window's last observed patch, shape (n_windows, d_model)."""
        return self._infer(self._validated_input(X), "transform", forward=lambda module: module.embed)
