"""Where the CPU time of each stage of the FD001 protocol goes: FLOPs, share of the matmul peak, kernels, overhead.

The four stages of ``hepa protocol`` (FD001, seed 0) on one thread, at the
protocol's shapes:

- pretraining: the protocol pretrainer's skorch net (built by its
  ``initialize``, packed layout) trains whole epochs on the 60 training
  units (40 cuts each: 38 batches of 64 cuts), through skorch's
  ``partial_fit``, as ``fit`` does;
- finetuning: the protocol event predictor's net (K = 150) trains whole
  epochs on the embeddings of the stride-4 training windows, measured
  from its second epoch and again from its 21st (of the protocol's 30:
  late epochs differ, see the notes);
- transform: the pretrainer's ``transform`` of the stride-4 training and
  validation windows and the stride-1 test windows;
- predict_proba: the event predictor's ``predict_proba`` of the test
  windows' embeddings.

The weights are the initial ones (``max_epochs=0`` for the encoder): they
do not change the cost of a step. For each stage:

- CPU ms: the process's CPU clock per training step (per 1,000 windows for
  the inference stages), median over ``--repeats`` epochs or calls;
- FLOPs: torch's FLOP counter over one epoch or call (matrix products and
  attention; element-wise work counts 0), per step or per 1,000 windows;
- GFLOP/s and the share of the matmul peak
  (``hepa_bench.speed.protocol.matmul_peak_gflops``, a 2048 x 2048 fp32 product,
  the best of three measurements);
- kernels: in one more call under torch.profiler, the time inside aten
  operators (their self time), split into matrix products (mm, addmm,
  bmm, baddbmm, CPU flash attention) and the other operators, as shares
  of that call's wall time (the profiler measures wall time; the process
  is pinned to one core, so wall and CPU time differ only by what other
  processes on the core take); the rest of it is Python and framework
  overhead (skorch, the collate function, autograd's engine, the
  optimiser's Python, operator dispatch, and the profiler's own cost);
- matmul efficiency: the FLOPs divided by the time of the matrix-product
  kernels alone in that call, as a share of the peak;
- Python: the share of the time cProfile attributes to Python functions
  themselves (cProfile slows Python calls, so this overstates it), with the
  three files that take most of it;
- page faults: the minor page faults of one more call (fresh memory pages
  the process touched), per step or per 1,000 windows;
- collate (pretraining): the CPU time of drawing one epoch's batches alone.

Then the ten operators with the most self time in each stage, as shares
of the profiled call's wall time.

    OMP_NUM_THREADS=1 taskset -c 0 python benchmarks/experiments/profiling/stage_profile.py
"""

import argparse
import cProfile
import os
import platform
import pstats
import resource
import statistics
import subprocess
import time
from collections import Counter

import numpy as np
import torch
from hepa_bench.speed.clock import cpu_clock
from hepa_bench.speed.protocol import matmul_peak_gflops
from torch.profiler import ProfilerActivity, profile
from torch.utils.flop_counter import FlopCounterMode

import hepa_sklearn
from hepa_sklearn.cmapss_protocol import SubsetSplit, protocol_event_predictor, protocol_pretrainer

MATMUL_OPS = {
    "aten::mm",
    "aten::addmm",
    "aten::bmm",
    "aten::baddbmm",
    "aten::addmv",
    "aten::mv",
    "aten::_scaled_dot_product_flash_attention_for_cpu",
    "aten::_scaled_dot_product_flash_attention_for_cpu_backward",
}


def page_faults(task):
    """Minor page faults (fresh pages touched) of one call."""
    start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    task()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start


def flops_of(task):
    with FlopCounterMode(display=False) as counter:
        task()
    return counter.get_total_flops()


def kernel_times(task):
    """Wall seconds of a profiled call, its aten self time in matrix products and in other operators, the top ones."""
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        start = time.perf_counter()
        task()
        seconds = time.perf_counter() - start  # the profiler's times are wall-clock times too
    total, matmul, other = seconds, 0.0, 0.0
    top = Counter()
    for event in prof.key_averages():
        if not event.key.startswith("aten::"):
            continue
        seconds = event.self_cpu_time_total / 1e6
        top[event.key] += seconds
        if event.key in MATMUL_OPS:
            matmul += seconds
        else:
            other += seconds
    return total, matmul, other, top


def python_self_time(task):
    """Share of cProfile's total time in Python functions themselves, and the files that take most of it."""
    profiler = cProfile.Profile()
    profiler.enable()
    task()
    profiler.disable()
    stats = pstats.Stats(profiler)
    by_file = Counter()
    for (filename, _, _), (_, _, own, _, _) in stats.stats.items():
        if filename != "~":  # "~" marks built-in (C) functions, torch's operators among them
            parts = filename.split(os.sep)
            inside = parts[parts.index("site-packages") + 1 :][:2] if "site-packages" in parts else parts[-2:]
            key = "/".join(inside)
            by_file[key] += own
    return sum(by_file.values()) / stats.total_tt, by_file


def pretraining(data, seed):
    """The protocol pretrainer's initialised net and its training dataset."""
    pretrainer = protocol_pretrainer(50, device="cpu", seed=seed).initialize(data.X_pre)
    dataset, _ = pretrainer.training_data(data.X_pre)
    return pretrainer.net_, dataset


