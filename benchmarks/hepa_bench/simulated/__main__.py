"""``python -m hepa_bench.simulated``: the command of :mod:`hepa_bench.simulated.run`."""

from .run import main

main()
