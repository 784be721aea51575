"""The reference C-MAPSS protocol: unit split, windows, pretraining, pred-FT, held-out h-AUROC."""

import time
from dataclasses import dataclass

import numpy as np

from .datasets import load_cmapss
from .datasets._cmapss import CMAPSS_SENSORS, cmapss_windows
from .event_predictor import HEPAEventPredictor
from .metrics import h_auroc
from .pretrainer import HEPAPretrainer

# PAPER_NOTES §5: context up to 512 steps, windows with >= 128 steps of history,
# stride 4 for train/val and 1 for test, K = 150, 40 cuts per unit per epoch
CONTEXT_LENGTH = 512
MIN_HISTORY = 128
TRAIN_STRIDE = 4
TEST_STRIDE = 1
K = 150
CUTS_PER_UNIT = 40


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
    return cmapss_windows(part, context_length=CONTEXT_LENGTH, stride=stride, min_history=min_history,
                          feature_cols=feature_cols)


def run_cmapss(subset="FD001", *, seed=0, pretrain_epochs=50, finetune_epochs=30, device="auto",
               verbose=0, log=print):
    """Pretrain on the training units, finetune the event predictor, score the held-out units.

    Pretraining sees one window per training unit (its whole history, up to
    512 steps) and draws 40 (cut, Δt) pairs from it per epoch; finetuning
    uses stride-4 windows with >= 128 steps of history and a fixed number of
    epochs (no early stopping), as in the reference protocol.

    Returns
    -------
    result : dict
        ``h_auroc`` on the test units, ``valid_h_auroc`` on the validation
        units, window counts and wall times per stage.
    """
    frame = load_cmapss(subset, stride=CONTEXT_LENGTH).frame
    split = split_units(frame["unit"].unique(), seed)
    X_pre, _, _ = unit_windows(frame, split.train, stride=CONTEXT_LENGTH, min_history=1)
    X_train, y_train, _ = unit_windows(frame, split.train, stride=TRAIN_STRIDE)
    X_valid, y_valid, _ = unit_windows(frame, split.valid, stride=TRAIN_STRIDE)
    X_test, y_test, _ = unit_windows(frame, split.test, stride=TEST_STRIDE)
    log(f"{subset} seed {seed}: units train/valid/test {len(split.train)}/{len(split.valid)}/"
        f"{len(split.test)}, windows finetune {len(X_train)}, test {len(X_test)}")

    timings = {}
    start = time.perf_counter()
    pretrainer = HEPAPretrainer(
        norm="global",
        max_epochs=pretrain_epochs,
        cuts_per_window=CUTS_PER_UNIT,
        early_stopping=False,
        device=device,
        random_state=seed,
        verbose=verbose,
    ).fit(X_pre)
    timings["pretrain_s"] = time.perf_counter() - start
    log(f"pretrained {pretrain_epochs} epochs in {timings['pretrain_s']:.1f} s, "
        f"final loss {pretrainer.history_[-1, 'train_loss']:.4f}")

    start = time.perf_counter()
    E_train, E_valid, E_test = (pretrainer.transform(X) for X in (X_train, X_valid, X_test))
    timings["embed_s"] = time.perf_counter() - start

    start = time.perf_counter()
    predictor = HEPAEventPredictor(
        K=K, max_epochs=finetune_epochs, early_stopping=False, device=device, random_state=seed,
        verbose=verbose,
    ).fit(E_train, y_train)
    timings["finetune_s"] = time.perf_counter() - start

    start = time.perf_counter()
    surface = predictor.predict_proba(E_test)
    timings["predict_s"] = time.perf_counter() - start
    result = {
        "subset": subset,
        "seed": seed,
        "pretrain_epochs": pretrain_epochs,
        "finetune_epochs": finetune_epochs,
        "n_pretrain_windows": len(X_pre),
        "cuts_per_window": CUTS_PER_UNIT,
        "n_finetune_windows": len(X_train),
        "n_test_windows": len(X_test),
        "n_embedded_windows": len(X_train) + len(X_valid) + len(X_test),
        "valid_h_auroc": h_auroc(y_valid, predictor.predict_proba(E_valid)),
        "h_auroc": h_auroc(y_test, surface),
        **timings,
    }
    result["total_s"] = sum(timings.values())
    return result
