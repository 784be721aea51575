"""The paper's reference C-MAPSS protocol, which ``hepa protocol`` runs: unit split, windows of each part, label
subsets, the protocol's estimators, one end-to-end run."""

import math
import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .datasets import _cmapss, load_cmapss
from .datasets._cmapss import CMAPSS_SENSORS, N_REGIMES, SETTINGS, cmapss_windows
from .event_predictor import HEPAEventPredictor
from .metrics import _summary, h_auroc
from .preprocessing import RegimeNormalizer
from .pretrainer import HEPAPretrainer
from .training._runtime import release_freed_memory

__all__ = [
    "CONTEXT_LENGTH",
    "CUTS_PER_UNIT",
    "K",
    "MIN_HISTORY",
    "RUL_CAP",
    "TEST_STRIDE",
    "TRAIN_STRIDE",
    "Split",
    "SubsetSplit",
    "label_units",
    "protocol_event_predictor",
    "protocol_pretrainer",
    "run_cmapss",
    "split_units",
    "unit_windows",
]

# The protocol's constants (the authors' reference implementation), which its functions and estimators use.

#: Steps per window: contexts of up to 512 cycles.
CONTEXT_LENGTH = _cmapss.CONTEXT_LENGTH
#: Least cycles of a unit's history before a training, validation or test window's end.
MIN_HISTORY = _cmapss.MIN_HISTORY
#: Cycles between consecutive windows of the training and validation units.
TRAIN_STRIDE = _cmapss.TRAIN_STRIDE
#: Cycles between consecutive windows of the test units.
TEST_STRIDE = _cmapss.TEST_STRIDE
#: Horizons ``1..K`` of the protocol's surfaces.
K = _cmapss.K
#: (cut, Δt) pairs drawn per training unit and pretraining epoch (the pretrainer's ``cuts_per_window``).
CUTS_PER_UNIT = _cmapss.CUTS_PER_UNIT
#: Cap of the remaining useful life, in cycles (the paper's preprocessing, after STAR): the default
#: ``cap`` of :func:`~hepa_sklearn.metrics.rul_rmse` and :func:`~hepa_sklearn.metrics.surface_metrics`.
RUL_CAP = _summary.RUL_CAP


@dataclass
class Split:
    train: np.ndarray
    valid: np.ndarray
    test: np.ndarray


def split_units(units, seed, fractions=(0.6, 0.1, 0.3)):
    """Split unit ids by a seeded permutation into train/valid/test (60/10/30 by default)."""
    units = np.sort(np.asarray(units))
    order = np.random.default_rng(seed).permutation(units)
    n_train = int(round(fractions[0] * len(units)))
    n_valid = int(round(fractions[1] * len(units)))
    return Split(order[:n_train], order[n_train : n_train + n_valid], order[n_train + n_valid :])


def unit_windows(frame, units, *, stride, min_history=MIN_HISTORY, feature_cols=CMAPSS_SENSORS):
    """Windows (X, y, groups) of ``feature_cols`` for the given units, in the order of ``units``."""
    rank = {unit: i for i, unit in enumerate(units)}
    part = frame[frame["unit"].isin(rank)].copy()
    part["_order"] = part["unit"].map(rank)
    part = part.sort_values(["_order", "cycle"], kind="stable")
    return cmapss_windows(
        part, context_length=CONTEXT_LENGTH, stride=stride, min_history=min_history, feature_cols=feature_cols
    )


def label_units(train_units, fraction):
    """The first ``ceil(fraction * n)`` units of the seeded training list, at least one."""
    n = max(1, math.ceil(fraction * len(train_units) - 1e-9))
    return train_units[:n]


