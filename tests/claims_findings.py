"""docs/findings.md: where each of its figures comes from (see ``claims_check`` for the rules).

Most figures are read from the generated report ``docs/benchmarks.md`` (``Cell``), which a test
of the harness regenerates byte for byte from the result records; the rest from the records
themselves, the committed outputs of ``benchmarks/experiments`` and of the scripts retired from it
(``benchmarks/retired``), the speed measurements, or the protocol's own constants and models
(``hepa_sklearn.cmapss_protocol``). Counts and ranges ("18 of the 20", "from +0.13 to +1.00") are
computed over the report's cells by the functions below.
Cells of boosting (``gbm``, ``gbm-regime``, ``gbm-last30``, ``gbm-regime-last30``, ``gbm-select``)
are read from the report as committed, not from the records, whose boosting records are being
rerun; when the report is regenerated those bindings report every figure that changed. The
event table has no ``gbm-last30`` cells on the C-MAPSS rows; the findings take them from the
C-MAPSS tables (the same seeds and labelled engines).

Every number of the document is bound or listed as not a measurement;
``claims_findings_pending.NOT_YET_BOUND`` is empty."""

import math
import re
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # imported by the suite's doctest collection too

from claims_check import Bind, Cell, Computed, Json, Line, Not, Records, Source, read, report_tables  # noqa: E402

DOCUMENT = "docs/findings.md"

DEFAULT_NORMALISATION = "benchmarks/retired/default_normalisation.txt"
CMAPSS_RECORDS = "benchmarks/cmapss_results.jsonl"
NORMALISATION_RECORDS = "benchmarks/normalisation_results.jsonl"
ALL_SEEDS, FIRST_TWO = (0, 1, 2, 3, 4), (0, 1)


def fd002_arm(arm, fraction=1.0, seeds=ALL_SEEDS):
    """An arm of the retired ``default_normalisation.py`` on FD002 (now the ``hepa-norm-*`` entries), test h-AUROC per
    seed."""
    return Records(DEFAULT_NORMALISATION, dict(subset="FD002", arm=arm, fraction=fraction), "h_auroc", seeds=seeds)


def fd002_entry(method, seeds=ALL_SEEDS, fraction=1.0, how="mean"):
    """An entry of the family ``hepa-norm-*`` on FD002 (its records): test h-AUROC per seed, or ``how``."""
    where = dict(dataset="FD002", method=method, fraction=fraction)
    return Records(NORMALISATION_RECORDS, where, "h_auroc", how=how, seeds=seeds)


NORM_FAMILY = "The 0.1.0 default pipeline taken apart on FD002 (`hepa-norm-*`, test units)"


def norm_family_test(method, column, labels="100%"):
    """The report's family ``hepa-norm-*``: a cell of its table of paired tests against ``hepa-default``."""
    return Cell(NORM_FAMILY, [(f"`{method}`", "FD002", labels)], column, "first", n=1)


def norm_family_count():
    """How many comparisons the family's Holm correction is over, as the report says above its tests."""
    pattern = r"Against `hepa-default`, paired by seed: Holm's correction over the (\d+) tested comparisons"
    return Line("docs/benchmarks.md", pattern)


def fd002_cell(method, fraction=1.0):
    """A C-MAPSS benchmark cell on FD002 (test h-AUROC per seed)."""
    return Records(CMAPSS_RECORDS, dict(subset="FD002", method=method, fraction=fraction), "h_auroc", seeds=ALL_SEEDS)


# --- tables of the report (docs/benchmarks.md)


def label_eff(subset, method, labels="100%", part="mean"):
    """C-MAPSS under the reference protocol: table "Label efficiency", subset ``subset``."""
    return Cell(f"Label efficiency / {subset}", labels, method, part)


def ablation(subset, method, part="mean", valid=False):
    """C-MAPSS, table "Ablations, 100% labels": the test units' table, or the validation units' one."""
    return Cell("C-MAPSS benchmark / Ablations, 100% labels", subset, method, part, n=1 if valid else 0)


def event(dataset, method, labels="100%", part="mean"):
    """The event runner's table "Event benchmarks" (C-MAPSS subsets included)."""
    return Cell("C-MAPSS benchmark / Event benchmarks", (dataset, labels), method, part)


def paper(dataset, method=None, labels="100%"):
    """A figure of the paper as the report quotes it: table "Event benchmarks", column "paper HEPA
    (quoted)", or, with ``method``, table "Ours beside the paper's figure for the same method"."""
    if method is None:
        return Cell("C-MAPSS benchmark / Event benchmarks", (dataset, labels), "paper HEPA (quoted)", "first")
    return Cell(
        "Ours beside the paper's figure for the same method", (dataset, labels, method), "paper (quoted)", "first"
    )


def below_paper(dataset, method="hepa", labels="100%"):
    """How far ours is below the paper's figure: minus column "ours − paper" of that table."""
    return Computed(
        negated,
        Cell("Ours beside the paper's figure for the same method", (dataset, labels, method), "ours − paper", "first"),
    )


def negated(value):
    return -float(value)


def cmapss_pair(table, a, b, subset, labels="100%", column="Holm p"):
    """A row of the C-MAPSS report's pairwise comparisons, table ``table`` (for a p-value the
    row of ``a vs b`` or of ``b vs a``; for "mean A − B" the row of ``a vs b``)."""
    rows = [(f"{a} vs {b}", subset, labels)]
    if column != "mean A − B":
        rows.append((f"{b} vs {a}", subset, labels))
    return Cell(f"Pairwise comparisons / {table}", rows, column, "first")


def event_pair(a, b, dataset, labels="100%", column="Holm p"):
    """A row of the event report's pairwise comparisons (as ``cmapss_pair``)."""
    rows = [(f"{a} vs {b}", dataset, labels)]
    if column != "mean A − B":
        rows.append((f"{b} vs {a}", dataset, labels))
    return Cell("Event benchmarks / Pairwise comparisons", rows, column, "first")


REFERENCE_PRETRAINING = "benchmarks/experiments/reference_pretraining.txt"
PREDICTOR_INIT = "benchmarks/retired/predictor_init.txt"


def reference_run(seed, column):
    """The table of ``reference_pretraining.py --summarize``: the authors' code on FD001."""
    column = {
        "untrained": "untrained (--pre-epochs 0)",
        "pretrained": "pretrained (--pre-epochs 50)",
        "difference": "pretrained - untrained",
    }[column]
    return Cell("", seed, column, "first", report=REFERENCE_PRETRAINING)


def predictor_init(seed, column):
    """The table of the retired ``predictor_init.py``: FD001, the event head started at random or from the JEPA
    predictor."""
    column = {
        "random": "random start (`hepa`)",
        "pretrained": "pretrained start (`hepa-init`)",
        "difference": "pretrained - random",
    }[column]
    return Cell("", seed, column, "first", report=PREDICTOR_INIT)


MULTI_HORIZON_PROBE = "benchmarks/retired/multi_horizon_probe.txt"


def probe_summary(pattern):
    """The summary line that the retired ``multi_horizon_probe.py`` printed under its table."""
    return Line(MULTI_HORIZON_PROBE, r"^\d+ seeds, FD001, all labels, test h-AUROC" + pattern)


SNAPSHOTS = "Snapshot study: held-out pretraining loss against h-AUROC / Across datasets"

FRACTIONS = ("100%", "10%", "5%", "2%", "1%")
EVENT_DATASETS = ("MBA", "BATADAL", "TEP", "ETTm1", "Weather", "Beijing", "VIX")
# C-MAPSS under the reference protocol: each subset's pretrained recipe and its untrained-encoder control
CONTROLS = {
    "FD001": ("hepa", "hepa-random"),
    "FD002": ("hepa-regime", "hepa-random-regime"),
    "FD003": ("hepa", "hepa-random"),
    "FD004": ("hepa-regime", "hepa-random-regime"),
}
EVENT_PAIRS = "Event benchmarks / Pairwise comparisons"


def cmapss_pairs(subset):
    """The report's pairwise comparisons of table "Label efficiency, ``subset``"."""
    return f"Pairwise comparisons / Label efficiency, {subset}"


class PairDifference(Source):
    """Column "mean A − B" (the mean over the paired seeds) of a table of pairwise comparisons,
    as ``a`` − ``b``: the row "a vs b", or the row "b vs a" negated. A printed decimal string."""

    def __init__(self, table, a, b, dataset, labels="100%"):
        self.table, self.a, self.b, self.dataset, self.labels = table, a, b, dataset, labels

    def __repr__(self):
        return f"mean {self.a} − {self.b}, {self.dataset} {self.labels}, table {self.table!r}"

    def value(self):
        rows = [
            (f"{self.a} vs {self.b}", self.dataset, self.labels),
            (f"{self.b} vs {self.a}", self.dataset, self.labels),
        ]
        name = Cell(self.table, rows, "A vs B", "text").value()
        printed = Cell(self.table, rows, "mean A − B", "first").value()
        if name == f"{self.a} vs {self.b}":
            return printed
        return format(-Decimal(printed.replace("−", "-")), "+f")


def control_leads(fractions=FRACTIONS):
    """Untrained-encoder control minus pretrained recipe on each C-MAPSS subset and label fraction
    (paired over seeds, the report's tables "Label efficiency, FD00x")."""
    return [
        PairDifference(cmapss_pairs(subset), control, pretrained, subset, labels)
        for subset, (pretrained, control) in CONTROLS.items()
        for labels in fractions
    ]


def control_means(fractions=FRACTIONS):
    """The means of each pretrained recipe and its control, pair after pair (tables "Label efficiency")."""
    return [
        label_eff(subset, method, labels)
        for subset, pair in CONTROLS.items()
        for labels in fractions
        for method in pair
    ]


def event_control_means(pretrained="hepa", control="hepa-random", fractions=("100%", "10%")):
    """The means of ``pretrained`` and ``control`` on each event dataset, pair after pair (table "Event benchmarks")."""
    return [event(d, m, labels) for d in EVENT_DATASETS for labels in fractions for m in (pretrained, control)]


def pairs_of(values):
    return list(zip(values[::2], values[1::2], strict=True))


def second_not_below(*values):
    """How many pairs (first, second) of ``values`` have the second at least as high as the first."""
    return sum(Decimal(second) >= Decimal(first) for first, second in pairs_of(values))


def second_above(*values):
    """How many pairs (first, second) of ``values`` have the second higher than the first."""
    return sum(Decimal(second) > Decimal(first) for first, second in pairs_of(values))


def pair_count(*values):
    return len(pairs_of(values))


def how_many(*values):
    return len(values)


def rows_in(*lists):
    """How many items the lists hold together."""
    return sum(len(v) for v in lists)


LEAD = Decimal("0.03")  # a lead of the control counted as "higher by 0.03 or more"


def leads_of_at_least(*differences):
    return [d for d in differences if Decimal(d) >= LEAD]


def count_leads(*differences):
    return len(leads_of_at_least(*differences))


def smallest_lead(*differences):
    return min(leads_of_at_least(*differences), key=Decimal)


def largest_lead(*differences):
    return max(leads_of_at_least(*differences), key=Decimal)


def largest_size(*differences):
    """The largest absolute value among printed differences, as printed."""
    return max((d.lstrip("+-−") for d in differences), key=Decimal)


def smallest(*printed):
    return min(printed, key=lambda p: Decimal(p.replace("−", "-")))


EPSILON = "benchmarks/retired/epsilon_correlation.txt"
EPSILON_RECORDS = "benchmarks/retired/epsilon_records.jsonl"
EVENT_RECORDS = "benchmarks/event_results.jsonl"
EMBEDDING_PCA = "benchmarks/retired/embedding_pca.txt"
PREDICTOR_OUTPUTS = "benchmarks/retired/predictor_outputs.txt"


class Seeds(Source):
    """The seeds of the JSON records of ``file`` whose fields equal ``where``, sorted."""

    def __init__(self, file, where):
        self.file, self.where = file, where

    def __repr__(self):
        return f"seeds of {self.file} where {self.where}"

    def value(self):
        return sorted(Records(self.file, self.where, "seed").by_seed())


def same_seeds(*seed_lists):
    """The one list of seeds that every list of ``seed_lists`` is."""
    assert all(s == seed_lists[0] for s in seed_lists), seed_lists
    return seed_lists[0]


def first_seed(*seed_lists):
    return same_seeds(*seed_lists)[0]


def last_seed(*seed_lists):
    return same_seeds(*seed_lists)[-1]


def only_seed(*seed_lists):
    (seed,) = same_seeds(*seed_lists)
    return seed


def epsilon_rerun_seeds(datasets, split=None):
    """The seeds of the cells rerun for ε (``epsilon_records.jsonl``) on each of ``datasets``."""
    return [Seeds(EPSILON_RECORDS, dict(dataset=d, split=split)) for d in datasets]


def epsilon_row(dataset, column):
    """The table of the retired ``epsilon_correlation.py``: one row per dataset."""
    return Cell("", dataset, column, "first", report=EPSILON)


def epsilon_summary(pattern):
    """The summary line that the retired ``epsilon_correlation.py`` printed under its table."""
    return Line(EPSILON, r"^Across \d+ datasets: " + pattern)


def embedding(dataset, encoder, field, per_engine=False):
    """A record of the retired ``embedding_pca.py`` (seed 0): the first run's, or the FD001 rerun's that adds the
    median ρ within each test engine (``per_engine``)."""
    where = dict(dataset=dataset, encoder=encoder, n_units=30 if per_engine else None)
    return Records(EMBEDDING_PCA, where, field, how="one")


def predictor_outputs(dataset, field):
    """A record of the retired ``predictor_outputs.py`` (seed 0, test windows)."""
    return Records(PREDICTOR_OUTPUTS, dict(dataset=dataset), field, how="one")


def as_printed(value):
    """A number of a JSON record as the record prints it (so that fewer decimals round half up)."""
    return repr(value)


def predictor_output(dataset, field):
    """One printed number of a record of the retired ``predictor_outputs.py``."""
    return Computed(as_printed, predictor_outputs(dataset, field))


def growth(values):
    """How much the last of ``values`` is above the first, as a share of the first."""
    return values[-1] / values[0] - 1


def smallest_value(*values):
    return min(values, key=Decimal)


def largest_value(*values):
    return max(values, key=Decimal)


DEFAULT_SCREEN = "benchmarks/retired/default_screen.txt"
LEVEL_VARIANTS = "benchmarks/retired/level_variants.txt"
DEFAULT_JUDGEMENT = "benchmarks/retired/default_judgement.txt"
DEFAULT_ROUND2 = "benchmarks/retired/default_round2.txt"
SCREEN_RECORDS = "benchmarks/screen_results.jsonl"
MORE_UNLABELLED = "benchmarks/retired/more_unlabelled.txt"
FIRST_FIT = "benchmarks/experiments/first_fit.txt"


def screen(row, column):
    """The last table of the retired ``default_screen.py`` (seeds 0 and 1, validation units, all labels)."""
    return Cell("", row, column, "first", n=2, report=DEFAULT_SCREEN)


def screen_summary(method, what):
    """A candidate's largest shortfall against ``hepa-default`` or mean rank, as the last screen prints it."""
    pattern = {"shortfall": r"largest shortfall against hepa-default \+(\d\.\d+)", "rank": r"mean rank (\d\.\d+)"}[what]
    return Line(DEFAULT_SCREEN, rf"^{method}: .*{pattern}", n=-1)


def level_variant(dataset, arm):
    """A mean over seeds 0 and 1 that the retired ``level_variants.py``'s summary prints (``hepa-default``: the
    defaults' figure it prints beside)."""
    if arm == "hepa-default":
        return Line(LEVEL_VARIANTS, rf"^Means of seeds 0 and 1 .*{dataset} (\d\.\d+)")
    return Line(LEVEL_VARIANTS, rf"^{dataset}\s.*\b{arm} (\d\.\d+)")


def judgement(row, labels, column, part="first"):
    """The table of the retired ``default_judgement.py``: the 0.2.0 defaults judged on test units."""
    return Cell("", (row, labels), column, part, report=DEFAULT_JUDGEMENT)


JUDGEMENT_ROWS = [
    (row, labels)
    for row in ("FD001", "FD002", "FD003", "FD004", *EVENT_DATASETS)
    if row != "TEP"
    for labels in ("100%", "10%")
]
CONDITIONS = (">= corrected boosting - 0.02", ">= elapsed", ">= best variant - 0.02", "not significantly below 0.1.0")


def judgement_conditions():
    """Every row's four conditions of the defaults' acceptance, row after row (``yes`` or ``**no**``)."""
    return [judgement(row, labels, column, "text") for row, labels in JUDGEMENT_ROWS for column in CONDITIONS]


def rows_meeting_all(*verdicts):
    """How many rows meet all four conditions, ``verdicts`` being four per row."""
    rows = [verdicts[i : i + len(CONDITIONS)] for i in range(0, len(verdicts), len(CONDITIONS))]
    return sum(all(v == "yes" for v in row) for row in rows)


def rows_judged(*verdicts):
    return len(verdicts) // len(CONDITIONS)


def round2(row, labels, column):
    """The table of the retired ``default_round2.py`` (seeds 0 and 1, validation units)."""
    return Cell("", (row, labels), column, "first", report=DEFAULT_ROUND2)


def round2_pairs():
    """Each row's 0.2.0 defaults and the candidate, row after row."""
    return [
        round2(row, labels, column)
        for row, labels in JUDGEMENT_ROWS
        for column in ("`hepa-default-auto0`", "`hepa-default-trend0`")
    ]


def screened(method, dataset, labels="10%"):
    """Mean validation h-AUROC over seeds 0 and 1 of a screened design (``screen_results.jsonl``)."""
    fraction = {"100%": 1.0, "10%": 0.1}[labels]
    where = dict(method=method, dataset=dataset, fraction=fraction)
    return Records(SCREEN_RECORDS, where, "valid_h_auroc", seeds=FIRST_TWO)


HAUROC_100 = "C-MAPSS benchmark / h-AUROC, 100% labels"


class Item(Source):
    """The ``i``-th item of the list another source gives."""

    def __init__(self, source, i):
        self.source, self.i = source, i

    def __repr__(self):
        return f"item {self.i} of ({self.source!r})"

    def value(self):
        return self.source.value()[self.i]


class SignificantFractions(Source):
    """The label fractions (as numbers: 100, 10, ...) at which ``a`` and ``b`` differ significantly
    after Holm's correction in the report's tables "Label efficiency, ``subset``"."""

    def __init__(self, a, b, subset, fractions=FRACTIONS):
        self.a, self.b, self.subset, self.fractions = a, b, subset, fractions

    def __repr__(self):
        return f"fractions where {self.a} and {self.b} differ significantly, {self.subset}"

    def value(self):
        table = f"Label efficiency, {self.subset}"
        return [
            int(labels.rstrip("%"))
            for labels in self.fractions
            if Cell(
                f"Pairwise comparisons / {table}",
                [(f"{self.a} vs {self.b}", self.subset, labels), (f"{self.b} vs {self.a}", self.subset, labels)],
                "Holm p",
                "text",
            )
            .value()
            .endswith("*")
        ]


class RecordList(Source):
    """The JSON records of ``file`` whose fields equal ``where``."""

    def __init__(self, file, where):
        self.file, self.where = file, where

    def __repr__(self):
        return f"records of {self.file} where {self.where}"

    def value(self):
        return Records(self.file, self.where, None).records()


def constant_cells(records):
    """The records whose h-AUROC is exactly 0.5 (a constant prediction)."""
    return [r for r in records if r["h_auroc"] == 0.5]


def constant_cell(field):
    """A field of the one record of ``gbm-last30``'s C-MAPSS cells that scores exactly 0.5."""

    def one(records):
        (record,) = constant_cells(records)
        return record[field]

    one.__name__ = f"{field} of the one constant cell"
    return Computed(one, RecordList(CMAPSS_RECORDS, dict(method="gbm-last30")))


def control_vs_boosting():
    """Boosting's mean and the control's, pair after pair, on each C-MAPSS subset with 10 % of the
    labels or fewer (with ``RegimeNormalizer`` on FD002 and FD004 on both sides)."""
    return [
        PairDifference(cmapss_pairs(subset), control, boosting, subset, labels)
        for subset, (_, control) in CONTROLS.items()
        for boosting in [BOOSTING[subset]]
        for labels in FRACTIONS[1:]
    ]


BOOSTING = {"FD001": "gbm-last30", "FD002": "gbm-regime-last30", "FD003": "gbm-last30", "FD004": "gbm-regime-last30"}


def boosting_vs_hepa():
    return [
        PairDifference(cmapss_pairs(subset), BOOSTING[subset], pretrained, subset, labels)
        for subset, (pretrained, _) in CONTROLS.items()
        for labels in FRACTIONS[1:]
    ]


def sum_of(*values):
    return sum(values)


def percent_of(fraction):
    """A label fraction as the percentage the text writes."""
    return round(fraction * 100)


def positive(*differences):
    return sum(Decimal(d) > 0 for d in differences)


def largest_gap(*pairs):
    """The largest of (best − default) over pairs (best, default)."""
    return max(float(best) - float(default) for best, default in pairs_of(pairs))


def best_variant(subset):
    """The best HEPA variant's mean in the report's summary table."""
    return Cell("C-MAPSS benchmark / Summary", subset, "best HEPA variant", "first")


EVENT_TABLE = "C-MAPSS benchmark / Event benchmarks"
EVENT_REFERENCE = "Event benchmarks / Reference points: the unit's age and the window's position"
VALIDATION = "Event benchmarks / Does validation rank the methods as test does?"
DEFAULT_BESIDE = "Event benchmarks / The default pipeline beside the best tuned variant"
WIN_COUNTS = "HEPA against each baseline"
HAUROC_PAIRS = "Pairwise comparisons / h-AUROC, 100% labels"
ALPHA = Decimal("0.05")  # the significance level of the report


def paper_best(dataset, labels="100%"):
    """The paper's best listed baseline as the report quotes it (its first figure)."""
    return Cell(EVENT_TABLE, (dataset, labels), "paper best baseline (quoted)", "first")


class ReportRows(Source):
    """The rows of a table of the generated report (lists of cells), ``table`` as ``Cell`` names it."""

    def __init__(self, table, report="docs/benchmarks.md"):
        self.table, self.report = table, report

    def __repr__(self):
        return f"{self.report}: rows of table {self.table!r}"

    def value(self):
        wanted = tuple(self.table.split(" / "))
        (table,) = [t for t in report_tables(self.report) if t[0][-len(wanted) :] == wanted]
        header, rows = table[1], table[2]
        return [dict(zip(header, row, strict=True)) for row in rows]


class LineAfter(Source):
    """What ``pattern``'s first group captures on the first line after the heading ``heading`` that it matches."""

    def __init__(self, file, heading, pattern):
        self.file, self.heading, self.pattern = file, heading, pattern

    def __repr__(self):
        return f"{self.file}: first line matching {self.pattern!r} after {self.heading!r}"

    def value(self):
        lines = read(self.file).splitlines()
        start = lines.index(self.heading)
        return next(m[1] for m in (re.search(self.pattern, line) for line in lines[start:]) if m)


def event_rows_of(rows):
    """How many rows of a table are event datasets' (not C-MAPSS subsets')."""
    return sum(row["dataset"] in EVENT_DATASETS for row in rows)


class PositionRows(Source):
    """The label fractions (as numbers) of ``dataset``'s rows that the report's event "Reference points"
    table does not rule out as solved by position."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __repr__(self):
        return f"rows of {self.dataset} not ruled out as solved by position ({EVENT_REFERENCE!r})"

    def value(self):
        rows = ReportRows(EVENT_REFERENCE).value()
        return [
            int(r["labels"].rstrip("%")) for r in rows if r["dataset"] == self.dataset and r["position"] != "ruled out"
        ]


def position_rows(dataset):
    return PositionRows(dataset)


def position_not_ruled_out():
    return [PositionRows(d) for d in ("FD001", "FD002", "FD003", "FD004", *EVENT_DATASETS)]


def validation(dataset, labels, column):
    """A cell of the report's table "Does validation rank the methods as test does?"."""
    return Cell(VALIDATION, (dataset, labels), column, "text" if column in ("chosen − best", "p") else "first")


def validation_column(column):
    """One column of that table, every row."""
    return [
        validation(d, labels, column)
        for d in ("FD001", "FD002", "FD003", "FD004", *EVENT_DATASETS)
        for labels in (FRACTIONS if d.startswith("FD") else FRACTIONS[:2])
    ]


def validation_shortfalls(except_rows=()):
    """Column "chosen − best" of every row but ``except_rows``."""
    return [
        validation(d, labels, "chosen − best")
        for d in ("FD001", "FD002", "FD003", "FD004", *EVENT_DATASETS)
        for labels in (FRACTIONS if d.startswith("FD") else FRACTIONS[:2])
        if (d, labels) not in except_rows
    ]


def at_least_alpha(*pvalues):
    """How many of the printed p-values are at least the significance level."""
    return sum(Decimal(p) >= ALPHA for p in pvalues)


def same_value(*values):
    """The one value that every source gives."""
    assert len(set(values)) == 1, values
    return values[0]


def event_seeds(method):
    """The number of seeds of ``method``'s cells on each event dataset and fraction where it ran."""
    return [event(d, method, labels, part="seeds") for d in EVENT_DATASETS for labels in FRACTIONS[:2]]


def cmapss_seeds(method):
    """The number of seeds of ``method``'s cells on each C-MAPSS subset, all labels and 10 %."""
    return [
        label_eff(subset, method, labels, part="seeds")
        for subset in ("FD001", "FD002", "FD003", "FD004")
        for labels in FRACTIONS[:2]
    ]


def boosting_record(method, part):
    """Wins (``first``), ties or losses of ``method`` against each form of boosting."""
    return [Cell(WIN_COUNTS, method, f"vs {b}", part) for b in ("gbm", "gbm-select", "gbm-last30")]


def count_of(text):
    def count(*cells):
        return sum(cell == text for cell in cells)

    count.__name__ = f"count of {text!r}"
    return count


def default_beside(dataset, labels, column):
    """A cell of the report's table "The default pipeline beside the best tuned variant"."""
    return Cell(DEFAULT_BESIDE, (dataset, labels), column, "text" if column == "default − best" else "first")


def default_beside_best(column, part="first"):
    """One column of that table, every row."""
    return [Cell(DEFAULT_BESIDE, (d, labels), column, part) for d in EVENT_DATASETS for labels in FRACTIONS[:2]]


# the tables of "C-MAPSS through the event runner": the event runner's cells, boosting's from the C-MAPSS tables
FD_METHODS = ("hepa", "hepa-random", "mae", "patchtst-revin", "itransformer-revin", "gbm-last30")
FD_GLOBAL = FRACTIONS


def fd_cell(subset, method, labels, part="mean"):
    """A cell of those tables: ``gbm-last30``'s from table "Label efficiency", the rest from the event table."""
    if method == "gbm-last30":
        return label_eff(subset, method, labels, part)
    return event(subset, method, labels, part)


def fd_seeds(subsets, fractions):
    return [fd_cell(s, m, labels, "seeds") for s in subsets for labels in fractions for m in FD_METHODS]


class TableLeads(Source):
    """The label fractions (as numbers) at which ``method`` has the highest mean of ``FD_METHODS`` on ``subset``."""

    def __init__(self, subset, method, fractions=FRACTIONS):
        self.subset, self.method, self.fractions = subset, method, fractions

    def __repr__(self):
        return f"fractions where {self.method} leads {FD_METHODS} on {self.subset}"

    def value(self):
        leads = []
        for labels in self.fractions:
            means = {m: Decimal(fd_cell(self.subset, m, labels).value()) for m in FD_METHODS}
            if max(means, key=means.get) == self.method:
                leads.append(int(labels.rstrip("%")))
        return leads


def last_of_same(*lists):
    """The last item of the one list that every list of ``lists`` is."""
    return same_value(*map(tuple, lists))[-1]


def smallest_holm(dataset):
    """The smallest Holm-adjusted p of a dataset's rows of a table of pairwise comparisons, as printed."""

    def smallest_of(rows):
        printed = [r["Holm p"].rstrip(" *") for r in rows if r["subset"] == dataset and r["Holm p"] != "—"]
        return min(printed, key=Decimal)

    smallest_of.__name__ = f"smallest Holm p of {dataset}"
    return smallest_of


SPEED_CPU = "benchmarks/speed_reference_cpu.txt"
SPEED_CPU_JSON = "benchmarks/speed_reference_cpu.json"
SPEED_MEDIAN3 = "benchmarks/speed_reference_median3.txt"
SPEED_MEMORY = "benchmarks/speed_reference_memory.txt"
TIME_TO_QUALITY = "benchmarks/experiments/time_to_quality.txt"
TORCH_COMPILE = "benchmarks/experiments/torch_compile.txt"
OURS, OURS_MEMORY, REFERENCE = "hepa_sklearn 0.1.0 (971800c)", "hepa_sklearn 0.1.0 (e13fe5d)", "reference (85f55f3)"


