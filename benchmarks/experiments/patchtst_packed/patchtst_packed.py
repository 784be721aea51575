"""How much does PatchTST's packed pass save on padded windows, and does it give the dense pass's states?

C-MAPSS windows are left-padded with NaN up to 512 cycles: on the stride-4
training windows of FD001 about two thirds of the steps are padding (a
window ends from cycle 128 of its engine on). PatchTST runs every channel
as its own token stream, so the dense pass spends most of its work on
tokens whose states are masked out of attention and left out of the mean.
:class:`hepa_sklearn.nn.baselines.PatchTSTBackbone` packs the valid tokens
of a batch when it holds any padding (and runs the dense pass otherwise).

For each dataset this script draws batches of 64 training windows (the
estimator's batch size) and times a training step's forward and backward
pass of the backbone at the estimator's default size (d_model 256, 2
layers, patches of 16 every 8 steps), packed against the dense pass
(``pack=False``: every token computed, as before the packed pass), in interleaved order on
the same batches; the table gives the median CPU milliseconds per step (the
process's CPU clock). It also compares the per-channel states of both
passes in eval mode (largest absolute difference) and gives the share of
valid tokens.

    OMP_NUM_THREADS=1 HEPA_DATA_HOME=<data folder> \
        python benchmarks/experiments/patchtst_packed/patchtst_packed.py
"""

import argparse
import statistics
import time

import numpy as np
import torch
from hepa_bench.registry import BENCHMARKS

from hepa_sklearn.nn.baselines import PatchTSTBackbone
from hepa_sklearn.nn.encoder import EncoderConfig


def step_ms(forward):
    start = time.process_time()
    forward().square().mean().backward()
    return 1000 * (time.process_time() - start)


def measure(name, batches, batch_size, rng):
    data = BENCHMARKS[name].load(0)
    X = data.X_train
    torch.manual_seed(0)
    backbone = PatchTSTBackbone(EncoderConfig(n_channels=X.shape[1], norm="revin"), patch_stride=8)
    times = {"packed": [], "dense": []}
    valid_share, largest = [], 0.0
    for i in range(batches):
        x = torch.as_tensor(X[rng.choice(len(X), batch_size, replace=False)])
        valid_share.append(float(backbone.patches(x)[1].float().mean()))
        order = [("packed", lambda x=x: backbone(x)[0]), ("dense", lambda x=x: backbone(x, pack=False)[0])]
        for variant, forward in order if i % 2 == 0 else order[::-1]:
            backbone.zero_grad()
            times[variant].append(step_ms(forward))
        with torch.no_grad():
            backbone.eval()
            largest = max(largest, float((backbone(x)[0] - backbone(x, pack=False)[0]).abs().max()))
            backbone.train()
    packed, dense = (statistics.median(times[v]) for v in ("packed", "dense"))
    return [
        name,
        f"{statistics.mean(valid_share):.2f}",
        f"{dense:.0f}",
        f"{packed:.0f}",
        f"{dense / packed:.2f}",
        f"{largest:.1e}",
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["FD001", "TEP", "MBA"])
    parser.add_argument("--batches", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    rows = [measure(name, args.batches, args.batch_size, rng) for name in args.datasets]
    print(
        f"# torch {torch.__version__}, {torch.backends.cpu.get_cpu_capability()} kernels, one thread; "
        f"median CPU ms per training step (forward + backward) over {args.batches} batches of "
        f"{args.batch_size} training windows, the two passes interleaved"
    )
    print(
        "| dataset | valid token share | dense ms/step | packed ms/step | dense / packed | largest state difference |"
    )
    print("|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
