"""The authors' implementation as the reference of the speed comparison: its checkout, its data, its runs.

The checkout is checked against the commit the comparison is written for
(:func:`check_reference`), the embedded FD001 files are written where it
reads them (:func:`prepare_reference_data`), and one of its runs is a
``scripts/train.py`` command line (:func:`reference_argv`) whose metrics
file gives the held-out h-AUROC (:func:`reference_result`).
"""

import gzip
import json
import subprocess
import sys
from pathlib import Path

from .processes import check_exit

__all__ = [
    "MEASURES",
    "REFERENCE_COMMIT",
    "REFERENCE_DATA_FILES",
    "SIDES",
    "check_reference",
    "git_checkout",
    "prepare_reference_data",
    "reference_argv",
    "reference_result",
]

# The commit of the authors' code (github.com/Forgis-Labs/HEPA, "Anonymise repo
# for double-blind review") that the side-by-side measurement is written for:
# its scripts/train.py command line and metrics file are what is read below.
REFERENCE_COMMIT = "85f55f39a72a677d74c3371707baea67600020d6"
REFERENCE_DATA_FILES = ("train_FD001.txt", "test_FD001.txt", "RUL_FD001.txt")
# what is measured of each run, and the two implementations measured
MEASURES = ("wall_s", "cpu_s", "peak_rss_mb")
SIDES = ("hepa_sklearn", "reference")


def _git(path, *args):
    """``git -C path args``: (stdout, None) on success, (None, the reason) on failure."""
    try:
        done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True)
    except FileNotFoundError:
        return None, "git is not installed"
    if done.returncode:
        return None, done.stderr.strip()
    return done.stdout.strip(), None


def git_checkout(path):
    """Commit and local changes of the git checkout whose top level is ``path``, or None."""
    lines, _ = _git(path, "rev-parse", "--show-toplevel", "HEAD")
    if lines is None or Path(lines.splitlines()[0]).resolve() != Path(path).resolve():
        return None
    status, _ = _git(path, "status", "--porcelain")
    return {"commit": lines.splitlines()[1], "modified": bool(status)}


def check_reference(path, expected_commit=REFERENCE_COMMIT):
    """Check that ``path`` is a checkout of the authors' code at ``expected_commit``.

    Parameters
    ----------
    path : str or path-like
        Top level of the checkout (the folder holding ``scripts/train.py``).
    expected_commit : str or None, default=REFERENCE_COMMIT
        The commit HEAD must be at; None skips the check (the commit is still
        recorded when ``path`` is a git checkout).

    Returns
    -------
    reference : dict
        ``path`` (resolved), ``commit`` and ``modified`` (local changes; both
        None outside git) and ``expected_commit``.
    """
    path = Path(path).expanduser().resolve()
    if not (path / "scripts" / "train.py").is_file():
        raise ValueError(
            f"--reference {path}: no scripts/train.py there; pass the top level of a checkout of "
            f"github.com/Forgis-Labs/HEPA"
        )
    checkout = git_checkout(path)
    if expected_commit is not None:
        if checkout is None:
            _, reason = _git(path, "rev-parse", "HEAD")
            raise ValueError(
                f"--reference {path} is not the top level of a git checkout "
                f"({reason or 'its git top level is a parent folder'}), "
                f"so its commit cannot be checked against {expected_commit}; clone the authors' "
                f"repository there, or pass --reference-commit-check off to measure it anyway"
            )
        if checkout["commit"] != expected_commit:
            raise ValueError(
                f"--reference {path} is at commit {checkout['commit']}, not {expected_commit}; run "
                f"`git -C {path} checkout {expected_commit[:7]}`, or pass --reference-commit-check off to "
                f"measure this commit anyway"
            )
    return {"path": str(path), **(checkout or {"commit": None, "modified": None}), "expected_commit": expected_commit}


def prepare_reference_data(directory):
    """Write C-MAPSS FD001 uncompressed where the reference reads it, ``directory/CMAPSS``.

    The files are this package's embedded copies, so both implementations
    read the same bytes. Returns ``directory``, the value for ``HEPA_DATA_DIR``.
    """
    from hepa_sklearn.datasets import cmapss_file

    folder = Path(directory) / "CMAPSS"
    folder.mkdir(parents=True, exist_ok=True)
    for name in REFERENCE_DATA_FILES:
        packed = cmapss_file(name + ".gz")
        content = gzip.decompress(packed.read_bytes()) if packed.is_file() else cmapss_file(name).read_bytes()
        (folder / name).write_bytes(content)
    return Path(directory)


def reference_argv(path, *, seed, pretrain_epochs, finetune_epochs, out):
    return [
        sys.executable,
        str(Path(path) / "scripts" / "train.py"),
        "--dataset",
        "FD001",
        "--seed",
        str(seed),
        "--pre-epochs",
        str(pretrain_epochs),
        "--ft-epochs",
        str(finetune_epochs),
        "--out",
        str(out),
    ]


def reference_result(finished, metrics):
    """Timings of a reference run and the held-out h-AUROC from its metrics file."""
    check_exit("the reference implementation", finished)
    try:
        h = json.loads(Path(metrics).read_text())["h_auroc"]
    except (OSError, ValueError, KeyError) as exc:
        raise RuntimeError(
            f"the reference implementation exited normally but its metrics file {metrics} has no "
            f"readable h_auroc ({exc!r}); output ended with:\n" + "\n".join(finished["stdout"].splitlines()[-5:])
        ) from exc
    return {"h_auroc": h, **{key: finished[key] for key in MEASURES}}
