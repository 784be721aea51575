"""The yardstick: the baseline chosen on validation figures alone, paired intervals, Holm within the family."""

import json
import re

import numpy as np
import pytest
from hepa_bench.cli import main
from hepa_bench.yardstick import (
    HEADLINE,
    SEEDS,
    choose,
    family_rows,
    make_family,
    paired_interval,
    read_family,
    render_family,
    run_family,
    validation_means,
)
from scipy import stats


def _record(dataset, seed, method, valid, test=0.5, fraction=1.0, **extra):
    return {"dataset": dataset, "seed": seed, "fraction": fraction, "method": method, "valid_h_auroc": valid,
            "h_auroc": test, **extra}  # fmt: skip


def test_the_baseline_is_chosen_by_validation_figures_of_seeds_0_to_4_and_never_by_test_figures():
    records = []
    for seed in range(5):
        # gbm has the better test figures, gbm-regime the better validation ones: validation decides
        records.append(_record("FD002", seed, "gbm", valid=0.80, test=0.99))
        records.append(_record("FD002", seed, "gbm-regime", valid=0.85, test=0.60))
        records.append(_record("FD002", seed, "minirocket", valid=0.70))
    # seeds outside 0-4, rolling splits and validation figures of other rows choose nothing
    records.append(_record("FD002", 7, "mae", valid=0.99))
    records.append(_record("FD002", 1, "mae", valid=0.99, split="rolling"))
    records.append(_record("FD002", 1, "patchtst", valid=0.99, fraction=0.1))
    records += [_record("FD002", s, "itransformer", valid=0.95) for s in (0, 1)]  # two seeds: too few
    family = make_family(records, ["records.jsonl"], rows=[("FD002", 1.0)])
    (row,) = family["rows"]
    assert row["baseline"] == "gbm-regime" and row["headline"] == HEADLINE
    assert row["by_family"] == {
        "boosting": "gbm-regime",
        "minirocket": "minirocket",
        "patchtst": None,
        "itransformer": None,
        "mae": None,
    }
    assert row["validation"]["itransformer"] == [0.95, 2] and "mae" not in row["validation"]
    assert family["seeds"] == list(SEEDS) and min(SEEDS) >= 5  # no earlier record ran the family's seeds
    assert validation_means(records, "FD002", 1.0, ["gbm"]) == {"gbm": (0.80, 5)}


def test_choose_keeps_the_first_among_equals_and_needs_enough_seeds():
    assert choose({"a": (0.8, 5), "b": (0.8, 5)}, ["b", "a"]) == "b"
    assert choose({"a": (0.8, 2)}, ["a"]) is None
    assert choose({"a": (0.8, 2)}, ["a"], min_seeds=2) == "a"


def test_the_paired_interval_is_the_t_interval_of_the_differences():
    a, b = np.array([0.92, 0.95, 0.90, 0.97]), np.array([0.90, 0.91, 0.91, 0.93])
    d = a - b  # 0.02, 0.04, -0.01, 0.04: mean 0.0225, sd 0.0236
    half = 3.182446305284263 * d.std(ddof=1) / 2  # t(0.975, 3) sd / sqrt(4)
    n, mean, low, high, p = paired_interval(a, b)
    assert n == 4 and mean == pytest.approx(0.0225)
    assert (low, high) == pytest.approx((0.0225 - half, 0.0225 + half))
    assert p == pytest.approx(stats.ttest_rel(a, b).pvalue)  # t = 0.0225 / (0.0236 / 2) = 1.90: p 0.153
    assert paired_interval(np.array([0.5, 0.6]), np.array([0.4, 0.5]))[2:] == pytest.approx((0.1, 0.1, 0.0))
    assert np.isnan(paired_interval(np.array([0.5]), np.array([0.4]))[2])


def _family(rows):
    return {"seeds": list(range(20)), "rows": [dict(zip(("dataset", "fraction", "headline", "baseline"), r,
                                                         strict=True)) for r in rows]}  # fmt: skip


