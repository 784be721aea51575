"""Speed benchmark: the FD001 protocol end to end in a child process; throughput, FLOPs, scaling.

Each measured run is a child process (:mod:`hepa_bench.speed.processes`) running
the C-MAPSS protocol with the pretrainer in either batch layout
(:func:`~hepa_bench.protocols.run_protocol`: ``"packed"`` is the library's
``run_cmapss``). ``--reference PATH`` times the authors' implementation
beside it instead (:mod:`hepa_bench.speed.reference`).
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np
import torch
from torch.utils.flop_counter import FlopCounterMode

from ..protocols import LAYOUTS, protocol_pretrainer, run_protocol
from .options import add_further_configurations, add_protocol_options, changed_options, option_argv, option_label
from .processes import thread_env, timed_child
from .reference import REFERENCE_COMMIT, run_reference


def _one_run(args):
    """Child process: one full protocol run, printed as one JSON line."""
    if args.threads:
        torch.set_num_threads(args.threads)
    result = run_protocol(
        "FD001",
        layout=args.batch_layout,
        cuts_per_unit=args.cuts_per_unit,
        horizon_knots=args.horizon_knots,
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        device=args.device,
        log=lambda message: None,
    )
    result["torch_threads"] = torch.get_num_threads()
    print(json.dumps(result))


def matmul_peak_gflops(n=2048, repeats=10):
    """Measured fp32 matrix-product rate of this machine, the compute bound used below."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    start = time.perf_counter()
    for _ in range(repeats):
        a @ b
    return 2 * n**3 * repeats / (time.perf_counter() - start) / 1e9


