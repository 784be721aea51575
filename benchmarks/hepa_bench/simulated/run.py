"""``python -m hepa_bench.simulated``: ``hepa-bench run`` with the simulated rows and their references as defaults.

The rows (:data:`~hepa_bench.simulated.rows.SIMULATED`, each seed a new
fleet of :func:`hepa_sklearn.datasets.make_fleet`) and the ``oracle`` and
``age-oracle`` references are in :mod:`hepa_bench.simulated.rows`, and
``hepa-bench run`` runs them with every method of the table. This command
is the one the first records of ``benchmarks/records/simulated_results.jsonl``
store; it takes every option of ``hepa-bench run``, with the simulated rows,
:data:`DEFAULT_METHODS` and ``simulated_results.jsonl`` as defaults, and
writes the records ``hepa-bench run`` writes for the same cells (the same
fleets, windows, labels and cell keys), its own command aside. The rows'
names are importable from here too.
"""

import argparse

from ..results import command_line
from ..runner import add_arguments, run
from .rows import CONTEXT_LENGTH, N_UNITS, ORACLES, PARTS, PRESETS, SIMULATED, K, load_fleet, oracle_surface

__all__ = [
    "CONTEXT_LENGTH",
    "DEFAULT_METHODS",
    "K",
    "N_UNITS",
    "ORACLES",
    "PARTS",
    "PRESETS",
    "SIMULATED",
    "load_fleet",
    "main",
    "oracle_surface",
]

DEFAULT_METHODS = ["elapsed", "oracle", "age-oracle", "hepa-default-auto0", "gbm"]
PROG = "python -m hepa_bench.simulated"  # the command a record stores


def main(argv=None):
    """Run the simulated rows' missing cells with ``hepa-bench run``'s options (``argv``: this process's)."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="hepa-bench run with the simulated rows and their references as defaults"
    )
    add_arguments(parser)
    parser.set_defaults(datasets=list(SIMULATED), methods=DEFAULT_METHODS, results="simulated_results.jsonl")
    args = parser.parse_args(argv)
    run(args, prog=PROG, command=command_line(argv).replace("hepa-bench", PROG, 1))


if __name__ == "__main__":
    main()