def test_holm_runs_over_the_family_rows_alone_and_gives_each_row_its_verdict(make_record):
    cmapss_record = make_record
    rng = np.random.default_rng(0)
    base = rng.uniform(0.8, 0.9, 20)
    records = []
    for seed in range(20):
        for subset, shift in (("FD001", 0.05), ("FD002", -0.04), ("FD003", 0.0)):
            noise = rng.normal(0, 0.01)
            records.append(cmapss_record(subset, seed, "hepa", base[seed] + shift + noise))
            records.append(cmapss_record(subset, seed, "gbm", base[seed]))
        # a comparison outside the family: in the records, never in the correction
        records.append(cmapss_record("FD004", seed, "hepa", 0.5))
    records.append(cmapss_record("FD001", 30, "hepa", 0.0))  # a seed outside the family's: not paired
    family = _family([("FD001", 1.0, "hepa", "gbm"), ("FD002", 1.0, "hepa", "gbm"), ("FD003", 1.0, "hepa", "gbm")])
    rows = {r["dataset"]: r for r in family_rows(family, records)}
    assert [rows[s]["n"] for s in ("FD001", "FD002", "FD003")] == [20, 20, 20]
    assert rows["FD001"]["verdict"] == "ahead" and rows["FD002"]["verdict"] == "behind"
    assert rows["FD003"]["verdict"] == "within" and rows["FD003"]["low"] < 0 < rows["FD003"]["high"]
    ps = sorted(rows[s]["p"] for s in rows)
    assert rows["FD003"]["holm_p"] == pytest.approx(min(1.0, ps[2]))  # the largest p times 1: three rows, no more
    smallest = min(rows.values(), key=lambda r: r["p"])
    assert smallest["holm_p"] == pytest.approx(3 * smallest["p"])
    text = "\n".join(render_family(family, records))
    assert "| FD001 | 100% | `gbm` |" in text and "| ahead |" in text and "(incomplete)" not in text
    # fewer pairs than the family asks for: the verdict says the row is incomplete
    short = [r for r in records if r["seed"] < 5]
    assert "(incomplete)" in "\n".join(render_family(family, short))
    # a row without its records yet still counts in the correction, as a p of 1
    bigger = _family([(s, 1.0, "hepa", "gbm") for s in ("FD001", "FD002", "FD003", "FD004")])
    rows4 = {r["dataset"]: r for r in family_rows(bigger, records)}
    assert np.isnan(rows4["FD004"]["holm_p"]) and rows4["FD004"]["verdict"] == "–"
    assert rows4["FD003"]["holm_p"] == pytest.approx(min(1.0, 2 * rows["FD003"]["p"]))  # third of four: times 2
    assert smallest["holm_p"] * 4 / 3 == pytest.approx(rows4[smallest["dataset"]]["holm_p"])


def test_the_family_command_writes_once_and_a_damaged_family_file_is_named(tmp_path, capsys):
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps(_record("VIX", s, "gbm", 0.7)) + "\n" for s in range(5)))
    out = tmp_path / "family.json"
    assert main(["yardstick", "family", "--records", str(records), "--out", str(out)]) == 0
    family = read_family(out)
    assert {(r["dataset"], r["fraction"]): r["baseline"] for r in family["rows"]}[("VIX", 1.0)] == "gbm"
    with pytest.raises(SystemExit, match="exists; a family is written once"):
        main(["yardstick", "family", "--records", str(records), "--out", str(out)])
    for text, problem in (("{", "invalid JSON"), ("[]", "no list of rows"), ('{"rows": [{}]}', "rows lack")):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        with pytest.raises(SystemExit, match=f"{bad}.*{problem}"):
            main(["yardstick", "report", "--family", str(bad), "--results", str(records)])


def test_the_family_runs_its_two_methods_per_row_and_resumes(tmp_path, data_home, small_registry, tiny):
    family = {"seeds": [0, 1], "rows": [{"dataset": "VIX", "fraction": 1.0, "headline": "hepa", "baseline": "gbm"}]}
    results = tmp_path / "results.jsonl"
    params = dict(data_home=data_home, registry=small_registry, methods_table=tiny["methods"], pretrain_epochs=1,
                  finetune_epochs=1, log=lambda *a, **k: None)  # fmt: skip
    run_family(family, results=str(results), **params)
    lines = results.read_text().splitlines()
    assert sorted((json.loads(x)["seed"], json.loads(x)["method"]) for x in lines) == [
        (0, "gbm"),
        (0, "hepa"),
        (1, "gbm"),
        (1, "hepa"),
    ]
    run_family(family, results=str(results), **params)  # every cell there: nothing runs again
    assert results.read_text().splitlines() == lines
    (row,) = family_rows(family, [json.loads(x) for x in lines])
    assert row["n"] == 2


