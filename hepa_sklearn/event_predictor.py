"""HEPAEventPredictor: predictor finetuning (pred-FT) on frozen embeddings."""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._training import (
    PRECISIONS,
    HEPANet,
    SurfaceLoss,
    check_finite_output,
    infer_in_chunks,
    make_net,
    report_interruption,
    resolve_device,
)
from ._validation import boolean, check_embeddings, check_params, integer, one_of, real, seeded_torch
from .metrics import SurfaceScoreMixin, expected_time_to_event
from .nn.predictor import EventModel, event_surface
from .windows import check_survival_y, label_surface

# predict_proba() evaluates embeddings in chunks of this many windows; each chunk
# holds (chunk, K, hidden) activations, 20 MB at K = hidden = 150/256 and 128 windows
INFERENCE_CHUNK = 128


def _pos_weight_rule():
    auto_or_positive = real(0.0, low_open=True)[0]
    return (lambda v: v == "auto" if isinstance(v, str) else auto_or_positive(v)), '"auto" or a real > 0'


def surface_targets(y, K, n_samples):
    """Labels and known-cell mask of ``y`` packed as (n, 2, K) float32, with the counts of known cells.

    Raises ValueError when the known cells hold only one class: nothing to learn from.
    """
    check_survival_y(y, n_samples=n_samples)
    labels, known = label_surface(y, K)
    n_pos = float((labels * known).sum())
    n_neg = float(known.sum()) - n_pos
    if n_pos == 0:
        raise ValueError(
            f"y has no event within K={K} steps of any window: every known cell is "
            "negative, so there is nothing to learn from."
        )
    if n_neg == 0:
        raise ValueError(
            f"y has no known negative cell within K={K} steps: every window has its "
            "event at horizon 1 or is censored, so there is nothing to learn from."
        )
    return np.stack([labels, known.astype(np.float32)], axis=1), n_pos, n_neg


