"""Every number that README.md and docs/findings.md quote is bound to where it comes from.

The rules are those of ``tests/claims_check.py`` (its docstring): every number of the two
documents, integers, CPU seconds and ratios included, is either bound to a source that the
test recomputes it from and compares character for character (``Bind``: a cell of a table of
the generated report ``docs/benchmarks.md``, a query over result records, a line of an
experiment's output, a field of a JSON record, or a computation over those), or listed with a
reason as not a measurement (``Not``), or, in docs/findings.md only, still in the inventory of
figures not yet bound (``claims_findings_pending.NOT_YET_BOUND``), which only shrinks. Excluded
by rule: numbers inside fenced code blocks, inline code spans, HTML comments and link targets,
digits that are part of a name (``FD001``, ``H100``), and the README's generated summary table
(checked against the records by ``tests/test_readme.py``). Presence of a figure elsewhere
counts for nothing. The bindings are in ``tests/claims_readme.py`` and
``tests/claims_findings.py``; a binding whose source gives another value than the quoted one is
reported unless it is in ``MISMATCHED`` (``tests/claims_findings.py``), which must be exactly
the list of such figures.

docs/user_guide.md quotes few figures, each printed verbatim by the README, the report or a
benchmark output, and no research statistics: ``tests/test_docs_user_guide.py`` checks it.
"""

import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import claims_check  # noqa: E402
import claims_findings  # noqa: E402
import claims_findings_pending  # noqa: E402
import claims_readme  # noqa: E402
from claims_check import Bind, Not, Pending, check, located, numbers, one_unit_changed  # noqa: E402

BOUND = {
    claims_readme.DOCUMENT: (claims_readme.BINDINGS, claims_readme.NOT_MEASUREMENTS, []),
    claims_findings.DOCUMENT: (
        claims_findings.BINDINGS,
        claims_findings.NOT_MEASUREMENTS,
        claims_findings_pending.NOT_YET_BOUND,
    ),
}
MISMATCHED = claims_findings.MISMATCHED


@pytest.fixture(scope="module")
def expected():
    """Per document, the string each binding's source gives (each source read once)."""
    return {document: claims_check.expected_strings(bindings) for document, (bindings, _, _) in BOUND.items()}


def run_check(document, text, expected):
    bindings, nots, pending = BOUND[document]
    return check(
        document, text, bindings, nots, pending, expected[document], [m for m in MISMATCHED if m.document == document]
    )


@pytest.mark.parametrize("document", list(BOUND))
def test_every_number_is_bound_and_is_what_its_source_gives(document, expected):
    problems = run_check(document, claims_check.read(document), expected)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_the_mismatches_are_listed_and_visible(expected):
    """The figures whose source gives another value are exactly ``MISMATCHED`` (the check above
    fails on any other and on a listed one that matches now); each is reported here."""
    for mismatch in MISMATCHED:
        assert mismatch.document in BOUND and mismatch.quoted != mismatch.source_value
    if MISMATCHED:
        warnings.warn(
            f"{len(MISMATCHED)} quoted figures differ from their source: "
            + "; ".join(f"{m.document}: {m.quoted} in {m.phrase!r}, source {m.source_value}" for m in MISMATCHED),
            stacklevel=1,
        )


def test_the_inventory_of_figures_not_yet_bound_only_shrinks():
    pending = claims_findings_pending.NOT_YET_BOUND
    assert len(pending) <= claims_findings_pending.CEILING, (
        f"NOT_YET_BOUND has {len(pending)} entries, more than its ceiling {claims_findings_pending.CEILING}: "
        "bind a new figure instead of listing it"
    )
    assert len(set(pending)) == len(pending)
    if pending:
        warnings.warn(f"{claims_findings.DOCUMENT}: {len(pending)} numbers not yet bound to a source", stacklevel=1)


def test_every_bound_figure_changed_by_one_unit_is_reported(expected):
    """For every binding of both documents, the figure it names moved one unit of its last decimal
    up, and down, in the document's text makes the check fail."""
    for document, (bindings, _, _) in BOUND.items():
        text = claims_check.read(document)
        _, hits = located(text, [b.phrase for b in bindings])
        unreported = []
        for binding, named in zip(bindings, hits, strict=True):
            ((start, end, quoted),) = named
            for step in (1, -1):
                changed = one_unit_changed(quoted, step)
                assert changed != quoted
                altered = text[:start] + changed + text[end:]
                if not run_check(document, altered, expected):
                    unreported.append(f"{document}: {quoted} -> {changed} in {binding.phrase!r}")
        assert not unreported, "changes the check does not report:\n" + "\n".join(unreported)


def test_an_unbound_number_is_reported(expected):
    for document in BOUND:
        text = claims_check.read(document)
        start = text.index("\n## ", len(text) // 3) + 1  # before a heading: never inside a code block or table
        altered = text[:start] + "A figure of nowhere: 0.123 here.\n\n" + text[start:]
        problems = run_check(document, altered, expected)
        assert [p for p in problems if "0.123 is bound to no source" in p], problems


def test_a_stale_not_a_measurement_entry_is_reported(expected):
    document = claims_readme.DOCUMENT
    text = claims_check.read(document).replace("PHM 2008", "PHM 2009")
    problems = run_check(document, text, expected)
    assert any("2008" in p and "phrase not found" in p for p in problems)
    assert any("2009 is bound to no source" in p for p in problems)


def test_the_rules_on_a_hand_made_text():
    paragraph = (
        "FD001 scores 0.974 (−0.021, +3; seeds 0-2) on an H100 with e2e, BSD-3-Clause, release 0.1.0,\n"
        "`K=150` [a](x/1.md) 2,018 windows, 94.5% and 5 %."
    )
    assert [t for _, _, t in numbers(paragraph)] == ["0.974", "−0.021", "+3", "0", "2", "0.1.0", "2,018", "94.5", "5"]
    text = "x\n\n```\n0.5\n```\n\n<!-- 7 -->\nscores 0.974 in 69 s\n\nsecond 0.974 in 70 s\n"
    found, hits = located(text, ["scores {} in", "{} in 69", "0.974 in {} s"])
    assert [t for _, _, t in found] == ["0.974", "69", "0.974", "70"]
    assert [[t for _, _, t in h] for h in hits] == [["0.974"], ["0.974"], ["69", "70"]]
    problems = check(
        "d",
        text,
        [Bind("scores {} in", None, None)],
        [Not("0.974 in {} s", "70", "a setting")],
        [Pending("second {} in", "0.974")],
        ["0.975"],
        [],
    )
    assert len(problems) == 2 and "the source gives 0.975" in problems[0] and "69 is bound to no" in problems[1]
    assert one_unit_changed("0.926") == "0.927" and one_unit_changed("2,018", -1) == "2,017"
    assert one_unit_changed("−0.21") == "−0.22" and one_unit_changed("0", -1) == "1"
