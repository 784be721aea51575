"""Markdown report of C-MAPSS benchmark results: mean ± std over seeds with Welch t-test markers."""

import os
import statistics
import warnings
from collections import Counter, defaultdict

import numpy as np
from scipy import stats

from .results import read_results
from .sweep import ABLATIONS, DEFAULT_RESULTS, METHODS

# h-AUROC of the authors' implementation, 100% labels, 5 seeds (its README)
REFERENCE = {"FD001": (0.918, 0.008), "FD002": (0.661, 0.007), "FD003": (0.960, 0.003), "FD004": (0.627, 0.008)}
# Targets of this project at 100% labels, mean of 5 seeds
TARGET = {"FD001": 0.93, "FD002": 0.70, "FD003": 0.965, "FD004": 0.66}
ALPHA = 0.05  # significance level of the Welch t-test markers

METRIC_COLUMNS = [
    ("pooled_auroc", "pooled AUROC", 3),
    ("pooled_auprc", "pooled AUPRC", 3),
    ("ece", "ECE", 3),
    ("ece_isotonic", "ECE isotonic", 3),
    ("ece_sigmoid", "ECE Platt", 3),
    ("brier", "Brier", 4),
    ("reliability", "reliability", 4),
    ("resolution", "resolution", 4),
    ("uncertainty", "uncertainty", 4),
    ("monotonicity_violation_rate", "monotonicity violations", 4),
    ("rul_rmse", "RUL RMSE (cap 125)", 1),
    ("nasa_rmse", "NASA test RMSE", 1),
]


def _values(records, key):
    return np.array([r[key] for r in records if r.get(key) is not None], dtype=float)


def mean_std(values, digits=3):
    """``mean ± std (n)`` with the sample standard deviation; one value has no spread."""
    values = values[np.isfinite(values)]
    if values.size == 0:
        return "—"
    spread = f" ± {np.std(values, ddof=1):.{digits}f}" if values.size > 1 else ""
    return f"{values.mean():.{digits}f}{spread} ({values.size})"


def welch_better(a, b, alpha=ALPHA):
    """True when ``a`` has a higher mean than ``b`` by Welch's t-test at level ``alpha`` (two-sided)."""
    a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    if a.size < 2 or b.size < 2 or a.mean() <= b.mean():
        return False
    if np.std(a) == 0 and np.std(b) == 0:
        return True
    with warnings.catch_warnings():  # one constant sample makes scipy warn about precision
        warnings.simplefilter("ignore", RuntimeWarning)
        return bool(stats.ttest_ind(a, b, equal_var=False).pvalue < alpha)


def _cells(records):
    cells = defaultdict(list)
    for r in records:
        cells[(r["subset"], float(r["fraction"]), r["method"])].append(r)
    return cells


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def h_auroc_table(cells, subsets, methods, fraction, *, with_reference=False, key="h_auroc"):
    """One row per subset: h-AUROC of each method, marked ``>m`` where it beats method ``m``.

    ``key`` picks the score: ``"h_auroc"`` on the test units, ``"valid_h_auroc"`` on the validation units.
    """
    header = ["subset"] + methods + (["authors' implementation", "target"] if with_reference else [])
    rows = []
    for subset in subsets:
        scores = {m: _values(cells.get((subset, fraction, m), []), key) for m in methods}
        row = [subset]
        for m in methods:
            beaten = [o for o in methods if o != m and welch_better(scores[m], scores[o])]
            row.append(mean_std(scores[m]) + "".join(f" >{o}" for o in beaten))
        if with_reference:
            mean, std = REFERENCE[subset]
            row += [f"{mean:.3f} ± {std:.3f} (5)", f"≥ {TARGET[subset]}"]
        rows.append(row)
    return _table(header, rows)


