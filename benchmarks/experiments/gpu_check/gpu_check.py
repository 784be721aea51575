"""The GPU measurements of the FD001 protocol, in one run of a few minutes on a CUDA machine.

1. Side by side with the authors' implementation on the same GPU (one after
   the other, seed 0, 50 pretraining + 30 finetuning epochs): wall time, CPU
   time, peak RSS and held-out h-AUROC of each (this package under bf16
   autocast, ``precision="auto"``; the reference takes CUDA when it sees it).
2. Time to the reference's final held-out h-AUROC: this package's protocol
   again, the held-out engines scored after every finetuning epoch, wall
   seconds excluding those evaluations.
3. (run first) The largest batch that fits: one training step of the pretrainer (packed
   cuts of full 512-step windows) and of the event model, and one
   ``transform`` pass, at doubling batch sizes until CUDA runs out of memory.
4. (run first) Throughput of ``transform`` and ``predict_proba`` in windows/s at
   batch 1, 64 and 4,096 (the protocol's estimators on FD001 test windows, host
   arrays in and out as a user calls them; median over repeated calls).

    PYTHONPATH=.:benchmarks python benchmarks/experiments/gpu_check/gpu_check.py --reference PATH --out DIR

writes ``DIR/gpu_check.json`` and prints the tables. ``--quick`` (1 + 1
epochs, small batches) checks the script itself on any machine.
"""

import argparse
import json
import shlex
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch
from hepa_bench.protocols import protocol_pretrainer
from hepa_bench.speed.reference import REFERENCE_COMMIT, compare_with_reference, portable_paths, reference_table
from skorch.callbacks import Callback

from hepa_sklearn.cmapss_protocol import SubsetSplit, protocol_event_predictor
from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.nn import event_surface


def synchronize(device):
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


class WallTrace(Callback):
    """After each finetuning epoch: held-out h-AUROC and wall seconds since ``start``, minus these evaluations."""

    def __init__(self, E_test, y_test, start, device):
        self.E_test, self.y_test, self.start, self.device = E_test, y_test, start, device
        self.excluded = 0.0
        self.trace = []

    def on_epoch_end(self, net, **kwargs):
        synchronize(self.device)
        begin = time.perf_counter()
        with torch.no_grad():
            logits = net.module_(torch.as_tensor(self.E_test, device=self.device))
            surface = event_surface(logits.float()).cpu().numpy()
        score = h_auroc(self.y_test, surface)
        self.excluded += time.perf_counter() - begin
        self.trace.append(
            {"epoch": len(net.history), "h_auroc": score, "wall_s": time.perf_counter() - self.start - self.excluded}
        )


def time_to_quality(device, *, seed, pretrain_epochs, finetune_epochs):
    data = SubsetSplit("FD001", seed, regime=False)
    synchronize(device)
    start = time.perf_counter()
    pretrainer = protocol_pretrainer(pretrain_epochs, device=device, seed=seed, layout="packed").fit(data.X_pre)
    synchronize(device)
    pretrained = time.perf_counter() - start
    E_train, E_test = pretrainer.transform(data.X_train), pretrainer.transform(data.X_test)
    trace = WallTrace(E_test, data.y_test, start, device)
    predictor = protocol_event_predictor(finetune_epochs, device=device, seed=seed, callbacks=[("held_out", trace)])
    predictor.fit(E_train, data.y_train)
    trace = dict(predictor.net_.callbacks_)["held_out"]
    return (
        pretrainer,
        predictor,
        data,
        {
            "pretrain_wall_s": pretrained,
            "trace": trace.trace,
            "final_h_auroc": h_auroc(data.y_test, predictor.predict_proba(E_test)),
        },
    )


def _fits(step, batch):
    try:
        step(batch)
        return True
    except torch.OutOfMemoryError:
        return False
    finally:
        torch.cuda.empty_cache()


def largest_batch(step, start, limit):
    """The largest power-of-two multiple of ``start`` up to ``limit`` for which ``step(batch)`` runs."""
    best, batch = None, start
    while batch <= limit and _fits(step, batch):
        best, batch = batch, batch * 2
    return best


