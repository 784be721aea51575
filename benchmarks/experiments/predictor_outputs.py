"""The paper's predictor figure: the finetuned predictor's outputs at horizons 10, 50, 100 beside the embeddings.

The paper's appendix draws a t-SNE of C-MAPSS FD001's encoder outputs h_t
and the finetuned predictor's outputs ĥ(t, k) at k = 10, 50, 100, and reads
that the outputs shift away from the encoder's manifold as k grows. For
each dataset, seed 0: the protocol's encoder pretrained on the row's
pretraining windows, its protocol event predictor (pred-FT) fitted on the
training embeddings, and the test windows drawn with
:class:`hepa_sklearn.plotting.PredictorOutputsDisplay` (t-SNE, as the
paper). One JSON line per dataset with each horizon's relative shift (the
mean distance from ĥ(t, k) to its own h_t, in units of the embeddings'
spread, in the full space) and the mean cosine similarity of ĥ(t, k) with
h_t; one figure with a panel per dataset.

    OMP_NUM_THREADS=1 python benchmarks/experiments/predictor_outputs.py --datasets FD001 MBA \\
        --figure docs/predictor_outputs.png > benchmarks/experiments/predictor_outputs.txt
"""

import argparse
import json
import time

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402
from hepa_bench.registry import BENCHMARKS  # noqa: E402

from hepa_sklearn.plotting import PredictorOutputsDisplay, predictor_outputs  # noqa: E402

HORIZONS = (10, 50, 100)


def mean_cosine(E, outputs):
    """Mean cosine similarity of each window's ĥ(t, k) with its h_t, per horizon."""
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)
    return [float(np.mean(np.sum(unit * (o / np.linalg.norm(o, axis=1, keepdims=True)), axis=1))) for o in outputs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["FD001", "MBA"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-home", default=None)
    parser.add_argument("--figure", default="predictor_outputs.png")
    args = parser.parse_args()
    torch.set_num_threads(1)
    figure, axes = plt.subplots(1, len(args.datasets), figsize=(6 * len(args.datasets), 5), squeeze=False)
    for ax, name in zip(axes[0], args.datasets, strict=True):
        entry = BENCHMARKS[name]
        data = entry.load(args.seed, args.data_home)
        start = time.process_time()
        encoder = entry.make_pretrainer(entry.pretrain_epochs, device="cpu", seed=args.seed).fit(data.X_pre)
        E_train, E_valid, E_test = (encoder.transform(X) for X in (data.X_train, data.X_valid, data.X_test))
        head = entry.make_event_predictor(entry.finetune_epochs, device="cpu", seed=args.seed)
        entry.fit_head(head, E_train, data.y_train, E_valid, data.y_valid)
        horizons = [k for k in HORIZONS if k <= head.K]
        outputs = predictor_outputs(head, E_test, horizons)
        display = PredictorOutputsDisplay.from_outputs(
            E_test, outputs, horizons, method="tsne", random_state=args.seed, name=f"{name}, seed {args.seed}", ax=ax
        )
        print(
            json.dumps(
                {
                    "dataset": name,
                    "seed": args.seed,
                    "horizons": horizons,
                    "relative_shift": [round(float(s), 4) for s in display.relative_shift],
                    "cosine_with_embedding": [round(c, 4) for c in mean_cosine(E_test, outputs)],
                    "n_test_windows": int(len(E_test)),
                    "cpu_s": round(time.process_time() - start, 1),
                }
            ),
            flush=True,
        )
    figure.tight_layout()
    figure.savefig(args.figure, dpi=80)


if __name__ == "__main__":
    main()
