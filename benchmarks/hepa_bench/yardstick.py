"""The yardstick: the headline line against the best baseline chosen on validation units, with 95 % intervals.

A comparison of two methods is read from paired differences: each seed
fits both on the same windows (on C-MAPSS the seed draws the 60/10/30 unit
split, so every seed is a new split of the units; on the event datasets it
draws the initial weights and, below 100 % labels, the labelled blocks) and
scores both on the same test windows. With ``n`` seeds the mean difference
gets the t interval ``mean ± t(0.975, n-1) · sd / sqrt(n)``.

The primary family answers one question, "is the headline line ahead of
the best baseline on this row?", once per row of :data:`ROWS`. Its file
(:func:`make_family`, written by ``hepa-bench yardstick family``) is
committed before any of its records exist:

- the baseline of each row is the candidate of :data:`BASELINE_FAMILIES`
  with the highest mean **validation** h-AUROC over the seeds 0-4 records
  that were committed before the file (at least :data:`MIN_SEEDS` seeds;
  the first in the table's order among equals); the best of each family is
  kept beside it, for the tables. No test figure is read;
- its seeds are :data:`SEEDS` (100-119), which no earlier record ran, so
  every record of the family is made after the family is fixed;
- Holm's correction runs over the family's rows and nothing else; a row is
  ``ahead`` or ``behind`` when its Holm-adjusted paired-t p is below 0.05,
  ``within`` otherwise. Every other comparison is exploratory.

``hepa-bench yardstick run`` runs the records of the family (the runner's
cells, appended one by one, so a stopped run resumes where it stopped) and
``hepa-bench yardstick report`` prints the table.
"""

import json
import os
from datetime import datetime, timezone

import numpy as np
from scipy import stats

from .results import CELL_FIELDS, read_results
from .stats import holm, markdown_table, paired_by_seed

__all__ = [
    "ALPHA",
    "BASELINE_FAMILIES",
    "HEADLINE",
    "LEFT_OUT",
    "MIN_SEEDS",
    "ROWS",
    "SEEDS",
    "choose",
    "family_rows",
    "make_family",
    "paired_interval",
    "read_family",
    "render_family",
    "run_family",
    "validation_means",
]

# make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K)) with the defaults of 0.3.0
HEADLINE = "hepa-default-auto0-knots12"
SEEDS = tuple(range(100, 120))
MIN_SEEDS = 3
ALPHA = 0.05
CMAPSS_ROWS = tuple((subset, f) for subset in ("FD001", "FD002", "FD003", "FD004") for f in (1.0, 0.1, 0.05))
EVENT_DATASETS = ("MBA", "BATADAL", "ETTm1", "Weather", "Beijing", "VIX")
EVENT_ROWS = tuple((name, f) for name in EVENT_DATASETS for f in (1.0, 0.1))
#: the rows with records of the headline line at 100 %, 10 % and (C-MAPSS) 5 % labels
ROWS = CMAPSS_ROWS + EVENT_ROWS
#: the baselines that run offline, by family; a family's variants differ in features, normalisation or targets
BASELINE_FAMILIES = {
    "boosting": ("gbm", "gbm-select", "gbm-regime", "gbm-last30", "gbm-regime-last30", "gbm-simple"),
    "minirocket": ("minirocket", "minirocket-10k"),
    "patchtst": ("patchtst", "patchtst-revin", "patchtst-regime"),
    "itransformer": ("itransformer", "itransformer-revin", "itransformer-regime"),
    "mae": ("mae",),
}

#: the baselines not yet candidates of this family; a later family file adds them
LEFT_OUT = (
    "MiniRocket at its standard number of kernels (about 10,000) with the headline line's head, and "
    "PatchTST and "
    "iTransformer on per-operating-condition z-scores, have no method or no validation records yet"
)


def _dataset(record):
    return record.get("dataset", record.get("subset"))


def validation_means(records, dataset, fraction, methods):
    """``{method: (mean validation h-AUROC, seeds)}`` over the fixed-split records of seeds 0-4 at one row."""
    scores = {}
    for r in records:
        if (
            _dataset(r) == dataset
            and float(r["fraction"]) == fraction
            and r["method"] in methods
            and r.get("split", "fixed") == "fixed"
            and r["seed"] in range(5)
            and r.get("valid_h_auroc") is not None
            and np.isfinite(r["valid_h_auroc"])
        ):
            scores.setdefault(r["method"], {})[r["seed"]] = float(r["valid_h_auroc"])
    return {m: (float(np.mean(list(s.values()))), len(s)) for m, s in scores.items()}


