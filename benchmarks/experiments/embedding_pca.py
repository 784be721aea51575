"""The embedding geometry of the paper's Fig. 3b: PC1's share of the variance and its Spearman ρ with time to event.

For each dataset, the encoder of the benchmark's protocol is fitted on the
row's pretraining windows (seed 0) twice: pretrained (``--pretrain-epochs``,
C-MAPSS's protocol epochs by default) and untrained (``max_epochs=0``); the
test windows are embedded and drawn with
:class:`hepa_sklearn.plotting.EmbeddingPCADisplay`. One JSON line per
(dataset, encoder) with PC1's and PC2's shares, ρ pooled over the windows
and the median of ρ within each unit (the paper's per-engine figure); one
figure with a panel per (dataset, encoder).

    OMP_NUM_THREADS=1 python benchmarks/experiments/embedding_pca.py --datasets FD001 ETTm1 Beijing \\
        --figure docs/embedding_pca.png
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

from hepa_sklearn.plotting import EmbeddingPCADisplay  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["FD001", "ETTm1", "Beijing"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--pretrain-epochs", type=int, default=None, help="pretraining epochs (default: each dataset's protocol's)"
    )
    parser.add_argument("--data-home", default=None)
    parser.add_argument("--figure", default="embedding_pca.png")
    args = parser.parse_args()
    torch.set_num_threads(1)
    figure, axes = plt.subplots(len(args.datasets), 2, figsize=(11, 4.2 * len(args.datasets)), squeeze=False)
    for row, name in enumerate(args.datasets):
        entry = BENCHMARKS[name]
        data = entry.load(args.seed, args.data_home)
        epochs = entry.pretrain_epochs if args.pretrain_epochs is None else args.pretrain_epochs
        for column, (label, n) in enumerate((("pretrained", epochs), ("untrained", 0))):
            start = time.process_time()
            encoder = entry.make_pretrainer(n, device="cpu", seed=args.seed).fit(data.X_pre)
            display = EmbeddingPCADisplay.from_estimator(
                encoder,
                data.X_test,
                data.y_test,
                groups=data.g_test,
                name=f"{name}, {label} encoder",
                ax=axes[row, column],
            )
            print(
                json.dumps(
                    {
                        "dataset": name,
                        "seed": args.seed,
                        "encoder": label,
                        "pretrain_epochs": n,
                        "pc1_share": float(display.explained_variance_ratio[0]),
                        "pc2_share": float(display.explained_variance_ratio[1]),
                        "spearman_rho_pc1_time": display.spearman_rho,
                        "median_unit_spearman_rho": float(np.nanmedian(display.unit_spearman_rho))
                        if np.isfinite(display.unit_spearman_rho).any()
                        else None,
                        "n_units": int(display.unit_spearman_rho.size),
                        "cpu_s": round(time.process_time() - start, 1),
                    }
                ),
                flush=True,
            )
    figure.tight_layout()
    figure.savefig(args.figure, dpi=80)


if __name__ == "__main__":
    main()