class SubsetSplit:
    """Windows of one subset under one seed's unit split, with or without the setting channels.

    ``X_pre`` holds one window per training unit (its whole history, up to
    512 cycles) for pretraining and ``X_pre_valid`` the same for the
    validation units (held-out pretraining loss); ``X_train``/``X_valid`` the stride-4
    windows of the training and validation units; ``X_test`` the stride-1
    windows of the test units; ``nasa`` the window ending at each unit's
    last cycle in NASA's truncated test file, with its true RUL. With
    ``regime`` the three setting channels are kept and a
    :class:`RegimeNormalizer` fitted on the pretraining windows (training
    units only) normalises every part. ``frame`` replaces the training file
    (for tests of the protocol).

    With ``defer_windows=True`` only the pretraining windows are built;
    :meth:`build_windows` adds the stride-4 and test windows when they are
    needed and :meth:`drop_windows` releases them once embedded, so that
    a pipeline holds each part only while it uses it (the windows are the
    same either way).
    """

    _PARTS = ("train", "valid", "test")

    def __init__(self, subset, seed, *, regime, frame=None, defer_windows=False):
        self.subset, self.seed, self.regime = subset, seed, regime
        self.columns = (*SETTINGS, *CMAPSS_SENSORS) if regime else CMAPSS_SENSORS
        if frame is None:
            frame = load_cmapss(subset, stride=CONTEXT_LENGTH).frame
        self._frame = frame
        self.split = split_units(frame["unit"].unique(), seed)
        self.X_pre, _, _ = self.unit_windows(self.split.train, stride=CONTEXT_LENGTH, min_history=1)
        self.X_pre_valid, _, _ = self.unit_windows(self.split.valid, stride=CONTEXT_LENGTH, min_history=1)
        self.regime_normalizer = None
        self.n_windows = {}  # windows per part built so far
        if regime:
            self.regime_normalizer = RegimeNormalizer(
                setting_channels=[0, 1, 2], n_regimes=N_REGIMES[subset], random_state=seed
            ).fit(self.X_pre)
            self.X_pre, self.X_pre_valid = map(self.regime_normalizer.transform, (self.X_pre, self.X_pre_valid))
        if not defer_windows:
            self.build_windows()

    def _check_parts(self, parts):
        unknown = [part for part in parts if part not in self._PARTS]
        if unknown:
            raise ValueError(f"unknown parts {unknown}; choose from {list(self._PARTS)}.")

    def unit_windows(self, units, *, stride, min_history=MIN_HISTORY):
        """Windows (X, y, groups) of ``units`` from this split's frame and columns, not regime-normalised.

        As :func:`unit_windows` with the subset's training frame and the
        channels of this split (the setting channels too with ``regime``).
        """
        return unit_windows(self._frame, units, stride=stride, min_history=min_history, feature_cols=self.columns)

    def build_windows(self, *parts):
        """Build the windows and labels of ``parts`` (default all of ``"train"``, ``"valid"``, ``"test"``).

        ``"train"`` sets ``X_train``, ``y_train`` and ``g_train``; ``"valid"``
        ``X_valid`` and ``y_valid``; ``"test"`` ``X_test`` and ``y_test``.
        """
        self._check_parts(parts)
        for part in parts or self._PARTS:
            stride = TEST_STRIDE if part == "test" else TRAIN_STRIDE
            X, y, groups = self.unit_windows(getattr(self.split, part), stride=stride)
            if self.regime_normalizer is not None:
                X = self.regime_normalizer.transform(X)
            setattr(self, f"X_{part}", X)
            setattr(self, f"y_{part}", y)
            if part == "train":
                self.g_train = groups
            self.n_windows[part] = len(X)
        return self

    def drop_windows(self, *parts):
        """Release the windows ``X_<part>`` of ``parts`` (default all; set to None); labels and groups stay."""
        self._check_parts(parts)
        for part in parts or self._PARTS:
            setattr(self, f"X_{part}", None)
        release_freed_memory()
        return self

    @cached_property
    def nasa(self):
        """``(X, rul)`` of NASA's truncated test file, read on first use (the protocol never needs it)."""
        test = load_cmapss(self.subset, split="test", stride=CONTEXT_LENGTH)
        last = test.frame.groupby("unit").tail(1)
        X, _, units = cmapss_windows(
            test.frame, context_length=CONTEXT_LENGTH, stride=10**6, min_history=1, feature_cols=self.columns
        )
        rul = dict(zip(last["unit"], last["rul"], strict=True))
        if self.regime_normalizer is not None:
            X = self.regime_normalizer.transform(X)
        return X, np.array([rul[u] for u in units], dtype=float)

    def train_mask(self, fraction):
        """Which training windows belong to the labelled units of ``fraction``."""
        return np.isin(self.g_train, label_units(self.split.train, fraction))


def protocol_pretrainer(pretrain_epochs, *, device, seed, verbose=0, **params):
    """The protocol's pretrainer: global z-score, 40 cuts per unit and epoch, fixed epochs; ``params`` override.

    The normalisation is ``"global"`` (the degradation level is what the
    event depends on, and per-window RevIN removes it), without regimes or
    the window level beside the embedding (the paper's input), and early
    stopping is off, unless ``params`` says otherwise.
    """
    params = {
        "norm": "global",
        "regimes": None,
        "window_level": False,
        "early_stopping": False,
        "cuts_per_window": CUTS_PER_UNIT,
        **params,
    }
    return HEPAPretrainer(max_epochs=pretrain_epochs, device=device, random_state=seed, verbose=verbose, **params)


def protocol_event_predictor(finetune_epochs, *, device, seed, verbose=0, **params):
    """The protocol's event predictor: K = 150 and fixed epochs (no early stopping); ``params`` override.

    Its head evaluates every horizon (``horizon_knots=None``), as the
    paper's does, unless ``params`` says otherwise.
    """
    params = {"horizon_knots": None, **params}
    return HEPAEventPredictor(
        K=K,
        max_epochs=finetune_epochs,
        early_stopping=False,
        device=device,
        random_state=seed,
        verbose=verbose,
        **params,
    )


