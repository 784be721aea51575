"""Markdown report of C-MAPSS and event benchmark results: mean ± std over seeds, paired tests over seeds with Holm's correction."""

import itertools
import os
import statistics
import warnings
from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .methods import METHODS, PAPER_ABLATIONS
from .registry import BENCHMARKS, PAPER_COLUMNS
from .results import read_results

# h-AUROC of the authors' implementation, 100% labels, 5 seeds (its README)
REFERENCE = {"FD001": (0.918, 0.008), "FD002": (0.661, 0.007), "FD003": (0.960, 0.003), "FD004": (0.627, 0.008)}
# Targets of this project at 100% labels, mean of 5 seeds
TARGET = {"FD001": 0.93, "FD002": 0.70, "FD003": 0.965, "FD004": 0.66}
ALPHA = 0.05  # family-wise error rate of the markers in each table (Holm-adjusted paired t-test)

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


def paired_by_seed(records_a, records_b, key="h_auroc"):
    """Scores of two methods on the seeds both have a finite score for: ``(seeds, a, b)``, sorted by seed.

    Two methods run on the same seed share the unit split and the labelled
    units, so their scores on that seed form a pair; a seed only one of
    them ran (or where one score is missing) is left out.
    """
    a = {r["seed"]: r.get(key) for r in records_a}
    b = {r["seed"]: r.get(key) for r in records_b}
    seeds = sorted(s for s in a.keys() & b.keys()
                   if a[s] is not None and b[s] is not None and np.isfinite(a[s]) and np.isfinite(b[s]))
    return seeds, np.array([a[s] for s in seeds], dtype=float), np.array([b[s] for s in seeds], dtype=float)


def paired_tests(a, b):
    """Two-sided p-values of the paired t-test and the Wilcoxon signed-rank test of ``a - b``.

    NaN for fewer than two pairs. Pairs that all differ by the same amount
    give the t-test no spread to scale by: p is 1 when that amount is 0 and
    0 otherwise (the limit of a vanishing spread), and Wilcoxon's p is 1
    when every difference is 0. Wilcoxon's test is exact here (scipy's
    default below 50 pairs without ties), so with n pairs its p is at
    least ``2 / 2**n``: 0.0625 for 5 seeds.
    """
    if a.size < 2:
        return np.nan, np.nan
    difference = a - b
    if np.ptp(difference) == 0:
        t_p = 1.0 if difference[0] == 0 else 0.0
    else:
        t_p = float(stats.ttest_rel(a, b).pvalue)
    if not difference.any():
        return t_p, 1.0
    with warnings.catch_warnings():  # a zero difference makes scipy fall back from the exact test with a warning
        warnings.simplefilter("ignore", UserWarning)
        w_p = float(stats.wilcoxon(a, b).pvalue)
    return t_p, w_p


def holm(pvalues):
    """Holm's step-down adjusted p-values, in the input order; NaN entries stay NaN and are not counted.

    With the ``m`` finite p-values sorted ascending, ``p_(1) <= ... <= p_(m)``,
    the adjusted ``p_(i)`` is ``max_{j <= i} min(1, (m - j + 1) p_(j))``;
    rejecting where it is below ``alpha`` keeps the family-wise error rate
    at ``alpha`` (Holm, "A simple sequentially rejective multiple test
    procedure", Scand. J. Statist. 6, 1979).
    """
    pvalues = np.asarray(pvalues, dtype=float)
    adjusted = np.full(pvalues.shape, np.nan)
    finite = np.flatnonzero(np.isfinite(pvalues))
    order = finite[np.argsort(pvalues[finite], kind="stable")]
    m = order.size
    scaled = np.minimum(1.0, (m - np.arange(m)) * pvalues[order])
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


