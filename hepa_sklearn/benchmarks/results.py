"""Results files of the benchmark sweeps: JSON lines appended cell by cell, read back tolerant of a torn last line."""

import json
import os
import platform

import numpy as np
import sklearn
import torch

from .._version import __version__

__all__ = ["append_record", "environment", "read_results"]


def read_results(path):
    """Records of a results file (an absent file has none); a torn last line is ignored."""
    if not os.path.exists(path):
        return []
    records = []
    with open(path) as handle:
        for line in handle:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return records


def append_record(path, record):
    """Append one record as a line and flush it to disk, so an interrupted sweep loses at most the running cell."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "a") as handle:
        handle.write(json.dumps(record) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def environment():
    """Machine and versions, stored with every record."""
    return {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores",
        "torch_threads": torch.get_num_threads(),
        "versions": {"hepa_sklearn": __version__, "torch": torch.__version__, "sklearn": sklearn.__version__,
                     "numpy": np.__version__, "python": platform.python_version()},
    }
