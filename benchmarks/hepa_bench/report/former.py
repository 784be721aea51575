"""The retired forms of the baselines beside their successors: what each row's figure was and what it is now.

A method of family ``"former"`` (:data:`~hepa_bench.methods.table.METHODS`) is a
baseline as an earlier release ran it, such as boosting with the targets of
release 0.2.0 (``gbm-logtime``). Its records stay as data, take part in no
table or comparison of the report, and are shown here once, per row, beside
the method that replaced it (the name without the suffix).
"""

import numpy as np

from ..methods.table import METHODS
from ..stats import markdown_table, scores_of

__all__ = ["SUFFIX", "current_records", "former_section"]

SUFFIX = "-logtime"  # the former forms' names: the successor's name and this suffix


def _is_former(name):
    method = METHODS.get(name)
    return method is not None and method.family == "former"


def current_records(records):
    """``records`` without those of the former forms of a method."""
    return [r for r in records if not _is_former(r["method"])]


def _mean(records):
    scores = scores_of(records, "h_auroc")
    scores = scores[np.isfinite(scores)]
    return (float(scores.mean()), scores.size) if scores.size else (np.nan, 0)


def former_section(records, *, title, dataset_key="dataset"):
    """Markdown lines: per former method, dataset and label fraction, its mean h-AUROC beside its successor's.

    Rows where the successor has no record yet show a dash. Returns no lines
    when ``records`` hold no former method.
    """
    names = [m for m in METHODS if _is_former(m) and any(r["method"] == m for r in records)]
    if not names:
        return []
    cells = {}
    for r in records:
        cells.setdefault(
            (r.get(dataset_key, r.get("subset")), float(r["fraction"]), r["method"], r.get("split", "fixed")), []
        ).append(r)
    rows = []
    for name in names:
        successor = name[: -len(SUFFIX)]
        keys = sorted({k[:2] + k[3:] for k in cells if k[2] == name}, key=lambda k: (str(k[0]), -k[1], k[2]))
        for dataset, fraction, split in keys:
            old, n_old = _mean(cells[(dataset, fraction, name, split)])
            new, n_new = _mean(cells.get((dataset, fraction, successor, split), []))
            rows.append(
                [
                    f"`{successor}`",
                    str(dataset),
                    f"{fraction * 100:g}%",
                    split,
                    f"{old:.3f} ({n_old})",
                    "–" if not n_new else f"{new:.3f} ({n_new})",
                    "–" if not n_new else f"{new - old:+.3f}",
                ]
            )
    header = ["method", "dataset", "labels", "split", "release 0.2.0's targets (seeds)", "now (seeds)", "now − then"]
    return [
        f"## {title}",
        "",
        "Mean test h-AUROC over the seeds each ran. The former forms (`*-logtime`) take part in no other "
        "table of this report.",
        "",
        *markdown_table(header, rows),
    ]
