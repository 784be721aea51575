"""The reference C-MAPSS protocol, importable from its earlier path; it lives in :mod:`hepa_sklearn.benchmarks.protocol`."""

from .benchmarks.protocol import run_cmapss, split_units, unit_windows

__all__ = ["run_cmapss", "split_units", "unit_windows"]
