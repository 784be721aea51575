"""Base classes of the torch-backed estimators: shared parameters, seeding, net construction, chunked inference, history, persistence hook; the encoder and surface estimators."""

import logging
import time
from dataclasses import fields

import numpy as np
import torch
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from skorch.history import History

from ._docs import fill_doc
from ._training import (
    PRECISIONS,
    HEPANet,
    SurfaceLoss,
    TailSplit,
    TrainingConfig,
    check_finite_output,
    infer_in_chunks,
    make_net,
    resolve_device,
    seeded_torch,
)
from ._training.callbacks import raise_if_interrupted, user_callbacks
from ._training.distributed import join_net, join_world
from ._training.net import completed_epochs
from ._training.runtime import release_freed_memory
from ._validation import (
    NON_NEGATIVE_REAL,
    OPEN_UNIT,
    POSITIVE_INT,
    POSITIVE_REAL,
    StrOptions,
    WindowSurfaceTags,
    check_embeddings,
    check_groups,
    check_heads,
    check_windows,
)
from .causes import cause_targets
from .metrics import SurfaceScoreMixin
from .nn.encoder import EncoderConfig
from .nn.predictor import event_surface
from .surface import expected_time_to_event, surface_targets
from .survival import SurvivalMixin

__all__ = [
    "EmbeddingSurfaceEstimator",
    "SurfaceNetEstimator",
    "TorchEstimator",
    "WindowEncoderMixin",
    "WindowSurfaceEstimator",
    "registered_estimator",
]

logger = logging.getLogger("hepa_sklearn")

# every TorchEstimator subclass by class name: what persistence.load may rebuild
_REGISTRY = {}