def run_cmapss(
    subset="FD001",
    *,
    seed=0,
    pretrain_epochs=50,
    finetune_epochs=30,
    device="auto",
    verbose=0,
    log=print,
    pretrainer=None,
    cuts_per_unit=CUTS_PER_UNIT,
    horizon_knots=None,
):
    """Pretrain on the training units, finetune the event predictor, score the held-out units.

    Pretraining sees one window per training unit (its whole history, up to
    512 steps) and draws 40 (cut, Δt) pairs from it per epoch; finetuning
    uses stride-4 windows with >= 128 steps of history and a fixed number of
    epochs (no early stopping), as in the reference protocol.

    Two options make the run cheaper by changing what it computes; both are
    off by default, so that the run is the paper's. ``cuts_per_unit`` draws
    fewer (cut, Δt) pairs per unit and epoch, and so takes fewer
    pretraining steps. ``horizon_knots`` evaluates the event head at that
    many horizons and interpolates the hazards between them
    (:class:`~hepa_sklearn.HEPAEventPredictor`'s ``horizon_knots``) instead
    of at all 150.

    ``pretrainer``, if given, is the unfitted pretrainer fitted in place of
    :func:`protocol_pretrainer`'s (another implementation of the same
    estimator, to time it on the same protocol); the caller sets its epochs
    and cuts per unit.

    Returns
    -------
    result : dict
        ``h_auroc`` on the test units, ``valid_h_auroc`` on the validation
        units, window counts and wall times per stage.
    """
    # both estimators are built, and their parameters checked, before the data are read and any stage runs, so
    # that a bad option (horizon_knots=1, say) is refused at once rather than after pretraining and embedding
    if pretrainer is None:
        pretrainer = protocol_pretrainer(
            pretrain_epochs, device=device, seed=seed, verbose=verbose, cuts_per_window=cuts_per_unit
        )
    predictor = protocol_event_predictor(
        finetune_epochs, device=device, seed=seed, verbose=verbose, horizon_knots=horizon_knots
    )
    for estimator in (pretrainer, predictor):
        if hasattr(estimator, "_validate_params"):  # a given pretrainer may be another implementation
            estimator._validate_params()
    # each part's windows are held only while needed: pretraining reads X_pre alone, finetuning embeddings
    data = SubsetSplit(subset, seed, regime=False, defer_windows=True)
    log(
        f"{subset} seed {seed}: units train/valid/test {len(data.split.train)}/{len(data.split.valid)}/"
        f"{len(data.split.test)}"
    )

    timings = {}
    start = time.perf_counter()
    pretrainer.fit(data.X_pre)
    timings["pretrain_s"] = time.perf_counter() - start
    final = f", final loss {pretrainer.history_[-1, 'train_loss']:.4f}" if len(pretrainer.history_) else ""
    log(f"pretrained {pretrainer.n_epochs_} epochs in {timings['pretrain_s']:.1f} s{final}")

    embed_s, embeddings = 0.0, {}
    for part in SubsetSplit._PARTS:  # one part's windows at a time
        data.build_windows(part)
        start = time.perf_counter()
        embeddings[part] = pretrainer.transform(getattr(data, f"X_{part}"))
        embed_s += time.perf_counter() - start
        data.drop_windows(part)
    E_train, E_valid, E_test = embeddings["train"], embeddings["valid"], embeddings["test"]
    timings["embed_s"] = embed_s
    log(f"embedded windows finetune {data.n_windows['train']}, test {data.n_windows['test']}")

    start = time.perf_counter()
    predictor.fit(E_train, data.y_train)
    timings["finetune_s"] = time.perf_counter() - start

    start = time.perf_counter()
    surface = predictor.predict_proba(E_test)
    timings["predict_s"] = time.perf_counter() - start
    result = {
        "subset": subset,
        "seed": seed,
        "pretrain_epochs": pretrain_epochs,
        "finetune_epochs": finetune_epochs,
        "n_pretrain_windows": len(data.X_pre),
        "cuts_per_window": pretrainer.cuts_per_window,
        "horizon_knots": horizon_knots,
        "n_finetune_windows": data.n_windows["train"],
        "n_test_windows": data.n_windows["test"],
        "n_embedded_windows": sum(data.n_windows.values()),
        "valid_h_auroc": h_auroc(data.y_valid, predictor.predict_proba(E_valid)),
        "h_auroc": h_auroc(data.y_test, surface),
        **timings,
    }
    result["total_s"] = sum(timings.values())
    return result
