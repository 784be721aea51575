"""The simulated rows: fleets whose hazard is known, each seed a new fleet.

- :mod:`~hepa_bench.simulated.rows`: the rows and their ``oracle`` and ``age-oracle`` references;
- :mod:`~hepa_bench.simulated.run`: ``python -m hepa_bench.simulated``, ``hepa-bench run`` with the
  simulated rows as defaults;
- :mod:`~hepa_bench.simulated.causes`: the multi-mode rows as competing risks,
  ``python -m hepa_bench.simulated.causes``.

This package imports nothing itself: the registry and the runner import its rows.
"""