def choose(means, methods, min_seeds=MIN_SEEDS):
    """The method of ``methods`` with the highest mean among those with ``min_seeds`` seeds; None if none has.

    >>> choose({"a": (0.80, 5), "b": (0.90, 2), "c": (0.85, 5)}, ["a", "b", "c"])
    'c'
    """
    eligible = [m for m in methods if m in means and means[m][1] >= min_seeds]
    return max(eligible, key=lambda m: means[m][0]) if eligible else None  # max keeps the first among equals


def make_family(records, sources, rows=ROWS):
    """The primary family: per row the validation-chosen baseline of each family and the best of them."""
    candidates = [m for family in BASELINE_FAMILIES.values() for m in family]
    out = []
    for dataset, fraction in rows:
        means = validation_means(records, dataset, fraction, candidates)
        by_family = {name: choose(means, methods) for name, methods in BASELINE_FAMILIES.items()}
        best = choose(means, [m for m in by_family.values() if m is not None])
        out.append(
            {
                "dataset": dataset,
                "fraction": fraction,
                "headline": HEADLINE,
                "baseline": best,
                "by_family": by_family,
                "validation": {m: [round(v, 6), n] for m, (v, n) in sorted(means.items())},
            }
        )
    return {
        "question": "is the headline line ahead of the best baseline chosen on validation units, per row?",
        "rule": (
            "baseline: the candidate with the highest mean validation h-AUROC over the seeds 0-4 records "
            "of the "
            f"sources (at least {MIN_SEEDS} seeds; the first in table order among equals); records: seeds "
            f"{SEEDS[0]}-{SEEDS[-1]}; test: paired t over the seeds, 95 % t interval, Holm over the rows "
            "of this "
            f"family only; ahead/behind: Holm-adjusted p below {ALPHA}, within otherwise"
        ),
        "seeds": list(SEEDS),
        "candidates": {name: list(methods) for name, methods in BASELINE_FAMILIES.items()},
        "left_out": LEFT_OUT,
        "sources": list(sources),
        "written": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "rows": out,
    }


def read_family(path):
    """The family file at ``path``; ValueError naming the file when it is not one."""
    try:
        with open(path) as handle:
            family = json.load(handle)
    except json.JSONDecodeError as exc:
        why = f"invalid JSON ({exc.msg}, line {exc.lineno})"
        raise ValueError(f"{path} is not a family file: {why}.") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a family file: it is not text.") from None
    if not isinstance(family, dict) or not isinstance(family.get("rows"), list):
        raise ValueError(f"{path} is not a family file: it has no list of rows.")
    fields = ("dataset", "fraction", "headline", "baseline")
    missing = [k for row in family["rows"] for k in fields if k not in row]
    if missing:
        raise ValueError(f"{path} is not a family file: rows lack {sorted(set(missing))}.")
    return family


def paired_interval(a, b, level=0.95):
    """``(n, mean, low, high, p)`` of the differences ``a - b``: t interval and paired-t p; NaN below 2 pairs.

    Differences without spread give the interval ``[mean, mean]`` and p 1
    (mean 0) or 0 (otherwise), the limits of a vanishing spread.

    >>> n, mean, low, high, p = paired_interval(np.array([0.9, 0.85, 0.8]), np.array([0.8, 0.8, 0.8]))
    >>> n, round(mean, 6), round(low, 4), round(high, 4)  # 0.05 ± t(0.975, 2) 0.05 / sqrt(3)
    (3, 0.05, -0.0742, 0.1742)
    """
    difference = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n = difference.size
    if n < 2:
        return n, float(np.mean(difference)) if n else np.nan, np.nan, np.nan, np.nan
    mean, sd = float(difference.mean()), float(difference.std(ddof=1))
    if sd == 0:
        return n, mean, mean, mean, 1.0 if mean == 0 else 0.0
    half = stats.t.ppf(0.5 + level / 2, n - 1) * sd / np.sqrt(n)
    p = float(2 * stats.t.sf(abs(mean) / (sd / np.sqrt(n)), n - 1))
    return n, mean, float(mean - half), float(mean + half), p


