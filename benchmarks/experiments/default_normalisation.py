"""Why does the plain default pipeline fail on C-MAPSS FD002 and FD004?

``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150))`` (method
``hepa-default`` of ``hepa benchmark cmapss``) scores about 0.52 on FD002
and 0.60 on FD004, where the protocol's recipe reaches 0.77 and 0.84. It
differs from the protocol in two ways that matter for data whose
operating conditions change from cycle to cycle: it normalises each
window by its own statistics (``norm="revin"``) instead of one global
z-score fitted on the training units, and it pretrains on the labelled
training windows instead of the protocol's pretraining set (one window of
up to 512 cycles per training engine). This script separates the two,
and tests pretraining itself, with arms that each change the default
pipeline in one or two named ways:

- ``revin``: the default pipeline as benchmarked (``hepa-default``);
- ``global``: the same with ``HEPAPretrainer(norm="global")``;
- ``revin-pre``: the default pretrainer fitted on the protocol's
  pretraining windows, then the default event predictor on the labelled
  windows' embeddings;
- ``global-pre``: both changes;
- ``global-random``: the ``global`` arm's encoder at its initial weights
  (input statistics from the labelled windows, never trained), the
  control for "the pretraining-set arms simply pretrain less": they see
  about 156 windows, a few batches per epoch, where the other arms train
  on thousands;
- ``regime``: the advice the user guide gives for data with operating
  conditions, a :class:`RegimeNormalizer` (fitted on the training units'
  pretraining windows, no labels) in front of the unchanged default
  pipeline; ``regime-random`` is its encoder at its initial weights;
- ``revin-random``: the default pipeline's encoder at its initial weights;
- ``rank``: the default pipeline with ``early_stopping="rank"``
  (pretraining stops on the effective rank of the held-out windows'
  embeddings instead of their JEPA loss, and keeps the best epoch): the
  ``hepa-default-rank`` cell of the C-MAPSS benchmark.

Every arm uses the estimators' own defaults otherwise (early stopping on
the last tenth of the windows each is fitted on); validation units are not
used for fitting. It prints one JSON line per (fraction, arm) with
validation and test h-AUROC; only validation figures may choose.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/default_normalisation.py --subset FD002 --seed 0
"""

import argparse
import json
import time

import torch
from hepa_bench.protocols import default_pipeline, with_state
from hepa_bench.snapshots import EncoderSnapshots

from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.protocol import K, SubsetSplit

ARMS = (
    "revin",
    "global",
    "revin-pre",
    "global-pre",
    "global-random",
    "regime",
    "regime-random",
    "revin-random",
    "rank",
)


def fit_arm(arm, data, X_train, y_train, seed):
    """The benchmark's default pipeline with ``arm``'s changes, fitted: its pretrainer and event predictor."""
    pipe = default_pipeline(K, seed=seed, device="cpu")
    pretrainer, predictor = pipe[0], pipe[-1]
    if arm.startswith("global"):
        pretrainer.set_params(norm="global")
    if arm == "rank":
        pretrainer.set_params(early_stopping="rank")
    if arm.endswith("-random"):
        # one epoch fits the input statistics; the weights go back to those before it
        pretrainer.set_params(max_epochs=1, callbacks=[("snapshots", EncoderSnapshots({0}))])
    pretrainer.fit(data.X_pre if arm.endswith("-pre") else X_train)
    if arm.endswith("-random"):
        pretrainer = with_state(pretrainer, dict(pretrainer.net_.callbacks_)["snapshots"].states_[0])
    predictor.fit(pretrainer.transform(X_train), y_train)
    return pretrainer, predictor


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subset", default="FD002")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fractions", type=float, nargs="+", default=[1.0, 0.1])
    parser.add_argument("--arms", nargs="+", choices=ARMS, default=list(ARMS))
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    # only the splits the arms read: the regime arms see the same units and windows with the
    # setting channels, normalised per operating condition
    splits = {
        regime: SubsetSplit(args.subset, args.seed, regime=regime)
        for regime in {arm.startswith("regime") for arm in args.arms}
    }
    for fraction in args.fractions:
        for arm in args.arms:
            arm_data = splits[arm.startswith("regime")]
            mask = arm_data.train_mask(fraction)
            start = time.perf_counter()
            pretrainer, predictor = fit_arm(arm, arm_data, arm_data.X_train[mask], arm_data.y_train[mask], args.seed)
            fit_s = time.perf_counter() - start

            def score(X, y, pretrainer=pretrainer, predictor=predictor):
                return h_auroc(y, predictor.predict_proba(pretrainer.transform(X)))

            record = {
                "subset": args.subset,
                "seed": args.seed,
                "fraction": fraction,
                "arm": arm,
                "n_train_windows": int(mask.sum()),
                "pretrain_epochs_run": pretrainer.n_epochs_,
                "finetune_epochs_run": predictor.n_epochs_,
                "fit_s": round(fit_s, 1),
                "valid_h_auroc": score(arm_data.X_valid, arm_data.y_valid),
                "h_auroc": score(arm_data.X_test, arm_data.y_test),
            }
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
