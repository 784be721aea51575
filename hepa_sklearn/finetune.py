"""HEPAFinetuner: end-to-end finetuning of a pretrained encoder with the event head, on windows."""

import copy

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from torch import nn

from ._training import (
    HEPANet,
    SurfaceLoss,
    check_finite_output,
    infer_in_chunks,
    make_net,
    report_interruption,
    resolve_device,
)
from ._validation import check_params, check_windows, seeded_torch
from .event_predictor import INFERENCE_CHUNK, HEPAEventPredictor, surface_targets
from .metrics import SurfaceScoreMixin, expected_time_to_event
from .nn.encoder import last_valid_state
from .nn.predictor import EventModel, event_surface


class EncoderEventModel(nn.Module):
    """A causal encoder followed by an event model: windows (B, C, L) -> hazard logits (B, K)."""

    def __init__(self, encoder, hidden, K, horizon_scale, kind="mlp"):
        super().__init__()
        self.encoder = encoder
        self.event = EventModel(encoder.config.d_model, hidden, K, horizon_scale, kind=kind)

    def forward(self, x):
        states, valid, *_ = self.encoder(x, causal=True)
        return self.event(last_valid_state(states, valid))


class HEPAFinetuner(SurfaceScoreMixin, BaseEstimator):
    """End-to-end finetuning: a fitted pretrainer's encoder trained jointly with the event head.

    The paper's default (pred-FT, :class:`HEPAEventPredictor`) keeps the
    encoder frozen; this estimator unfreezes it, which the paper reports as
    an ablation. It works on windows, not embeddings, so one ``fit`` costs
    an encoder forward and backward pass per window and epoch. The
    pretrainer is copied, never modified.

    Parameters
    ----------
    pretrainer : HEPAPretrainer
        A fitted pretrainer whose encoder is the starting point.
    K : int, default=150
    hidden : int, default=256
    head : {"mlp", "linear"}, default="mlp"
    loss : {"bce", "nll"}, default="bce"
    lr : float, default=3e-4
        One AdamW learning rate for encoder and head (the pretraining rate:
        the encoder is already trained), cosine-annealed over ``max_epochs``.
    weight_decay : float, default=1e-2
    max_epochs : int, default=30
    batch_size : int, default=64
    early_stopping : bool, default=True
    validation_fraction : float, default=0.1
    n_iter_no_change : int, default=10
    pos_weight : "auto" or float, default="auto"
    device : str, default="auto"
    precision : {"auto", "bf16", "fp32"}, default="auto"
    random_state : int, RandomState instance or None, default=None
    verbose : int, default=0

    Attributes
    ----------
    net_ : skorch.NeuralNet
    history_ : skorch.History
    pos_weight_ : float
    n_epochs_ : int
        Epochs that completed.
    n_features_in_ : int
        Channels seen in ``fit``.
    n_timepoints_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAPretrainer, make_survival_y
    >>> from hepa_sklearn.finetune import HEPAFinetuner
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(32, 3, 64)).astype("float32")
    >>> y = make_survival_y(np.ones(32, bool), rng.integers(1, 12, 32))
    >>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, max_horizon=16, random_state=0).fit(X)
    >>> model = HEPAFinetuner(pre, K=10, hidden=16, max_epochs=1, random_state=0).fit(X, y)
    >>> model.predict_proba(X).shape
    (32, 10)
    """

    def __init__(
        self,
        pretrainer,
        *,
        K=150,
        hidden=256,
        head="mlp",
        loss="bce",
        lr=3e-4,
        weight_decay=1e-2,
        max_epochs=30,
        batch_size=64,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=10,
        pos_weight="auto",
        device="auto",
        precision="auto",
        random_state=None,
        verbose=0,
    ):
        self.pretrainer = pretrainer
        self.K = K
        self.hidden = hidden
        self.head = head
        self.loss = loss
        self.lr = lr
        self.weight_decay = weight_decay
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.pos_weight = pos_weight
        self.device = device
        self.precision = precision
        self.random_state = random_state
        self.verbose = verbose

    # the same training settings as the predictor on embeddings, with the same rules
    _parameter_rules = HEPAEventPredictor._parameter_rules

    def _build_net(self, encoder, pos_weight, device):
        """The untrained net around a copy of ``encoder``; ``fit`` and ``persistence.load`` share it."""
        return make_net(
            HEPANet,
            EncoderEventModel,
            SurfaceLoss,
            params={
                "module__encoder": copy.deepcopy(encoder).cpu(),
                "module__hidden": self.hidden,
                "module__K": self.K,
                "module__horizon_scale": float(self.K),
                "module__kind": self.head,
                "criterion__pos_weight": pos_weight,
                "criterion__kind": self.loss,
            },
            estimator=self,
            device=device,
        )

    def fit(self, X, y):
        """Finetune on windows ``X`` (n, C, L) with survival labels ``y``."""
        check_params(self, self._parameter_rules)
        if getattr(self.pretrainer, "net_", None) is None:
            raise ValueError("pretrainer must be a fitted HEPAPretrainer (it has no net_).")
        encoder = self.pretrainer.encoder_
        X = check_windows(self, X, reset=True)
        if X.shape[1] != encoder.config.n_channels:
            raise ValueError(
                f"X has {X.shape[1]} channels but the pretrainer was fitted on {encoder.config.n_channels}."
            )
        packed, n_pos, n_neg = surface_targets(y, self.K, X.shape[0])
        pos_weight = n_neg / n_pos if self.pos_weight == "auto" else float(self.pos_weight)
        seed = check_random_state(self.random_state).randint(np.iinfo(np.int32).max)
        device = resolve_device(self.device)
        net = self._build_net(encoder, pos_weight, device)
        with seeded_torch(seed, device):
            net.fit(X, packed)
        self.n_epochs_ = report_interruption(self, net)
        self.n_features_in_, self.n_timepoints_in_ = X.shape[1], X.shape[2]
        self.pos_weight_ = pos_weight
        self.net_ = net
        return self

    @property
    def history_(self):
        check_is_fitted(self, "net_")
        return self.net_.history

    def predict_proba(self, X):
        """Event probability surface (n_windows, K) of windows ``X``."""
        check_is_fitted(self, "net_")
        X = check_windows(self, X, reset=False)
        module = self.net_.module_
        logits = infer_in_chunks(module, module, X, INFERENCE_CHUNK, dtype=self.net_.autocast_dtype)
        check_finite_output(logits.numpy(), "predict_proba")
        return event_surface(logits).numpy().astype(np.float64)

    def predict(self, X):
        """Expected time to event truncated at K, ``E[min(T, K)]``."""
        return expected_time_to_event(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.three_d_array = True
        tags.target_tags.required = True
        tags.non_deterministic = self.random_state is None
        return tags
