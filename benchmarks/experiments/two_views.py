"""A design aimed at the rows where the normalisation decides: the window embedded under two normalisations at once.

On Beijing the untrained encoder on globally z-scored windows scores above
the headline line on validation units (``hepa-default-regime0``, which finds
one regime there and so is the global z-score: 0.741 against 0.698 with all
labels, ``benchmarks/default_selection.md``), while on ETTm1, whose levels
drift, it falls far behind (0.692 against 0.819). The level the headline
line passes on beside its RevIN embedding (each channel's mean over the
window and its last 30 steps) does not make up for what the global z-score
keeps on Beijing. Each arm fits never-pretrained ``HEPAPretrainer`` s on the
row's training windows and the event head (``HEPAEventPredictor(K=K)``) on
their embeddings:

- ``headline``: ``HEPAPretrainer()`` (0.2.0's ``norm="auto"``: regimes,
  RevIN, the window level beside the embedding);
- ``global``: ``HEPAPretrainer(norm="global", regimes=None,
  window_level=False)``, the global z-score alone;
- ``views``: both embeddings side by side (the same initial encoder
  weights, two normalisations of its input).

One JSON line per arm with the validation h-AUROC (the figure a selection
may read) and the CPU seconds of the fit.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/two_views.py --dataset Beijing --seed 0 --fraction 1
"""

import json
import time

import numpy as np
from _common import benchmark_split, dataset_seed_parser, labelled_windows

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc

ARMS = ("headline", "global", "views")


def main():
    args = dataset_seed_parser(__doc__, "Beijing", ARMS, fraction=True).parse_args()
    entry, data = benchmark_split(args)
    X_train, y_train = labelled_windows(data, args.fraction)
    embedded, seconds = {}, {}
    # each view by its 0.2.0 norm name, as today's parameters
    views = {"auto": {}, "global": {"norm": "global", "regimes": None, "window_level": False}}
    for norm, params in views.items():
        start = time.process_time()
        encoder = HEPAPretrainer(**params, random_state=args.seed).fit(X_train)
        embedded[norm] = {"train": encoder.transform(X_train), "valid": encoder.transform(data.X_valid)}
        seconds[norm] = time.process_time() - start
    inputs = {"headline": ["auto"], "global": ["global"], "views": ["auto", "global"]}
    for arm in args.arms:
        start = time.process_time()
        features = {part: np.hstack([embedded[norm][part] for norm in inputs[arm]]) for part in ("train", "valid")}
        head = HEPAEventPredictor(K=entry.K, random_state=args.seed).fit(features["train"], y_train)
        print(
            json.dumps(
                {
                    "dataset": args.dataset,
                    "seed": args.seed,
                    "fraction": args.fraction,
                    "arm": arm,
                    "n_features": features["train"].shape[1],
                    "cpu_s": round(time.process_time() - start + sum(seconds[norm] for norm in inputs[arm]), 1),
                    "valid_h_auroc": round(h_auroc(data.y_valid, head.predict_proba(features["valid"])), 4),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