@dataclass
class Comparison:
    """Method ``a`` against method ``b`` on one subset and label fraction, paired over seeds."""

    a: str
    b: str
    subset: str
    fraction: float
    n_seeds: int
    mean_difference: float  # mean of a - b over the paired seeds
    t_p: float
    wilcoxon_p: float
    holm_p: float = np.nan  # the paired-t p adjusted over the comparisons of one table


def compare(cells, rows, *, key="h_auroc"):
    """Every pair of methods in each row of a table, Holm-adjusted over all of them.

    ``rows`` lists ``(subset, fraction, methods)``; each unordered pair of
    ``methods`` with results in a row is one comparison, with ``a`` the one
    listed first.
    """
    comparisons = []
    for subset, fraction, methods in rows:
        ran = [m for m in methods if cells.get((subset, fraction, m))]
        for a, b in itertools.combinations(ran, 2):
            seeds, score_a, score_b = paired_by_seed(cells[(subset, fraction, a)], cells[(subset, fraction, b)], key)
            t_p, w_p = paired_tests(score_a, score_b)
            difference = float(np.mean(score_a - score_b)) if seeds else np.nan
            comparisons.append(Comparison(a, b, subset, fraction, len(seeds), difference, t_p, w_p))
    for comparison, adjusted in zip(comparisons, holm([c.t_p for c in comparisons])):
        comparison.holm_p = float(adjusted)
    return comparisons


def beaten_by(comparisons, alpha=ALPHA):
    """``{(subset, fraction, method): [methods it beats]}``: Holm-adjusted p below ``alpha``, higher mean."""
    beaten = defaultdict(list)
    for c in comparisons:
        if c.holm_p < alpha:
            winner, loser = (c.a, c.b) if c.mean_difference > 0 else (c.b, c.a)
            beaten[(c.subset, c.fraction, winner)].append(loser)
    return beaten


def _marked(score_text, losers, methods):
    return score_text + "".join(f" >{o}" for o in methods if o in losers)


def _family_note(comparisons):
    tested = sum(np.isfinite(c.t_p) for c in comparisons)
    return f"Holm's correction over {tested} comparison{'s' if tested != 1 else ''} (paired t-test, p < {ALPHA})."


def _p(value):
    return "—" if not np.isfinite(value) else f"{value:.3g}"


