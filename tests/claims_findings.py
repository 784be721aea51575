"""docs/findings.md: where each of its figures comes from (see ``claims_check`` for the rules).

Most figures are read from the generated report ``docs/benchmarks.md`` (``Cell``), which a test
of the harness regenerates byte for byte from the result records. Cells of boosting (``gbm``,
``gbm-regime``, ``gbm-last30``, ``gbm-regime-last30``, ``gbm-select``) are read from the report
as committed, not from the records, whose boosting records are being rerun; when the report is
regenerated those bindings report every figure that changed.

The figures not bound yet are listed in ``claims_findings_pending.NOT_YET_BOUND``.
"""

from claims_check import Bind, Cell, Computed, Mismatch, Not, Records

DOCUMENT = "docs/findings.md"

DEFAULT_NORMALISATION = "benchmarks/experiments/default_normalisation.txt"
CMAPSS_RECORDS = "benchmarks/cmapss_results.jsonl"
ALL_SEEDS, FIRST_TWO = (0, 1, 2, 3, 4), (0, 1)


def fd002_arm(arm, fraction=1.0, seeds=ALL_SEEDS):
    """An arm of ``default_normalisation.py`` on FD002, test h-AUROC per seed."""
    return Records(DEFAULT_NORMALISATION, dict(subset="FD002", arm=arm, fraction=fraction), "h_auroc", seeds=seeds)


def fd002_cell(method, fraction=1.0):
    """A C-MAPSS benchmark cell on FD002 (test h-AUROC per seed)."""
    return Records(CMAPSS_RECORDS, dict(subset="FD002", method=method, fraction=fraction), "h_auroc",
                   seeds=ALL_SEEDS)


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
    return Cell("Ours beside the paper's figure for the same method", (dataset, labels, method), "paper (quoted)",
                "first")


def below_paper(dataset, method="hepa", labels="100%"):
    """How far ours is below the paper's figure: minus column "ours − paper" of that table."""
    return Computed(negated, Cell("Ours beside the paper's figure for the same method", (dataset, labels, method),
                                  "ours − paper", "first"))


def negated(value):
    return -float(value)


def cmapss_pair(table, a, b, subset, labels="100%", column="Holm p"):
    """A row of the C-MAPSS report's pairwise comparisons, table ``table``."""
    return Cell(f"Pairwise comparisons / {table}", (f"{a} vs {b}", subset, labels), column, "first")


def event_pair(a, b, dataset, labels="100%", column="Holm p"):
    """A row of the event report's pairwise comparisons."""
    return Cell("Event benchmarks / Pairwise comparisons", (f"{a} vs {b}", dataset, labels), column, "first")