class HEPAEventPredictor(SurfaceScoreMixin, BaseEstimator):
    """Event probability surface p(t, Δt), Δt = 1..K, from frozen window embeddings.

    The horizon predictor maps ``[h_t ; Δt]`` to a representation, the hazard
    head turns it into a conditional hazard λ_Δt, and the surface is
    ``p(t, Δt) = 1 - Π_{j<=Δt} (1 - λ_j)``, non-decreasing in Δt by
    construction. Training minimises positive-weighted BCE on ``p`` over the
    known cells of the label surface (censored cells are ignored).

    Parameters
    ----------
    K : int, default=150
        Number of unit-step horizons.
    hidden : int, default=256
        Hidden width of the predictor MLP.
    head : {"mlp", "linear"}, default="mlp"
        ``"mlp"``: the horizon-conditioned predictor and hazard head (pred-FT,
        the paper's default). ``"linear"``: a linear probe, one linear map
        from the embedding to the K hazard logits.
    loss : {"bce", "nll"}, default="bce"
        ``"bce"``: positive-weighted BCE on the cumulative surface (the
        paper's loss). ``"nll"``: negative log-likelihood of the
        discrete-time survival model (hazards), which ignores ``pos_weight``.
    lr : float, default=1e-3
        AdamW learning rate, annealed by a cosine schedule over ``max_epochs``.
    weight_decay : float, default=1e-2
    max_epochs : int, default=50
    batch_size : int, default=64
    early_stopping : bool, default=True
        Hold out the last ``validation_fraction`` of samples (input order) and
        stop when their loss has not improved for ``n_iter_no_change`` epochs,
        keeping the best weights.
    validation_fraction : float, default=0.1
    n_iter_no_change : int, default=10
    pos_weight : "auto" or float, default="auto"
        Weight of positive cells; ``"auto"`` is N_neg / N_pos over the known
        cells of the training labels.
    init_from : HEPAPretrainer or None, default=None
        Start the predictor from a fitted pretrainer's predictor (same
        ``d_model`` and hidden width). ``sklearn.clone`` clones this parameter
        too, which unfits it; wrap it in ``sklearn.frozen.FrozenEstimator``
        to keep it fitted inside grid searches.
    device : str, default="auto"
        ``"auto"`` (CUDA when torch sees a GPU, else CPU), ``"cpu"``,
        ``"cuda"`` or any torch device string.
    precision : {"auto", "bf16", "fp32"}, default="auto"
        ``"bf16"`` runs forward passes under bf16 autocast; ``"auto"`` means
        bf16 on CUDA and fp32 on CPU.
    random_state : int, RandomState instance or None, default=None
    verbose : int, default=0

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net (autocast settings in ``net_.autocast_dtype``).
    history_ : skorch.History
    horizons_ : ndarray of shape (K,)
        The horizons 1..K of the surface columns.
    pos_weight_ : float
        The positive weight used.
    n_epochs_ : int
        Epochs that completed (fewer than ``max_epochs`` after early stopping
        or an interruption).
    n_features_in_ : int
        Width of the embeddings seen in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAEventPredictor, make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> E = rng.normal(size=(64, 8)).astype("float32")
    >>> y = make_survival_y(np.ones(64, bool), rng.integers(1, 20, 64))
    >>> model = HEPAEventPredictor(K=10, hidden=16, max_epochs=2, random_state=0).fit(E, y)
    >>> P = model.predict_proba(E)
    >>> P.shape, bool((np.diff(P, axis=1) >= 0).all())
    ((64, 10), True)
    """

    def __init__(
        self,
        *,
        K=150,
        hidden=256,
        head="mlp",
        loss="bce",
        lr=1e-3,
        weight_decay=1e-2,
        max_epochs=50,
        batch_size=64,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=10,
        pos_weight="auto",
        init_from=None,
        device="auto",
        precision="auto",
        random_state=None,
        verbose=0,
    ):
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
        self.init_from = init_from
        self.device = device
        self.precision = precision
        self.random_state = random_state
        self.verbose = verbose

    _parameter_rules = {
        "K": integer(1),
        "hidden": integer(1),
        "head": one_of("mlp", "linear"),
        "loss": one_of("bce", "nll"),
        "lr": real(0.0, low_open=True),
        "weight_decay": real(0.0),
        "max_epochs": integer(1),
        "batch_size": integer(1),
        "early_stopping": boolean(),
        "validation_fraction": real(0.0, 1.0, low_open=True, high_open=True),
        "n_iter_no_change": integer(1),
        "pos_weight": _pos_weight_rule(),
        "precision": one_of(*PRECISIONS),
    }

    def _initial_predictor(self, d_model):
        """The pretrainer's predictor to start from, checked for compatible shapes, or None."""
        if self.init_from is None:
            return None
        if self.head != "mlp":
            raise ValueError(f"init_from needs head='mlp' (the pretrained predictor), got head={self.head!r}.")
        source = getattr(self.init_from, "predictor_", None)
        if source is None:
            raise ValueError("init_from must be a fitted HEPAPretrainer (it has no predictor_).")
        if source.d_model != d_model or source.input.out_features != self.hidden:
            raise ValueError(
                f"init_from's predictor has d_model={source.d_model} and hidden="
                f"{source.input.out_features}; this estimator needs d_model={d_model} "
                f"(embedding width) and hidden={self.hidden}."
            )
        return source

    def _build_net(self, d_model, horizon_scale, pos_weight, device):
        """The skorch net for embeddings of width ``d_model``, not yet initialised.

        ``fit`` trains it; :func:`hepa_sklearn.persistence.load` fills it with saved weights.
        """
        return make_net(
            HEPANet,
            EventModel,
            SurfaceLoss,
            params={
                "module__d_model": d_model,
                "module__hidden": self.hidden,
                "module__K": self.K,
                "module__horizon_scale": horizon_scale,
                "module__kind": self.head,
                "criterion__pos_weight": pos_weight,
                "criterion__kind": self.loss,
            },
            estimator=self,
            device=device,
        )

    def fit(self, E, y):
        """Train the predictor and hazard head on embeddings ``E`` (n, d) and survival ``y``."""
        check_params(self, self._parameter_rules)
        E = check_embeddings(self, E, reset=True)
        packed, n_pos, n_neg = surface_targets(y, self.K, E.shape[0])
        source = self._initial_predictor(E.shape[1])
        pos_weight = n_neg / n_pos if self.pos_weight == "auto" else float(self.pos_weight)
        scale = source.horizon_scale if source is not None else float(self.K)
        seed = check_random_state(self.random_state).randint(np.iinfo(np.int32).max)
        device = resolve_device(self.device)
        net = self._build_net(E.shape[1], scale, pos_weight, device)
        with seeded_torch(seed, device):
            net.initialize()
            if source is not None:
                net.module_.predictor.load_state_dict(source.state_dict())
            net.partial_fit(E, packed)
        # fitted state is written only once training has succeeded
        self.n_epochs_ = report_interruption(self, net)
        self.n_features_in_ = E.shape[1]
        self.pos_weight_ = pos_weight
        self.horizons_ = np.arange(1, self.K + 1)
        self.net_ = net
        return self

    @property
    def history_(self):
        check_is_fitted(self, "net_")
        return self.net_.history

    def _hazard_logits(self, E):
        check_is_fitted(self, "net_")
        E = check_embeddings(self, E, reset=False)
        module = self.net_.module_
        logits = infer_in_chunks(module, module, E, INFERENCE_CHUNK, dtype=self.net_.autocast_dtype)
        check_finite_output(logits.numpy(), "predict_proba")
        return logits

    def predict_proba(self, E):
        """Event probability surface, shape (n_samples, K): ``P[i, k-1]`` = P(event within k steps)."""
        return event_surface(self._hazard_logits(E)).numpy().astype(np.float64)

    def predict(self, E):
        """Expected time to event truncated at K, ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``."""
        return expected_time_to_event(self.predict_proba(E))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.non_deterministic = self.random_state is None
        return tags