def label_efficiency_table(cells, subset, methods, fractions):
    """One row per label fraction; retention = mean h-AUROC at the fraction / at 100% labels."""
    header = ["labels", "label units"] + methods + [f"{m} retention" for m in methods]
    rows = []
    full = {m: _values(cells.get((subset, 1.0, m), []), "h_auroc") for m in methods}
    for fraction in fractions:
        records = {m: cells.get((subset, fraction, m), []) for m in methods}
        scores = {m: _values(records[m], "h_auroc") for m in methods}
        units = sorted({r["n_label_units"] for rs in records.values() for r in rs})
        row = [f"{fraction * 100:g}%", "/".join(map(str, units)) or "—"]
        for m in methods:
            beaten = [o for o in methods if o != m and welch_better(scores[m], scores[o])]
            row.append(mean_std(scores[m]) + "".join(f" >{o}" for o in beaten))
        for m in methods:
            ok = full[m][np.isfinite(full[m])]
            now = scores[m][np.isfinite(scores[m])]
            row.append(f"{now.mean() / ok.mean():.1%}" if ok.size and now.size else "—")
        rows.append(row)
    return _table(header, rows)


def metrics_table(cells, subsets, methods, fraction=1.0):
    header = ["subset", "method"] + [title for _, title, _ in METRIC_COLUMNS]
    rows = []
    for subset in subsets:
        for m in methods:
            records = cells.get((subset, fraction, m), [])
            if records:
                rows.append([subset, m] + [mean_std(_values(records, key), digits).rsplit(" (", 1)[0]
                                           for key, _, digits in METRIC_COLUMNS])
    return _table(header, rows)


def time_table(records, subsets, methods):
    """Median seconds per cell: pretraining (once per subset and seed), fitting, prediction."""
    rows = []
    for subset in subsets:
        for m in methods:
            rs = [r for r in records if r["subset"] == subset and r["method"] == m]
            if not rs:
                continue
            full = [r for r in rs if r["fraction"] == 1.0] or rs
            med = lambda key, rs=full: statistics.median(r[key] for r in rs)  # noqa: E731
            rows.append([subset, m, f"{med('pretrain_s'):.0f}", f"{med('fit_s'):.1f}", f"{med('predict_s'):.1f}",
                         f"{sum(r['cell_s'] for r in rs) / 60:.1f}"])
    return _table(["subset", "method", "pretrain s", "fit s (100% labels)", "predict s (test units)",
                   "all cells, min"], rows)


