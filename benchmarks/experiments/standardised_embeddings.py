"""Does standardising the embeddings before the event head undo the erosion of pretraining?

One hypothesis of the snapshot study (user guide, "Does pretraining pay?"):
the embeddings' scale drifts over pretraining and the event head, trained
without input scaling, fits them worse. This script pretrains the reference
protocol's encoder (C-MAPSS, one seed), standardises its embeddings with a
StandardScaler fitted on the training windows only, finetunes the standard
event predictor on them and prints validation and test h-AUROC, for the
encoder after the last epoch (and, with --all-epochs, at epochs 0 and 25).

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/standardised_embeddings.py --seed 0
"""

import json

import numpy as np
from _common import cmapss_split, subset_seed_parser
from hepa_bench.protocols import with_state
from hepa_bench.snapshots import pretrain_with_snapshots
from sklearn.preprocessing import StandardScaler

from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.protocol import protocol_event_predictor


def main(argv=None):
    parser = subset_seed_parser(__doc__)
    parser.add_argument("--all-epochs", action="store_true", help="also the encoders of epochs 0 and 25")
    args = parser.parse_args(argv)
    data = cmapss_split(args)
    pretrainer, states = pretrain_with_snapshots(
        data.X_pre, epochs=[0, 25], pretrain_epochs=50, device="cpu", seed=args.seed
    )
    for epoch in (50, 0, 25) if args.all_epochs else (50,):
        encoder = with_state(pretrainer, states[epoch])
        E_train, E_valid, E_test = (encoder.transform(X) for X in (data.X_train, data.X_valid, data.X_test))
        spread = E_train.std(axis=0)
        print(
            f"epoch {epoch}: mean |h| {np.linalg.norm(E_train, axis=1).mean():.2f}, per-dimension std "
            f"min/median/max {spread.min():.3g}/{np.median(spread):.3g}/{spread.max():.3g}",
            flush=True,
        )
        scaler = StandardScaler().fit(E_train)
        predictor = protocol_event_predictor(30, device="cpu", seed=args.seed).fit(
            scaler.transform(E_train), data.y_train
        )
        record = {
            "subset": args.subset,
            "seed": args.seed,
            "epoch": epoch,
            "scaled": True,
            "valid_h_auroc": h_auroc(data.y_valid, predictor.predict_proba(scaler.transform(E_valid))),
            "h_auroc": h_auroc(data.y_test, predictor.predict_proba(scaler.transform(E_test))),
        }
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
