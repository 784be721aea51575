"""The authors' implementation with and without JEPA pretraining: FD001, paired over seeds.

Runs ``scripts/train.py`` of a checkout of github.com/Forgis-Labs/HEPA (commit
85f55f3) as published, once with ``--pre-epochs 0`` (the encoder untrained)
and once with ``--pre-epochs 50``, 30 finetuning epochs each, for every seed,
on this package's embedded copy of FD001; then compares the held-out h-AUROC
of the two in pairs (same seed; the reference splits the engines with its
fixed seed 42 whatever ``--seed`` is, so a seed changes only the
initialisation and the batch order). Runs go side by side, ``--jobs`` at a time.

    cd benchmarks/experiments/reference_pretraining
    python reference_pretraining.py --reference PATH --seeds 0 1 2 3 4 --output reference_pretraining.json
    python reference_pretraining.py --summarize reference_pretraining.json
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from hepa_bench.speed.reference import REFERENCE_COMMIT, check_reference, prepare_reference_data
from scipy import stats

EPOCHS = (0, 50)


def run_one(checkout, data, work, seed, pretrain_epochs, finetune_epochs):
    out = Path(work) / f"pre{pretrain_epochs}_seed{seed}"
    out.mkdir()
    argv = [
        sys.executable,
        str(Path(checkout) / "scripts" / "train.py"),
        "--dataset",
        "FD001",
        "--seed",
        str(seed),
        "--pre-epochs",
        str(pretrain_epochs),
        "--ft-epochs",
        str(finetune_epochs),
        "--out",
        str(out),
    ]
    env = dict(
        os.environ,
        PYTHONPATH=str(checkout),
        HEPA_DATA_DIR=str(data),
        PYTHONDONTWRITEBYTECODE="1",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
    )
    subprocess.run(argv, cwd=out, env=env, check=True, capture_output=True)
    metrics = json.loads((out / f"FD001_s{seed}_metrics.json").read_text())
    return {
        "seed": seed,
        "pretrain_epochs": pretrain_epochs,
        "finetune_epochs": finetune_epochs,
        "h_auroc": metrics["h_auroc"],
        "pooled_auroc": metrics["pooled"]["auroc"],
        "pooled_auprc": metrics["pooled"]["auprc"],
        "monotonicity_violation_rate": metrics["monotonicity_violation_rate"],
    }


def summarize(record):
    """Markdown lines: per seed untrained / pretrained, the paired difference and its t-test."""
    by = {(r["seed"], r["pretrain_epochs"]): r["h_auroc"] for r in record["runs"]}
    seeds = sorted({seed for seed, _ in by if all((seed, e) in by for e in EPOCHS)})
    untrained = np.array([by[seed, 0] for seed in seeds])
    pretrained = np.array([by[seed, 50] for seed in seeds])
    diff = pretrained - untrained
    lines = [
        "| seed | untrained (--pre-epochs 0) | pretrained (--pre-epochs 50) | pretrained - untrained |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {s} | {u:.4f} | {p:.4f} | {d:+.4f} |" for s, u, p, d in zip(seeds, untrained, pretrained, diff, strict=True)
    ]
    lines.append(f"| mean | {untrained.mean():.4f} | {pretrained.mean():.4f} | {diff.mean():+.4f} |")
    if len(seeds) > 1:
        test = stats.ttest_rel(pretrained, untrained)
        lines += [
            "",
            f"Paired t-test over {len(seeds)} seeds: t = {test.statistic:.2f}, p = {test.pvalue:.3f}; "
            f"standard deviation of the paired difference {diff.std(ddof=1):.4f}.",
        ]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", help=f"checkout of the authors' code at {REFERENCE_COMMIT[:7]}")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output", default="reference_pretraining.json")
    parser.add_argument("--summarize", metavar="FILE", help="print the table of a record and stop")
    args = parser.parse_args()
    if args.summarize:
        print("\n".join(summarize(json.loads(Path(args.summarize).read_text()))))
        return
    if args.reference is None:
        parser.error("--reference is required to run")
    checkout = check_reference(args.reference)
    with tempfile.TemporaryDirectory(prefix="hepa-reference-") as work:
        data = prepare_reference_data(Path(work) / "data")
        tasks = [(seed, epochs) for seed in args.seeds for epochs in EPOCHS]
        with ThreadPoolExecutor(args.jobs) as pool:
            runs = list(
                pool.map(lambda t: run_one(checkout["path"], data, work, t[0], t[1], args.finetune_epochs), tasks)
            )
    record = {"reference_commit": checkout["commit"], "dataset": "FD001", "command": " ".join(sys.argv), "runs": runs}
    Path(args.output).write_text(json.dumps(record, indent=1) + "\n")
    print("\n".join(summarize(record)))


if __name__ == "__main__":
    main()
