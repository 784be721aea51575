"""``hepa-bench query``: the figures of a comparison of methods, read from the records of results files.

A comparison of method-table entries is a set of cells (dataset, label
fraction, method, seed) that ``hepa-bench run`` appended to one or more
results files. The query reads one field of those records (``--key``, the
test h-AUROC by default) and prints

- per row (dataset and label fraction) each method's mean ± standard
  deviation (n) over the seeds, and the method of highest mean;
- with ``--per-seed``, each row's scores seed by seed;
- with ``--reference``, each method against the reference, paired by seed:
  the mean difference, the paired t-test's and Wilcoxon's p and the
  t-test's p Holm-adjusted over the comparisons printed (one family, as
  each table of the report is one), then per method a summary over the
  rows: the mean and the largest shortfall of its row differences, the rows
  where it is significantly above or below, the (row, seed) pairs pooled
  with a one-sided Wilcoxon test of being below, and its CPU seconds;
- over the rows where every method ran, each method's mean of the row
  means and its mean rank (1: the highest mean of the row; ties share the
  better rank).

Where several files hold records of one cell (dataset, fraction, method),
the first file listed that holds any is read, as the report reads a
method's C-MAPSS cells from the C-MAPSS file before the event file. A pair
where either method scored the same on every seed is not tested
(:func:`hepa_bench.stats.one_run`).
"""

import math
import os
import warnings
from collections import defaultdict

import numpy as np
from scipy import stats as scipy_stats

from .stats import ALPHA, compare, markdown_table, mean_std, paired_by_seed, scores_of

__all__ = ["add_arguments", "query_cells", "render", "run"]


def _dataset(record):
    return record.get("dataset") or record.get("subset")


def _kept(record, key):
    value = record.get(key)
    return isinstance(value, (int, float)) and math.isfinite(value)


def query_cells(files, methods, *, key="h_auroc", datasets=None, fractions=None, seeds=None, split="fixed"):
    """``{(dataset, fraction, method): records}`` of ``methods`` with a finite ``key``, read from ``files``.

    ``files`` are lists of records, one per results file, in the order
    given; a cell is read from the first of them that holds a record of it
    after the filters (``datasets``, ``fractions``, ``seeds``: None keeps
    every one; ``split``: records without one are of the fixed split).
    """
    cells = {}
    for records in files:
        found = defaultdict(list)
        for r in records:
            if (
                r.get("method") in methods
                and (datasets is None or _dataset(r) in datasets)
                and (fractions is None or float(r["fraction"]) in fractions)
                and (seeds is None or r.get("seed") in seeds)
                and r.get("split", "fixed") == split
                and _kept(r, key)
            ):
                found[(_dataset(r), float(r["fraction"]), r["method"])].append(r)
        for cell, held in found.items():
            cells.setdefault(cell, held)
    return cells


def _rows(cells, datasets, fractions):
    """The (dataset, fraction) rows with a cell: datasets in the order given, else as first met; fractions from 1."""
    names = list(datasets) if datasets else list(dict.fromkeys(d for d, _, _ in cells))
    shares = sorted(set(fractions) if fractions else {f for _, f, _ in cells}, reverse=True)
    held = {(d, f) for d, f, _ in cells}
    return [(d, f) for d in names for f in shares if (d, f) in held]


def _count(n, noun):
    """``n`` and ``noun``, plural unless ``n`` is 1."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _label(fraction):
    return f"{fraction * 100:g}%"


def _number(value, digits, sign=False):
    return "—" if not np.isfinite(value) else f"{value:{'+' if sign else ''}.{digits}f}"


def _p(value):
    return "—" if not np.isfinite(value) else f"{value:.3g}"


def _means(cells, row, methods, key):
    """``{method: mean}`` of the methods with a score in ``row``."""
    return {m: float(np.mean(scores_of(cells[(*row, m)], key))) for m in methods if (*row, m) in cells}


def means_table(cells, rows, methods, key, digits, min_seeds=1):
    """Markdown lines: per row each method's mean ± sd (n) and the method of highest mean on ``min_seeds``+ seeds."""
    lines = []
    for row in rows:
        scores = {m: scores_of(cells.get((*row, m), []), key) for m in methods}
        ranked = {m: float(v.mean()) for m, v in scores.items() if v.size >= max(min_seeds, 1)}
        top = max(ranked, key=ranked.get) if ranked else None
        cells_text = [mean_std(scores[m], digits) for m in methods]
        lines.append([row[0], _label(row[1]), *cells_text, f"{top} ({ranked[top]:.{digits}f})" if top else "—"])
    return markdown_table(["dataset", "labels", *(f"`{m}`" for m in methods), "highest mean"], lines)


