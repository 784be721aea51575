"""MAEPretrainer: HEPA's causal patch encoder pretrained by masked-patch reconstruction."""

from numbers import Real

from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._docs import fill_doc
from .._torch_estimator import FitPlan, TorchEstimator
from .._validation import (
    ENCODER_CONSTRAINTS,
    NON_NEGATIVE_INT,
    Interval,
    WindowTransformerTags,
    check_encoder_heads,
    check_groups,
    check_windows,
)
from .._window_encoder import WindowEncoderMixin
from ..nn.baselines import MaskedAutoencoder
from ..training._criteria import ReconstructionLoss
from ..training._net import HEPANet, make_net
from ..training._sampling import PatchMaskSampler, WindowDataset
from ..training._statistics import ENCODER_ATTRIBUTES, window_attributes

__all__ = ["MAEPretrainer"]


@fill_doc
class MAEPretrainer(
    WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, WindowEncoderMixin, TorchEstimator
):
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
    %(encoder_parameters)s
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
    max_epochs : int, default=100
        Training epochs; fewer when early stopping ends training. 0 trains
        nothing, the untrained-encoder control: ``fit`` checks the windows,
        learns the statistics of ``norm`` and keeps the encoder at the
        initial weights that training with the same ``random_state`` starts
        from (``n_epochs_`` is 0 and ``history_`` has no epoch).
    %(training_optimiser)s
    %(training_early_stopping)s
    %(training_run)s

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
    %(encoder_attributes)s

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

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        **ENCODER_CONSTRAINTS,
        "max_epochs": [NON_NEGATIVE_INT],
        "mask_ratio": [Interval(Real, 0, 1, closed="right")],
    }
    _parameter_checks = (check_encoder_heads,)
    _fitted_attributes = ENCODER_ATTRIBUTES
    _check_input = check_windows

    def __init__(
        self,
        *,
        # the encoder (paper §3.1, shared with HEPAPretrainer) and the masked-reconstruction objective
        d_model=256,
        n_layers=2,
        n_heads=4,
        patch_size=16,
        dropout=0.1,
        mask_ratio=0.4,
        norm="revin",
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=100,
        batch_size=64,
        lr=3e-4,
        weight_decay=1e-2,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=10,
        device="auto",
        precision="auto",
        random_state=None,
        verbose=0,
        callbacks=None,
    ):
        self.d_model = d_model
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.patch_size = patch_size
        self.dropout = dropout
        self.mask_ratio = mask_ratio
        self.norm = norm
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.lr = lr
        self.weight_decay = weight_decay
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.device = device
        self.precision = precision
        self.random_state = random_state
        self.verbose = verbose
        self.callbacks = callbacks

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
        return super().fit(X, y, groups)

    def _prepare_fit(self, X, y, groups):
        """The windows checked, the statistics of ``norm`` and their dataset (``y`` is ignored)."""
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        return FitPlan(window_attributes(X, self.norm), WindowDataset(X), groups=groups)

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for windows of ``fitted["n_features_in_"]`` channels."""
        return make_net(
            HEPANet,
            MaskedAutoencoder,
            ReconstructionLoss,
            training=self._training_config(),
            params={
                "module__config": self._encoder_config(fitted["n_features_in_"], patch_size=self.patch_size),
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
            },
            device=device,
            collate=(
                PatchMaskSampler(self.patch_size, self.mask_ratio, seed),
                PatchMaskSampler(self.patch_size, self.mask_ratio, seed, fixed=True),
            ),
        )

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def _n_features_out(self):
        return self.d_model
