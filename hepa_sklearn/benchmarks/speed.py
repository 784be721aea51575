"""Speed benchmark: the reference FD001 protocol end to end, stage throughput, FLOPs and scaling."""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
import torch
from torch.utils.flop_counter import FlopCounterMode


def _one_run(args):
    """Child process: one full protocol run, printed as one JSON line."""
    from .protocol import run_cmapss

    result = run_cmapss(
        "FD001",
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        device=args.device,
        log=lambda message: None,
    )
    print(json.dumps(result))


def _timed_child(argv):
    """Run ``argv`` in a child process; its JSON result plus wall, CPU time and peak RSS."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"benchmark run failed with exit code {child.returncode}")
    result = json.loads(output.strip().splitlines()[-1])
    result["wall_s"] = time.perf_counter() - start
    result["cpu_s"] = usage.ru_utime + usage.ru_stime
    result["peak_rss_mb"] = usage.ru_maxrss / 1024  # Linux reports KiB
    return result


def matmul_peak_gflops(n=2048, repeats=10):
    """Measured fp32 matrix-product rate of this machine, the compute bound used below."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    start = time.perf_counter()
    for _ in range(repeats):
        a @ b
    return 2 * n**3 * repeats / (time.perf_counter() - start) / 1e9


def stage_flops(n_channels=14, context_length=512, history=206, K=150, batch=64):
    """FLOPs per window of each stage with the paper's model, counted by torch's FLOP counter.

    ``history`` is the number of observed steps per window (FD001's mean unit
    length is 206 cycles); the rest of the window is padding that the
    encoder skips.
    """
    from ..nn import JEPA, EncoderConfig, EventModel
    from ..nn.losses import surface_bce

    torch.manual_seed(0)
    model = JEPA(EncoderConfig(n_channels=n_channels, norm="global"), 256, K)
    head = EventModel(256, 256, K, float(K))
    x = torch.randn(batch, n_channels, context_length)
    x[..., : context_length - history] = float("nan")
    rng = np.random.default_rng(0)
    P = 16
    cut = torch.tensor(context_length - P * rng.integers(1, history // P, size=batch))
    dt = torch.tensor(np.minimum(np.exp(rng.uniform(0, np.log(K + 1), size=batch)).astype(int), K)).clamp(min=1)
    owner = torch.arange(batch) // 2 * 2  # two cuts per distinct window (FD001 batches: 64 cuts of ~40 windows)
    counts = {}
    with FlopCounterMode(display=False) as counter:
        predicted, target, *_ = model(x, owner, cut, dt, torch.ones(batch))
        (predicted - target).square().mean().backward()
    counts["pretrain (fwd+bwd) per cut"] = counter.get_total_flops() / batch
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model.embed(x)
    transform = counter.get_total_flops() / batch
    E = torch.randn(batch, 256)
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
        "pretrain cuts/s": result["pretrain_epochs"] * result["cuts_per_window"] * result["n_pretrain_windows"]
        / result["pretrain_s"],
        "finetune windows/s": result["finetune_epochs"] * result["n_finetune_windows"] / result["finetune_s"],
        "transform windows/s": result["n_embedded_windows"] / result["embed_s"],
        "predict_proba windows/s": result["n_test_windows"] / result["predict_s"],
    }


def scaling(n_windows=(256, 1024, 4096), context_lengths=(128, 256, 512), n_channels=14, repeats=3):
    """Median seconds per stage on synthetic series of C-MAPSS shape, for growing inputs.

    Each row gives one pretraining epoch (one cut per window), one finetuning
    epoch (K = 150) and ``transform`` + ``predict_proba`` on ``n`` windows of
    ``length`` steps. Returns rows ``(series, n, length, seconds)`` with
    ``seconds`` a dict keyed by stage.
    """
    from ..event_predictor import HEPAEventPredictor
    from ..pretrainer import HEPAPretrainer
    from ..surface import make_survival_y

    rng = np.random.default_rng(0)

    def median_seconds(task):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            task()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    def measure(n, length):
        X = rng.normal(size=(n, n_channels, length)).astype(np.float32)
        y = make_survival_y(np.ones(n, bool), rng.integers(1, 150, n))
        pre = HEPAPretrainer(max_epochs=1, early_stopping=False, norm="global", random_state=0)
        event = HEPAEventPredictor(max_epochs=1, early_stopping=False, random_state=0)
        seconds = {"pretrain epoch": median_seconds(lambda: pre.fit(X))}
        E = pre.transform(X)
        seconds["finetune epoch"] = median_seconds(lambda: event.fit(E, y))
        seconds["transform + predict_proba"] = median_seconds(lambda: event.predict_proba(pre.transform(X)))
        return seconds

    rows = [("windows", n, 512, measure(n, 512)) for n in n_windows]
    rows += [("context", n_windows[1], length, measure(n_windows[1], length)) for length in context_lengths]
    return rows


def scaling_table(rows):
    """Markdown lines for the rows of :func:`scaling`."""
    stages = list(rows[0][3])
    lines = ["", "Median of 3, seconds, synthetic series with 14 channels:", "",
             "| series | windows | context length | " + " | ".join(stages) + " |",
             "|---|---|---|" + "---|" * len(stages)]
    for kind, n, length, seconds in rows:
        lines.append(f"| {kind} | {n} | {length} | " + " | ".join(f"{seconds[s]:.2f}" for s in stages) + " |")
    return lines


def run(args):
    """Median of ``args.repeats`` full runs, stage throughput, FLOPs and scaling, as markdown."""
    argv = [sys.executable, "-m", "hepa_sklearn.benchmarks.speed", "--one-run",
            "--seed", str(args.seed), "--pretrain-epochs", str(args.pretrain_epochs),
            "--finetune-epochs", str(args.finetune_epochs), "--device", args.device]
    if args.only_scaling:
        text = "\n".join(scaling_table(scaling())[1:])
        print(text)
        return text
    runs = []
    for i in range(args.repeats):
        runs.append(_timed_child(argv))
        r = runs[-1]
        print(f"run {i + 1}/{args.repeats}: wall {r['wall_s']:.1f} s, CPU {r['cpu_s']:.1f} s, "
              f"peak RSS {r['peak_rss_mb']:.0f} MB, h-AUROC {r['h_auroc']:.4f}", flush=True)

    def median(key):
        return statistics.median(r[key] for r in runs)

    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, "
        f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device}.",
        f"Protocol: FD001 seed {args.seed}, {args.pretrain_epochs} pretraining epochs x 40 cuts per "
        f"training unit, {args.finetune_epochs} finetuning epochs on stride-4 windows, K=150, "
        f"surface for every stride-1 test window. Median of {args.repeats} runs.",
        "",
        "| | wall s | CPU s | peak RSS MB | held-out h-AUROC |",
        "|---|---|---|---|---|",
        f"| hepa_sklearn | {median('wall_s'):.1f} | {median('cpu_s'):.1f} | "
        f"{median('peak_rss_mb'):.0f} | {median('h_auroc'):.4f} |",
        "",
        "Per stage (median s): " + ", ".join(
            f"{stage} {median(stage + '_s'):.1f}" for stage in ("pretrain", "embed", "finetune", "predict")
        ),
        "",
    ]
    peak = matmul_peak_gflops()
    flops = stage_flops()
    throughput = {key: statistics.median(_throughput(r)[key] for r in runs) for key in _throughput(runs[0])}
    lines += [
        f"Compute bound: fp32 matrix product measured at {peak:.0f} GFLOP/s.",
        "",
        "| stage | FLOPs per item | items/s | GFLOP/s reached | share of the bound |",
        "|---|---|---|---|---|",
    ]
    for (stage, per_item), (name, rate) in zip(flops.items(), throughput.items(), strict=True):
        reached = per_item * rate / 1e9
        lines.append(f"| {stage} | {per_item / 1e6:.1f} M | {rate:.0f} {name.split()[-1]} | "
                     f"{reached:.1f} | {reached / peak:.0%} |")
    if args.scaling:
        lines += scaling_table(scaling())
    text = "\n".join(lines)
    print(text)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hepa_sklearn.benchmarks.speed")
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
    parser.add_argument("--scaling", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--only-scaling", action="store_true", help="print the scaling table only")


if __name__ == "__main__":
    main()
