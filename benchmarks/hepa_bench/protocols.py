"""The estimators the benchmark protocols build: the C-MAPSS pretrainer in either batch layout, the plain default
pipeline, fitted-state helpers; one C-MAPSS protocol run in either layout."""

import copy

import numpy as np
import torch

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.cmapss_protocol import CUTS_PER_UNIT, run_cmapss
from hepa_sklearn.cmapss_protocol import protocol_pretrainer as library_protocol_pretrainer
from hepa_sklearn.preprocessing import window_level

__all__ = [
    "LAYOUTS",
    "PAPER_OPTIONS",
    "PINNED_PREDICTOR",
    "PINNED_PRETRAINER",
    "default_pipeline",
    "kept_epoch",
    "multi_horizon_probe",
    "plain_pipeline",
    "predictor_init",
    "protocol_pretrainer",
    "run_protocol",
    "SpreadLevelPretrainer",
    "TrendLevelPretrainer",
    "with_state",
]

# the batch layouts: the published C-MAPSS cells were computed with "padded"
LAYOUTS = ("padded", "packed")
# the protocol's speed options (hepa_sklearn.cmapss_protocol.run_cmapss) at the paper's values
PAPER_OPTIONS = {"cuts_per_unit": CUTS_PER_UNIT, "horizon_knots": None}


