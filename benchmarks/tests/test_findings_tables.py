"""The generated blocks of docs/findings.md: reading their sources, writing figures, replacing them."""

import pytest
from hepa_bench.report import findings as findings_tables
from hepa_bench.report.findings import (
    SOURCES,
    Sources,
    best_quoted,
    blocks_of,
    formatted,
    main,
    markdown_tables,
    mean_of,
    mean_sd,
    regenerated,
)


def _write(root, key, text):
    path = root / SOURCES[key]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _document(*names, body="| a |\n|---|\n| 1 |"):
    parts = ["# Findings", "", "Some prose with 0.5 in it.", ""]
    for name in names:
        parts += [f"<!-- generated:{name}:start -->", "", body, "", f"<!-- generated:{name}:end -->", ""]
    return "\n".join(parts + ["The end."]) + "\n"


@pytest.fixture
def two_blocks(monkeypatch):
    """BLOCKS replaced by two blocks that render a count of the lines of the speed output."""

    def lines_of(sources):
        return ["| lines |", "|---|", f"| {len(sources.text('speed').splitlines())} |"]

    blocks = {"first": lines_of, "second": lambda sources: ["| fixed |"]}
    monkeypatch.setattr(findings_tables, "BLOCKS", blocks)


def test_tables_are_read_under_their_headings():
    text = "# A\n\n## B\n\n| x | y |\n|---|---|\n| r | 1 ± 2 (3) |\n\n#### D\n\n| z |\n|---|\n| 4 |\n"
    tables = markdown_tables(text)
    assert tables == [(("A", "B"), ["x", "y"], [["r", "1 ± 2 (3)"]]), (("A", "B", "D"), ["z"], [["4"]])]


def test_a_cell_is_found_by_its_row_and_column(tmp_path):
    _write(tmp_path, "report", "# R\n\n## T\n\n| k | l | m |\n|---|---|---|\n| a | 1 | 0.5 ± 0.1 (5) |\n")
    table = Sources(tmp_path).table("report", "R / T")
    assert table.cell("a", "m") == "0.5 ± 0.1 (5)" and table.cell(("a", "1"), "l") == "1"
    with pytest.raises(KeyError):
        table.cell("b", "m")
    with pytest.raises(KeyError):
        table.cell("a", "n")
    with pytest.raises(KeyError):
        Sources(tmp_path).table("report", "Q")


def test_figures_are_written_as_the_document_writes_them():
    assert mean_sd("0.957 ± 0.022 (5) >minirocket") == "0.957 ± 0.022" and mean_sd("—") == "—"
    assert mean_of("0.81 ± 0.03") == "0.81" and mean_of("0.233 ± 0.093 (5)") == "0.233"
    assert best_quoted("PatchTST 0.81 ± 0.01, MAE 0.81 ± 0.01") == "PatchTST, MAE 0.81"
    assert best_quoted("MAE 0.87 ± 0.00") == "MAE 0.87" and best_quoted("—") == "—"
    with pytest.raises(ValueError):
        best_quoted("PatchTST 0.81 ± 0.01, MAE 0.80 ± 0.01")
    assert formatted("-0.0265", ".3f") == "-0.027" and formatted("179.5", ".0f") == "180"
    assert formatted(0.1234, ".3f") == "0.123" and formatted(0.25, "percent .0") == "25"


def test_the_blocks_are_replaced_in_place_and_nothing_else(tmp_path, two_blocks):
    _write(tmp_path, "speed", "one\ntwo\nthree\n")
    text = _document("first", "second")
    new = regenerated(text, Sources(tmp_path))
    assert blocks_of(new) == {"first": ["| lines |", "|---|", "| 3 |"], "second": ["| fixed |"]}
    table = "| a |\n|---|\n| 1 |"
    assert new.replace("| lines |\n|---|\n| 3 |", table).replace("| fixed |", table) == text
    assert regenerated(new, Sources(tmp_path)) == new


def test_a_list_inside_a_sentence_is_replaced_on_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(findings_tables, "BLOCKS", {"list": lambda sources: "FD001 0.976 and VIX 0.750"})
    marked = "<!-- generated:list:start -->{}<!-- generated:list:end -->"
    text = "# Findings\n\nIt scores " + marked.format("FD001 0.9 and VIX 0.7") + "; it\nis level.\n"
    new = regenerated(text, Sources(tmp_path))
    assert new == text.replace("FD001 0.9 and VIX 0.7", "FD001 0.976 and VIX 0.750")
    assert blocks_of(new) == {"list": ["FD001 0.976 and VIX 0.750"]}
    with pytest.raises(ValueError):  # a list over two lines
        blocks_of(text.replace("0.9 and", "0.9\nand"))


@pytest.mark.parametrize(
    "text",
    [
        _document("first"),  # a block missing
        _document("first", "second", "third"),  # a block that nothing renders
        _document("first", "first", "second"),  # a block twice
        _document("first", "second") + "<!-- generated:third:start -->\n",  # a marker without its pair
    ],
)
def test_a_document_whose_blocks_are_not_those_rendered_is_refused(tmp_path, two_blocks, text):
    _write(tmp_path, "speed", "one\n")
    with pytest.raises(ValueError):
        regenerated(text, Sources(tmp_path))


def test_the_command_rewrites_the_document_and_checks_it(tmp_path, two_blocks, capsys):
    _write(tmp_path, "speed", "one\ntwo\n")
    path = tmp_path / findings_tables.DOCUMENT
    path.parent.mkdir()
    path.write_text(_document("first", "second"), encoding="utf-8")
    assert main(["--root", str(tmp_path), "--check"]) == 1
    assert "'first'" in capsys.readouterr().err
    assert main(["--root", str(tmp_path)]) == 0
    assert blocks_of(path.read_text(encoding="utf-8"))["first"][-1] == "| 2 |"
    assert main(["--root", str(tmp_path), "--check"]) == 0
