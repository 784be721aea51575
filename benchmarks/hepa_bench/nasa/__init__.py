"""The C-MAPSS rows on NASA's own test engines.

- :mod:`~hepa_bench.nasa.rows`: the rows (``NASA_ROWS``);
- :mod:`~hepa_bench.nasa.split`: their windows under one seed.

This package imports nothing itself: the registry's entries import its split.
"""