def speed(row, column, file=SPEED_CPU):
    """The table that ``hepa-bench speed --reference`` prints."""
    return Cell("", row, column, "first", report=file)


def minor_version(version):
    """``2.13`` of ``2.13.0+cpu``."""
    return ".".join(version.split("+")[0].split(".")[:2])


def protocol_constant(name):
    """A constant of the C-MAPSS reference protocol (``hepa_sklearn.cmapss_protocol``)."""

    def constant():
        import hepa_sklearn.cmapss_protocol

        return getattr(hepa_sklearn.cmapss_protocol, name)

    constant.__name__ = f"hepa_sklearn.cmapss_protocol.{name}"
    return constant


def split_percents():
    """The protocol's train/validation/test split of the units, in percent (``split_units``'s default)."""
    import inspect

    from hepa_sklearn.cmapss_protocol import split_units

    return [round(f * 100) for f in inspect.signature(split_units).parameters["fractions"].default]


def protocol_channels():
    """The channels of C-MAPSS as the protocol reads them (its sensors)."""
    from hepa_sklearn.cmapss_protocol import CMAPSS_SENSORS

    return len(CMAPSS_SENSORS)


def _protocol_models():
    from hepa_sklearn.cmapss_protocol import protocol_event_predictor, protocol_pretrainer
    from hepa_sklearn.nn.jepa import JEPA
    from hepa_sklearn.nn.predictor import EventModel

    pretrainer = protocol_pretrainer(50, device="cpu", seed=0)
    config = pretrainer._encoder_config(protocol_channels(), patch_size=pretrainer.patch_size, tokens=pretrainer.tokens)
    head = protocol_event_predictor(30, device="cpu", seed=0)
    event_model = EventModel(config.d_model, head.hidden, head.K, float(head.K), head=head.head)
    return JEPA(config, pretrainer.K), event_model


def pretrained_parameters():
    """Parameters of the protocol's pretrained model (encoder, target path, predictor), built by the library."""
    return sum(p.numel() for p in _protocol_models()[0].parameters())


def finetuned_parameters():
    """Parameters of the protocol's event model (predictor and hazard head), built by the library."""
    return sum(p.numel() for p in _protocol_models()[1].parameters())


# --- the corpus screen (benchmarks/corpus_selection.md): validation h-AUROC over its 16 cells
CORPUS_SCREEN = "benchmarks/screen_corpus_results.jsonl"
CORPUS_SCREEN_TEXT = "benchmarks/corpus_screen.txt"


def screen_mean(method):
    """A method's mean validation h-AUROC over the 16 cells of the corpus screen."""
    return Records(CORPUS_SCREEN, dict(method=method, scope="validation"), "valid_h_auroc")


def screen_cpu(method):
    """A method's mean CPU seconds per cell over the 16 cells of the corpus screen."""
    return Records(CORPUS_SCREEN, dict(method=method, scope="validation"), "cpu_s")


def screen_difference(method, against="hepa-default-auto0-knots12"):
    return Computed("difference", screen_mean(method), screen_mean(against))


def screen_lowest(method):
    """How far ``method``'s lowest (cell, seed) falls below the default's, as hepa-bench query printed it."""
    line = Line(CORPUS_SCREEN_TEXT, rf"^`{method}` against .* pairs: mean [+-]\d\.\d+, from ([+-]\d\.\d+) to")
    return Computed(lambda: -float(line.value()))


# --- the nearest corpus design on the C-MAPSS test units, after the screen's judgement
CORPUS_TEST = "benchmarks/corpus_results.jsonl"
CORPUS_ARMS = "benchmarks/corpus_arms.txt"
CORPUS_ARMS_FAMILY = Line(CORPUS_ARMS, r"Holm's correction over the (\d+) tested")


def corpus_test_difference(subset, fraction):
    """``hepa-corpus-u128`` minus the headline line, mean test h-AUROC over the five seeds of one row."""
    row = dict(dataset=subset, fraction=fraction)
    return Computed(
        "difference",
        Records(CORPUS_TEST, dict(row, method="hepa-corpus-u128"), "h_auroc", seeds=ALL_SEEDS),
        Records(CMAPSS_RECORDS, dict(row, method=HEADLINE), "h_auroc", seeds=ALL_SEEDS),
    )


def corpus_test_few_labels():
    """The mean of ``corpus_test_difference`` over the eight C-MAPSS rows with 10 % and 5 % labels."""
    rows = [corpus_test_difference(s, f) for s in ("FD001", "FD002", "FD003", "FD004") for f in (0.1, 0.05)]
    return Computed(lambda *values: math.fsum(values) / len(values), *rows)


def corpus_arms_p(subset, column):
    """The corpus design's paired t p (``column`` 1) or Holm p (3) with all labels, in corpus_arms.txt."""
    row = rf"^\| `hepa-corpus-u128` \| {subset} \| 100% \| 5 \|"
    return Line(CORPUS_ARMS, row + rf"(?: [^|]+ \|){{{column}}} ([^ |]+)")


# --- the simulated fleets: the report's share of the gap, and the screen of designs aimed at them
SIMULATED_SCREEN_TEXT = "benchmarks/simulated_designs_screen.txt"


def gap_share(fleet, method, labels="100%"):
    """A method's share of the gap from the exact age-only surface (``age-oracle``) to ``oracle``.

    The report's second table of the simulated section.
    """
    return Cell("Simulated fleets: the distance to the ceiling", (fleet, labels), method, "first", n=1)


GAP_TABLE = "Simulated fleets: the distance to the ceiling"


def sim_score(fleet, method, labels="100%"):
    """A method's mean test h-AUROC on a simulated row, the report's first table of the section."""
    return Cell(GAP_TABLE, (fleet, labels), method)


def _gap_shares():
    """``{(fleet, labels): {method: share}}`` of the report's table of shares of the gap (every method,
    ``elapsed`` last; the two references are its ends, not its columns)."""
    tables = [t for t in report_tables("docs/benchmarks.md") if t[0][-1:] == (GAP_TABLE,)]
    _, header, rows = tables[1]
    assert header[:2] == ["fleet", "labels"] and header[-1] == "elapsed", header
    assert "age-oracle" not in header, header
    return {(r[0], r[1]): {m: float(v) for m, v in zip(header[2:], r[2:], strict=True)} for r in rows}


def fleet_shares(method, *phrases, labels="10%"):
    """``method``'s share of the gap on each fleet, one binding per phrase (``sim-default``, ``sim-hard``,
    ``sim-modes``, in that order)."""
    fleets = ("sim-default", "sim-hard", "sim-modes")
    return [Bind(p, gap_share(f, method, labels), ".2f") for p, f in zip(phrases, fleets, strict=True)]


def rows_below_age(method):
    """On how many simulated rows ``method`` closes less than none of the gap (below the age-only surface)."""
    return Computed(lambda: sum(shares[method] < 0 for shares in _gap_shares().values()))


def highest_gap_share():
    """The highest share of the gap of any method on any simulated row."""
    return Computed(lambda: max(max(shares.values()) for shares in _gap_shares().values()))


def simulated_screen_mean(method):
    """A method's mean of the row means over the screen's six rows, as hepa-bench query printed it."""
    return Line(SIMULATED_SCREEN_TEXT, rf"^\| `{method}` \| (\d\.\d+) \|")


def headline_cmapss(subset, fraction):
    return Records(
        CMAPSS_RECORDS,
        dict(dataset=subset, method="hepa-default-auto0-knots12", fraction=fraction),
        "h_auroc",
        seeds=ALL_SEEDS,
    )


HEADLINE = "hepa-default-auto0-knots12"


BATADAL_DIAGNOSIS = "benchmarks/experiments/batadal_diagnosis.txt"


def batadal(pattern):
    """The figure ``pattern``'s group captures on the one matching line of the BATADAL diagnosis."""
    return Line(BATADAL_DIAGNOSIS, pattern)


def batadal_seed_scores(reduce):
    """``reduce`` (min or max) of the headline line's five test h-AUROCs in the BATADAL diagnosis."""

    def value():
        scores = batadal(r"^\s+headline\s+test, seeds 0-4: ([\d., ]+) \(mean").value()
        return reduce(float(x) for x in scores.split(","))

    value.__name__ = f"{reduce.__name__} of the BATADAL seeds"
    return Computed(value)


def batadal_control(label, part):
    """The ``part`` h-AUROC (train, valid or test) of one control line of the BATADAL diagnosis."""
    fields = {name: r"(\d\.\d+)" if name == part else r"\d\.\d+" for name in ("train", "valid", "test")}
    return batadal(
        rf"^\s+{re.escape(label)}\s+train {fields['train']}\s+valid {fields['valid']}\s+test {fields['test']}"
    )