def seed_tables(cells, rows, methods, reference, key, digits):
    """Markdown lines: each row's scores seed by seed, and each method's difference from the reference."""
    others = [m for m in methods if m != reference] if reference else []
    lines = []
    for row in rows:
        by_seed = {m: {r["seed"]: r[key] for r in cells.get((*row, m), [])} for m in methods}
        seeds = sorted({s for scores in by_seed.values() for s in scores})
        table = []
        for seed in seeds:
            values = [by_seed[m].get(seed, np.nan) for m in methods]
            base = by_seed[reference].get(seed, np.nan) if reference else np.nan
            differences = [by_seed[m].get(seed, np.nan) - base for m in others]
            table.append(
                [str(seed), *(_number(v, digits) for v in values), *(_number(d, digits, True) for d in differences)]
            )
        header = ["seed", *(f"`{m}`" for m in methods), *(f"`{m}` − `{reference}`" for m in others)]
        lines += ["", f"{row[0]}, {_label(row[1])}:", "", *markdown_table(header, table)]
    return lines


def _one_sided_wilcoxon(differences):
    """p of the Wilcoxon signed-rank test that ``differences`` lie below 0; NaN under 2 pairs, 1 if all are 0."""
    if differences.size < 2:
        return np.nan
    if not differences.any():
        return 1.0
    with warnings.catch_warnings():  # zero differences make scipy fall back from the exact test with a warning
        warnings.simplefilter("ignore", UserWarning)
        return float(scipy_stats.wilcoxon(differences, alternative="less").pvalue)


def against_reference(cells, rows, methods, reference, key, digits):
    """Markdown lines: each method against ``reference`` row by row (one Holm family), then per method a summary."""
    others = [m for m in methods if m != reference]
    # each row of compare() is one pair, the method first: its mean difference is method - reference
    pairs = [(d, f, [m, reference]) for m in others for d, f in rows]
    comparisons = [c for c in compare(cells, pairs, key=key) if c.n_seeds]
    table = [
        [
            f"`{c.a}`",
            c.subset,
            _label(c.fraction),
            str(c.n_seeds),
            _number(c.mean_difference, digits, True),
            _p(c.t_p),
            _p(c.wilcoxon_p),
            _p(c.holm_p) + (" *" if c.holm_p < ALPHA else ""),
        ]
        for c in comparisons
    ]
    tested = sum(np.isfinite(c.t_p) for c in comparisons)
    untested = len(comparisons) - tested
    lines = [
        f"Against `{reference}`, paired by seed: Holm's correction over the "
        f"{_count(tested, 'tested comparison')} below (paired t-test, * where p < {ALPHA})"
        + (f"; {untested} with a method that scored the same on every seed not tested" if untested else "")
        + ".",
        "",
        *markdown_table(
            ["method", "dataset", "labels", "seeds", f"mean − `{reference}`", "paired t p", "Wilcoxon p", "Holm p"],
            table,
        ),
        "",
    ]
    for method in others:
        own = [c for c in comparisons if c.a == method]
        if not own:
            lines.append(f"`{method}`: no row shared with `{reference}`.")
            continue
        lines.append(_summary(cells, own, method, reference, key, digits, len(rows)))
    return lines


def _seed_differences(cells, comparison, key):
    """``a - b`` of a comparison's pair on each seed both ran in its row."""
    row = (comparison.subset, comparison.fraction)
    _, a, b = paired_by_seed(cells[(*row, comparison.a)], cells[(*row, comparison.b)], key)
    return a - b


def _summary(cells, comparisons, method, reference, key, digits, n_rows):
    """One line: ``method`` against ``reference`` over the rows both ran."""
    differences = np.array([c.mean_difference for c in comparisons])
    worst = comparisons[int(np.argmin(differences))]
    above = [f"{c.subset} {_label(c.fraction)}" for c in comparisons if c.holm_p < ALPHA and c.mean_difference > 0]
    below = [f"{c.subset} {_label(c.fraction)}" for c in comparisons if c.holm_p < ALPHA and c.mean_difference < 0]
    pooled = np.concatenate([_seed_differences(cells, c, key) for c in comparisons])
    cpu = sum(r.get("cpu_s") or 0.0 for c in comparisons for r in cells[(c.subset, c.fraction, method)])
    return (
        f"`{method}` against `{reference}` over {len(comparisons)} of {_count(n_rows, 'row')}: mean difference "
        f"{_number(differences.mean(), digits, True)}; largest shortfall {_number(-differences.min(), digits, True)} "
        f"({worst.subset} {_label(worst.fraction)}); Holm p < {ALPHA} above on {_count(len(above), 'row')}"
        + (f" ({', '.join(above)})" if above else "")
        + f", below on {len(below)}"
        + (f" ({', '.join(below)})" if below else "")
        + f"; over {_count(pooled.size, '(row, seed) pair')}: mean {_number(pooled.mean(), digits, True)}, from "
        f"{_number(pooled.min(), digits, True)} to {_number(pooled.max(), digits, True)}, one-sided Wilcoxon p "
        f"(below `{reference}`) {_p(_one_sided_wilcoxon(pooled))}; CPU {cpu:.0f} s."
    )