def registered_estimator(name):
    """The TorchEstimator subclass called ``name``; ValueError for any other name."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown estimator class {name!r}; known: {sorted(_REGISTRY)}.")
    return _REGISTRY[name]


class TorchEstimator(BaseEstimator):
    """What every torch-backed estimator of the package shares; a subclass holds only what differs.

    A subclass declares

    - its constructor, which assigns each parameter to the attribute of the
      same name (``self.x = x``) and does nothing else, as scikit-learn's
      ``get_params``, ``set_params`` and ``clone`` require, ending with the
      shared training parameters (see
      :class:`~hepa_sklearn._training.TrainingConfig`);
    - ``_parameter_constraints``, extending this class's (``max_epochs >= 1``;
      the pretrainers also take 0);
    - ``_fitted_attributes``: the fitted attributes besides ``net_`` that
      describe the fitted model (persistence saves them);
    - ``_check_input``: the function validating its input;
    - ``_build_net(fitted, device, seed)``: the untrained skorch net for the
      fitted attributes ``fitted`` (a dict), used by ``fit`` and by
      :func:`hepa_sklearn.persistence.load`;
    - ``_nested_parameters``: parameters holding a fitted estimator that the
      fitted net needs (saved inside the same file), and
      ``_transient_parameters``: estimator-valued parameters only ``fit``
      reads (not saved).
    """

    _parameter_constraints = {
        "max_epochs": [POSITIVE_INT],
        "batch_size": [POSITIVE_INT],
        "lr": [POSITIVE_REAL],
        "weight_decay": [NON_NEGATIVE_REAL],
        "early_stopping": ["boolean"],
        "validation_fraction": [OPEN_UNIT],
        "n_iter_no_change": [POSITIVE_INT],
        "device": [str],
        "precision": [StrOptions(set(PRECISIONS))],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "callbacks": [None, list, tuple],
    }
    _fitted_attributes = ("n_features_in_",)
    _nested_parameters = ()
    _transient_parameters = ("callbacks",)
    # rows per chunk in transform/predict_proba: memory stays bounded by the chunk; at
    # K = 150 and width 256 a chunk of event-model activations is 20 MB
    _inference_chunk = 128

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _REGISTRY[cls.__name__] = cls

    # -- fitting -----------------------------------------------------------------

    def _training_config(self):
        return TrainingConfig(**{field.name: getattr(self, field.name) for field in fields(TrainingConfig)})

    def _torch_seed(self):
        """One seed for everything torch draws in ``fit``, from ``random_state``."""
        return check_random_state(self.random_state).randint(np.iinfo(np.int32).max)

    def _fit_net(self, fitted, X, y=None, *, seed, prepare=None, groups=None):
        """Build the net for ``fitted``, train it on ``(X, y)`` and only then store the fitted state.

        ``prepare(net)`` runs on the initialised net before training (for
        example to load starting weights). ``groups`` (checked, one label
        per item of ``X``) makes early stopping hold out whole units. A
        failure in training, or an interruption (Ctrl-C), raises and leaves
        the estimator as it was before ``fit``.

        Inside an initialised process group of several processes every
        process trains the same model on its share of each global batch, and
        all of them end with the same fitted state.

        ``max_epochs=0`` (where the estimator allows it) builds the net with
        the initial weights that training would start from, and trains nothing.
        """
        settings = {name: getattr(self, name) for name in ("batch_size", "max_epochs", "lr", "weight_decay")}
        world, device, seed = join_world(resolve_device(self.device), seed, X, y, settings)
        net = self._build_net(fitted, device, seed)
        net.callbacks = [*net.callbacks, *user_callbacks(self.callbacks, net.callbacks)]
        if world is not None:
            join_net(net, world)
        if groups is not None and net.train_split is not None:
            net.train_split = TailSplit(self.validation_fraction, groups)
        name = type(self).__name__
        log = world is None or world.rank == 0
        if log:
            logger.info(
                "%s.fit: %d samples, at most %d epochs on %s%s",
                name,
                len(X),
                self.max_epochs,
                device,
                ", validating on whole units" if groups is not None and self.early_stopping else "",
            )
        start = time.perf_counter()
        try:
            with seeded_torch(seed, device):
                net.initialize()
                if prepare is not None:
                    prepare(net)
                if self.max_epochs:
                    net.partial_fit(X, y)
        finally:
            net.__dict__.pop("world_", None)
            release_freed_memory()
        n_epochs = completed_epochs(net)
        raise_if_interrupted(self, net, n_epochs)
        if log:
            logger.info("%s.fit: done, %d epoch(s) in %.1f s", name, n_epochs, time.perf_counter() - start)
        self._set_fitted({"n_epochs_": n_epochs, **fitted}, net)
        return self

    def _set_fitted(self, fitted, net):
        # one dict update, which no signal handler can split: all fitted attributes or none
        vars(self).update({**fitted, "net_": net})

    # -- inference ---------------------------------------------------------------

    def _validated_input(self, X):
        """``X`` checked against the fitted estimator (raises NotFittedError first when unfitted)."""
        check_is_fitted(self, "net_")
        return type(self)._check_input(self, X, reset=False)

    def _infer(self, array, what, forward=None):
        """The net's output for ``array`` in chunks, float32 ndarray; ValueError naming ``what`` if not finite.

        ``forward`` picks the module method to run (None: the module itself).
        """
        module = self.net_.module_
        output = infer_in_chunks(
            module, forward(module) if forward else module, array, self._inference_chunk, dtype=self.net_.autocast_dtype
        )
        return check_finite_output(output.numpy(), what)

    @property
    def history_(self):
        """skorch History of the fit: one row per epoch with its losses."""
        check_is_fitted(self, "net_")
        return self.net_.history

    # -- persistence hook (as skorch's save_params / load_params) -----------------

    def _get_persistent_state(self):
        """Fitted attributes, CPU weights and history: everything needed to rebuild the fitted net."""
        check_is_fitted(self, "net_")
        module = self.net_.module_
        return {
            "fitted": {name: getattr(self, name) for name in ("n_epochs_", *self._fitted_attributes)},
            "state_dict": {key: tensor.detach().cpu() for key, tensor in module.state_dict().items()},
            "history": list(self.net_.history),
            "device": str(next(module.parameters()).device),
        }

    def _set_persistent_state(self, state, device):
        """Rebuild the fitted net from :meth:`_get_persistent_state` output on ``device``, without training."""
        device = resolve_device(device)
        net = self._build_net(state["fitted"], device, 0)
        with seeded_torch(0, device):  # the random initial weights are overwritten just below
            net.initialize()
        net.module_.load_state_dict(state["state_dict"])
        net.history_ = History(state["history"])
        self._set_fitted(state["fitted"], net)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = self.random_state is None
        return tags


class WindowEncoderMixin:
    """What the estimators that train a Transformer encoder on windows share.

    The parameters of :data:`~hepa_sklearn._validation.ENCODER_CONSTRAINTS`
    (``d_model``, ``n_layers``, ``n_heads``, ``dropout``, ``norm``, most
    often ``patch_size``), their check, the
    :class:`~hepa_sklearn.nn.EncoderConfig` they make, and ``transform``
    through the net module's ``embed``.
    """

    _check_input = check_windows

    def _check_hyperparameters(self):
        """Validate the parameters; ValueError unless ``n_heads`` divides ``d_model``."""
        self._validate_params()
        check_heads(self.d_model, self.n_heads)

    def _network_norm(self):
        """The normalisation inside the network: ``norm``."""
        return self.norm

    def _encoder_config(self, n_channels, **settings):
        """The encoder configuration for ``n_channels`` channels; ``settings`` gives the other fields (``patch_size``...)."""
        return EncoderConfig(
            n_channels=n_channels,
            d_model=self.d_model,
            n_layers=self.n_layers,
            n_heads=self.n_heads,
            dropout=float(self.dropout),
            norm=self._network_norm(),
            **settings,
        )

    def transform(self, X):
        """Embed windows ``X`` (n_windows, n_channels, n_timepoints) with the fitted encoder; float32 rows."""
        return self._infer(self._validated_input(X), "transform", forward=lambda module: module.embed)


class SurfaceNetEstimator(SurvivalMixin, SurfaceScoreMixin, TorchEstimator):
    """A torch estimator whose net maps its input to K hazard logits: the surface, its loss and its outputs.

    Besides ``predict_proba`` and ``predict``, it has scikit-survival's
    prediction methods (``predict_survival_function``,
    ``predict_cumulative_hazard_function``) and the risk score
    ``predict_risk``, from :class:`~hepa_sklearn.survival.SurvivalMixin`.

    A subclass builds its net with :meth:`_surface_net` and may extend
    :meth:`_check_hyperparameters`, :meth:`_fitted_state` (fitted
    attributes read from the input) and :meth:`_prepare_net` (the
    initialised net before training).
    """

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        "K": [POSITIVE_INT],
        "hidden": [POSITIVE_INT],
        "loss": [StrOptions({"bce", "nll"})],
        "pos_weight": [StrOptions({"auto"}), POSITIVE_REAL],
    }
    _fitted_attributes = ("n_features_in_", "pos_weight_")
    _learns_causes = False  # True: one cumulative incidence per cause of y (n_causes_), else y of one cause only
    # elements of one (rows, K, width) activation of the horizon grid per inference chunk:
    # 2**20 (4 MB) keeps the chunk's working memory near 30 MB at K = 150 and width 256,
    # where chunks of 128 rows raised the peak RSS by 131 MB and ran no faster
    _grid_elements = 2**20

    @property
    def _inference_chunk(self):
        width = max(self.hidden, getattr(self, "n_features_in_", 0) or 0)
        return max(1, min(128, self._grid_elements // (self.K * width)))

    def _check_hyperparameters(self):
        """Validate the parameters (before any input is read)."""
        self._validate_params()

    def _surface_targets(self, y, n_samples):
        """Packed labels and known mask (n, 2, K) of ``y`` (with causes, see ``cause_targets``) and the fitted attributes they give."""
        packed, n_pos, n_neg = surface_targets(y, self.K, n_samples)
        pos_weight = n_neg / n_pos if self.pos_weight == "auto" else float(self.pos_weight)
        packed, n_causes = cause_targets(
            y, packed, self.K, type(self).__name__, learns=self._learns_causes, n_causes=getattr(self, "n_causes", None)
        )
        return packed, {"pos_weight_": pos_weight, **({"n_causes_": n_causes} if self._learns_causes else {})}

    def _fitted_state(self, X):
        """Fitted attributes besides ``n_features_in_`` and ``pos_weight_`` that the checked input ``X`` gives."""
        return {}

    def _prepare_net(self, net):
        """Called on the initialised net before training (for example to load starting weights)."""

    def _fit_surface(self, X, y, groups):
        """Check the parameters, ``X``, ``groups`` and ``y``, then train on them."""
        self._check_hyperparameters()
        X = type(self)._check_input(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        packed, from_targets = self._surface_targets(y, X.shape[0])
        fitted = {"n_features_in_": X.shape[1], **from_targets, **self._fitted_state(X)}
        return self._fit_net(fitted, X, packed, seed=self._torch_seed(), prepare=self._prepare_net, groups=groups)

    def _surface_net(self, module, fitted, device, **module_params):
        """The untrained net of ``module(**module_params)``, trained on the surface loss ``loss`` with ``pos_weight_``."""
        params = {f"module__{name}": value for name, value in module_params.items()}
        return make_net(
            HEPANet,
            module,
            SurfaceLoss,
            training=self._training_config(),
            params={**params, "criterion__pos_weight": fitted["pos_weight_"], "criterion__kind": self.loss},
            device=device,
        )

    def predict_proba(self, X):
        """Event probability surface, shape (n_samples, K): ``P[i, k-1]`` = P(event within k steps)."""
        logits = self._infer(self._validated_input(X), "predict_proba")
        logits = logits[:, 0] if logits.ndim == 3 else logits  # several causes: the any-event hazard comes first
        return event_surface(torch.from_numpy(logits)).numpy().astype(np.float64)

    def predict(self, X):
        """Expected time to event truncated at K, ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``."""
        return expected_time_to_event(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class EmbeddingSurfaceEstimator(SurfaceNetEstimator):
    """A surface estimator on embeddings (n_samples, n_features), such as a frozen encoder's."""

    _check_input = check_embeddings

    @fill_doc
    def fit(self, E, y, groups=None):
        """Train on embeddings ``E`` and survival labels ``y``.

        Parameters
        ----------
        E : array-like of shape (n_samples, n_features)
            Finite embeddings, one row per sample.
        y : structured ndarray with fields ``event`` and ``time``
            Time from each sample to its event, or to censoring.
        %(surface_fit_returns)s
        """
        return self._fit_surface(E, y, groups)


class WindowSurfaceEstimator(WindowSurfaceTags, SurfaceNetEstimator):
    """A surface estimator on windows (n_windows, n_channels, n_timepoints), NaN where missing."""

    _check_input = check_windows

    @fill_doc
    def fit(self, X, y, groups=None):
        """Train on windows ``X`` and survival labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.
        y : structured ndarray with fields ``event`` and ``time``
            Time from each window's end to its event, or to censoring.
        %(surface_fit_returns)s
        """
        return self._fit_surface(X, y, groups)
