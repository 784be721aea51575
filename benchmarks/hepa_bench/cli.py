"""Command line of the harness: ``hepa-bench run|snapshots|speed|memory|report|query|corpus|yardstick``."""

import argparse
import os
import sys

from . import query, runner, snapshots, yardstick
from .corpus import cli as corpus_cli
from .report import cli as report
from .speed import protocol as speed


def _run(module):
    """Handler running ``module.run(args)``."""

    def handler(args):
        module.run(args)
        return 0

    return handler


def _memory(args):
    # the memory benchmark measures child processes whose peak RSS starts at their
    # parent's: replace this process (which holds torch) by a bare interpreter
    from .speed import memory

    os.execv(sys.executable, [sys.executable, memory.__file__, *args.memory_args])


def build_parser():
    parser = argparse.ArgumentParser(prog="hepa-bench", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    suites = (
        (
            "run",
            runner,
            "HEPA and baselines on the registry's datasets (C-MAPSS included) over seeds and label "
            "fractions (resumable; --max-cells/--max-minutes split a sweep into calls)",
        ),
        ("snapshots", snapshots, "encoder snapshots over pretraining: held-out JEPA loss against h-AUROC (resumable)"),
        (
            "speed",
            speed,
            "reference FD001 protocol: wall, CPU, peak RSS, h-AUROC, throughput, FLOPs, scaling; "
            "--reference PATH times the authors' implementation side by side",
        ),
        ("report", report, "markdown tables of benchmark results"),
        (
            "query",
            query,
            "the figures of a comparison from result records: per row each method's mean, sd and n, and with "
            "--reference the paired differences, Holm-adjusted",
        ),
        ("corpus", corpus_cli, "pretraining corpus of the registry's training windows: build, info, pretrain"),
        (
            "yardstick",
            yardstick,
            "the primary family: the headline line against the baseline chosen on validation units, with 95 %% "
            "intervals over 20 seeds (family, run, report)",
        ),
    )
    for name, module, text in suites:
        sub = commands.add_parser(name, help=text)
        module.add_arguments(sub)
        sub.set_defaults(handler=_run(module))
    memory = commands.add_parser(
        "memory", help="peak memory of transform + predict_proba against the number of windows", add_help=False
    )
    memory.add_argument("memory_args", nargs=argparse.REMAINDER)
    memory.set_defaults(handler=_memory)
    return parser


def main(argv=None):
    """Run the ``hepa-bench`` command line ``argv`` (default: this process's arguments); its exit status."""
    args = build_parser().parse_args(argv)
    return args.handler(args)
