"""Does ``precision="bf16"`` speed training up on this CPU? Matrix products and whole epochs, fp32 against bf16.

Two measurements on one thread, each fp32 and bf16 in alternation within
one process (so load from other processes falls on both alike):

- GFLOP/s of single matrix products at shapes the FD001 protocol's model
  multiplies (rows of tokens or windows x d_model 256, the feed-forward's
  1,024, and the usual 2048^3 peak product), median of ``--repeats``;
- CPU seconds of one pretraining epoch and one finetuning epoch of the
  FD001 protocol's estimators (seed 0, ``fit`` with ``max_epochs=1``, the
  embeddings of an untrained encoder for the finetuning), with
  ``precision="fp32"`` and ``precision="bf16"`` (autocast to bfloat16 on
  the CPU; losses and optimiser in fp32), median of ``--repeats``.

``precision="auto"``, the default, is fp32 on the CPU and bf16 on CUDA.

    OMP_NUM_THREADS=1 taskset -c 0 python benchmarks/experiments/cpu_bf16/cpu_bf16.py
"""

import argparse
import platform
import statistics

import torch
from hepa_bench.speed.clock import cpu_clock

from hepa_sklearn.cmapss_protocol import SubsetSplit, protocol_event_predictor, protocol_pretrainer

SHAPES = [(128, 256, 256), (2048, 256, 256), (2048, 256, 1024), (9600, 256, 256), (2048, 2048, 2048)]


def matmul_gflops(m, k, n, dtype, calls=20):
    a, b = torch.randn(m, k, dtype=dtype), torch.randn(k, n, dtype=dtype)

    def products(n_calls):
        for _ in range(n_calls):
            a @ b

    products(3)
    return 2 * m * k * n * calls / cpu_clock(lambda: products(calls)) / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    flags = open("/proc/cpuinfo").read() if platform.system() == "Linux" else ""
    isa = [f for f in ("avx512_bf16", "amx_bf16", "amx_tile") if f" {f}" in flags]
    print(
        f"# torch {torch.__version__}, one thread, {platform.machine()}; "
        f"bf16 instructions: {', '.join(isa) or 'none'}; "
        f"medians of {args.repeats}, fp32 and bf16 alternated"
    )
    print("| product (m x k x n) | fp32 GFLOP/s | bf16 GFLOP/s | bf16 / fp32 |")
    print("|---|---|---|---|")
    for shape in SHAPES:
        runs = {dtype: [] for dtype in (torch.float32, torch.bfloat16)}
        for _ in range(args.repeats):
            for dtype in runs:
                runs[dtype].append(matmul_gflops(*shape, dtype))
        fp32, bf16 = (statistics.median(runs[d]) for d in runs)
        print(f"| {' x '.join(map(str, shape))} | {fp32:.1f} | {bf16:.1f} | {bf16 / fp32:.2f} |")

    data = SubsetSplit("FD001", 0, regime=False)
    E_train = protocol_pretrainer(0, device="cpu", seed=0).fit(data.X_pre).transform(data.X_train)
    stages = {
        "pretraining epoch": lambda p: protocol_pretrainer(1, device="cpu", seed=0, precision=p).fit(data.X_pre),
        "finetuning epoch": lambda p: protocol_event_predictor(1, device="cpu", seed=0, precision=p).fit(
            E_train, data.y_train
        ),
    }
    print("\n| FD001 protocol | fp32 CPU s | bf16 CPU s | bf16 / fp32 |")
    print("|---|---|---|---|")
    for name, fit in stages.items():
        runs = {"fp32": [], "bf16": []}
        for _ in range(args.repeats):
            for precision in runs:
                runs[precision].append(cpu_clock(lambda fit=fit, precision=precision: fit(precision)))
        fp32, bf16 = (statistics.median(runs[p]) for p in runs)
        print(f"| {name} | {fp32:.2f} | {bf16:.2f} | {bf16 / fp32:.2f} |")


if __name__ == "__main__":
    main()
