"""The competing-risks cells of the multi-mode simulated rows and their report section."""

import numpy as np
import pytest
from hepa_bench.report.causes import cause_rows, render_causes
from hepa_bench.report.document import render_report
from hepa_bench.results import append_record, read_results
from hepa_bench.simulated.causes import ROWS, _entry, main, run_causes


def test_the_rows_are_those_of_several_modes():
    assert ROWS == ["sim-modes", "sim-two-modes"]


def test_the_parts_carry_each_window_s_cause():
    data = _entry("sim-modes").load(0)
    assert data.y_test.dtype.names == ("event", "time", "cause")
    assert set(np.unique(data.y_train["cause"])) == {0, 1, 2, 3}
    np.testing.assert_array_equal(data.y_test["cause"] > 0, data.y_test["event"])


def test_the_references_are_scored_per_cause(tmp_path):
    results = tmp_path / "causes.jsonl"
    records = run_causes(
        rows=["sim-modes"],
        seeds=[0],
        fractions=[1.0],
        methods=["oracle", "elapsed"],
        results=results,
        log=lambda message: None,
    )
    scores = {r["method"]: r for r in records}
    assert len(scores["oracle"]["cause_h_auroc"]) == 3 and scores["oracle"]["n_causes"] == 3
    # the oracle's any-event h-AUROC is the simulated row's: the same windows
    assert scores["oracle"]["h_auroc"] > scores["elapsed"]["h_auroc"] > 0.5
    assert np.mean(scores["oracle"]["cause_h_auroc"]) > np.mean(scores["elapsed"]["cause_h_auroc"])
    assert (
        run_causes(
            rows=["sim-modes"],
            seeds=[0],
            fractions=[1.0],
            methods=["oracle"],
            results=results,
            log=lambda message: None,
        )
        == []
    )  # done cells are skipped
    assert len(read_results(results)) == 2


def test_the_command_line_records_its_command(tmp_path):
    results = tmp_path / "out.jsonl"
    main(
        [
            "--rows",
            "sim-modes",
            "--seeds",
            "1",
            "--label-fractions",
            "1.0",
            "--methods",
            "oracle",
            "--results",
            str(results),
        ]
    )
    (record,) = read_results(results)
    assert record["command"].split("--rows")[0].endswith("python -m hepa_bench.simulated.causes ")


def _records():
    records = []
    per_cause = {"oracle": [0.9, 0.8], "elapsed": [0.7, 0.6], "gbm": [0.8, 0.6], "hepa-default-auto0": [0.85, 0.7]}
    for method, scores in per_cause.items():
        for seed in range(3):
            records.append(
                {
                    "dataset": "sim-modes",
                    "seed": seed,
                    "fraction": 1.0,
                    "method": method,
                    "h_auroc": 0.8,
                    "cause_h_auroc": [s + 0.01 * (seed - 1) for s in scores],
                }
            )
    return records


def test_the_section_gives_each_cause_beside_the_oracle_and_its_share_of_the_gap():
    rows = {(r["method"], r["cause"]): r for r in cause_rows(_records())}
    assert rows[("gbm", 1)]["share"] == pytest.approx(0.5)  # (0.8 - 0.7) / (0.9 - 0.7)
    assert rows[("hepa-default-auto0", 2)]["share"] == pytest.approx(0.5)  # (0.7 - 0.6) / (0.8 - 0.6)
    assert ("oracle", 1) not in rows and ("elapsed", 1) not in rows
    text = "\n".join(render_causes(_records()))
    assert (
        "| sim-modes | 100% | hepa-default-auto0 | 1 | 0.850 ± 0.010 (3) | 0.850 | 0.900 | 0.700 | 0.75 | 3 |" in text
    )
    assert "| sim-modes | 100% | gbm | 2 | 0.600 ± 0.010 (3) | 0.600 | 0.800 | 0.600 | 0.00 | 3 |" in text
    assert render_causes([]) == []


def test_report_adds_the_section_only_when_asked(tmp_path):
    cmapss, causes = tmp_path / "cmapss.jsonl", tmp_path / "causes.jsonl"
    cmapss.write_text("")
    for record in _records():
        append_record(causes, record)
    plain = render_report(cmapss)
    assert "per-cause incidences" not in plain
    assert "per-cause incidences" in render_report(cmapss, causes=causes)
