"""Files of the pretraining corpus and its checkpoints: atomic writes, SHA-256, folders kept out of the repository."""

import hashlib
import json
import os
from pathlib import Path

__all__ = [
    "REPOSITORY",
    "atomic_write",
    "json_kind",
    "one_line",
    "outside_repository",
    "read_json_object",
    "require_fields",
    "sha256_file",
    "write_json",
    "writable_folder",
]

REPOSITORY = Path(__file__).resolve().parents[3]


def outside_repository(path, what):
    """``path`` resolved; ValueError when it lies inside this repository (corpora and checkpoints stay out of it)."""
    resolved = Path(path).expanduser().resolve()
    if resolved == REPOSITORY or REPOSITORY in resolved.parents:
        raise ValueError(f"{what} {path} lies inside the repository {REPOSITORY}; name a folder outside it.")
    return resolved


def writable_folder(path, what):
    """``path`` resolved, outside the repository, and a folder or yet to be made one.

    ValueError naming the file when ``path``, or a folder above it, is an
    existing file: the folder could not be made there, and the file is left
    as it is.
    """
    resolved = outside_repository(path, what)
    for folder in (resolved, *resolved.parents):
        if folder.exists():
            if not folder.is_dir():
                raise ValueError(
                    f"{what} {path} cannot be made: {folder} is a file, not a folder; name a folder (new or "
                    "existing) instead."
                )
            break
    return resolved


def one_line(message):
    """``message`` with its lines joined by spaces: a command's error is one line on stderr."""
    return " ".join(line.strip() for line in str(message).splitlines() if line.strip())


def json_kind(value):
    """The JSON name of the kind of ``value`` (``"array"`` for a list, ``"object"`` for a dict...)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    kinds = {dict: "object", list: "array", str: "string", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)


def require_fields(value, fields, where, remedy):
    """ValueError naming ``where`` unless ``value`` is a JSON object holding every one of ``fields``."""
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be an object, got a JSON {json_kind(value)}; {remedy}")
    missing = [field for field in fields if field not in value]
    if missing:
        raise ValueError(f"{where} lacks the field(s) {missing}; {remedy}")
    return value


def read_json_object(path, fields, remedy):
    """The JSON object in the file ``path``; ValueError naming the file when it is not one with ``fields``.

    ``remedy`` ends every message: what to do about a damaged file.
    """
    try:
        value = json.loads(Path(path).read_bytes().decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not valid JSON (not UTF-8 text: {error.reason}); {remedy}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON ({error}); {remedy}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{path} holds a JSON {json_kind(value)}, not an object; {remedy}")
    return require_fields(value, fields, str(path), remedy)


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
