"""``python -m hepa_bench.speed``: the command of :mod:`hepa_bench.speed.protocol` (each measured run's child)."""

from .protocol import main

main()
