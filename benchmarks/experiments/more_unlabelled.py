"""Does JEPA pretraining pay once it sees more unlabelled engines than the labelled subset holds?

The paper's premise is abundant unlabelled data. The reference protocol
pretrains on one window per training unit of the subset (60 engines of
FD001), and on that data pretraining does not beat the encoder's initial
weights (user guide, "Does pretraining pay?"). This script tests whether
the amount of unlabelled data is what is missing: it pretrains the
protocol's encoder on

- ``own``: the 60 FD001 training engines (the protocol);
- ``own+FD003``: the same windows plus every engine of FD003's training
  file (100 engines, another fleet at the same operating condition with the
  same 14 sensors; none of them is an FD001 engine, so no FD001 test unit
  is seen), 2.7 times the unlabelled engines;

keeping the weights at epochs 0, 1 and 8 and the last, and finetunes the
protocol's event predictor on FD001's labelled training windows for each.
Windows with fewer than ``patch_size`` observed steps (the tail of FD003's
one engine longer than the context) are left out. It prints one JSON line
per fit with validation and test h-AUROC; only the validation figures may
choose.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/more_unlabelled.py --seed 0
"""

import argparse
import json

import numpy as np
import torch
from hepa_bench.protocols import with_state
from hepa_bench.snapshots import pretrain_with_snapshots

from hepa_sklearn.datasets import load_cmapss
from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.protocol import CONTEXT_LENGTH, SubsetSplit, protocol_event_predictor, unit_windows

EPOCHS = (0, 1, 8)
PRETRAIN_EPOCHS = 50
FINETUNE_EPOCHS = 30
MIN_OBSERVED = 17  # more than one patch of 16 steps


def fleet_windows(subset, columns):
    """One window per engine of ``subset``'s training file, at most 512 cycles, of ``columns``."""
    frame = load_cmapss(subset, stride=CONTEXT_LENGTH).frame
    X, _, _ = unit_windows(
        frame, np.sort(frame["unit"].unique()), stride=CONTEXT_LENGTH, min_history=1, feature_cols=columns
    )
    observed = (~np.isnan(X).all(axis=1)).sum(axis=1)
    return X[observed >= MIN_OBSERVED]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--extra", default="FD003")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    data = SubsetSplit("FD001", args.seed, regime=False)
    extra = fleet_windows(args.extra, data.columns)
    arms = {"own": data.X_pre, f"own+{args.extra}": np.concatenate([data.X_pre, extra])}
    windows = (data.X_train, data.X_valid, data.X_test)
    for arm, X_pre in arms.items():
        pretrainer, states = pretrain_with_snapshots(
            X_pre, epochs=list(EPOCHS), pretrain_epochs=PRETRAIN_EPOCHS, device="cpu", seed=args.seed
        )
        for epoch in (*EPOCHS, PRETRAIN_EPOCHS):
            encoder = pretrainer if epoch == PRETRAIN_EPOCHS else with_state(pretrainer, states[epoch])
            E_train, E_valid, E_test = (encoder.transform(X) for X in windows)
            predictor = protocol_event_predictor(FINETUNE_EPOCHS, device="cpu", seed=args.seed)
            predictor.fit(E_train, data.y_train)
            record = {
                "subset": "FD001",
                "seed": args.seed,
                "pretraining": arm,
                "n_pretrain_windows": len(X_pre),
                "epoch": epoch,
                "eps_valid": float(encoder.pretraining_loss(data.X_pre_valid)["loss"]),
                "valid_h_auroc": h_auroc(data.y_valid, predictor.predict_proba(E_valid)),
                "h_auroc": h_auroc(data.y_test, predictor.predict_proba(E_test)),
            }
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
