"""Does giving the event head the raw end-of-window level beside the embedding undo the erosion of pretraining?

One hypothesis of the snapshot study (user guide, "Does pretraining pay?"):
pretraining moves the embedding away from what the event head needs (the
absolute degradation level, for instance), and the head cannot recover it.
If so, appending the raw summary features of the window's end (level and
trend of each channel over the last 30 steps, the gradient-boosting
baseline's inputs) to the embedding should close the gap between the
pretrained and the untrained encoder.

This script pretrains the reference protocol's encoder (C-MAPSS, one seed,
50 epochs) keeping its weights at epochs 0, 1 and 8, and for each of those
encoders and the final one finetunes the standard event predictor on

- ``embedding``: the embedding alone (the protocol);
- ``combined``: the embedding beside the standardised summary features;

and once, on ``raw``: the standardised summary features alone. Scalers are
fitted on the training windows only. It prints one JSON line per fit with
validation and test h-AUROC; only the validation figures may choose.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/combined_features.py --seed 0
"""

import json

import numpy as np
from _common import cmapss_split, subset_seed_parser
from hepa_bench.protocols import with_state
from hepa_bench.snapshots import pretrain_with_snapshots
from sklearn.preprocessing import StandardScaler

from hepa_sklearn.baselines import summary_features
from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.protocol import protocol_event_predictor

EPOCHS = (0, 1, 8)
PRETRAIN_EPOCHS = 50
FINETUNE_EPOCHS = 30


def standardised(train, *others):
    """``train`` and ``others`` scaled by a StandardScaler fitted on ``train``; NaN features become 0."""
    scaler = StandardScaler().fit(train)
    return [np.nan_to_num(scaler.transform(a)) for a in (train, *others)]


def score(subset, seed, epoch, features, parts, data):
    """Fit the protocol's event predictor on the training part and return the record of one fit."""
    train, valid, test = parts
    predictor = protocol_event_predictor(FINETUNE_EPOCHS, device="cpu", seed=seed).fit(train, data.y_train)
    return {
        "subset": subset,
        "seed": seed,
        "epoch": epoch,
        "features": features,
        "n_features": train.shape[1],
        "valid_h_auroc": h_auroc(data.y_valid, predictor.predict_proba(valid)),
        "h_auroc": h_auroc(data.y_test, predictor.predict_proba(test)),
    }


def main(argv=None):
    parser = subset_seed_parser(__doc__)
    args = parser.parse_args(argv)
    data = cmapss_split(args)
    windows = (data.X_train, data.X_valid, data.X_test)
    raw = standardised(*(summary_features(X) for X in windows))
    print(json.dumps(score(args.subset, args.seed, None, "raw", raw, data)), flush=True)
    pretrainer, states = pretrain_with_snapshots(
        data.X_pre, epochs=list(EPOCHS), pretrain_epochs=PRETRAIN_EPOCHS, device="cpu", seed=args.seed
    )
    for epoch in (*EPOCHS, PRETRAIN_EPOCHS):
        encoder = pretrainer if epoch == PRETRAIN_EPOCHS else with_state(pretrainer, states[epoch])
        embeddings = [encoder.transform(X) for X in windows]
        print(json.dumps(score(args.subset, args.seed, epoch, "embedding", embeddings, data)), flush=True)
        scaled = standardised(*embeddings)
        combined = [np.hstack([e, r]) for e, r in zip(scaled, raw, strict=True)]
        print(json.dumps(score(args.subset, args.seed, epoch, "combined", combined, data)), flush=True)


if __name__ == "__main__":
    main()