def protocol_pretrainer(pretrain_epochs, *, device, seed, layout="padded", verbose=0, **params):
    """The C-MAPSS protocol's pretrainer (:func:`hepa_sklearn.cmapss_protocol.protocol_pretrainer`) in batch ``layout``.

    ``"padded"`` (the default here) is the layout of the published C-MAPSS
    records, :class:`~hepa_bench.padded.PaddedHEPAPretrainer`; ``"packed"``
    is the library's. ``params`` override the protocol's parameters.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown batch layout {layout!r}; choose from {list(LAYOUTS)}.")
    template = library_protocol_pretrainer(pretrain_epochs, device=device, seed=seed, verbose=verbose, **params)
    if layout == "packed":
        return template
    from .padded import PaddedHEPAPretrainer  # the torch pieces of the padded layout, loaded when used

    return PaddedHEPAPretrainer(**template.get_params())


def run_protocol(
    subset="FD001",
    *,
    layout="padded",
    seed=0,
    pretrain_epochs=50,
    finetune_epochs=30,
    device="auto",
    log=print,
    cuts_per_unit=PAPER_OPTIONS["cuts_per_unit"],
    horizon_knots=PAPER_OPTIONS["horizon_knots"],
):
    """One end-to-end run of the C-MAPSS protocol (:func:`hepa_sklearn.cmapss_protocol.run_cmapss`) in batch ``layout``.

    ``"packed"`` is the library's run itself; ``"padded"`` fits the
    padded-layout pretrainer of :func:`protocol_pretrainer` in its place.
    ``cuts_per_unit`` and ``horizon_knots`` are the run's speed options
    (the paper's values by default). The result also names the ``batch_layout``.
    """
    pretrainer = None
    if layout != "packed":
        pretrainer = protocol_pretrainer(
            pretrain_epochs, device=device, seed=seed, layout=layout, cuts_per_window=cuts_per_unit
        )
    result = run_cmapss(
        subset,
        seed=seed,
        pretrain_epochs=pretrain_epochs,
        finetune_epochs=finetune_epochs,
        device=device,
        log=log,
        pretrainer=pretrainer,
        cuts_per_unit=cuts_per_unit,
        horizon_knots=horizon_knots,
    )
    return {**result, "batch_layout": layout}


# The estimators' defaults that the records of hepa-default and its candidates were made with (release
# 0.1.0; its norm="revin" is regimes=None, window_level=False today): the plain pipeline of those methods sets
# them explicitly, so that a change of the library's defaults leaves the records reproducible (a test keeps
# them equal to the library's while they are).
PINNED_PRETRAINER = dict(
    d_model=256,
    n_layers=2,
    n_heads=4,
    patch_size=16,
    dropout=0.1,
    tokens="patch",
    norm="revin",
    regimes=None,
    window_level=False,
    K=150,
    regularizer_weight=0.1,
    regularizer="sigreg",
    target_weights="shared",
    cuts_per_window=1,
    init_from=None,  # from scratch, as every release before 0.3.0 (which added init_from)
    max_epochs=100,
    batch_size=64,
    lr=3e-4,
    weight_decay=1e-2,
    early_stopping=True,
    validation_metric="loss",
    validation_fraction=0.1,
    n_iter_no_change=10,
    precision="auto",
)
PINNED_PREDICTOR = dict(
    head="mlp",
    horizon_knots=None,  # every horizon, as before 0.3.0
    hidden=256,
    loss="bce",
    pos_weight="auto",
    init_from=None,
    n_causes=None,
    max_epochs=50,
    batch_size=64,
    lr=1e-3,
    weight_decay=1e-2,
    early_stopping=True,
    validation_fraction=0.1,
    n_iter_no_change=10,
    precision="auto",
)


class TrendLevelPretrainer(HEPAPretrainer):
    """HEPAPretrainer whose window level (``window_level=True``) is each channel's mean and slope over its last 10, 30,
    100 steps and the window."""

    def level_features(self, X):
        return window_level(X, spans=(10, 30, 100, None), spread=False, slope=True)


class SpreadLevelPretrainer(HEPAPretrainer):
    """HEPAPretrainer whose window level (``window_level=True``) is each channel's mean and standard deviation over
    the window and over its last 30 steps: the window level's first form, before commit d68869a kept the two means
    alone."""

    def level_features(self, X):
        return window_level(X, spans=(None, 30), spread=True)


def default_pipeline(K, *, seed, device="auto", pretrainer=HEPAPretrainer, predictor=None, **pretrainer_params):
    """What a user fits first: ``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K))``, unfitted.

    Every other parameter is the pinned default of :data:`PINNED_PRETRAINER`
    and :data:`PINNED_PREDICTOR`; only ``random_state`` and ``device`` are
    set, so that a cell is reproducible. ``pretrainer_params`` change the
    pretrainer's, ``pretrainer`` is its class and ``predictor`` a dict of the
    predictor's parameters to change (candidate defaults are benchmarked
    this way).
    """
    from sklearn.pipeline import make_pipeline

    return make_pipeline(
        pretrainer(**{**PINNED_PRETRAINER, "random_state": seed, "device": device, **pretrainer_params}),
        HEPAEventPredictor(**{**PINNED_PREDICTOR, **(predictor or {})}, K=K, random_state=seed, device=device),
    )


def kept_epoch(estimator):
    """The epoch (from 1) whose weights a fitted ``estimator`` holds: its early stopping's best, else the last."""
    stopping = dict(estimator.net_.callbacks_).get("early_stopping")
    if stopping is None or estimator.n_epochs_ == 0:  # an untrained encoder (max_epochs=0) keeps epoch 0
        return estimator.n_epochs_
    return int(stopping.best_epoch_)


def with_state(pretrainer, state):
    """A copy of the fitted ``pretrainer`` whose module holds the weights ``state``."""
    snapshot = copy.deepcopy(pretrainer)
    snapshot.net_.module_.load_state_dict(state)
    return snapshot


def plain_pipeline(entry, data, mask, *, epochs, device, seed, encoder=None, **pretrainer_params):
    """What a user fits first: ``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K))`` with every other default.

    Fitted on the cell's labelled training windows alone (the pretrainer
    sees those windows, not the protocol's pretraining set), with the
    estimators' own early stopping on the last tenth of them; only
    ``random_state`` (and the device) is set. The validation windows are
    not used. ``info`` records the epochs each step ran and the pretraining
    epoch whose weights were kept.
    """
    pipe = default_pipeline(entry.K, seed=seed, device=device, **pretrainer_params)
    pipe.fit(data.X_train[mask], data.y_train[mask])
    return pipe, {
        "pretrain_epochs_run": pipe[0].n_epochs_,
        "pretrain_epoch_kept": kept_epoch(pipe[0]),
        "finetune_epochs_run": pipe[-1].n_epochs_,
    }


