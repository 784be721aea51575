"""Every number that README.md and docs/findings.md quote is bound to where it comes from.

The rules are those of ``tests/claims_check.py`` (its docstring): every number of the two
documents, integers, CPU seconds and ratios included, is either bound to a source that the
test recomputes it from and compares character for character (``Bind``: a cell of a table of
the generated report ``docs/benchmarks.md``, a query over result records, a line of an
experiment's output, a field of a JSON record, or a computation over those), or listed with a
reason as not a measurement (``Not``), or, in docs/findings.md only, still in the inventory of
figures not yet bound (``claims_findings_pending.NOT_YET_BOUND``), which only shrinks. Excluded
by rule: numbers inside fenced code blocks, inline code spans, HTML comments and link targets,
digits that are part of a name (``FD001``, ``H100``), the README's generated summary table
(checked against the records by ``tests/test_readme.py``) and the generated blocks of
docs/findings.md (its tables, between ``<!-- generated:NAME:start -->`` and
``<!-- generated:NAME:end -->``), which ``hepa_bench.report.findings`` renders from their sources
and which this test regenerates and compares byte for byte. Presence of a figure elsewhere
counts for nothing. The bindings are in ``tests/claims_readme.py`` and
``tests/claims_findings.py``; a binding whose source gives another value than the quoted one is
reported unless it is in ``MISMATCHED`` (``tests/claims_findings.py``), which must be exactly
the list of such figures.

docs/user_guide.md quotes few figures, each printed verbatim by the README, the report or a
benchmark output, and no research statistics: ``tests/test_docs_user_guide.py`` checks it.
"""

import sys
import warnings
from collections import namedtuple
from pathlib import Path

import pytest
from hepa_bench.report.findings import MARKERS, Sources, blocks_of, regenerated, rendered_blocks

sys.path.insert(0, str(Path(__file__).resolve().parent))

import claims_check  # noqa: E402
import claims_findings  # noqa: E402
import claims_findings_pending  # noqa: E402
import claims_readme  # noqa: E402
from claims_check import Bind, Not, Pending, binds, check, located, nots, numbers, one_unit_changed  # noqa: E402

BOUND = {
    claims_readme.DOCUMENT: (claims_readme.BINDINGS, claims_readme.NOT_MEASUREMENTS, []),
    claims_findings.DOCUMENT: (
        claims_findings.BINDINGS,
        claims_findings.NOT_MEASUREMENTS,
        claims_findings_pending.NOT_YET_BOUND,
    ),
}
MISMATCHED = claims_findings.MISMATCHED
GENERATED = [claims_findings.DOCUMENT]  # the documents with blocks that hepa_bench.report.findings renders

Expected = namedtuple("Expected", "strings blocks")  # per document: each binding's string, each block's lines


@pytest.fixture(scope="module")
def expected():
    """Per document, the string each binding's source gives and the lines of each generated block (each
    source read once)."""
    sources = Sources(claims_check.REPOSITORY)
    return {
        document: Expected(
            claims_check.expected_strings(bindings), rendered_blocks(sources) if document in GENERATED else {}
        )
        for document, (bindings, _, _) in BOUND.items()
    }


def block_problems(document, text, blocks):
    """What is wrong with the generated blocks of ``text``: a list of lines, empty when the blocks are
    exactly ``blocks`` (``{name: lines}``, what their sources give)."""
    try:
        found = blocks_of(text)
    except ValueError as error:
        return [f"{document}: {error}"]
    problems = [f"{document}: no generated block {name!r}" for name in blocks if name not in found]
    problems += [f"{document}: nothing generates the block {name!r}" for name in found if name not in blocks]
    for name in sorted(found.keys() & blocks.keys()):
        quoted, given = found[name] + [""], blocks[name] + [""]
        line = next((i for i, (a, b) in enumerate(zip(quoted, given, strict=False)) if a != b), None)
        if line is not None:
            problems.append(
                f"{document}: the block {name!r} is not what its sources give: its line {line + 1} is "
                f"{quoted[line]!r}, the sources give {given[line]!r} (`python -m hepa_bench.report.findings`)"
            )
    return problems


