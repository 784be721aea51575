"""HEPAPretrainer: self-supervised JEPA pretraining of the causal patch encoder."""

import functools
from dataclasses import replace

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._docs import fill_doc
from ._held_out_loss import HeldOutLossMixin
from ._pretrainer_input import INPUT_CONSTRAINTS, LEVEL_ATTRIBUTES, REGIME_ATTRIBUTES, PretrainerInputMixin
from ._start_weights import start_from_source
from ._validation import POSITIVE_INT, UNIT, StrOptions
from ._window_pretrainer import WindowPretrainer
from .nn.encoder import TOKEN_MODES
from .nn.jepa import JEPA
from .training._callbacks import CollapseMonitor, HeldOutRank, TargetEMA
from .training._criteria import JEPACriterion
from .training._net import JEPANet, make_net
from .training._sampling import CutSampler, WindowDataset
from .training._statistics import check_pretrainable

__all__ = ["HEPAPretrainer"]

# Cuts of one window per block of a batch that share one context pass: a 64-cut FD001 step on one CPU thread
# takes 205 ms with every cut drawn independently, 94 ms with blocks of 8, 91 ms with blocks of 32; 8 keeps
# batches spread over at least 8 windows.
CUT_BLOCK = 8


@fill_doc
class HEPAPretrainer(HeldOutLossMixin, PretrainerInputMixin, WindowPretrainer):
    """Pretrain a causal patch Transformer by JEPA and embed windows.

    ``fit(X)`` learns, without labels, to predict the representation of the
    future interval ``(t, t+Δt]`` from the representation ``h_t`` of the past,
    for cuts ``t`` and horizons ``Δt ~ LogUniform[1, max_horizon]`` drawn
    inside each window; the target comes from the same encoder run without
    causal mask plus attention pooling, and SIGReg (256 random directions,
    as in the paper) keeps the predictions from collapsing. The horizon
    predictor is an MLP of width ``d_model``, and the learning rate follows
    a cosine schedule. ``transform(X)`` returns ``h_t`` at each window's end.

    In a training batch, the tokens of all target intervals are packed
    without padding, and with ``cuts_per_window > 1`` and a context pass
    that cuts can share (``norm="global"`` or ``"none"``) the cuts of one
    window come in shuffled blocks of 8 that share one causal pass (each
    cut keeps its own (cut, Δt) draw); docs/speed.md gives the speed.

    The defaults, ``max_epochs=0`` (no pretraining), ``regimes="auto"``,
    ``norm="revin"`` and ``window_level=True``, beat 0.1.0's pretrained
    RevIN encoder on the benchmark's validation units (docs/findings.md,
    "Choosing the defaults"); ``max_epochs=100`` pretrains, and
    ``regimes=None, window_level=False`` gives 0.1.0's input.

    Parameters
    ----------
    %(encoder_parameters)s
    patch_size : int, default=16
        Steps per token (all channels of those steps form one token).
    dropout : float, default=0.1
    tokens : {"patch", "channel", "univariate"}, default="patch"
        ``"patch"``: one token per patch holding all channels of its steps
        (the paper). ``"channel"``: each channel is its own stream of patch
        tokens (a shared projection plus a learned channel embedding),
        encoded separately and averaged per patch position over the
        channels observed there, for data whose events show in a few
        channels (the paper's "sensor-as-token" outlook, after
        iTransformer and PatchTST). The JEPA objective is unchanged; the
        encoder costs about ``n_channels`` times more, and its target
        intervals are encoded in padded groups. ``"univariate"``: as
        ``"channel"`` without the channel embedding, so every channel is
        read alike and the weights fit windows of any number of channels
        (one encoder for several datasets, see ``init_from``).
    norm : {"revin", "global", "none"}, default="revin"
        The network's own normalisation of its input (after ``regimes``):
        ``"revin"`` normalises each context by its own per-channel
        statistics (RevIN), which removes each window's level;
        ``"global"`` uses per-channel statistics learned in ``fit`` (the
        C-MAPSS protocol, which keeps the absolute degradation level);
        ``"none"`` feeds the values as they are. It leaves the output
        width alone.

        .. deprecated:: 0.3.0
            ``"auto"`` (read as ``"revin"``) and ``"regime"`` (read as
            ``"global"`` with ``window_level=False``) are removed in 0.4.0;
            the regime standardisation and the window level they stood for
            are ``regimes`` and ``window_level``.
    regimes : "auto", int or None, default="auto"
        Standardise each step by its operating regime before the network:
        ``fit`` finds regimes from the channels themselves
        (:class:`~hepa_sklearn.preprocessing.RegimeNormalizer` with
        ``setting_channels=None``), ``"auto"`` choosing their number from
        the data and an int fixing it, and each step takes the statistics
        of its regime, which removes the jumps between operating
        conditions and keeps the level within each
        (:meth:`standardise_by_regime`). Where one regime is found the
        windows pass unchanged; None never looks for regimes. Regimes are
        found from the steps where every channel is observed; with too few
        of them (channels logged at different steps, a channel never
        observed) a ``RegimeWarning`` says so and one regime is used. It
        leaves the output width alone.
    window_level : bool, default=True
        Append the window level to the embedding: per channel, the mean
        over the window and over its last 30 steps (of the
        regime-standardised window), standardised by the training
        windows' statistics (:meth:`level_features`). RevIN takes each
        window's level out of the embedding; this passes it on beside it.
        True widens ``transform``'s output from ``d_model`` to ``d_model +
        2 * n_channels`` columns (:meth:`get_feature_names_out` names
        them); an event predictor fitted on it, unlike one fitted on
        ``h_t`` alone, cannot start from the pretrainer's predictor
        (``init_from``).
    max_horizon : int, default=150
        Largest Δt drawn in pretraining.
    sigreg_weight : float, default=0.1
        α in ``(1-α)·L1 + α·regulariser`` (SIGReg by default).
    regularizer : {"sigreg", "vicreg"}, default="sigreg"
        Collapse regulariser on the predictions: SIGReg (the paper) or a
        VICReg-style variance + covariance term (the authors' code).
    target : {"shared", "ema"}, default="shared"
        Target path: the context encoder's own weights, trained by both paths
        (the paper), or an EMA copy without gradient (momentum 0.996, as
        I-JEPA and the paper).
    cuts_per_window : int, default=1
        (cut, Δt) pairs drawn from each window per epoch. With one long
        window per unit this reproduces the reference protocol's "40 random
        cuts per sequence per epoch".
    init_from : HEPAPretrainer, str, path-like or None, default=None
        Start the net from another fitted pretrainer's weights: the
        pretrainer, one in a ``sklearn.frozen.FrozenEstimator`` (which
        ``sklearn.clone`` leaves fitted), or the path of one written by
        :func:`hepa_sklearn.persistence.save`. Its architecture
        (``d_model``, ``n_layers``, ``n_heads``, ``patch_size``,
        ``tokens``, ``max_horizon``, ``target``) must be this one's, and
        its channel count too unless ``tokens="univariate"``. ``fit`` still
        learns this data's statistics (regimes, window level, the channel
        statistics of ``norm="global"``); with ``max_epochs=0`` the encoder
        is the source's, with ``max_epochs > 0`` pretraining continues from
        it on ``X``. Not stored by :func:`~hepa_sklearn.persistence.save`
        (the fitted weights hold it).
    max_epochs : int, default=0
        Training epochs; fewer when early stopping ends training. 0 trains
        nothing, the untrained-encoder control: ``fit`` checks the windows,
        learns the statistics of ``norm`` and keeps the encoder at the
        initial weights that training with the same ``random_state`` starts
        from (``n_epochs_`` is 0 and ``history_`` has no epoch).
    %(training_optimiser)s
    early_stopping : bool or {"loss", "rank"}, default=True
        Hold out the last ``validation_fraction`` of the training windows
        (input order), or of the units when ``fit`` gets ``groups``, and
        stop when what this names has not improved for
        ``n_iter_no_change`` epochs, keeping the best weights: ``"loss"``
        (or True), their JEPA loss ``valid_loss`` (lower is better);
        ``"rank"``, the effective rank of their embeddings ``valid_rank``
        (higher is better). Both are recorded in ``history_``; neither
        needs labels. The user guide's "Does pretraining pay?" shows how
        each tracked the event predictor on C-MAPSS FD001. False trains
        ``max_epochs`` epochs.
    %(training_run)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net; its ``module_`` holds encoder, target pooling and predictor.
    encoder_ : torch.nn.Module
        Fitted causal patch encoder.
    predictor_ : torch.nn.Module
        Fitted horizon predictor.
    history_ : skorch.History
        Per epoch: the losses ``train_loss``, ``train_l1`` and
        ``train_sigreg`` (or ``train_vicreg``), ``valid_*`` and
        ``valid_rank`` with early stopping, ``train_spread`` (about 1 for
        well spread predictions, 0 at collapse) and ``collapse`` (True when
        the spread fell below 0.05, which also raises a RuntimeWarning).
    n_epochs_ : int
        Epochs that completed (fewer than ``max_epochs`` after early
        stopping).
    regime_centers_ : ndarray of shape (n_regimes, n_channels) or None
        The regime centres in globally standardised channels; None where
        no regimes were looked for (``regimes=None``) or one was found.
    regime_loc_, regime_scale_ : ndarray of shape (n_regimes + 1, n_channels) or None
        Each regime's channel statistics, the last row the global ones
        (for steps with a missing channel); None as ``regime_centers_``.
    level_loc_, level_scale_ : ndarray of shape (2 * n_channels,) or None
        The mean and standard deviation of :meth:`level_features` on the
        training windows, which standardise the window level; None with
        ``window_level=False``.
    %(encoder_attributes)s

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAPretrainer
    >>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
    >>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, max_horizon=16,
    ...                      random_state=0).fit(X)
    >>> pre.transform(X).shape  # d_model columns, then the level: 2 per channel
    (32, 22)
    >>> pre.get_feature_names_out()[-2:].tolist()
    ['mean30_x1', 'mean30_x2']
    >>> HEPAPretrainer(d_model=16, n_heads=2, regimes=None, window_level=False,
    ...                random_state=0).fit(X).transform(X).shape  # h_t alone
    (32, 16)
    """

    _parameter_constraints = {
        **WindowPretrainer._parameter_constraints,
        "tokens": [StrOptions(set(TOKEN_MODES))],
        **INPUT_CONSTRAINTS,
        "max_horizon": [POSITIVE_INT],
        "sigreg_weight": [UNIT],
        "regularizer": [StrOptions({"sigreg", "vicreg"})],
        "target": [StrOptions({"shared", "ema"})],
        "cuts_per_window": [POSITIVE_INT],
        "init_from": "no_validation",  # checked in fit (source_pretrainer), where the source is read
        "early_stopping": ["boolean", StrOptions({"loss", "rank"})],
    }

    def __init__(
        self,
        *,
        # the encoder (paper §3.1)
        d_model=256,
        n_layers=2,
        n_heads=4,
        patch_size=16,
        dropout=0.1,
        tokens="patch",
        # the input: standardised by regime, normalised by the network, its level beside the embedding
        norm="revin",
        regimes="auto",
        window_level=True,
        # the pretraining objective (paper §3.1)
        max_horizon=150,
        sigreg_weight=0.1,
        regularizer="sigreg",
        target="shared",
        cuts_per_window=1,
        # where the weights start: a fitted pretrainer or its file
        init_from=None,
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=0,
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
        self.tokens = tokens
        self.norm = norm
        self.regimes = regimes
        self.window_level = window_level
        self.max_horizon = max_horizon
        self.sigreg_weight = sigreg_weight
        self.regularizer = regularizer
        self.target = target
        self.cuts_per_window = cuts_per_window
        self.init_from = init_from
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

    _fitted_attributes = (*WindowPretrainer._fitted_attributes, *REGIME_ATTRIBUTES, *LEVEL_ATTRIBUTES)
    _transient_parameters = ("init_from", "callbacks")

    #: The torch module of the net (encoder, target path and predictor); a
    #: subclass may name a :class:`~hepa_sklearn.nn.JEPA` subclass that
    #: encodes the targets another way.
    module_class = JEPA

    def _training_config(self):
        return replace(super()._training_config(), early_stopping=bool(self.early_stopping))

    def cut_block(self):
        """Cuts of one window that share a context pass in a training batch: ``CUT_BLOCK`` where they can.

        The hook of the batch layout: a subclass returning 1 draws every
        (cut, Δt) item of a batch independently, each with its own context
        pass.

        Returns
        -------
        n_cuts : int
            1 under RevIN (its statistics depend on the cut), else 8.
        """
        return 1 if self._network_norm() == "revin" else CUT_BLOCK  # RevIN statistics depend on the cut

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for windows of ``fitted["n_features_in_"]`` channels."""
        scores = [f"{part}_{term}" for part in ("train", "valid") for term in ("l1", self.regularizer)]
        callbacks = [("collapse_monitor", CollapseMonitor())]
        if self.target == "ema":
            callbacks.append(("target_ema", TargetEMA()))
        patch, horizon = self.patch_size, self.max_horizon
        return make_net(
            JEPANet,
            self.module_class,
            JEPACriterion,
            training=self._training_config(),
            params={
                "module__config": self._encoder_config(fitted["n_features_in_"], patch_size=patch, tokens=self.tokens),
                "module__max_horizon": horizon,
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
                "module__target": self.target,
                "criterion__alpha": float(self.sigreg_weight),
                "criterion__regularizer": self.regularizer,
                "cut_block": self.cut_block(),
            },
            device=device,
            collate=(CutSampler(patch, horizon, seed), CutSampler(patch, horizon, seed, fixed=True)),
            extra_scores=(*scores, "train_spread"),
            callbacks=callbacks,
            scoring=[("valid_rank", HeldOutRank())],
            monitor=("valid_rank", False) if self.early_stopping == "rank" else ("valid_loss", True),
        )

    def _fit_plan(self, X, y, groups):
        """As the window pretrainers' plan; with ``init_from`` the net starts from its source's weights."""
        plan = super()._fit_plan(X, y, groups)
        if self.init_from is None:
            return plan
        return plan._replace(prepare=functools.partial(start_from_source, estimator=self))

    def _pretraining_data(self, X, groups):
        """Each window ``cuts_per_window`` times in a row; a window's unit label covers all of its pairs."""
        if self.max_epochs > 0:  # short windows matter only to pretraining
            check_pretrainable(X, self.patch_size)
        if groups is not None:
            groups = np.repeat(groups, self.cuts_per_window)  # item i of the dataset is window i // cuts_per_window
        return WindowDataset(X, self.cuts_per_window), groups

    @property
    def predictor_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.predictor
