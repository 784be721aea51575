"""The C-MAPSS part of the report: h-AUROC beside the authors' implementation, label efficiency, ablations, all
metrics."""

import statistics
from collections import Counter

import numpy as np

from ..methods.table import METHODS, PAPER_ABLATIONS, references, tuned_variants
from ..stats import (
    ALPHA,
    beaten_by,
    cells_by,
    compare,
    comparisons_table,
    default_against_tuned,
    family_note,
    markdown_table,
    marked,
    mean_std,
    scores_of,
)
from .events import position_guard

__all__ = ["cmapss_records", "render"]

# h-AUROC of the authors' implementation, 100% labels, 5 seeds (its README)
REFERENCE = {"FD001": (0.918, 0.008), "FD002": (0.661, 0.007), "FD003": (0.960, 0.003), "FD004": (0.627, 0.008)}
# Targets of this project at 100% labels, mean of 5 seeds
TARGET = {"FD001": 0.93, "FD002": 0.70, "FD003": 0.965, "FD004": 0.66}

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


def label_units_of(record):
    """Labelled units of a C-MAPSS cell (the former sweep's ``n_label_units``, the runner's ``n_label_blocks``)."""
    return record.get("n_label_units", record.get("n_label_blocks"))


def _unmarked(cells, subset, fraction, shown, key="h_auroc"):
    """Mean ± std of each reference point in ``shown``: beside the methods, compared with none of them."""
    return [mean_std(scores_of(cells.get((subset, fraction, m), []), key)) for m in shown]


def h_auroc_table(cells, subsets, methods, fraction, *, with_reference=False, key="h_auroc", shown=()):
    """One row per subset: h-AUROC of each method, marked ``>m`` where it beats method ``m``.

    ``key`` picks the score: ``"h_auroc"`` on the test units, ``"valid_h_auroc"`` on the validation units;
    ``shown`` are reference points, in columns of their own and in no comparison.
    Returns the table's lines and its comparisons (see :func:`compare`).
    """
    comparisons = compare(cells, [(subset, fraction, methods) for subset in subsets], key=key)
    beaten = beaten_by(comparisons)
    header = ["subset"] + methods + list(shown) + (["authors' implementation", "target"] if with_reference else [])
    rows = []
    for subset in subsets:
        row = [subset]
        for m in methods:
            scores = scores_of(cells.get((subset, fraction, m), []), key)
            row.append(marked(mean_std(scores), beaten[(subset, fraction, m)], methods))
        row += _unmarked(cells, subset, fraction, shown, key)
        if with_reference:
            mean, std = REFERENCE[subset]
            row += [f"{mean:.3f} ± {std:.3f} (5)", f"≥ {TARGET[subset]}"]
        rows.append(row)
    return markdown_table(header, rows) + ["", family_note(comparisons)], comparisons


def label_efficiency_table(cells, subset, methods, fractions, *, shown=()):
    """One row per label fraction; retention = mean h-AUROC at the fraction / at 100% labels.

    ``shown`` are reference points, in columns of their own and in no comparison.
    Returns the table's lines and its comparisons (see :func:`compare`).
    """
    comparisons = compare(cells, [(subset, fraction, methods) for fraction in fractions])
    beaten = beaten_by(comparisons)
    header = ["labels", "label units"] + methods + list(shown) + [f"{m} retention" for m in methods]
    rows = []
    full = {m: scores_of(cells.get((subset, 1.0, m), []), "h_auroc") for m in methods}
    for fraction in fractions:
        records = {m: cells.get((subset, fraction, m), []) for m in methods}
        scores = {m: scores_of(records[m], "h_auroc") for m in methods}
        units = sorted({label_units_of(r) for rs in records.values() for r in rs})
        row = [f"{fraction * 100:g}%", "/".join(map(str, units)) or "—"]
        for m in methods:
            row.append(marked(mean_std(scores[m]), beaten[(subset, fraction, m)], methods))
        row += _unmarked(cells, subset, fraction, shown)
        for m in methods:
            ok = full[m][np.isfinite(full[m])]
            now = scores[m][np.isfinite(scores[m])]
            row.append(f"{now.mean() / ok.mean():.1%}" if ok.size and now.size else "—")
        rows.append(row)
    return markdown_table(header, rows) + ["", family_note(comparisons)], comparisons