def run_check(document, text, expected):
    bindings, nots, pending = BOUND[document]
    strings, blocks = expected[document]
    mismatched = [m for m in MISMATCHED if m.document == document]
    problems = check(document, text, bindings, nots, pending, strings, mismatched)
    return problems + (block_problems(document, text, blocks) if document in GENERATED else [])


@pytest.mark.parametrize("document", list(BOUND))
def test_every_number_is_bound_and_is_what_its_source_gives(document, expected):
    problems = run_check(document, claims_check.read(document), expected)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("document", GENERATED)
def test_the_generated_blocks_are_what_their_sources_give(document):
    """Every generated block, rendered afresh from its sources, is the document's byte for byte."""
    text = claims_check.read(document)
    command = "python -m hepa_bench.report.findings"
    assert regenerated(text, Sources(claims_check.REPOSITORY)) == text, (
        f"{document}: a generated block is not what its sources give: run `{command}`"
    )


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


def quoted_figures(document, text):
    """``(kind, start, end, figure, where)`` of every figure of ``text`` that the check compares with a
    source: each one a binding names (``"bound"``) and each number inside a generated block
    (``"generated"``)."""
    bindings = BOUND[document][0]
    _, hits = located(text, [b.phrase for b in bindings])
    for binding, named in zip(bindings, hits, strict=True):
        ((start, end, quoted),) = named
        yield "bound", start, end, quoted, f"binding {binding.phrase!r}"
    if document in GENERATED:
        for block in MARKERS.finditer(text):
            offset = block.start("body")
            for start, end, quoted in numbers(block["body"]):
                where = f"block {block['name']!r}, line {text.count(chr(10), 0, offset + start) + 1}"
                yield "generated", offset + start, offset + end, quoted, where


def test_every_quoted_figure_changed_by_one_unit_is_reported(expected):
    """For every figure of both documents that a binding names or a generated block holds, the figure
    moved one unit of its last decimal up, and down, in the document's text makes the check fail."""
    kinds = set()
    for document in BOUND:
        text = claims_check.read(document)
        unreported = []
        for kind, start, end, quoted, where in quoted_figures(document, text):
            kinds.add(kind)
            for step in (1, -1):
                changed = one_unit_changed(quoted, step)
                assert changed != quoted
                altered = text[:start] + changed + text[end:]
                if not run_check(document, altered, expected):
                    unreported.append(f"{document}: {quoted} -> {changed} in {where}")
        assert not unreported, "changes the check does not report:\n" + "\n".join(unreported)
    assert kinds == {"bound", "generated"}, kinds  # both kinds of figure were changed


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


def test_a_sentence_of_several_figures_is_bound_figure_by_figure():
    text = "It scores FD001 0.976, FD002 0.978 and VIX 0.750 with 5 and 10 % labels.\n"
    bound = binds("FD001 {}, FD002 {} and VIX {} with", "a", ("b", ".2f"), "c")
    assert [b.phrase for b in bound] == [
        "FD001 {}, FD002 {*} and VIX {*} with",
        "FD001 {*}, FD002 {} and VIX {*} with",
        "FD001 {*}, FD002 {*} and VIX {} with",
    ]
    assert [(b.source, b.format) for b in bound] == [("a", "printed"), ("b", ".2f"), ("c", "printed")]
    listed = nots("with {} and {} % labels", ["5", "10"], "label fractions")
    assert [n.phrase for n in listed] == ["with {} and 10 % labels", "with 5 and {} % labels"]
    assert check("d", text, bound, listed, [], ["0.976", "0.98", "0.750"], []) == [
        "d:1: 0.978 in 'FD001 {*}, FD002 {} and VIX {*} with': the source gives 0.98 (b)"
    ]
    altered = text.replace("0.750", "0.751")
    assert len(check("d", altered, bound, listed, [], ["0.976", "0.978", "0.750"], [])) == 1
