"""A user's first fit: the headline pipeline on a whole C-MAPSS training set, timed, scored on NASA's test engines.

``make_pipeline(HEPAPretrainer(**params), HEPAEventPredictor(K=150))`` is
fitted on ``load_cmapss(subset)`` (every training engine, the loader's
windows) with one torch thread, then scored on ``load_cmapss(subset,
split="test")`` (NASA's truncated test engines and their RUL file). One
JSON line: CPU seconds of the fit (``time.process_time``), wall seconds,
the pretraining epochs run, the test h-AUROC. Pretrainer parameters are
given as ``name=value`` pairs (values read as Python literals), the event
predictor's as ``--predictor name=value``::

    OMP_NUM_THREADS=1 python benchmarks/experiments/first_fit/first_fit.py --subset FD002 \
        norm='"global"' window_level=False max_epochs=0

Without parameters it fits the defaults; ``--subset FD001 --test-stride 4`` is the README's Quickstart.
``--seed 0 1 2 3 4`` fits one seed after the other and ends with a line of
the test h-AUROC's mean, median, sample standard deviation and range over them.
"""

import argparse
import ast
import json
import statistics
import time

import torch
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.datasets import load_cmapss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subset", default="FD002")
    parser.add_argument(
        "--seed",
        type=int,
        nargs="+",
        default=[0],
        help="random_state of both estimators; several seeds fit one after the other and end with a summary line",
    )
    parser.add_argument(
        "--test-stride",
        type=int,
        default=None,
        help="stride of the test windows (the loader's default, 1, when not given; the Quickstart's is 4)",
    )
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument(
        "--predictor",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of the event predictor (repeatable), e.g. horizon_knots=None",
    )
    parser.add_argument("params", nargs="*", metavar="NAME=VALUE")
    args = parser.parse_args()
    params, args.predictor = (
        {name: ast.literal_eval(value) for name, value in (p.split("=", 1) for p in pairs)}
        for pairs in (args.params, args.predictor)
    )
    torch.set_num_threads(args.threads)
    stride = {} if args.test_stride is None else {"stride": args.test_stride}
    train, test = load_cmapss(args.subset), load_cmapss(args.subset, split="test", **stride)
    scores, cpus = [], []
    for seed in args.seed:
        score, cpu = fit_and_score(args, seed, params, train, test)
        scores.append(score)
        cpus.append(cpu)
    if len(args.seed) > 1:
        summary = {
            "seeds": args.seed,
            "test_h_auroc_mean": round(statistics.mean(scores), 4),
            "test_h_auroc_median": round(statistics.median(scores), 4),
            "test_h_auroc_std": round(statistics.stdev(scores), 4),
            "test_h_auroc_min": round(min(scores), 4),
            "test_h_auroc_max": round(max(scores), 4),
            "fit_cpu_s_median": round(statistics.median(cpus), 1),
        }
        predictor = {"predictor_params": args.predictor} if args.predictor else {}
        print(json.dumps({"subset": args.subset, "params": params, **predictor, **summary}), flush=True)


def fit_and_score(args, seed, params, train, test):
    """One fit of the headline line under ``seed``, printed as a JSON line; returns (test h-AUROC, fit CPU s)."""
    pipe = make_pipeline(
        HEPAPretrainer(random_state=seed, **params), HEPAEventPredictor(K=150, random_state=seed, **args.predictor)
    )
    cpu, wall = time.process_time(), time.perf_counter()
    pipe.fit(train.X, train.y)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    score = h_auroc(test.y, pipe.predict_proba(test.X))
    print(
        json.dumps(
            {
                "subset": args.subset,
                "seed": seed,
                **({} if args.threads == 1 else {"threads": args.threads}),
                "params": params,
                **({"predictor_params": args.predictor} if args.predictor else {}),
                "n_train_windows": len(train.X),
                "n_test_windows": len(test.X),
                "fit_cpu_s": round(cpu, 1),
                "fit_wall_s": round(wall, 1),
                "pretrain_epochs_run": pipe[0].n_epochs_,
                "finetune_epochs_run": pipe[-1].n_epochs_,
                "test_h_auroc": score,
            }
        ),
        flush=True,
    )
    return score, cpu


if __name__ == "__main__":
    main()