def predictor_init(entry, data, mask, *, epochs, device, seed, encoder, **params):
    """The event head started from the fitted pretrainer's own predictor (``init_from``), on its frozen embeddings.

    The paper's appendix compares this start with a random one (``hepa``) and
    finds them within ±0.003. The head is fitted and stopped as the entry's
    protocol says, like ``hepa``'s.
    """
    head = entry.make_event_predictor(epochs, device=device, seed=seed, init_from=encoder, **params)
    head = entry.fit_head(
        head, encoder.transform(data.X_train[mask]), data.y_train[mask], encoder.transform(data.X_valid), data.y_valid
    )
    return _Surface(encoder, head), {"finetune_epochs_run": head.n_epochs_}


class _Surface:
    """``predict_proba(X)``: a fitted encoder's embedding, then a fitted head's surface."""

    def __init__(self, encoder, head):
        self.encoder, self.head = encoder, head

    def predict_proba(self, X):
        return self.head.predict_proba(self.encoder.transform(X))


# the frozen multi-horizon probe reads the predictor at this many horizons, evenly spaced up to its K
PROBE_HORIZONS = 16


class PredictorFeatures:
    """The frozen pretrainer's predictions ``[ĥ(Δt_1); ...; ĥ(Δt_16)]`` of each window, concatenated."""

    def __init__(self, pretrainer):
        self.pretrainer = pretrainer
        self.horizons = torch.arange(1, PROBE_HORIZONS + 1) * (pretrainer.K / PROBE_HORIZONS)

    def predictions(self, X):
        """(n_windows, PROBE_HORIZONS, d_model) float32."""
        predictor = self.pretrainer.predictor_
        parameter = next(predictor.parameters())
        E = torch.as_tensor(self.pretrainer.transform(X), dtype=parameter.dtype, device=parameter.device)
        with torch.no_grad():
            return predictor.grid(E, self.horizons.to(parameter.device)).float().cpu().numpy()

    def transform(self, X):
        return self.predictions(X).reshape(len(X), -1)

    @staticmethod
    def cross_horizon_cosine(outputs):
        """The mean cosine similarity of a window's predictions ``outputs`` (:meth:`predictions`) at two horizons."""
        unit = outputs / np.maximum(np.linalg.norm(outputs, axis=-1, keepdims=True), 1e-12)
        similarity = unit @ unit.transpose(0, 2, 1)  # (n, 16, 16)
        off_diagonal = ~np.eye(PROBE_HORIZONS, dtype=bool)
        return float(similarity[:, off_diagonal].mean())


def multi_horizon_probe(entry, data, mask, *, epochs, device, seed, encoder, **params):
    """A linear probe on :class:`PredictorFeatures` of the frozen pretrainer: the paper's frozen multi-horizon probe.

    ``info`` records the predictions' mean cross-horizon cosine similarity on
    the validation windows (the paper: above 0.98 on its data).
    """
    features = PredictorFeatures(encoder)
    head = entry.make_event_predictor(epochs, device=device, seed=seed, head="linear", **params)
    valid = features.predictions(data.X_valid)  # read once: the head's validation windows and the similarity
    head = entry.fit_head(
        head, features.transform(data.X_train[mask]), data.y_train[mask], valid.reshape(len(valid), -1), data.y_valid
    )
    return _Surface(features, head), {
        "finetune_epochs_run": head.n_epochs_,
        "cross_horizon_cosine": features.cross_horizon_cosine(valid),
    }