def metrics_table(cells, subsets, methods, fraction=1.0):
    """One row per subset and method: mean ± std of each of :data:`METRIC_COLUMNS`."""
    header = ["subset", "method"] + [title for _, title, _ in METRIC_COLUMNS]
    rows = []
    for subset in subsets:
        for m in methods:
            records = cells.get((subset, fraction, m), [])
            if records:
                rows.append(
                    [subset, m]
                    + [
                        mean_std(scores_of(records, key), digits).rsplit(" (", 1)[0]
                        for key, _, digits in METRIC_COLUMNS
                    ]
                )
    return markdown_table(header, rows)


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
            rows.append(
                [
                    subset,
                    m,
                    f"{med('pretrain_s'):.0f}",
                    f"{med('fit_s'):.1f}",
                    f"{med('predict_s'):.1f}",
                    f"{sum(r['cell_s'] for r in rs) / 60:.1f}",
                ]
            )
    return markdown_table(
        ["subset", "method", "pretrain s", "fit s (100% labels)", "predict s (test units)", "all cells, min"], rows
    )


def cmapss_records(records, *, pretrain_epochs=50, finetune_epochs=30):
    """The records run with the given epochs, each naming its subset both ``subset`` and ``dataset``.

    The runner names a record's dataset ``dataset``; the former C-MAPSS
    sweep named it ``subset``, as the C-MAPSS tables do.
    """
    return [
        {**r, "subset": r.get("subset", r.get("dataset")), "dataset": r.get("dataset", r.get("subset"))}
        for r in records
        if r["pretrain_epochs"] == pretrain_epochs and r["finetune_epochs"] == finetune_epochs
    ]


def _reference_points(cells, subsets, fractions, methods, shown):
    """The leakage guard over every subset and label fraction: the stronger reference point against the row's best."""
    if not shown:
        return []
    rows = [
        (subset, fraction, methods)
        for subset in subsets
        for fraction in fractions
        if any((subset, fraction, m) in cells for m in methods)
    ]
    guard, _ = position_guard(cells, rows, methods)
    return [
        "",
        "## Reference points: the unit's age and the window's position",
        "",
        "`elapsed` (the event-time distribution given the unit's visible age, `ElapsedTimeEventPredictor`) and "
        "`position` (per bin of the visible age, the training windows' event share per horizon) read no sensor "
        "value. In each subset and label fraction the stronger of the two is compared with the method of highest "
        "mean (2+ seeds) by the paired t-test over shared seeds, Holm-adjusted over the rows of this table. On "
        "C-MAPSS a unit's age is known to its operator, so no row is dropped: the reference point is the bar a "
        "method has to clear, and a row where it is not significantly below the best says the sensors add "
        "nothing the age does not already give.",
        "",
        *guard,
    ]