def family_rows(family, records):
    """Per row of ``family``: pairs, mean difference, interval, p, Holm p and verdict, from ``records``."""
    seeds = set(family["seeds"])
    cells = {}
    for r in records:
        if r["seed"] in seeds and r.get("scope", "test") == "test" and r.get("split", "fixed") == "fixed":
            cells.setdefault((_dataset(r), float(r["fraction"]), r["method"]), []).append(r)
    rows = []
    for row in family["rows"]:
        key = (row["dataset"], float(row["fraction"]))
        if row["baseline"] is None:
            rows.append({**row, "n": 0, "mean": np.nan, "low": np.nan, "high": np.nan, "p": np.nan})
            continue
        headline, baseline = (cells.get((*key, row[m]), []) for m in ("headline", "baseline"))
        _, a, b = paired_by_seed(headline, baseline)
        n, mean, low, high, p = paired_interval(a, b)
        rows.append(
            {**row, "n": n, "headline_mean": np.mean(a) if n else np.nan}
            | {"baseline_mean": np.mean(b) if n else np.nan, "mean": mean, "low": low, "high": high, "p": p}
        )
    # Holm over every row of the family, a row without its test yet counted with p = 1, so that a row's
    # adjusted p never counts fewer comparisons than the family holds
    pending = [row["p"] if np.isfinite(row["p"]) else 1.0 for row in rows]
    for row, adjusted in zip(rows, holm(pending), strict=True):
        row["holm_p"] = adjusted if np.isfinite(row["p"]) else np.nan
        if not np.isfinite(row["holm_p"]):
            row["verdict"] = "–"
        elif adjusted < ALPHA:
            row["verdict"] = "ahead" if row["mean"] > 0 else "behind"
        else:
            row["verdict"] = "within"
    return rows


def _f(value, spec=".3f"):
    return "–" if value is None or not np.isfinite(value) else format(value, spec)


def render_family(family, records, *, min_pairs=20):
    """Markdown lines of the primary family's table; rows with fewer than ``min_pairs`` pairs say so."""
    body = []
    for row in family_rows(family, records):
        complete = row["n"] >= min_pairs
        body.append(
            [
                row["dataset"],
                f"{row['fraction']:.0%}",
                f"`{row['baseline']}`" if row["baseline"] else "–",
                _f(row.get("headline_mean")),
                _f(row.get("baseline_mean")),
                str(row["n"]),
                _f(row["mean"], "+.3f"),
                f"[{_f(row['low'], '+.3f')}, {_f(row['high'], '+.3f')}]",
                _f(row["holm_p"], ".2g"),
                row["verdict"] if complete else f"{row['verdict']} (incomplete)" if row["n"] >= 2 else "–",
            ]
        )
    header = [
        "dataset",
        "labels",
        "baseline (chosen on validation)",
        "headline",
        "baseline",
        "pairs",
        "headline − baseline",
        "95 % interval",
        "Holm p",
        "verdict",
    ]
    n_rows = len(family["rows"])
    return [
        f"Primary family: the headline line (`{HEADLINE}`) against the baseline chosen on validation units, "
        f"test units, seeds {family['seeds'][0]}-{family['seeds'][-1]}; Holm over these {n_rows} rows only.",
        "",
        *markdown_table(header, body),
        "",
        f"A row is ahead or behind where its Holm-adjusted paired-t p is below {ALPHA}, within otherwise; "
        "a row "
        f"with fewer than {min_pairs} pairs is marked incomplete.",
    ]


def add_arguments(parser):
    commands = parser.add_subparsers(dest="action", required=True)
    family = commands.add_parser("family", help="write the primary family file from the validation records")
    family.add_argument("--records", nargs="+", required=True, help="results files whose validation h-AUROC chooses")
    family.add_argument("--out", required=True, help="the family file to write (refused if it exists)")
    run = commands.add_parser("run", help="run the family's records (resumable)")
    run.add_argument("--family", required=True)
    run.add_argument("--results", required=True)
    run.add_argument("--datasets", nargs="+", default=None, help="only these datasets' rows")
    run.add_argument("--max-minutes", type=float, default=None, help="start no new row after this many minutes")
    run.add_argument("--threads", type=int, default=1)
    run.add_argument("--data-home", default=None)
    report = commands.add_parser("report", help="the family's table from its records")
    report.add_argument("--family", required=True)
    report.add_argument("--results", nargs="+", required=True, help="results files of the family's records")


