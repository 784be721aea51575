"""The event-benchmark part of the report: ours beside the paper's Table 1, thresholded metrics, wins, CPU time."""

import statistics
from collections import Counter, defaultdict

import numpy as np

from .methods import METHODS, baselines, headline_variants, references, tuned_variants
from .registry import BENCHMARKS, PAPER_COLUMNS
from .report_validation import agreement_table
from .stats import (
    ALPHA,
    DEFAULT_TOLERANCE,
    ahead_of_every_baseline,
    beaten_by,
    cells_by,
    compare,
    comparisons_table,
    default_against_tuned,
    family_note,
    holm,
    leaders,
    markdown_table,
    marked,
    mean_std,
    paired_by_seed,
    paired_tests,
    scores_of,
    win_tie_loss,
)

__all__ = ["event_records", "event_rows", "excluded_rows", "render_events"]


def _quoted(figures, fraction):
    """A quoted figure of the paper, ``mean ± std`` to its two decimals, or a dash."""
    if not figures or fraction not in figures:
        return "—"
    mean, std = figures[fraction]
    return f"{mean:.2f} ± {std:.2f}"


def _best_baseline(paper, fraction):
    """The paper's best non-HEPA column(s) at ``fraction``: ``"name mean ± std"``, ties joined; or a dash."""
    baselines = {
        column: figures[fraction] for column, figures in paper.items() if column != "hepa" and fraction in figures
    }
    if not baselines:
        return "—"
    best = max(mean for mean, _ in baselines.values())
    return ", ".join(
        f"{PAPER_COLUMNS[column][0]} {_quoted(paper[column], fraction)}"
        for column, (mean, _) in baselines.items()
        if mean == best
    )


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


# the scores that read only where a window sits: the unit's visible age and the window's padding
REFERENCE_POINTS = ("elapsed", "position")


def position_guard(cells, rows, methods):
    """``(markdown lines, rows where position is not ruled out)``: the position-only score against each row's best.

    The best method of a row is the one of ``methods`` with the highest mean
    h-AUROC on 2+ seeds; the stronger of the two position-only scores
    (:data:`REFERENCE_POINTS`, the higher mean in the row) is compared with
    it by the paired t-test over their shared seeds, Holm-adjusted over the
    rows (a family of its own, apart from the table's). A row where that
    score is not significantly below the best method is one where position
    is not ruled out: solved by position where its mean is at least the
    best's, otherwise too close for the seeds to tell. Either way no
    method's win there can be credited to what the windows hold.
    """
    tests = []
    for name, fraction, _ in rows:
        means = {m: _mean(cells, name, fraction, m) for m in methods + list(REFERENCE_POINTS)}
        ran = {m: v for m, v in means.items() if np.isfinite(v)}
        stronger = max((m for m in REFERENCE_POINTS if m in ran), key=ran.get, default=None)
        candidates = {m: v for m, v in ran.items() if m in methods}
        if stronger is None or not candidates:
            continue
        best = max(candidates, key=candidates.get)
        seeds, score_reference, score_best = paired_by_seed(
            cells[(name, fraction, stronger)], cells[(name, fraction, best)]
        )
        t_p, _ = paired_tests(score_reference, score_best)
        gap = float(np.mean(score_reference - score_best)) if seeds else np.nan
        tests.append([name, fraction, stronger, best, len(seeds), gap, t_p])
    if not tests:
        return ["The position-only scores have not run."], set()
    lines, solved = [], set()
    for test, adjusted in zip(tests, holm([t[-1] for t in tests])):
        name, fraction, stronger, best, n_seeds, gap, _ = test
        below = np.isfinite(adjusted) and adjusted < ALPHA and gap < 0
        if not below:
            solved.add((name, fraction))
        verdict = "ruled out" if below else "**solved by position**" if gap >= 0 else "**not ruled out**"
        lines.append(
            [name, f"{fraction * 100:g}%"]
            + [mean_std(scores_of(cells.get((name, fraction, m), []), "h_auroc")) for m in REFERENCE_POINTS]
            + [
                f"{best} ({_mean(cells, name, fraction, best):.3f})",
                str(n_seeds),
                f"{gap:+.3f} ({stronger})",
                f"{adjusted:.3g}",
                verdict,
            ]
        )
    header = ["dataset", "labels", *REFERENCE_POINTS, "best method", "seeds", "position − best", "Holm p", "position"]
    return markdown_table(header, lines), solved


def _reference_section(guard, shown):
    """The reference points' subsection, when any ran."""
    if not shown:
        return []
    return [
        "### Reference points: the unit's age and the window's position",
        "",
        "Two scores that read no sensor value, in the table above without marks: `elapsed`, the event-time "
        "distribution given the unit's visible age (`ElapsedTimeEventPredictor`), and `position`, per bin of "
        "the visible age the training windows' event share per horizon. Each row's stronger of the two is "
        "compared with its best method (highest mean on 2+ seeds) by the paired t-test over shared seeds, "
        f"Holm-adjusted over the rows of this table (a family of its own). Position is ruled out where it is "
        f"significantly below the best (Holm p < {ALPHA}); elsewhere the row is solved by position (its mean "
        "at least the best's: where a window sits gives the answer, not what it holds) or position is not "
        "ruled out (below the best, but not significantly with these seeds), and either way the row counts "
        "for no method in the win counts below.",
        "",
        *guard,
        "",
    ]


def _mean(cells, name, fraction, method):
    """Mean h-AUROC of ``method`` in a row over its finite seeds; NaN with fewer than two."""
    values = scores_of(cells.get((name, fraction, method), []), "h_auroc")
    values = values[np.isfinite(values)]
    return values.mean() if values.size >= 2 else np.nan


