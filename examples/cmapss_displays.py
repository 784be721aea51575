"""
The four displays of hepa_sklearn.plotting on C-MAPSS FD001
===========================================================

1. Fit a small pipeline (pretrainer + event predictor) and, for comparison,
   the gradient-boosting baseline on the first 60 engines.
2. Score the last 20 engines (windows every 2 cycles) and draw:
   the event surface of one engine over its life, the per-horizon AUROC of
   both models, the reliability diagram of the pipeline's surface, and the
   pretrainer's training history (its validation loss is on the last 10% of
   the training windows, which it holds out for early stopping).

Needs matplotlib (``pip install 'hepa-sklearn[plot]'``). Run
``python examples/cmapss_displays.py OUTPUT_DIR``; the PNGs are written
there. The default run takes about a minute on one CPU core.
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no window

import numpy as np
from sklearn.pipeline import make_pipeline

from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.datasets import load_cmapss
from hepa_sklearn.plotting import (
    EventSurfaceDisplay,
    HorizonAUROCDisplay,
    SurfaceReliabilityDisplay,
    TrainingHistoryDisplay,
)

K = 100  # horizons 1..100 cycles
CONTEXT_LENGTH = 64
TRAIN_ENGINES = 60
SCORED_ENGINES = 20


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output_dir", type=Path, help="folder for the PNG files")
    parser.add_argument("--epochs", type=int, default=8, help="training epochs of each HEPA model")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def engines(data, units):
    keep = np.isin(data.groups, units)
    return data.X[keep], data.y[keep], data.groups[keep]


def main():
    args = parse_args()
    args.output_dir.mkdir(parents=True, exist_ok=True)

    train = load_cmapss("FD001", context_length=CONTEXT_LENGTH, stride=8)
    # scored windows: a shorter minimum history and stride 2 give one engine's surface many columns
    scored = load_cmapss("FD001", context_length=CONTEXT_LENGTH, stride=2, min_history=CONTEXT_LENGTH)
    units = np.unique(train.groups)
    X_train, y_train, _ = engines(train, units[:TRAIN_ENGINES])
    X_test, y_test, groups_test = engines(scored, units[-SCORED_ENGINES:])

    pipe = make_pipeline(
        HEPAPretrainer(
            d_model=32, n_heads=4, n_layers=1, K=32, norm="global", max_epochs=args.epochs, random_state=args.seed
        ),
        HEPAEventPredictor(K=K, hidden=32, max_epochs=args.epochs, random_state=args.seed),
    ).fit(X_train, y_train)
    boosting = GradientBoostingEventPredictor(K=K, max_iter=100, random_state=args.seed)
    boosting.fit(X_train, y_train)

    # Every training engine fails at its last cycle, and its last window ends
    # there, so a window ends y["time"] cycles before its engine's last cycle.
    last_cycle = scored.frame.groupby("unit")["cycle"].max()
    end_cycle = last_cycle.loc[groups_test].to_numpy() - y_test["time"]
    engine = units[-SCORED_ENGINES]

    displays = {
        "event_surface": EventSurfaceDisplay.from_estimator(
            pipe,
            X_test,
            y_test,
            groups=groups_test,
            unit=engine,
            times=end_cycle,
            name=f"FD001 engine {engine}: P(failure within Δt)",
        ),
        "horizon_auroc": HorizonAUROCDisplay.from_estimator(
            {"HEPA": pipe, "gradient boosting": boosting}, X_test, y_test
        ),
        "reliability": SurfaceReliabilityDisplay.from_estimator(
            pipe, X_test, y_test, name="HEPA on held-out FD001 engines"
        ),
        "training_history": TrainingHistoryDisplay.from_estimator(pipe[0], name="HEPAPretrainer"),
    }
    for name, display in displays.items():
        path = args.output_dir / f"{name}.png"
        display.figure_.savefig(path, dpi=120, bbox_inches="tight")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