def _family_file(tmp_path):
    family = tmp_path / "family.json"
    row = {"dataset": "VIX", "fraction": 1.0, "headline": HEADLINE, "baseline": "gbm"}
    family.write_text(json.dumps({"seeds": list(SEEDS), "rows": [row]}))
    return family


def test_a_damaged_record_is_refused_by_family_and_run_and_skipped_with_a_warning_by_report(tmp_path, capsys):
    records = tmp_path / "records.jsonl"
    epochs = {"pretrain_epochs": 1, "finetune_epochs": 1}
    lines = [json.dumps(_record("VIX", s, "gbm", 0.7, **epochs)) for s in range(5)]
    damaged = json.dumps({"dataset": "VIX", "fraction": 1.0, "method": "gbm", **epochs})
    records.write_text("\n".join([*lines[:2], damaged, *lines[2:]]))
    before = records.read_text()
    out = tmp_path / "family.json"
    refused = rf"{records}, line 3: no field 'seed'"
    with pytest.raises(SystemExit, match=rf"^hepa-bench yardstick family: {refused}"):
        main(["yardstick", "family", "--records", str(records), "--out", str(out)])
    assert not out.exists()
    family = _family_file(tmp_path)
    with pytest.raises(SystemExit, match=rf"^hepa-bench yardstick run: {refused}"):
        main(["yardstick", "run", "--family", str(family), "--results", str(records)])
    assert records.read_text() == before
    with pytest.warns(UserWarning, match=rf"^{records}, line 3: skipped, no field 'seed'"):
        assert main(["yardstick", "report", "--family", str(family), "--results", str(records)]) == 0
    assert "| VIX | 100% | `gbm` |" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["family", "--records", "{absent}", "--out", "{tmp}/f.json"],
         r"--records names {absent}, which is not a file"),
        (["family", "--records", "{tmp}", "--out", "{tmp}/f.json"], r"--records names {tmp}, which is not"),
        (["family", "--records", "{records}", "--out", "{tmp}"], r"--out names the folder {tmp}"),
        (["family", "--records", "{records}", "--out", "{tmp}/no/f.json"], r"--out {tmp}/no/f.json: no"),
        (["report", "--family", "{family}", "--results", "{absent}"], r"--results names {absent}, which is"),
        (["report", "--family", "{family}", "--results", "{tmp}"], r"--results names {tmp}, which is not a"),
        (["report", "--family", "{tmp}", "--results", "{records}"], r"--family names {tmp}, which is not a"),
        (["run", "--family", "{tmp}", "--results", "{tmp}/r.jsonl"], r"--family names {tmp}, which is not a"),
        (["run", "--family", "{family}", "--results", "{tmp}"], r"--results names the folder {tmp}"),
        (["run", "--family", "{family}", "--results", "{tmp}/r.jsonl", "--datasets", "VIX", "FD009"],
         r"--datasets names \['FD009'\], which the family has no row of; its datasets: \['VIX'\]"),
        (["run", "--family", "{family}", "--results", "{tmp}/r.jsonl", "--threads", "0"],
         r"--threads must be a positive integer, got 0"),
        (["run", "--family", "{family}", "--results", "{tmp}/r.jsonl", "--max-minutes", "nan"],
         r"--max-minutes must be a positive number, got nan"),
    ],
)  # fmt: skip
def test_the_yardstick_commands_name_a_missing_file_a_folder_or_an_unknown_dataset_in_one_line(
    tmp_path, monkeypatch, argv, message
):
    import hepa_bench.runner

    monkeypatch.setattr(hepa_bench.runner, "run_cell", lambda *a, **k: pytest.fail("a cell ran"))
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps(_record("VIX", s, "gbm", 0.7)) + "\n" for s in range(5)))
    names = {"tmp": tmp_path, "absent": tmp_path / "absent.jsonl", "records": records}
    names["family"] = _family_file(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(SystemExit) as exc:
        main(["yardstick", *(word.format(**names) for word in argv)])
    assert re.match(rf"hepa-bench yardstick {argv[0]}: {message.format(**names)}", str(exc.value))
    assert "\n" not in str(exc.value) and sorted(tmp_path.rglob("*")) == before