def comparisons_table(comparisons):
    """One row per comparison: the pair, where, the seeds paired, the mean difference and the three p-values."""
    rows = [[f"{c.a} vs {c.b}", c.subset, f"{c.fraction * 100:g}%", str(c.n_seeds),
             "—" if not np.isfinite(c.mean_difference) else f"{c.mean_difference:+.3f}",
             _p(c.t_p), _p(c.wilcoxon_p), _p(c.holm_p) + (" *" if c.holm_p < ALPHA else "")]
            for c in comparisons]
    return _table(["A vs B", "subset", "labels", "seeds", "mean A − B", "paired t p", "Wilcoxon p", "Holm p"],
                  rows)


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
    Returns the table's lines and its comparisons (see :func:`compare`).
    """
    comparisons = compare(cells, [(subset, fraction, methods) for subset in subsets], key=key)
    beaten = beaten_by(comparisons)
    header = ["subset"] + methods + (["authors' implementation", "target"] if with_reference else [])
    rows = []
    for subset in subsets:
        row = [subset]
        for m in methods:
            scores = _values(cells.get((subset, fraction, m), []), key)
            row.append(_marked(mean_std(scores), beaten[(subset, fraction, m)], methods))
        if with_reference:
            mean, std = REFERENCE[subset]
            row += [f"{mean:.3f} ± {std:.3f} (5)", f"≥ {TARGET[subset]}"]
        rows.append(row)
    return _table(header, rows) + ["", _family_note(comparisons)], comparisons


def label_efficiency_table(cells, subset, methods, fractions):
    """One row per label fraction; retention = mean h-AUROC at the fraction / at 100% labels.

    Returns the table's lines and its comparisons (see :func:`compare`).
    """
    comparisons = compare(cells, [(subset, fraction, methods) for fraction in fractions])
    beaten = beaten_by(comparisons)
    header = ["labels", "label units"] + methods + [f"{m} retention" for m in methods]
    rows = []
    full = {m: _values(cells.get((subset, 1.0, m), []), "h_auroc") for m in methods}
    for fraction in fractions:
        records = {m: cells.get((subset, fraction, m), []) for m in methods}
        scores = {m: _values(records[m], "h_auroc") for m in methods}
        units = sorted({r["n_label_units"] for rs in records.values() for r in rs})
        row = [f"{fraction * 100:g}%", "/".join(map(str, units)) or "—"]
        for m in methods:
            row.append(_marked(mean_std(scores[m]), beaten[(subset, fraction, m)], methods))
        for m in methods:
            ok = full[m][np.isfinite(full[m])]
            now = scores[m][np.isfinite(scores[m])]
            row.append(f"{now.mean() / ok.mean():.1%}" if ok.size and now.size else "—")
        rows.append(row)
    return _table(header, rows) + ["", _family_note(comparisons)], comparisons


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
    # the runner names a record's dataset "dataset"; the C-MAPSS tables call it the subset
    records = [r if "subset" in r else {**r, "subset": r["dataset"]} for r in records]
    cells = _cells(records)
    subsets = sorted({r["subset"] for r in records})
    present = [m for m in METHODS if any(r["method"] == m for r in records)]
    methods = [m for m in present if m not in PAPER_ABLATIONS]
    ablations = ["hepa"] + [m for m in present if m in PAPER_ABLATIONS]
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
    table, comparisons = h_auroc_table(cells, subsets, methods, 1.0, with_reference=True)
    lines += table
    families.append(("h-AUROC, 100% labels", comparisons))
    lines += ["", "## Label efficiency"]
    for subset in subsets:
        # the main methods run on this subset, and any variant also run with fewer labels
        shown = [m for m in present if (m not in PAPER_ABLATIONS and any(k[0] == subset and k[2] == m for k in cells))
                 or any(k[0] == subset and k[2] == m and k[1] < 1.0 for k in cells)]
        table, comparisons = label_efficiency_table(cells, subset, shown, fractions)
        lines += ["", f"### {subset}", "", *table]
        families.append((f"Label efficiency, {subset}", comparisons))
    if ablation_subsets:
        test_table, test_comparisons = h_auroc_table(ablation_cells, ablation_subsets, ablations, 1.0)
        valid_table, valid_comparisons = h_auroc_table(ablation_cells, ablation_subsets, ablations, 1.0,
                                                       key="valid_h_auroc")
        lines += ["", "## Ablations, 100% labels", "",
                  "Each variant changes one thing of `hepa` and keeps the same splits, windows and epochs. "
                  f"Both tables use, per subset, the seeds every variant ran ({seeds_text}), `hepa` included. "
                  "The first scores the test units; the second the validation units, which is where a "
                  "variant may be chosen without looking at the test units.", "",
                  *test_table, "", *valid_table]
        families += [("Ablations, test units", test_comparisons),
                     ("Ablations, validation units (validation h-AUROC)", valid_comparisons)]
    tuned = tuned_variants(present)
    default_rows = [(subset, fraction, None) for subset in subsets for fraction in fractions
                    if (subset, fraction, "hepa-default") in cells]
    if default_rows:
        lines += ["", "## The default pipeline against the tuned recipe", "",
                  "`hepa-default` is `make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150))` with every "
                  "other default, fitted on the labelled training windows alone. Beside it, the pretrained or "
                  "untrained HEPA variant with the highest mean test h-AUROC in the same row (2+ seeds): a "
                  "reading of the test figures to judge the defaults, not a choice a user could make.", "",
                  *default_against_tuned(cells, default_rows, variants=tuned)]
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
        "## Pairwise comparisons",
        "",
        "One table per table above, in the same order; \"mean A − B\" is the mean over the paired seeds "
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
        "```bash",
        *commands,
        "hepa report",
        "```",
        "",
    ]
    return "\n".join(lines)


def _quoted(figures, fraction):
    if not figures or fraction not in figures:
        return "—"
    mean, std = figures[fraction]
    return f"{mean:.2f} ± {std:.2f}"


def _best_baseline(paper, fraction):
    """The paper's best non-HEPA column(s) at ``fraction``: ``"name mean ± std"``, ties joined; or a dash."""
    baselines = {column: figures[fraction] for column, figures in paper.items()
                 if column != "hepa" and fraction in figures}
    if not baselines:
        return "—"
    best = max(mean for mean, _ in baselines.values())
    return ", ".join(f"{PAPER_COLUMNS[column][0]} {_quoted(paper[column], fraction)}"
                     for column, (mean, _) in baselines.items() if mean == best)


