"""The report's section of method families: comparisons that were scripts, now entries of the method table.

Each family is a set of entries that one comparison fitted side by side
(``methods_normalisation``, ``methods_beside``), run by ``hepa-bench run``
into a results file of their own. The section has one part per family
with records: the means over the seeds per row and, against the family's
reference, the paired tests Holm-adjusted over that family's comparisons
alone (each family is one Holm family, as each table of the report is),
printed by :func:`hepa_bench.query.render`. A family without records has
no part, and the section is left out when none has any, so the rest of the
report does not depend on these files.
"""

from dataclasses import dataclass, field

from ..query import render

__all__ = ["FAMILIES", "Family", "render_families"]


@dataclass(frozen=True)
class Family:
    """One comparison: its heading, the entries it compares, the reference they are paired with."""

    title: str
    methods: tuple
    reference: str
    key: str = "valid_h_auroc"  # the screens score validation units alone
    datasets: tuple | None = None
    query: dict = field(default_factory=dict)  # further arguments of query.render
    # True where the reference's cells are the C-MAPSS benchmark's (the report's ``--results``)
    reference_in_results: bool = False


FAMILIES = (
    Family(
        "The 0.1.0 default pipeline taken apart on FD002 (`hepa-norm-*`, test units)",
        (
            "hepa-default-untrained",
            "hepa-norm-global-random",
            "hepa-norm-global",
            "hepa-norm-pre",
            "hepa-norm-global-pre",
            "hepa-norm-normalizer",
            "hepa-norm-normalizer-random",
        ),
        reference="hepa-default",
        key="h_auroc",
        datasets=("FD002",),
        reference_in_results=True,  # the script's arm `revin` is the benchmark's hepa-default cell
    ),
    Family(
        "The window level beside a level-free embedding (`hepa-level-*`, validation units)",
        ("hepa-level-revin", "hepa-level-regime", "hepa-level-regime-revin", "hepa-level-shift"),
        reference="hepa-default-auto0",
        datasets=("ETTm1", "VIX", "BATADAL", "Weather", "MBA", "Beijing", "FD002", "FD003", "FD004"),
        query={"fractions": [1.0], "seeds": [0]},  # its runs had every label and seed 0 alone
    ),
    Family(
        "The window level's forms and heads (`hepa-spread-*`, validation units)",
        ("hepa-default-auto0-spread", "hepa-spread-wd", "hepa-spread-small", "hepa-spread-select"),
        reference="hepa-default-auto0",
        # the datasets its runs cover: the reference's cells of other families share its file
        datasets=("BATADAL", "VIX", "ETTm1"),
        query={"fractions": [1.0]},  # its runs had every label
    ),
    Family(
        "Boosting's features beside the embedding (`hepa-beside-*`, validation units)",
        ("hepa-beside-multiscale", "hepa-beside-trend"),
        reference="hepa-default-auto0",
    ),
    Family(
        "Two views of each window (`hepa-views-*`, validation units)",
        ("hepa-views-global", "hepa-views-both"),
        reference="hepa-default-auto0",
        datasets=("Beijing", "ETTm1"),
    ),
)


def _has_records(family, files):
    return any(r.get("method") in family.methods for records in files for r in records)


def render_families(files, families=FAMILIES, results=()):
    """Markdown lines of the section for the records ``files`` (lists of records); none without records.

    ``results`` are the C-MAPSS benchmark's records: a family whose reference is one of its entries reads
    that entry's cells from them, and nothing else.
    """
    lines = []
    for family in families:
        if not _has_records(family, files):
            continue
        read = files
        if family.reference_in_results:
            read = [*files, [r for r in results if r.get("method") == family.reference]]
        lines += ["", f"### {family.title}", ""]
        lines += render(
            read,
            list(family.methods),
            reference=family.reference,
            key=family.key,
            datasets=list(family.datasets) if family.datasets else None,
            **family.query,
        )
    if not lines:
        return []
    intro = (
        "Comparisons that were scripts of `benchmarks/experiments`, now families of entries of the method table "
        "(their commands are on the harness page). Per family: each row's means over the seeds, then each entry "
        "against the family's reference, paired by seed, with the paired t-test's p Holm-adjusted over that "
        "family's comparisons alone."
    )
    return ["## Method families", "", intro, *lines]
