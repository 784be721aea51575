"""The package version: the one place it is written (setuptools reads it from here)."""

__version__ = "0.3.0"
