"""The C-MAPSS sweep runner (resumable results file) and the markdown report."""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
import torch

from hepa_sklearn.benchmarks import sweep as cmapss_benchmark
from hepa_sklearn.benchmarks.protocol import label_units
from hepa_sklearn.benchmarks.results import command_line, environment, read_results
from hepa_sklearn.benchmarks.sweep import cell_key, run_sweep
from hepa_sklearn.benchmarks.report import render


@pytest.mark.parametrize("fraction, expected", [(1.0, 60), (0.1, 6), (0.05, 3), (0.02, 2), (0.01, 1), (0.001, 1)])
def test_label_units_take_the_first_ceil_fraction(fraction, expected):
    units = np.arange(100, 160)
    chosen = label_units(units, fraction)
    assert len(chosen) == expected
    np.testing.assert_array_equal(chosen, units[:expected])


class FakeSplit:
    def __init__(self, subset, seed, *, regime):
        self.subset, self.seed, self.regime = subset, seed, regime


def fake_cell(data, method, fraction, **kwargs):
    return {"h_auroc": 0.5 + fraction / 10, "ece": 0.1, "nasa_rmse": 20.0, "n_label_units": 1,
            "fit_s": 0.0, "predict_s": 0.0, "pretrain_s": 0.0}


@pytest.fixture
def fake_protocol(monkeypatch):
    calls = {"pretrain": 0, "cells": 0}

    def fake_pretrain(*args, **kwargs):
        calls["pretrain"] += 1
        return object(), 0.0

    def counting_cell(*args, **kwargs):
        calls["cells"] += 1
        return fake_cell(*args, **kwargs)

    monkeypatch.setattr(cmapss_benchmark, "SubsetSplit", FakeSplit)
    monkeypatch.setattr(cmapss_benchmark, "pretrain", fake_pretrain)
    monkeypatch.setattr(cmapss_benchmark, "run_cell", counting_cell)
    return calls


def sweep(path, **overrides):
    params = dict(subsets=["FD001"], seeds=[0, 1], fractions=[1.0, 0.1], methods=["hepa", "gbm"],
                  pretrain_epochs=2, finetune_epochs=1, results=str(path), log=lambda *a, **k: None)
    return run_sweep(**{**params, **overrides})


def test_every_cell_is_written_and_a_rerun_skips_them(tmp_path, fake_protocol):
    path = tmp_path / "results.jsonl"
    records = sweep(path)
    assert len(records) == 8 and fake_protocol["cells"] == 8
    assert fake_protocol["pretrain"] == 2  # once per (subset, seed), shared by the fractions
    assert len(read_results(path)) == 8
    assert sweep(path) == [] and fake_protocol["cells"] == 8
    # new epochs are new cells
    assert len(sweep(path, pretrain_epochs=3)) == 8


