"""docs/speed.md quotes measurements verbatim from the committed outputs it links, with their commands.

The page is cut at its headings. In each part, every measured figure (a
decimal, or a whole number of three or more digits, outside code) must
appear verbatim in one of the output files under ``benchmarks/`` that the
part links, and every command line of its ``bash`` blocks must appear in one
of them too; a part that links no output quotes no figure. The section on
the event head's cost quotes its profile and the side-by-side run against boosting.
"""

import re
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
PAGE = REPOSITORY / "docs" / "speed.md"

OUTPUT_LINK = re.compile(r"\]\(\.\./(benchmarks/[^)\s]+\.(?:txt|json))\)")
BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.MULTILINE | re.DOTALL)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
# a figure: grouped thousands, a decimal or three or more digits, with an optional "x" of a ratio;
# not part of a name, a version, a commit or a parameter (FD001, 2.13.0, 85f55f3, AVX-512, K=150)
FIGURE = re.compile(r"(?<![\w.=\-])(\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})(x?)(?!\w|\.\d)")


def parts():
    """(heading, text) for each part of the page, cut at its headings of level 1 to 3."""
    text = PAGE.read_text(encoding="utf-8")
    pieces = re.split(r"^(#{1,3} .*)$", text, flags=re.MULTILINE)
    return [(heading.strip(), body) for heading, body in zip(pieces[1::2], pieces[2::2], strict=True)]


def figures(body):
    prose = LINK_TARGET.sub("]", INLINE_CODE.sub("", FENCE.sub("", body)))
    return [number + suffix for number, suffix in FIGURE.findall(prose)]


def cited(body):
    return sorted(set(OUTPUT_LINK.findall(body)))


PARTS = parts()


def test_the_page_is_cut_into_its_sections():
    headings = [heading for heading, _ in PARTS]
    for expected in (
        "## What a fit costs",
        "## The event head's cost",
        "## Where the time goes",
        "## Threads and precision on the CPU",
        "## On a GPU",
        "## The paper's protocol beside the authors' code",
        "## Memory",
    ):
        assert expected in headings


@pytest.mark.parametrize("heading, body", PARTS, ids=[heading for heading, _ in PARTS])
def test_every_figure_and_command_is_in_a_linked_output(heading, body):
    files = cited(body)
    for path in files:
        assert (REPOSITORY / path).is_file(), f"{heading}: {path} does not exist"
    sources = "\n".join((REPOSITORY / path).read_text(encoding="utf-8") for path in files)
    missing = [figure for figure in figures(body) if figure not in sources]
    assert not missing, f"{heading}: {missing} not in {files or 'any linked output'}"
    if files:
        commands = [line.strip() for block in BASH_BLOCK.findall(body) for line in block.splitlines() if line.strip()]
        assert all(command in sources for command in commands), f"{heading}: a command is not in {files}"


def test_the_headline_fit_is_quoted_with_its_command():
    body = dict(PARTS)["## What a fit costs"]
    assert cited(body) == ["benchmarks/experiments/first_fit/first_fit.txt"]
    assert (
        "OMP_NUM_THREADS=1 taskset -c 1 python benchmarks/experiments/first_fit.py --subset FD001 --test-stride 4"
        in body
    )
    assert "| FD001 | 5196 | 3312 | 19 | 18.4 | 18.8 | 0.9596806394138093 |" in body


def test_the_event_head_section_quotes_both_heads_beside_boosting():
    body = dict(PARTS)["## The event head's cost"]
    assert cited(body) == [
        "benchmarks/experiments/default_fit_profile/default_fit_profile.txt",
        "benchmarks/experiments/fit_vs_boosting/fit_vs_boosting.txt",
    ]
    assert "| event head fit | 94.79 (25 epochs) | 9.31 (26 epochs) | 19.24 (21 epochs) |" in body
    assert "| FD001 (medians of 3) | 18.4 | 16.37 | 622.0 | 727.0 |" in body
