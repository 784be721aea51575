"""TorchEstimator: the base of every torch-backed estimator of the package, and the fit they share.

``fit`` takes the same four steps for each of them: validate the parameters,
prepare the inputs (checked, with the fitted attributes they give and the
data the net trains on), build the network, train it (also without
training: ``initialize``, ``training_data``). Beside it: the training
parameters and their constraints, seeding, chunked inference, ``history_``
and the persistence hook.
"""

import logging
import time
from dataclasses import fields
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from skorch.history import History

from ._validation import (
    DEPRECATED,
    NON_NEGATIVE_REAL,
    OPEN_UNIT,
    POSITIVE_INT,
    POSITIVE_REAL,
    StrOptions,
    check_renamed_parameters,
    default_parameters,
    given,
)
from .training._callbacks import raise_if_interrupted, user_callbacks
from .training._distributed import join_net, join_world
from .training._net import TrainingConfig, completed_epochs
from .training._runtime import (
    PRECISIONS,
    check_finite_output,
    infer_in_chunks,
    release_freed_memory,
    resolve_device,
    seeded_torch,
)
from .training._sampling import TailSplit

__all__ = ["FitPlan", "TorchEstimator", "registered_estimator"]

logger = logging.getLogger("hepa_sklearn")

# every TorchEstimator subclass by class name: what persistence.load may rebuild
_REGISTRY = {}


class FitPlan(NamedTuple):
    """The prepared inputs of ``fit``: the fitted attributes they give and what the net trains on.

    ``data`` and ``targets`` are what the net's ``fit`` reads (``targets``
    None for the pretrainers), ``groups`` one unit label per item of
    ``data`` (or None) and ``initial_weights(net)`` what loads starting
    weights into the initialised net before training (or None).
    """

    fitted: dict
    data: object
    targets: object = None
    groups: object = None
    initial_weights: object = None


class Run(NamedTuple):
    """Where a built net trains: the process world (None for one process), the device and the seed."""

    world: object
    device: str
    seed: int


def registered_estimator(name):
    """The TorchEstimator subclass called ``name``; ValueError for any other name."""
    if name not in _REGISTRY:
        raise ValueError(f"unknown estimator class {name!r}; known: {sorted(_REGISTRY)}.")
    return _REGISTRY[name]


