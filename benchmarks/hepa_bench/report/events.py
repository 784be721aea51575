"""The event-benchmark part of the report: ours beside the paper's Table 1, thresholded metrics, wins, CPU time."""

from ..methods.table import METHODS, baselines, headline_variants, references, tuned_variants
from ..registry import BENCHMARKS
from ..stats import (
    ALPHA,
    DEFAULT_TOLERANCE,
    ahead_of_every_baseline,
    beaten_by,
    cells_by,
    compare,
    comparisons_table,
    default_against_tuned,
    family_note,
    leaders,
    markdown_table,
    marked,
    mean_std,
    scores_of,
    win_tie_loss,
)
from .costs import accelerator_lines, event_cpu_table, kernel_counts
from .paper import against_paper, best_baseline, quoted
from .position import REFERENCE_POINTS, excluded_rows, position_guard, reference_section
from .validation import agreement_table

__all__ = [
    "REFERENCE_POINTS",
    "accelerator_lines",
    "against_paper",
    "event_cpu_table",
    "event_records",
    "event_rows",
    "excluded_rows",
    "kernel_counts",
    "position_guard",
    "render_events",
    "win_tie_loss_table",
]


def win_tie_loss_table(comparisons, methods):
    """Markdown lines: each HEPA variant that ran against each baseline that ran, and rows ahead of all of them."""
    variants, columns = headline_variants(methods), baselines(methods)
    if not variants or not columns:
        return ["No HEPA variant and baseline ran side by side."]
    rows = []
    for variant in variants:
        counts = win_tie_loss(comparisons, variant, columns)
        ahead, n_rows = ahead_of_every_baseline(comparisons, variant, columns)
        if not n_rows:  # every row it ran in is left out
            continue
        rows.append([variant] + ["{}/{}/{}".format(*counts[b]) for b in columns] + [f"{ahead} of {n_rows}"])
    return markdown_table(["method"] + [f"vs {b}" for b in columns] + ["ahead of every baseline"], rows)


def event_records(records, *, pretrain_epochs=None, finetune_epochs=None, keep_rolling=False):
    """The records the event section reads: a dataset of the registry, run with the given epochs.

    Epochs of None take each dataset's own (the full protocol). Records of
    the rolling origin's later seeds (``"split": "rolling"``) are left out
    unless ``keep_rolling`` (:mod:`hepa_bench.report.rolling` tables them).
    """

    def wanted(r):
        entry = BENCHMARKS.get(r.get("dataset"))
        if entry is None or (r.get("split", "fixed") != "fixed" and not keep_rolling):
            return False
        pre = entry.pretrain_epochs if pretrain_epochs is None else pretrain_epochs
        fine = entry.finetune_epochs if finetune_epochs is None else finetune_epochs
        return r["pretrain_epochs"] == pre and r["finetune_epochs"] == fine

    return [r for r in records if wanted(r)]


def event_rows(records):
    """``(cells, datasets, methods, references, rows)`` of the event records: the section's table layout.

    ``methods`` are those that ran, in the method table's order, without the
    reference points (``references``); ``rows`` are ``(dataset, fraction,
    methods)`` for each label fraction a dataset ran with (C-MAPSS also runs
    5, 2 and 1 %).
    """
    cells = cells_by(records, "dataset")
    datasets = [name for name in BENCHMARKS if any(r["dataset"] == name for r in records)]
    methods = [m for m in METHODS if any(r["method"] == m for r in records)]
    methods += sorted({r["method"] for r in records} - set(methods))
    shown = references(methods)
    methods = [m for m in methods if m not in shown]
    fractions = sorted({float(r["fraction"]) for r in records}, reverse=True)
    ran = {(r["dataset"], float(r["fraction"])) for r in records}
    rows = [(name, fraction, methods) for name in datasets for fraction in fractions if (name, fraction) in ran]
    return cells, datasets, methods, shown, rows