def finetuning(data, seed, E_train):
    """The protocol event predictor's initialised net and its training data (embeddings, packed targets)."""
    predictor = protocol_event_predictor(30, device="cpu", seed=seed).initialize(E_train, data.y_train)
    _, packed = predictor.training_data(E_train, data.y_train)
    return predictor, packed


def protocol_parts(seed):
    """What the FD001 protocol's stages run on at ``seed``.

    Returns the split, the protocol pretrainer (never pretrained), the windows
    the run embeds, the embeddings of the training and test windows, the
    pretraining net and dataset, and the event predictor and its packed
    targets (see :func:`pretraining` and :func:`finetuning`).
    """
    data = SubsetSplit("FD001", seed, regime=False)
    pretrainer = protocol_pretrainer(0, device="cpu", seed=seed).fit(data.X_pre)
    X_embed = np.concatenate([data.X_train, data.X_valid, data.X_test])
    E_train, E_test = pretrainer.transform(data.X_train), pretrainer.transform(data.X_test)
    return (data, pretrainer, X_embed, E_train, E_test, *pretraining(data, seed), *finetuning(data, seed, E_train))


def git_commit():
    """The commit of the checkout the library is imported from."""
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=os.path.dirname(hepa_sklearn.__file__),
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    peak = max(matmul_peak_gflops() for _ in range(3))
    data, pretrainer, X_embed, E_train, E_test, net, dataset, predictor, packed = protocol_parts(args.seed)
    n_pre_steps = len(net.get_iterator(dataset, training=True))
    n_fine_steps = len(predictor.net_.get_iterator(predictor.net_.get_dataset(E_train, packed), training=True))
    fine_tune = lambda: predictor.net_.partial_fit(E_train, packed, epochs=1)  # noqa: E731
    stages = [
        ("pretraining step", "step", n_pre_steps, lambda: net.partial_fit(dataset, epochs=1)),
        ("finetuning step, epochs 2-", "step", n_fine_steps, fine_tune),
        ("finetuning step, epochs 21-", "step", n_fine_steps, fine_tune),
        ("transform", "1,000 windows", len(X_embed) / 1000, lambda: pretrainer.transform(X_embed)),
        ("predict_proba", "1,000 windows", len(E_test) / 1000, lambda: predictor.predict_proba(E_test)),
    ]
    rows, tops, notes = [], [], []
    for name, unit, n_items, task in stages:
        if name.startswith("finetuning step, epochs 21"):
            predictor.net_.partial_fit(E_train, packed, epochs=20 - predictor.net_.history[-1, "epoch"])
        task()  # warm-up
        seconds = statistics.median(cpu_clock(task) for _ in range(args.repeats))
        flops = flops_of(task)
        faults = page_faults(task)
        profiled, matmul, other, top = kernel_times(task)
        python_share, by_file = python_self_time(task)
        top_files = ", ".join(f"{k} {v / sum(by_file.values()):.0%}" for k, v in by_file.most_common(3))
        reached = flops / seconds / 1e9
        rows.append(
            f"| {name} | {seconds / n_items * 1e3:.1f} ms per {unit} | {flops / n_items / 1e9:.3f} G | "
            f"{reached:.1f} | {reached / peak:.0%} | {matmul / profiled:.0%} | {other / profiled:.0%} | "
            f"{max(0.0, 1 - (matmul + other) / profiled):.0%} | {flops / matmul / 1e9 / peak:.0%} | "
            f"{python_share:.0%} ({top_files}) | "
            f"{faults / n_items:.0f} |"
        )
        tops.append(f"- {name}: " + ", ".join(f"{op[6:]} {t / profiled:.0%}" for op, t in top.most_common(10)))
    collate = statistics.median(
        cpu_clock(lambda: list(net.get_iterator(dataset, training=True))) for _ in range(args.repeats)
    )
    notes.append(
        f"- pretraining: drawing one epoch's {n_pre_steps} batches alone (collate function and "
        f"dataset indexing) takes {collate / n_pre_steps * 1e3:.1f} CPU ms per step."
    )

    print(
        f"# FD001 seed {args.seed}, commit {git_commit()}, torch {torch.__version__}, one thread, "
        f"{platform.processor() or platform.machine()}; matmul peak {peak:.1f} GFLOP/s; "
        f"CPU ms are medians of {args.repeats}"
    )
    print(
        f"# items: {len(data.X_pre)} pretraining units x 40 cuts ({n_pre_steps} steps of 64), "
        f"{len(E_train)} finetuning windows ({n_fine_steps} steps), {len(X_embed)} windows embedded, "
        f"{len(E_test)} test windows"
    )
    print(
        "| stage | CPU time | GFLOP per item | GFLOP/s | share of peak | matmul kernels | other kernels | "
        "overhead | matmul efficiency | Python self (cProfile; top files) | page faults per item |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\nOperators with the most self time, as shares of the profiled call's wall time:")
    print("\n".join(tops))
    print("\n".join(["", *notes]))


if __name__ == "__main__":
    main()