class TorchEstimator(BaseEstimator):
    """What every torch-backed estimator of the package shares; a subclass holds only what differs.

    :meth:`fit` validates the parameters, prepares the inputs, builds the
    network and trains it. A subclass declares

    - its constructor, which assigns each parameter to the attribute of the
      same name (``self.x = x``) and does nothing else, as scikit-learn's
      ``get_params``, ``set_params`` and ``clone`` require, ending with the
      shared training parameters (see
      :class:`~hepa_sklearn.training._net.TrainingConfig`);
    - ``_parameter_constraints``, extending this class's (``max_epochs >= 1``;
      the pretrainers also take 0), and ``_parameter_checks``: functions of
      the estimator that raise ``ValueError`` for what the constraints of
      single parameters cannot say (``n_heads`` dividing ``d_model``...);
    - ``_fitted_attributes``: the fitted attributes besides ``net_`` that
      describe the fitted model (persistence saves them);
    - ``_check_input(X, reset)``: the function validating its input;
    - ``_prepare_fit(X, y, groups)``: the input checked and prepared, as the
      :class:`FitPlan` that ``fit``, :meth:`initialize` and
      :meth:`training_data` share;
    - ``_build_net(fitted, device, seed)``: the untrained skorch net for the
      fitted attributes ``fitted`` (a dict), used by ``fit`` and by
      :func:`hepa_sklearn.persistence.load`;
    - ``fit``, documented for its input, which calls this class's;
    - ``_nested_parameters``: parameters holding a fitted estimator that the
      fitted net needs (saved inside the same file), and
      ``_transient_parameters``: estimator-valued parameters only ``fit``
      reads (not saved);
    - ``_renamed_parameters``: ``{former name: (current name, release that
      renamed it, release that removes it)}``. The former name stays in the
      constructor with the default ``"deprecated"`` (its constraints
      :func:`~hepa_sklearn._validation.renamed_from` its current name's);
      ``fit`` warns where it is given and raises where both names are, and
      the estimator reads the value through :meth:`_parameter`. Files and
      pickles written before the renaming load under the current names,
      and ``_former_spellings``, functions of a dict of parameters, read a
      deprecated value there as what it stands for now.
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
    _parameter_checks = ()
    _fitted_attributes = ("n_features_in_",)
    _nested_parameters = ()
    _transient_parameters = ("callbacks",)
    _renamed_parameters = {}
    _former_spellings = ()
    # rows per chunk in transform/predict_proba: memory stays bounded by the chunk; at
    # K = 150 and width 256 a chunk of event-model activations is 20 MB
    _inference_chunk = 128

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _REGISTRY[cls.__name__] = cls

    # -- fitting -----------------------------------------------------------------

    def fit(self, X, y=None, groups=None):
        """Validate the parameters, prepare the inputs, build the network, train it; return the estimator.

        Each subclass documents ``fit`` for its own input and calls this one.
        A failure in training, or an interruption (Ctrl-C), raises and leaves
        the estimator as it was before ``fit``.
        """
        self._check_parameters()
        plan = self._prepare_fit(X, y, groups)
        net, run = self._build(plan)
        return self._train(net, plan, run)

    def initialize(self, X, y=None, groups=None):
        """Fit without training: the fitted state that ``fit(X, y, groups)`` starts from.

        The parameters and the input are checked, and the net is built and
        initialised, exactly as ``fit`` does; then no epoch runs
        (``n_epochs_`` is 0) and the net keeps the initial weights that
        training would start from. For timing and profiling the training
        loop: ``net_`` can then train (``net_.partial_fit``) on
        :meth:`training_data`, and ``transform`` or ``predict_proba`` run
        on the initial weights.

        Parameters
        ----------
        X : array-like
            What ``fit`` takes: windows, or embeddings.
        y : structured ndarray or None, default=None
            The labels of ``fit`` (None for the pretrainers).
        groups : array-like or None, default=None
            As in ``fit``.

        Returns
        -------
        self : object
            The estimator, fitted with the initial weights.
        """
        self._check_parameters()
        plan = self._prepare_fit(X, y, groups)
        net, run = self._build(plan)
        return self._train(net, plan, run, epochs=False)

    def training_data(self, X, y=None, groups=None):
        """The data and targets that the net of ``fit(X, y, groups)`` trains on, after the checks of ``fit``.

        Parameters
        ----------
        X : array-like
            What ``fit`` takes: windows, or embeddings.
        y : structured ndarray or None, default=None
            The labels of ``fit`` (None for the pretrainers).
        groups : array-like or None, default=None
            As in ``fit``.

        Returns
        -------
        data : dataset or ndarray
            The first argument of the net's ``fit`` and ``get_dataset``:
            for the pretrainers a dataset of windows (each window
            ``cuts_per_window`` times for HEPA's), else the checked input.
        targets : ndarray or None
            Its second argument: the packed surface labels and their known
            mask, shape ``(n_samples, 2, K)``, or None for the pretrainers.
        """
        self._check_parameters()
        plan = self._prepare_fit(X, y, groups)
        return plan.data, plan.targets

    def _check_parameters(self):
        """The parameters checked: ``_parameter_constraints``, former names, then ``_parameter_checks``."""
        self._validate_params()
        check_renamed_parameters(self)
        for check in self._parameter_checks:
            check(self)

    def _parameter(self, name):
        """The value of parameter ``name``, or of its former name where that one was given."""
        for former, (current, *_) in self._renamed_parameters.items():
            if current == name and given(getattr(self, former)):
                return getattr(self, former)
        return getattr(self, name)

    @classmethod
    def _current_parameters(cls, params):
        """``params`` under the current names: a former name given is replaced by its current one.

        What :func:`hepa_sklearn.persistence.save` stores, and how the
        parameters of a file or pickle written before a renaming are read.
        """
        params = dict(params)
        for former, (current, *_) in cls._renamed_parameters.items():
            value = params.pop(former, DEPRECATED)
            if given(value):
                params[current] = value
        for spelling in cls._former_spellings:
            params = spelling(params)
        return params

    def __setstate__(self, state):
        # pickled before a parameter was renamed or added: each parameter under its current name, those the
        # pickle lacks at the value the estimator was fitted with (see persistence._rebuild_torch)
        names = [name for name in self._get_param_names() if name in state]
        current = self._current_parameters({name: state.pop(name) for name in names})
        earlier = getattr(self, "_parameters_before_stored", {})
        super().__setstate__({**state, **default_parameters(type(self)), **earlier, **current})

    def _training_config(self):
        config = {field.name: getattr(self, field.name) for field in fields(TrainingConfig)}
        return TrainingConfig(**{**config, "early_stopping": bool(self.early_stopping)})

    def _torch_seed(self):
        """One seed for everything torch draws in ``fit``, from ``random_state``."""
        return check_random_state(self.random_state).randint(np.iinfo(np.int32).max)

    def _build(self, plan):
        """The untrained net for ``plan``, with the user's callbacks, and the :class:`Run` it trains in.

        Inside an initialised process group of several processes every
        process trains the same model on its share of each global batch.
        ``plan.groups`` (one label per item of the data) makes early
        stopping hold out whole units.
        """
        settings = {name: getattr(self, name) for name in ("batch_size", "max_epochs", "lr", "weight_decay")}
        world, device, seed = join_world(
            resolve_device(self.device), self._torch_seed(), plan.data, plan.targets, settings
        )
        net = self._build_net(plan.fitted, device, seed)
        net.callbacks = [*net.callbacks, *user_callbacks(self.callbacks, net.callbacks)]
        if world is not None:
            join_net(net, world)
        if plan.groups is not None and net.train_split is not None:
            net.train_split = TailSplit(self.validation_fraction, plan.groups)
        return net, Run(world, device, seed)

    def _train(self, net, plan, run, *, epochs=True):
        """Initialise ``net``, train it on the plan's data, and only then store the fitted state.

        ``plan.initial_weights(net)`` runs on the initialised net before
        training. ``max_epochs=0`` (where the estimator allows it), or
        ``epochs=False``, keeps the initial weights that training would start
        from and trains nothing. A failure in training, or an interruption,
        raises and leaves the estimator as it was; every process of a group
        ends with the same fitted state.
        """
        name = type(self).__name__
        log = run.world is None or run.world.rank == 0
        if log:
            logger.info(
                "%s.fit: %d samples, at most %d epochs on %s%s",
                name,
                len(plan.data),
                self.max_epochs,
                run.device,
                ", validating on whole units" if plan.groups is not None and self.early_stopping else "",
            )
        start = time.perf_counter()
        try:
            with seeded_torch(run.seed, run.device):
                net.initialize()
                if plan.initial_weights is not None:
                    plan.initial_weights(net)
                if self.max_epochs and epochs:
                    net.partial_fit(plan.data, plan.targets)
        finally:
            net.__dict__.pop("world_", None)
            release_freed_memory()
        n_epochs = completed_epochs(net)
        raise_if_interrupted(self, net, n_epochs)
        if log:
            logger.info("%s.fit: done, %d epoch(s) in %.1f s", name, n_epochs, time.perf_counter() - start)
        self._set_fitted({"n_epochs_": n_epochs, **plan.fitted}, net)
        return self

    def _set_fitted(self, fitted, net):
        # one dict update, which no signal handler can split: all fitted attributes or none
        vars(self).update({**fitted, "net_": net})

    # -- inference ---------------------------------------------------------------

    def _validated_input(self, X):
        """``X`` checked against the fitted estimator (raises NotFittedError first when unfitted)."""
        check_is_fitted(self, "net_")
        return self._check_input(X, reset=False)

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