def overall(cells, rows, methods, key, digits):
    """Markdown lines: over the rows where every method ran, each method's mean of the row means and mean rank."""
    means = [_means(cells, row, methods, key) for row in rows]
    complete = [row_means for row_means in means if len(row_means) == len(methods)]
    if len(methods) < 2 or not complete:
        return []
    values = np.array([[row_means[m] for m in methods] for row_means in complete])
    ranks = np.array([scipy_stats.rankdata(-row, method="min") for row in values])
    table = [
        [f"`{m}`", _number(values[:, i].mean(), digits), f"{ranks[:, i].mean():.2f}"] for i, m in enumerate(methods)
    ]
    return [
        f"Over the {_count(len(complete), 'row')} where every method ran:",
        "",
        *markdown_table(["method", "mean of the row means", "mean rank"], table),
    ]


def render(
    files,
    methods,
    *,
    reference=None,
    key="h_auroc",
    datasets=None,
    fractions=None,
    seeds=None,
    split="fixed",
    digits=3,
    per_seed=False,
    min_seeds=1,
):
    """Markdown lines of the query (see the module's docstring); ``files`` are lists of records."""
    methods = list(dict.fromkeys([reference, *methods] if reference else methods))
    cells = query_cells(files, set(methods), key=key, datasets=datasets, fractions=fractions, seeds=seeds, split=split)
    rows = _rows(cells, datasets, fractions)
    if not rows:
        return ["No records of these methods in these rows."]
    lines = [*means_table(cells, rows, methods, key, digits, min_seeds)]
    if per_seed:
        lines += seed_tables(cells, rows, methods, reference, key, digits)
    if reference and len(methods) > 1:
        lines += ["", *against_reference(cells, rows, methods, reference, key, digits)]
    closing = overall(cells, rows, methods, key, digits)
    return lines + (["", *closing] if closing else [])


def _family_methods(families):
    """The method table's entries of ``families`` that still run, in the table's order."""
    from .methods.table import METHODS

    return [m for m, spec in METHODS.items() if spec.family in families and not spec.retired]


def add_arguments(parser):
    parser.add_argument("--results", nargs="+", required=True, metavar="FILE", help="results files, read in order")
    parser.add_argument("--methods", nargs="+", default=[], metavar="METHOD", help="method names of the records")
    parser.add_argument(
        "--family", nargs="+", default=[], metavar="FAMILY", help="add the method table's entries of these families"
    )
    parser.add_argument("--reference", default=None, metavar="METHOD", help="the method the others are paired with")
    parser.add_argument("--datasets", nargs="+", default=None, metavar="NAME", help="rows' datasets (default: all)")
    parser.add_argument("--fractions", nargs="+", type=float, default=None, help="label fractions (default: all)")
    parser.add_argument("--seeds", nargs="+", type=int, default=None, help="seeds (default: all)")
    parser.add_argument("--split", default="fixed", choices=["fixed", "rolling"])
    parser.add_argument("--key", default="h_auroc", help="the record field read (valid_h_auroc: validation units)")
    parser.add_argument("--digits", type=int, default=3, help="decimals of the means and differences")
    parser.add_argument("--per-seed", action="store_true", help="also each row's scores seed by seed")
    parser.add_argument(
        "--min-seeds", type=int, default=1, help="seeds a method needs in a row to be its highest mean (default 1)"
    )


def run(args):
    from .results import CELL_FIELDS, read_results

    methods = list(dict.fromkeys([*args.methods, *_family_methods(args.family)]))
    if not methods and not args.reference:
        raise SystemExit("hepa-bench query: name the methods (--methods or --family).")
    missing = [path for path in args.results if not os.path.exists(path)]
    if missing:
        raise SystemExit(f"hepa-bench query: no results file {', '.join(missing)}.")
    folders = [path for path in args.results if os.path.isdir(path)]
    if folders:
        raise SystemExit(
            f"hepa-bench query: {', '.join(folders)} is a folder, not a results file; name the .jsonl files "
            "that `hepa-bench run` wrote."
        )
    lines = render(
        # a record without the fields of its cell is skipped with a warning naming its line
        [read_results(path, CELL_FIELDS, damaged="warn") for path in args.results],
        methods,
        reference=args.reference,
        key=args.key,
        datasets=args.datasets,
        fractions=set(args.fractions) if args.fractions else None,
        seeds=set(args.seeds) if args.seeds is not None else None,
        split=args.split,
        digits=args.digits,
        per_seed=args.per_seed,
        min_seeds=args.min_seeds,
    )
    print("\n".join(lines))