BINDINGS = [
    # the rows the headline line misses against boosting
    Bind("({} against `gbm`'s 0.972)", headline_cmapss("FD003", 0.1), ".3f"),
    Bind("(0.925 against `gbm`'s {})", label_eff("FD003", "gbm", "10%"), ".3f"),
    Bind("Beijing with all labels ({} against 0.836)", event("Beijing", HEADLINE), ".3f"),
    Bind("Beijing with all labels (0.790 against {})", event("Beijing", "gbm"), ".3f"),
    Bind("with a tenth ({} against 0.808)", event("Beijing", HEADLINE, "10%"), ".3f"),
    Bind("with a tenth (0.774 against {})", event("Beijing", "gbm", "10%"), ".3f"),
    Bind("VIX with a tenth ({} against", event("VIX", HEADLINE, "10%"), ".3f"),
    Bind("`gbm-last30`'s {}). On BATADAL", event("VIX", "gbm-last30", "10%"), ".3f"),
    Bind("below chance with all labels ({}).", event("BATADAL", HEADLINE), ".3f"),
    # the simulated fleets: shares of the gap from the exact age-only surface
    Bind("collapses with few labels ({} on `sim-modes`", sim_score("sim-modes", "elapsed", "10%"), ".3f"),
    Bind("where the age-only surface scores {}) and so", sim_score("sim-modes", "age-oracle", "10%"), ".3f"),
    Bind("The headline line closes {} of the gap on", gap_share("sim-default", HEADLINE), ".2f"),
    Bind("and {} with a tenth of them, 0.25", gap_share("sim-default", HEADLINE, "10%"), ".2f"),
    Bind("with a tenth of them, {} and -1.26", gap_share("sim-hard", HEADLINE), ".2f"),
    Bind("0.25 and {} on `sim-hard` (more", gap_share("sim-hard", HEADLINE, "10%"), ".2f"),
    Bind("degradation), {} and 0.24 on `sim-modes`", gap_share("sim-modes", HEADLINE), ".2f"),
    Bind("degradation), -0.28 and {} on `sim-modes`", gap_share("sim-modes", HEADLINE, "10%"), ".2f"),
    Bind("boosting (`gbm`) closes {}, 0.34,", gap_share("sim-default", "gbm"), ".2f"),
    Bind("closes 0.67, {}, 0.39,", gap_share("sim-default", "gbm", "10%"), ".2f"),
    Bind("0.34, {}, -0.01,", gap_share("sim-hard", "gbm"), ".2f"),
    Bind("0.39, {}, 0.03 and", gap_share("sim-hard", "gbm", "10%"), ".2f"),
    Bind("-0.01, {} and -1.01 of it", gap_share("sim-modes", "gbm"), ".2f"),
    Bind("0.03 and {} of it", gap_share("sim-modes", "gbm", "10%"), ".2f"),
    Bind(
        "with a standard deviation of {} over the seeds",
        Cell("Simulated fleets: the distance to the ceiling", ("sim-hard", "10%"), HEADLINE, "sd"),
        ".3f",
    ),
    Bind("patch tokens) closes {} of the gap on `sim-default`", gap_share("sim-default", "hepa"), ".2f"),
    Bind("falls below the age-only surface on {} of the 6 rows", rows_below_age("hepa"), "d"),
    Bind("surface on 6 of the {} rows (-0.76", Computed(lambda: len(_gap_shares())), "d"),
    Bind("of the 6 rows ({} on `sim-hard`, -1.42", gap_share("sim-hard", "hepa"), ".2f"),
    Bind("`sim-hard`, {} on `sim-modes`, both with all labels)", gap_share("sim-modes", "hepa"), ".2f"),
    Bind("(`hepa-random`) closes {} on `sim-default`", gap_share("sim-default", "hepa-random"), ".2f"),
    Bind("pretraining (`hepa-channel`) closes {} and -0.20", gap_share("sim-default", "hepa-channel"), ".2f"),
    Bind("-0.04 and {} on `sim-default` against", gap_share("sim-default", "hepa-channel", "10%"), ".2f"),
    Bind("against {} and -0.03 for its encoder", gap_share("sim-default", "hepa-channel-random"), ".2f"),
    Bind("and {} for its encoder untrained", gap_share("sim-default", "hepa-channel-random", "10%"), ".2f"),
    *fleet_shares(
        "patchtst",
        "PatchTST closes {}, -0.12 and -0.08",
        "closes 0.04, {} and -0.08 of the gap",
        "-0.12 and {} of the gap on the three fleets",
    ),
    *fleet_shares(
        "itransformer",
        "iTransformer {}, -0.04 and -0.09.",
        "iTransformer 0.06, {} and -0.09.",
        "iTransformer 0.06, -0.04 and {}.",
    ),
    *fleet_shares("patchtst-revin", "they close {}, -0.16", "-0.05, {} and -0.08,", "-0.16 and {}, and"),
    *fleet_shares("itransformer-revin", "and {}, -0.06 and", "0.01, {} and -0.09.", "-0.06 and {}. The"),
    Bind("(`hepa-matched`) closes {} and -0.80", gap_share("sim-default", "hepa-matched"), ".2f"),
    Bind("0.09 and {} of the gap on `sim-default`", gap_share("sim-default", "hepa-matched", "10%"), ".2f"),
    Bind("is under the age-only surface on {} rows.", rows_below_age("hepa-matched"), "d"),
    Bind("(`hepa-default`) is below it on {} rows", rows_below_age("hepa-default"), "d"),
    Bind("and the position-only score on {}, every row", rows_below_age("position"), "d"),
    Bind("(`elapsed`) is below it on {} rows too", rows_below_age("elapsed"), "d"),
    Bind("the highest share on any row is {}.", highest_gap_share(), ".2f"),
    Bind("over the screen's cells: {}, 0.832", simulated_screen_mean("hepa-default-auto0-wd"), ".3f"),
    Bind("cells: 0.824, {} and 0.837", simulated_screen_mean("hepa-default-auto0-nll"), ".3f"),
    Bind("0.832 and {}, against", simulated_screen_mean("hepa-default-trend0"), ".3f"),
    Bind("against {} for the headline line with every", simulated_screen_mean("hepa-default-auto0"), ".3f"),
    Bind("`hepa-default-trend0`, closes {} and 0.46", gap_share("sim-default", "hepa-default-trend0"), ".2f"),
    Bind("closes 0.65 and {} of the gap on", gap_share("sim-default", "hepa-default-trend0", "10%"), ".2f"),
    Bind("`sim-default`, {} and -0.98 on", gap_share("sim-hard", "hepa-default-trend0"), ".2f"),
    Bind("0.25 and {} on `sim-hard`, -0.19", gap_share("sim-hard", "hepa-default-trend0", "10%"), ".2f"),
    Bind("`sim-hard`, {} and -0.02 on", gap_share("sim-modes", "hepa-default-trend0"), ".2f"),
    Bind("-0.19 and {} on `sim-modes`.", gap_share("sim-modes", "hepa-default-trend0", "10%"), ".2f"),
    # the corpus screen: means over its 16 cells and their differences from the default
    Bind("patch tokens, width 256, untrained | {} |", screen_mean("hepa-default-auto0-knots12"), ".3f"),
    Bind("width 64, untrained | {} | -0.014", screen_mean("hepa-u64-untrained"), ".3f"),
    Bind("width 64, untrained | 0.904 | {} |", screen_difference("hepa-u64-untrained"), "+.3f"),
    Bind("the cell's own windows | {} |", screen_mean("hepa-u64-own"), ".3f"),
    Bind("the cell's own windows | 0.902 | {} |", screen_difference("hepa-u64-own"), "+.3f"),
    Bind("pretrained on the corpus, frozen | {} | -0.032", screen_mean("hepa-corpus-u64"), ".3f"),
    Bind("pretrained on the corpus, frozen | 0.886 | {} |", screen_difference("hepa-corpus-u64"), "+.3f"),
    Bind("continued on the cell's windows | {} |", screen_mean("hepa-corpus-u64-continued"), ".3f"),
    Bind("continued on the cell's windows | 0.896 | {} |", screen_difference("hepa-corpus-u64-continued"), "+.3f"),
    Bind("simulated fleets | {} |", screen_mean("hepa-corpus-u64-sim30"), ".3f"),
    Bind("simulated fleets | 0.898 | {} |", screen_difference("hepa-corpus-u64-sim30"), "+.3f"),
    Bind("width 128, untrained | {} |", screen_mean("hepa-u128-untrained"), ".3f"),
    Bind("width 128, untrained | 0.906 | {} |", screen_difference("hepa-u128-untrained"), "+.3f"),
    Bind("width 128, pretrained on the corpus, frozen | {} |", screen_mean("hepa-corpus-u128"), ".3f"),
    Bind("width 128, pretrained on the corpus, frozen | 0.924 | {} |", screen_difference("hepa-corpus-u128"), "+.3f"),
    Bind("one of its cells is {} below the default's", screen_lowest("hepa-corpus-u128"), ".3f"),
    Bind("untrained grew from {} at width 64", screen_difference("hepa-corpus-u64", "hepa-u64-untrained"), "+.3f"),
    Bind("64 to {} at 128", screen_difference("hepa-corpus-u128", "hepa-u128-untrained"), "+.3f"),
    Bind("pretrained on JEPA horizons 1..50 | {} |", screen_mean("hepa-corpus-u128-h50"), ".3f"),
    Bind("pretrained on JEPA horizons 1..50 | 0.902 | {} |", screen_difference("hepa-corpus-u128-h50"), "+.3f"),
    Bind(
        "It scored {} below the default in the mean",
        screen_difference("hepa-default-auto0-knots12", "hepa-corpus-u128-h50"),
        ".3f",
    ),
    Bind("in the mean, its lowest cell {} below, and", screen_lowest("hepa-corpus-u128-h50"), ".3f"),
    Bind(
        "and {} against its architecture untrained",
        screen_difference("hepa-corpus-u128-h50", "hepa-u128-untrained"),
        "+.3f",
    ),
    Bind("width 128, four layers, untrained | {} |", screen_mean("hepa-u128-l4-untrained"), ".3f"),
    Bind("four layers, untrained | 0.914 | {} |", screen_difference("hepa-u128-l4-untrained"), "+.3f"),
    Bind("four layers, pretrained on the corpus, frozen | {} |", screen_mean("hepa-corpus-u128-l4"), ".3f"),
    Bind(
        "four layers, pretrained on the corpus, frozen | 0.922 | {} |", screen_difference("hepa-corpus-u128-l4"), "+.3f"
    ),
    Bind("untrained, finetuned with the event head | {} |", screen_mean("hepa-u128-finetuned"), ".3f"),
    Bind("finetuned with the event head | 0.914 | {} |", screen_difference("hepa-u128-finetuned"), "+.3f"),
    Bind("corpus, finetuned with the head | {} |", screen_mean("hepa-corpus-u128-finetuned"), ".3f"),
    Bind("finetuned with the head | 0.917 | {} |", screen_difference("hepa-corpus-u128-finetuned"), "+.3f"),
    Bind("(`hepa-corpus-u128-l4`): {} above the default", screen_difference("hepa-corpus-u128-l4"), ".3f"),
    Bind("a cell as far as {} below it, and", screen_lowest("hepa-corpus-u128-l4"), ".3f"),
    Bind(
        "below it, and {} against the same four-layer encoder",
        screen_difference("hepa-corpus-u128-l4", "hepa-u128-l4-untrained"),
        "+.3f",
    ),
    Bind(
        "pipeline's does) scored {} below the default in the mean",
        screen_difference("hepa-default-auto0-knots12", "hepa-corpus-u128-finetuned"),
        ".3f",
    ),
    Bind("far as {} below, and 0.007 below", screen_lowest("hepa-corpus-u128-finetuned"), ".3f"),
    Bind(
        "below, and {} below the same encoder frozen",
        screen_difference("hepa-corpus-u128", "hepa-corpus-u128-finetuned"),
        ".3f",
    ),
    Bind("frozen, at {} CPU seconds a cell against", screen_cpu("hepa-corpus-u128-finetuned"), ".0f"),
    Bind("CPU seconds a cell against {} for the", screen_cpu("hepa-corpus-u128"), ".1f"),
    Bind("half the corpus for twice the epochs | {} |", screen_mean("hepa-corpus-u128-half"), ".3f"),
    Bind("for twice the epochs | 0.920 | {} |", screen_difference("hepa-corpus-u128-half"), "+.3f"),
    Bind(
        "(`hepa-corpus-u128-half`), scored {} below the whole corpus's",
        screen_difference("hepa-corpus-u128", "hepa-corpus-u128-half"),
        ".3f",
    ),
    Bind("with a cell as low as {} below the default's", screen_lowest("hepa-corpus-u128-half"), ".3f"),
    Bind("channel tokens, width 256, untrained | {} |", screen_mean("hepa-u256-untrained"), ".3f"),
    Bind("width 256, untrained | 0.900 | {} |", screen_difference("hepa-u256-untrained"), "+.3f"),
    Bind("width 256, pretrained on the corpus, frozen | {} |", screen_mean("hepa-corpus-u256"), ".3f"),
    Bind("width 256, pretrained on the corpus, frozen | 0.905 | {} |", screen_difference("hepa-corpus-u256"), "+.3f"),
    Bind(
        "was judged by the same rule: {} below the default in the mean",
        screen_difference("hepa-default-auto0-knots12", "hepa-corpus-u256"),
        ".3f",
    ),
    Bind("the default in the mean, one cell {} below", screen_lowest("hepa-corpus-u256"), ".3f"),
    Bind(
        "and {} over its architecture untrained", screen_difference("hepa-corpus-u256", "hepa-u256-untrained"), "+.3f"
    ),
    # the nearest corpus design on the C-MAPSS test units
    Bind("labels it scored {} against the headline line in the mean", corpus_test_few_labels(), "+.3f"),
    Bind("asked for +0.02, from {} (FD002)", corpus_test_difference("FD002", 0.05), "+.3f"),
    Bind("(FD002) to {} (FD003), both", corpus_test_difference("FD003", 0.05), "+.3f"),
    Bind("four subsets, by {} (FD004)", corpus_test_difference("FD004", 1.0), "+.3f"),
    Bind("(FD004) to {} (FD001)", corpus_test_difference("FD001", 1.0), "+.3f"),
    Bind("correction over the file's {} comparisons", CORPUS_ARMS_FAMILY, "printed"),
    Bind("raw paired p {} and 0.0011", corpus_arms_p("FD001", 1), "printed"),
    Bind("raw paired p 0.000869 and {})", corpus_arms_p("FD002", 1), "printed"),
    Bind("have Holm-adjusted p {} and 0.1.", corpus_arms_p("FD001", 3), "printed"),
    Bind("have Holm-adjusted p 0.0824 and {}.", corpus_arms_p("FD002", 3), "printed"),
    # the user's first fit on FD002 with today's defaults (first_fit.py, seed 0, one thread)
    Bind(
        "windows at every age) in {} CPU seconds on one thread",
        Records("benchmarks/experiments/first_fit.txt", dict(subset="FD002", params={}), "fit_cpu_s", how="one"),
        ".0f",
    ),
    Bind(
        "on one thread and scores {} on NASA's test engines (one",
        Records("benchmarks/experiments/first_fit.txt", dict(subset="FD002", params={}), "test_h_auroc", how="one"),
        ".3f",
    ),
    # C-MAPSS under the reference protocol: the default pipeline on FD002, the hepa-norm-* records
    Bind(
        "the 0.1.0 default pipeline behind one reaches {}, 2 seeds",
        fd002_entry("hepa-norm-normalizer", FIRST_TWO),
        ".3f",
    ),
    Bind("the same pipeline scores {} against", fd002_entry("hepa-default-untrained"), ".3f"),
    Bind(
        "(5 seeds, raw paired p = {}, Holm",
        Computed("paired t p", fd002_entry("hepa-default-untrained"), fd002_cell("hepa-default")),
        ".4f",
    ),
    Bind("Holm p {} over the family's 14", norm_family_test("hepa-default-untrained", "Holm p"), "printed"),
    Bind("Holm p 0.0032 over the family's {}", norm_family_count(), "printed"),
    Bind('{} with `norm="global"`', fd002_entry("hepa-norm-global-random"), ".3f"),
    # the same cells as the retired default_normalisation.py printed them
    Bind("printed {}, 0.725 and 0.864", fd002_arm("regime", seeds=FIRST_TWO), ".3f"),
    Bind("printed 0.955, {} and 0.864", fd002_arm("revin-random"), ".3f"),
    Bind("printed 0.955, 0.725 and {} under", fd002_arm("global-random"), ".3f"),
    # --- opening paragraphs
    Bind("PatchTST {} / 0.908 on", label_eff("FD001", "patchtst"), "printed"),  # 0.991
    Bind("0.991 / {} on FD001,", label_eff("FD001", "patchtst", "10%"), "printed"),  # 0.908
    Bind("on FD001, {} / 0.926 on", label_eff("FD003", "patchtst"), "printed"),  # 0.991
    Bind("0.991 / {} on FD003,", label_eff("FD003", "patchtst", "10%"), "printed"),  # 0.926
    Bind("on FD003, {} / 0.603 on", label_eff("FD002", "patchtst"), "printed"),  # 0.577
    Bind("0.577 / {} on FD002", label_eff("FD002", "patchtst", "10%"), "printed"),  # 0.603
    Bind("FD002 and {} / 0.592 on", label_eff("FD004", "patchtst"), "printed"),  # 0.591
    Bind("0.591 / {} on FD004;", label_eff("FD004", "patchtst", "10%"), "printed"),  # 0.592
    Bind("{} / 0.902,", label_eff("FD001", "itransformer"), "printed"),  # 0.995
    Bind("0.995 / {}, 0.984 /", label_eff("FD001", "itransformer", "10%"), "printed"),  # 0.902
    Bind("/ 0.902, {} / 0.913,", label_eff("FD003", "itransformer"), "printed"),  # 0.984
    Bind("0.984 / {}, 0.573 /", label_eff("FD003", "itransformer", "10%"), "printed"),  # 0.913
    Bind("/ 0.913, {} / 0.557", label_eff("FD002", "itransformer"), "printed"),  # 0.573
    Bind("0.573 / {} and 0.671", label_eff("FD002", "itransformer", "10%"), "printed"),  # 0.557
    Bind("0.557 and {} / 0.559.", label_eff("FD004", "itransformer"), "printed"),  # 0.671
    Bind("0.671 / {}. With the", label_eff("FD004", "itransformer", "10%"), "printed"),  # 0.559
    Bind(
        "(Holm p = {}, report", cmapss_pair("h-AUROC, 100% labels", "hepa", "patchtst", "FD004"), "printed"
    ),  # 0.00253
    Bind("% labels: {} against", event("FD004", "hepa-random", "5%"), "printed"),  # 0.683
    Bind("5 % labels: 0.683 against {}, Holm-adjusted p = 0.0389)", event("FD004", "hepa", "5%"), "printed"),  # 0.541
    Bind("p = {}) | | A", event_pair("hepa", "hepa-random", "FD004", "5%"), "printed"),  # 0.0276
    Bind(
        "ρ = {} (18",
        Cell(
            "Snapshot study: held-out pretraining loss against h-AUROC / Across datasets",
            "FD001",
            "ρ pooled (p)",
            "first",
        ),
        "printed",
    ),  # +0.53
    Bind(
        "ρ = +0.53 ({} snapshots,",
        Cell(
            "Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "FD001", "snapshots", "first"
        ),
        "printed",
    ),  # 18
    Bind(
        "snapshots, {} seeds); on",
        Cell("Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "FD001", "seeds", "first"),
        "printed",
    ),  # 3
    Bind(
        "any (pooled ρ from {} to +0.26) | | HEPA",
        Cell(
            "Snapshot study: held-out pretraining loss against h-AUROC / Across datasets",
            "MBA",
            "ρ pooled (p)",
            "first",
        ),
        "printed",
    ),  # −0.21
    Bind(
        "−0.21 to {}) | | HEPA",
        Cell(
            "Snapshot study: held-out pretraining loss against h-AUROC / Across datasets",
            "ETTm1",
            "ρ pooled (p)",
            "first",
        ),
        "printed",
    ),  # +0.26
    Bind("all labels: FD001 {}, FD003 0.84, FD002", paper("FD001"), "printed"),  # 0.81
    Bind("FD003 {}, FD002", paper("FD003"), "printed"),  # 0.84
    Bind("FD003 0.84, FD002 {}, FD004 0.63 | With", paper("FD002"), "printed"),  # 0.57
    Bind("FD004 {} | With", paper("FD004"), "printed"),  # 0.63
    Bind("runner {}, 0.983,", event("FD001", "hepa"), "printed"),  # 0.954
    Bind("0.954, {}, 0.771 and", event("FD003", "hepa"), "printed"),  # 0.983
    Bind("0.983, {} and 0.840", event("FD002", "hepa"), "printed"),  # 0.771
    Bind("0.771 and {} (5 seeds);", event("FD004", "hepa"), "printed"),  # 0.840
    Bind("and 0.840 ({} seeds);", event("FD004", "hepa", part="seeds"), "printed"),  # 5
    Bind(
        "(5 seeds); the authors' README reports {} (FD001) and 0.960 (FD003) for their own",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "authors' implementation"),
        "printed",
    ),  # 0.918
    Bind(
        "authors' README reports 0.918 (FD001) and {} (FD003) for their own code under that",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "authors' implementation"),
        "printed",
    ),  # 0.960
    Bind("| `hepa` reaches the paper's HEPA figure on MBA ({} against 0.75)", event("MBA", "hepa"), "printed"),  # 0.784
    Bind("| `hepa` reaches the paper's HEPA figure on MBA (0.784 against {})", paper("MBA"), "printed"),  # 0.75
    Bind(
        "VIX ({} against 0.57) and is below it on the other five, by 0.03 (ETTm1) to 0.18 (Weather) |",
        event("VIX", "hepa"),
        "printed",
    ),  # 0.615
    Bind(
        "VIX (0.615 against {}) and is below it on the other five, by 0.03 (ETTm1) to 0.18 (Weather) |",
        paper("VIX"),
        "printed",
    ),  # 0.57
    Bind("is below it on the other five, by {} (ETTm1) to 0.18 (Weather) | |", below_paper("ETTm1"), ".2f"),  # 0.03
    Bind("by 0.03 (ETTm1) to {} (Weather) | |", below_paper("Weather"), ".2f"),  # 0.18
    Bind("on FD002 {} and on", paper("FD002", "patchtst"), "printed"),  # 0.44
    Bind("on FD004 {} | 0.572", paper("FD004", "patchtst"), "printed"),  # 0.52
    Bind("0.52 | {} and 0.582", event("FD002", "patchtst-revin"), "printed"),  # 0.572
    Bind("0.572 and {} here |", event("FD004", "patchtst-revin"), "printed"),  # 0.582
    # --- Untrained-encoder controls, Snapshot study, Channel tokens
    Bind(
        "labels or fewer (FD003 2%: {} against 0.869). The one cell", label_eff("FD003", "hepa-random", "2%"), "printed"
    ),  # 0.944
    Bind("(FD003 2%: 0.944 against {}). The one cell where", label_eff("FD003", "hepa", "2%"), "printed"),  # 0.869
    Bind(
        "is FD002 with all labels ({} against 0.956, raw paired p", label_eff("FD002", "hepa-regime"), "printed"
    ),  # 0.974
    Bind(
        "all labels (0.974 against {}, raw paired p = 0.004). No", label_eff("FD002", "hepa-random-regime"), "printed"
    ),  # 0.956
    Bind(
        "0.956, raw paired p = {}). No difference between the",
        cmapss_pair("Label efficiency, FD002", "hepa-regime", "hepa-random-regime", "FD002", column="paired t p"),
        ".3f",
    ),  # 0.004
    Bind(
        "the untrained encoder scores {} against 0.541 (Holm-adjusted", event("FD004", "hepa-random", "5%"), "printed"
    ),  # 0.683
    Bind(
        "encoder scores 0.683 against {} (Holm-adjusted p = 0.0389).", event("FD004", "hepa", "5%"), "printed"
    ),  # 0.541
    Bind(
        "0.541 (Holm-adjusted p = {}). With `RegimeNormalizer` in",
        event_pair("hepa", "hepa-random", "FD004", "5%"),
        "printed",
    ),  # 0.0276
    Bind(
        "FD004\") the untrained encoder's lead at 5 % ({}) is not significant (adjusted p = 1). On FD001",
        cmapss_pair("Label efficiency, FD004", "hepa-random-regime", "hepa-regime", "FD004", "5%", column="mean A − B"),
        "printed",
    ),  # +0.077
    Bind(
        "significant (adjusted p = {}). On FD001 the control of",
        cmapss_pair("Label efficiency, FD004", "hepa-random-regime", "hepa-regime", "FD004", "5%"),
        "printed",
    ),  # 1
    Bind(
        "lower h-AUROC (Spearman ρ = {}, 18 snapshots, 3 seeds), the",
        Cell(SNAPSHOTS, "FD001", "ρ pooled (p)", "first"),
        "printed",
    ),  # +0.53
    Bind(
        "h-AUROC (Spearman ρ = +0.53, {} snapshots, 3 seeds), the",
        Cell(SNAPSHOTS, "FD001", "snapshots", "first"),
        "printed",
    ),  # 18
    Bind(
        "ρ = +0.53, 18 snapshots, {} seeds), the opposite of the", Cell(SNAPSHOTS, "FD001", "seeds", "first"), "printed"
    ),  # 3
    Bind(
        "opposite of the paper's ρ = {}. - Event datasets (3 seeds",
        Line("docs/benchmarks.md", r"the paper reports ρ = (−\d\.\d+) on FD001"),
        "printed",
    ),  # −0.87
    Bind(
        "ρ = −0.87. - Event datasets ({} seeds each): the untrained",
        Cell(SNAPSHOTS, "MBA", "seeds", "first"),
        "printed",
    ),  # 3
    Bind("on any (pooled ρ from {} to +0.26).", Cell(SNAPSHOTS, "MBA", "ρ pooled (p)", "first"), "printed"),  # −0.21
    Bind("any (pooled ρ from −0.21 to {}).", Cell(SNAPSHOTS, "ETTm1", "ρ pooled (p)", "first"), "printed"),  # +0.26
    Bind(
        "mean of every method, {} with all labels and 0.784", event("Weather", "hepa-channel", "100%"), "printed"
    ),  # 0.797
    Bind(
        "0.797 with all labels and {} with 10 %; on TEP 0.994 and", event("Weather", "hepa-channel", "10%"), "printed"
    ),  # 0.784
    Bind(
        "and 0.784 with 10 %; on TEP {} and 0.966, a row the unit's", event("TEP", "hepa-channel", "100%"), "printed"
    ),  # 0.994
    Bind(
        "with 10 %; on TEP 0.994 and {}, a row the unit's age alone", event("TEP", "hepa-channel", "10%"), "printed"
    ),  # 0.966
    Bind(
        "(`hepa-channel-random`, {} seeds) scores the same:",
        event("Weather", "hepa-channel-random", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind(
        "5 seeds) scores the same: {} and 0.784 on Weather, 0.994",
        event("Weather", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.796
    Bind(
        "scores the same: 0.796 and {} on Weather, 0.994 and 0.965",
        event("Weather", "hepa-channel-random", "10%"),
        "printed",
    ),  # 0.784
    Bind(
        "0.796 and 0.784 on Weather, {} and 0.965 on TEP (paired",
        event("TEP", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.994
    Bind(
        "0.784 on Weather, 0.994 and {} on TEP (paired differences",
        event("TEP", "hepa-channel-random", "10%"),
        "printed",
    ),  # 0.965
    Bind(
        "the pretraining. On VIX ({} seeds) the two are level too",
        event("VIX", "hepa-channel", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind("the two are level too ({} against 0.642 with all", event("VIX", "hepa-channel", "100%"), "printed"),  # 0.650
    Bind(
        "are level too (0.650 against {} with all labels, 0.538 each",
        event("VIX", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.642
    Bind(
        "0.642 with all labels, {} each with 10 %; raw p = 0.75", event("VIX", "hepa-channel", "10%"), "printed"
    ),  # 0.538
    Bind(
        "each with 10 %; raw p = {} and 0.99; the pretrained",
        event_pair("hepa-channel", "hepa-channel-random", "VIX", column="paired t p"),
        ".2f",
    ),  # 0.75
    Bind(
        "with 10 %; raw p = 0.75 and {}; the pretrained encoder's",
        event_pair("hepa-channel", "hepa-channel-random", "VIX", "10%", column="paired t p"),
        ".2f",
    ),  # 0.99
    Bind(
        "on five). On MBA, ETTm1 ({} seeds) and BATADAL (2 seeds)",
        event("ETTm1", "hepa-channel", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind(
        "ETTm1 (5 seeds) and BATADAL ({} seeds) the control is level",
        event("BATADAL", "hepa-channel", "100%", part="seeds"),
        "printed",
    ),  # 2
    Bind(
        "MBA it has the higher mean ({} against 0.749 with all", event("MBA", "hepa-channel-random", "100%"), "printed"
    ),  # 0.777
    Bind(
        "higher mean (0.777 against {} with all labels, 0.653", event("MBA", "hepa-channel", "100%"), "printed"
    ),  # 0.749
    Bind(
        "0.749 with all labels, {} against 0.629 with 10 %; raw", event("MBA", "hepa-channel-random", "10%"), "printed"
    ),  # 0.653
    Bind(
        "all labels, 0.653 against {} with 10 %; raw p = 0.45 and", event("MBA", "hepa-channel", "10%"), "printed"
    ),  # 0.629
    Bind(
        "0.629 with 10 %; raw p = {} and 0.13).",
        event_pair("hepa-channel", "hepa-channel-random", "MBA", column="paired t p"),
        ".2f",
    ),  # 0.45
    Bind(
        "with 10 %; raw p = 0.45 and {}).",
        event_pair("hepa-channel", "hepa-channel-random", "MBA", "10%", column="paired t p"),
        ".2f",
    ),  # 0.13
    Bind("- TEP: {} (5 seeds; 0.966 with 10%", event("TEP", "hepa-channel", "100%"), "printed"),  # 0.994
    Bind("- TEP: 0.994 ({} seeds; 0.966 with 10%", event("TEP", "hepa-channel", "100%", part="seeds"), "printed"),  # 5
    Bind(
        "- TEP: 0.994 (5 seeds; {} with 10% labels), level with", event("TEP", "hepa-channel", "10%"), "printed"
    ),  # 0.966
    Bind(
        "loses to per-variate models: {} (5 seeds; 0.629 with 10%),", event("MBA", "hepa-channel", "100%"), "printed"
    ),  # 0.749
    Bind(
        "per-variate models: 0.749 ({} seeds; 0.629 with 10%),",
        event("MBA", "hepa-channel", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind("models: 0.749 (5 seeds; {} with 10%), below", event("MBA", "hepa-channel", "10%"), "printed"),  # 0.629
    Bind(
        "10%), below iTransformer ({}) and `patchtst` (0.815, 5", event("MBA", "itransformer", "100%"), "printed"
    ),  # 0.796
    Bind(
        "(0.796) and `patchtst` ({}, 5 seeds; 0.641 with 10%) in", event("MBA", "patchtst", "100%"), "printed"
    ),  # 0.815
    Bind(
        "and `patchtst` (0.815, {} seeds; 0.641 with 10%) in", event("MBA", "patchtst", "100%", part="seeds"), "printed"
    ),  # 5
    Bind(
        "`patchtst` (0.815, 5 seeds; {} with 10%) in the mean but", event("MBA", "patchtst", "10%"), "printed"
    ),  # 0.641
    Bind(
        "loses to per-variate models: {} with all labels and 0.491", event("BATADAL", "hepa-channel", "100%"), "printed"
    ),  # 0.490
    Bind(
        "0.490 with all labels and {} with 10% (2 seeds), below", event("BATADAL", "hepa-channel", "10%"), "printed"
    ),  # 0.491
    Bind(
        "labels and 0.491 with 10% ({} seeds), below boosting",
        event("BATADAL", "hepa-channel", "10%", part="seeds"),
        "printed",
    ),  # 2
    Bind(
        "(2 seeds), below boosting ({}, 0.586; with all labels one run",
        event("BATADAL", "gbm-last30", "100%"),
        "printed",
    ),  # 0.553
    Bind(
        "below boosting (0.553, {}; with all labels one run", event("BATADAL", "gbm-last30", "10%"), "printed"
    ),  # 0.586
    Bind(
        "mean is lower). - Weather ({} seeds): beside its",
        event("Weather", "hepa-channel", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind(
        "method at both fractions ({} and 0.784, against MAE's", event("Weather", "hepa-channel", "100%"), "printed"
    ),  # 0.797
    Bind(
        "at both fractions (0.797 and {}, against MAE's 0.788 and the",
        event("Weather", "hepa-channel", "10%"),
        "printed",
    ),  # 0.784
    Bind(
        "and 0.784, against MAE's {} and the untrained encoder's", event("Weather", "mae", "100%"), "printed"
    ),  # 0.788
    Bind(
        "and the untrained encoder's {}), above boosting (one run", event("Weather", "hepa-random", "10%"), "printed"
    ),  # 0.763
    Bind(
        "the correction. - ETTm1 ({} seeds): among the lowest",
        event("ETTm1", "hepa-channel", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind(
        "(5 seeds): among the lowest ({} and 0.556; significantly", event("ETTm1", "hepa-channel", "100%"), "printed"
    ),  # 0.612
    Bind(
        "among the lowest (0.612 and {}; significantly below MAE", event("ETTm1", "hepa-channel", "10%"), "printed"
    ),  # 0.556
    Bind("- VIX: {} and 0.538 (5 seeds;", event("VIX", "hepa-channel", "100%"), "printed"),  # 0.650
    Bind("- VIX: 0.650 and {} (5 seeds; above", event("VIX", "hepa-channel", "10%"), "printed"),  # 0.538
    Bind("- VIX: 0.650 and 0.538 ({} seeds; above", event("VIX", "hepa-channel", "100%", part="seeds"), "printed"),  # 5
    Bind("above iTransformer's {} with all labels, not", event("VIX", "itransformer", "100%"), "printed"),  # 0.480
    Bind("scores {} and 0.784 on Weather, as it", event("Weather", "hepa-channel-random", "100%"), "printed"),  # 0.796
    Bind(
        "scores 0.796 and {} on Weather, as it matches", event("Weather", "hepa-channel-random", "10%"), "printed"
    ),  # 0.784
    Bind(
        "the pretrained one on TEP ({} and 0.965); it is 0.777 and",
        event("TEP", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.994
    Bind(
        "one on TEP (0.994 and {}); it is 0.777 and 0.653 on", event("TEP", "hepa-channel-random", "10%"), "printed"
    ),  # 0.965
    Bind(
        "TEP (0.994 and 0.965); it is {} and 0.653 on MBA, 0.596 and",
        event("MBA", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.777
    Bind(
        "and 0.965); it is 0.777 and {} on MBA, 0.596 and 0.565 on",
        event("MBA", "hepa-channel-random", "10%"),
        "printed",
    ),  # 0.653
    Bind(
        "is 0.777 and 0.653 on MBA, {} and 0.565 on ETTm1 (5 seeds",
        event("ETTm1", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.596
    Bind(
        "and 0.653 on MBA, 0.596 and {} on ETTm1 (5 seeds each),",
        event("ETTm1", "hepa-channel-random", "10%"),
        "printed",
    ),  # 0.565
    Bind(
        "0.596 and 0.565 on ETTm1 ({} seeds each), 0.642 and 0.538",
        event("ETTm1", "hepa-channel-random", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind(
        "on ETTm1 (5 seeds each), {} and 0.538 on VIX and 0.504", event("VIX", "hepa-channel-random", "100%"), "printed"
    ),  # 0.642
    Bind(
        "(5 seeds each), 0.642 and {} on VIX and 0.504 and 0.481", event("VIX", "hepa-channel-random", "10%"), "printed"
    ),  # 0.538
    Bind(
        "0.642 and 0.538 on VIX and {} and 0.481 on BATADAL (5",
        event("BATADAL", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.504
    Bind(
        "0.538 on VIX and 0.504 and {} on BATADAL (5 seeds each),",
        event("BATADAL", "hepa-channel-random", "10%"),
        "printed",
    ),  # 0.481
    Bind(
        "0.504 and 0.481 on BATADAL ({} seeds each), level with the",
        event("BATADAL", "hepa-channel-random", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind(
        "has not run, it gives {} and 0.612 (5 seeds), below",
        event("Beijing", "hepa-channel-random", "100%"),
        "printed",
    ),  # 0.662
    Bind(
        "not run, it gives 0.662 and {} (5 seeds), below the patch",
        event("Beijing", "hepa-channel-random", "10%"),
        "printed",
    ),  # 0.612
    Bind(
        "it gives 0.662 and 0.612 ({} seeds), below the patch",
        event("Beijing", "hepa-channel-random", "100%", part="seeds"),
        "printed",
    ),  # 5
    Bind("below the patch encoder ({} and 0.640) and boosting", event("Beijing", "hepa", "100%"), "printed"),  # 0.717
    Bind(
        "the patch encoder (0.717 and {}) and boosting (0.828 and", event("Beijing", "hepa", "10%"), "printed"
    ),  # 0.640
    Bind(
        "and 0.640) and boosting ({} and 0.802; significantly", event("Beijing", "gbm-last30", "100%"), "printed"
    ),  # 0.828
    Bind(
        "and boosting (0.828 and {}; significantly with 10%", event("Beijing", "gbm-last30", "10%"), "printed"
    ),  # 0.802
    Bind(
        "labels, Holm-adjusted p = {}).", event_pair("hepa-channel-random", "gbm-last30", "Beijing", "10%"), "printed"
    ),  # 0.0017
    # --- The authors' code with and without pretraining; the predictor's initialisation
    Bind(
        "| |---|---|---|---| | 0 | {} | 0.9298 | +0.0170 | | 1 |", reference_run("0", "untrained"), "printed"
    ),  # 0.9128
    Bind("| 0 | 0.9128 | {} | +0.0170 | | 1 | 0.9082 |", reference_run("0", "pretrained"), "printed"),  # 0.9298
    Bind(
        "| 0 | 0.9128 | 0.9298 | {} | | 1 | 0.9082 | 0.9133 |", reference_run("0", "difference"), "printed"
    ),  # +0.0170
    Bind(
        "| 0.9298 | +0.0170 | | 1 | {} | 0.9133 | +0.0051 | | 2 |", reference_run("1", "untrained"), "printed"
    ),  # 0.9082
    Bind(
        "| +0.0170 | | 1 | 0.9082 | {} | +0.0051 | | 2 | 0.9293 |", reference_run("1", "pretrained"), "printed"
    ),  # 0.9133
    Bind(
        "| | 1 | 0.9082 | 0.9133 | {} | | 2 | 0.9293 | 0.9328 |", reference_run("1", "difference"), "printed"
    ),  # +0.0051
    Bind(
        "| 0.9133 | +0.0051 | | 2 | {} | 0.9328 | +0.0036 | | 3 |", reference_run("2", "untrained"), "printed"
    ),  # 0.9293
    Bind(
        "| +0.0051 | | 2 | 0.9293 | {} | +0.0036 | | 3 | 0.9241 |", reference_run("2", "pretrained"), "printed"
    ),  # 0.9328
    Bind(
        "| | 2 | 0.9293 | 0.9328 | {} | | 3 | 0.9241 | 0.9085 |", reference_run("2", "difference"), "printed"
    ),  # +0.0036
    Bind(
        "| 0.9328 | +0.0036 | | 3 | {} | 0.9085 | −0.0156 | | 4 |", reference_run("3", "untrained"), "printed"
    ),  # 0.9241
    Bind(
        "| +0.0036 | | 3 | 0.9241 | {} | −0.0156 | | 4 | 0.9259 |", reference_run("3", "pretrained"), "printed"
    ),  # 0.9085
    Bind(
        "| | 3 | 0.9241 | 0.9085 | {} | | 4 | 0.9259 | 0.9078 |", reference_run("3", "difference"), "printed"
    ),  # −0.0156
    Bind(
        "| 0.9085 | −0.0156 | | 4 | {} | 0.9078 | −0.0180 | | mean", reference_run("4", "untrained"), "printed"
    ),  # 0.9259
    Bind(
        "| −0.0156 | | 4 | 0.9259 | {} | −0.0180 | | mean | 0.9201", reference_run("4", "pretrained"), "printed"
    ),  # 0.9078
    Bind(
        "| | 4 | 0.9259 | 0.9078 | {} | | mean | 0.9201 | 0.9185 |", reference_run("4", "difference"), "printed"
    ),  # −0.0180
    Bind(
        "0.9078 | −0.0180 | | mean | {} | 0.9185 | −0.0016 |", reference_run("mean", "untrained"), "printed"
    ),  # 0.9201
    Bind("−0.0180 | | mean | 0.9201 | {} | −0.0016 |", reference_run("mean", "pretrained"), "printed"),  # 0.9185
    Bind("| | mean | 0.9201 | 0.9185 | {} |", reference_run("mean", "difference"), "printed"),  # −0.0016
    Bind(
        "over the five seeds: p = {}. In the authors' own code,",
        Line(REFERENCE_PRETRAINING, r"p = (\d\.\d+);"),
        "printed",
    ),  # 0.821
    Bind(
        "changes h-AUROC by at most ±{}. The harness method",
        Line(PREDICTOR_INIT, r"The paper: within ±(\d\.\d+)"),
        "printed",
    ),  # 0.003
    Bind("| |---|---|---|---| | 0 | {} | 0.9400 | +0.0182 | | 1 |", predictor_init("0", "random"), "printed"),  # 0.9218
    Bind("| 0 | 0.9218 | {} | +0.0182 | | 1 | 0.9721 |", predictor_init("0", "pretrained"), "printed"),  # 0.9400
    Bind(
        "| 0 | 0.9218 | 0.9400 | {} | | 1 | 0.9721 | 0.9649 |", predictor_init("0", "difference"), "printed"
    ),  # +0.0182
    Bind(
        "| 0.9400 | +0.0182 | | 1 | {} | 0.9649 | −0.0072 | | 2 |", predictor_init("1", "random"), "printed"
    ),  # 0.9721
    Bind(
        "| +0.0182 | | 1 | 0.9721 | {} | −0.0072 | | 2 | 0.9546 |", predictor_init("1", "pretrained"), "printed"
    ),  # 0.9649
    Bind(
        "| | 1 | 0.9721 | 0.9649 | {} | | 2 | 0.9546 | 0.9607 |", predictor_init("1", "difference"), "printed"
    ),  # −0.0072
    Bind(
        "| 0.9649 | −0.0072 | | 2 | {} | 0.9607 | +0.0061 | | 3 |", predictor_init("2", "random"), "printed"
    ),  # 0.9546
    Bind(
        "| −0.0072 | | 2 | 0.9546 | {} | +0.0061 | | 3 | 0.9866 |", predictor_init("2", "pretrained"), "printed"
    ),  # 0.9607
    Bind(
        "| | 2 | 0.9546 | 0.9607 | {} | | 3 | 0.9866 | 0.9794 |", predictor_init("2", "difference"), "printed"
    ),  # +0.0061
    Bind(
        "| 0.9607 | +0.0061 | | 3 | {} | 0.9794 | −0.0072 | | 4 |", predictor_init("3", "random"), "printed"
    ),  # 0.9866
    Bind(
        "| +0.0061 | | 3 | 0.9866 | {} | −0.0072 | | 4 | 0.9324 |", predictor_init("3", "pretrained"), "printed"
    ),  # 0.9794
    Bind(
        "| | 3 | 0.9866 | 0.9794 | {} | | 4 | 0.9324 | 0.9337 |", predictor_init("3", "difference"), "printed"
    ),  # −0.0072
    Bind("| 0.9794 | −0.0072 | | 4 | {} | 0.9337 | +0.0014 |", predictor_init("4", "random"), "printed"),  # 0.9324
    Bind("| −0.0072 | | 4 | 0.9324 | {} | +0.0014 |", predictor_init("4", "pretrained"), "printed"),  # 0.9337
    Bind("| | 4 | 0.9324 | 0.9337 | {} |", predictor_init("4", "difference"), "printed"),  # +0.0014
    Bind(
        "Mean difference {} (paired t-test p = 0.661):", Line(PREDICTOR_INIT, r"difference ([+-]\d\.\d+)"), "printed"
    ),  # +0.0022
    Bind(
        "+0.0022 (paired t-test p = {}): as in the paper, the start",
        Line(PREDICTOR_INIT, r"paired t-test p = (\d\.\d+)"),
        "printed",
    ),  # 0.661
    Bind("single seeds move by up to {} either way.", Line(PREDICTOR_INIT, r"to \+(\d\.\d+)\)"), ".3f"),  # 0.018
    # --- The paper's frozen multi-horizon probe
    Bind(
        "predictor's outputs at {} horizons (evenly spaced up",
        Line(MULTI_HORIZON_PROBE, r"probe on (\d+) predictor outputs"),
        "printed",
    ),  # 16
    Bind(
        "protocol, all labels, {} seeds;", Line(MULTI_HORIZON_PROBE, r"^(\d+) seeds, FD001, all labels"), "printed"
    ),  # 5
    Bind(
        "test h-AUROC {} against 0.9046 (paired",
        probe_summary(r".* against (\d\.\d+) \(predictor outputs\)"),
        "printed",
    ),  # 0.8092
    Bind(
        "test h-AUROC 0.8092 against {} (paired t-test p = 0.00722;", probe_summary(r": (\d\.\d+) \(h_t\)"), "printed"
    ),  # 0.9046
    Bind(
        "0.9046 (paired t-test p = {}; lower on every seed), the",
        probe_summary(r".*paired t-test p = (\d\.\d+)"),
        "printed",
    ),  # 0.00722
    Bind(
        "a mean cosine similarity of {}. The paper saw the same with",
        probe_summary(r".*mean cross-horizon cosine (\d\.\d+)"),
        "printed",
    ),  # 0.999995
    Bind(
        "paper saw the same with F1w ({} against 0.299) and a",
        probe_summary(r".*The paper: F1w (\d\.\d+) against"),
        "printed",
    ),  # 0.148
    Bind(
        "same with F1w (0.148 against {}) and a similarity above",
        probe_summary(r".*The paper: F1w \d\.\d+ against (\d\.\d+)"),
        "printed",
    ),  # 0.299
    Bind(
        "and a similarity above {}: the frozen predictor says",
        probe_summary(r".*The paper: .*cosine above (\d\.\d+)"),
        "printed",
    ),  # 0.98
    Bind("the one run of multiscale boosting scores {}) and level", event("Weather", "gbm"), "printed"),
    Bind(
        "or not misses the correction there, adjusted p = {} and",
        event_pair("hepa", "hepa-channel", "ETTm1", "10%"),
        "printed",
    ),
    Bind(
        "misses the correction there, adjusted p = 0.073 and {}).",
        event_pair("hepa-random", "hepa-channel", "ETTm1", "10%"),
        "printed",
    ),
    Bind(
        "not significantly after the correction: adjusted p = {}).",
        event_pair("hepa-channel", "itransformer", "VIX"),
        "printed",
    ),
    # --- the claims table and the untrained-encoder controls: counts over the report's cells
    Bind("a mean at least as high in {} of the 20 C-MAPSS subset ×", Computed(second_not_below, *control_means()), "d"),
    Bind("least as high in 18 of the {} C-MAPSS subset ×", Computed(pair_count, *control_means()), "d"),
    Bind(
        "cells and the higher mean in {} of the 14 event rows; the", Computed(second_above, *event_control_means()), "d"
    ),
    Bind("the higher mean in 10 of the {} event rows; the one", Computed(pair_count, *event_control_means()), "d"),
    Bind(
        "higher h-AUROC (Spearman ρ = {}) | On C-MAPSS the opposite:",
        Line("docs/benchmarks.md", r"the paper reports ρ = (−\d\.\d+) on FD001"),
        "printed",
    ),
    Bind(
        "that ran in none of the {} counted rows | | C-MAPSS",
        Cell("HEPA against each baseline", "hepa", "ahead of every baseline", "second"),
        "printed",
    ),
    Bind("as the pretrained one in {} of the 20 subset ×", Computed(second_not_below, *control_means()), "d"),
    Bind("pretrained one in 18 of the {} subset × label-fraction", Computed(pair_count, *control_means()), "d"),
    Bind(
        "5 seeds), and higher by {} to 0.18 in 13 of the 16",
        Computed(smallest_lead, *control_leads(FRACTIONS[1:])),
        ".2f",
    ),
    Bind(
        "and higher by 0.03 to {} in 13 of the 16 cells with",
        Computed(largest_lead, *control_leads(FRACTIONS[1:])),
        ".2f",
    ),
    Bind(
        "higher by 0.03 to 0.18 in {} of the 16 cells with 10% of",
        Computed(count_leads, *control_leads(FRACTIONS[1:])),
        "d",
    ),
    Bind(
        "by 0.03 to 0.18 in 13 of the {} cells with 10% of the labels",
        Computed(how_many, *control_leads(FRACTIONS[1:])),
        "d",
    ),
    Bind("with the higher mean in {} of 14 rows. The", Computed(second_above, *event_control_means()), "d"),
    Bind("the higher mean in 10 of {} rows. The channel-token", Computed(pair_count, *event_control_means()), "d"),
    Bind(
        "differences of at most {} either way, raw p ≥ 0.70).",
        Computed(
            largest_size,
            *[
                PairDifference(EVENT_PAIRS, "hepa-channel", "hepa-channel-random", d, labels)
                for d in ("Weather", "TEP")
                for labels in ("100%", "10%")
            ],
        ),
        "printed",
    ),
    Bind(
        "0.002 either way, raw p ≥ {}). The gain comes from the",
        Computed(
            smallest,
            *[
                event_pair("hepa-channel", "hepa-channel-random", d, labels, column="paired t p")
                for d in ("Weather", "TEP")
                for labels in ("100%", "10%")
            ],
        ),
        ".2f",
    ),
    # --- ε across datasets (epsilon_correlation.py and the cells rerun for ε)
    Bind(
        "the fixed split's seeds {}-2 on BATADAL, FD001, FD002,",
        Computed(first_seed, *epsilon_rerun_seeds(("BATADAL", "FD001", "FD002", "FD003", "FD004"))),
        "d",
    ),
    Bind(
        "the fixed split's seeds 0-{} on BATADAL, FD001, FD002,",
        Computed(last_seed, *epsilon_rerun_seeds(("BATADAL", "FD001", "FD002", "FD003", "FD004"))),
        "d",
    ),
    Bind(
        "FD002, FD003 and FD004, seed {} on Weather, the rolling",
        Computed(only_seed, *epsilon_rerun_seeds(("Weather",))),
        "d",
    ),
    Bind(
        "the rolling origin's seed {} on MBA, ETTm1 and Beijing;",
        Computed(only_seed, *epsilon_rerun_seeds(("MBA", "ETTm1", "Beijing"), split="rolling")),
        "d",
    ),
    Bind(
        "seed-0 rerun scores {} where its benchmark record",
        Records(EPSILON_RECORDS, dict(dataset="BATADAL", seed=0), "h_auroc", how="one"),
        ".3f",
    ),
    Bind(
        "its benchmark record has {}). Within a dataset ε hardly",
        Records(
            EVENT_RECORDS,
            dict(dataset="BATADAL", method="hepa", seed=0, fraction=1.0, split=None),
            "h_auroc",
            how="one",
        ),
        ".4f",
    ),
    Bind(
        "to seed (standard deviation {} to 0.0016), while it ranges",
        Computed(
            smallest_value,
            *[
                epsilon_row(d, "ε's standard deviation across records")
                for d in ("FD001", "FD002", "FD003", "FD004", *EVENT_DATASETS)
                if d != "TEP"
            ],
        ),
        "printed",
    ),
    Bind(
        "deviation 0.0001 to {}), while it ranges from",
        Computed(
            largest_value,
            *[
                epsilon_row(d, "ε's standard deviation across records")
                for d in ("FD001", "FD002", "FD003", "FD004", *EVENT_DATASETS)
                if d != "TEP"
            ],
        ),
        "printed",
    ),
    Bind("while it ranges from {} (FD003) to 0.0533 (FD002,", epsilon_row("FD003", "ε (valid_jepa_l1)"), "printed"),
    Bind("from 0.0421 (FD003) to {} (FD002, FD004) across", epsilon_row("FD002", "ε (valid_jepa_l1)"), "printed"),
    Bind(
        "ten datasets Pearson's r = {} (p = 0.461) and Spearman's ρ",
        epsilon_summary(r"Pearson's r (-?\d\.\d+)"),
        "printed",
    ),
    Bind(
        "Pearson's r = −0.264 (p = {}) and Spearman's ρ = −0.188",
        epsilon_summary(r"Pearson's r -?\d\.\d+ \(p = (\d\.\d+)\)"),
        "printed",
    ),
    Bind("= 0.461) and Spearman's ρ = {} (p = 0.603)", epsilon_summary(r".*Spearman's rho (-?\d\.\d+)"), "printed"),
    Bind("Spearman's ρ = −0.188 (p = {})", epsilon_summary(r".*Spearman's rho -?\d\.\d+ \(p = (\d\.\d+)\)"), "printed"),
    Bind(
        "the paper, across its {} datasets, quotes Pearson r =",
        epsilon_summary(r".*across its (\d+) datasets"),
        "printed",
    ),
    Bind(
        "datasets, quotes Pearson r = {} (p = 0.90) and reads it as ε",
        epsilon_summary(r".*The paper \(quoted\): Pearson r = (-?\d\.\d+)"),
        "printed",
    ),
    Bind(
        "Pearson r = −0.05 (p = {}) and reads it as ε not being",
        epsilon_summary(r".*The paper \(quoted\): Pearson r = -?\d\.\d+ \(p = (\d\.\d+)\)"),
        "printed",
    ),
    Bind("the best-scored (FD003, {}) and the worst (Weather,", epsilon_row("FD003", "h-AUROC"), "printed"),
    Bind("and the worst (Weather, {}). Among the four C-MAPSS", epsilon_row("Weather", "h-AUROC"), "printed"),
    # --- the embedding geometry (embedding_pca.py, seed 0)
    Bind("on the test windows of seed {}, with Spearman's ρ between", Line(EMBEDDING_PCA, r"; seed (\d+);"), "printed"),
    Bind("| FD001 | pretrained | {} | 0.348 | | FD001 |", embedding("FD001", "pretrained", "pc1_share"), ".3f"),
    Bind(
        "FD001 | pretrained | 0.533 | {} | | FD001 | untrained |",
        embedding("FD001", "pretrained", "spearman_rho_pc1_time"),
        ".3f",
    ),
    Bind("| | FD001 | untrained | {} | 0.874 | | ETTm1 |", embedding("FD001", "untrained", "pc1_share"), ".3f"),
    Bind(
        "FD001 | untrained | 0.489 | {} | | ETTm1 | pretrained |",
        embedding("FD001", "untrained", "spearman_rho_pc1_time"),
        ".3f",
    ),
    Bind("| | ETTm1 | pretrained | {} | −0.050 | | ETTm1 |", embedding("ETTm1", "pretrained", "pc1_share"), ".3f"),
    Bind(
        "ETTm1 | pretrained | 0.323 | {} | | ETTm1 | untrained |",
        embedding("ETTm1", "pretrained", "spearman_rho_pc1_time"),
        ".3f",
    ),
    Bind("| | ETTm1 | untrained | {} | −0.060 | | MBA |", embedding("ETTm1", "untrained", "pc1_share"), ".3f"),
    Bind(
        "ETTm1 | untrained | 0.337 | {} | | MBA | pretrained | 0.294",
        embedding("ETTm1", "untrained", "spearman_rho_pc1_time"),
        ".3f",
    ),
    Bind("| | MBA | pretrained | {} | 0.092 | | MBA | untrained", embedding("MBA", "pretrained", "pc1_share"), ".3f"),
    Bind(
        "| MBA | pretrained | 0.294 | {} | | MBA | untrained | 0.250",
        embedding("MBA", "pretrained", "spearman_rho_pc1_time"),
        ".3f",
    ),
    Bind("0.092 | | MBA | untrained | {} | −0.006 |", embedding("MBA", "untrained", "pc1_share"), ".3f"),
    Bind("| MBA | untrained | 0.250 | {} |", embedding("MBA", "untrained", "spearman_rho_pc1_time"), ".3f"),
    Bind(
        "closely. Within each of the {} test engines, as the paper",
        embedding("FD001", "pretrained", "n_units", per_engine=True),
        "d",
    ),
    Bind(
        "counts it, the median ρ is {} for the pretrained encoder",
        embedding("FD001", "pretrained", "median_unit_spearman_rho", per_engine=True),
        ".3f",
    ),
    Bind(
        "the pretrained encoder and {} for the untrained one",
        embedding("FD001", "untrained", "median_unit_spearman_rho", per_engine=True),
        ".3f",
    ),
    Bind("and on this seed {} epochs of JEPA blur it. On", embedding("FD001", "pretrained", "pretrain_epochs"), "d"),
    # --- the predictor's outputs across horizons (predictor_outputs.py, seed 0)
    Bind("outputs ĥ(t, k) at k = {}, 50, 100 and reads that the", predictor_outputs("FD001", "horizons.0"), "d"),
    Bind("outputs ĥ(t, k) at k = 10, {}, 100 and reads that the", predictor_outputs("FD001", "horizons.1"), "d"),
    Bind("ĥ(t, k) at k = 10, 50, {} and reads that the outputs", predictor_outputs("FD001", "horizons.2"), "d"),
    Bind("| dataset | shift at k = {} / 50 / 100 | cosine of ĥ(t,", predictor_outputs("FD001", "horizons.0"), "d"),
    Bind("| dataset | shift at k = 10 / {} / 100 | cosine of ĥ(t, k)", predictor_outputs("FD001", "horizons.1"), "d"),
    Bind("| shift at k = 10 / 50 / {} | cosine of ĥ(t, k) with h_t", predictor_outputs("FD001", "horizons.2"), "d"),
    Bind("of ĥ(t, k) with h_t at k = {} / 50 / 100 | |---|---|---| |", predictor_outputs("FD001", "horizons.0"), "d"),
    Bind("ĥ(t, k) with h_t at k = 10 / {} / 100 | |---|---|---| |", predictor_outputs("FD001", "horizons.1"), "d"),
    Bind("k) with h_t at k = 10 / 50 / {} | |---|---|---| | FD001 |", predictor_outputs("FD001", "horizons.2"), "d"),
    Bind("from their embeddings at k = {} as at k = 100 (the shift", predictor_outputs("FD001", "horizons.0"), "d"),
    Bind("at k = 10 as at k = {} (the shift grows by 1 % on", predictor_outputs("FD001", "horizons.2"), "d"),
    Bind("outputs at horizons {}, 50 and 100, FD001 and", predictor_outputs("FD001", "horizons.0"), "d"),
    Bind("outputs at horizons 10, {} and 100, FD001 and", predictor_outputs("FD001", "horizons.1"), "d"),
    Bind("at horizons 10, 50 and {}, FD001 and", predictor_outputs("FD001", "horizons.2"), "d"),
    Bind("and event predictor, seed {}, test windows", predictor_outputs("FD001", "seed"), "d"),
    Bind(
        "| |---|---|---| | FD001 | {} / 1.211 / 1.225 | −0.065 /", predictor_output("FD001", "relative_shift.0"), ".3f"
    ),
    Bind("| FD001 | 1.208 / {} / 1.225 | −0.065 / −0.047 /", predictor_output("FD001", "relative_shift.1"), ".3f"),
    Bind(
        "| FD001 | 1.208 / 1.211 / {} | −0.065 / −0.047 / −0.027 |",
        predictor_output("FD001", "relative_shift.2"),
        ".3f",
    ),
    Bind(
        "| 1.208 / 1.211 / 1.225 | {} / −0.047 / −0.027 | | MBA |",
        predictor_output("FD001", "cosine_with_embedding.0"),
        ".3f",
    ),
    Bind(
        "/ 1.211 / 1.225 | −0.065 / {} / −0.027 | | MBA | 1.476 /",
        predictor_output("FD001", "cosine_with_embedding.1"),
        ".3f",
    ),
    Bind(
        "/ 1.225 | −0.065 / −0.047 / {} | | MBA | 1.476 / 1.490 /",
        predictor_output("FD001", "cosine_with_embedding.2"),
        ".3f",
    ),
    Bind(
        "/ −0.047 / −0.027 | | MBA | {} / 1.490 / 1.553 | 0.015 /", predictor_output("MBA", "relative_shift.0"), ".3f"
    ),
    Bind("/ −0.027 | | MBA | 1.476 / {} / 1.553 | 0.015 / 0.027 /", predictor_output("MBA", "relative_shift.1"), ".3f"),
    Bind("| | MBA | 1.476 / 1.490 / {} | 0.015 / 0.027 / 0.035 |", predictor_output("MBA", "relative_shift.2"), ".3f"),
    Bind("| 1.476 / 1.490 / 1.553 | {} / 0.027 / 0.035 |", predictor_output("MBA", "cosine_with_embedding.0"), ".3f"),
    Bind("/ 1.490 / 1.553 | 0.015 / {} / 0.035 |", predictor_output("MBA", "cosine_with_embedding.1"), ".3f"),
    Bind("/ 1.553 | 0.015 / 0.027 / {} |", predictor_output("MBA", "cosine_with_embedding.2"), ".3f"),
    Bind(
        "k = 100 (the shift grows by {} % on FD001, 5 % on MBA), and",
        Computed(growth, predictor_outputs("FD001", "relative_shift")),
        "percent .0",
    ),
    Bind(
        "shift grows by 1 % on FD001, {} % on MBA), and nearly",
        Computed(growth, predictor_outputs("MBA", "relative_shift")),
        "percent .0",
    ),
    # --- remedies tried
    Bind(
        "representation, five seeds; {} times the unlabelled",
        Computed(
            "ratio",
            Records(MORE_UNLABELLED, dict(seed=0, pretraining="own+FD003", epoch=0), "n_pretrain_windows", how="one"),
            Records(MORE_UNLABELLED, dict(seed=0, pretraining="own", epoch=0), "n_pretrain_windows", how="one"),
        ),
        ".1f",
    ),
    # --- choosing the defaults
    Bind(
        "operating regimes (FD002 {}, FD004 0.602; report table",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa-default"),
        "printed",
    ),
    Bind(
        'regimes (FD002 0.520, FD004 {}; report table "h-AUROC, 100%',
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa-default"),
        "printed",
    ),
    Bind("| FD001 | {} | 0.932 | 0.969 | 0.983 |", screen("FD001", "`hepa-default`"), "printed"),  # 0.959
    Bind(
        "| FD001 | 0.959 | {} | 0.969 | 0.983 | 0.978 | |", screen("FD001", "`hepa-default-untrained`"), "printed"
    ),  # 0.932
    Bind(
        "| FD001 | 0.959 | 0.932 | {} | 0.983 | 0.978 | | FD002 |", screen("FD001", "`hepa-default-regime0`"), "printed"
    ),  # 0.969
    Bind(
        "| 0.959 | 0.932 | 0.969 | {} | 0.978 | | FD002 | 0.515 |",
        screen("FD001", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.983
    Bind(
        "| 0.932 | 0.969 | 0.983 | {} | | FD002 | 0.515 | 0.772 |", screen("FD001", "`hepa-default-auto0`"), "printed"
    ),  # 0.978
    Bind(
        "| 0.983 | 0.978 | | FD002 | {} | 0.772 | 0.976 | 0.982 |", screen("FD002", "`hepa-default`"), "printed"
    ),  # 0.515
    Bind(
        "| 0.978 | | FD002 | 0.515 | {} | 0.976 | 0.982 | 0.982 | |",
        screen("FD002", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.772
    Bind(
        "| | FD002 | 0.515 | 0.772 | {} | 0.982 | 0.982 | | FD003 |",
        screen("FD002", "`hepa-default-regime0`"),
        "printed",
    ),  # 0.976
    Bind(
        "| 0.515 | 0.772 | 0.976 | {} | 0.982 | | FD003 | 0.977 |",
        screen("FD002", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.982
    Bind(
        "| 0.772 | 0.976 | 0.982 | {} | | FD003 | 0.977 | 0.979 |", screen("FD002", "`hepa-default-auto0`"), "printed"
    ),  # 0.982
    Bind(
        "| 0.982 | 0.982 | | FD003 | {} | 0.979 | 0.990 | 0.989 |", screen("FD003", "`hepa-default`"), "printed"
    ),  # 0.977
    Bind(
        "| 0.982 | | FD003 | 0.977 | {} | 0.990 | 0.989 | 0.984 | |",
        screen("FD003", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.979
    Bind(
        "| | FD003 | 0.977 | 0.979 | {} | 0.989 | 0.984 | | FD004 |",
        screen("FD003", "`hepa-default-regime0`"),
        "printed",
    ),  # 0.990
    Bind(
        "| 0.977 | 0.979 | 0.990 | {} | 0.984 | | FD004 | 0.624 |",
        screen("FD003", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.989
    Bind(
        "| 0.979 | 0.990 | 0.989 | {} | | FD004 | 0.624 | 0.801 |", screen("FD003", "`hepa-default-auto0`"), "printed"
    ),  # 0.984
    Bind(
        "| 0.989 | 0.984 | | FD004 | {} | 0.801 | 0.938 | 0.944 |", screen("FD004", "`hepa-default`"), "printed"
    ),  # 0.624
    Bind(
        "| 0.984 | | FD004 | 0.624 | {} | 0.938 | 0.944 | 0.941 | |",
        screen("FD004", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.801
    Bind(
        "| | FD004 | 0.624 | 0.801 | {} | 0.944 | 0.941 | | ETTm1 |",
        screen("FD004", "`hepa-default-regime0`"),
        "printed",
    ),  # 0.938
    Bind(
        "| 0.624 | 0.801 | 0.938 | {} | 0.941 | | ETTm1 | 0.834 |",
        screen("FD004", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.944
    Bind(
        "| 0.801 | 0.938 | 0.944 | {} | | ETTm1 | 0.834 | 0.828 |", screen("FD004", "`hepa-default-auto0`"), "printed"
    ),  # 0.941
    Bind(
        "| 0.944 | 0.941 | | ETTm1 | {} | 0.828 | 0.692 | 0.820 |", screen("ETTm1", "`hepa-default`"), "printed"
    ),  # 0.834
    Bind(
        "| 0.941 | | ETTm1 | 0.834 | {} | 0.692 | 0.820 | 0.819 | |",
        screen("ETTm1", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.828
    Bind(
        "| | ETTm1 | 0.834 | 0.828 | {} | 0.820 | 0.819 | | VIX |", screen("ETTm1", "`hepa-default-regime0`"), "printed"
    ),  # 0.692
    Bind(
        "| 0.834 | 0.828 | 0.692 | {} | 0.819 | | VIX | 0.570 |",
        screen("ETTm1", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.820
    Bind(
        "| 0.828 | 0.692 | 0.820 | {} | | VIX | 0.570 | 0.270 |", screen("ETTm1", "`hepa-default-auto0`"), "printed"
    ),  # 0.819
    Bind("| 0.820 | 0.819 | | VIX | {} | 0.270 | 0.762 | 0.747 |", screen("VIX", "`hepa-default`"), "printed"),  # 0.570
    Bind(
        "| 0.819 | | VIX | 0.570 | {} | 0.762 | 0.747 | 0.752 | |", screen("VIX", "`hepa-default-untrained`"), "printed"
    ),  # 0.270
    Bind(
        "| | VIX | 0.570 | 0.270 | {} | 0.747 | 0.752 | | Weather", screen("VIX", "`hepa-default-regime0`"), "printed"
    ),  # 0.762
    Bind(
        "| 0.570 | 0.270 | 0.762 | {} | 0.752 | | Weather | 0.628",
        screen("VIX", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.747
    Bind(
        "| 0.270 | 0.762 | 0.747 | {} | | Weather | 0.628 | 0.788", screen("VIX", "`hepa-default-auto0`"), "printed"
    ),  # 0.752
    Bind(
        "0.747 | 0.752 | | Weather | {} | 0.788 | 0.808 | 0.783 |", screen("Weather", "`hepa-default`"), "printed"
    ),  # 0.628
    Bind(
        "0.752 | | Weather | 0.628 | {} | 0.808 | 0.783 | 0.804 | |",
        screen("Weather", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.788
    Bind(
        "| Weather | 0.628 | 0.788 | {} | 0.783 | 0.804 | | Beijing",
        screen("Weather", "`hepa-default-regime0`"),
        "printed",
    ),  # 0.808
    Bind(
        "| 0.628 | 0.788 | 0.808 | {} | 0.804 | | Beijing | 0.689",
        screen("Weather", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.783
    Bind(
        "| 0.788 | 0.808 | 0.783 | {} | | Beijing | 0.689 | 0.673", screen("Weather", "`hepa-default-auto0`"), "printed"
    ),  # 0.804
    Bind(
        "0.783 | 0.804 | | Beijing | {} | 0.673 | 0.741 | 0.693 |", screen("Beijing", "`hepa-default`"), "printed"
    ),  # 0.689
    Bind(
        "0.804 | | Beijing | 0.689 | {} | 0.741 | 0.693 | 0.698 | |",
        screen("Beijing", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.673
    Bind(
        "| Beijing | 0.689 | 0.673 | {} | 0.693 | 0.698 | | MBA |",
        screen("Beijing", "`hepa-default-regime0`"),
        "printed",
    ),  # 0.741
    Bind(
        "| 0.689 | 0.673 | 0.741 | {} | 0.698 | | MBA | 0.667 |",
        screen("Beijing", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.693
    Bind(
        "| 0.673 | 0.741 | 0.693 | {} | | MBA | 0.667 | 0.731 |", screen("Beijing", "`hepa-default-auto0`"), "printed"
    ),  # 0.698
    Bind("| 0.693 | 0.698 | | MBA | {} | 0.731 | 0.681 | 0.734 |", screen("MBA", "`hepa-default`"), "printed"),  # 0.667
    Bind(
        "| 0.698 | | MBA | 0.667 | {} | 0.681 | 0.734 | 0.709 | |", screen("MBA", "`hepa-default-untrained`"), "printed"
    ),  # 0.731
    Bind(
        "| | MBA | 0.667 | 0.731 | {} | 0.734 | 0.709 | | BATADAL", screen("MBA", "`hepa-default-regime0`"), "printed"
    ),  # 0.681
    Bind(
        "| 0.667 | 0.731 | 0.681 | {} | 0.709 | | BATADAL | 0.455",
        screen("MBA", "`hepa-default-auto0-spread`"),
        "printed",
    ),  # 0.734
    Bind(
        "| 0.731 | 0.681 | 0.734 | {} | | BATADAL | 0.455 | 0.443", screen("MBA", "`hepa-default-auto0`"), "printed"
    ),  # 0.709
    Bind(
        "0.734 | 0.709 | | BATADAL | {} | 0.443 | 0.401 | 0.296 |", screen("BATADAL", "`hepa-default`"), "printed"
    ),  # 0.455
    Bind(
        "0.709 | | BATADAL | 0.455 | {} | 0.401 | 0.296 | 0.443 |",
        screen("BATADAL", "`hepa-default-untrained`"),
        "printed",
    ),  # 0.443
    Bind(
        "| BATADAL | 0.455 | 0.443 | {} | 0.296 | 0.443 |", screen("BATADAL", "`hepa-default-regime0`"), "printed"
    ),  # 0.401
    Bind(
        "| 0.455 | 0.443 | 0.401 | {} | 0.443 |", screen("BATADAL", "`hepa-default-auto0-spread`"), "printed"
    ),  # 0.296
    Bind("| 0.443 | 0.401 | 0.296 | {} |", screen("BATADAL", "`hepa-default-auto0`"), "printed"),  # 0.443
    Bind(
        "the best variants but loses {} on ETTm1, a single drifting",
        screen_summary("hepa-default-regime0", "shortfall"),
        "printed",
    ),
    Bind(
        "RevIN encoder loses {} on VIX. The first form of",
        screen_summary("hepa-default-untrained", "shortfall"),
        "printed",
    ),
    Bind(
        "beside the embedding) lost {} on BATADAL; of the designs",
        screen_summary("hepa-default-auto0-spread", "shortfall"),
        "printed",
    ),
    Bind(
        "two means alone came within {} there and kept VIX (0.739",
        Computed("difference", level_variant("BATADAL", "hepa-default"), level_variant("BATADAL", "means")),
        ".3f",
    ),
    Bind("0.012 there and kept VIX ({} over seeds 0 and 1) and", level_variant("VIX", "means"), "printed"),
    Bind('seeds 0 and 1) and ETTm1 ({}), and became `norm="auto"`.', level_variant("ETTm1", "means"), "printed"),
    Bind(
        "candidate (largest shortfall {}, on ETTm1) and has the best",
        screen_summary("hepa-default-auto0", "shortfall"),
        "printed",
    ),
    Bind(
        "and has the best mean rank ({}), so the defaults of release",
        screen_summary("hepa-default-auto0", "rank"),
        "printed",
    ),
    Bind("Judged on test units ({} seeds;", judgement("FD001", "100%", "`hepa-default-auto0`", "second"), "printed"),
    Bind(
        "after Holm's correction) on {} of 20 rows. With all labels",
        Computed(rows_meeting_all, *judgement_conditions()),
        "d",
    ),
    Bind(
        "Holm's correction) on 13 of {} rows. With all labels it", Computed(rows_judged, *judgement_conditions()), "d"
    ),
    Bind(
        "all labels it scores FD001 {}, FD002 0.978, FD003 0.984,",
        judgement("FD001", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "it scores FD001 0.976, FD002 {}, FD003 0.984, FD004 0.971,",
        judgement("FD002", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.976, FD002 0.978, FD003 {}, FD004 0.971, MBA 0.870,",
        judgement("FD003", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.978, FD003 0.984, FD004 {}, MBA 0.870, ETTm1 0.780,",
        judgement("FD004", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.984, FD004 0.971, MBA {}, ETTm1 0.780, Weather 0.781,",
        judgement("MBA", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.971, MBA 0.870, ETTm1 {}, Weather 0.781, Beijing",
        judgement("ETTm1", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.870, ETTm1 0.780, Weather {}, Beijing 0.796 and VIX",
        judgement("Weather", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "Weather 0.781, Beijing {} and VIX 0.750; it is",
        judgement("Beijing", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.781, Beijing 0.796 and VIX {}; it is significantly above",
        judgement("VIX", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "BATADAL with all labels ({} against 0.552, Holm p =",
        judgement("BATADAL", "100%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "all labels (0.233 against {}, Holm p = 0.0193), where it",
        judgement("BATADAL", "100%", "`hepa-default`"),
        "printed",
    ),
    Bind("against 0.552, Holm p = {}), where it is below chance.", judgement("BATADAL", "100%", "Holm p"), "printed"),
    Bind(
        "the 0.2.0 defaults, on all {} rows (seeds 0 and 1,",
        Line(DEFAULT_ROUND2, r"screened on \d+ of (\d+) rows"),
        "printed",
    ),
    Bind("units). It is ahead on {} rows (FD001 with 10 % labels", Computed(second_above, *round2_pairs()), "d"),
    Bind(
        "rows (FD001 with 10 % labels {} against 0.966, FD002 0.971",
        round2("FD001", "10%", "`hepa-default-trend0`"),
        "printed",
    ),
    Bind(
        "10 % labels 0.985 against {}, FD002 0.971 against 0.941)",
        round2("FD001", "10%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.985 against 0.966, FD002 {} against 0.941) but far",
        round2("FD002", "10%", "`hepa-default-trend0`"),
        "printed",
    ),
    Bind(
        "0.966, FD002 0.971 against {}) but far behind with few",
        round2("FD002", "10%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "(BATADAL with 10 % labels {} against 0.740, Weather 0.626",
        round2("BATADAL", "10%", "`hepa-default-trend0`"),
        "printed",
    ),
    Bind(
        "10 % labels 0.475 against {}, Weather 0.626 against",
        round2("BATADAL", "10%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.475 against 0.740, Weather {} against 0.711, MBA 0.485",
        round2("Weather", "10%", "`hepa-default-trend0`"),
        "printed",
    ),
    Bind(
        "0.740, Weather 0.626 against {}, MBA 0.485 against 0.567):",
        round2("Weather", "10%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind("0.626 against 0.711, MBA {} against 0.567): not", round2("MBA", "10%", "`hepa-default-trend0`"), "printed"),
    Bind(
        "0.711, MBA 0.485 against {}): not eligible, so the 0.2.0",
        round2("MBA", "10%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind("lifts VIX with 10 % labels ({} against 0.703) but costs", screened("hepa-default-auto0-nll", "VIX"), ".3f"),
    Bind(
        "10 % labels (0.738 against {}) but costs Weather 0.067.",
        round2("VIX", "10%", "`hepa-default-auto0`"),
        "printed",
    ),
    Bind(
        "0.703) but costs Weather {}.",
        Computed(
            "difference",
            round2("Weather", "10%", "`hepa-default-auto0`"),
            screened("hepa-default-auto0-nll", "Weather"),
        ),
        ".3f",
    ),
    Bind(
        "(the event head at 12 horizons) on all {} training windows of FD002",
        Records(FIRST_FIT, dict(subset="FD002", params={}), "n_train_windows", how="one"),
        ",d",
    ),
    # --- C-MAPSS under the reference protocol
    Bind(
        "labelled (mean ± std over {} seeds; every cell in the", Cell(HAUROC_100, "FD001", "hepa", "seeds"), "printed"
    ),
    Bind(
        "| FD001 | {} ± 0.022 | 0.962 ± 0.022 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "hepa", "mean"),
        "printed",
    ),  # 0.957
    Bind(
        "| FD001 | 0.957 ± {} | 0.962 ± 0.022 | 0.988 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "hepa", "sd"),
        "printed",
    ),  # 0.022
    Bind(
        "| FD001 | 0.957 ± 0.022 | {} ± 0.022 | 0.988 ± 0.004 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "hepa-random", "mean"),
        "printed",
    ),  # 0.962
    Bind(
        "| 0.957 ± 0.022 | 0.962 ± {} | 0.988 ± 0.004 | 0.989 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "hepa-random", "sd"),
        "printed",
    ),  # 0.022
    Bind(
        "± 0.022 | 0.962 ± 0.022 | {} ± 0.004 | 0.989 ± 0.006 | —",
        label_eff("FD001", "hepa-e2e", "100%", "mean"),
        "printed",
    ),  # 0.988
    Bind(
        "| 0.962 ± 0.022 | 0.988 ± {} | 0.989 ± 0.006 | — | — |",
        label_eff("FD001", "hepa-e2e", "100%", "sd"),
        "printed",
    ),  # 0.004
    Bind(
        "± 0.022 | 0.988 ± 0.004 | {} ± 0.006 | — | — | 0.972 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "hepa-random-e2e", "mean"),
        "printed",
    ),  # 0.989
    Bind(
        "| 0.988 ± 0.004 | 0.989 ± {} | — | — | 0.972 ± 0.007 | —",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "hepa-random-e2e", "sd"),
        "printed",
    ),  # 0.006
    Bind(
        "| 0.989 ± 0.006 | — | — | {} ± 0.007 | — | 0.918 ± 0.008",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "gbm-last30", "mean"),
        "printed",
    ),  # 0.972
    Bind(
        "± 0.006 | — | — | 0.972 ± {} | — | 0.918 ± 0.008 | |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "gbm-last30", "sd"),
        "printed",
    ),  # 0.007
    Bind(
        "— | — | 0.972 ± 0.007 | — | {} ± 0.008 | | FD002 | 0.773 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "authors' implementation", "mean"),
        "printed",
    ),  # 0.918
    Bind(
        "0.972 ± 0.007 | — | 0.918 ± {} | | FD002 | 0.773 ± 0.039 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "authors' implementation", "sd"),
        "printed",
    ),  # 0.008
    Bind(
        "| 0.918 ± 0.008 | | FD002 | {} ± 0.039 | — | — | — | 0.974",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa", "mean"),
        "printed",
    ),  # 0.773
    Bind(
        "± 0.008 | | FD002 | 0.773 ± {} | — | — | — | 0.974 ± 0.010",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa", "sd"),
        "printed",
    ),  # 0.039
    Bind(
        "0.773 ± 0.039 | — | — | — | {} ± 0.010 | 0.956 ± 0.008 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa-regime", "mean"),
        "printed",
    ),  # 0.974
    Bind(
        "0.039 | — | — | — | 0.974 ± {} | 0.956 ± 0.008 | 0.931 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa-regime", "sd"),
        "printed",
    ),  # 0.010
    Bind(
        "— | — | — | 0.974 ± 0.010 | {} ± 0.008 | 0.931 ± 0.007 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa-random-regime", "mean"),
        "printed",
    ),  # 0.956
    Bind(
        "— | 0.974 ± 0.010 | 0.956 ± {} | 0.931 ± 0.007 | 0.966 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "hepa-random-regime", "sd"),
        "printed",
    ),  # 0.008
    Bind(
        "± 0.010 | 0.956 ± 0.008 | {} ± 0.007 | 0.966 ± 0.005 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "gbm-last30", "mean"),
        "printed",
    ),  # 0.931
    Bind(
        "| 0.956 ± 0.008 | 0.931 ± {} | 0.966 ± 0.005 | 0.661 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "gbm-last30", "sd"),
        "printed",
    ),  # 0.007
    Bind(
        "± 0.008 | 0.931 ± 0.007 | {} ± 0.005 | 0.661 ± 0.007 | |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "gbm-regime-last30", "mean"),
        "printed",
    ),  # 0.966
    Bind(
        "| 0.931 ± 0.007 | 0.966 ± {} | 0.661 ± 0.007 | | FD003 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "gbm-regime-last30", "sd"),
        "printed",
    ),  # 0.005
    Bind(
        "± 0.007 | 0.966 ± 0.005 | {} ± 0.007 | | FD003 | 0.983 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "authors' implementation", "mean"),
        "printed",
    ),  # 0.661
    Bind(
        "| 0.966 ± 0.005 | 0.661 ± {} | | FD003 | 0.983 ± 0.003 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD002", "authors' implementation", "sd"),
        "printed",
    ),  # 0.007
    Bind(
        "| 0.661 ± 0.007 | | FD003 | {} ± 0.003 | 0.986 ± 0.003 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "hepa", "mean"),
        "printed",
    ),  # 0.983
    Bind(
        "± 0.007 | | FD003 | 0.983 ± {} | 0.986 ± 0.003 | 0.992 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "hepa", "sd"),
        "printed",
    ),  # 0.003
    Bind(
        "| | FD003 | 0.983 ± 0.003 | {} ± 0.003 | 0.992 ± 0.002 | —",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "hepa-random", "mean"),
        "printed",
    ),  # 0.986
    Bind(
        "| 0.983 ± 0.003 | 0.986 ± {} | 0.992 ± 0.002 | — | — | —",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "hepa-random", "sd"),
        "printed",
    ),  # 0.003
    Bind(
        "± 0.003 | 0.986 ± 0.003 | {} ± 0.002 | — | — | — | 0.985",
        label_eff("FD003", "hepa-e2e", "100%", "mean"),
        "printed",
    ),  # 0.992
    Bind(
        "| 0.986 ± 0.003 | 0.992 ± {} | — | — | — | 0.985 ± 0.003",
        label_eff("FD003", "hepa-e2e", "100%", "sd"),
        "printed",
    ),  # 0.002
    Bind(
        "0.992 ± 0.002 | — | — | — | {} ± 0.003 | — | 0.960 ± 0.003",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "gbm-last30", "mean"),
        "printed",
    ),  # 0.985
    Bind(
        "0.002 | — | — | — | 0.985 ± {} | — | 0.960 ± 0.003 | |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "gbm-last30", "sd"),
        "printed",
    ),  # 0.003
    Bind(
        "— | — | 0.985 ± 0.003 | — | {} ± 0.003 | | FD004 | 0.841 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "authors' implementation", "mean"),
        "printed",
    ),  # 0.960
    Bind(
        "0.985 ± 0.003 | — | 0.960 ± {} | | FD004 | 0.841 ± 0.006 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "authors' implementation", "sd"),
        "printed",
    ),  # 0.003
    Bind(
        "| 0.960 ± 0.003 | | FD004 | {} ± 0.006 | — | — | — | 0.967",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa", "mean"),
        "printed",
    ),  # 0.841
    Bind(
        "± 0.003 | | FD004 | 0.841 ± {} | — | — | — | 0.967 ± 0.006",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa", "sd"),
        "printed",
    ),  # 0.006
    Bind(
        "0.841 ± 0.006 | — | — | — | {} ± 0.006 | 0.969 ± 0.005 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa-regime", "mean"),
        "printed",
    ),  # 0.967
    Bind(
        "0.006 | — | — | — | 0.967 ± {} | 0.969 ± 0.005 | 0.929 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa-regime", "sd"),
        "printed",
    ),  # 0.006
    Bind(
        "— | — | — | 0.967 ± 0.006 | {} ± 0.005 | 0.929 ± 0.012 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa-random-regime", "mean"),
        "printed",
    ),  # 0.969
    Bind(
        "— | 0.967 ± 0.006 | 0.969 ± {} | 0.929 ± 0.012 | 0.967 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "hepa-random-regime", "sd"),
        "printed",
    ),  # 0.005
    Bind(
        "± 0.006 | 0.969 ± 0.005 | {} ± 0.012 | 0.967 ± 0.007 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "gbm-last30", "mean"),
        "printed",
    ),  # 0.929
    Bind(
        "| 0.969 ± 0.005 | 0.929 ± {} | 0.967 ± 0.007 | 0.627 ±",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "gbm-last30", "sd"),
        "printed",
    ),  # 0.012
    Bind(
        "± 0.005 | 0.929 ± 0.012 | {} ± 0.007 | 0.627 ± 0.008 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "gbm-regime-last30", "mean"),
        "printed",
    ),  # 0.967
    Bind(
        "| 0.929 ± 0.012 | 0.967 ± {} | 0.627 ± 0.008 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "gbm-regime-last30", "sd"),
        "printed",
    ),  # 0.007
    Bind(
        "± 0.012 | 0.967 ± 0.007 | {} ± 0.008 |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "authors' implementation", "mean"),
        "printed",
    ),  # 0.627
    Bind(
        "| 0.967 ± 0.007 | 0.627 ± {} |",
        Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD004", "authors' implementation", "sd"),
        "printed",
    ),  # 0.008
    Bind(
        "the report cannot go below {} on 5 seeds):",
        Line("docs/benchmarks.md", r"smallest two-sided p is 2/2\^5 = (\d\.\d+)"),
        "printed",
    ),
    Bind(
        "cannot go below 0.0625 on {} seeds):",
        Line("docs/benchmarks.md", r"Wilcoxon's exact test cannot reach p < 0.05 on (\d+) seeds"),
        "printed",
    ),
    Bind("the pretrained encoder in {} of the 20 subset ×", Computed(second_above, *control_means()), "d"),
    Bind("encoder in 18 of the {} subset × label-fraction", Computed(pair_count, *control_means()), "d"),
    Bind("with all labels (FD001 {}, and 0.989 from the", label_eff("FD001", "hepa-e2e"), "printed"),
    Bind(
        "all labels (FD001 0.988, and {} from the encoder's initial", label_eff("FD001", "hepa-random-e2e"), "printed"
    ),
    Bind("initial weights; FD003 {}). On FD001 it is ahead of", label_eff("FD003", "hepa-e2e"), "printed"),
    Bind(
        'correction (adjusted p = {}, report table "Label',
        cmapss_pair("Label efficiency, FD001", "hepa-e2e", "gbm-last30", "FD001"),
        "printed",
    ),
    Bind("the multiscale boosting ({}); on FD003 its leads over", label_eff("FD001", "gbm"), "printed"),
    Bind(
        'the correction (adjusted p = {} and 0.287, "Label',
        cmapss_pair("Label efficiency, FD003", "hepa", "hepa-e2e", "FD003"),
        "printed",
    ),
    Bind(
        '(adjusted p = 0.31 and {}, "Label efficiency, FD003").',
        cmapss_pair("Label efficiency, FD003", "hepa-e2e", "gbm-last30", "FD003"),
        "printed",
    ),
    Bind("model: it takes HEPA from {} to 0.974 on FD002 and from", Cell(HAUROC_100, "FD002", "hepa"), "printed"),
    Bind(
        "it takes HEPA from 0.773 to {} on FD002 and from 0.841 to", Cell(HAUROC_100, "FD002", "hepa-regime"), "printed"
    ),
    Bind("to 0.974 on FD002 and from {} to 0.967 on FD004. With all", Cell(HAUROC_100, "FD004", "hepa"), "printed"),
    Bind(
        "on FD002 and from 0.841 to {} on FD004. With all labels", Cell(HAUROC_100, "FD004", "hepa-regime"), "printed"
    ),
    Bind("are level (FD002 {} against 0.966, FD004 0.967", Cell(HAUROC_100, "FD002", "hepa-regime"), "printed"),
    Bind(
        "level (FD002 0.974 against {}, FD004 0.967 each; neither",
        Cell(HAUROC_100, "FD002", "gbm-regime-last30"),
        "printed",
    ),
    Bind(
        "0.974 against 0.966, FD004 {} each; neither difference is",
        Cell(HAUROC_100, "FD004", "gbm-regime-last30"),
        "printed",
    ),
    Bind("windows alone) gives {} on FD001 and 0.975 on FD003", Cell(HAUROC_100, "FD001", "hepa-default"), "printed"),
    Bind(
        "gives 0.959 on FD001 and {} on FD003 with all labels (5", Cell(HAUROC_100, "FD003", "hepa-default"), "printed"
    ),
    Bind(
        "on FD003 with all labels ({} seeds), within 0.03 of the",
        Cell(HAUROC_100, "FD003", "hepa-default", "seeds"),
        "printed",
    ),
    Bind(
        "all labels (5 seeds), within {} of the best variant, but",
        Computed(
            largest_gap,
            best_variant("FD001"),
            Cell(HAUROC_100, "FD001", "hepa-default"),
            best_variant("FD003"),
            Cell(HAUROC_100, "FD003", "hepa-default"),
        ),
        ".2f",
    ),
    Bind(
        "of the best variant, but {} on FD002 and 0.602 on FD004", Cell(HAUROC_100, "FD002", "hepa-default"), "printed"
    ),
    Bind(
        "but 0.520 on FD002 and {} on FD004 (5 seeds; 0.514 and", Cell(HAUROC_100, "FD004", "hepa-default"), "printed"
    ),
    Bind(
        "on FD002 and 0.602 on FD004 ({} seeds; 0.514 and 0.539 with",
        Cell(HAUROC_100, "FD004", "hepa-default", "seeds"),
        "printed",
    ),
    Bind(
        "and 0.602 on FD004 (5 seeds; {} and 0.539 with 10 %), near",
        label_eff("FD002", "hepa-default", "10%"),
        "printed",
    ),
    Bind(
        "on FD004 (5 seeds; 0.514 and {} with 10 %), near chance. In",
        label_eff("FD004", "hepa-default", "10%"),
        "printed",
    ),
    Bind("protocol's global z-score ({}), `RegimeNormalizer` (0.974)", label_eff("FD002", "hepa"), "printed"),
    Bind("(0.773), `RegimeNormalizer` ({}) and boosting with it on", label_eff("FD002", "hepa-regime"), "printed"),
    Bind("%; on FD004 with all labels ({} with `RegimeNormalizer`) no", label_eff("FD004", "hepa-regime"), "printed"),
    Bind(
        "seeds spreading widely (± {}). On data with operating",
        label_eff("FD004", "hepa-default", part="sd"),
        "printed",
    ),
    Bind(
        "behind one reaches 0.959, {} seeds). What fails without",
        fd002_entry("hepa-norm-normalizer", seeds=None, how="count"),
        "d",
    ),
    Bind("scores 0.751 against {} (5 seeds, raw paired p =", fd002_cell("hepa-default"), ".3f"),
    Bind(
        "scores 0.751 against 0.520 ({} seeds, raw paired p =",
        fd002_entry("hepa-default-untrained", seeds=None, how="count"),
        "d",
    ),
    Bind("the paper's HEPA recipe in {} of the 16 cells (FD002 and", Computed(positive, *boosting_vs_hepa()), "d"),
    Bind("HEPA recipe in 16 of the {} cells (FD002 and FD004 with", Computed(how_many, *boosting_vs_hepa()), "d"),
    Bind(
        "on both sides; FD004 5%: {} against 0.856), but no", label_eff("FD004", "gbm-regime-last30", "5%"), "printed"
    ),
    Bind("FD004 5%: 0.939 against {}), but no difference between", label_eff("FD004", "hepa-regime", "5%"), "printed"),
    Bind(
        "is significant on FD002 with {} % and on FD004 with all",
        Item(SignificantFractions("hepa", "gbm-last30", "FD002"), 0),
        "d",
    ),
    Bind(
        "with all labels and with {} and 2 %. The untrained",
        Item(SignificantFractions("hepa", "gbm-last30", "FD004"), 1),
        "d",
    ),
    Bind(
        "with all labels and with 5 and {} %. The untrained",
        Item(SignificantFractions("hepa", "gbm-last30", "FD004"), 2),
        "d",
    ),
    Bind(
        "higher mean than boosting in {} of those 16 cells, mostly at", Computed(positive, *control_vs_boosting()), "d"
    ),
    Bind("than boosting in 10 of those {} cells, mostly at 2% and 1%", Computed(how_many, *control_vs_boosting()), "d"),
    Bind(
        "2% and 1% labels (FD003 1%: {} against 0.811), again with", label_eff("FD003", "hepa-random", "1%"), "printed"
    ),
    Bind("(FD003 1%: 0.901 against {}), again with no difference", label_eff("FD003", "gbm-last30", "1%"), "printed"),
    Bind(
        "labelled engines only. All {} of its C-MAPSS cells were",
        Computed(
            sum_of,
            Records(CMAPSS_RECORDS, dict(method="gbm-last30"), None, how="count"),
            Records(CMAPSS_RECORDS, dict(method="gbm-regime-last30"), None, how="count"),
        ),
        "d",
    ),
    Bind("engines; one cell is still {} (FD001, seed 2, 1% labels):", constant_cell("h_auroc"), ".1f"),
    Bind("is still 0.5 (FD001, seed {}, 1% labels): the one", constant_cell("seed"), "d"),
    Bind(
        "is still 0.5 (FD001, seed 2, {}% labels): the one labelled",
        Computed(percent_of, constant_cell("fraction")),
        "d",
    ),
    # --- event benchmarks
    Bind("| TEP | 100% | {} | 0.910 | — | 1.00 |", event("TEP", "hepa", "100%"), "printed"),  # 0.929
    Bind(
        "| TEP | 100% | 0.929 | {} | — | 1.00 | PatchTST 0.99 |", event("TEP", "hepa-random", "100%"), "printed"
    ),  # 0.910
    Bind("| 100% | 0.929 | 0.910 | — | {} | PatchTST 0.99 | | TEP |", paper("TEP", labels="100%"), "printed"),  # 1.00
    Bind("0.910 | — | 1.00 | PatchTST {} | | TEP | 10% | 0.697 |", paper_best("TEP", "100%"), "printed"),  # 0.99
    Bind("0.99 | | TEP | 10% | {} | 0.687 | — | 1.00 |", event("TEP", "hepa", "10%"), "printed"),  # 0.697
    Bind(
        "0.99 | | TEP | 10% | 0.697 | {} | — | 1.00 | PatchTST 1.00 |", event("TEP", "hepa-random", "10%"), "printed"
    ),  # 0.687
    Bind("| 10% | 0.697 | 0.687 | — | {} | PatchTST 1.00 | | ETTm1 |", paper("TEP", labels="10%"), "printed"),  # 1.00
    Bind("0.687 | — | 1.00 | PatchTST {} | | ETTm1 | 100% | 0.783 |", paper_best("TEP", "10%"), "printed"),  # 1.00
    Bind("1.00 | | ETTm1 | 100% | {} | 0.777 | 0.623 | 0.81 | MAE", event("ETTm1", "hepa", "100%"), "printed"),  # 0.783
    Bind(
        "| | ETTm1 | 100% | 0.783 | {} | 0.623 | 0.81 | MAE 0.87 |", event("ETTm1", "hepa-random", "100%"), "printed"
    ),  # 0.777
    Bind(
        "| 100% | 0.783 | 0.777 | {} | 0.81 | MAE 0.87 | | ETTm1", event("ETTm1", "gbm-last30", "100%"), "printed"
    ),  # 0.623
    Bind("| 0.783 | 0.777 | 0.623 | {} | MAE 0.87 | | ETTm1 | 10% |", paper("ETTm1", labels="100%"), "printed"),  # 0.81
    Bind("| 0.777 | 0.623 | 0.81 | MAE {} | | ETTm1 | 10% | 0.748 |", paper_best("ETTm1", "100%"), "printed"),  # 0.87
    Bind(
        "| MAE 0.87 | | ETTm1 | 10% | {} | 0.759 | 0.556 | 0.73 | MAE", event("ETTm1", "hepa", "10%"), "printed"
    ),  # 0.748
    Bind(
        "| | ETTm1 | 10% | 0.748 | {} | 0.556 | 0.73 | MAE 0.77 |", event("ETTm1", "hepa-random", "10%"), "printed"
    ),  # 0.759
    Bind(
        "| 10% | 0.748 | 0.759 | {} | 0.73 | MAE 0.77 | | MBA |", event("ETTm1", "gbm-last30", "10%"), "printed"
    ),  # 0.556
    Bind("| 0.748 | 0.759 | 0.556 | {} | MAE 0.77 | | MBA | 100% |", paper("ETTm1", labels="10%"), "printed"),  # 0.73
    Bind("| 0.759 | 0.556 | 0.73 | MAE {} | | MBA | 100% | 0.784 |", paper_best("ETTm1", "10%"), "printed"),  # 0.77
    Bind("| MAE 0.77 | | MBA | 100% | {} | 0.773 | 0.676 | 0.75 |", event("MBA", "hepa", "100%"), "printed"),  # 0.784
    Bind("| | MBA | 100% | 0.784 | {} | 0.676 | 0.75 |", event("MBA", "hepa-random", "100%"), "printed"),  # 0.773
    Bind(
        "MBA | 100% | 0.784 | 0.773 | {} | 0.75 | iTransformer 0.84 |", event("MBA", "gbm-last30", "100%"), "printed"
    ),  # 0.676
    Bind("| 0.784 | 0.773 | 0.676 | {} | iTransformer 0.84 | | MBA", paper("MBA", labels="100%"), "printed"),  # 0.75
    Bind("0.676 | 0.75 | iTransformer {} | | MBA | 10% | 0.617 |", paper_best("MBA", "100%"), "printed"),  # 0.84
    Bind("0.84 | | MBA | 10% | {} | 0.645 | 0.610 | 0.55 |", event("MBA", "hepa", "10%"), "printed"),  # 0.617
    Bind(
        "0.84 | | MBA | 10% | 0.617 | {} | 0.610 | 0.55 | PatchTST", event("MBA", "hepa-random", "10%"), "printed"
    ),  # 0.645
    Bind(
        "MBA | 10% | 0.617 | 0.645 | {} | 0.55 | PatchTST 0.65 | |", event("MBA", "gbm-last30", "10%"), "printed"
    ),  # 0.610
    Bind("| 0.617 | 0.645 | 0.610 | {} | PatchTST 0.65 | | Weather", paper("MBA", labels="10%"), "printed"),  # 0.55
    Bind("| 0.610 | 0.55 | PatchTST {} | | Weather | 100% | 0.712 |", paper_best("MBA", "10%"), "printed"),  # 0.65
    Bind(
        "0.65 | | Weather | 100% | {} | 0.739 | 0.653 | 0.89 | MAE", event("Weather", "hepa", "100%"), "printed"
    ),  # 0.712
    Bind(
        "| | Weather | 100% | 0.712 | {} | 0.653 | 0.89 | MAE 0.88 |",
        event("Weather", "hepa-random", "100%"),
        "printed",
    ),  # 0.739
    Bind(
        "| 100% | 0.712 | 0.739 | {} | 0.89 | MAE 0.88 | |", event("Weather", "gbm-last30", "100%"), "printed"
    ),  # 0.653
    Bind(
        "| 0.712 | 0.739 | 0.653 | {} | MAE 0.88 | | Weather | 10%", paper("Weather", labels="100%"), "printed"
    ),  # 0.89
    Bind(
        "| 0.739 | 0.653 | 0.89 | MAE {} | | Weather | 10% | 0.686 |", paper_best("Weather", "100%"), "printed"
    ),  # 0.88
    Bind(
        "MAE 0.88 | | Weather | 10% | {} | 0.763 | 0.540 | 0.83 |", event("Weather", "hepa", "10%"), "printed"
    ),  # 0.686
    Bind("| | Weather | 10% | 0.686 | {} | 0.540 | 0.83 |", event("Weather", "hepa-random", "10%"), "printed"),  # 0.763
    Bind(
        "| 10% | 0.686 | 0.763 | {} | 0.83 | iTransformer 0.85 |", event("Weather", "gbm-last30", "10%"), "printed"
    ),  # 0.540
    Bind("| 0.686 | 0.763 | 0.540 | {} | iTransformer 0.85 | |", paper("Weather", labels="10%"), "printed"),  # 0.83
    Bind(
        "0.540 | 0.83 | iTransformer {} | | Beijing | 100% | 0.717 |", paper_best("Weather", "10%"), "printed"
    ),  # 0.85
    Bind("0.85 | | Beijing | 100% | {} | 0.734 | 0.828 | 0.81 |", event("Beijing", "hepa", "100%"), "printed"),  # 0.717
    Bind(
        "| | Beijing | 100% | 0.717 | {} | 0.828 | 0.81 | PatchTST,", event("Beijing", "hepa-random", "100%"), "printed"
    ),  # 0.734
    Bind(
        "| 100% | 0.717 | 0.734 | {} | 0.81 | PatchTST, MAE 0.81", event("Beijing", "gbm-last30", "100%"), "printed"
    ),  # 0.828
    Bind("| 0.717 | 0.734 | 0.828 | {} | PatchTST, MAE 0.81 | |", paper("Beijing", labels="100%"), "printed"),  # 0.81
    Bind(
        "0.828 | 0.81 | PatchTST, MAE {} | | Beijing | 10% | 0.640 |", paper_best("Beijing", "100%"), "printed"
    ),  # 0.81
    Bind(
        "MAE 0.81 | | Beijing | 10% | {} | 0.652 | 0.802 | 0.78 | MAE", event("Beijing", "hepa", "10%"), "printed"
    ),  # 0.640
    Bind(
        "| | Beijing | 10% | 0.640 | {} | 0.802 | 0.78 | MAE 0.77 |", event("Beijing", "hepa-random", "10%"), "printed"
    ),  # 0.652
    Bind(
        "| 10% | 0.640 | 0.652 | {} | 0.78 | MAE 0.77 | | VIX |", event("Beijing", "gbm-last30", "10%"), "printed"
    ),  # 0.802
    Bind("| 0.640 | 0.652 | 0.802 | {} | MAE 0.77 | | VIX | 100% |", paper("Beijing", labels="10%"), "printed"),  # 0.78
    Bind("| 0.652 | 0.802 | 0.78 | MAE {} | | VIX | 100% | 0.615 |", paper_best("Beijing", "10%"), "printed"),  # 0.77
    Bind(
        "| MAE 0.77 | | VIX | 100% | {} | 0.630 | 0.720 | 0.57 | MAE", event("VIX", "hepa", "100%"), "printed"
    ),  # 0.615
    Bind(
        "| | VIX | 100% | 0.615 | {} | 0.720 | 0.57 | MAE 0.57 |", event("VIX", "hepa-random", "100%"), "printed"
    ),  # 0.630
    Bind(
        "VIX | 100% | 0.615 | 0.630 | {} | 0.57 | MAE 0.57 | | VIX |", event("VIX", "gbm-last30", "100%"), "printed"
    ),  # 0.720
    Bind("| 0.615 | 0.630 | 0.720 | {} | MAE 0.57 | | VIX | 10% |", paper("VIX", labels="100%"), "printed"),  # 0.57
    Bind("| 0.630 | 0.720 | 0.57 | MAE {} | | VIX | 10% | 0.521 |", paper_best("VIX", "100%"), "printed"),  # 0.57
    Bind("| MAE 0.57 | | VIX | 10% | {} | 0.538 | 0.661 | 0.55 |", event("VIX", "hepa", "10%"), "printed"),  # 0.521
    Bind(
        "0.57 | | VIX | 10% | 0.521 | {} | 0.661 | 0.55 | PatchTST", event("VIX", "hepa-random", "10%"), "printed"
    ),  # 0.538
    Bind(
        "VIX | 10% | 0.521 | 0.538 | {} | 0.55 | PatchTST 0.57 | |", event("VIX", "gbm-last30", "10%"), "printed"
    ),  # 0.661
    Bind("| 0.521 | 0.538 | 0.661 | {} | PatchTST 0.57 | | BATADAL", paper("VIX", labels="10%"), "printed"),  # 0.55
    Bind("| 0.661 | 0.55 | PatchTST {} | | BATADAL | 100% | 0.536 |", paper_best("VIX", "10%"), "printed"),  # 0.57
    Bind("0.57 | | BATADAL | 100% | {} | 0.542 | 0.553 | 0.57 |", event("BATADAL", "hepa", "100%"), "printed"),  # 0.536
    Bind(
        "| | BATADAL | 100% | 0.536 | {} | 0.553 | 0.57 | PatchTST", event("BATADAL", "hepa-random", "100%"), "printed"
    ),  # 0.542
    Bind(
        "| 100% | 0.536 | 0.542 | {} | 0.57 | PatchTST 0.66 | |", event("BATADAL", "gbm-last30", "100%"), "printed"
    ),  # 0.553
    Bind(
        "| 0.536 | 0.542 | 0.553 | {} | PatchTST 0.66 | | BATADAL", paper("BATADAL", labels="100%"), "printed"
    ),  # 0.57
    Bind("| 0.553 | 0.57 | PatchTST {} | | BATADAL | 10% | 0.516 |", paper_best("BATADAL", "100%"), "printed"),  # 0.66
    Bind(
        "0.66 | | BATADAL | 10% | {} | 0.555 | 0.586 | 0.54 | MAE", event("BATADAL", "hepa", "10%"), "printed"
    ),  # 0.516
    Bind(
        "| | BATADAL | 10% | 0.516 | {} | 0.586 | 0.54 | MAE 0.61 |", event("BATADAL", "hepa-random", "10%"), "printed"
    ),  # 0.555
    Bind("| 10% | 0.516 | 0.555 | {} | 0.54 | MAE 0.61 |", event("BATADAL", "gbm-last30", "10%"), "printed"),  # 0.586
    Bind("| 0.516 | 0.555 | 0.586 | {} | MAE 0.61 |", paper("BATADAL", labels="10%"), "printed"),  # 0.54
    Bind("| 0.555 | 0.586 | 0.54 | MAE {} |", paper_best("BATADAL", "10%"), "printed"),  # 0.61
    Bind("Held-out h-AUROC, mean of {} seeds (boosting with all", event("MBA", "hepa", part="seeds"), "printed"),  # 5
    Bind(
        "visible age alone scores {} at both fractions",
        Computed(same_value, event("TEP", "elapsed"), event("TEP", "elapsed", "10%")),
        "printed",
    ),  # 0.998
    Bind(
        "and count for no method. {} of the 34 rows (the 14 above", Computed(rows_in, *position_not_ruled_out()), "d"
    ),  # 9
    Bind(
        "for no method. 9 of the {} rows (the 14 above and the", Computed(len, ReportRows(EVENT_REFERENCE)), "d"
    ),  # 34
    Bind(
        "9 of the 34 rows (the {} above and the five label", Computed(event_rows_of, ReportRows(EVENT_REFERENCE)), "d"
    ),  # 14
    Bind("by position; BATADAL with {} %, where boosting and the", Item(position_rows("BATADAL"), 0), "d"),  # 100
    Bind("not ruled out; BATADAL with {} %, VIX with 10 %,", Item(position_rows("BATADAL"), 1), "d"),  # 10
    Bind("BATADAL with 10 %, VIX with {} %, FD001 with 1 % and FD002", Item(position_rows("VIX"), 0), "d"),  # 10
    Bind("%, VIX with 10 %, FD001 with {} % and FD002 with 5, 2 and 1 %", Item(position_rows("FD001"), 0), "d"),  # 1
    Bind("FD001 with 1 % and FD002 with {}, 2 and 1 %, where", Item(position_rows("FD002"), 0), "d"),  # 5
    Bind("FD001 with 1 % and FD002 with 5, {} and 1 %, where the seeds", Item(position_rows("FD002"), 1), "d"),  # 2
    Bind("1 % and FD002 with 5, 2 and {} %, where the seeds cannot", Item(position_rows("FD002"), 2), "d"),  # 1
    Bind('"Reference points": TEP with {} % and 10 % labels, solved by', Item(position_rows("TEP"), 0), "d"),  # 100
    Bind('points": TEP with 100 % and {} % labels, solved by', Item(position_rows("TEP"), 1), "d"),  # 10
    Bind(
        "It runs from {} (MBA with all labels, the lowest",
        Computed(smallest, *validation_column("Spearman ρ")),
        "printed",
    ),
    Bind(
        "the lowest row) to {}, and in 6 of the 34 rows",
        Computed(largest_value, *validation_column("Spearman ρ")),
        "printed",
    ),
    Bind("row) to +1.00, and in {} of the 34 rows it is not", Computed(at_least_alpha, *validation_column("p")), "d"),
    Bind("and in 6 of the {} rows it is not distinguishable", Computed(how_many, *validation_column("p")), "d"),
    Bind(
        "0.05): MBA with all labels ({}, p = 0.864) and with 10 %", validation("MBA", "100%", "Spearman ρ"), "printed"
    ),
    Bind("with all labels (+0.05, p = {}) and with 10 % (+0.25, p =", validation("MBA", "100%", "p"), "printed"),
    Bind(
        "p = 0.864) and with 10 % ({}, p = 0.369), Weather (+0.27,", validation("MBA", "10%", "Spearman ρ"), "printed"
    ),
    Bind("and with 10 % (+0.25, p = {}), Weather (+0.27, p =", validation("MBA", "10%", "p"), "printed"),
    Bind("(+0.25, p = 0.369), Weather ({}, p = 0.324) and VIX", validation("Weather", "100%", "Spearman ρ"), "printed"),
    Bind("Weather (+0.27, p = {}) and VIX (+0.25, p = 0.364)", validation("Weather", "100%", "p"), "printed"),
    Bind("p = 0.324) and VIX ({}, p = 0.364) with all", validation("VIX", "100%", "Spearman ρ"), "printed"),
    Bind("and VIX (+0.25, p = {}) with all labels, BATADAL", validation("VIX", "100%", "p"), "printed"),
    Bind(
        "labels, BATADAL with 10 % ({}, p = 0.752) and FD001 with 1",
        validation("BATADAL", "10%", "Spearman ρ"),
        "printed",
    ),
    Bind("with 10 % (+0.09, p = {}) and FD001 with 1 % (+0.75,", validation("BATADAL", "10%", "p"), "printed"),
    Bind(
        "= 0.752) and FD001 with 1 % ({}, p = 0.0522). The method a", validation("FD001", "1%", "Spearman ρ"), "printed"
    ),
    Bind("FD001 with 1 % (+0.75, p = {}). The method a choice on", validation("FD001", "1%", "p"), "printed"),
    Bind(
        "except on MBA with all labels (`gbm`, {} on test, against",
        validation("MBA", "100%", "chosen on validation (its test mean)"),
        "printed",
    ),
    Bind(
        "(`gbm`, 0.701 on test, against {}; 0.184 below), VIX", validation("MBA", "100%", "best test mean"), "printed"
    ),
    Bind(
        "0.701 on test, against 0.885; {} below), VIX with",
        Computed(largest_size, validation("MBA", "100%", "chosen − best")),
        "printed",
    ),
    Bind(
        "VIX with all labels (`gbm`, {} on test, against 0.750;",
        validation("VIX", "100%", "chosen on validation (its test mean)"),
        "printed",
    ),
    Bind(
        "(`gbm`, 0.610 on test, against {}; 0.140 below), Weather",
        validation("VIX", "100%", "best test mean"),
        "printed",
    ),
    Bind(
        "0.610 on test, against 0.750; {} below), Weather with",
        Computed(largest_size, validation("VIX", "100%", "chosen − best")),
        "printed",
    ),
    Bind(
        "validation takes is within {} of the row's best test mean",
        Computed(
            largest_size,
            *validation_shortfalls(
                except_rows=(
                    ("MBA", "100%"),
                    ("VIX", "100%"),
                    ("Weather", "100%"),
                    ("Weather", "10%"),
                    ("VIX", "10%"),
                    ("BATADAL", "10%"),
                )
            ),
        ),
        "printed",
    ),  # 0.018
    Bind(
        "with all labels (`minirocket`, {} on test, against 0.801;",
        validation("Weather", "100%", "chosen on validation (its test mean)"),
        "printed",
    ),
    Bind(
        "(`minirocket`, 0.754 on test, against {}; 0.047 below), Weather",
        validation("Weather", "100%", "best test mean"),
        "printed",
    ),
    Bind(
        "0.754 on test, against 0.801; {} below), Weather with 10",
        Computed(largest_size, validation("Weather", "100%", "chosen − best")),
        "printed",
    ),
    Bind(
        "with 10 % labels (`mae`, {} on test, against 0.784;",
        validation("Weather", "10%", "chosen on validation (its test mean)"),
        "printed",
    ),  # 0.690
    Bind(
        "0.690 on test, against {}; 0.094 below), VIX with 10 %",
        validation("Weather", "10%", "best test mean"),
        "printed",
    ),  # 0.784
    Bind(
        "on test, against 0.784; {} below), VIX with 10 % (0.040",
        Computed(largest_size, validation("Weather", "10%", "chosen − best")),
        "printed",
    ),  # 0.094
    Bind(
        "0.094 below), VIX with 10 % ({} below) and BATADAL with 10 %",
        Computed(largest_size, validation("VIX", "10%", "chosen − best")),
        "printed",
    ),  # 0.040
    Bind(
        "and BATADAL with 10 % ({} below). So on these datasets",
        Computed(largest_size, validation("BATADAL", "10%", "chosen − best")),
        "printed",
    ),  # 0.036
    Bind(
        "correction over the report's {} paired t-tests (every pair",
        LineAfter("docs/benchmarks.md", "## Event benchmarks", r"^Holm's correction over (\d+) comparisons"),
        "printed",
    ),  # 1181
    Bind("HEPA's lead on ETTm1 ({} against 0.556, raw paired p", event("ETTm1", "hepa", "10%"), "printed"),  # 0.748
    Bind(
        "lead on ETTm1 (0.748 against {}, raw paired p = 0.000165) is", event("ETTm1", "gbm-last30", "10%"), "printed"
    ),  # 0.556
    Bind(
        "0.556, raw paired p = {}) is Holm-adjusted to 0.249,",
        event_pair("hepa", "gbm-last30", "ETTm1", "10%", column="paired t p"),
        "printed",
    ),  # 0.000165
    Bind(
        "is Holm-adjusted to {}, boosting's lead on Beijing",
        event_pair("hepa", "gbm-last30", "ETTm1", "10%"),
        "printed",
    ),  # 0.179
    Bind(
        "boosting's lead on Beijing ({} against 0.640, raw paired p", event("Beijing", "gbm-last30", "10%"), "printed"
    ),  # 0.802
    Bind(
        "on Beijing (0.802 against {}, raw paired p = 0.00117) to", event("Beijing", "hepa", "10%"), "printed"
    ),  # 0.640
    Bind(
        "0.640, raw paired p = {}) to 1. Boosting has the",
        event_pair("hepa", "gbm-last30", "Beijing", "10%", column="paired t p"),
        "printed",
    ),  # 0.00117
    Bind(
        "raw paired p = 0.00117) to {}. Boosting has the higher",
        event_pair("hepa", "gbm-last30", "Beijing", "10%"),
        "printed",
    ),  # 1
    Bind(
        "one has the higher mean in {} of the 14 rows. - With all", Computed(second_above, *event_control_means()), "d"
    ),  # 10
    Bind(
        "the higher mean in 10 of the {} rows. - With all labels our", Computed(pair_count, *event_control_means()), "d"
    ),  # 14
    Bind(
        "labels our `hepa` reaches the paper's HEPA figure on MBA ({} against 0.75)", event("MBA", "hepa"), "printed"
    ),  # 0.784
    Bind("our `hepa` reaches the paper's HEPA figure on MBA (0.784 against {})", paper("MBA"), "printed"),  # 0.75
    Bind(
        "VIX ({} against 0.57) and is below it on the other five, by 0.03 (ETTm1) to 0.18 (Weather);",
        event("VIX", "hepa"),
        "printed",
    ),  # 0.615
    Bind(
        "VIX (0.615 against {}) and is below it on the other five, by 0.03 (ETTm1) to 0.18 (Weather);",
        paper("VIX"),
        "printed",
    ),  # 0.57
    Bind("it on the other five, by {} (ETTm1) to 0.18 (Weather);", below_paper("ETTm1"), ".2f"),  # 0.03
    Bind("five, by 0.03 (ETTm1) to {} (Weather); with 10% labels", below_paper("Weather"), ".2f"),  # 0.18
    Bind(
        "the labels, then frozen) ran {} seeds on all seven datasets.",
        Computed(same_value, *event_seeds("itransformer")),
        "printed",
    ),  # 5
    Bind("has the highest mean on TEP ({} against 0.929 for `hepa`;", event("TEP", "itransformer"), "printed"),  # 0.998
    Bind("mean on TEP (0.998 against {} for `hepa`; 0.987 with 10%", event("TEP", "hepa"), "printed"),  # 0.929
    Bind(
        "against 0.929 for `hepa`; {} with 10% labels; raw paired", event("TEP", "itransformer", "10%"), "printed"
    ),  # 0.987
    Bind(
        "10% labels; raw paired p = {}, Holm-adjusted 0.345; the",
        event_pair("hepa", "itransformer", "TEP", column="paired t p"),
        ".4f",
    ),  # 0.0002
    Bind(
        "p = 0.0002, Holm-adjusted {}; the age alone scores 0.998", event_pair("hepa", "itransformer", "TEP"), "printed"
    ),  # 0.249
    Bind("0.345; the age alone scores {} there), is significantly", event("TEP", "elapsed"), "printed"),  # 0.998
    Bind(
        "on ETTm1 with 10% labels ({} against 0.748) and level", event("ETTm1", "itransformer", "10%"), "printed"
    ),  # 0.581
    Bind("10% labels (0.581 against {}) and level with it", event("ETTm1", "hepa", "10%"), "printed"),  # 0.748
    Bind(
        "the labels, then frozen) has {} seeds on every dataset: it",
        Computed(same_value, *event_seeds("patchtst")),
        "printed",
    ),  # 5
    Bind("with iTransformer on TEP ({}; 0.974 with 10% labels),", event("TEP", "patchtst"), "printed"),  # 0.998
    Bind("iTransformer on TEP (0.998; {} with 10% labels),", event("TEP", "patchtst", "10%"), "printed"),  # 0.974
    Bind("on Beijing with all labels ({} against 0.602), and level", event("Beijing", "patchtst"), "printed"),  # 0.737
    Bind(
        "all labels (0.737 against {}), and level with the other", event("Beijing", "itransformer"), "printed"
    ),  # 0.602
    Bind("methods elsewhere (BATADAL {}, Weather 0.725, VIX 0.574);", event("BATADAL", "patchtst"), "printed"),  # 0.544
    Bind("(BATADAL 0.544, Weather {}, VIX 0.574); on ETTm1 it is", event("Weather", "patchtst"), "printed"),  # 0.725
    Bind("0.544, Weather 0.725, VIX {}); on ETTm1 it is among the", event("VIX", "patchtst"), "printed"),  # 0.574
    Bind("means with all labels ({}) and, with iTransformer,", event("ETTm1", "patchtst"), "printed"),  # 0.616
    Bind(
        "with iTransformer, with 10% ({} against 0.581). - `mae`", event("ETTm1", "patchtst", "10%"), "printed"
    ),  # 0.586
    Bind(
        "with 10% (0.586 against {}). - `mae` (masked-patch", event("ETTm1", "itransformer", "10%"), "printed"
    ),  # 0.581
    Bind(
        "with the same encoder) ran {} seeds on all seven datasets.",
        Computed(same_value, *event_seeds("mae")),
        "printed",
    ),  # 5
    Bind("on ETTm1 at both fractions ({} and 0.776; with 10% labels", event("ETTm1", "mae"), "printed"),  # 0.801
    Bind("at both fractions (0.801 and {}; with 10% labels", event("ETTm1", "mae", "10%"), "printed"),  # 0.776
    Bind("on Weather with all labels ({}), as the paper reports for", event("Weather", "mae"), "printed"),  # 0.788
    Bind("mean of the paper's methods ({} and 0.749), below boosting", event("Beijing", "mae"), "printed"),  # 0.773
    Bind(
        "paper's methods (0.773 and {}), below boosting (0.828 and", event("Beijing", "mae", "10%"), "printed"
    ),  # 0.749
    Bind(
        "and 0.749), below boosting ({} and 0.802; not significantly", event("Beijing", "gbm-last30"), "printed"
    ),  # 0.828
    Bind(
        "below boosting (0.828 and {}; not significantly with 10%", event("Beijing", "gbm-last30", "10%"), "printed"
    ),  # 0.802
    Bind("far below the rest on TEP ({}). - Channel tokens", event("TEP", "mae"), "printed"),  # 0.704
    Bind(
        "MAE `hepa` wins none, ties {} and loses none of the 25",
        Cell("HEPA against each baseline", "hepa", "vs mae", "second"),
        "printed",
    ),  # 25
    Bind(
        "25 and loses none of the {} rows that count. Counting a",
        Cell("HEPA against each baseline", "hepa", "ahead of every baseline", "second"),
        "printed",
    ),  # 25
    Bind(
        "that ran in none of the {} rows; against iTransformer",
        Cell("HEPA against each baseline", "hepa", "ahead of every baseline", "second"),
        "printed",
    ),  # 25
    Bind(
        "against iTransformer it wins {} (ETTm1, 10 %; FD004, all",
        Cell("HEPA against each baseline", "hepa", "vs itransformer", "first"),
        "printed",
    ),  # 2
    Bind(
        "FD004, all labels) and ties {}, against PatchTST it wins 1",
        Cell("HEPA against each baseline", "hepa", "vs itransformer", "second"),
        "printed",
    ),  # 15
    Bind(
        "15, against PatchTST it wins {} (FD004, all labels) and ties",
        Cell("HEPA against each baseline", "hepa", "vs patchtst", "first"),
        "printed",
    ),  # 1
    Bind(
        "(FD004, all labels) and ties {}, and against multiscale",
        Cell("HEPA against each baseline", "hepa", "vs patchtst", "second"),
        "printed",
    ),  # 16
    Bind(
        "boosting (`gbm`) it wins {}, ties 18 and loses 1 (FD002,",
        Cell("HEPA against each baseline", "hepa", "vs gbm", "first"),
        "printed",
    ),
    Bind(
        "(`gbm`) it wins 0, ties {} and loses 1 (FD002, 10 %);",
        Cell("HEPA against each baseline", "hepa", "vs gbm", "second"),
        "printed",
    ),
    Bind(
        "it wins 0, ties 18 and loses {} (FD002, 10 %); against",
        Cell("HEPA against each baseline", "hepa", "vs gbm", "third"),
        "printed",
    ),
    Bind(
        "against `gbm-last30` it wins {}, ties 24 and loses 1.",
        Cell("HEPA against each baseline", "hepa", "vs gbm-last30", "first"),
        "printed",
    ),
    Bind(
        "`gbm-last30` it wins 0, ties {} and loses 1.",
        Cell("HEPA against each baseline", "hepa", "vs gbm-last30", "second"),
        "printed",
    ),
    Bind(
        "`gbm-last30` it wins 0, ties 24 and loses {}.",
        Cell("HEPA against each baseline", "hepa", "vs gbm-last30", "third"),
        "printed",
    ),
    Bind(
        "baseline in none of its {} counted rows either (against",
        Cell("HEPA against each baseline", "hepa-channel", "ahead of every baseline", "second"),
        "printed",
    ),
    Bind(
        "rows either (against MAE {}/6/1, against iTransformer",
        Cell("HEPA against each baseline", "hepa-channel", "vs mae", "first"),
        "printed",
    ),
    Bind(
        "rows either (against MAE 0/{}/1, against iTransformer",
        Cell("HEPA against each baseline", "hepa-channel", "vs mae", "second"),
        "printed",
    ),
    Bind(
        "rows either (against MAE 0/6/{}, against iTransformer",
        Cell("HEPA against each baseline", "hepa-channel", "vs mae", "third"),
        "printed",
    ),
    Bind(
        "against iTransformer {}/7/0, against each form of",
        Cell("HEPA against each baseline", "hepa-channel", "vs itransformer", "first"),
        "printed",
    ),
    Bind(
        "against iTransformer 0/{}/0, against each form of",
        Cell("HEPA against each baseline", "hepa-channel", "vs itransformer", "second"),
        "printed",
    ),
    Bind(
        "against iTransformer 0/7/{}, against each form of",
        Cell("HEPA against each baseline", "hepa-channel", "vs itransformer", "third"),
        "printed",
    ),
    Bind(
        "each form of boosting {}/7/0). The report",
        Computed(same_value, *boosting_record("hepa-channel", "first")),
        "printed",
    ),
    Bind(
        "each form of boosting 0/{}/0). The report",
        Computed(same_value, *boosting_record("hepa-channel", "second")),
        "printed",
    ),
    Bind(
        "each form of boosting 0/7/{}). The report",
        Computed(same_value, *boosting_record("hepa-channel", "third")),
        "printed",
    ),
    Bind(
        "training windows alone; {} seeds on every dataset) is",
        Computed(same_value, *event_seeds("hepa-default")),
        "printed",
    ),  # 5
    Bind(
        "of the row, or above it, in {} of the 14 rows (MBA 0.869",
        Computed(count_of("yes"), *default_beside_best("within 0.02", "text")),
        "d",
    ),  # 8
    Bind(
        "or above it, in 8 of the {} rows (MBA 0.869 against",
        Computed(how_many, *default_beside_best("within 0.02", "text")),
        "d",
    ),  # 14
    Bind(
        "it, in 8 of the 14 rows (MBA {} against 0.784 with all",
        default_beside("MBA", "100%", "hepa-default"),
        "printed",
    ),  # 0.869
    Bind(
        "14 rows (MBA 0.869 against {} with all labels) and more",
        default_beside("MBA", "100%", "best tuned variant"),
        "printed",
    ),  # 0.784
    Bind(
        "more than 0.02 below it in {} (TEP by 0.11 and 0.19,",
        Computed(count_of("no"), *default_beside_best("within 0.02", "text")),
        "d",
    ),  # 6
    Bind(
        "0.02 below it in 6 (TEP by {} and 0.19, Weather by 0.12",
        Computed(largest_size, default_beside("TEP", "100%", "default − best")),
        ".2f",
    ),  # 0.11
    Bind(
        "it in 6 (TEP by 0.11 and {}, Weather by 0.12 and 0.12,",
        Computed(largest_size, default_beside("TEP", "10%", "default − best")),
        ".2f",
    ),  # 0.19
    Bind(
        "by 0.11 and 0.19, Weather by {} and 0.12, Beijing by 0.03",
        Computed(largest_size, default_beside("Weather", "100%", "default − best")),
        ".2f",
    ),  # 0.12
    Bind(
        "0.19, Weather by 0.12 and {}, Beijing by 0.03 with all",
        Computed(largest_size, default_beside("Weather", "10%", "default − best")),
        ".2f",
    ),  # 0.12
    Bind(
        "by 0.12 and 0.12, Beijing by {} with all labels and BATADAL",
        Computed(largest_size, default_beside("Beijing", "100%", "default − best")),
        ".2f",
    ),  # 0.03
    Bind(
        "all labels and BATADAL by {} with 10%), so the target of",
        Computed(largest_size, default_beside("BATADAL", "10%", "default − best")),
        ".2f",
    ),  # 0.06
    Bind(
        "(`hepa-default-rank`, {} seeds everywhere) is level",
        Computed(same_value, *event_seeds("hepa-default-rank"), *cmapss_seeds("hepa-default-rank")),
        "printed",
    ),  # 5
    Bind(
        "row, has the higher mean in {} of the 14 event rows and on",
        Computed(second_above, *event_control_means("hepa-default", "hepa-default-rank")),
        "d",
    ),  # 10
    Bind(
        "the higher mean in 10 of the {} event rows and on FD002 and",
        Computed(pair_count, *event_control_means("hepa-default", "hepa-default-rank")),
        "d",
    ),  # 14
    Bind(
        "FD004 with all labels (by {} and 0.19), is below it on",
        PairDifference(HAUROC_PAIRS, "hepa-default-rank", "hepa-default", "FD002"),
        ".2f",
    ),  # 0.17
    Bind(
        "with all labels (by 0.17 and {}), is below it on FD001 (by",
        PairDifference(HAUROC_PAIRS, "hepa-default-rank", "hepa-default", "FD004"),
        ".2f",
    ),  # 0.19
    Bind(
        "is below it on FD001 (by {} and 0.009), and fits faster",
        PairDifference(cmapss_pairs("FD001"), "hepa-default", "hepa-default-rank", "FD001"),
        ".3f",
    ),  # 0.005
    Bind(
        "it on FD001 (by 0.005 and {}), and fits faster (user",
        PairDifference(cmapss_pairs("FD001"), "hepa-default", "hepa-default-rank", "FD001", "10%"),
        ".3f",
    ),  # 0.009
    # --- C-MAPSS through the event runner
    Bind("| FD001 | 100% | {} | 0.962 | 0.982 | 0.965 |", event("FD001", "hepa", "100%"), "printed"),  # 0.954
    Bind(
        "| FD001 | 100% | 0.954 | {} | 0.982 | 0.965 | 0.968 |", event("FD001", "hepa-random", "100%"), "printed"
    ),  # 0.962
    Bind("| 100% | 0.954 | 0.962 | {} | 0.965 | 0.968 | 0.972 |", event("FD001", "mae", "100%"), "printed"),  # 0.982
    Bind(
        "| 0.954 | 0.962 | 0.982 | {} | 0.968 | 0.972 | 0.81 |", event("FD001", "patchtst-revin", "100%"), "printed"
    ),  # 0.965
    Bind(
        "| 0.962 | 0.982 | 0.965 | {} | 0.972 | 0.81 | PatchTST",
        event("FD001", "itransformer-revin", "100%"),
        "printed",
    ),  # 0.968
    Bind(
        "| 0.982 | 0.965 | 0.968 | {} | 0.81 | PatchTST 0.80 | |", label_eff("FD001", "gbm-last30", "100%"), "printed"
    ),  # 0.972
    Bind("| 0.965 | 0.968 | 0.972 | {} | PatchTST 0.80 | | FD001 |", paper("FD001", labels="100%"), "printed"),  # 0.81
    Bind("| 0.972 | 0.81 | PatchTST {} | | FD001 | 10% | 0.898 |", paper_best("FD001", "100%"), "printed"),  # 0.80
    Bind("0.80 | | FD001 | 10% | {} | 0.937 | 0.926 | 0.911 |", event("FD001", "hepa", "10%"), "printed"),  # 0.898
    Bind(
        "| | FD001 | 10% | 0.898 | {} | 0.926 | 0.911 | 0.895 |", event("FD001", "hepa-random", "10%"), "printed"
    ),  # 0.937
    Bind("| 10% | 0.898 | 0.937 | {} | 0.911 | 0.895 | 0.933 |", event("FD001", "mae", "10%"), "printed"),  # 0.926
    Bind(
        "| 0.898 | 0.937 | 0.926 | {} | 0.895 | 0.933 | 0.78 |", event("FD001", "patchtst-revin", "10%"), "printed"
    ),  # 0.911
    Bind(
        "| 0.937 | 0.926 | 0.911 | {} | 0.933 | 0.78 | PatchTST", event("FD001", "itransformer-revin", "10%"), "printed"
    ),  # 0.895
    Bind(
        "| 0.926 | 0.911 | 0.895 | {} | 0.78 | PatchTST 0.69 | |", label_eff("FD001", "gbm-last30", "10%"), "printed"
    ),  # 0.933
    Bind("| 0.911 | 0.895 | 0.933 | {} | PatchTST 0.69 | | FD001 |", paper("FD001", labels="10%"), "printed"),  # 0.78
    Bind("| 0.933 | 0.78 | PatchTST {} | | FD001 | 5% | 0.862 |", paper_best("FD001", "10%"), "printed"),  # 0.69
    Bind("0.69 | | FD001 | 5% | {} | 0.927 | 0.832 | 0.813 |", event("FD001", "hepa", "5%"), "printed"),  # 0.862
    Bind(
        "| | FD001 | 5% | 0.862 | {} | 0.832 | 0.813 | 0.761 |", event("FD001", "hepa-random", "5%"), "printed"
    ),  # 0.927
    Bind(
        "FD001 | 5% | 0.862 | 0.927 | {} | 0.813 | 0.761 | 0.906 | —", event("FD001", "mae", "5%"), "printed"
    ),  # 0.832
    Bind(
        "5% | 0.862 | 0.927 | 0.832 | {} | 0.761 | 0.906 | — | — | |", event("FD001", "patchtst-revin", "5%"), "printed"
    ),  # 0.813
    Bind(
        "| 0.927 | 0.832 | 0.813 | {} | 0.906 | — | — | | FD001 |",
        event("FD001", "itransformer-revin", "5%"),
        "printed",
    ),  # 0.761
    Bind(
        "| 0.832 | 0.813 | 0.761 | {} | — | — | | FD001 | 2% |", label_eff("FD001", "gbm-last30", "5%"), "printed"
    ),  # 0.906
    Bind("| — | — | | FD001 | 2% | {} | 0.912 | 0.804 | 0.706 |", event("FD001", "hepa", "2%"), "printed"),  # 0.846
    Bind(
        "| — | | FD001 | 2% | 0.846 | {} | 0.804 | 0.706 | 0.706 |", event("FD001", "hepa-random", "2%"), "printed"
    ),  # 0.912
    Bind(
        "FD001 | 2% | 0.846 | 0.912 | {} | 0.706 | 0.706 | 0.859 | —", event("FD001", "mae", "2%"), "printed"
    ),  # 0.804
    Bind(
        "2% | 0.846 | 0.912 | 0.804 | {} | 0.706 | 0.859 | — | — | |", event("FD001", "patchtst-revin", "2%"), "printed"
    ),  # 0.706
    Bind(
        "| 0.912 | 0.804 | 0.706 | {} | 0.859 | — | — | | FD001 |",
        event("FD001", "itransformer-revin", "2%"),
        "printed",
    ),  # 0.706
    Bind(
        "| 0.804 | 0.706 | 0.706 | {} | — | — | | FD001 | 1% |", label_eff("FD001", "gbm-last30", "2%"), "printed"
    ),  # 0.859
    Bind("| — | — | | FD001 | 1% | {} | 0.765 | 0.667 | 0.655 |", event("FD001", "hepa", "1%"), "printed"),  # 0.628
    Bind(
        "| — | | FD001 | 1% | 0.628 | {} | 0.667 | 0.655 | 0.661 |", event("FD001", "hepa-random", "1%"), "printed"
    ),  # 0.765
    Bind(
        "FD001 | 1% | 0.628 | 0.765 | {} | 0.655 | 0.661 | 0.808 | —", event("FD001", "mae", "1%"), "printed"
    ),  # 0.667
    Bind(
        "1% | 0.628 | 0.765 | 0.667 | {} | 0.661 | 0.808 | — | — | |", event("FD001", "patchtst-revin", "1%"), "printed"
    ),  # 0.655
    Bind(
        "| 0.765 | 0.667 | 0.655 | {} | 0.808 | — | — | | FD003 |",
        event("FD001", "itransformer-revin", "1%"),
        "printed",
    ),  # 0.661
    Bind(
        "| 0.667 | 0.655 | 0.661 | {} | — | — | | FD003 | 100% |", label_eff("FD001", "gbm-last30", "1%"), "printed"
    ),  # 0.808
    Bind("| — | — | | FD003 | 100% | {} | 0.986 | 0.987 | 0.974 |", event("FD003", "hepa", "100%"), "printed"),  # 0.983
    Bind(
        "— | | FD003 | 100% | 0.983 | {} | 0.987 | 0.974 | 0.977 |", event("FD003", "hepa-random", "100%"), "printed"
    ),  # 0.986
    Bind("| 100% | 0.983 | 0.986 | {} | 0.974 | 0.977 | 0.985 |", event("FD003", "mae", "100%"), "printed"),  # 0.987
    Bind(
        "| 0.983 | 0.986 | 0.987 | {} | 0.977 | 0.985 | 0.84 |", event("FD003", "patchtst-revin", "100%"), "printed"
    ),  # 0.974
    Bind(
        "| 0.986 | 0.987 | 0.974 | {} | 0.985 | 0.84 | PatchTST",
        event("FD003", "itransformer-revin", "100%"),
        "printed",
    ),  # 0.977
    Bind(
        "| 0.987 | 0.974 | 0.977 | {} | 0.84 | PatchTST 0.79 | |", label_eff("FD003", "gbm-last30", "100%"), "printed"
    ),  # 0.985
    Bind("| 0.974 | 0.977 | 0.985 | {} | PatchTST 0.79 | | FD003 |", paper("FD003", labels="100%"), "printed"),  # 0.84
    Bind("| 0.985 | 0.84 | PatchTST {} | | FD003 | 10% | 0.922 |", paper_best("FD003", "100%"), "printed"),  # 0.79
    Bind("0.79 | | FD003 | 10% | {} | 0.953 | 0.907 | 0.953 |", event("FD003", "hepa", "10%"), "printed"),  # 0.922
    Bind(
        "| | FD003 | 10% | 0.922 | {} | 0.907 | 0.953 | 0.902 |", event("FD003", "hepa-random", "10%"), "printed"
    ),  # 0.953
    Bind("| 10% | 0.922 | 0.953 | {} | 0.953 | 0.902 | 0.962 |", event("FD003", "mae", "10%"), "printed"),  # 0.907
    Bind(
        "| 0.922 | 0.953 | 0.907 | {} | 0.902 | 0.962 | 0.84 | MAE", event("FD003", "patchtst-revin", "10%"), "printed"
    ),  # 0.953
    Bind(
        "| 0.953 | 0.907 | 0.953 | {} | 0.962 | 0.84 | MAE 0.78 |",
        event("FD003", "itransformer-revin", "10%"),
        "printed",
    ),  # 0.902
    Bind(
        "| 0.907 | 0.953 | 0.902 | {} | 0.84 | MAE 0.78 | | FD003", label_eff("FD003", "gbm-last30", "10%"), "printed"
    ),  # 0.962
    Bind("| 0.953 | 0.902 | 0.962 | {} | MAE 0.78 | | FD003 | 5% |", paper("FD003", labels="10%"), "printed"),  # 0.84
    Bind("| 0.902 | 0.962 | 0.84 | MAE {} | | FD003 | 5% | 0.883 |", paper_best("FD003", "10%"), "printed"),  # 0.78
    Bind("| MAE 0.78 | | FD003 | 5% | {} | 0.951 | 0.773 | 0.821 |", event("FD003", "hepa", "5%"), "printed"),  # 0.883
    Bind(
        "| | FD003 | 5% | 0.883 | {} | 0.773 | 0.821 | 0.732 |", event("FD003", "hepa-random", "5%"), "printed"
    ),  # 0.951
    Bind(
        "FD003 | 5% | 0.883 | 0.951 | {} | 0.821 | 0.732 | 0.942 | —", event("FD003", "mae", "5%"), "printed"
    ),  # 0.773
    Bind(
        "5% | 0.883 | 0.951 | 0.773 | {} | 0.732 | 0.942 | — | — | |", event("FD003", "patchtst-revin", "5%"), "printed"
    ),  # 0.821
    Bind(
        "| 0.951 | 0.773 | 0.821 | {} | 0.942 | — | — | | FD003 |",
        event("FD003", "itransformer-revin", "5%"),
        "printed",
    ),  # 0.732
    Bind(
        "| 0.773 | 0.821 | 0.732 | {} | — | — | | FD003 | 2% |", label_eff("FD003", "gbm-last30", "5%"), "printed"
    ),  # 0.942
    Bind("| — | — | | FD003 | 2% | {} | 0.944 | 0.735 | 0.701 |", event("FD003", "hepa", "2%"), "printed"),  # 0.871
    Bind(
        "| — | | FD003 | 2% | 0.871 | {} | 0.735 | 0.701 | 0.680 |", event("FD003", "hepa-random", "2%"), "printed"
    ),  # 0.944
    Bind(
        "FD003 | 2% | 0.871 | 0.944 | {} | 0.701 | 0.680 | 0.892 | —", event("FD003", "mae", "2%"), "printed"
    ),  # 0.735
    Bind(
        "2% | 0.871 | 0.944 | 0.735 | {} | 0.680 | 0.892 | — | — | |", event("FD003", "patchtst-revin", "2%"), "printed"
    ),  # 0.701
    Bind(
        "| 0.944 | 0.735 | 0.701 | {} | 0.892 | — | — | | FD003 |",
        event("FD003", "itransformer-revin", "2%"),
        "printed",
    ),  # 0.680
    Bind(
        "| 0.735 | 0.701 | 0.680 | {} | — | — | | FD003 | 1% |", label_eff("FD003", "gbm-last30", "2%"), "printed"
    ),  # 0.892
    Bind("| — | — | | FD003 | 1% | {} | 0.901 | 0.622 | 0.655 |", event("FD003", "hepa", "1%"), "printed"),  # 0.806
    Bind(
        "| — | | FD003 | 1% | 0.806 | {} | 0.622 | 0.655 | 0.609 |", event("FD003", "hepa-random", "1%"), "printed"
    ),  # 0.901
    Bind(
        "FD003 | 1% | 0.806 | 0.901 | {} | 0.655 | 0.609 | 0.811 | —", event("FD003", "mae", "1%"), "printed"
    ),  # 0.622
    Bind(
        "1% | 0.806 | 0.901 | 0.622 | {} | 0.609 | 0.811 | — | — |", event("FD003", "patchtst-revin", "1%"), "printed"
    ),  # 0.655
    Bind(
        "| 0.901 | 0.622 | 0.655 | {} | 0.811 | — | — |", event("FD003", "itransformer-revin", "1%"), "printed"
    ),  # 0.609
    Bind("| 0.622 | 0.655 | 0.609 | {} | — | — |", label_eff("FD003", "gbm-last30", "1%"), "printed"),  # 0.811
    Bind("| FD002 | 100% | {} | 0.870 | 0.771 | 0.682 |", label_eff("FD002", "gbm-last30", "100%"), "printed"),  # 0.931
    Bind(
        "| FD002 | 100% | 0.931 | {} | 0.771 | 0.682 | 0.572 |", event("FD002", "hepa-random", "100%"), "printed"
    ),  # 0.870
    Bind("| 100% | 0.931 | 0.870 | {} | 0.682 | 0.572 | 0.552 |", event("FD002", "hepa", "100%"), "printed"),  # 0.771
    Bind(
        "| 0.931 | 0.870 | 0.771 | {} | 0.572 | 0.552 | 0.57 | MAE", event("FD002", "mae", "100%"), "printed"
    ),  # 0.682
    Bind(
        "| 0.870 | 0.771 | 0.682 | {} | 0.552 | 0.57 | MAE 0.56 |", event("FD002", "patchtst-revin", "100%"), "printed"
    ),  # 0.572
    Bind(
        "| 0.771 | 0.682 | 0.572 | {} | 0.57 | MAE 0.56 | | FD002",
        event("FD002", "itransformer-revin", "100%"),
        "printed",
    ),  # 0.552
    Bind("| 0.682 | 0.572 | 0.552 | {} | MAE 0.56 | | FD002 | 10% |", paper("FD002", labels="100%"), "printed"),  # 0.57
    Bind("| 0.572 | 0.552 | 0.57 | MAE {} | | FD002 | 10% | 0.893 |", paper_best("FD002", "100%"), "printed"),  # 0.56
    Bind(
        "| MAE 0.56 | | FD002 | 10% | {} | 0.680 | 0.538 | 0.588 |", label_eff("FD002", "gbm-last30", "10%"), "printed"
    ),  # 0.893
    Bind(
        "| | FD002 | 10% | 0.893 | {} | 0.538 | 0.588 | 0.604 |", event("FD002", "hepa-random", "10%"), "printed"
    ),  # 0.680
    Bind("| 10% | 0.893 | 0.680 | {} | 0.588 | 0.604 | 0.553 |", event("FD002", "hepa", "10%"), "printed"),  # 0.538
    Bind("| 0.893 | 0.680 | 0.538 | {} | 0.604 | 0.553 | 0.55 | MAE", event("FD002", "mae", "10%"), "printed"),  # 0.588
    Bind(
        "| 0.680 | 0.538 | 0.588 | {} | 0.553 | 0.55 | MAE 0.52 |", event("FD002", "patchtst-revin", "10%"), "printed"
    ),  # 0.604
    Bind(
        "| 0.538 | 0.588 | 0.604 | {} | 0.55 | MAE 0.52 | | FD002",
        event("FD002", "itransformer-revin", "10%"),
        "printed",
    ),  # 0.553
    Bind("| 0.588 | 0.604 | 0.553 | {} | MAE 0.52 | | FD002 | 1% |", paper("FD002", labels="10%"), "printed"),  # 0.55
    Bind("| 0.604 | 0.553 | 0.55 | MAE {} | | FD002 | 1% | 0.607 |", paper_best("FD002", "10%"), "printed"),  # 0.52
    Bind(
        "| MAE 0.52 | | FD002 | 1% | {} | 0.524 | 0.504 | 0.505 |", label_eff("FD002", "gbm-last30", "1%"), "printed"
    ),  # 0.607
    Bind(
        "| | FD002 | 1% | 0.607 | {} | 0.504 | 0.505 | 0.660 |", event("FD002", "hepa-random", "1%"), "printed"
    ),  # 0.524
    Bind(
        "FD002 | 1% | 0.607 | 0.524 | {} | 0.505 | 0.660 | 0.630 | —", event("FD002", "hepa", "1%"), "printed"
    ),  # 0.504
    Bind(
        "1% | 0.607 | 0.524 | 0.504 | {} | 0.660 | 0.630 | — | — | |", event("FD002", "mae", "1%"), "printed"
    ),  # 0.505
    Bind(
        "| 0.524 | 0.504 | 0.505 | {} | 0.630 | — | — | | FD004 |", event("FD002", "patchtst-revin", "1%"), "printed"
    ),  # 0.660
    Bind(
        "| 0.504 | 0.505 | 0.660 | {} | — | — | | FD004 | 100% |", event("FD002", "itransformer-revin", "1%"), "printed"
    ),  # 0.630
    Bind(
        "| — | — | | FD004 | 100% | {} | 0.851 | 0.840 | 0.772 |", label_eff("FD004", "gbm-last30", "100%"), "printed"
    ),  # 0.929
    Bind(
        "— | | FD004 | 100% | 0.929 | {} | 0.840 | 0.772 | 0.582 |", event("FD004", "hepa-random", "100%"), "printed"
    ),  # 0.851
    Bind("| 100% | 0.929 | 0.851 | {} | 0.772 | 0.582 | 0.608 |", event("FD004", "hepa", "100%"), "printed"),  # 0.840
    Bind(
        "| 0.929 | 0.851 | 0.840 | {} | 0.582 | 0.608 | 0.63 | MAE", event("FD004", "mae", "100%"), "printed"
    ),  # 0.772
    Bind(
        "| 0.851 | 0.840 | 0.772 | {} | 0.608 | 0.63 | MAE 0.57 |", event("FD004", "patchtst-revin", "100%"), "printed"
    ),  # 0.582
    Bind(
        "| 0.840 | 0.772 | 0.582 | {} | 0.63 | MAE 0.57 | | FD004",
        event("FD004", "itransformer-revin", "100%"),
        "printed",
    ),  # 0.608
    Bind("| 0.772 | 0.582 | 0.608 | {} | MAE 0.57 | | FD004 | 10% |", paper("FD004", labels="100%"), "printed"),  # 0.63
    Bind("| 0.582 | 0.608 | 0.63 | MAE {} | | FD004 | 10% | 0.888 |", paper_best("FD004", "100%"), "printed"),  # 0.57
    Bind(
        "| MAE 0.57 | | FD004 | 10% | {} | 0.736 | 0.579 | 0.659 |", label_eff("FD004", "gbm-last30", "10%"), "printed"
    ),  # 0.888
    Bind(
        "| | FD004 | 10% | 0.888 | {} | 0.579 | 0.659 | 0.596 |", event("FD004", "hepa-random", "10%"), "printed"
    ),  # 0.736
    Bind("| 10% | 0.888 | 0.736 | {} | 0.659 | 0.596 | 0.556 |", event("FD004", "hepa", "10%"), "printed"),  # 0.579
    Bind("| 0.888 | 0.736 | 0.579 | {} | 0.596 | 0.556 | 0.55 | MAE", event("FD004", "mae", "10%"), "printed"),  # 0.659
    Bind(
        "| 0.736 | 0.579 | 0.659 | {} | 0.556 | 0.55 | MAE 0.52 |", event("FD004", "patchtst-revin", "10%"), "printed"
    ),  # 0.596
    Bind(
        "| 0.579 | 0.659 | 0.596 | {} | 0.55 | MAE 0.52 | | FD004",
        event("FD004", "itransformer-revin", "10%"),
        "printed",
    ),  # 0.556
    Bind("| 0.659 | 0.596 | 0.556 | {} | MAE 0.52 | | FD004 | 1% |", paper("FD004", labels="10%"), "printed"),  # 0.55
    Bind("| 0.596 | 0.556 | 0.55 | MAE {} | | FD004 | 1% | 0.630 |", paper_best("FD004", "10%"), "printed"),  # 0.52
    Bind(
        "| MAE 0.52 | | FD004 | 1% | {} | 0.561 | 0.520 | 0.540 |", label_eff("FD004", "gbm-last30", "1%"), "printed"
    ),  # 0.630
    Bind(
        "| | FD004 | 1% | 0.630 | {} | 0.520 | 0.540 | 0.666 |", event("FD004", "hepa-random", "1%"), "printed"
    ),  # 0.561
    Bind(
        "FD004 | 1% | 0.630 | 0.561 | {} | 0.540 | 0.666 | 0.643 | —", event("FD004", "hepa", "1%"), "printed"
    ),  # 0.520
    Bind("1% | 0.630 | 0.561 | 0.520 | {} | 0.666 | 0.643 | — | — |", event("FD004", "mae", "1%"), "printed"),  # 0.540
    Bind("| 0.561 | 0.520 | 0.540 | {} | 0.643 | — | — |", event("FD004", "patchtst-revin", "1%"), "printed"),  # 0.666
    Bind("| 0.520 | 0.540 | 0.666 | {} | — | — |", event("FD004", "itransformer-revin", "1%"), "printed"),  # 0.643
    Bind(
        "Held-out h-AUROC, {} seeds (`gbm-last30`: its",
        Computed(
            same_value, *[event(s, "hepa", labels, part="seeds") for s in ("FD001", "FD003") for labels in FRACTIONS]
        ),
        "printed",
    ),  # 5
    Bind("on both subsets (FD001 {} and FD003 0.987, against", event("FD001", "mae"), "printed"),  # 0.982
    Bind("(FD001 0.982 and FD003 {}, against 0.954 and 0.983 for", event("FD003", "mae"), "printed"),  # 0.987
    Bind("and FD003 0.987, against {} and 0.983 for HEPA's; raw", event("FD001", "hepa"), "printed"),  # 0.954
    Bind("0.987, against 0.954 and {} for HEPA's; raw paired p =", event("FD003", "hepa"), "printed"),  # 0.983
    Bind(
        "for HEPA's; raw paired p = {} and 0.017; on FD003 the",
        event_pair("hepa", "mae", "FD001", column="paired t p"),
        ".2f",
    ),  # 0.06
    Bind(
        "raw paired p = 0.06 and {}; on FD003 the untrained",
        event_pair("hepa", "mae", "FD003", column="paired t p"),
        ".3f",
    ),  # 0.017
    Bind(
        "encoder is behind MAE by {} and boosting by 0.002), and",
        Computed("difference", event("FD003", "mae"), event("FD003", "hepa-random")),
        ".3f",
    ),  # 0.001
    Bind(
        "MAE by 0.001 and boosting by {}), and in this table the",
        Computed("difference", event("FD003", "mae"), label_eff("FD003", "gbm-last30")),
        ".3f",
    ),  # 0.002
    Bind(
        "has the highest mean with {}, 2 or 1 % of the engines", Item(TableLeads("FD003", "hepa-random"), 0), "d"
    ),  # 5
    Bind(
        "has the highest mean with 5, {} or 1 % of the engines", Item(TableLeads("FD003", "hepa-random"), 1), "d"
    ),  # 2
    Bind(
        "highest mean with 5, 2 or {} % of the engines labelled on", Item(TableLeads("FD003", "hepa-random"), 2), "d"
    ),  # 1
    Bind(
        "labelled on FD003 and with {}, 5 or 2 % on FD001 (boosting", Item(TableLeads("FD001", "hepa-random"), 0), "d"
    ),  # 10
    Bind("on FD003 and with 10, {} or 2 % on FD001 (boosting", Item(TableLeads("FD001", "hepa-random"), 1), "d"),  # 5
    Bind(
        "on FD003 and with 10, 5 or {} % on FD001 (boosting leads", Item(TableLeads("FD001", "hepa-random"), 2), "d"
    ),  # 2
    Bind(
        "(boosting leads FD003 at {} % and FD001 at 1 %). MAE and", Item(TableLeads("FD003", "gbm-last30"), 0), "d"
    ),  # 10
    Bind(
        "FD003 at 10 % and FD001 at {} %). MAE and the supervised", Item(TableLeads("FD001", "gbm-last30"), 0), "d"
    ),  # 1
    Bind("engine) MAE averages {} (two of its five seeds below", event("FD003", "mae", "1%"), "printed"),  # 0.622
    Bind(
        "seeds below 0.5), PatchTST {} and iTransformer 0.609,", event("FD003", "patchtst-revin", "1%"), "printed"
    ),  # 0.655
    Bind(
        "0.655 and iTransformer {}, where the untrained encoder", event("FD003", "itransformer-revin", "1%"), "printed"
    ),  # 0.609
    Bind("the untrained encoder keeps {}. No FD001 or FD003", event("FD003", "hepa-random", "1%"), "printed"),  # 0.901
    Bind(
        "over the event table's {} comparisons (smallest",
        LineAfter("docs/benchmarks.md", "## Event benchmarks", r"^Holm's correction over (\d+) comparisons"),
        "printed",
    ),  # 1181
    Bind(
        "(smallest adjusted p {} on FD001; 1 for every FD003",
        Computed(smallest_holm("FD001"), ReportRows(EVENT_PAIRS)),
        "printed",
    ),  # 0.245
    Bind(
        "adjusted p 0.0952 on FD001; {} for every FD003 comparison),",
        Computed(smallest_holm("FD003"), ReportRows(EVENT_PAIRS)),
        "printed",
    ),  # 1
    Bind(
        "here: the authors' README reports {} (FD001) and 0.960 (FD003) for their",
        Cell(HAUROC_100, "FD001", "authors' implementation"),
        "printed",
    ),  # 0.918
    Bind(
        "README reports 0.918 (FD001) and {} (FD003) for their own code under this",
        Cell(HAUROC_100, "FD003", "authors' implementation"),
        "printed",
    ),  # 0.960
    Bind("protocol against the paper's {} and 0.84, and puts the gap", paper("FD001"), "printed"),  # 0.81
    Bind("against the paper's 0.81 and {}, and puts the gap down to", paper("FD003"), "printed"),  # 0.84
    Bind(
        "every engine labelled (FD001 {}, FD003 0.974) ran on a GPU", event("FD001", "patchtst-revin"), "printed"
    ),  # 0.965
    Bind(
        "labelled (FD001 0.965, FD003 {}) ran on a GPU ([the harness", event("FD003", "patchtst-revin"), "printed"
    ),  # 0.974
    Bind(
        "them above. Every method has {} seeds on both (`gbm-last30`",
        Computed(same_value, *fd_seeds(("FD002", "FD004"), ("100%", "10%", "1%"))),
        "printed",
    ),  # 5
    Bind(
        "mean from all labels down to {} % on both subsets. Its",
        Computed(
            last_of_same, TableLeads("FD002", "gbm-last30", FD_GLOBAL), TableLeads("FD004", "gbm-last30", FD_GLOBAL)
        ),
        "d",
    ),  # 2
    Bind(
        "above HEPA on FD002 with {} % and on FD004 with all",
        Item(SignificantFractions("hepa", "gbm-last30", "FD002"), 0),
        "d",
    ),  # 10
    Bind(
        "with all labels and with {} and 2 % (0.856 against",
        Item(SignificantFractions("hepa", "gbm-last30", "FD004"), 1),
        "d",
    ),  # 10
    Bind(
        "with all labels and with 5 and {} % (0.856 against 0.541",
        Item(SignificantFractions("hepa", "gbm-last30", "FD004"), 2),
        "d",
    ),  # 5
    Bind("and with 5 and 2 % ({} against 0.541 with 5 %,", label_eff("FD004", "gbm-last30", "5%"), "printed"),  # 0.856
    Bind(
        "with 5 and 2 % (0.856 against {} with 5 %, 0.703 against", label_eff("FD004", "hepa", "5%"), "printed"
    ),  # 0.541
    Bind(
        "against 0.541 with 5 %, {} against 0.521 with 2 %). In", label_eff("FD004", "gbm-last30", "2%"), "printed"
    ),  # 0.703
    Bind("with 5 %, 0.703 against {} with 2 %). In the event", label_eff("FD004", "hepa", "2%"), "printed"),  # 0.521
    Bind("FD004 with all labels (HEPA {} against 0.582 and 0.608),", event("FD004", "hepa"), "printed"),  # 0.840
    Bind("labels (HEPA 0.840 against {} and 0.608), HEPA's only", event("FD004", "patchtst-revin"), "printed"),  # 0.582
    Bind(
        "0.840 against 0.582 and {}), HEPA's only significant", event("FD004", "itransformer-revin"), "printed"
    ),  # 0.608
    Bind(
        "under the global z-score ({} against 0.541, Holm-adjusted", event("FD004", "hepa-random", "5%"), "printed"
    ),  # 0.683
    Bind("z-score (0.683 against {}, Holm-adjusted p = 0.0389),", event("FD004", "hepa", "5%"), "printed"),  # 0.541
    Bind(
        "0.541, Holm-adjusted p = {}), the one difference between",
        event_pair("hepa", "hepa-random", "FD004", "5%"),
        "printed",
    ),  # 0.0276
    Bind(
        "the untrained encoder's lead at 5 % ({}) is not significant (adjusted p = 1). With 1 %",
        cmapss_pair("Label efficiency, FD004", "hepa-random-regime", "hepa-regime", "FD004", "5%", column="mean A − B"),
        "printed",
    ),  # +0.077
    Bind(
        "significant (adjusted p = {}). With 1 % of the engines",
        cmapss_pair("Label efficiency, FD004", "hepa-random-regime", "hepa-regime", "FD004", "5%"),
        "printed",
    ),  # 1
    Bind(
        "the highest means, PatchTST {} and 0.666, iTransformer", event("FD002", "patchtst-revin", "1%"), "printed"
    ),  # 0.660
    Bind(
        "means, PatchTST 0.660 and {}, iTransformer 0.630 and", event("FD004", "patchtst-revin", "1%"), "printed"
    ),  # 0.666
    Bind(
        "and 0.666, iTransformer {} and 0.643, above boosting's", event("FD002", "itransformer-revin", "1%"), "printed"
    ),  # 0.630
    Bind(
        "iTransformer 0.630 and {}, above boosting's 0.607 and", event("FD004", "itransformer-revin", "1%"), "printed"
    ),  # 0.643
    Bind(
        "and 0.643, above boosting's {} and 0.630; on FD004", label_eff("FD002", "gbm-last30", "1%"), "printed"
    ),  # 0.607
    Bind(
        "above boosting's 0.607 and {}; on FD004 iTransformer is", label_eff("FD004", "gbm-last30", "1%"), "printed"
    ),  # 0.630
    Bind(
        "above HEPA there ({} against 0.520). Against", event("FD004", "itransformer-revin", "1%"), "printed"
    ),  # 0.643
    Bind("HEPA there (0.643 against {}). Against `gbm-last30` and", event("FD004", "hepa", "1%"), "printed"),  # 0.520
    Bind(
        "to boosting on FD002 with {} % labels (0.538 against",
        Item(SignificantFractions("hepa", "gbm-last30", "FD002"), 0),
        "d",
    ),  # 10
    Bind(
        "on FD002 with 10 % labels ({} against 0.893) and on FD004", label_eff("FD002", "hepa", "10%"), "printed"
    ),  # 0.538
    Bind(
        "10 % labels (0.538 against {}) and on FD004 with all", label_eff("FD002", "gbm-last30", "10%"), "printed"
    ),  # 0.893
    Bind(
        "with all labels and with {} and 2 %, and to", Item(SignificantFractions("hepa", "gbm-last30", "FD004"), 1), "d"
    ),  # 10
    Bind(
        "with all labels and with 5 and {} %, and to iTransformer",
        Item(SignificantFractions("hepa", "gbm-last30", "FD004"), 2),
        "d",
    ),  # 5
    Bind("all labels (FD002 PatchTST {} against its 0.44, FD004", event("FD002", "patchtst-revin"), "printed"),  # 0.572
    Bind("PatchTST 0.572 against its {}, FD004 0.582 against 0.52)", paper("FD002", "patchtst"), "printed"),  # 0.44
    Bind(
        "against its 0.44, FD004 {} against 0.52) and within its", event("FD004", "patchtst-revin"), "printed"
    ),  # 0.582
    Bind("0.44, FD004 0.582 against {}) and within its spread with", paper("FD004", "patchtst"), "printed"),  # 0.52
    # --- speed and size
    Bind(
        "(which give 3.00x, median of {} pairs on another machine, a",
        Line(SPEED_MEDIAN3, r"Median of (\d+) pair"),
        "printed",
    ),  # 3
    Bind(
        "pairs on another machine, a {}-core Intel Xeon), main job,",
        Line(SPEED_MEDIAN3, r"^Machine: Intel.*, (\d+) CPU cores"),
        "printed",
    ),  # 2
    Bind(
        "`hepa protocol` (FD001, seed {}, reference protocol: engines", Json(SPEED_CPU_JSON, "protocol.seed"), "d"
    ),  # 0
    Bind("protocol: engines split {}/10/30, windows with at least", Item(Computed(split_percents), 0), "d"),  # 60
    Bind("protocol: engines split 60/{}/30, windows with at least", Item(Computed(split_percents), 1), "d"),  # 10
    Bind("engines split 60/10/{}, windows with at least 128", Item(Computed(split_percents), 2), "d"),  # 30
    Bind("windows with at least {} steps of history, stride 4", Computed(protocol_constant("MIN_HISTORY")), "d"),  # 128
    Bind(
        "128 steps of history, stride {} for finetuning and 1 for", Computed(protocol_constant("TRAIN_STRIDE")), "d"
    ),  # 4
    Bind("stride 4 for finetuning and {} for test, K = 150,", Computed(protocol_constant("TEST_STRIDE")), "d"),  # 1
    Bind('and 1 for test, K = {}, `norm="global"`, 50', Computed(protocol_constant("K")), "d"),  # 150
    Bind(
        'K = 150, `norm="global"`, {} pretraining epochs of 40', Json(SPEED_CPU_JSON, "protocol.pretrain_epochs"), "d"
    ),  # 50
    Bind(
        "50 pretraining epochs of {} cuts per engine, 30",
        Json(SPEED_CPU_JSON, "runs.0.hepa_sklearn.cuts_per_window"),
        "d",
    ),  # 40
    Bind(
        "of 40 cuts per engine, {} finetuning epochs), measured", Json(SPEED_CPU_JSON, "protocol.finetune_epochs"), "d"
    ),  # 30
    Bind("(commit 85f55f3) on a {}-core AMD EPYC machine, torch", Json(SPEED_CPU_JSON, "machine.cpu_count"), "d"),  # 2
    Bind(
        "AMD EPYC machine, torch {} CPU, each program pinned to",
        Computed(minor_version, Json(SPEED_CPU_JSON, "torch")),
        "printed",
    ),  # 2.13
    Bind("with one thread, median of {} pairs (`hepa-bench speed", Json(SPEED_CPU_JSON, "protocol.repeats"), "d"),  # 3
    Bind(
        "MB | CPU s to first reach {} | |---|---|---|---|---|---|",
        Line(TIME_TO_QUALITY, r"^first reaches (\d\.\d+) after", n=0),
        "printed",
    ),  # 0.92
    Bind(
        "(packed batch layout) | {} | 292.9 | 312.1 | 826 | 179", speed(OURS, "held-out h-AUROC"), "printed"
    ),  # 0.9741
    Bind("batch layout) | 0.9741 | {} | 312.1 | 826 | 179 | |", speed(OURS, "CPU s"), "printed"),  # 292.9
    Bind("layout) | 0.9741 | 292.9 | {} | 826 | 179 | | authors'", speed(OURS, "wall s"), "printed"),  # 312.1
    Bind("| 0.9741 | 292.9 | 312.1 | {} | 179 | | authors'", speed(OURS, "peak RSS MB"), "printed"),  # 826
    Bind(
        "| 292.9 | 312.1 | 826 | {} | | authors' implementation",
        Line(TIME_TO_QUALITY, r"^first reaches 0\.92 .* at (\d+\.\d) CPU s", n=0),
        ".0f",
    ),  # 179
    Bind(
        "| authors' implementation | {} | 677.4 | 698.9 | 688 | 632", speed(REFERENCE, "held-out h-AUROC"), "printed"
    ),  # 0.9205
    Bind("implementation | 0.9205 | {} | 698.9 | 688 | 632 | |", speed(REFERENCE, "CPU s"), "printed"),  # 677.4
    Bind("| 0.9205 | 677.4 | {} | 688 | 632 | | ratio", speed(REFERENCE, "wall s"), "printed"),  # 698.9
    Bind(
        "| 0.9205 | 677.4 | 698.9 | {} | 632 | | ratio (authors' /", speed(REFERENCE, "peak RSS MB"), "printed"
    ),  # 688
    Bind(
        "| 677.4 | 698.9 | 688 | {} | | ratio (authors' / ours,",
        Line(TIME_TO_QUALITY, r"^first reaches 0\.92 .* at (\d+\.\d) CPU s", n=1),
        ".0f",
    ),  # 632
    Bind(
        "reference always with seed {}), so their h-AUROC values", Line(SPEED_CPU, r"fixed seed \((\d+)\)"), "printed"
    ),  # 42
    Bind("not met (finetuning at all {} horizons alone is close to", Computed(protocol_constant("K")), "d"),  # 150
    Bind(
        "(`--repeats 1`) measured {} MB against the reference's",
        speed(OURS_MEMORY, "peak RSS MB", SPEED_MEMORY),
        "printed",
    ),  # 640
    Bind(
        "MB against the reference's {} MB (1.11x less), at 2.25x",
        speed(REFERENCE, "peak RSS MB", SPEED_MEMORY),
        "printed",
    ),  # 712
    Bind(
        "does not compile under torch {}).",
        Line(TORCH_COMPILE, r"torch (\d+\.\d+)\.\d+\+cpu, one thread; CPU ms"),
        "printed",
    ),  # 2.13
    Bind("Parameters with {} channels: 1,310,720 in the", Computed(protocol_channels), "d"),  # 14
    Bind("Parameters with 14 channels: {} in the pretrained model", Computed(pretrained_parameters), ",d"),  # 1,310,720
    Bind("pooling, predictor); {} finetuned (predictor and", Computed(finetuned_parameters), ",d"),  # 198,401
    # BATADAL below chance (batadal_diagnosis.txt)
    Bind("at every seed, from {} to", batadal_seed_scores(min), ".3f"),
    Bind("at every seed, from 0.122 to\n{} (mean", batadal_seed_scores(max), ".3f"),
    Bind(
        "(mean {}; `benchmarks/experiments/batadal",
        batadal(r"^\s+headline\s+test, seeds 0-4: .*\(mean (\d\.\d+)\)"),
        "printed",
    ),
    Bind(
        "on the embedding alone scores {} (seed 0)",
        batadal_control("the same head on embedding alone", "test"),
        "printed",
    ),
    Bind(
        "on the window level\nalone {}, and",
        batadal_control("the same head on window level (both spans) alone", "test"),
        "printed",
    ),
    Bind(
        "whole-window means alone {}, fitting",
        batadal_control("the same head on whole-window means alone", "test"),
        "printed",
    ),
    Bind("almost\nperfectly ({})", batadal_control("the same head on whole-window means alone", "train"), "printed"),
    Bind("not at all ({}).", batadal_control("the same head on whole-window means alone", "valid"), "printed"),
    Bind(
        "4 hours apart, correlate at {})",
        batadal(r"whole-window means: median correlation between consecutive training windows \(4 h apart\) (\d\.\d+)"),
        "printed",
    ),
    Bind(
        "(share {}), so on new weeks",
        batadal(r"^\s+whole-window means\s+valid: share of training positives (\d\.\d+) \(positive windows\)"),
        "printed",
    ),
    Bind(
        "the same pipeline scores {} over seeds 0-4.",
        batadal(r"^\s+window_level=False\s+test, seeds 0-4: .*\(mean (\d\.\d+)\)"),
        "printed",
    ),
    Bind(
        "headline line still scores {}, and",
        batadal(r"^\s+headline\s+train \S+\s+valid \S+\s+test (\d\.\d+)"),
        "printed",
    ),
    Bind(
        "scores 0.345, and {} without the window",
        batadal(r"^\s+window_level=False\s+train \S+\s+valid \S+\s+test (\d\.\d+)"),
        "printed",
    ),
]

NOT_MEASUREMENTS = [
    Not("| width {}, pretrained on JEPA horizons 1..50 |", "128", "a width, a setting"),
    Not("| width 128, pretrained on JEPA horizons {}..50 |", "1", "a horizon range, a setting"),
    Not("horizons drawn from {}..50 instead of", "1", "a horizon range, a setting"),
    Not("horizons drawn from 1..50 instead of {}..150", "1", "a horizon range, a setting"),
    Not("the corpus gave at width {}.", "128", "a width, a setting"),
    Not("with corrected targets, minus {} (test units", "0.02", "the issue's margin, a setting"),
    Not("comes near the target of {} of the gap", "0.90", "the issue's target, a setting"),
    # the corpus screen's design, fixed before its records (benchmarks/corpus_selection.md)
    Not(
        "its records (`benchmarks/corpus_selection.md`): {} cells (FD001",
        "16",
        "the number of cells the rule fixes, a setting",
    ),
    Not("(FD001 to FD004, {} % and 10 % labels", "5", "a label fraction, a setting"),
    Not("(FD001 to FD004, 5 % and {} % labels", "10", "a label fraction, a setting"),
    Not("labels, seeds {} and 1, validation units only)", "0", "a seed's name"),
    Not("labels, seeds 0 and {}, validation units only)", "1", "a seed's name"),
    Not("at least {} above the default's and no cell", "0.01", "a threshold of the rule, a setting"),
    Not("no cell is more than {} below the default's of the same seed", "0.05", "a threshold of the rule, a setting"),
    Not("h-AUROC over the {} cells (records", "16", "the number of cells the rule fixes, a setting"),
    Not("| the default: patch tokens, width {}, untrained |", "256", "a width, a setting"),
    Not("| channel tokens, width {}, untrained | 0.904", "64", "a width, a setting"),
    Not("| width {}, pretrained on the cell's own windows |", "64", "a width, a setting"),
    Not("| width {}, pretrained on the corpus, frozen | 0.886", "64", "a width, a setting"),
    Not("| width {}, a corpus whose windows are 30 % simulated fleets |", "64", "a width, a setting"),
    Not("| width 64, a corpus whose windows are {} % simulated fleets |", "30", "a share of the corpus, a setting"),
    Not("| channel tokens, width {}, untrained | 0.906", "128", "a width, a setting"),
    Not("| width {}, pretrained on the corpus, frozen | 0.924", "128", "a width, a setting"),
    Not("rule: at width {} neither pretraining helped", "64", "a width, a setting"),
    Not("grew from -0.018 at width {} to +0.018 at 128", "64", "a width, a setting"),
    Not("at width 64 to +0.018 at {}.", "128", "a width, a setting"),
    Not("| width {}, pretrained on half the corpus for twice the epochs |", "128", "a width, a setting"),
    Not("inside the {} fixed before its records", "0.005", "a threshold fixed before the records, a setting"),
    Not("where the issue asked for {}", "+0.02", "the issue's target, a setting"),
    Not("| channel tokens, width {}, four layers, untrained |", "128", "a width, a setting"),
    Not("| width {}, four layers, pretrained on the corpus, frozen |", "128", "a width, a setting"),
    Not("| width {}, untrained, finetuned with the event head |", "128", "a width, a setting"),
    Not("| width {}, pretrained on the corpus, finetuned with the head |", "128", "a width, a setting"),
    Not("| channel tokens, width {}, untrained | 0.900", "256", "a width, a setting"),
    Not("| width {}, pretrained on the corpus, frozen | 0.905", "256", "a width, a setting"),
    Not("has a Holm-adjusted p below {}", "0.05", "the chosen significance level"),
    # --- opening paragraphs
    Not("the last {} steps.", "30", "a setting of the former boosting baseline (its window of summary statistics)"),
    Not("Those ran {} seeds on", "5", "the seeds the runs were given, a setting of the command"),
    Not("labels / {} %):", "10", "a label fraction, a setting"),
    Not('= 0.00348, report table "h-AUROC, {}% labels").', "100", "the name of a report table (a label fraction)"),
    Not("(FD004, {} % labels:", "5", "a label fraction, a setting"),
    Not("(Table {}, all", "1", "a table number of the paper"),
    # --- Untrained-encoder controls, Snapshot study, Channel tokens
    Not("× label-fraction cells ({}%, 10%, 5%, 2%, 1% labels; 5", "100", "a label fraction, a setting"),
    Not("label-fraction cells (100%, {}%, 5%, 2%, 1% labels; 5", "10", "a label fraction, a setting"),
    Not("cells (100%, 10%, {}%, 2%, 1% labels; 5 seeds),", "5", "a label fraction, a setting"),
    Not("cells (100%, 10%, 5%, {}%, 1% labels; 5 seeds), and", "2", "a label fraction, a setting"),
    Not("cells (100%, 10%, 5%, 2%, {}% labels; 5 seeds), and", "1", "a label fraction, a setting"),
    Not(
        "10%, 5%, 2%, 1% labels; {} seeds), and higher by 0.03",
        "5",
        "the seeds the runs were given, a setting of the command",
    ),
    Not("in 13 of the 16 cells with {}% of the labels or fewer", "10", "a label fraction, a setting"),
    Not("the labels or fewer (FD003 {}%: 0.944 against 0.869). The", "2", "a label fraction, a setting"),
    Not("global z-score), with {} % labels the untrained", "5", "a label fraction, a setting"),
    Not(
        "the untrained encoder's lead at {} % (+0.077) is not significant (adjusted p = 1). On FD001",
        "5",
        "a label fraction, a setting",
    ),
    Not(
        "the seven event benchmarks ({} seeds each) the", "5", "the seeds the runs were given, a setting of the command"
    ),
    Not(
        "at several epochs (epoch {} is the untrained encoder);",
        "0",
        "the epoch of the untrained encoder, a definition",
    ),
    Not("all labels and 0.784 with {} %; on TEP 0.994 and 0.966, a", "10", "a label fraction, a setting"),
    Not("all labels, 0.538 each with {} %; raw p = 0.75 and 0.99;", "10", "a label fraction, a setting"),
    Not("0.653 against 0.629 with {} %; raw p = 0.45 and 0.13).", "10", "a label fraction, a setting"),
    Not("0.994 (5 seeds; 0.966 with {}% labels), level with", "10", "a label fraction, a setting"),
    Not("0.749 (5 seeds; 0.629 with {}%), below iTransformer", "10", "a label fraction, a setting"),
    Not("(0.815, 5 seeds; 0.641 with {}%) in the mean but not", "10", "a label fraction, a setting"),
    Not("all labels and 0.491 with {}% (2 seeds), below boosting", "10", "a label fraction, a setting"),
    Not("below MAE and the {} default pipeline with 10%", "0.1.0", "a release"),
    Not("{} default pipeline (`hepa-default`) is below", "0.1.0", "a release"),
    Not("0.1.0 default pipeline with {}% labels, while HEPA", "10", "a label fraction, a setting"),
    Not("0.802; significantly with {}% labels, Holm-adjusted p =", "10", "a label fraction, a setting"),
    # --- The authors' code with and without pretraining; the predictor's initialisation
    Not("| |---|---|---|---| | {} | 0.9128 | 0.9298 | +0.0170", "0", "a seed (the row label)"),
    Not("| 0.9298 | +0.0170 | | {} | 0.9082 | 0.9133 | +0.0051", "1", "a seed (the row label)"),
    Not("| 0.9133 | +0.0051 | | {} | 0.9293 | 0.9328 | +0.0036", "2", "a seed (the row label)"),
    Not("| 0.9328 | +0.0036 | | {} | 0.9241 | 0.9085 | −0.0156", "3", "a seed (the row label)"),
    Not("| 0.9085 | −0.0156 | | {} | 0.9259 | 0.9078 | −0.0180", "4", "a seed (the row label)"),
    Not(
        "engines with its fixed seed {}, so its seeds vary only",
        "42",
        "the fixed seed of the authors' split, a setting of their code",
    ),
    Not(
        "run set of three seeds on a {}-core CPU machine gave the",
        "2",
        "the machine an earlier run used, a description",
    ),
    Not("random | |---|---|---|---| | {} | 0.9218 | 0.9400 | +0.0182", "0", "a seed (the row label)"),
    Not("| 0.9400 | +0.0182 | | {} | 0.9721 | 0.9649 | −0.0072", "1", "a seed (the row label)"),
    Not("| 0.9649 | −0.0072 | | {} | 0.9546 | 0.9607 | +0.0061", "2", "a seed (the row label)"),
    Not("| 0.9607 | +0.0061 | | {} | 0.9866 | 0.9794 | −0.0072", "3", "a seed (the row label)"),
    Not("| 0.9794 | −0.0072 | | {} | 0.9324 | 0.9337 | +0.0014 |", "4", "a seed (the row label)"),
    # --- remedies tried, choosing the defaults
    Not("layout, SIGReg weights from {} to 1, per-context RevIN", "0.01", "a setting of a remedy tried"),
    Not("SIGReg weights from 0.01 to {}, per-context RevIN", "1", "a setting of a remedy tried"),
    Not("or a constant learning rate; {} SIGReg projections over five", "1024", "a setting of a remedy tried"),
    Not("with the defaults of release {} (RevIN, pretraining to the", "0.1.0", "a release"),
    Not('report table "h-AUROC, {}% labels"). Release 0.2.0', "100", "the name of a report table (a label fraction)"),
    Not('100% labels"). Release {} changed its defaults by the', "0.2.0", "a release"),
    Not(
        "h-AUROC falls more than {} below the 0.1.0 defaults',",
        "0.02",
        "the tolerance of the selection rule, a setting",
    ),
    Not("more than 0.02 below the {} defaults', and the eligible", "0.1.0", "a release"),
    Not("units, all labels; seeds {} and 1, the mean of the two):", "0", "the seeds the screen was given, a setting"),
    Not("all labels; seeds 0 and {}, the mean of the two):", "1", "the seeds the screen was given, a setting"),
    Not("| row | {} defaults | untrained", "0.1.0", "a release"),
    Not("over the window and its last {} steps passed on beside the", "30", "a setting of the first form of the level"),
    Not("kept VIX (0.739 over seeds {} and 1) and ETTm1 (0.819),", "0", "the seeds the screen was given, a setting"),
    Not("VIX (0.739 over seeds 0 and {}) and ETTm1 (0.819), and", "1", "the seeds the screen was given, a setting"),
    Not("so the defaults of release {} are", "0.2.0", "a release"),
    Not(
        "nothing from the user minus {}, at least the elapsed-time", "0.02", "a tolerance of the acceptance, a setting"
    ),
    Not("baseline, within {} of the best HEPA variant,", "0.02", "a tolerance of the acceptance, a setting"),
    Not("not significantly below the {} defaults after Holm's", "0.1.0", "a release"),
    Not("is significantly above the {} defaults on seven rows and", "0.1.0", "a release"),
    Not("VIX and FD003 with {} % labels, and the", "10", "a label fraction, a setting"),
    Not("encoder on Weather with {} %.", "10", "a label fraction, a setting"),
    Not("mean and slope over its last {}, 30 and 100 steps and the", "10", "a setting of the candidate's level"),
    Not("and slope over its last 10, {} and 100 steps and the whole", "30", "a setting of the candidate's level"),
    Not("over its last 10, 30 and {} steps and the whole window", "100", "a setting of the candidate's level"),
    Not("against the {} defaults, on all 20 rows", "0.2.0", "a release"),
    Not("on all 20 rows (seeds {} and 1, validation units). It", "0", "the seeds the screen was given, a setting"),
    Not("on all 20 rows (seeds 0 and {}, validation units). It is", "1", "the seeds the screen was given, a setting"),
    Not("ahead on 12 rows (FD001 with {} % labels 0.985 against", "10", "a label fraction, a setting"),
    Not("few labels (BATADAL with {} % labels 0.475 against", "10", "a label fraction, a setting"),
    Not("0.567): not eligible, so the {} defaults stay. One token", "0.2.0", "a release"),
    Not("each aimed at the rows with {} % labels that the defaults", "10", "a label fraction, a setting"),
    Not("likelihood lifts VIX with {} % labels (0.738 against", "10", "a label fraction, a setting"),
    Not("the headline line with the {} defaults (the event head", "0.3.0", "a release"),
    Not("(the event head at {} horizons) on all 13,537", "12", "the default of horizon_knots, a setting"),
    # --- C-MAPSS under the reference protocol
    Not('in the report\'s "h-AUROC, {}% labels" and "Label', "100", "the name of a report table (a label fraction)"),
    Not("baseline on the last {} steps on every seed, but not", "30", "a setting of the former boosting baseline"),
    Not("The plain pipeline with the {} defaults (`hepa-default`,", "0.1.0", "a release"),
    Not("seeds; 0.514 and 0.539 with {} %), near chance. In the", "10", "a label fraction, a setting"),
    Not("with it on both subsets with {} %; on FD004 with all labels", "10", "a label fraction, a setting"),
    Not("in front (on FD002 the {} default pipeline behind one", "0.1.0", "a release"),
    Not("- With {}% of the labels or fewer,", "10", "a label fraction, a setting"),
    Not("on both sides; FD004 {}%: 0.939 against 0.856), but", "5", "a label fraction, a setting"),
    Not("of those 16 cells, mostly at {}% and 1% labels (FD003 1%:", "2", "a label fraction, a setting"),
    Not("16 cells, mostly at 2% and {}% labels (FD003 1%: 0.901", "1", "a label fraction, a setting"),
    Not("at 2% and 1% labels (FD003 {}%: 0.901 against 0.811),", "1", "a label fraction, a setting"),
    Not("statistics of the last {} steps, now", "30", "a setting of the former boosting baseline"),
    Not("labelled windows and, below {} windows, picks among four", "500", "a setting of the boosting estimator"),
    Not("former fixed leaf size of {} it predicted a constant", "20", "a former setting of the boosting estimator"),
    Not(
        "a constant (h-AUROC exactly {}) in several cells with one",
        "0.5",
        "the h-AUROC of a constant prediction, a definition",
    ),
    # --- event benchmarks
    Not("| TEP | {}% | 0.929 | 0.910 | — | 1.00", "100", "a label fraction, a setting"),
    Not("| PatchTST 0.99 | | TEP | {}% | 0.697 | 0.687 | — | 1.00", "10", "a label fraction, a setting"),
    Not("| PatchTST 1.00 | | ETTm1 | {}% | 0.783 | 0.777 | 0.623 |", "100", "a label fraction, a setting"),
    Not("0.81 | MAE 0.87 | | ETTm1 | {}% | 0.748 | 0.759 | 0.556 |", "10", "a label fraction, a setting"),
    Not("| 0.73 | MAE 0.77 | | MBA | {}% | 0.784 | 0.773 | 0.676 |", "100", "a label fraction, a setting"),
    Not("iTransformer 0.84 | | MBA | {}% | 0.617 | 0.645 | 0.610 |", "10", "a label fraction, a setting"),
    Not("PatchTST 0.65 | | Weather | {}% | 0.712 | 0.739 | 0.653 |", "100", "a label fraction, a setting"),
    Not("| MAE 0.88 | | Weather | {}% | 0.686 | 0.763 | 0.540 |", "10", "a label fraction, a setting"),
    Not("0.85 | | Beijing | {}% | 0.717 | 0.734 | 0.828 |", "100", "a label fraction, a setting"),
    Not("MAE 0.81 | | Beijing | {}% | 0.640 | 0.652 | 0.802 |", "10", "a label fraction, a setting"),
    Not("| 0.78 | MAE 0.77 | | VIX | {}% | 0.615 | 0.630 | 0.720 |", "100", "a label fraction, a setting"),
    Not("| 0.57 | MAE 0.57 | | VIX | {}% | 0.521 | 0.538 | 0.661 |", "10", "a label fraction, a setting"),
    Not("PatchTST 0.57 | | BATADAL | {}% | 0.536 | 0.542 | 0.553 |", "100", "a label fraction, a setting"),
    Not("PatchTST 0.66 | | BATADAL | {}% | 0.516 | 0.555 | 0.586 |", "10", "a label fraction, a setting"),
    Not("beside the paper's Table {} (report section \"Event", "1", "a table number of the paper"),
    Not("chance (p ≥ {}): MBA with all labels", "0.05", "the chosen significance level"),
    Not("(+0.05, p = 0.864) and with {} % (+0.25, p = 0.369),", "10", "a label fraction, a setting"),
    Not("all labels, BATADAL with {} % (+0.09, p = 0.752) and", "10", "a label fraction, a setting"),
    Not("p = 0.752) and FD001 with {} % (+0.75, p = 0.0522). The", "1", "a label fraction, a setting"),
    Not("0.047 below), Weather with {} % labels (`mae`, 0.690 on", "10", "a label fraction, a setting"),
    Not("0.094 below), VIX with {} % (0.040 below) and BATADAL", "10", "a label fraction, a setting"),
    Not("below) and BATADAL with {} % (0.036 below). So on these", "10", "a label fraction, a setting"),
    Not("the BATADAL row with {} % labels that the defaults", "10", "a label fraction, a setting"),
    Not("test compares it there. With {} % labels no difference", "10", "a label fraction, a setting"),
    Not("encoder on Beijing with {} % labels (see [Channel", "10", "a label fraction, a setting"),
    Not("to 0.18 (Weather); with {}% labels it reaches it on MBA", "10", "a label fraction, a setting"),
    Not("0.929 for `hepa`; 0.987 with {}% labels; raw paired p =", "10", "a label fraction, a setting"),
    Not("below `hepa` on ETTm1 with {}% labels (0.581 against", "10", "a label fraction, a setting"),
    Not("on TEP (0.998; 0.974 with {}% labels), significantly", "10", "a label fraction, a setting"),
    Not("and, with iTransformer, with {}% (0.586 against 0.581). -", "10", "a label fraction, a setting"),
    Not("(0.801 and 0.776; with {}% labels significantly above", "10", "a label fraction, a setting"),
    Not("not significantly with {}% labels), and it is far", "10", "a label fraction, a setting"),
    Not("it wins 2 (ETTm1, {} %; FD004, all labels) and", "10", "a label fraction, a setting"),
    Not("ties 18 and loses 1 (FD002, {} %); against", "10", "a label fraction, a setting"),
    Not("### The {} default pipeline", "0.1.0", "a release"),
    Not("The plain pipeline with the {} defaults (`hepa-default`:", "0.1.0", "a release"),
    Not(
        "on every dataset) is within {} of the best tuned HEPA",
        "0.02",
        "the tolerance of the default's target, a setting",
    ),
    Not(
        "all labels) and more than {} below it in 6 (TEP by 0.11",
        "0.02",
        "the tolerance of the default's target, a setting",
    ),
    Not("and BATADAL by 0.06 with {}%), so the target of staying", "10", "a label fraction, a setting"),
    Not(
        "the target of staying within {} everywhere is missed. The",
        "0.02",
        "the tolerance of the default's target, a setting",
    ),
    # --- C-MAPSS through the event runner
    Not("| FD001 | {}% | 0.954 | 0.962 | 0.982 |", "100", "a label fraction, a setting"),
    Not("| PatchTST 0.80 | | FD001 | {}% | 0.898 | 0.937 | 0.926 |", "10", "a label fraction, a setting"),
    Not("| PatchTST 0.69 | | FD001 | {}% | 0.862 | 0.927 | 0.832 |", "5", "a label fraction, a setting"),
    Not("| 0.906 | — | — | | FD001 | {}% | 0.846 | 0.912 | 0.804 |", "2", "a label fraction, a setting"),
    Not("| 0.859 | — | — | | FD001 | {}% | 0.628 | 0.765 | 0.667 |", "1", "a label fraction, a setting"),
    Not("| 0.808 | — | — | | FD003 | {}% | 0.983 | 0.986 | 0.987 |", "100", "a label fraction, a setting"),
    Not("| PatchTST 0.79 | | FD003 | {}% | 0.922 | 0.953 | 0.907 |", "10", "a label fraction, a setting"),
    Not("0.84 | MAE 0.78 | | FD003 | {}% | 0.883 | 0.951 | 0.773 |", "5", "a label fraction, a setting"),
    Not("| 0.942 | — | — | | FD003 | {}% | 0.871 | 0.944 | 0.735 |", "2", "a label fraction, a setting"),
    Not("| 0.892 | — | — | | FD003 | {}% | 0.806 | 0.901 | 0.622 |", "1", "a label fraction, a setting"),
    Not("| FD002 | {}% | 0.931 | 0.870 | 0.771 |", "100", "a label fraction, a setting"),
    Not("0.57 | MAE 0.56 | | FD002 | {}% | 0.893 | 0.680 | 0.538 |", "10", "a label fraction, a setting"),
    Not("0.55 | MAE 0.52 | | FD002 | {}% | 0.607 | 0.524 | 0.504 |", "1", "a label fraction, a setting"),
    Not("| 0.630 | — | — | | FD004 | {}% | 0.929 | 0.851 | 0.840 |", "100", "a label fraction, a setting"),
    Not("0.63 | MAE 0.57 | | FD004 | {}% | 0.888 | 0.736 | 0.579 |", "10", "a label fraction, a setting"),
    Not("0.55 | MAE 0.52 | | FD004 | {}% | 0.630 | 0.561 | 0.520 |", "1", "a label fraction, a setting"),
    Not("get scarce: on FD003 with {} % (one labelled engine) MAE", "1", "a label fraction, a setting"),
    Not(
        "(two of its five seeds below {}), PatchTST 0.655 and",
        "0.5",
        "the h-AUROC of a constant or random score, a definition",
    ),
    Not("table's C-MAPSS rows. With {} % labels on FD004 the", "5", "a label fraction, a setting"),
    Not(
        "the untrained encoder's lead at {} % (+0.077) is not significant (adjusted p = 1). With 1 %",
        "5",
        "a label fraction, a setting",
    ),
    Not("(adjusted p = 1). With {} % of the engines labelled", "1", "a label fraction, a setting"),
    Not("iTransformer on FD004 with {} %. Our PatchTST and", "1", "a label fraction, a setting"),
    Not("and within its spread with {} % on FD002.", "10", "a label fraction, a setting"),
    Not("% (0.856 against 0.541 with {} %, 0.703 against 0.521 with", "5", "a label fraction, a setting"),
    Not("%, 0.703 against 0.521 with {} %). In the event table the", "2", "a label fraction, a setting"),
    Not("every window holds {} hours of\none series", "512", "the window length, a setting"),
    Not("embedding alone scores 0.558 (seed {})", "0", "a setting: the seed"),
    Not("training windows, {} hours apart", "4", "the stride, a setting"),
    Not("among its {} nearest", "10", "a setting of the measurement"),
    Not("scores 0.523 over seeds {}-4.", "0", "the seeds, a setting"),
    Not("scores 0.523 over seeds 0-{}.", "4", "the seeds, a setting"),
]

# figures whose source gives another value: (document, phrase, quoted, source value)
MISMATCHED = []
