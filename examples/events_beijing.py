"""
Event prediction on a fleet of long series: Beijing's PM2.5 episodes
====================================================================

Start from a long DataFrame with one row per (unit, time step), one column
per channel and a boolean event column, which is what you would bring
yourself; end with the held-out h-AUROC of the surface p(t, Δt), Δt = 1..200:

1. load the twelve stations as one long frame (``load_beijing(...).frame``):
   13 channels, ``event`` marks the first hour of each PM2.5 episode (above
   250 µg/m³), and ``split`` says which hours of each station are training
   (first 70 %), validation (next 15 %) and test hours (last 15 %), with 24
   hours left out before each of the later parts;
2. z-score every channel with statistics of the training hours only;
3. cut each part of each station into windows with ``make_windows`` (labels
   count only events inside the window's own part, so nothing looks ahead
   into a later part);
4. fit ``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=200))``: the
   pretrainer learns the dynamics without labels, the event predictor
   learns the surface on the frozen embeddings; early stopping holds out
   whole stations (``groups``);
5. score the surface on the validation and the test hours.

With your own data, replace step 1 by your frame and its ``split`` column.
``--quick`` runs one epoch of each stage on every fourth window (a few
minutes on a laptop CPU); the benchmark protocol
(``hepa-bench run --datasets Beijing``) pretrains up to 100 epochs
and finetunes up to 50.
"""

import argparse
import time

import numpy as np
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.datasets import load_beijing
from hepa_sklearn.windows import make_windows

K = 200  # horizons 1..200 hours, the paper's K outside C-MAPSS and TEP


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data-home", default=None, help="folder holding BeijingAirQuality/ (default: $HEPA_DATA_HOME)"
    )
    parser.add_argument("--context-length", type=int, default=512, help="hours per window")
    parser.add_argument("--stride", type=int, default=64, help="hours between consecutive windows")
    parser.add_argument("--pretrain-epochs", type=int, default=20)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="one epoch per stage, every fourth window")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help='"auto", "cpu" or "cuda"')
    return parser.parse_args()


def part_windows(frame, channels, part, *, context_length, stride):
    """Windows of one part of every unit; a unit's labels count its events inside the part only."""
    return make_windows(
        frame[frame["split"] == part],
        feature_cols=channels,
        event_col="event",
        unit_col="unit",
        time_col="step",
        context_length=context_length,
        stride=stride,
        min_history=context_length,
    )


def main():
    args = parse_args()
    if args.quick:
        args.pretrain_epochs = args.finetune_epochs = 1
        args.stride *= 4

    # 1. A long frame (the loader's own windows are not needed, so few of them).
    data = load_beijing(data_home=args.data_home, stride=4096)
    frame, channels = data.frame, data.feature_names
    print(
        f"{len(frame)} rows of {frame['unit'].nunique()} stations; episode onsets per part: "
        f"{frame.groupby('split', observed=True)['event'].sum().to_dict()}"
    )

    # 2. Statistics of the training hours only.
    train_rows = frame["split"] == "train"
    mean = frame.loc[train_rows, channels].mean()
    std = frame.loc[train_rows, channels].std(ddof=0).replace(0, 1)
    frame[channels] = (frame[channels] - mean) / std

    # 3. Windows (n, 13, context_length), survival labels and station of each window, per part.
    windows = {
        part: part_windows(frame, channels, part, context_length=args.context_length, stride=args.stride)
        for part in ("train", "valid", "test")
    }
    X_train, y_train, groups = windows["train"]
    print(
        ", ".join(f"{part}: {len(X)} windows" for part, (X, _, _) in windows.items())
        + f"; training windows with an episode within {K} h: "
        f"{np.mean(y_train['event'] & (y_train['time'] <= K)):.2f}"
    )

    # 4. Self-supervised pretraining, then the event surface on the frozen embeddings.
    pipeline = make_pipeline(
        HEPAPretrainer(K=K, max_epochs=args.pretrain_epochs, device=args.device, random_state=args.seed),
        HEPAEventPredictor(K=K, max_epochs=args.finetune_epochs, device=args.device, random_state=args.seed),
    )
    start = time.perf_counter()
    pipeline.fit(X_train, y_train, hepapretrainer__groups=groups, hepaeventpredictor__groups=groups)
    print(f"fit: {time.perf_counter() - start:.0f} s")

    # 5. p(t, Δt) for Δt = 1..K, scored horizon by horizon.
    for part in ("valid", "test"):
        X, y, _ = windows[part]
        print(f"{part} h-AUROC: {h_auroc(y, pipeline.predict_proba(X)):.3f}")


if __name__ == "__main__":
    main()
