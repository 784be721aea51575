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


BINDINGS = [
    # C-MAPSS under the reference protocol: the default pipeline on FD002 (default_normalisation.py)
    Bind("the 0.1.0 default pipeline behind one reaches {}, 2 seeds", fd002_arm("regime", seeds=FIRST_TWO), ".3f"),
    Bind("the same pipeline scores {} against", fd002_arm("revin-random"), ".3f"),
    Bind("(5 seeds, raw paired p = {})",
         Computed("paired t p", fd002_arm("revin-random"), fd002_cell("hepa-default")), ".4f"),
    Bind('{} with `norm="global"`', fd002_arm("global-random"), ".3f"),
]

NOT_MEASUREMENTS = [
    Not("has a Holm-adjusted p below {}", "0.05", "the chosen significance level"),
]

# figures whose source gives another value: (document, phrase, quoted, source value)
MISMATCHED = []