SPREAD_FLOOR = 0.005  # the paper prints two decimals: a quoted std of 0.00 is below 0.005


def against_paper(cells, rows):
    """Markdown lines: each of our methods that the paper also ran, beside its quoted figure.

    "Within spread" when our mean lies within two of the paper's standard
    deviations of its mean (a quoted std below 0.005 counts as 0.005, since
    the paper prints two decimals); "above" or "below" otherwise. Only our
    cells with 2+ seeds are judged.
    """
    lines = []
    for subset, fraction, methods in rows:
        paper = BENCHMARKS[subset].paper
        for m in methods:
            values = scores_of(cells.get((subset, fraction, m), []), "h_auroc")
            values = values[np.isfinite(values)]
            if m not in paper or fraction not in paper[m] or values.size == 0:
                continue
            mean, std = paper[m][fraction]
            gap = values.mean() - mean
            verdict = (
                "—"
                if values.size < 2
                else "within spread"
                if abs(gap) <= 2 * max(std, SPREAD_FLOOR)
                else "above"
                if gap > 0
                else "below"
            )
            lines.append(
                [
                    subset,
                    f"{fraction * 100:g}%",
                    m,
                    mean_std(values),
                    _quoted(paper[m], fraction),
                    f"{gap:+.3f}",
                    verdict,
                ]
            )
    return markdown_table(["dataset", "labels", "method", "ours", "paper (quoted)", "ours − paper", "judged"], lines)


def event_cpu_table(records, datasets, methods):
    """Markdown lines: CPU minutes per dataset and method, per seed (median) and summed over the seeds that ran.

    Cells that ran on a GPU (an ``accelerator`` field) are left out: their
    CPU time is not the cost of the work. A seed's cost is its cells' fitting CPU seconds plus, for a method with
    a frozen encoder, the encoder's fitting and embedding once (a method
    sharing an encoder with another is charged the whole encoder, as if it
    ran alone); a supervised encoder is charged once per label fraction.
    """
    per_seed = defaultdict(float)
    charged = set()
    for r in records:
        if r.get("accelerator"):
            continue
        method = METHODS.get(r["method"])
        key = (r["dataset"], r["method"], r["seed"])
        per_seed[key] += r.get("cpu_s") or 0.0
        once = (key, float(r["fraction"])) if method is not None and method.supervised else key
        if once not in charged:
            charged.add(once)
            per_seed[key] += (r.get("pretrain_cpu_s") or 0.0) + (r.get("embed_cpu_s") or 0.0)
    by_method = defaultdict(list)
    for (name, m, _), seconds in per_seed.items():
        by_method[(name, m)].append(seconds)
    rows, total = [], 0.0
    for name in datasets:
        for m in methods:
            values = by_method.get((name, m))
            if values:
                total += sum(values)
                rows.append(
                    [name, m, str(len(values)), f"{statistics.median(values) / 60:.1f}", f"{sum(values) / 60:.1f}"]
                )
    header = ["dataset", "method", "seeds", "CPU min per seed (median)", "CPU min, all seeds"]
    return markdown_table(header, rows) + ["", f"All cells above: {total / 3600:.1f} CPU hours."]


def event_records(records, *, pretrain_epochs=None, finetune_epochs=None, keep_rolling=False):
    """The records the event section reads: a dataset of the registry, run with the given epochs.

    Epochs of None take each dataset's own (the full protocol). Records of
    the rolling origin's later seeds (``"split": "rolling"``) are left out
    unless ``keep_rolling`` (:mod:`hepa_bench.report_rolling` tables them).
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


def excluded_rows(cells, rows, methods):
    """``(guard lines, rows that count for no method, {retired dataset: reason})``.

    A row counts for no method where the leakage guard does not rule out
    position (:func:`position_guard`) or its dataset is retired.
    """
    guard, solved = position_guard(cells, rows, methods)
    retired = {name: BENCHMARKS[name].retired for name, _, _ in rows if BENCHMARKS[name].retired}
    return guard, solved | {(name, fraction) for name, fraction, _ in rows if name in retired}, retired


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
        row += [_quoted(paper.get("hepa"), fraction), _best_baseline(paper, fraction)]
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
        *_reference_section(guard, shown_references),
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
        "defaults of release 0.2.0 are `hepa-default-auto0`, judged in `benchmarks/default_selection.md`. Beside it, the tuned HEPA variant ("
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
        "a cell with early stopping can stop at another epoch (`benchmarks/cpu_kernel_check.md`).",
        "",
        *accelerator_lines(records),
    ]
    return "\n".join(lines)


def kernel_counts(records):
    """How many records ran on each CPU kernel set, e.g. ``"AVX2 4, not recorded 2"``."""
    counts = Counter(r.get("cpu_capability", "not recorded") for r in records)
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))


def accelerator_lines(records):
    """Markdown lines naming the cells that ran on a GPU, by accelerator, dataset and method; none if all ran on CPU.

    Such cells trained under the estimators' default precision there (bf16
    autocast), so they recompute only on a like GPU, not on a CPU.
    """
    groups = defaultdict(set)
    for r in records:
        if r.get("accelerator"):
            groups[(r["accelerator"], r["dataset"], r["method"])].add((r["seed"], float(r["fraction"])))
    if not groups:
        return []
    parts = [f"{name} {method} ({len(cells)})" for (_, name, method), cells in sorted(groups.items())]
    gpus = sorted({gpu for gpu, _, _ in groups})
    return [
        f"Cells run on a GPU ({', '.join(gpus)}; bf16 autocast, the estimators' default there; they recompute "
        f"on a like GPU, not on a CPU), by dataset and method with their cell counts: {', '.join(parts)}. "
        "Every other cell ran on the CPU above.",
        "",
    ]
