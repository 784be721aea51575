"""The headline line against boosting, side by side: fit CPU seconds, peak RSS, test h-AUROC on a C-MAPSS subset.

Each repetition starts two processes at once, one thread each, each pinned
to its own core (``taskset``; the cores swap at every repetition):

- ``headline``: ``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150, **params))``;
- ``boosting``: ``GradientBoostingEventPredictor(K=150)``.

Each loads ``load_cmapss(subset)`` (every training engine), fits, and
reports the CPU seconds of the fit alone (``time.process_time``) and the
process's peak RSS when the fit ends (``ru_maxrss``: imports, the training
windows and everything the fit held); then it loads NASA's test engines
(``stride=4``, the Quickstart's windows) and scores their h-AUROC, which
neither figure above counts. Prints every run as a JSON line, then the
medians over the repetitions and the ratio of the medians::

    python benchmarks/experiments/fit_vs_boosting/fit_vs_boosting.py --subset FD001 --repeats 3
    python benchmarks/experiments/fit_vs_boosting/fit_vs_boosting.py --subset FD001 --repeats 3 \
        horizon_knots=8

``params`` (``name=value``, read as Python literals) go to the headline
line's ``HEPAEventPredictor``.
"""

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np


def child(method, subset, seed, params):
    import torch

    torch.set_num_threads(1)
    from sklearn.pipeline import make_pipeline

    from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
    from hepa_sklearn.baselines import GradientBoostingEventPredictor
    from hepa_sklearn.datasets import load_cmapss

    train = load_cmapss(subset)
    if method == "headline":
        model = make_pipeline(HEPAPretrainer(random_state=seed), HEPAEventPredictor(K=150, random_state=seed, **params))
    else:
        model = GradientBoostingEventPredictor(K=150, random_state=seed)
    cpu = time.process_time()
    model.fit(train.X, train.y)
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    test = load_cmapss(subset, split="test", stride=4)
    score = h_auroc(test.y, model.predict_proba(test.X))
    print(json.dumps({"method": method, "fit_cpu_s": round(cpu, 2), "peak_rss_mb": round(peak), "test_h_auroc": score}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subset", default="FD001")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--child", choices=["headline", "boosting"], help=argparse.SUPPRESS)
    parser.add_argument("params", nargs="*", metavar="NAME=VALUE")
    args = parser.parse_args()
    params = {name: ast.literal_eval(value) for name, value in (p.split("=", 1) for p in args.params)}
    if args.child:
        return child(args.child, args.subset, args.seed, params)
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    runs = {"headline": [], "boosting": []}
    for repeat in range(args.repeats):
        cores = ("0", "1") if repeat % 2 == 0 else ("1", "0")
        children = {
            method: subprocess.Popen(
                [
                    "taskset",
                    "-c",
                    core,
                    sys.executable,
                    __file__,
                    "--child",
                    method,
                    "--subset",
                    args.subset,
                    "--seed",
                    str(args.seed),
                    *args.params,
                ],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for method, core in zip(runs, cores, strict=True)
        }
        for method, process in children.items():
            out, _ = process.communicate()
            if process.returncode:
                raise SystemExit(f"the {method} run failed (exit status {process.returncode})")
            record = json.loads(out.strip().splitlines()[-1])
            runs[method].append(record)
            print(json.dumps({"repeat": repeat, "core": cores[list(runs).index(method)], **record}), flush=True)
    medians = {
        method: {
            key: float(np.median([r[key] for r in records])) for key in ("fit_cpu_s", "peak_rss_mb", "test_h_auroc")
        }
        for method, records in runs.items()
    }
    print(json.dumps({"subset": args.subset, "params": params, "repeats": args.repeats, "medians": medians}))
    print(
        f"headline / boosting, medians of {args.repeats}: fit CPU "
        f"{medians['headline']['fit_cpu_s'] / medians['boosting']['fit_cpu_s']:.2f}, peak RSS "
        f"{medians['headline']['peak_rss_mb'] / medians['boosting']['peak_rss_mb']:.2f}"
    )


if __name__ == "__main__":
    main()