def batch_limits(pretrainer, predictor, device, *, limit):
    """Largest batches of one pretraining step, one event-model step and one transform pass on ``device``."""
    from hepa_sklearn.training import autocast, autocast_dtype

    model = pretrainer.net_.module_.train()
    head = predictor.net_.module_.train()
    dtype = autocast_dtype("auto", device)
    C, L, P = 14, 512, pretrainer.patch_size
    cuts = pretrainer.cuts_per_window

    def windows(batch):
        return torch.randn(batch, C, L, device=device)

    def pretrain_step(batch):
        x = windows(batch)
        owner = torch.arange(batch, device=device) // cuts * cuts
        cut = L - P * torch.randint(1, L // P - 1, (batch,), device=device)
        dt = torch.randint(1, 151, (batch,), device=device)
        with autocast(device, dtype):
            predicted, target, *_ = model(x, owner, cut, dt, torch.ones(batch, device=device))
            loss = (predicted.float() - target.float()).square().mean()
        loss.backward()
        model.zero_grad(set_to_none=True)

    def head_step(batch):
        E = torch.randn(batch, pretrainer.d_model, device=device)
        with autocast(device, dtype):
            loss = head(E).float().mean()
        loss.backward()
        head.zero_grad(set_to_none=True)

    def embed(batch):
        with torch.inference_mode(), autocast(device, dtype):
            model.embed(windows(batch))

    out = {
        "pretrain step (cuts)": largest_batch(pretrain_step, 256, limit),
        "event-model step (windows)": largest_batch(head_step, 4096, limit * 64),
        "transform pass (windows)": largest_batch(embed, 256, limit),
    }
    model.eval()
    head.eval()
    return out


def throughput(pretrainer, predictor, X, device, batches=(1, 64, 4096)):
    """Windows/s of ``transform`` and ``predict_proba`` at each batch size (median of repeated calls)."""
    rows = {}
    for batch in batches:
        Xb = np.ascontiguousarray(X[np.arange(batch) % len(X)])
        Eb = pretrainer.transform(Xb)
        calls = 50 if batch <= 64 else 5
        for name, call in (
            ("transform", lambda Xb=Xb: pretrainer.transform(Xb)),
            ("predict_proba", lambda Eb=Eb: predictor.predict_proba(Eb)),
        ):
            call()
            times = []
            for _ in range(calls):
                synchronize(device)
                begin = time.perf_counter()
                call()
                synchronize(device)
                times.append(time.perf_counter() - begin)
            rows[(name, batch)] = batch / statistics.median(times)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", required=True, help=f"checkout of the authors' code at {REFERENCE_COMMIT[:7]}")
    parser.add_argument("--out", default=".")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--quick", action="store_true", help="1 + 1 epochs and small batches (checks the script)")
    args = parser.parse_args()
    pre, fine = (1, 1) if args.quick else (50, 30)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = {
        "command": shlex.join(["python", *sys.argv]),
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name() if args.device == "cuda" else "cpu",
        "protocol": {"dataset": "FD001", "seed": 0, "pretrain_epochs": pre, "finetune_epochs": fine},
    }

    def save():
        (out / "gpu_check.json").write_text(json.dumps(results, indent=1, default=str) + "\n")

    # throughput and batch limits first: they need no trained weights (an untrained encoder computes the same)
    data = SubsetSplit("FD001", 0, regime=False)
    pretrainer = protocol_pretrainer(0, device=args.device, seed=0, layout="packed").fit(data.X_pre)
    predictor = protocol_event_predictor(1, device=args.device, seed=0).fit(
        pretrainer.transform(data.X_train), data.y_train
    )
    rates = throughput(pretrainer, predictor, data.X_test, args.device, batches=(1, 64, 256 if args.quick else 4096))
    results["throughput_windows_per_s"] = {f"{name} batch {batch}": rate for (name, batch), rate in rates.items()}
    save()
    print("| call | " + " | ".join(f"batch {b}" for b in sorted({b for _, b in rates})) + " |\n|---|---|---|---|")
    for name in ("transform", "predict_proba"):
        print(
            f"| {name} windows/s | " + " | ".join(f"{rate:,.0f}" for (n, _), rate in rates.items() if n == name) + " |",
            flush=True,
        )
    if args.device == "cuda":
        limits = batch_limits(pretrainer, predictor, args.device, limit=2**20)
        results["largest_batch"] = limits
        results["gpu_memory_gib"] = torch.cuda.get_device_properties(0).total_memory / 2**30
        save()
        print("\nLargest batch that fits: " + ", ".join(f"{k} {v}" for k, v in limits.items()), flush=True)
    del pretrainer, predictor

    our_argv = [
        sys.executable,
        "-m",
        "hepa_bench.speed",
        "--one-run",
        "--seed",
        "0",
        "--pretrain-epochs",
        str(pre),
        "--finetune-epochs",
        str(fine),
        "--device",
        args.device,
        "--batch-layout",
        "packed",
        "--threads",
        "1",
    ]
    pair = compare_with_reference(
        args.reference,
        our_argv,
        seed=0,
        pretrain_epochs=pre,
        finetune_epochs=fine,
        threads=1,
        repeats=1,
        side_by_side=False,
        device=args.device,
        expected_commit=None if args.quick else REFERENCE_COMMIT,
    )
    results["side_by_side"] = portable_paths(pair, args.reference)
    save()
    print("\n" + "\n".join(reference_table(results["side_by_side"])), flush=True)

    reference_score = pair["median"]["reference"]["h_auroc"]
    *_, quality = time_to_quality(args.device, seed=0, pretrain_epochs=pre, finetune_epochs=fine)
    reached = next((row for row in quality["trace"] if row["h_auroc"] >= reference_score), None)
    results["time_to_quality"] = {
        **quality,
        "reference_final_h_auroc": reference_score,
        "reference_wall_s": pair["median"]["reference"]["wall_s"],
        "reached": reached,
    }
    save()
    print(
        f"\nTime to the reference's final held-out h-AUROC {reference_score:.4f}: "
        + (
            f"epoch {reached['epoch']} of finetuning, {reached['wall_s']:.1f} s wall (reference: "
            f"{pair['median']['reference']['wall_s']:.1f} s for its whole run)"
            if reached
            else "not reached"
        )
        + f"; pretraining {quality['pretrain_wall_s']:.1f} s; final {quality['final_h_auroc']:.4f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
