"""A cache of fitted pretrainers in the package's safe file format, keyed by version, configuration and code.

A cached pretrainer is reused only when the package version, the full
pretraining configuration (estimator parameters and the data it saw) and
the source of every module that takes part in pretraining are the same as
when it was written: a change to any of them is a miss, never a stale hit.
Files are written with :func:`hepa_sklearn.persistence.save` (tensors and
plain values, read with ``weights_only=True``), so opening a cache runs no
code from it.
"""

import hashlib
import json
import os
from functools import cache
from importlib import resources

from .._version import __version__
from ..persistence import load, save

__all__ = ["code_digest", "cache_key", "read_cached", "write_cached"]

# modules that never run while pretraining: a change to them keeps the cache valid
_NOT_IN_TRAINING = ("benchmarks/report.py", "benchmarks/speed.py", "benchmarks/memory.py", "cli.py", "plotting.py")


@cache
def code_digest():
    """SHA-256 over the package's Python sources that take part in pretraining, in path order (read once per process)."""
    root = resources.files("hepa_sklearn")
    digest = hashlib.sha256()
    paths = []
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        for entry in folder.iterdir():
            relative = prefix + entry.name
            if entry.is_dir() and entry.name != "__pycache__":
                stack.append((entry, relative + "/"))
            elif entry.name.endswith(".py") and relative not in _NOT_IN_TRAINING:
                paths.append((relative, entry))
    for relative, entry in sorted(paths, key=lambda item: item[0]):
        digest.update(relative.encode())
        digest.update(entry.read_bytes())
    return digest.hexdigest()


def cache_key(config):
    """Key of a pretraining ``config`` (a JSON-serialisable dict) under this package version and code."""
    material = json.dumps({"version": __version__, "code": code_digest(), "config": config}, sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()[:20]


def _paths(cache_dir, name, config):
    stem = os.path.join(cache_dir, f"{name}_{cache_key(config)}")
    return stem + ".pt", stem + ".json"


def read_cached(cache_dir, name, config):
    """``(pretrainer, seconds)`` cached for ``config``, or None."""
    model_path, info_path = _paths(cache_dir, name, config)
    if not (os.path.exists(model_path) and os.path.exists(info_path)):
        return None
    with open(info_path) as handle:
        info = json.load(handle)
    return load(model_path, device=config["device"]), info["seconds"]


def write_cached(cache_dir, name, config, pretrainer, seconds):
    """Store a fitted pretrainer and its training seconds; each file appears whole or not at all."""
    os.makedirs(cache_dir, exist_ok=True)
    model_path, info_path = _paths(cache_dir, name, config)
    save(pretrainer, model_path + ".tmp")
    os.replace(model_path + ".tmp", model_path)
    with open(info_path + ".tmp", "w") as handle:
        json.dump({"seconds": seconds, "config": config, "version": __version__}, handle)
    os.replace(info_path + ".tmp", info_path)
