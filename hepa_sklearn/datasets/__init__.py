"""Datasets shipped with the package, loaded as long frames and labelled windows."""

from ._cmapss import CMAPSS_SENSORS, load_cmapss

__all__ = ["CMAPSS_SENSORS", "load_cmapss"]
