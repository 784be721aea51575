"""Command line: ``hepa demo`` (the headline pipeline on embedded C-MAPSS data) and ``hepa protocol`` (the paper's
protocol).

The benchmark harness has its own command, ``hepa-bench``, installed from
the repository's ``benchmarks/`` folder (see the README).
"""

import argparse
import sys

import torch

from .datasets._cmapss import CUTS_PER_UNIT
from .training._runtime import resolve_device


def _count(minimum, maximum=None):
    """An argparse type: an integer from ``minimum`` (to ``maximum``); a message names the bound otherwise."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, got {value}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


def _demo(args):
    """Fit ``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150))`` on a subset's training engines, score NASA's
    test engines."""
    import time

    from sklearn.pipeline import make_pipeline

    from . import HEPAEventPredictor, HEPAPretrainer, h_auroc
    from .datasets import load_cmapss

    if args.threads:
        torch.set_num_threads(args.threads)
    train = load_cmapss(args.subset)
    test = load_cmapss(args.subset, split="test", stride=args.test_stride)
    pipe = make_pipeline(
        HEPAPretrainer(random_state=args.seed, device=args.device),
        HEPAEventPredictor(K=150, random_state=args.seed, device=args.device),
    )
    cpu, wall = time.process_time(), time.perf_counter()
    pipe.fit(train.X, train.y)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    score = h_auroc(test.y, pipe.predict_proba(test.X))
    print(
        f"{args.subset} seed {args.seed}: make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150)) fitted on "
        f"{len(train.X)} training windows in {wall:.1f} s ({cpu:.1f} CPU s); h-AUROC on NASA's test engines "
        f"{score:.4f} ({len(test.X)} windows)"
    )
    return 0


def _protocol(args):
    from .cmapss_protocol import run_cmapss

    if args.threads:
        torch.set_num_threads(args.threads)
    result = run_cmapss(
        args.subset,
        seed=args.seed,
        pretrain_epochs=args.pretrain_epochs,
        finetune_epochs=args.finetune_epochs,
        device=args.device,
        verbose=args.verbose,
        cuts_per_unit=args.cuts_per_unit,
        horizon_knots=args.horizon_knots,
    )
    options = "".join(
        f", {name} {value}"
        for name, value, paper in (
            ("cuts per unit", args.cuts_per_unit, CUTS_PER_UNIT),
            ("horizon knots", args.horizon_knots, None),
        )
        if value != paper
    )
    print(
        f"{result['subset']} seed {result['seed']}{options}: held-out h-AUROC {result['h_auroc']:.4f} "
        f"(validation units {result['valid_h_auroc']:.4f}); wall time {result['total_s']:.1f} s "
        f"(pretrain {result['pretrain_s']:.1f}, embed {result['embed_s']:.1f}, "
        f"finetune {result['finetune_s']:.1f}, predict {result['predict_s']:.1f})"
    )
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="hepa", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser(
        "demo", help="fit the headline pipeline on a C-MAPSS subset's training engines, score NASA's test engines"
    )
    protocol = commands.add_parser(
        "protocol", help="the paper's C-MAPSS protocol: pretrain, finetune, print held-out h-AUROC"
    )
    for command in (demo, protocol):
        command.add_argument("--subset", default="FD001", choices=["FD001", "FD002", "FD003", "FD004"])
        command.add_argument("--seed", type=_count(0, 2**32 - 1), default=0)  # a random_state's range
    demo.add_argument("--test-stride", type=_count(1), default=4, help="steps between the test windows of an engine")
    protocol.add_argument("--pretrain-epochs", type=_count(1), default=50)
    protocol.add_argument("--finetune-epochs", type=_count(1), default=30)
    protocol.add_argument(
        "--cuts-per-unit",
        type=_count(1),
        default=CUTS_PER_UNIT,
        help=f"(cut, Δt) pairs per training unit and pretraining epoch (default {CUTS_PER_UNIT}, the paper's)",
    )
    protocol.add_argument(
        "--horizon-knots",
        type=_count(2),
        default=None,
        help="evaluate the event head at this many horizons and interpolate between them "
        "(default: every horizon, the paper's head)",
    )
    for command in (demo, protocol):
        command.add_argument("--device", default="auto", help="'auto', 'cpu', 'cuda' or a torch device string")
        command.add_argument("--threads", type=_count(0), default=0, help="torch threads (0: torch's default)")
    protocol.add_argument("--verbose", type=_count(0), default=0, help="1: progress bars, 2: per-epoch tables")
    demo.set_defaults(handler=_demo, command_parser=demo)
    protocol.set_defaults(handler=_protocol, command_parser=protocol)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:  # checked before any work starts, not after minutes of pretraining
        resolve_device(args.device)
    except ValueError as exc:
        args.command_parser.error(f"argument --device: {exc}")
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
