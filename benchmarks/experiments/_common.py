"""What the experiments share: a command line with the subset (or dataset) and the seed, the seed's split, a CPU
clock."""

import argparse
import time

import torch
from hepa_bench.registry import BENCHMARKS

from hepa_sklearn.protocol import SubsetSplit


def cpu_clock(task):
    """CPU seconds this process spends in ``task()``."""
    start = time.process_time()
    task()
    return time.process_time() - start


def subset_seed_parser(doc):
    """An argument parser described by the first line of ``doc``, with ``--subset`` and ``--seed``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--subset", default="FD001")
    parser.add_argument("--seed", type=int, default=0)
    return parser


def cmapss_split(args):
    """The C-MAPSS windows of ``args.subset`` under ``args.seed`` (setting channels left out), on one torch thread."""
    torch.set_num_threads(1)
    return SubsetSplit(args.subset, args.seed, regime=False)


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


def paired_records(path, first, second):
    """The records of ``first`` and ``second`` in the JSON lines at ``path``, and their test h-AUROC paired by seed.

    Returns ``(records, seeds, first scores, second scores)``, ``records``
    mapping each method to its records.
    """
    import json

    from hepa_bench.stats import paired_by_seed

    lines = [json.loads(line) for line in open(path)]
    records = {method: [r for r in lines if r["method"] == method] for method in (first, second)}
    return (records, *paired_by_seed(records[first], records[second]))
