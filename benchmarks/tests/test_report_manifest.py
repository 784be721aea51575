"""``hepa-bench report`` with no argument: every document of the manifest, in a small repository made here."""

import json

import pytest
from hepa_bench.cli import main
from hepa_bench.report.document import render_report
from hepa_bench.report.manifest import MANIFEST, read_manifest, render_manifest
from hepa_bench.report.summary import END, START

README = f"# A project\n\nIts summary:\n\n{START}\n\nold lines\n\n{END}\n\nAnd after it.\n"


def event_record(dataset, method, seed, score):
    return {
        "dataset": dataset,
        "method": method,
        "seed": seed,
        "fraction": 1.0,
        "h_auroc": score,
        "valid_h_auroc": score,
        "pretrain_epochs": 100,
        "finetune_epochs": 50,
    }


@pytest.fixture
def repository(tmp_path, hand_made_records):
    """A repository with records, a README with the summary's markers and a manifest naming two documents."""
    records = tmp_path / "benchmarks" / "records"
    records.mkdir(parents=True)
    (tmp_path / "docs").mkdir()
    (records / "cmapss.jsonl").write_text("".join(json.dumps(r) + "\n" for r in hand_made_records()))
    events = [event_record("ETTm1", method, seed, 0.7 + 0.01 * seed) for method in ("gbm", "hepa") for seed in range(3)]
    (records / "events.jsonl").write_text("".join(json.dumps(r) + "\n" for r in events))
    (tmp_path / "README.md").write_text(README)
    inputs = {"results": "benchmarks/records/cmapss.jsonl", "events": "benchmarks/records/events.jsonl"}
    manifest = {
        "root": "..",
        "documents": [
            {"output": "docs/report.md", "kind": "report", "inputs": {"results": inputs["results"]}},
            {"output": "README.md", "kind": "summary", "inputs": inputs},
        ],
    }
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    return tmp_path


def test_no_argument_writes_every_document_and_check_compares_them(repository, monkeypatch, capsys):
    monkeypatch.chdir(repository / "docs")  # the manifest is found in a folder above
    main(["report"])
    report = (repository / "docs" / "report.md").read_text()
    assert report == render_report(repository / "benchmarks" / "records" / "cmapss.jsonl")
    readme = (repository / "README.md").read_text()
    assert "old lines" not in readme and "| ETTm1 |" in readme
    assert readme.startswith("# A project\n\nIts summary:\n\n") and readme.endswith(f"{END}\n\nAnd after it.\n")
    assert capsys.readouterr().out.splitlines() == ["wrote report.md", "wrote ../README.md"]
    assert render_manifest(read_manifest(repository / MANIFEST)) == {
        repository / "docs" / "report.md": report,
        repository / "README.md": readme,
    }

    main(["report", "--check"])
    assert "report.md, ../README.md as the records give them" in capsys.readouterr().out
    main(["report"])  # nothing to rewrite
    assert capsys.readouterr().out.splitlines() == [
        "report.md: as its records give it",
        "../README.md: as its records give it",
    ]
    (repository / "README.md").write_text(readme.replace("| ETTm1 |", "| ETTm2 |"))
    with pytest.raises(SystemExit, match=r"--check: \.\./README\.md differ from what the records give"):
        main(["report", "--check"])
    assert "ETTm2" in (repository / "README.md").read_text()  # --check writes nothing
    main(["report", "--manifest", str(repository / MANIFEST)])
    assert (repository / "README.md").read_text() == readme


def test_the_files_named_still_give_one_report_and_check_it(repository, monkeypatch):
    monkeypatch.chdir(repository)
    records = "benchmarks/records/cmapss.jsonl"
    main(["report", "--results", records, "--output", "one.md"])
    assert (repository / "one.md").read_text() == render_report(repository / records)
    main(["report", "--results", records, "--output", "one.md", "--check"])
    (repository / "one.md").write_text("# edited\n")
    with pytest.raises(SystemExit, match="one.md differ from what the records give"):
        main(["report", "--results", records, "--output", "one.md", "--check"])


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--output", "x.md"], r"--output goes with the inputs named"),
        (["--pretrain-epochs", "5"], r"--pretrain-epochs goes with the inputs named"),
        (["--results", "benchmarks/records/cmapss.jsonl", "--manifest", "m.json"], "name either the manifest or"),
    ],
)
def test_the_options_of_one_report_are_refused_without_its_inputs(repository, monkeypatch, argv, match):
    monkeypatch.chdir(repository)
    with pytest.raises(SystemExit, match=match):
        main(["report", *argv])
    assert not (repository / "docs" / "report.md").exists()


def test_no_manifest_anywhere_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match=r"no input given and no benchmarks/manifest.json in .* or a folder above"):
        main(["report"])


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda m: m.update(documents=[]), "holds no list of documents"),
        (lambda m: m["documents"][0].update(kind="table"), r"document 1 \(docs/report.md\) the kind 'table'"),
        (lambda m: m["documents"][0]["inputs"].update(tables="x"), r"unknown inputs \['tables'\]"),
        (lambda m: m["documents"][1]["inputs"].pop("events"), r"of kind 'summary', no input \['events'\]"),
        (lambda m: m["documents"][0]["inputs"].update(families="a.jsonl"), "an input 'families' of another type"),
        (lambda m: m["documents"][1].update(output="docs/report.md"), "names one output twice"),
        (lambda m: m["documents"][0]["inputs"].update(results="nowhere.jsonl"), "nowhere.jsonl, which is not a file"),
    ],
)
def test_a_faulty_manifest_is_named_and_nothing_is_written(repository, monkeypatch, change, match):
    manifest = json.loads((repository / MANIFEST).read_text())
    change(manifest)
    (repository / MANIFEST).write_text(json.dumps(manifest))
    monkeypatch.chdir(repository)
    with pytest.raises(SystemExit, match=match):
        main(["report"])
    assert not (repository / "docs" / "report.md").exists() and (repository / "README.md").read_text() == README
