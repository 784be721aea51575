"""Where one pretraining step of the FD001 protocol spends its time, part by part, against the matmul peak.

The protocol pretrainer's net (seed 0, packed layout, 64 cuts per step) on
the batches of one epoch, one thread. Each part is timed on its own over
the same batches (CPU clock, median of ``--repeats`` passes over them),
and its FLOPs are counted by torch's FLOP counter:

- collate: drawing the batches (dataset indexing and the collate function);
- context pass: the causal encoder over the distinct windows (forward);
- target pass: the interval tokens, the bidirectional packed pass and the
  attention pooling (forward);
- predictor and loss: g(h, Δt), SIGReg and the L1 term (forward);
- backward: the gradient of the whole step's loss;
- optimiser: AdamW's step (fused);

then one epoch as ``fit`` runs it (skorch's ``partial_fit``: collate,
steps, history), the whole step as skorch runs it (``train_step``), the same step with
every dropout probability set to 0 (what drawing and applying the dropout
masks costs is the difference), and the time of the matrix products alone
(their FLOPs at the measured peak). Everything runs under the float and
memory settings ``fit`` uses (subnormals flushed, freed heap kept). The share of the peak a part reaches
is its GFLOP/s over the fp32 matmul peak
(``hepa_bench.speed.protocol.matmul_peak_gflops``).

    OMP_NUM_THREADS=1 taskset -c 0 python benchmarks/experiments/profiling/pretraining_parts.py
"""

import argparse
import statistics

import torch
from hepa_bench.speed.clock import cpu_clock
from hepa_bench.speed.protocol import matmul_peak_gflops
from stage_profile import flops_of, git_commit, pretraining

from hepa_sklearn.cmapss_protocol import SubsetSplit
from hepa_sklearn.training import flushed_denormals, retained_heap


def over(task, items):
    """A call of ``task`` on every item of ``items``, as one task."""
    return lambda: [task(item) for item in items]


def cpu_ms(task, items, repeats):
    """Median CPU milliseconds of ``task(item)`` per item, over ``repeats`` passes over ``items`` after one warm-up."""
    whole = over(task, items)
    whole()
    return statistics.median(cpu_clock(whole) for _ in range(repeats)) / len(items) * 1e3


def gflop(task, items):
    """FLOPs of ``task`` per item, in GFLOP."""
    return flops_of(over(task, items)) / len(items) / 1e9


def measure(task, items, scale, batches, repeats):
    """``(CPU ms, GFLOP, GFLOP/s)`` of ``task`` per step (``scale`` steps per item); FLOPs only over the batches."""
    ms = cpu_ms(task, items, repeats) * scale
    flops = gflop(task, items) * scale if items is batches else 0.0
    return ms, flops, flops / ms * 1e3 if ms else 0.0


def set_dropout(module, p):
    """Every dropout probability of the JEPA module (token dropout and attention dropout) set to ``p``."""
    for layer in module.modules():
        if isinstance(layer, torch.nn.Dropout):
            layer.p = p
        elif hasattr(layer, "dropout") and isinstance(layer.dropout, float):
            layer.dropout = p


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    peak = max(matmul_peak_gflops() for _ in range(3))
    net, dataset = pretraining(SubsetSplit("FD001", args.seed, regime=False), args.seed)
    net.partial_fit(dataset, epochs=1)  # warm-up: allocator, optimiser state
    module, criterion, optimizer = net.module_, net.criterion_, net.optimizer_
    module.train()
    pairs = list(net.get_iterator(dataset, training=True))
    batches = [X for X, _ in pairs]
    y_of = {id(X): y for X, y in pairs}
    n_steps = len(batches)
    encoder = module.encoder

    def context(X):
        distinct = torch.unique(X["owner"])
        return module.shared_context_state(X["x"][distinct], torch.searchsorted(distinct, X["owner"]), X["cut"])

    def target(X):
        loc, scale = (s[X["owner"]] for s in encoder.statistics(X["x"], None))
        return module.target_state(X["x"], X["cut"], X["dt"], loc, scale)

    h = {id(X): context(X)[0].detach().requires_grad_() for X in batches}
    t = {id(X): target(X) for X in batches}

    def predictor_and_loss(X):
        target_state, has_target = t[id(X)]
        predicted = module.predictor(h[id(X)], X["dt"])
        return criterion((predicted, target_state, (X["usable"] * has_target).float()))

    def backward(X):
        optimizer.zero_grad()
        criterion(module(**X)).backward()

    def optimiser_step(X):
        optimizer.step()

    parts = [
        ("collate", lambda _: list(net.get_iterator(dataset, training=True)), [None], 1 / n_steps),
        ("context pass (forward)", context, batches, 1),
        ("target pass (forward)", target, batches, 1),
        ("predictor and loss (forward)", predictor_and_loss, batches, 1),
        ("forward and backward", backward, batches, 1),
        ("optimiser", optimiser_step, batches, 1),
        ("one epoch through partial_fit, per step", lambda _: net.partial_fit(dataset, epochs=1), [None], 1 / n_steps),
        ("whole step (train_step)", lambda X: net.train_step((X, y_of[id(X)])), batches, 1),
    ]
    with flushed_denormals(), retained_heap():  # the float and memory settings fit runs its epochs under
        rows = [measure(task, items, scale, batches, args.repeats) for name, task, items, scale in parts]
        set_dropout(module, 0.0)
        no_dropout_ms = cpu_ms(lambda X: net.train_step((X, y_of[id(X)])), batches, args.repeats)
    rows = [(name, *row) for (name, *_), row in zip(parts, rows, strict=True)]
    step_ms, step_gflop = rows[-1][1], rows[-1][2]

    print(
        f"# FD001 seed {args.seed}, commit {git_commit()}, torch {torch.__version__}, one thread; "
        f"{n_steps} steps of 64 cuts; matmul peak {peak:.1f} GFLOP/s; CPU ms are medians of {args.repeats}"
    )
    print("| part | CPU ms per step | share of the step | GFLOP per step | GFLOP/s | share of peak |")
    print("|---|---|---|---|---|---|")
    for name, ms, flops, rate in rows:
        print(f"| {name} | {ms:.2f} | {ms / step_ms:.0%} | {flops:.3f} | {rate:.1f} | {rate / peak:.0%} |")
    print(
        f"\nThe whole step with every dropout probability 0: {no_dropout_ms:.2f} ms; drawing and applying "
        f"the dropout masks costs {step_ms - no_dropout_ms:.2f} ms of {step_ms:.2f} "
        f"({(step_ms - no_dropout_ms) / step_ms:.0%})."
    )
    print(
        f"The step's {step_gflop:.3f} GFLOP at the peak would take {step_gflop / peak * 1e3:.2f} ms "
        f"({step_gflop / peak * 1e3 / step_ms:.0%} of the measured step); without the dropout work, "
        f"{step_gflop / peak * 1e3 / no_dropout_ms:.0%}."
    )


if __name__ == "__main__":
    main()
