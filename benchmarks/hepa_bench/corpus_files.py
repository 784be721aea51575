"""Files of the pretraining corpus and its checkpoints: atomic writes, SHA-256, folders kept out of the repository."""

import hashlib
import json
import os
from pathlib import Path

__all__ = ["REPOSITORY", "atomic_write", "outside_repository", "sha256_file", "write_json"]

REPOSITORY = Path(__file__).resolve().parents[2]


def outside_repository(path, what):
    """``path`` resolved; ValueError when it lies inside this repository (corpora and checkpoints stay out of it)."""
    resolved = Path(path).expanduser().resolve()
    if resolved == REPOSITORY or REPOSITORY in resolved.parents:
        raise ValueError(f"{what} {path} lies inside the repository {REPOSITORY}; name a folder outside it.")
    return resolved


def sha256_file(path):
    """The SHA-256 of a file's bytes, as hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def atomic_write(path, write):
    """``write(handle)`` into a temporary file beside ``path``, flushed, then renamed over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    with open(partial, "wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)


def write_json(path, value):
    """``value`` as indented JSON at ``path``, written atomically."""
    atomic_write(path, lambda handle: handle.write((json.dumps(value, indent=1) + "\n").encode()))
