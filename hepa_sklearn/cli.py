"""Command line: ``hepa demo``, ``hepa benchmark speed|cmapss|events|snapshots|memory`` and ``hepa report``.

Every file a command writes is named by an argument whose default lies in the
current directory.
"""

import argparse
import os
import sys

import torch


def _demo(args):
    from .benchmarks.protocol import run_cmapss

    if args.threads:
        torch.set_num_threads(args.threads)
    result = run_cmapss(
        args.subset,
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        device=args.device,
        verbose=args.verbose,
        pretrain_params={"batch_layout": args.batch_layout},
    )
    print(
        f"{result['subset']} seed {result['seed']}: held-out h-AUROC {result['h_auroc']:.4f} "
        f"(validation units {result['valid_h_auroc']:.4f}); wall time {result['total_s']:.1f} s "
        f"(pretrain {result['pretrain_s']:.1f}, embed {result['embed_s']:.1f}, "
        f"finetune {result['finetune_s']:.1f}, predict {result['predict_s']:.1f})"
    )
    return 0


def _run(module):
    """Handler running ``module.run(args)``."""

    def handler(args):
        module.run(args)
        return 0

    return handler


def _benchmark_memory(args):
    # the memory benchmark measures child processes whose peak RSS starts at their
    # parent's: replace this process (which holds torch) by a bare interpreter
    from .benchmarks import memory

    os.execv(sys.executable, [sys.executable, memory.__file__, *args.memory_args])


def build_parser():
    parser = argparse.ArgumentParser(prog="hepa", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser(
        "demo", help="pretrain and finetune on embedded C-MAPSS data, print held-out h-AUROC"
    )
    demo.add_argument("--subset", default="FD001", choices=["FD001", "FD002", "FD003", "FD004"])
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--pretrain-epochs", type=int, default=50)
    demo.add_argument("--finetune-epochs", type=int, default=30)
    demo.add_argument("--device", default="auto")
    demo.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    demo.add_argument("--verbose", type=int, default=0, help="1: progress bars, 2: per-epoch tables")
    demo.add_argument("--batch-layout", choices=["packed", "padded"], default="packed",
                      help="the pretrainer's batch_layout (default: packed, as HEPAPretrainer; the "
                           "benchmark's hepa cells used padded)")
    demo.set_defaults(handler=_demo)

    from .benchmarks import events, report, snapshots, speed, sweep

    benchmark = commands.add_parser("benchmark", help="benchmarks")
    suites = benchmark.add_subparsers(dest="suite", required=True)
    speed_parser = suites.add_parser(
        "speed", help="reference FD001 protocol: wall, CPU, peak RSS, h-AUROC, throughput, FLOPs, scaling;"
        " --reference PATH times the authors' implementation side by side"
    )
    speed.add_arguments(speed_parser)
    speed_parser.set_defaults(handler=_run(speed))

    cmapss = suites.add_parser(
        "cmapss", help="HEPA and baselines on C-MAPSS over subsets, seeds and label fractions (resumable)"
    )
    sweep.add_arguments(cmapss)
    cmapss.set_defaults(handler=_run(sweep))

    events_parser = suites.add_parser(
        "events", help="HEPA and baselines on every event dataset of the registry over seeds and label"
        " fractions (resumable; --max-cells/--max-minutes split a sweep into calls)"
    )
    events.add_arguments(events_parser)
    events_parser.set_defaults(handler=_run(events))

    snapshot_parser = suites.add_parser(
        "snapshots", help="encoder snapshots over pretraining: held-out JEPA loss against h-AUROC (resumable)"
    )
    snapshots.add_arguments(snapshot_parser)
    snapshot_parser.set_defaults(handler=_run(snapshots))

    memory = suites.add_parser(
        "memory", help="peak memory of transform + predict_proba against the number of windows",
        add_help=False,
    )
    memory.add_argument("memory_args", nargs=argparse.REMAINDER)
    memory.set_defaults(handler=_benchmark_memory)

    report_parser = commands.add_parser("report", help="markdown tables of C-MAPSS benchmark results")
    report.add_arguments(report_parser)
    report_parser.set_defaults(handler=_run(report))
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
