"""Designs aimed at the rows where boosting leads the headline line: boosting's window features beside the embedding.

On Beijing (both fractions) and VIX with 10 % labels the headline line with
the 0.2.0 defaults stays more than 0.02 below gradient boosting on its
multiscale window features (``benchmarks/default_selection.md``). Each arm
fits the headline line's pretrainer (``HEPAPretrainer()``: regimes, RevIN,
the window level, never pretrained) on the row's training windows and its event head
(``HEPAEventPredictor(K=K)``) on the embedding with, beside it:

- ``headline``: nothing more (the embedding and the window level, as the
  headline line fits it);
- ``multiscale``: boosting's features
  (:func:`~hepa_sklearn.baselines.multiscale_features`) without the
  window's age, standardised by the training windows' statistics, 0 where
  undefined;
- ``trend``: of those, only each channel's mean and slope over the last 10,
  30 and 100 steps and the whole window.

One JSON line per arm with the validation h-AUROC (the figure a selection
may read) and the CPU seconds of the fit.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/features_beside.py --dataset Beijing --seed 0
"""

import json
import time

import numpy as np
from _common import benchmark_split, dataset_seed_parser, labelled_windows
from sklearn.preprocessing import StandardScaler

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.baselines import multiscale_feature_names, multiscale_features

ARMS = ("headline", "multiscale", "trend")


def main():
    args = dataset_seed_parser(__doc__, "Beijing", ARMS, fraction=True).parse_args()
    entry, data = benchmark_split(args)
    X_train, y_train = labelled_windows(data, args.fraction)
    start = time.process_time()
    encoder = HEPAPretrainer(random_state=args.seed).fit(X_train)
    E = {"train": encoder.transform(X_train), "valid": encoder.transform(data.X_valid)}
    encode_s = time.process_time() - start
    names = multiscale_feature_names(data.X_train.shape[1])
    keep = {
        "multiscale": np.array([name != "age" for name in names]),
        "trend": np.array([name.split("_")[0] in ("mean", "slope") for name in names]),
    }
    for arm in args.arms:
        start = time.process_time()
        features = dict(E)
        if arm != "headline":
            raw = {
                "train": multiscale_features(X_train)[:, keep[arm]],
                "valid": multiscale_features(data.X_valid)[:, keep[arm]],
            }
            scaler = StandardScaler().fit(np.nan_to_num(raw["train"]))
            features = {
                name: np.hstack([E[name], np.nan_to_num(scaler.transform(np.nan_to_num(raw[name])))]) for name in E
            }
        head = HEPAEventPredictor(K=entry.K, random_state=args.seed).fit(features["train"], y_train)
        print(
            json.dumps(
                {
                    "dataset": args.dataset,
                    "seed": args.seed,
                    "fraction": args.fraction,
                    "arm": arm,
                    "n_features": features["train"].shape[1],
                    "cpu_s": round(time.process_time() - start + encode_s, 1),
                    "valid_h_auroc": round(h_auroc(data.y_valid, head.predict_proba(features["valid"])), 4),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
