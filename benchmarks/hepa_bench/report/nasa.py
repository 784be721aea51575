"""The report's section on NASA's test engines: each method's h-AUROC on the rows of
:mod:`hepa_bench.nasa.rows`, and the headline line's paired difference from each other method with its 95 %
interval.

Exploratory: these rows are not in the yardstick's primary family, and no
correction for the number of comparisons is made; the interval of a pair
over five seeds is wide.
"""

import numpy as np

from ..nasa.rows import NASA_ROWS
from ..stats import markdown_table, mean_std, paired_by_seed
from ..yardstick import HEADLINE, paired_interval

__all__ = ["render_nasa"]


def _f(value, spec):
    return "–" if not np.isfinite(value) else format(value, spec)


def render_nasa(records):
    """Markdown lines of the section from the records of ``hepa-bench run`` on the NASA rows; [] without any."""
    records = [r for r in records if r.get("dataset") in NASA_ROWS and r.get("scope", "test") == "test"]
    if not records:
        return []
    methods = list(dict.fromkeys(r["method"] for r in records))
    others = [m for m in methods if m != HEADLINE]
    cells = {}
    for r in records:
        cells.setdefault((r["dataset"], float(r["fraction"]), r["method"]), []).append(r)
    rows = sorted(
        {(r["dataset"], float(r["fraction"])) for r in records}, key=lambda k: (list(NASA_ROWS).index(k[0]), -k[1])
    )
    body = []
    for dataset, fraction in rows:
        line = [dataset, f"{fraction:.0%}"]
        line += [
            mean_std(np.array([r["h_auroc"] for r in cells.get((dataset, fraction, m), [])], float)) for m in methods
        ]
        for other in others:
            _, a, b = paired_by_seed(
                cells.get((dataset, fraction, HEADLINE), []), cells.get((dataset, fraction, other), [])
            )
            n, mean, low, high, _ = paired_interval(a, b)
            line.append("–" if n < 2 else f"{mean:+.3f} [{_f(low, '+.3f')}, {_f(high, '+.3f')}] ({n})")
        body.append(line)
    header = ["row", "labels", *(f"`{m}`" for m in methods), *(f"headline − `{m}`" for m in others)]
    return [
        "## C-MAPSS on NASA's test engines",
        "",
        "Every training engine split 90/10 by the seed, windows at every age; every window of NASA's "
        "truncated test "
        "engines scored (`hepa_bench.nasa.rows`). Mean ± standard deviation (seeds) of the test h-AUROC, "
        "and the "
        f"headline line's (`{HEADLINE}`) paired difference from each method with its 95 % t interval "
        "(pairs). "
        "Exploratory: no correction for the number of comparisons.",
        "",
        *markdown_table(header, body),
    ]
