"""HEPAFinetuner: end-to-end finetuning of a pretrained encoder with the event head, on windows."""

import copy

import numpy as np
import torch
from torch import nn

from ._docs import fill_doc
from ._surface_estimator import WindowSurfaceEstimator, surface_net
from ._validation import Count, StrOptions, check_windows
from .event_predictor import EVENT_HEADS
from .nn.encoder import last_valid_state
from .nn.level import WindowLevel
from .nn.predictor import EventModel
from .pretrainer import LEVEL_SPANS, pretrainer_level

# windows on which fit compares the pretrainer's window level with the one the network computes
LEVEL_CHECK_WINDOWS = 64


def check_fitted_pretrainer(estimator):
    """ValueError unless ``estimator.pretrainer`` is fitted: one of the finetuner's ``_parameter_checks``."""
    if getattr(estimator.pretrainer, "net_", None) is None:
        raise ValueError("pretrainer must be a fitted HEPAPretrainer (it has no net_).")


class EncoderEventModel(nn.Module):
    """A causal encoder followed by an event model: windows (B, C, L) -> hazard logits (B, K).

    With ``level`` (a :class:`~hepa_sklearn.nn.WindowLevel`), the window
    level follows the encoder's last valid state into the event model, as
    a pretrainer's ``transform`` appends it to the embedding.
    """

    def __init__(self, encoder, hidden, K, horizon_scale, head="mlp", horizon_knots=None, level=None):
        super().__init__()
        self.encoder = encoder
        self.level = level
        width = encoder.config.d_model + (0 if level is None else len(level.loc))
        self.event = EventModel(width, hidden, K, horizon_scale, head=head, horizon_knots=horizon_knots)

    @property
    def reads_level(self):
        """Whether the event model reads the window level beside the state.

        A model pickled before 0.3.0 has no ``level`` attribute and reads the state alone.
        """
        return getattr(self, "level", None) is not None

    def forward(self, x):
        states, valid, *_ = self.encoder(x, causal=True)
        h = last_valid_state(states, valid)
        if self.reads_level:
            h = torch.cat([h, self.level(x)], 1)
        return self.event(h)


