"""Where the headline line's time and memory go: each stage of its fit and predict on a whole C-MAPSS subset.

``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150, **params))``
(``params`` given as ``name=value`` pairs, read as Python literals) on
``load_cmapss(subset)``, with one torch thread, run stage by stage as the
pipeline runs them:

- ``load``: the loader's training and test windows;
- ``pretrainer fit``: statistics, operating regimes, the window level;
- ``transform (train)``: the embeddings of the training windows;
- ``event head fit``: the event predictor on those embeddings;
- ``transform + predict (test)``: NASA's test windows, as the Quickstart scores them.

For each stage: CPU seconds (``time.process_time``), the resident set
size at its end and the process's peak RSS so far (``ru_maxrss``), and for
the event head the epochs run and the median wall seconds per epoch
(skorch's ``dur``; one thread, so near its CPU seconds on an idle core). Last,
the sizes of what the fit must hold: the training windows, the embeddings,
one batch's activations of the horizon grid (batch x evaluated horizons x
hidden width, float32, times the layers that keep one for the backward
pass). One JSON line per stage, then one for the sizes::

    OMP_NUM_THREADS=1 python benchmarks/experiments/default_fit_profile/default_fit_profile.py --subset FD001
    OMP_NUM_THREADS=1 python benchmarks/experiments/default_fit_profile/default_fit_profile.py --subset FD001 \
        horizon_knots=16
"""

import argparse
import ast
import json
import resource
import time

import numpy as np
import torch

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.datasets import load_cmapss

PAGE = 4096


def rss_mb():
    """The resident set size now, MB (Linux /proc)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stage(name, started, **extra):
    print(
        json.dumps(
            {
                "stage": name,
                "cpu_s": round(time.process_time() - started, 2),
                "rss_mb": round(rss_mb()),
                "peak_rss_mb": round(peak_mb()),
                **extra,
            }
        ),
        flush=True,
    )
    return time.process_time()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subset", default="FD001")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("params", nargs="*", metavar="NAME=VALUE", help="parameters of HEPAEventPredictor")
    args = parser.parse_args()
    params = {name: ast.literal_eval(value) for name, value in (p.split("=", 1) for p in args.params)}
    torch.set_num_threads(1)
    print(json.dumps({"subset": args.subset, "seed": args.seed, "params": params, "start_rss_mb": round(rss_mb())}))
    t = time.process_time()
    train, test = load_cmapss(args.subset), load_cmapss(args.subset, split="test", stride=4)
    t = stage("load", t, n_train_windows=len(train.X), n_test_windows=len(test.X))
    pretrainer = HEPAPretrainer(random_state=args.seed).fit(train.X)
    t = stage("pretrainer fit", t)
    E = pretrainer.transform(train.X)
    t = stage("transform (train)", t, embedding_width=E.shape[1])
    head = HEPAEventPredictor(K=150, random_state=args.seed, **params).fit(E, train.y)
    per_epoch = [epoch["dur"] for epoch in head.history_]
    t = stage("event head fit", t, epochs=head.n_epochs_, median_epoch_s=round(float(np.median(per_epoch)), 3))
    surface = head.predict_proba(pretrainer.transform(test.X))
    t = stage("transform + predict (test)", t, test_h_auroc=round(h_auroc(test.y, surface), 4))
    module = head.net_.module_
    evaluated = len(module.horizons) if hasattr(module, "horizons") else 150
    hidden, width = head.hidden, E.shape[1]
    # per window and evaluated horizon, the activations autograd keeps: the first layer's sum and its
    # GELU, the second layer's output and its GELU, the predictor's output and its normalised copy
    kept = 2 * hidden + 2 * hidden + 2 * width
    sizes = {
        "train_windows_mb": round(train.X.nbytes / 2**20, 1),
        "embeddings_mb": round(E.nbytes / 2**20, 1),
        "evaluated_horizons": evaluated,
        "batch_activations_mb": round(head.batch_size * evaluated * kept * 4 / 2**20, 1),
    }
    print(json.dumps({"sizes": sizes}), flush=True)


if __name__ == "__main__":
    main()
