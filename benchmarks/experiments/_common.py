"""What the C-MAPSS experiments share: a command line with the subset and the seed, and the seed's split."""

import argparse

import torch

from hepa_sklearn.protocol import SubsetSplit


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
