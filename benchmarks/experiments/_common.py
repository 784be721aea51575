"""What the experiments share: a command line with the dataset and the seed, the seed's split, a CPU clock."""

import argparse
import time

import torch
from hepa_bench.registry import BENCHMARKS


def cpu_clock(task):
    """CPU seconds this process spends in ``task()``."""
    start = time.process_time()
    task()
    return time.process_time() - start


def dataset_seed_parser(doc, dataset, arms, fraction=False):
    """An argument parser described by ``doc``'s first line, with ``--dataset``, ``--seed`` and ``--arms`` (all of
    ``arms``).

    With ``fraction`` it also takes ``--fraction``, the share of labels (default 1).
    """
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--dataset", default=dataset)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--arms", nargs="+", choices=arms, default=list(arms))
    if fraction:
        parser.add_argument("--fraction", type=float, default=1.0)
    return parser


def benchmark_split(args):
    """The registry entry of ``args.dataset`` and its split under ``args.seed``, on one torch thread."""
    torch.set_num_threads(1)
    entry = BENCHMARKS[args.dataset]
    return entry, entry.load(args.seed, None)


def labelled_windows(data, fraction):
    """The training windows and labels that the label ``fraction`` keeps in the split ``data``."""
    mask = data.train_mask(fraction)[0]
    return data.X_train[mask], data.y_train[mask]