def render(records, *, pretrain_epochs=50, finetune_epochs=30):
    """The markdown report of the records run with the given epochs."""
    records = cmapss_records(records, pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs)
    if not records:
        return f"No results with {pretrain_epochs} pretraining and {finetune_epochs} finetuning epochs.\n"
    cells = cells_by(records)
    subsets = sorted({r["subset"] for r in records})
    present = [m for m in METHODS if any(r["method"] == m for r in records)]
    shown = references(present)  # reference points: beside the methods, in no comparison
    methods = [m for m in present if m not in PAPER_ABLATIONS and m not in shown]
    ablations = ["hepa"] + [m for m in present if m in PAPER_ABLATIONS]
    # the ablation tables compare the variants and hepa on the seeds every variant ran, per subset
    ablation_seeds = {}
    for subset in subsets:
        seed_sets = [{r["seed"] for r in cells[(subset, 1.0, m)]} for m in ablations[1:] if (subset, 1.0, m) in cells]
        if seed_sets:
            ablation_seeds[subset] = sorted(set.intersection(*seed_sets))
    ablation_subsets = list(ablation_seeds)
    ablation_cells = cells_by(
        [r for r in records if r["subset"] in ablation_seeds and r["seed"] in ablation_seeds[r["subset"]]]
    )
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
        'otherwise; "NASA test RMSE" uses the official truncated test units and their RUL file '
        "(the prediction at each unit's last cycle, capped at 125).",
        "",
        "Methods: " + "; ".join(f"`{m}`: {METHODS[m].description}" for m in present) + ".",
        "",
        f"Cells are mean ± sample std (number of seeds) over seeds {seeds}. Methods run on the same "
        "seed share the unit split and the labelled units, so each comparison of two methods pairs "
        "their scores by seed, over the seeds both ran. `>m` marks a mean higher than method `m`'s "
        f"where the two-sided paired t-test has a Holm-adjusted p < {ALPHA}; Holm's correction runs "
        "over every comparison in the same table (every pair of its methods in every row), and the "
        "line under each table gives their number. The pairwise comparisons at the end list every "
        "comparison with its paired t-test p, the Wilcoxon signed-rank p and the Holm-adjusted p. "
        "Wilcoxon's exact test cannot reach p < 0.05 on 5 seeds: its smallest two-sided p is "
        "2/2^5 = 0.0625, so it only shows whether the sign of the difference agrees with the t-test.",
        "",
        "## h-AUROC, 100% labels",
        "",
    ]
    families = []
    table, comparisons = h_auroc_table(cells, subsets, methods, 1.0, with_reference=True, shown=shown)
    lines += table
    families.append(("h-AUROC, 100% labels", comparisons))
    lines += _reference_points(cells, subsets, fractions, methods, shown)
    lines += ["", "## Label efficiency"]
    for subset in subsets:
        # the main methods run on this subset, and any variant also run with fewer labels
        ran = [
            m
            for m in present
            if m not in shown
            and (
                (m not in PAPER_ABLATIONS and any(k[0] == subset and k[2] == m for k in cells))
                or any(k[0] == subset and k[2] == m and k[1] < 1.0 for k in cells)
            )
        ]
        table, comparisons = label_efficiency_table(cells, subset, ran, fractions, shown=shown)
        lines += ["", f"### {subset}", "", *table]
        families.append((f"Label efficiency, {subset}", comparisons))
    if ablation_subsets:
        test_table, test_comparisons = h_auroc_table(ablation_cells, ablation_subsets, ablations, 1.0)
        valid_table, valid_comparisons = h_auroc_table(
            ablation_cells, ablation_subsets, ablations, 1.0, key="valid_h_auroc"
        )
        lines += [
            "",
            "## Ablations, 100% labels",
            "",
            "Each variant changes one thing of `hepa` and keeps the same splits, windows and epochs. "
            f"Both tables use, per subset, the seeds every variant ran ({seeds_text}), `hepa` included. "
            "The first scores the test units; the second the validation units, which is where a "
            "variant may be chosen without looking at the test units.",
            "",
            *test_table,
            "",
            *valid_table,
        ]
        families += [
            ("Ablations, test units", test_comparisons),
            ("Ablations, validation units (validation h-AUROC)", valid_comparisons),
        ]
    tuned = tuned_variants(present)
    default_rows = [
        (subset, fraction, None)
        for subset in subsets
        for fraction in fractions
        if (subset, fraction, "hepa-default") in cells
    ]
    if default_rows:
        lines += [
            "",
            "## The default pipeline against the tuned recipe",
            "",
            "`hepa-default` is `make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150))` with every "
            "other default of release 0.1.0 (RevIN, JEPA pretraining), fitted on the labelled training "
            "windows alone; the defaults of release 0.2.0 are `hepa-default-auto0`, judged in "
            "`benchmarks/decisions/default_selection.md`. Beside it, the pretrained or "
            "untrained HEPA variant with the highest mean test h-AUROC in the same row (2+ seeds): a "
            "reading of the test figures to judge the defaults, not a choice a user could make.",
            "",
            *default_against_tuned(cells, default_rows, variants=tuned),
        ]
    lines += [
        "",
        "## All metrics, 100% labels",
        "",
        'ECE uses 10 equal-width bins over the known cells of the surface; "ECE isotonic" and '
        '"ECE Platt" are after a `SurfaceCalibrator` fit on the validation units. Brier = '
        "reliability − resolution + uncertainty (binned Murphy decomposition). RUL RMSE compares "
        "the expected time to event E[min(T, K)] with the true time, both capped at 125.",
        "",
        *metrics_table(cells, subsets, present),
        "",
        "## Pairwise comparisons",
        "",
        'One table per table above, in the same order; "mean A − B" is the mean over the paired seeds '
        "of A's score minus B's, and the Holm p is adjusted over the comparisons of that table (* where "
        f"it is below {ALPHA}, which is what the marks show). A dash: fewer than two paired seeds.",
    ]
    for title, comparisons in families:
        lines += ["", f"### {title}", "", *comparisons_table(comparisons)]
    lines += [
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
        "The commands that made the records (`hepa benchmark cmapss --subsets` and `hepa benchmark events` are "
        "the harness's earlier command line, `hepa-bench run --datasets` today):",
        "",
        "```bash",
        *commands,
        "hepa-bench report",
        "```",
        "",
    ]
    return "\n".join(lines)
