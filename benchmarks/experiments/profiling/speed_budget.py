"""What a five-times ratio against the authors' code leaves for each kind of work in the FD001 protocol run.

The protocol's training stages (``hepa protocol``: 50 pretraining epochs of
38 steps, 30 finetuning epochs of 21 steps, FD001 seed 0, one thread), each
measured over whole epochs of its real net as ``fit`` trains it
(``stage_profile.pretraining`` and ``stage_profile.finetuning``), and the
two inference calls of the run. For every stage:

- CPU s: the process's CPU clock per step (median over ``--repeats``
  epochs) times the protocol's steps, or the call's CPU time;
- its time in matrix-product kernels, in the random-number kernels
  (dropout's Bernoulli draws, SIGReg's Gaussian directions), and in every
  other operator (element-wise, normalisation, softmax, indexing, copies),
  from one more epoch or call under torch.profiler (operator self times),
  scaled to the protocol's steps;
- the rest: CPU s less the three kernel times (Python, skorch, autograd's
  engine, operator dispatch);
- at the peak: the stage's FLOPs at the fp32 matmul peak
  (``hepa_bench.speed.protocol.matmul_peak_gflops``).

With ``--reference-json`` (the output of ``hepa-bench speed --reference``
on the same machine) it also prints what a 5x CPU ratio allows: the
authors' median CPU seconds over 5, and how much of it the matrix-product
kernels alone already take. The profiler adds its own cost outside the
kernels, so the kernel times are upper bounds and the rest a lower bound.

    OMP_NUM_THREADS=1 taskset -c 0 python benchmarks/experiments/profiling/speed_budget.py \
        --reference-json benchmarks/outputs/speed_reference_median3.json
"""

import argparse
import json
import statistics

import torch
from hepa_bench.speed.clock import cpu_clock
from hepa_bench.speed.protocol import matmul_peak_gflops
from pretraining_parts import set_dropout
from stage_profile import git_commit, kernel_times, protocol_parts
from torch.utils.flop_counter import FlopCounterMode

from hepa_sklearn.training import flushed_denormals, retained_heap

RANDOM_OPS = {"aten::bernoulli_", "aten::normal_", "aten::uniform_", "aten::randperm", "aten::random_"}
PRETRAIN_EPOCHS, FINETUNE_EPOCHS, TARGET_RATIO = 50, 30, 5


def kernel_seconds(task):
    """Self seconds of one call's aten operators: (matrix products, random numbers, every other operator)."""
    _, matmul, other, top = kernel_times(task)
    random = sum(top[op] for op in RANDOM_OPS)
    return matmul, random, other - random


def stage_row(task, scale, repeats, peak):
    """CPU s, kernel seconds (matmul, random, other), the rest, and seconds at the peak of ``task`` times ``scale``."""
    task()  # warm-up
    seconds = statistics.median(cpu_clock(task) for _ in range(repeats)) * scale
    with FlopCounterMode(display=False) as counter:
        task()
    kernels = [value * scale for value in kernel_seconds(task)]
    rest = max(0.0, seconds - sum(kernels))
    return [seconds, *kernels, rest, counter.get_total_flops() * scale / peak / 1e9]


def step_overhead(net, dataset, repeats):
    """CPU ms per pretraining step through skorch's ``train_step`` and a bare loop (same batches); steps per epoch."""
    batches = list(net.get_iterator(dataset, training=True))
    module, criterion, optimizer = net.module_, net.criterion_, net.optimizer_

    def bare():
        module.train()
        for X, _ in batches:
            optimizer.zero_grad(set_to_none=True)
            criterion(module(**X)).backward()
            optimizer.step()

    def through_skorch():
        for batch in batches:
            net.train_step(batch)

    with flushed_denormals(), retained_heap():
        times = {task: [] for task in (through_skorch, bare)}
        for _ in range(repeats + 1):  # alternated, the first pair a warm-up
            for task, values in times.items():
                values.append(cpu_clock(task))
    return (*(statistics.median(values[1:]) / len(batches) * 1e3 for values in times.values()), len(batches))


def reference_cpu_seconds(path):
    """Median CPU seconds of the authors' runs, and of this package's, in a side-by-side result file."""
    with open(path) as handle:
        result = json.load(handle)
    median = result["median"]
    return median["reference"]["cpu_s"], median["hepa_sklearn"]["cpu_s"], len(result["runs"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference-json", default=None)
    args = parser.parse_args()
    torch.set_num_threads(1)
    peak = max(matmul_peak_gflops() for _ in range(3))
    _, pretrainer, X_embed, E_train, E_test, net, dataset, predictor, packed = protocol_parts(args.seed)
    stages = [
        ("pretraining", PRETRAIN_EPOCHS, lambda: net.partial_fit(dataset, epochs=1)),
        ("finetuning", FINETUNE_EPOCHS, lambda: predictor.net_.partial_fit(E_train, packed, epochs=1)),
        ("transform and predict_proba", 1, lambda: (pretrainer.transform(X_embed), predictor.predict_proba(E_test))),
    ]
    rows = [(name, stage_row(task, scale, args.repeats, peak)) for name, scale, task in stages]
    total = [sum(values) for values in zip(*(row for _, row in rows), strict=True)]
    skorch_ms, bare_ms, n_steps = step_overhead(net, dataset, args.repeats)
    set_dropout(net.module_, 0.0)
    no_dropout = stage_row(stages[0][2], PRETRAIN_EPOCHS, args.repeats, peak)

    print(
        f"# FD001 seed {args.seed}, commit {git_commit()}, torch {torch.__version__}, one thread; "
        f"matmul peak {peak:.1f} GFLOP/s; CPU s from medians of {args.repeats} epochs or calls, "
        f"scaled to the protocol's {PRETRAIN_EPOCHS} + {FINETUNE_EPOCHS} epochs"
    )
    print(
        "| stage | CPU s | matmul kernels s | random-number kernels s | other kernels s | rest s | "
        "FLOPs at the peak s |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, row in [*rows, ("all three", total), ("pretraining, every dropout probability 0", no_dropout)]:
        print(f"| {name} | " + " | ".join(f"{value:.1f}" for value in row) + " |")
    print(
        f"\nskorch's step around the model: {skorch_ms:.2f} CPU ms per pretraining step through "
        f"`train_step`, {bare_ms:.2f} for the bare loop (zero the gradients, forward, loss, backward, AdamW) "
        f"on the same batches ({skorch_ms - bare_ms:.2f} ms per step, "
        f"{(skorch_ms - bare_ms) * 1e-3 * n_steps * PRETRAIN_EPOCHS:.1f} s over the protocol's "
        f"{n_steps * PRETRAIN_EPOCHS} pretraining steps)."
    )
    if args.reference_json:
        reference, own, n_pairs = reference_cpu_seconds(args.reference_json)
        allowed, matmul = reference / TARGET_RATIO, total[1]
        print(
            f"\nAuthors' implementation: {reference:.1f} CPU s (median of {n_pairs} side-by-side pairs in "
            f"{args.reference_json}; this package {own:.1f} there, imports and data included). "
            f"A {TARGET_RATIO}x ratio allows {allowed:.1f} CPU s for the whole run. The matrix-product "
            f"kernels alone take {matmul:.1f} s of the stages above, leaving {allowed - matmul:.1f} s for "
            f"everything else, which takes {total[0] - matmul:.1f} s now; all of the stages' FLOPs at the "
            f"peak would take {total[5]:.1f} s."
        )


if __name__ == "__main__":
    main()