def render(records, *, pretrain_epochs=50, finetune_epochs=30):
    """The markdown report of the records run with the given epochs."""
    records = [r for r in records
               if r["pretrain_epochs"] == pretrain_epochs and r["finetune_epochs"] == finetune_epochs]
    if not records:
        return f"No results with {pretrain_epochs} pretraining and {finetune_epochs} finetuning epochs.\n"
    cells = _cells(records)
    subsets = sorted({r["subset"] for r in records})
    present = [m for m in METHODS if any(r["method"] == m for r in records)]
    methods = [m for m in present if m not in ABLATIONS]
    ablations = ["hepa"] + [m for m in present if m in ABLATIONS]
    # the ablation tables compare the variants and hepa on the seeds every variant ran, per subset
    ablation_seeds = {}
    for subset in subsets:
        seed_sets = [{r["seed"] for r in cells[(subset, 1.0, m)]} for m in ablations[1:]
                     if (subset, 1.0, m) in cells]
        if seed_sets:
            ablation_seeds[subset] = sorted(set.intersection(*seed_sets))
    ablation_subsets = list(ablation_seeds)
    ablation_cells = _cells([r for r in records if r["subset"] in ablation_seeds
                             and r["seed"] in ablation_seeds[r["subset"]]])
    seeds_text = "; ".join(f"{subset}: {', '.join(map(str, seeds))}" for subset, seeds in ablation_seeds.items())
    fractions = sorted({float(r["fraction"]) for r in records}, reverse=True)
    seeds = sorted({r["seed"] for r in records})
    versions = Counter(", ".join(f"{k} {v}" for k, v in r["versions"].items()) for r in records)
    machines = sorted({f"{r['machine']}, {r['torch_threads']} torch threads, device {r['device']}" for r in records})
    commands = sorted({r["command"] for r in records if r.get("command")})
    lines = [
        "# C-MAPSS benchmark",
        "",
        "Protocol (the authors' reference implementation): the run-to-failure training units of each subset are split "
        "60/10/30 into train/validation/test units by a seeded permutation; windows of up to 512 "
        "cycles with at least 128 cycles of history, stride 4 for train and validation, stride 1 "
        "for test; K = 150; global per-channel z-score learned on the training units. HEPA pretrains "
        f"once per subset and seed ({pretrain_epochs} epochs x 40 cuts per training unit, no labels) "
        f"and finetunes the predictor for {finetune_epochs} fixed epochs on frozen embeddings. A label "
        "fraction f finetunes on the first ceil(f x n) units of the seeded training list (at least "
        "one); the test units never change. All figures are on the held-out test units unless named "
        "otherwise; \"NASA test RMSE\" uses the official truncated test units and their RUL file "
        "(the prediction at each unit's last cycle, capped at 125).",
        "",
        "Methods: " + "; ".join(f"`{m}`: {METHODS[m].description}" for m in present) + ".",
        "",
        f"Cells are mean ± sample std (number of seeds) over seeds {seeds}. `>m` marks a mean higher "
        f"than method `m`'s by Welch's t-test at p < {ALPHA}.",
        "",
        "## h-AUROC, 100% labels",
        "",
        *h_auroc_table(cells, subsets, methods, 1.0, with_reference=True),
        "",
        "## Label efficiency",
    ]
    for subset in subsets:
        # the main methods run on this subset, and any variant also run with fewer labels
        shown = [m for m in present if (m not in ABLATIONS and any(k[0] == subset and k[2] == m for k in cells))
                 or any(k[0] == subset and k[2] == m and k[1] < 1.0 for k in cells)]
        lines += ["", f"### {subset}", "", *label_efficiency_table(cells, subset, shown, fractions)]
    if ablation_subsets:
        lines += ["", "## Ablations, 100% labels", "",
                  "Each variant changes one thing of `hepa` and keeps the same splits, windows and epochs. "
                  f"Both tables use, per subset, the seeds every variant ran ({seeds_text}), `hepa` included. "
                  "The first scores the test units; the second the validation units, which is where a "
                  "variant may be chosen without looking at the test units.", "",
                  *h_auroc_table(ablation_cells, ablation_subsets, ablations, 1.0), "",
                  *h_auroc_table(ablation_cells, ablation_subsets, ablations, 1.0, key="valid_h_auroc")]
    lines += [
        "",
        "## All metrics, 100% labels",
        "",
        "ECE uses 10 equal-width bins over the known cells of the surface; \"ECE isotonic\" and "
        "\"ECE Platt\" are after a `SurfaceCalibrator` fit on the validation units. Brier = "
        "reliability − resolution + uncertainty (binned Murphy decomposition). RUL RMSE compares "
        "the expected time to event E[min(T, K)] with the true time, both capped at 125.",
        "",
        *metrics_table(cells, subsets, present),
        "",
        "## Wall time",
        "",
        *time_table(records, subsets, present),
        "",
        "## Machine, versions, commands",
        "",
        *[f"- {m}" for m in machines],
        *[f"- {v} ({n} cell{'s' if n > 1 else ''})" for v, n in sorted(versions.items())],
        "",
        "```bash",
        *commands,
        "hepa report",
        "```",
        "",
    ]
    return "\n".join(lines)


def add_arguments(parser):
    parser.add_argument("--results", default=DEFAULT_RESULTS)
    parser.add_argument("--output", default="benchmarks.md",
                        help="markdown file to write ('-' for standard output)")
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)


def run(args):
    text = render(read_results(args.results), pretrain_epochs=args.pretrain_epochs,
                  finetune_epochs=args.finetune_epochs)
    if args.output == "-":
        print(text)
    else:
        with open(args.output, "w") as handle:
            handle.write(text)
        print(f"wrote {args.output}")
