"""The data home directory, dataset files inside it, checksummed downloads into it, and reading them whole or not at
all."""

import gzip
import hashlib
import os
import tempfile
from functools import lru_cache
from http.client import HTTPException
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import urlopen

import numpy as np
import pandas as pd

__all__ = ["get_data_home", "fetch_file", "parsed_dates", "read_cached", "unreadable"]

#: Environment variable that names the data home when no ``data_home`` is given.
DATA_HOME_ENV = "HEPA_DATA_HOME"

# Seconds without a byte from the server before a download is abandoned.
_TIMEOUT_S = 60
_CHUNK_BYTES = 1 << 20


def get_data_home(data_home=None):
    """Return the directory that holds the datasets, creating it if needed.

    Datasets other than C-MAPSS are read from one sub-directory each of this
    directory (``ETTm1/``, ``Weather/``, ``TEP/``, ...), in the layout their
    loaders describe.

    Parameters
    ----------
    data_home : str or path-like, default=None
        The directory to use. None means the ``HEPA_DATA_HOME`` environment
        variable if it is set, else ``~/hepa_sklearn_data``.

    Returns
    -------
    data_home : str
        The directory, with ``~`` expanded.

    Examples
    --------
    >>> import os, tempfile
    >>> from hepa_sklearn.datasets import get_data_home
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     home = get_data_home(os.path.join(tmp, "data"))
    ...     os.path.isdir(home)
    True
    """
    given = (
        "data_home"
        if data_home is not None
        else (f"the environment variable {DATA_HOME_ENV}" if DATA_HOME_ENV in os.environ else "the default data home")
    )
    if data_home is None:
        data_home = os.environ.get(DATA_HOME_ENV, os.path.join("~", "hepa_sklearn_data"))
    if isinstance(data_home, str) and not data_home.strip():
        raise ValueError(f"{given} is empty; name a folder, or leave it unset for ~/hepa_sklearn_data.")
    try:
        data_home = os.path.expanduser(os.fspath(data_home))
    except TypeError:
        raise TypeError(f"{given} must be a folder name (str or path-like), got {type(data_home).__name__}.") from None
    if os.path.exists(data_home) and not os.path.isdir(data_home):
        raise ValueError(f"{given} names {data_home}, which is a file, not a folder; name a folder for the datasets.")
    try:
        os.makedirs(data_home, exist_ok=True)
    except OSError as exc:
        raise ValueError(
            f"{given} names {data_home}, which cannot be created as a folder ({exc.strerror or exc}); "
            "name a folder you can write to."
        ) from exc
    if not os.access(data_home, os.R_OK | os.X_OK):
        raise ValueError(f"{given} names {data_home}, a folder this process cannot read; name one it can.")
    return data_home


def _missing_file_message(path, url, fetch_name=None, plain_too=False):
    path = Path(path)
    name = path.name
    if plain_too:
        name += f" (or {path.name[: -len('.gz')]})"
    where = f"Put the file in {path.parent}"
    if url is not None:
        where += f" (download it from {url})"
    if fetch_name is not None:
        where += f", or call {fetch_name}(data_home=...) to download it"
    return f"Data file {name} not found in {path.parent}. {where}."


def dataset_file(data_home, directory, name, *, url=None, fetch_name=None):
    """Path of ``name`` in ``data_home/directory``; for a ``name.gz``, the plain ``name`` will do.

    Text files may be kept gzipped or not; the loaders read both. A missing
    file raises ``FileNotFoundError`` saying where to put it and where to get it.
    """
    folder = Path(get_data_home(data_home)) / directory
    candidates = [folder / name]
    if name.endswith(".gz"):
        candidates.append(folder / name[: -len(".gz")])
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(_missing_file_message(folder / name, url, fetch_name, plain_too=name.endswith(".gz")))


def check_columns(table, columns, path, what):
    """Raise ``ValueError`` naming the ``columns`` that ``table``, read from ``path``, lacks."""
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise ValueError(f"{path} lacks the column(s) {missing}; is it {what}?")


def _download(url, temporary, *, gzip_output, path):
    """Stream ``url`` into ``temporary``; return the SHA-256 of the uncompressed bytes."""
    digest = hashlib.sha256()
    try:
        with urlopen(url, timeout=_TIMEOUT_S) as response:
            gzip_input = urlparse(url).path.endswith(".gz")
            source = gzip.GzipFile(fileobj=response) if gzip_input else response
            with (gzip.open if gzip_output else open)(temporary, "wb") as target:
                while chunk := source.read(_CHUNK_BYTES):
                    digest.update(chunk)
                    target.write(chunk)
    # URLError and HTTPError are OSErrors, as are timeouts and a broken gzip
    # stream; a connection cut mid-body raises an HTTPException.
    except (OSError, HTTPException) as exc:
        raise OSError(f"Downloading {url} failed ({exc}). " + _missing_file_message(path, url)) from exc
    return digest.hexdigest()