BINDINGS = [
    # C-MAPSS under the reference protocol: the default pipeline on FD002 (default_normalisation.py)
    Bind("the 0.1.0 default pipeline behind one reaches {}, 2 seeds", fd002_arm("regime", seeds=FIRST_TWO), ".3f"),
    Bind("the same pipeline scores {} against", fd002_arm("revin-random"), ".3f"),
    Bind("(5 seeds, raw paired p = {})",
         Computed("paired t p", fd002_arm("revin-random"), fd002_cell("hepa-default")), ".4f"),
    Bind('{} with `norm="global"`', fd002_arm("global-random"), ".3f"),
    # --- opening paragraphs
    Bind('PatchTST {} / 0.908 on', label_eff("FD001", "patchtst"), 'printed'),  # 0.991
    Bind('0.991 / {} on FD001,', label_eff("FD001", "patchtst", "10%"), 'printed'),  # 0.908
    Bind('on FD001, {} / 0.926 on', label_eff("FD003", "patchtst"), 'printed'),  # 0.991
    Bind('0.991 / {} on FD003,', label_eff("FD003", "patchtst", "10%"), 'printed'),  # 0.926
    Bind('on FD003, {} / 0.603 on', label_eff("FD002", "patchtst"), 'printed'),  # 0.577
    Bind('0.577 / {} on FD002', label_eff("FD002", "patchtst", "10%"), 'printed'),  # 0.603
    Bind('FD002 and {} / 0.592 on', label_eff("FD004", "patchtst"), 'printed'),  # 0.591
    Bind('0.591 / {} on FD004;', label_eff("FD004", "patchtst", "10%"), 'printed'),  # 0.592
    Bind('{} / 0.902,', label_eff("FD001", "itransformer"), 'printed'),  # 0.995
    Bind('0.995 / {}, 0.984 /', label_eff("FD001", "itransformer", "10%"), 'printed'),  # 0.902
    Bind('/ 0.902, {} / 0.913,', label_eff("FD003", "itransformer"), 'printed'),  # 0.984
    Bind('0.984 / {}, 0.573 /', label_eff("FD003", "itransformer", "10%"), 'printed'),  # 0.913
    Bind('/ 0.913, {} / 0.557', label_eff("FD002", "itransformer"), 'printed'),  # 0.573
    Bind('0.573 / {} and 0.671', label_eff("FD002", "itransformer", "10%"), 'printed'),  # 0.557
    Bind('0.557 and {} / 0.559.', label_eff("FD004", "itransformer"), 'printed'),  # 0.671
    Bind('0.671 / {}. With the', label_eff("FD004", "itransformer", "10%"), 'printed'),  # 0.559
    Bind('(Holm p = {}, report', cmapss_pair("h-AUROC, 100% labels", "hepa", "patchtst", "FD004"), 'printed'),  # 0.00253
    Bind('% labels: {} against', event("FD004", "hepa-random", "5%"), 'printed'),  # 0.683
    Bind('5 % labels: 0.683 against {}, Holm-adjusted p = 0.022)', event("FD004", "hepa", "5%"), 'printed'),  # 0.541
    Bind('p = {}) | | A', event_pair("hepa", "hepa-random", "FD004", "5%"), 'printed'),  # 0.022
    Bind('ρ = {} (18', Cell("Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "FD001", "ρ pooled (p)", "first"), 'printed'),  # +0.53
    Bind('ρ = +0.53 ({} snapshots,', Cell("Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "FD001", "snapshots", "first"), 'printed'),  # 18
    Bind('snapshots, {} seeds); on', Cell("Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "FD001", "seeds", "first"), 'printed'),  # 3
    Bind('any (pooled ρ from {} to +0.26) | | HEPA', Cell("Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "MBA", "ρ pooled (p)", "first"), 'printed'),  # −0.21
    Bind('−0.21 to {}) | | HEPA', Cell("Snapshot study: held-out pretraining loss against h-AUROC / Across datasets", "ETTm1", "ρ pooled (p)", "first"), 'printed'),  # +0.26
    Bind('all labels: FD001 {}, FD003 0.84, FD002', paper("FD001"), 'printed'),  # 0.81
    Bind('FD003 {}, FD002', paper("FD003"), 'printed'),  # 0.84
    Bind('FD003 0.84, FD002 {}, FD004 0.63 | With', paper("FD002"), 'printed'),  # 0.57
    Bind('FD004 {} | With', paper("FD004"), 'printed'),  # 0.63
    Bind('runner {}, 0.983,', event("FD001", "hepa"), 'printed'),  # 0.954
    Bind('0.954, {}, 0.771 and', event("FD003", "hepa"), 'printed'),  # 0.983
    Bind('0.983, {} and 0.840', event("FD002", "hepa"), 'printed'),  # 0.771
    Bind('0.771 and {} (5 seeds);', event("FD004", "hepa"), 'printed'),  # 0.840
    Bind('and 0.840 ({} seeds);', event("FD004", "hepa", part="seeds"), 'printed'),  # 5
    Bind("(5 seeds); the authors' README reports {} (FD001) and 0.960 (FD003) for their own", Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD001", "authors' implementation"), 'printed'),  # 0.918
    Bind("authors' README reports 0.918 (FD001) and {} (FD003) for their own code under that", Cell("C-MAPSS benchmark / h-AUROC, 100% labels", "FD003", "authors' implementation"), 'printed'),  # 0.960
    Bind("| `hepa` reaches the paper's HEPA figure on MBA ({} against 0.75) and VIX (0.615 against 0.57) and is", event("MBA", "hepa"), 'printed'),  # 0.784
    Bind("| `hepa` reaches the paper's HEPA figure on MBA (0.784 against {}) and VIX (0.615 against 0.57) and is below it on the other five,", paper("MBA"), 'printed'),  # 0.75
    Bind("| `hepa` reaches the paper's HEPA figure on MBA (0.784 against 0.75) and VIX ({} against 0.57) and is below it on the other five, by 0.03 (ETTm1) to 0.18 (Weather)", event("VIX", "hepa"), 'printed'),  # 0.615
    Bind("the paper's HEPA figure on MBA (0.784 against 0.75) and VIX (0.615 against {}) and is below it on the other five, by 0.03 (ETTm1) to 0.18 (Weather) | |", paper("VIX"), 'printed'),  # 0.57
    Bind('is below it on the other five, by {} (ETTm1) to 0.18 (Weather) | |', below_paper("ETTm1"), '.2f'),  # 0.03
    Bind('by 0.03 (ETTm1) to {} (Weather) | |', below_paper("Weather"), '.2f'),  # 0.18
    Bind('on FD002 {} and on', paper("FD002", "patchtst"), 'printed'),  # 0.44
    Bind('on FD004 {} | 0.572', paper("FD004", "patchtst"), 'printed'),  # 0.52
    Bind('0.52 | {} and 0.582', event("FD002", "patchtst-revin"), 'printed'),  # 0.572
    Bind('0.572 and {} here |', event("FD004", "patchtst-revin"), 'printed'),  # 0.582
]

NOT_MEASUREMENTS = [
    Not("has a Holm-adjusted p below {}", "0.05", "the chosen significance level"),
    # --- opening paragraphs
    Not('the last {} steps.', '30', 'a setting of the former boosting baseline (its window of summary statistics)'),
    Not('Those ran {} seeds on', '5', 'the seeds the runs were given, a setting of the command'),
    Not('labels / {} %):', '10', 'a label fraction, a setting'),
    Not('= 0.00253, report table "h-AUROC, {}% labels").', '100', 'the name of a report table (a label fraction)'),
    Not('(FD004, {} % labels:', '5', 'a label fraction, a setting'),
    Not('(Table {}, all', '1', 'a table number of the paper'),
]

# figures whose source gives another value: (document, phrase, quoted, source value)
MISMATCHED = [
    # a Holm-adjusted p of the event table as printed when it held fewer comparisons
    Mismatch(DOCUMENT, "p = {}) | | A", "0.022", "0.0346"),
]