# columns of the event report that are baselines (the paper's Table 1 and the package's boosting), and HEPA's variants
EVENT_BASELINES = ("mae", "patchtst", "itransformer", "gbm")
HEPA_VARIANTS = ("hepa", "hepa-channel", "hepa-matched", "hepa-default")


def _against_baselines(comparisons, method, baselines):
    """``(comparison, baseline, method ahead)`` for each comparison of ``method`` with a baseline on 2+ shared seeds."""
    for c in comparisons:
        if method in (c.a, c.b) and c.n_seeds >= 2:
            baseline = c.b if c.a == method else c.a
            if baseline in baselines:
                yield c, baseline, (c.mean_difference > 0) == (c.a == method)


def win_tie_loss(comparisons, method, baselines, alpha=ALPHA):
    """``{baseline: (wins, ties, losses)}`` of ``method`` over the table's rows where both ran on 2+ shared seeds.

    A win or a loss needs a Holm-adjusted paired-t p below ``alpha``; every
    other row where both ran is a tie.
    """
    counts = {b: [0, 0, 0] for b in baselines}
    for c, baseline, ahead in _against_baselines(comparisons, method, baselines):
        counts[baseline][1 if c.holm_p >= alpha else 0 if ahead else 2] += 1
    return {b: tuple(v) for b, v in counts.items()}


def ahead_of_every_baseline(comparisons, method, baselines, alpha=ALPHA):
    """``(rows where method beats every baseline that ran, after correction; rows with method and 1+ baseline)``."""
    rows = defaultdict(lambda: [0, 0])  # (subset, fraction) -> [baselines compared, baselines beaten]
    for c, _, ahead in _against_baselines(comparisons, method, baselines):
        row = rows[(c.subset, c.fraction)]
        row[0] += 1
        row[1] += int(c.holm_p < alpha and ahead)
    return sum(beaten == compared for compared, beaten in rows.values()), len(rows)


def win_tie_loss_table(comparisons, methods):
    """Markdown lines: each HEPA variant that ran against each baseline that ran, and rows ahead of all of them."""
    variants = [m for m in HEPA_VARIANTS if m in methods]
    baselines = [b for b in EVENT_BASELINES if b in methods]
    if not variants or not baselines:
        return ["No HEPA variant and baseline ran side by side."]
    rows = []
    for variant in variants:
        counts = win_tie_loss(comparisons, variant, baselines)
        ahead, n_rows = ahead_of_every_baseline(comparisons, variant, baselines)
        rows.append([variant] + ["{}/{}/{}".format(*counts[b]) for b in baselines] + [f"{ahead} of {n_rows}"])
    return _table(["method"] + [f"vs {b}" for b in baselines] + ["ahead of every baseline"], rows)