def stage_flops(n_channels=14, context_length=512, history=206, K=150, batch=64, batch_layout="packed"):
    """FLOPs per window of each stage with the paper's model, counted by torch's FLOP counter.

    The JEPA module is the protocol pretrainer's in ``batch_layout``
    (:func:`~hepa_bench.protocols.protocol_pretrainer`), built with the
    weights training would start from (``max_epochs=0``). ``history`` is
    the number of observed steps per window (FD001's mean unit length is 206
    cycles); the rest of the window is padding that the encoder skips.
    ``"packed"`` batches hold blocks of 8 cuts of one window and compute no
    target padding; ``"padded"`` ones about 40 windows per 64 cuts (counted
    as 2 cuts per window) and padded target groups.
    """
    from hepa_sklearn.nn import EventModel
    from hepa_sklearn.nn.losses import surface_bce

    rng = np.random.default_rng(0)
    windows = rng.normal(size=(batch, n_channels, context_length)).astype(np.float32)
    windows[..., : context_length - history] = np.nan
    pretrainer = protocol_pretrainer(0, device="cpu", seed=0, layout=batch_layout).fit(windows)
    model = pretrainer.net_.module_.train()
    torch.manual_seed(0)
    head = EventModel(pretrainer.d_model, pretrainer.d_model, K, float(K))
    x = torch.from_numpy(windows)
    P = pretrainer.patch_size
    cut = torch.tensor(context_length - P * rng.integers(1, history // P, size=batch))
    dt = torch.tensor(np.minimum(np.exp(rng.uniform(0, np.log(K + 1), size=batch)).astype(int), K)).clamp(min=1)
    per_window = 8 if batch_layout == "packed" else 2  # padded FD001 batches: 64 cuts of ~40 windows
    owner = torch.arange(batch) // per_window * per_window
    counts = {}
    with FlopCounterMode(display=False) as counter:
        predicted, target, *_ = model(x, owner, cut, dt, torch.ones(batch))
        (predicted - target).square().mean().backward()
    counts["pretrain (fwd+bwd) per cut"] = counter.get_total_flops() / batch
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model.embed(x)
    transform = counter.get_total_flops() / batch
    E = torch.randn(batch, pretrainer.d_model)
    labels = torch.zeros(batch, K)
    with FlopCounterMode(display=False) as counter:
        surface_bce(head(E), labels, torch.ones_like(labels), 1.0).backward()
    counts["finetune (fwd+bwd) per window"] = counter.get_total_flops() / batch
    counts["transform per window"] = transform
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        head(E)
    counts["predict_proba per window"] = counter.get_total_flops() / batch
    return counts


def _throughput(result):
    return {
        "pretrain cuts/s": result["pretrain_epochs"]
        * result["cuts_per_window"]
        * result["n_pretrain_windows"]
        / result["pretrain_s"],
        "finetune windows/s": result["finetune_epochs"] * result["n_finetune_windows"] / result["finetune_s"],
        "transform windows/s": result["n_embedded_windows"] / result["embed_s"],
        "predict_proba windows/s": result["n_test_windows"] / result["predict_s"],
    }


def scaling(
    n_windows=(1000, 10000, 100000),
    train_windows=(250, 1000, 4000),
    context_lengths=(128, 256, 512),
    n_channels=14,
    repeats=3,
):
    """Median seconds per stage on synthetic series of C-MAPSS shape, for growing inputs.

    ``transform`` + ``predict_proba`` are timed on each of ``n_windows``
    windows of 512 steps; one pretraining epoch (one cut per window, each
    window standing for a unit) and one finetuning epoch (K = 150) on each of
    ``train_windows``; the ``context`` rows time every stage on
    ``train_windows[1]`` windows of each length. Returns rows
    ``(series, n, length, seconds)``, ``seconds`` a dict keyed by stage with
    None where the stage was not timed at that size.
    """
    from hepa_sklearn.event_predictor import HEPAEventPredictor
    from hepa_sklearn.pretrainer import HEPAPretrainer
    from hepa_sklearn.surface import make_survival_y

    rng = np.random.default_rng(0)
    stages = ("pretrain epoch", "finetune epoch", "transform + predict_proba")

    def median_seconds(task):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            task()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    def problem(n, length, labels=True):
        X = rng.normal(size=(n, n_channels, length)).astype(np.float32)
        return X, make_survival_y(np.ones(n, bool), rng.integers(1, 150, n)) if labels else None

    def models():
        return (
            HEPAPretrainer(
                max_epochs=1, early_stopping=False, norm="global", regimes=None, window_level=False, random_state=0
            ),
            HEPAEventPredictor(max_epochs=1, early_stopping=False, random_state=0),
        )

    def fitted(length, n=256):
        X, y = problem(n, length)
        pre, event = models()
        pre.fit(X)
        return pre, event.fit(pre.transform(X), y)

    def measure(n, length, train=True, infer=True):
        seconds = dict.fromkeys(stages)
        X, y = problem(n, length, labels=train)
        if train:
            pre, event = models()
            seconds["pretrain epoch"] = median_seconds(lambda: pre.fit(X))
            E = pre.transform(X)
            seconds["finetune epoch"] = median_seconds(lambda: event.fit(E, y))
        else:
            pre, event = trained[length]
        if infer:
            seconds["transform + predict_proba"] = median_seconds(lambda: event.predict_proba(pre.transform(X)))
        return seconds

    trained = {512: fitted(512)}
    sizes = sorted(set(n_windows) | set(train_windows))
    rows = [("windows", n, 512, measure(n, 512, train=n in train_windows, infer=n in n_windows)) for n in sizes]
    middle = train_windows[len(train_windows) // 2]
    rows += [("context", middle, length, measure(middle, length)) for length in context_lengths]
    return rows


def scaling_table(rows):
    """Markdown lines for the rows of :func:`scaling`."""
    stages = list(rows[0][3])
    lines = [
        "",
        "Median of 3, seconds, synthetic series with 14 channels:",
        "",
        "| series | windows | context length | " + " | ".join(stages) + " |",
        "|---|---|---|" + "---|" * len(stages),
    ]
    for kind, n, length, seconds in rows:
        cells = ("—" if seconds[s] is None else f"{seconds[s]:.2f}" for s in stages)
        lines.append(f"| {kind} | {n} | {length} | " + " | ".join(cells) + " |")
    return lines


def run(args):
    """Median of ``args.repeats`` full runs, stage throughput, FLOPs and scaling, as markdown.

    With ``args.reference`` it measures the authors' implementation side by
    side instead (:func:`~hepa_bench.speed.reference.compare_with_reference`),
    prints the table and writes the results to ``args.output``.
    """
    argv = [
        sys.executable,
        "-m",
        "hepa_bench.speed",
        "--one-run",
        "--seed",
        str(args.seed),
        "--pretrain-epochs",
        str(args.pretrain_epochs),
        "--finetune-epochs",
        str(args.finetune_epochs),
        "--device",
        args.device,
        "--batch-layout",
        args.batch_layout,
    ]
    if args.reference is not None:
        variants = {option_label(option): [*argv, *option_argv(option)] for option in args.also}
        main = changed_options(args)
        return run_reference(args, [*argv, *option_argv(main)], options=main and option_label(main), variants=variants)
    argv += option_argv(changed_options(args))
    if args.threads:
        argv += ["--threads", str(args.threads)]
    if args.only_scaling:
        text = "\n".join(
            scaling_table(scaling(n_windows=args.scaling_windows, train_windows=args.scaling_train_windows))[1:]
        )
        print(text)
        return text
    runs = []
    for i in range(args.repeats):
        runs.append(timed_child(argv, env=thread_env(args.threads)))
        r = runs[-1]
        print(
            f"run {i + 1}/{args.repeats}: wall {r['wall_s']:.1f} s, CPU {r['cpu_s']:.1f} s, "
            f"peak RSS {r['peak_rss_mb']:.0f} MB, h-AUROC {r['h_auroc']:.4f}",
            flush=True,
        )

    def median(key):
        return statistics.median(r[key] for r in runs)

    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, "
        f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device}.",
        f"Protocol: FD001 seed {args.seed}, {args.pretrain_epochs} pretraining epochs x {args.cuts_per_unit} cuts "
        f"per training unit, {args.finetune_epochs} finetuning epochs on stride-4 windows, K=150 "
        f"({args.horizon_knots or 'all'} horizons evaluated by the head), "
        f"surface for every stride-1 test window. Median of {args.repeats} runs.",
        "",
        "| | wall s | CPU s | peak RSS MB | held-out h-AUROC |",
        "|---|---|---|---|---|",
        f"| hepa_sklearn | {median('wall_s'):.1f} | {median('cpu_s'):.1f} | "
        f"{median('peak_rss_mb'):.0f} | {median('h_auroc'):.4f} |",
        "",
        "Per stage (median s): "
        + ", ".join(f"{stage} {median(stage + '_s'):.1f}" for stage in ("pretrain", "embed", "finetune", "predict")),
        "",
    ]
    peak = matmul_peak_gflops()
    flops = stage_flops(batch_layout=args.batch_layout)
    throughput = {key: statistics.median(_throughput(r)[key] for r in runs) for key in _throughput(runs[0])}
    lines += [
        f"Compute bound: fp32 matrix product measured at {peak:.0f} GFLOP/s.",
        "",
        "| stage | FLOPs per item | items/s | GFLOP/s reached | share of the bound |",
        "|---|---|---|---|---|",
    ]
    for (stage, per_item), (name, rate) in zip(flops.items(), throughput.items(), strict=True):
        reached = per_item * rate / 1e9
        lines.append(
            f"| {stage} | {per_item / 1e6:.1f} M | {rate:.0f} {name.split()[-1]} | "
            f"{reached:.1f} | {reached / peak:.0%} |"
        )
    if args.scaling:
        lines += scaling_table(scaling(n_windows=args.scaling_windows, train_windows=args.scaling_train_windows))
    text = "\n".join(lines)
    print(text)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hepa_bench.speed")
    add_arguments(parser)
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_run:
        _one_run(args)
    else:
        run(args)


def add_arguments(parser):
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--device", default="cpu")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="OMP/MKL/torch threads per run (default: torch's own; 1 with --reference)",
    )
    parser.add_argument(
        "--batch-layout",
        choices=LAYOUTS,
        default="packed",
        help="the pretrainer's batch layout (default: packed, the library's; the published "
        "C-MAPSS results used padded)",
    )
    add_protocol_options(parser)
    parser.add_argument("--scaling", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument(
        "--scaling-windows",
        type=int,
        nargs="+",
        default=[1000, 10000, 100000],
        help="window counts timed for transform + predict_proba",
    )
    parser.add_argument(
        "--scaling-train-windows",
        type=int,
        nargs="+",
        default=[250, 1000, 4000],
        help="window (unit) counts timed for one pretraining and one finetuning epoch",
    )
    parser.add_argument("--only-scaling", action="store_true", help="print the scaling table only")
    reference = parser.add_argument_group("side by side with the authors' implementation")
    reference.add_argument(
        "--reference",
        metavar="PATH",
        help="checkout of github.com/Forgis-Labs/HEPA at commit "
        f"{REFERENCE_COMMIT[:7]}: time it against this package in pairs of runs",
    )
    reference.add_argument(
        "--reference-commit-check",
        choices=["on", "off"],
        default="on",
        help="refuse a checkout at another commit (default: on)",
    )
    mode = reference.add_mutually_exclusive_group()
    mode.add_argument(
        "--side-by-side",
        dest="side_by_side",
        action="store_const",
        const=True,
        help="run both at once, each pinned to its own cores (default with enough cores)",
    )
    mode.add_argument(
        "--sequential",
        dest="side_by_side",
        action="store_const",
        const=False,
        help="run one after the other on the same cores",
    )
    add_further_configurations(reference)
    reference.add_argument(
        "--output", default="speed_reference.json", help="JSON file for the results (default: speed_reference.json)"
    )


if __name__ == "__main__":
    main()
