"""
The paper's protocol on C-MAPSS FD001, step by step
===================================================

Pretrain on training engines, finetune, score held-out engines.

This is the job ``hepa protocol`` runs, written out step by step with the
package's public building blocks:

1. split the 100 run-to-failure engines by a seeded permutation into
   60 training, 10 validation and 30 test engines;
2. pretrain the encoder without labels on one window per training engine
   (its whole history, up to 512 cycles), drawing 40 (cut, Δt) pairs from
   each engine per epoch;
3. embed windows with at least 128 cycles of history (stride 4 for the
   training and validation engines, stride 1 for the test engines);
4. finetune the event predictor on the training embeddings for a fixed
   number of epochs;
5. report the horizon-averaged AUROC of the surface p(t, Δt), Δt = 1..150,
   on the validation and test engines.

Run ``python examples/cmapss_fd001.py`` for the full job (50 + 30 epochs, a
few minutes on a laptop CPU) or ``--pretrain-epochs 1 --finetune-epochs 1``
for a quick check that everything is wired up.
"""

import argparse
import time

import numpy as np

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.cmapss_protocol import split_units, unit_windows
from hepa_sklearn.datasets import load_cmapss
from hepa_sklearn.metrics import per_horizon_auroc

K = 150  # horizons 1..150 cycles, as in the paper's C-MAPSS experiments
CUTS_PER_ENGINE = 40  # (cut, Δt) pairs drawn from each training engine per epoch
REPORTED_HORIZONS = (1, 10, 50, 100, 150)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="unit split and training seed")
    parser.add_argument("--device", default="auto", help='"auto", "cpu" or "cuda"')
    return parser.parse_args()


def main():
    args = parse_args()

    # The long frame: one row per (engine, cycle), failure at each engine's last cycle.
    # Only the frame is used here, so a large stride keeps the bunch's own windows few.
    frame = load_cmapss("FD001", stride=512).frame
    split = split_units(frame["unit"].unique(), seed=args.seed)
    print(f"engines: {len(split.train)} train, {len(split.valid)} validation, {len(split.test)} test")

    # One window per training engine holding its whole history (FD001 engines
    # have at most 362 cycles, so a 512-cycle window never cuts one short).
    X_pretrain, _, _ = unit_windows(frame, split.train, stride=512, min_history=1)
    X_train, y_train, _ = unit_windows(frame, split.train, stride=4)
    X_valid, y_valid, _ = unit_windows(frame, split.valid, stride=4)
    X_test, y_test, _ = unit_windows(frame, split.test, stride=1)
    print(
        f"windows: {len(X_pretrain)} pretraining, {len(X_train)} finetuning, "
        f"{len(X_valid)} validation, {len(X_test)} test, each {X_train.shape[1:]}"
    )

    start = time.perf_counter()
    pretrainer = HEPAPretrainer(
        norm="global",  # keep the absolute degradation level that per-window RevIN would erase
        cuts_per_window=CUTS_PER_ENGINE,
        max_epochs=args.pretrain_epochs,
        early_stopping=False,
        device=args.device,
        random_state=args.seed,
    ).fit(X_pretrain)
    print(
        f"pretraining: {args.pretrain_epochs} epochs in {time.perf_counter() - start:.1f} s, "
        f"final loss {pretrainer.history_[-1, 'train_loss']:.4f}"
    )

    start = time.perf_counter()
    E_train, E_valid, E_test = (pretrainer.transform(X) for X in (X_train, X_valid, X_test))
    print(f"embedding: {E_train.shape[1]} features per window in {time.perf_counter() - start:.1f} s")

    start = time.perf_counter()
    predictor = HEPAEventPredictor(
        K=K,
        max_epochs=args.finetune_epochs,
        early_stopping=False,  # a fixed number of epochs, as in the reference protocol
        device=args.device,
        random_state=args.seed,
    ).fit(E_train, y_train)
    print(f"finetuning: {args.finetune_epochs} epochs in {time.perf_counter() - start:.1f} s")

    surface = predictor.predict_proba(E_test)  # (n_test_windows, K), non-decreasing along Δt
    by_horizon = per_horizon_auroc(y_test, surface, horizons=REPORTED_HORIZONS)
    print(
        "test AUROC by horizon: "
        + ", ".join(
            f"Δt={h}: {score:.3f}"
            for h, score in zip(REPORTED_HORIZONS, by_horizon, strict=True)
            if not np.isnan(score)
        )
    )
    print(f"validation h-AUROC: {h_auroc(y_valid, predictor.predict_proba(E_valid)):.4f}")
    print(f"held-out h-AUROC: {h_auroc(y_test, surface):.4f}")


if __name__ == "__main__":
    main()