def render_events(records, *, pretrain_epochs=None, finetune_epochs=None):
    """Markdown section of ``hepa-bench run`` results on the event benchmarks: ours beside the paper's Table 1.

    One row per dataset and label fraction: our h-AUROC per method (mean ±
    std over seeds, marked ``>m`` where it beats method ``m`` by the paired
    t-test over seeds, Holm-adjusted over every comparison of the table),
    then the paper's HEPA and best baseline, quoted. Epochs of None take
    each dataset's own (the full protocol); records run with other epochs
    are left out.
    """
    records = event_records(records, pretrain_epochs=pretrain_epochs, finetune_epochs=finetune_epochs)
    lines = ["## Event benchmarks", ""]
    if not records:
        return "\n".join(lines + ["No event-benchmark results with these epochs.", ""])
    cells, datasets, methods, shown_references, rows = event_rows(records)
    comparisons = compare(cells, rows)
    beaten = beaten_by(comparisons)
    header = (
        ["dataset", "labels"] + methods + shown_references + ["paper HEPA (quoted)", "paper best baseline (quoted)"]
    )
    table = []
    for name, fraction, _ in rows:
        paper = BENCHMARKS[name].paper
        row = [name, f"{fraction * 100:g}%"]
        for m in methods:
            row.append(
                marked(
                    mean_std(scores_of(cells.get((name, fraction, m), []), "h_auroc")),
                    beaten[(name, fraction, m)],
                    methods,
                )
            )
        row += [mean_std(scores_of(cells.get((name, fraction, m), []), "h_auroc")) for m in shown_references]
        row += [quoted(paper.get("hepa"), fraction), best_baseline(paper, fraction)]
        table.append(row)
    guard, solved, retired = excluded_rows(cells, rows, methods)
    metric_rows = []
    for name in datasets:
        for m in methods + shown_references:
            rs = cells.get((name, 1.0, m), [])
            if rs:
                metric_rows.append(
                    [name, m]
                    + [mean_std(scores_of(rs, key)).rsplit(" (", 1)[0] for key in ("f1", "pa_f1", "event_recall")]
                )
    lines += [
        "h-AUROC on the test part of each dataset (registry in `hepa_bench.registry`; every "
        "choice made on training and validation windows). Ours: mean ± sample std (number of seeds). "
        "`>m` marks a mean higher than method `m`'s where the two-sided paired t-test over the seeds both "
        f"ran has a Holm-adjusted p < {ALPHA}. The paper's figures are quoted from its Table 1 (mean ± std "
        "over 5 seeds, Chronos-2 over 3), not measured here; no test compares them with ours.",
        "",
        *markdown_table(header, table),
        "",
        family_note(comparisons),
        "",
        *reference_section(guard, shown_references),
        *[
            f"**{name} is retired**: {reason}. Its rows stay above as records and count for no method."
            for name, reason in retired.items()
        ],
        *([""] if retired else []),
        "### Thresholded metrics, 100% labels",
        "",
        "F1 and point-adjusted F1 (PA-F1) of p(t, Δt=1) against the condition at the next step, each at "
        "the threshold that maximises it on the validation windows; event recall: share of test events "
        "with an alarm p(t, Δt=K) in the K steps before them, at the threshold that lets at most 5% of "
        "the event-free validation windows raise one. PA-F1 credits a whole segment for one alarm in it "
        'and so overstates detection; read it beside F1. "—": not defined, as for the event recall where '
        "no validation window is known to be event-free for K steps (no false-alarm rate can be set).",
        "",
        *markdown_table(["dataset", "method", "F1", "PA-F1", "event recall"], metric_rows),
        "",
        "### Ours beside the paper's figure for the same method",
        "",
        "Each method the paper's Table 1 also reports, our mean beside its quoted mean ± std. \"Within "
        "spread\": our mean lies within two of the paper's standard deviations (a quoted 0.00 counts as "
        "0.005, half its last printed digit); judged only with 2+ of our seeds. A gap names a difference "
        "between the two protocols or implementations, not which is right; the user guide's \"The event "
        'benchmarks" lists the known differences.',
        "",
        *against_paper(cells, rows),
        "",
        "### Which method, per dataset",
        "",
        "The method with the highest mean h-AUROC in each row above (2+ seeds), and the methods whose "
        f"difference from it is not significant after Holm's correction (p ≥ {ALPHA}, or no shared seeds). "
        'With few seeds a long "not significantly below" list means the data cannot yet separate them.',
        "",
        *leaders(cells, comparisons, rows),
        "",
        "### Does validation rank the methods as test does?",
        "",
        "Every choice here is made on validation units, which helps only where they rank the methods as "
        "the test units do. Per row, Spearman's ρ between the methods' mean validation and mean test "
        "h-AUROC (methods with 2+ seeds of both; rows with 4+ such methods; descriptive, no correction), "
        "and the method a choice on validation would take, against the best test mean.",
        "",
        *agreement_table(cells, rows, methods),
        "",
        "### The default pipeline beside the best tuned variant",
        "",
        "`hepa-default` is `make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K))` with every other "
        "default of release 0.1.0 (RevIN, JEPA pretraining), fitted on the labelled training windows alone; the "
        "defaults of release 0.2.0 are `hepa-default-auto0`, judged in "
        "`benchmarks/decisions/default_selection.md`. "
        "Beside it, the tuned HEPA variant ("
        + ", ".join(f"`{m}`" for m in tuned_variants(methods))
        + ") with the highest mean in the same row "
        f'(2+ seeds); "within {DEFAULT_TOLERANCE:g}" judges the default only with 2+ seeds of its own.',
        "",
        *default_against_tuned(cells, rows, variants=tuned_variants(methods)),
        "",
        "### HEPA against each baseline",
        "",
        "Wins/ties/losses over the dataset × label rows above where both ran on at least 2 shared seeds: a "
        f"win or a loss is a Holm-adjusted paired-t p < {ALPHA} in the comparisons below, anything else a "
        'tie. "Ahead of every baseline": rows where the method beats every baseline that ran in that row.'
        + (
            " Rows where position is not ruled out ("
            + ", ".join(f"{n} {f * 100:g}%" for n, f in sorted(solved))
            + ") count for nobody."
            if solved
            else ""
        ),
        "",
        *win_tie_loss_table([c for c in comparisons if (c.subset, c.fraction) not in solved], methods),
        "",
        "### Pairwise comparisons",
        "",
        *comparisons_table(comparisons),
        "",
        "### CPU time",
        "",
        "Process CPU time recorded by each cell (the runner's `torch_threads` field says how many threads). "
        "Cells run with each label fraction, both fractions of a seed summed; cells run on a GPU are "
        "left out.",
        "",
        *event_cpu_table(records, datasets, methods + shown_references),
        "",
        f"CPU kernels of the cells (torch's `cpu_capability`): {kernel_counts(records)}. Under other kernels "
        "a cell with early stopping can stop at another epoch (`benchmarks/decisions/cpu_kernel_check.md`).",
        "",
        *accelerator_lines(records),
    ]
    return "\n".join(lines)