def leaders(cells, comparisons, rows, alpha=ALPHA):
    """Markdown lines: per dataset and label fraction, the method with the highest mean and those level with it.

    Only methods with 2+ seeds take part. "Level" means no significant
    difference from the leader after Holm's correction (or no shared seeds
    to test).
    """
    by_pair = {(c.subset, c.fraction, frozenset((c.a, c.b))): c for c in comparisons}
    lines = []
    for subset, fraction, methods in rows:
        means = {m: float(np.nanmean(_values(cells[(subset, fraction, m)], "h_auroc")))
                 for m in methods if len(cells.get((subset, fraction, m), [])) >= 2}
        means = {m: v for m, v in means.items() if np.isfinite(v)}
        if not means:
            continue
        top = max(means, key=means.get)
        level = [m for m in sorted(means, key=means.get, reverse=True) if m != top and not (
            (c := by_pair.get((subset, fraction, frozenset((top, m))))) is not None and c.holm_p < alpha)]
        lines.append([subset, f"{fraction * 100:g}%", f"{top} ({means[top]:.3f})",
                      ", ".join(f"{m} ({means[m]:.3f})" for m in level) or "none"])
    return _table(["dataset", "labels", "highest mean", "not significantly below it"], lines)


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
            values = _values(cells.get((subset, fraction, m), []), "h_auroc")
            values = values[np.isfinite(values)]
            if m not in paper or fraction not in paper[m] or values.size == 0:
                continue
            mean, std = paper[m][fraction]
            gap = values.mean() - mean
            verdict = ("—" if values.size < 2 else "within spread" if abs(gap) <= 2 * max(std, SPREAD_FLOOR)
                       else "above" if gap > 0 else "below")
            lines.append([subset, f"{fraction * 100:g}%", m, mean_std(values), _quoted(paper[m], fraction),
                          f"{gap:+.3f}", verdict])
    return _table(["dataset", "labels", "method", "ours", "paper (quoted)", "ours − paper", "judged"], lines)


DEFAULT_TOLERANCE = 0.02


def tuned_variants(methods):
    """The HEPA recipes among ``methods`` a user would tune, against which the plain default pipeline is judged."""
    return [m for m in methods if m in METHODS and METHODS[m].family == "hepa"]


def default_against_tuned(cells, rows, *, variants, tolerance=DEFAULT_TOLERANCE):
    """Markdown lines: the plain default pipeline (``hepa-default``) beside the best tuned HEPA variant of its row.

    The best variant is the one of ``variants`` with the highest
    mean h-AUROC on 2+ seeds in that dataset and label fraction (a reading
    of the test figures to judge the defaults, not a choice a user could
    make); "yes" when the default's mean is at most ``tolerance`` below it.
    Only a default with 2+ seeds is judged.
    """
    lines = []
    for subset, fraction, methods in rows:
        values = _values(cells.get((subset, fraction, "hepa-default"), []), "h_auroc")
        values = values[np.isfinite(values)]
        if values.size == 0:
            continue
        means = {}
        for m in variants:
            tuned = _values(cells.get((subset, fraction, m), []), "h_auroc")
            tuned = tuned[np.isfinite(tuned)]
            if tuned.size >= 2:
                means[m] = tuned.mean()
        if not means:
            lines.append([subset, f"{fraction * 100:g}%", mean_std(values), "—", "—", "—"])
            continue
        best = max(means, key=means.get)
        gap = values.mean() - means[best]
        verdict = "—" if values.size < 2 else "yes" if gap >= -tolerance else "no"
        lines.append([subset, f"{fraction * 100:g}%", mean_std(values), f"{best} ({means[best]:.3f})",
                      f"{gap:+.3f}", verdict])
    if not lines:
        return ["The default pipeline (`hepa-default`) has not run."]
    return _table(["dataset", "labels", "hepa-default", "best tuned variant", "default − best",
                   f"within {tolerance:g}"], lines)


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
                rows.append([name, m, str(len(values)), f"{statistics.median(values) / 60:.1f}",
                             f"{sum(values) / 60:.1f}"])
    return _table(["dataset", "method", "seeds", "CPU min per seed (median)", "CPU min, all seeds"], rows) + [
        "", f"All cells above: {total / 3600:.1f} CPU hours."]