def _check_inputs(args):
    """SystemExit naming the first input that is no file, an output that cannot be written or a bad option."""
    prog = f"hepa-bench yardstick {args.action}"
    named = [("--records", path) for path in getattr(args, "records", None) or ()]
    named += [("--family", args.family)] if args.action != "family" else []
    named += [("--results", path) for path in args.results] if args.action == "report" else []
    for option, path in named:
        if not os.path.isfile(path):
            raise SystemExit(f"{prog}: {option} names {path}, which is not a file; nothing was written.")
    if args.action == "family":
        folder = os.path.dirname(os.path.abspath(args.out))
        if os.path.isdir(args.out):
            raise SystemExit(f"{prog}: --out names the folder {args.out}; name the family file to write.")
        if not os.path.isdir(folder):
            raise SystemExit(f"{prog}: --out {args.out}: no folder {folder}; nothing was written.")
        if os.path.exists(args.out):
            raise SystemExit(f"{prog}: {args.out} exists; a family is written once.")
    if args.action == "run":
        if os.path.isdir(args.results):
            raise SystemExit(f"{prog}: --results names the folder {args.results}; name a JSON-lines file.")
        if args.threads < 1:
            raise SystemExit(f"{prog}: --threads must be a positive integer, got {args.threads}.")
        if args.max_minutes is not None and not 0 < args.max_minutes < float("inf"):  # NaN fails it too
            raise SystemExit(f"{prog}: --max-minutes must be a positive number, got {args.max_minutes}.")


def run(args):
    """``hepa-bench yardstick family|run|report``; a bad input file ends in one line naming it.

    A record without the fields of its cell (:data:`~hepa_bench.results.CELL_FIELDS`)
    ends ``family`` and ``run`` naming its file and line before anything is
    written; ``report`` only reads, and skips it with a warning naming them.
    """
    _check_inputs(args)
    try:
        if args.action == "family":
            records = [r for path in args.records for r in read_results(path, CELL_FIELDS)]
            family = make_family(records, args.records)
            with open(args.out, "w") as handle:
                json.dump(family, handle, indent=1)
                handle.write("\n")
            print(f"wrote {args.out}")
        elif args.action == "report":
            family = read_family(args.family)
            records = [r for path in args.results for r in read_results(path, CELL_FIELDS, damaged="warn")]
            print("\n".join(render_family(family, records)))
        else:
            _run_family(args)
    except (ValueError, FileNotFoundError) as exc:
        raise SystemExit(f"hepa-bench yardstick {args.action}: {exc}") from None


def _run_family(args):
    import torch

    from .results import RUN_FIELDS, command_line

    family = read_family(args.family)
    names = {row["dataset"] for row in family["rows"]}
    unknown = [name for name in args.datasets or () if name not in names]
    if unknown:
        rows = sorted(names)
        raise ValueError(f"--datasets names {unknown}, which the family has no row of; its datasets: {rows}.")
    read_results(args.results, RUN_FIELDS)  # a damaged record: named before any row runs
    torch.set_num_threads(args.threads)
    run_family(
        family,
        results=args.results,
        datasets=args.datasets,
        max_minutes=args.max_minutes,
        data_home=args.data_home,
        command=command_line(),
        log=lambda message, **kw: print(message, flush=True),
    )


def run_family(family, *, results, datasets=None, max_minutes=None, log=print, **runner_params):
    """Run every missing cell of ``family``'s rows (of ``datasets``, default all) into ``results``.

    One :func:`~hepa_bench.runner.run_benchmark` call per row, with the
    row's two methods and the family's seeds; ``runner_params`` go to it
    (``data_home``, ``command``, and for tests ``registry``,
    ``methods_table`` and the epochs). No row starts after ``max_minutes``.
    """
    import time

    from .runner import run_benchmark

    start = time.perf_counter()
    for row in family["rows"]:
        if (datasets is not None and row["dataset"] not in datasets) or row["baseline"] is None:
            continue
        spent = (time.perf_counter() - start) / 60
        if max_minutes is not None and spent > max_minutes:
            log("stopping: --max-minutes reached")
            break
        run_benchmark(
            datasets=[row["dataset"]],
            seeds=family["seeds"],
            fractions=[row["fraction"]],
            methods=[row["headline"], row["baseline"]],
            device="cpu",
            results=results,
            max_minutes=None if max_minutes is None else max_minutes - spent,
            log=log,
            **runner_params,
        )
