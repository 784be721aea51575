"""``hepa-bench report``: the command on a hand-made results file, and the committed report regenerated exactly."""

import json
from pathlib import Path

import pytest
from hepa_bench.cli import main
from hepa_bench.report.document import render_report
from hepa_bench.report.manifest import find_manifest, input_paths, read_manifest

REPOSITORY = Path(__file__).resolve().parents[2]


def test_report_from_a_hand_made_results_file(tmp_path, hand_made_records):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in hand_made_records()))
    output = tmp_path / "report.md"
    main(["report", "--results", str(results), "--output", str(output)])
    text = output.read_text()
    table = text[text.index("## h-AUROC, 100% labels") : text.index("## Label efficiency")]
    # FD001: marked, where Welch's test (p = 0.76) would not; FD002 and FD003: raw p < 0.05, Holm's above
    assert "| FD001 | 0.860 ± 0.100 (5) >gbm | 0.840 ± 0.096 (5) |" in table
    assert "| FD002 | 0.863 ± 0.096 (5) | 0.840 ± 0.096 (5) |" in table
    assert "| FD003 | 0.820 ± 0.095 (5) | 0.840 ± 0.096 (5) |" in table
    assert "Holm's correction over 3 comparisons (paired t-test, p < 0.05)." in table
    assert "Welch" not in text
    assert "0.0625" in text  # Wilcoxon's floor on 5 seeds is stated
    pairwise = text[text.index("## Pairwise comparisons") : text.index("## Wall time")]
    assert "| hepa vs gbm | FD001 | 100% | 5 | +0.020 | 0.00481 | 0.0625 | 0.0144 * |" in pairwise
    assert "| hepa vs gbm | FD002 | 100% | 5 | +0.023 | 0.0452 | 0.0625 | 0.0905 |" in pairwise
    assert "| hepa vs gbm | FD003 | 100% | 5 | -0.020 | 0.0474 | 0.125 | 0.0905 |" in pairwise
    assert "## Event benchmarks" not in text and "## Snapshot study" not in text


def test_report_with_no_argument_regenerates_every_document_of_the_manifest(monkeypatch, capsys):
    # `hepa-bench report`, run anywhere in the repository, writes each document that benchmarks/manifest.json
    # names from the records it names (docs/benchmarks.md, the README's summary table, the findings'
    # generated blocks); --check compares instead
    monkeypatch.chdir(REPOSITORY / "docs")
    manifest = read_manifest(find_manifest())
    assert [document.output.relative_to(REPOSITORY).as_posix() for document in manifest.documents] == [
        "docs/benchmarks.md",
        "README.md",
        "docs/findings.md",
    ]
    main(["report", "--check"])  # SystemExit naming each document that differs from its records
    assert "benchmarks.md, ../README.md, findings.md as the records give them" in capsys.readouterr().out


def test_the_manifest_names_files_that_exist():
    manifest = read_manifest(REPOSITORY / "benchmarks" / "manifest.json")
    named = [path for document in manifest.documents for path in input_paths(document)]
    for figure in manifest.figures:
        assert set(figure) == {"output", "inputs", "command"} and figure["command"].startswith("hepa-bench ")
        named += [manifest.root / figure["output"], *(manifest.root / path for path in figure["inputs"])]
    assert [path for path in named if not path.is_file()] == []


def test_report_refuses_a_missing_input_and_leaves_the_output_alone(tmp_path, capsys):
    output = tmp_path / "report.md"
    output.write_text("# the committed report\n")
    for option in ("--results", "--events", "--snapshots"):
        argv = ["report", "--results", str(tmp_path / "nowhere.jsonl"), "--output", str(output)]
        if option != "--results":
            (tmp_path / "results.jsonl").write_text("")
            argv[2] = str(tmp_path / "results.jsonl")
            argv += [option, str(tmp_path / "nowhere.jsonl")]
        with pytest.raises(
            SystemExit,
            match=rf"hepa-bench report: {option} names .*nowhere.jsonl, which is not a "
            r"file; nothing was written",
        ):
            main(argv)
        assert output.read_text() == "# the committed report\n"


def test_report_refuses_an_output_that_cannot_be_a_file_before_any_work(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text("")
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    folder = tmp_path / "folder"
    folder.mkdir()
    for output, why in ((folder, "is a folder"), (afile / "report.md", "is not a folder")):
        expected = rf"^hepa-bench report: --output names {output}, .*{why}.*nothing was written"
        with pytest.raises(SystemExit, match=expected):
            main(["report", "--results", str(results), "--output", str(output)])
    assert afile.read_text() == "keep me" and list(folder.iterdir()) == []
    assert sorted(path.name for path in tmp_path.iterdir()) == ["afile", "folder", "results.jsonl"]


def test_report_never_replaces_its_output_with_a_shorter_one_unless_asked(tmp_path, hand_made_records):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in hand_made_records()))
    output = tmp_path / "report.md"
    main(["report", "--results", str(results), "--output", str(output)])
    full = output.read_text()
    results.write_text(json.dumps(hand_made_records()[0]) + "\n")
    with pytest.raises(SystemExit, match=r"the new report has \d+ lines, .*report.md has \d+; it was left as it is"):
        main(["report", "--results", str(results), "--output", str(output)])
    assert output.read_text() == full
    main(["report", "--results", str(results), "--output", str(output), "--allow-shorter"])
    assert len(output.read_text().splitlines()) < len(full.splitlines())
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.md", "results.jsonl"]  # no temporary file


@pytest.mark.parametrize(
    "line, why",
    [
        ('{"dataset": "FD001"}', r"no field \['method', 'seed'"),
        ("[1, 2, 3]", "a JSON list, not an object"),
        (
            '{"subset": "FD001", "seed": "0", "fraction": 1.0, "method": "hepa", "pretrain_epochs": 50, '
            '"finetune_epochs": 30, "versions": {}}',
            r"fields \['seed'\] of another type",
        ),
        ("not json at all", "not a JSON record"),
    ],
)
def test_records_of_another_shape_are_skipped_with_a_warning_naming_the_line(tmp_path, hand_made_records, line, why):
    records = hand_made_records()
    results = tmp_path / "results.jsonl"
    results.write_text(
        "".join(json.dumps(r) + "\n" for r in records[:3])
        + line
        + "\n"
        + "".join(json.dumps(r) + "\n" for r in records[3:])
    )
    with pytest.warns(UserWarning, match=rf"results.jsonl, line 4: skipped, {why}"):
        text = render_report(results)
    reference = tmp_path / "reference.jsonl"
    reference.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert text == render_report(reference)


@pytest.mark.parametrize("section", ["causes", "families", "yardstick"])
def test_a_damaged_record_of_an_optional_section_is_skipped_with_a_warning_naming_the_line(
    tmp_path, hand_made_records, section
):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in hand_made_records()))
    damaged = tmp_path / "damaged.jsonl"
    good = {"dataset": "FD001", "seed": 0, "fraction": 1.0, "method": "hepa", "h_auroc": 0.9}
    no_seed = {k: v for k, v in good.items() if k != "seed"}
    damaged.write_text(json.dumps(good) + "\n" + json.dumps(no_seed) + "\n")
    family = tmp_path / "family.json"
    row = {"dataset": "FD001", "fraction": 1.0, "headline": "hepa", "baseline": "gbm"}
    family.write_text(json.dumps({"seeds": [0, 1], "rows": [row]}))
    files = {"causes": damaged, "families": [damaged], "yardstick": [family, damaged]}
    with pytest.warns(UserWarning, match=rf"^{damaged}, line 2: skipped, no field 'seed'"):
        render_report(results, **{section: files[section]})