@fill_doc
class HEPAFinetuner(WindowSurfaceEstimator):
    """End-to-end finetuning: a fitted pretrainer's encoder trained jointly with the event head.

    The paper's default (pred-FT, :class:`HEPAEventPredictor`) keeps the
    encoder frozen; this estimator unfreezes it, which the paper reports as
    an ablation. It works on windows, not embeddings, so one ``fit`` costs
    an encoder forward and backward pass per window and epoch. The
    pretrainer is copied, never modified.

    Its outputs are those of :class:`HEPAEventPredictor`: the surface
    (``predict_proba``), the expected time (``predict``), and
    scikit-survival's survival function, cumulative hazard and risk score
    (see :class:`~hepa_sklearn.survival.SurvivalMixin`).

    Parameters
    ----------
    pretrainer : HEPAPretrainer
        A fitted pretrainer whose encoder is the starting point.
    K : int, default=150
    hidden : int, default=256
    head : {"mlp", "linear"}, default="mlp"
    horizon_knots : int or None, default=12
        With ``head="mlp"``: the predictor and hazard head run at this many
        horizons and interpolate the others, as in
        :class:`HEPAEventPredictor`. ``None`` runs them at every horizon,
        as releases before 0.3.0 do.
    window_level : bool, default=True
        Pass the window level beside the encoder's state to the event head
        where the pretrainer appends it to its embedding
        (``window_level=True`` there), so that the head reads what it reads
        on the pretrainer's ``transform``; the level is computed from each
        window, with the pretrainer's statistics, and is not trained.
        ``False`` passes the state alone, as releases before 0.3.0 do.
        A pretrainer whose ``level_features`` gives another level than
        HEPAPretrainer's (a subclass's own) is refused unless this is
        ``False``.
    %(surface_loss_parameters)s
    %(training_parameters)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net: a copy of the pretrainer's encoder and the event head
        (which reads the window level beside the encoder's state with
        ``window_level``).
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
    >>> from hepa_sklearn import HEPAPretrainer
    >>> from hepa_sklearn.finetune import HEPAFinetuner
    >>> from hepa_sklearn.surface import make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(32, 3, 64)).astype("float32")
    >>> y = make_survival_y(np.ones(32, bool), rng.integers(1, 12, 32))
    >>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, K=16, random_state=0).fit(X)
    >>> model = HEPAFinetuner(pre, K=10, hidden=16, max_epochs=1, random_state=0).fit(X, y)
    >>> model.predict_proba(X).shape
    (32, 10)
    """

    _parameter_constraints = {
        **WindowSurfaceEstimator._parameter_constraints,
        "head": [StrOptions(set(EVENT_HEADS))],
        "horizon_knots": [None, Count(2)],
        "window_level": ["boolean"],
        "pretrainer": "no_validation",  # checked in fit, where a fitted pretrainer is needed
    }

    def __init__(
        self,
        pretrainer,
        *,
        # the surface model and its loss (paper §3.2)
        K=150,
        hidden=256,
        head="mlp",
        horizon_knots=12,
        window_level=True,
        loss="bce",
        pos_weight="auto",
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=30,
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
        self.pretrainer = pretrainer
        self.K = K
        self.hidden = hidden
        self.head = head
        self.horizon_knots = horizon_knots
        self.window_level = window_level
        self.loss = loss
        self.pos_weight = pos_weight
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

    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "pos_weight_")
    _nested_parameters = ("pretrainer",)
    # what a file saved before these parameters existed was fitted with (persistence.load)
    _parameters_before_stored = {"horizon_knots": None, "window_level": False}

    _parameter_checks = (check_fitted_pretrainer,)

    def _check_input(self, X, reset):
        """Windows checked, then standardised by regime as the pretrainer's network reads them.

        In ``fit`` (``reset``), where the head reads the window level, the
        pretrainer's ``level_features`` must give the level that the network
        computes (HEPAPretrainer's).
        """
        X = check_windows(self, X, reset=reset)
        n_channels = self.pretrainer.encoder_.config.n_channels
        if X.shape[1] != n_channels:
            raise ValueError(f"X has {X.shape[1]} channels but the pretrainer was fitted on {n_channels}.")
        X = self.pretrainer.standardise_by_regime(X)
        if reset and self._level_statistics() is not None:
            self._check_level(X[:LEVEL_CHECK_WINDOWS])
        return X

    def _check_level(self, X):
        """ValueError unless the pretrainer's ``level_features`` of ``X`` is HEPAPretrainer's level."""
        theirs, ours = self.pretrainer.level_features(X), pretrainer_level(X)
        if theirs.shape != ours.shape or not np.allclose(theirs, ours, equal_nan=True):
            raise ValueError(
                f"window_level=True computes HEPAPretrainer's window level in the network, but this "
                f"{type(self.pretrainer).__name__}'s level_features gives another one; pass "
                "window_level=False to finetune on the encoder's state alone."
            )

    def _level_statistics(self):
        """The pretrainer's ``(level_loc_, level_scale_)`` where the head reads the level, else None."""
        loc = getattr(self.pretrainer, "level_loc_", None)
        return None if not self.window_level or loc is None else (loc, self.pretrainer.level_scale_)

    def _fitted_state(self, X):
        return {"n_timepoints_in_": X.shape[2]}

    def _build_net(self, fitted, device, seed):
        """The untrained net around a copy of the pretrainer's encoder (the level too if ``window_level``)."""
        statistics = self._level_statistics()
        return surface_net(
            self,
            EncoderEventModel,
            fitted,
            device,
            encoder=copy.deepcopy(self.pretrainer.encoder_).cpu(),
            horizon_scale=float(self.K),
            hidden=self.hidden,
            K=self.K,
            head=self.head,
            horizon_knots=self.horizon_knots if self.head == "mlp" else None,
            level=None if statistics is None else WindowLevel(*statistics, LEVEL_SPANS),
        )
