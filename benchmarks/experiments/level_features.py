"""Does the event head need the window's level beside a level-free embedding? A screen for the defaults.

The plain pipeline with an untrained encoder (``max_epochs=0``) is fitted as
the benchmark's ``hepa-default-untrained`` and ``hepa-default-regime0`` are
(the row's labelled training windows, the estimators' own early stopping),
with one change: the event head sees the embedding beside the window's
level, the mean and standard deviation of each channel's observed values
over the whole window and over its last 30 steps, standardised by the
training windows' statistics (a scaler fitted on the training windows).
Arms: ``revin+level`` (RevIN embedding), ``regime+level``
(0.2.0's ``norm="regime"``: ``norm="global", window_level=False``) and, where the data has operating regimes,
``regime-revin+level`` (the windows standardised per regime by
``RegimeNormalizer(None, n_regimes="auto")``, then RevIN and the level of
the standardised windows; with one regime it is ``revin+level``). ``--features shift`` runs one arm instead,
``revin+shift`` (``regime-revin+shift`` where regimes are found): beside the RevIN embedding, per channel the
last 30 steps' mean less the window's in units of the window's std and the log ratio of the two stds, a
summary that a drifting level does not move. One JSON line per arm with the validation h-AUROC, which alone
may choose, and the test h-AUROC.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/level_features.py --dataset ETTm1 --seed 0
"""

import argparse
import json
import time

import numpy as np
import torch
from hepa_bench.registry import BENCHMARKS
from sklearn.preprocessing import StandardScaler

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, RegimeNormalizer, h_auroc
from hepa_sklearn.preprocessing import nan_mean_std
from hepa_sklearn.preprocessing import window_level as level


def shift(X):
    """Per channel: the last 30 steps' mean less the window's, in units of the window's std, and the log ratio of the
    stds."""
    X = np.asarray(X, dtype=np.float64)
    mean, std, _ = nan_mean_std(X, axis=-1)
    recent_mean, recent_std, _ = nan_mean_std(X[..., -30:], axis=-1)
    std = np.where(std > 0, std, 1.0)
    return np.concatenate([(recent_mean - mean) / std, np.log(np.where(recent_std > 0, recent_std, 1e-3) / std)], 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="ETTm1")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-home", default=None)
    parser.add_argument(
        "--features",
        choices=["level", "shift"],
        default="level",
        help="level: the window's level (the arms above); shift: the last 30 steps against the window",
    )
    args = parser.parse_args()
    torch.set_num_threads(1)
    entry = BENCHMARKS[args.dataset]
    data = entry.load(args.seed, args.data_home)
    raw = {"train": data.X_train, "valid": data.X_valid, "test": data.X_test}
    regimes = RegimeNormalizer(None, n_regimes="auto", random_state=args.seed).fit(data.X_train)
    summary = level if args.features == "level" else shift
    # each arm's pretrainer by its 0.2.0 norm name; none appends the window level itself
    norms = {"revin": {"norm": "revin", "regimes": None}, "regime": {"norm": "global", "regimes": "auto"}}
    arms = [("revin+level", "revin", raw), ("regime+level", "regime", raw)]
    if regimes.n_regimes_ > 1:
        arms.append(("regime-revin+level", "revin", {name: regimes.transform(X) for name, X in raw.items()}))
    if args.features == "shift":  # the RevIN arm (per regime where regimes are found) with the shift instead
        arms = [
            ("regime-revin+shift", "revin", arms[-1][2]) if regimes.n_regimes_ > 1 else ("revin+shift", "revin", raw)
        ]
    for arm, norm, windows in arms:
        start = time.process_time()
        scaler = StandardScaler().fit(np.nan_to_num(summary(windows["train"])))
        encoder = HEPAPretrainer(**norms[norm], window_level=False, max_epochs=0, random_state=args.seed).fit(
            windows["train"]
        )
        E = {
            name: np.hstack([encoder.transform(X), np.nan_to_num(scaler.transform(np.nan_to_num(summary(X))))])
            for name, X in windows.items()
        }
        head = HEPAEventPredictor(K=entry.K, random_state=args.seed).fit(E["train"], data.y_train)
        print(
            json.dumps(
                {
                    "dataset": args.dataset,
                    "seed": args.seed,
                    "arm": arm,
                    "cpu_s": round(time.process_time() - start, 1),
                    "valid_h_auroc": h_auroc(data.y_valid, head.predict_proba(E["valid"])),
                    "h_auroc": h_auroc(data.y_test, head.predict_proba(E["test"])),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
