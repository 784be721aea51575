"""The paper protocol's speed options on ``hepa-bench speed``'s command line: this package's run and further
configurations timed against the same runs of the authors' code.

The options are those of :func:`hepa_sklearn.cmapss_protocol.run_cmapss`, off by
default: ``cuts_per_unit`` (fewer (cut, Δt) pairs per unit and pretraining
epoch) and ``horizon_knots`` (the event head at that many horizons).
"""

import argparse

from ..protocols import PAPER_OPTIONS

__all__ = [
    "PROTOCOL_OPTIONS",
    "add_further_configurations",
    "add_protocol_options",
    "changed_options",
    "option_argv",
    "option_label",
    "protocol_options",
]

# each option's name and the flag of the child run that takes it
PROTOCOL_OPTIONS = {"cuts_per_unit": "--cuts-per-unit", "horizon_knots": "--horizon-knots"}


def add_protocol_options(parser):
    """``--cuts-per-unit`` and ``--horizon-knots``: the options of this package's run (the paper's by default)."""
    parser.add_argument(
        "--cuts-per-unit",
        type=int,
        default=PAPER_OPTIONS["cuts_per_unit"],
        help="(cut, Δt) pairs per training unit and pretraining epoch (default 40, the paper's)",
    )
    parser.add_argument(
        "--horizon-knots",
        type=int,
        default=PAPER_OPTIONS["horizon_knots"],
        help="event head evaluated at this many horizons and interpolated (default: all 150, the paper's head)",
    )


def add_further_configurations(group):
    """``--also OPTIONS ...``: further configurations of this package, each a dict of :func:`protocol_options`."""
    group.add_argument(
        "--also",
        nargs="+",
        type=protocol_options,
        default=[],
        metavar="OPTIONS",
        help="further configurations of this package, each timed against the same reference runs after the main "
        "one: 'paper' or name=value pairs such as horizon_knots=12,cuts_per_unit=30",
    )


def changed_options(args):
    """The options of ``args`` (parsed with :func:`add_protocol_options`) that differ from the paper's."""
    given = {"cuts_per_unit": args.cuts_per_unit, "horizon_knots": args.horizon_knots}
    return {name: value for name, value in given.items() if value != PAPER_OPTIONS[name]}


def protocol_options(text):
    """An argparse type: ``"paper"`` or comma-separated ``name=value`` of the protocol's options, as a dict."""
    if text == "paper":
        return {}
    options = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name not in PROTOCOL_OPTIONS or not value.isdigit():
            raise argparse.ArgumentTypeError(
                f"expected 'paper' or name=integer pairs of {sorted(PROTOCOL_OPTIONS)} separated by commas, "
                f"got {text!r}"
            )
        options[name] = int(value)
    return options


def option_argv(options):
    """The child's command-line arguments of ``options`` (a dict from :func:`protocol_options`)."""
    return [arg for name, value in options.items() for arg in (PROTOCOL_OPTIONS[name], str(value))]


def option_label(options):
    """``options`` as the results and the table name them: ``name=value, ...``, or ``"paper"`` for none."""
    return ", ".join(f"{name}={value}" for name, value in options.items()) or "paper"