def test_an_interrupted_sweep_resumes_where_it_stopped(tmp_path, fake_protocol, monkeypatch):
    path = tmp_path / "results.jsonl"
    original = cmapss_benchmark.run_cell

    def interrupted(*args, **kwargs):
        if fake_protocol["cells"] == 3:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(cmapss_benchmark, "run_cell", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sweep(path)
    assert len(read_results(path)) == 3
    monkeypatch.setattr(cmapss_benchmark, "run_cell", original)
    assert len(sweep(path)) == 5
    keys = [cell_key(r) for r in read_results(path)]
    assert len(keys) == len(set(keys)) == 8


def test_a_cell_whose_fit_swallowed_ctrl_c_is_not_recorded(tmp_path, fake_protocol, monkeypatch):
    path = tmp_path / "results.jsonl"
    original = cmapss_benchmark.run_cell

    def cut_short(*args, **kwargs):
        if fake_protocol["cells"] == 2:
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:  # as skorch's fit does: training ends early, no error
                pass
        return original(*args, **kwargs)

    monkeypatch.setattr(cmapss_benchmark, "run_cell", cut_short)
    with pytest.raises(KeyboardInterrupt):
        sweep(path)
    assert len(read_results(path)) == 2 and fake_protocol["cells"] == 3  # the third ran, cut short, unwritten


def test_a_torn_last_line_is_ignored(tmp_path):
    path = tmp_path / "results.jsonl"
    record = {"subset": "FD001", "seed": 0, "fraction": 1.0, "method": "hepa",
              "pretrain_epochs": 1, "finetune_epochs": 1}
    path.write_text(json.dumps(record) + "\n" + '{"subset": "FD0')
    assert read_results(path) == [record]


@pytest.mark.parametrize("overrides, match", [
    ({"methods": ["hepa", "xgboost"]}, "unknown methods"),
    ({"subsets": ["FD005"]}, "unknown subsets"),
    ({"fractions": [0.0]}, "label fractions must lie in"),
])
def test_bad_sweep_arguments(tmp_path, overrides, match):
    with pytest.raises(ValueError, match=match):
        sweep(tmp_path / "r.jsonl", **overrides)


def test_report_tables_from_records(tmp_path, fake_protocol):
    path = tmp_path / "results.jsonl"
    sweep(path)
    records = read_results(path)
    for r in records:  # what the real runner stores besides the fake metrics
        r.update({"pooled_auroc": 0.9, "cell_s": 1.0, "machine": "x86_64, 2 CPU cores", "torch_threads": 2,
                  "device": "cpu", "versions": {"torch": "2"}, "command": "hepa benchmark cmapss"})
        if r["method"] == "gbm":
            r["h_auroc"] -= 0.2 + 0.01 * r["seed"]
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    assert "| FD001 | 0.600 ± 0.000 (2) >gbm | 0.395 ± 0.007 (2) | 0.918 ± 0.008 (5) | ≥ 0.93 |" in text
    assert "| 10% | 6/1 |" not in text and "| 10% | 1 |" in text
    assert "hepa benchmark cmapss" in text
    assert f"- torch 2 ({len(records)} cells)" in text

    records[0]["versions"] = {"torch": "3"}  # one cell from another environment is counted apart
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    assert f"- torch 2 ({len(records) - 1} cells)\n- torch 3 (1 cell)\n" in text
    assert "No results" in render(records, pretrain_epochs=50, finetune_epochs=30)


def test_report_compares_ablations_on_their_own_seeds(tmp_path, fake_protocol):
    path = tmp_path / "results.jsonl"
    sweep(path, methods=["hepa", "hepa-e2e"])
    records = read_results(path)
    for r in records:
        r.update({"pooled_auroc": 0.9, "cell_s": 1.0, "machine": "x86_64, 2 CPU cores", "torch_threads": 2,
                  "device": "cpu", "versions": {"torch": "2"}, "command": "hepa benchmark cmapss",
                  "valid_h_auroc": 0.7 + 0.1 * (r["method"] == "hepa-e2e")})
        if r["method"] == "hepa":
            r["h_auroc"] += 0.1 * r["seed"]  # seed 1 of hepa is far better than seed 0
    # the variant ran on seed 0 only: drop its seed-1 cells
    records = [r for r in records if not (r["method"] == "hepa-e2e" and r["seed"] == 1)]
    text = render(records, pretrain_epochs=2, finetune_epochs=1)
    ablations = text[text.index("## Ablations"):text.index("## All metrics")]
    assert "the seeds every variant ran (FD001: 0)" in ablations
    # hepa over seed 0 alone (0.600), not its mean over seeds 0 and 1 (0.650)
    assert "| FD001 | 0.600 (1) | 0.600 (1) |" in ablations
    assert "| FD001 | 0.700 (1) | 0.800 (1) |" in ablations  # validation units
    # a variant run with fewer labels gets columns in the label-efficiency table
    assert "| labels | label units | hepa | hepa-e2e | hepa retention | hepa-e2e retention |" in text


def test_report_judges_the_default_pipeline_against_the_best_tuned_variant(tmp_path, fake_protocol):
    path = tmp_path / "results.jsonl"
    sweep(path, methods=["hepa", "hepa-random", "hepa-default", "gbm"])
    records = read_results(path)
    shift = {"hepa": 0.0, "hepa-random": 0.05, "hepa-default": -0.01, "gbm": 0.3}
    for r in records:
        r.update({"pooled_auroc": 0.9, "cell_s": 1.0, "machine": "x86_64, 2 CPU cores", "torch_threads": 2,
                  "device": "cpu", "versions": {"torch": "2"}, "command": "hepa benchmark cmapss"})
        r["h_auroc"] += shift[r["method"]] + (0.04 * r["seed"] if r["method"] == "hepa-default" else 0.0)
    section = render(records, pretrain_epochs=2, finetune_epochs=1).split(
        "## The default pipeline against the tuned recipe")[1].split("##")[0]
    # 100%: hepa 0.600, hepa-random 0.650 (the best; gbm is no HEPA variant), hepa-default 0.610 ± 0.028
    assert "| FD001 | 100% | 0.610 ± 0.028 (2) | hepa-random (0.650) | -0.040 | no |" in section
    assert "| FD001 | 10% | 0.520 ± 0.028 (2) | hepa-random (0.560) | -0.040 | no |" in section
    no_default = [r for r in records if r["method"] != "hepa-default"]
    assert "## The default pipeline" not in render(no_default, pretrain_epochs=2, finetune_epochs=1)


def test_a_stored_command_names_no_folder_of_the_machine(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    outside = str(tmp_path / "elsewhere" / "data")
    command = command_line(["benchmark", "events", "--datasets", "TEP", "--data-home", outside,
                            "--results", str(work / "out" / "r.jsonl"), f"--cache-dir={tmp_path / 'c'}"])
    assert command == ("OMP_NUM_THREADS=1 hepa benchmark events --datasets TEP --data-home $HEPA_DATA_HOME "
                       "--results out/r.jsonl --cache-dir=c")
    assert str(tmp_path) not in command
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert command_line(["report", "--output", "docs/b.md"]) == "hepa report --output docs/b.md"


def test_records_name_the_cpu_kernels_they_ran_on():
    # seeded fits recompute exactly only under the same kernels, so a record says which ran
    assert environment()["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    code = "from hepa_sklearn.benchmarks.results import environment; print(environment()['cpu_capability'])"
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "DEFAULT"