def fetch_file(url, path, sha256, *, download_if_missing=True):
    """Download ``url`` to ``path`` unless ``path`` exists, checking its SHA-256.

    ``sha256`` is the digest of the file's *uncompressed* content, so one
    digest serves whether the file is published plain or gzipped and whether
    it is kept plain or gzipped. A URL whose path ends in ``.gz`` is read as
    gzip, and a ``path`` ending in ``.gz`` is written as gzip; the digest is
    taken over the bytes in between. The download goes to a temporary file
    in the same directory, which is moved to ``path`` in one step once the
    digest matches, so an interrupted or wrong download never leaves a file
    under the final name.

    Parameters
    ----------
    url : str
        Where to download the file from.
    path : str or path-like
        Where the file is kept. Its directory is created if needed.
    sha256 : str
        Expected SHA-256 (hex) of the uncompressed content.
    download_if_missing : bool, default=True
        If False, a missing file raises ``FileNotFoundError`` instead of
        being downloaded.

    Returns
    -------
    path : pathlib.Path
        The file, now present.

    Raises
    ------
    FileNotFoundError
        The file is missing and ``download_if_missing`` is False.
    OSError
        The download failed (network error, HTTP error, unreadable gzip).
        The message names the file, the directory it belongs in and the URL,
        so it can be put there by hand.
    ValueError
        The downloaded content has another SHA-256 than ``sha256``; nothing
        is kept.
    """
    path = Path(path)
    if path.is_file():
        return path
    if not download_if_missing:
        raise FileNotFoundError(_missing_file_message(path, url) + " Downloading is off (download_if_missing=False).")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    os.close(handle)
    try:
        found = _download(url, temporary, gzip_output=path.name.endswith(".gz"), path=path)
        if found != sha256.lower():
            raise ValueError(
                f"The content downloaded from {url} has SHA-256 {found}, expected "
                f"{sha256.lower()}; it was discarded. The file at that address changed or the "
                f"download was corrupted: retry, or put a verified copy of {path.name} in "
                f"{path.parent}."
            )
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    return path


def fetch_files(files, directory, *, data_home=None, download_if_missing=True):
    """Fetch each ``name -> (url, sha256)`` of ``files`` into ``data_home/directory``.

    A file already present, gzipped or not, is left alone.
    """
    folder = Path(get_data_home(data_home)) / directory
    for name, (url, sha256) in files.items():
        plain = name[: -len(".gz")] if name.endswith(".gz") else None
        if plain is not None and (folder / plain).is_file():
            continue
        fetch_file(url, folder / name, sha256, download_if_missing=download_if_missing)
    return folder


# plain text formats of the published files; each of them ends its last line with a newline
_TEXT_SUFFIXES = (".csv", ".dat", ".txt")


def _check_complete(path):
    """ValueError for an empty file, or a plain text file whose last line has no newline: a copy cut short."""
    path = Path(path)
    with open(path, "rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            raise ValueError(f"{path} is empty: the file is cut short or was never written. Replace it.")
        if path.suffix in _TEXT_SUFFIXES:
            handle.seek(size - 1)
            if handle.read(1) != b"\n":
                raise ValueError(
                    f"{path} ends in the middle of a line, so its last row may be cut short (an interrupted "
                    "download or copy): replace the file. If it is complete, end its last line with a newline."
                )


@lru_cache(maxsize=32)
def _read_once(reader, path, modified_ns, size):
    _check_complete(path)
    return reader(path)


def read_cached(reader, path):
    """``reader(path)``, parsed once per version of the file (its time stamp and size).

    A file that cannot be parsed (cut short, damaged, another format) raises
    a ``ValueError`` naming it; an unreadable one (permissions) its OSError.
    """
    status = os.stat(path)
    try:
        content = _read_once(reader, str(path), status.st_mtime_ns, status.st_size)
    except (ImportError, MemoryError):
        raise
    except OSError as exc:
        if not isinstance(exc, gzip.BadGzipFile):
            raise
        raise unreadable(path, exc) from exc
    except ValueError as exc:
        if str(path) in str(exc):  # already names the file
            raise
        raise unreadable(path, exc) from exc
    except Exception as exc:  # the parsers' errors on cut or altered bytes: EOFError, zlib.error, BadZipFile ...
        raise unreadable(path, exc) from exc
    return content.copy()


def unreadable(path, exc):
    """The ValueError of a data file whose content cannot be read as its format."""
    return ValueError(
        f"{path} cannot be read ({type(exc).__name__}: {str(exc)[:200]}): the file is cut short or damaged, "
        "or is not the published file. Replace it: delete it and call the dataset's fetcher, or download it "
        "again from its source."
    )


def parsed_dates(values, path, column, date_format=None):
    """The column ``column`` of ``path`` as datetimes; ValueError naming the file and a value that is no date."""
    try:
        return pd.to_datetime(values, format=date_format)
    except (ValueError, TypeError) as exc:
        row = _first_date_error(values, date_format)
        raise ValueError(
            f"{path}: column {column!r} holds values that are not dates"
            + (f" in the format {date_format!r}" if date_format else "")
            + ("" if row is None else f", first in row {row}")
            + f" ({str(exc)[:200]}); is the file damaged, or not the published one?"
        ) from exc


def _first_date_error(values, date_format):
    """The position of the first value of ``values`` (a column, or a frame of date parts) that is given but no date."""
    try:
        dates = pd.to_datetime(values, format=date_format, errors="coerce")
    except (ValueError, TypeError):
        return None
    given = values.notna().all(axis=1) if isinstance(values, pd.DataFrame) else pd.notna(values)
    bad = np.asarray(pd.isna(dates)) & np.asarray(given)
    return int(np.argmax(bad)) if bad.any() else None