def render_events(records, *, pretrain_epochs=None, finetune_epochs=None):
    """Markdown section of ``hepa benchmark events`` results: ours beside the paper's Table 1.

    One row per dataset and label fraction: our h-AUROC per method (mean ±
    std over seeds, marked ``>m`` where it beats method ``m`` by the paired
    t-test over seeds, Holm-adjusted over every comparison of the table),
    then the paper's HEPA and best baseline, quoted. Epochs of None take
    each dataset's own (the full protocol); records run with other epochs
    are left out.
    """
    def wanted(r):
        entry = BENCHMARKS.get(r["dataset"])
        if entry is None:
            return False
        pre = entry.pretrain_epochs if pretrain_epochs is None else pretrain_epochs
        fine = entry.finetune_epochs if finetune_epochs is None else finetune_epochs
        return r["pretrain_epochs"] == pre and r["finetune_epochs"] == fine

    records = [r for r in records if "dataset" in r and wanted(r)]
    lines = ["## Event benchmarks", ""]
    if not records:
        return "\n".join(lines + ["No event-benchmark results with these epochs.", ""])
    cells = defaultdict(list)
    for r in records:
        cells[(r["dataset"], float(r["fraction"]), r["method"])].append(r)
    datasets = [name for name in BENCHMARKS if any(r["dataset"] == name for r in records)]
    methods = [m for m in METHODS if any(r["method"] == m for r in records)]
    methods += sorted({r["method"] for r in records} - set(methods))
    # a row for each label fraction a dataset ran with (C-MAPSS also runs 5, 2 and 1 %)
    fractions = sorted({float(r["fraction"]) for r in records}, reverse=True)
    ran = {(r["dataset"], float(r["fraction"])) for r in records}
    rows = [(name, fraction, methods) for name in datasets for fraction in fractions if (name, fraction) in ran]
    comparisons = compare(cells, rows)
    beaten = beaten_by(comparisons)
    header = ["dataset", "labels"] + methods + ["paper HEPA (quoted)", "paper best baseline (quoted)"]
    table = []
    for name, fraction, _ in rows:
        paper = BENCHMARKS[name].paper
        row = [name, f"{fraction * 100:g}%"]
        for m in methods:
            row.append(_marked(mean_std(_values(cells.get((name, fraction, m), []), "h_auroc")),
                               beaten[(name, fraction, m)], methods))
        row += [_quoted(paper.get("hepa"), fraction), _best_baseline(paper, fraction)]
        table.append(row)
    metric_rows = []
    for name in datasets:
        for m in methods:
            rs = cells.get((name, 1.0, m), [])
            if rs:
                metric_rows.append([name, m] + [mean_std(_values(rs, key)).rsplit(" (", 1)[0]
                                                for key in ("f1", "pa_f1", "event_recall")])
    lines += [
        "h-AUROC on the test part of each dataset (registry in `hepa_sklearn.benchmarks.registry`; every "
        "choice made on training and validation windows). Ours: mean ± sample std (number of seeds). "
        "`>m` marks a mean higher than method `m`'s where the two-sided paired t-test over the seeds both "
        f"ran has a Holm-adjusted p < {ALPHA}. The paper's figures are quoted from its Table 1 (mean ± std "
        "over 5 seeds, Chronos-2 over 3), not measured here; no test compares them with ours.",
        "",
        *_table(header, table),
        "",
        _family_note(comparisons),
        "",
        "### Thresholded metrics, 100% labels",
        "",
        "F1 and point-adjusted F1 (PA-F1) of p(t, Δt=1) against the condition at the next step, each at "
        "the threshold that maximises it on the validation windows; event recall: share of test events "
        "with an alarm p(t, Δt=K) in the K steps before them, at the threshold that lets at most 5% of "
        "the event-free validation windows raise one. PA-F1 credits a whole segment for one alarm in it "
        "and so overstates detection; read it beside F1. \"—\": not defined, as for the event recall where "
        "no validation window is known to be event-free for K steps (no false-alarm rate can be set).",
        "",
        *_table(["dataset", "method", "F1", "PA-F1", "event recall"], metric_rows),
        "",
        "### Ours beside the paper's figure for the same method",
        "",
        "Each method the paper's Table 1 also reports, our mean beside its quoted mean ± std. \"Within "
        "spread\": our mean lies within two of the paper's standard deviations (a quoted 0.00 counts as "
        "0.005, half its last printed digit); judged only with 2+ of our seeds. A gap names a difference "
        "between the two protocols or implementations, not which is right; the user guide's \"The event "
        "benchmarks\" lists the known differences.",
        "",
        *against_paper(cells, rows),
        "",
        "### Which method, per dataset",
        "",
        "The method with the highest mean h-AUROC in each row above (2+ seeds), and the methods whose "
        f"difference from it is not significant after Holm's correction (p ≥ {ALPHA}, or no shared seeds). "
        "With few seeds a long \"not significantly below\" list means the data cannot yet separate them.",
        "",
        *leaders(cells, comparisons, rows),
        "",
        "### The default pipeline beside the best tuned variant",
        "",
        "`hepa-default` is `make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K))` with every other "
        "default, fitted on the labelled training windows alone. Beside it, the tuned HEPA variant ("
        + ", ".join(f"`{m}`" for m in tuned_variants(methods)) + ") with the highest mean in the same row "
        f"(2+ seeds); \"within {DEFAULT_TOLERANCE:g}\" judges the default only with 2+ seeds of its own.",
        "",
        *default_against_tuned(cells, rows, variants=tuned_variants(methods)),
        "",
        "### HEPA against each baseline",
        "",
        "Wins/ties/losses over the dataset × label rows above where both ran on at least 2 shared seeds: a "
        f"win or a loss is a Holm-adjusted paired-t p < {ALPHA} in the comparisons below, anything else a "
        "tie. \"Ahead of every baseline\": rows where the method beats every baseline that ran in that row.",
        "",
        *win_tie_loss_table(comparisons, methods),
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
        *event_cpu_table(records, datasets, methods),
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
    return [f"Cells run on a GPU ({', '.join(gpus)}; bf16 autocast, the estimators' default there; they recompute "
            f"on a like GPU, not on a CPU), by dataset and method with their cell counts: {', '.join(parts)}. "
            "Every other cell ran on the CPU above.", ""]


def add_arguments(parser):
    parser.add_argument("--results", default="cmapss_results.jsonl")
    parser.add_argument("--output", default="benchmarks.md",
                        help="markdown file to write ('-' for standard output)")
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--events", default=None,
                        help="results of `hepa benchmark events` to add as a section (optional)")
    parser.add_argument("--events-pretrain-epochs", type=int, default=None,
                        help="event records' pretraining epochs (default: each dataset's own)")
    parser.add_argument("--events-finetune-epochs", type=int, default=None,
                        help="event records' finetuning epochs (default: each dataset's own)")
    parser.add_argument("--snapshots", default=None,
                        help="results of `hepa benchmark snapshots` to add as a section (optional)")


def run(args):
    text = render(read_results(args.results), pretrain_epochs=args.pretrain_epochs,
                  finetune_epochs=args.finetune_epochs)
    if args.snapshots:
        from .snapshots import markdown

        text = text.rstrip("\n") + "\n\n" + "\n".join(markdown(read_results(args.snapshots))) + "\n"
    if args.events:
        text = text.rstrip("\n") + "\n\n" + render_events(
            read_results(args.events), pretrain_epochs=args.events_pretrain_epochs,
            finetune_epochs=args.events_finetune_epochs)
    if args.output == "-":
        print(text)
    else:
        with open(args.output, "w") as handle:
            handle.write(text)
        print(f"wrote {args.output}")
