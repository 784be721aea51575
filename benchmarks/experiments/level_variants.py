"""Designs aimed at BATADAL for the window level beside an untrained embedding: which form of the level, which head.

The first form of ``norm="auto"`` appended, per channel, the mean and the
standard deviation of the observed values over the window and over its last
30 steps (``window_level``, four columns per channel, standardised by the
training windows' statistics) to the embedding of an encoder never
pretrained; on BATADAL's validation units it fell 0.159 below the 0.1.0
defaults. Each arm fits ``HEPAPretrainer(max_epochs=0)`` (0.2.0's ``norm="auto"``) on
the row's training windows, keeps its ``d_model`` embedding columns and
puts beside them:

- ``spread``: the four statistics per channel (the first form);
- ``means``: the two means per channel alone (what ``norm="auto"`` appends
  since release 0.2.0);
- ``wd``: ``spread`` with the event head's weight decay at 0.1 (ten times the default);
- ``small``: ``spread`` with an event head of hidden width 64;
- ``select``: the event head fitted with and without ``spread`` and kept by
  its own held-out loss (the last tenth of the training windows), which
  needs no validation units.

One JSON line per arm with the validation h-AUROC (the figure the default
selection reads). Screened on seeds 0 and 1 on the rows the defaults
contested: BATADAL, VIX, ETTm1.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/level_variants.py --dataset BATADAL --seed 0
"""

import json
import time

import numpy as np
from _common import benchmark_split, dataset_seed_parser

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.preprocessing import nan_mean_std, window_level

ARMS = ("spread", "means", "wd", "select", "small")


def main():
    args = dataset_seed_parser(__doc__, "BATADAL", ARMS).parse_args()
    entry, data = benchmark_split(args)
    start = time.process_time()
    encoder = HEPAPretrainer(max_epochs=0, random_state=args.seed).fit(data.X_train)
    windows = {"train": data.X_train, "valid": data.X_valid}
    # the encoder's own regime standardisation comes first, as in transform
    standardised = {name: encoder.standardise_by_regime(X) for name, X in windows.items()}
    loc, scale, _ = nan_mean_std(window_level(standardised["train"]), axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    E = {
        name: np.hstack(
            [
                encoder.transform(X)[:, : encoder.d_model],
                np.nan_to_num((window_level(standardised[name]) - np.nan_to_num(loc)) / scale),
            ]
        )
        for name, X in windows.items()
    }
    encode_s = time.process_time() - start
    d, C = encoder.d_model, data.X_train.shape[1]
    columns = {
        "spread": np.arange(d + 4 * C),
        "embedding": np.arange(d),
        "means": np.r_[np.arange(d), d + np.arange(C), d + 2 * C + np.arange(C)],
    }

    def fit(cols, **params):
        head = HEPAEventPredictor(K=entry.K, random_state=args.seed, **params).fit(E["train"][:, cols], data.y_train)
        return head, min(epoch["valid_loss"] for epoch in head.history_ if "valid_loss" in epoch)

    for arm in args.arms:
        start, extra = time.process_time(), {}
        if arm == "select":
            (with_level, loss_level), (without, loss_embedding) = fit(columns["spread"]), fit(columns["embedding"])
            chosen = "spread" if loss_level <= loss_embedding else "embedding"
            head, cols = (with_level, columns["spread"]) if chosen == "spread" else (without, columns["embedding"])
            extra = {"chose": chosen, "loss_level": loss_level, "loss_emb": loss_embedding}
        else:
            cols = columns["means" if arm == "means" else "spread"]
            head, _ = fit(cols, **{"wd": {"weight_decay": 0.1}, "small": {"hidden": 64}}.get(arm, {}))
        print(
            json.dumps(
                {
                    "dataset": args.dataset,
                    "seed": args.seed,
                    "arm": arm,
                    "cpu_s": round(time.process_time() - start + encode_s, 1),
                    "valid_h_auroc": round(h_auroc(data.y_valid, head.predict_proba(E["valid"][:, cols])), 4),
                    **extra,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
