"""The snapshot study: encoder copies during pretraining, their records on C-MAPSS and on an event benchmark, Ctrl-C."""

import dataclasses

import numpy as np
import pytest
import torch
from hepa_bench import snapshots
from hepa_bench.cli import main
from hepa_bench.methods.table import METHODS, Method, pretrained_hepa
from hepa_bench.protocols import with_state
from hepa_bench.report.snapshots import plot_snapshots, summarise
from hepa_bench.results import read_results
from hepa_bench.runner import run_benchmark
from hepa_bench.snapshots import EncoderSnapshots, pretrain_with_snapshots, run_event_snapshots, run_snapshots


@pytest.fixture(scope="module")
def small(tiny):
    """Tiny packed-layout pretraining parameters of the C-MAPSS protocol."""
    return {**tiny["encoder"], "layout": "packed"}


def windows(n=24, seed=0):
    return np.cumsum(np.random.default_rng(seed).normal(size=(n, 3, 64)), axis=2).astype("float32")


def test_snapshots_hold_the_weights_of_their_epoch(small):
    X = windows()
    pretrainer, states = pretrain_with_snapshots(
        X, epochs=[0, 1], pretrain_epochs=2, device="cpu", seed=0, K=16, **small
    )
    assert sorted(states) == [0, 1, 2]
    final = pretrainer.net_.module_.state_dict()
    assert all(torch.equal(states[2][k], final[k].cpu()) for k in final)
    assert not all(torch.equal(states[0][k], states[1][k]) for k in final)
    copy = with_state(pretrainer, states[0])
    assert copy is not pretrainer
    assert not np.array_equal(copy.transform(X), pretrainer.transform(X))
    assert EncoderSnapshots({3}).initialize().states_ == {}  # nothing kept before the epochs asked for


def test_pretraining_lowers_the_training_loss_measured_at_fixed_draws(small):
    X = windows(48)
    pretrainer, states = pretrain_with_snapshots(X, epochs=[0], pretrain_epochs=8, device="cpu", seed=0, K=16, **small)
    untrained = with_state(pretrainer, states[0])
    assert pretrainer.pretraining_loss(X)["loss"] < untrained.pretraining_loss(X)["loss"]


@pytest.fixture
def study(tmp_path, monkeypatch, small):
    """Arguments of a one-epoch C-MAPSS study of a tiny ``hepa`` on FD001, seed 0."""
    monkeypatch.setitem(METHODS, "tiny", Method("tiny hepa", encoder=pretrained_hepa, pretrain=small))
    return dict(
        subsets=["FD001"],
        seeds=[0],
        methods=["tiny"],
        epochs=[0],
        pretrain_epochs=1,
        finetune_epochs=1,
        device="cpu",
        results=str(tmp_path / "snap.jsonl"),
        log=lambda *a, **k: None,
    )


def test_run_snapshots_writes_resumable_records_and_summarises(study, tmp_path):
    records = run_snapshots(**study)
    assert [r["epoch"] for r in records] == [0, 1]
    for r in records:
        assert r["subset"] == "FD001" and r["method"] == "tiny"
        assert 0 <= r["h_auroc"] <= 1 and 0 <= r["valid_h_auroc"] <= 1
        assert r["eps_valid"] > 0 and r["rank_valid"] >= 1 and r["probe_r2_valid"] <= 1
    assert run_snapshots(**study) == []  # resumed: nothing left
    assert len(read_results(study["results"])) == 2
    assert [row["seed"] for row in summarise(read_results(study["results"]))] == [0, "all"]
    with pytest.raises(ValueError, match="snapshot epochs must lie in"):
        run_snapshots(**{**study, "epochs": [5]})
    with pytest.raises(ValueError, match="no pretrained encoder"):
        run_snapshots(**{**study, "methods": ["gbm"]})
    pytest.importorskip("matplotlib")
    assert plot_snapshots(read_results(study["results"]), tmp_path / "snap.png").exists()


def test_snapshots_cut_short_by_ctrl_c_are_not_recorded_and_the_study_resumes(study, monkeypatch, swallowed_ctrl_c):
    import signal

    original, calls = snapshots._snapshot_record, []
    before = signal.getsignal(signal.SIGINT)  # SIG_IGN where pytest was started in the background by a script

    def second_cut_short(*args, **kwargs):
        calls.append(1)
        record = original(*args, **kwargs)
        if len(calls) == 2:
            swallowed_ctrl_c()
        return record

    monkeypatch.setattr(snapshots, "_snapshot_record", second_cut_short)
    with pytest.raises(KeyboardInterrupt):
        run_snapshots(**study)
    assert [r["epoch"] for r in read_results(study["results"])] == [0]  # the snapshot scored before the Ctrl-C stays

    class CutShort(EncoderSnapshots):  # the pretraining itself catches the Ctrl-C and ends early
        def on_epoch_end(self, net, **kwargs):
            super().on_epoch_end(net, **kwargs)
            swallowed_ctrl_c()

    monkeypatch.setattr(snapshots, "EncoderSnapshots", CutShort)
    with pytest.raises(KeyboardInterrupt):
        run_snapshots(**study)
    assert len(calls) == 2 and len(read_results(study["results"])) == 1  # nothing scored from that encoder
    monkeypatch.setattr(snapshots, "EncoderSnapshots", EncoderSnapshots)
    assert [r["epoch"] for r in run_snapshots(**study)] == [1]
    assert signal.getsignal(signal.SIGINT) is before  # the study's own handler is gone again


@pytest.fixture
def event_study(tmp_path, data_home, small_registry):
    """Arguments of a study on the small VIX entry, three pretraining and two finetuning epochs at most."""
    registry = {"VIX": dataclasses.replace(small_registry["VIX"], pretrain_epochs=3, finetune_epochs=2)}
    return dict(
        datasets=["VIX"],
        seeds=[0],
        epochs=[0, 1],
        device="cpu",
        results=str(tmp_path / "snap.jsonl"),
        data_home=data_home,
        registry=registry,
        log=lambda *a, **k: None,
    )


def test_event_snapshot_study_scores_each_copy_and_the_kept_weights_as_the_hepa_cell(event_study, tmp_path):
    records = run_event_snapshots(**event_study)
    kept = [r for r in records if r["kept"]]
    assert len(kept) == 1 and 1 <= kept[0]["epoch"] <= kept[0]["epochs_run"] <= 3
    assert [r["epoch"] for r in records] == sorted({0, 1, kept[0]["epoch"]})
    for r in records:
        assert r["subset"] == "VIX" and r["method"] == "hepa" and np.isfinite(r["eps_valid"])
        assert 0 <= r["h_auroc"] <= 1 and 0 <= r["valid_h_auroc"] <= 1 and r["rank_valid"] > 0
    # the kept weights are the encoder of the benchmark's hepa cell with all labels: the same score
    cell = run_benchmark(
        datasets=["VIX"],
        seeds=[0],
        fractions=[1.0],
        methods=["hepa"],
        device="cpu",
        results=str(tmp_path / "events.jsonl"),
        data_home=event_study["data_home"],
        registry=event_study["registry"],
        log=lambda *a, **k: None,
    )[0]
    assert kept[0]["h_auroc"] == pytest.approx(cell["h_auroc"], abs=1e-12)
    assert kept[0]["valid_h_auroc"] == pytest.approx(cell["valid_h_auroc"], abs=1e-12)
    # epoch 0 is the untrained encoder: its held-out loss is not below the kept weights' on the same draws
    assert records[0]["epoch"] == 0 and records[0]["eps_valid"] >= kept[0]["eps_valid"]
    assert [row["n"] for row in summarise(records)] == [len(records), len(records)]
    assert run_event_snapshots(**event_study) == []  # a rerun skips what is there
    with pytest.raises(ValueError, match="unknown event benchmarks"):
        run_event_snapshots(**{**event_study, "datasets": ["FD001"]})


def test_event_snapshot_study_records_nothing_from_a_pretraining_cut_short_by_ctrl_c(
    event_study, monkeypatch, swallowed_ctrl_c
):
    class CutShort(snapshots.EncoderSnapshots):
        def on_epoch_end(self, net, **kwargs):
            super().on_epoch_end(net, **kwargs)
            swallowed_ctrl_c()  # training ends after this epoch

    monkeypatch.setattr(snapshots, "EncoderSnapshots", CutShort)
    with pytest.raises(KeyboardInterrupt):  # else epoch 1 would be stored as the kept weights of a full run
        run_event_snapshots(**event_study)
    assert read_results(event_study["results"]) == []


@pytest.mark.parametrize("extra", [[], ["--datasets", "VIX"]])
def test_a_folder_given_as_the_results_file_is_named_before_any_work(tmp_path, extra):
    expected = rf"^hepa-bench snapshots: --results is the folder {tmp_path}; name a .jsonl file"
    with pytest.raises(SystemExit, match=expected):
        main(["snapshots", "--results", str(tmp_path), "--threads", "1", *extra])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "line, problem",
    [
        ('{"subset": "FD001", "method": "hepa", "epoch": 0, "pretrain_epochs": 50, "finetune_epochs": 30}',
         "no field 'seed'"),
        ('{"subset": "FD001", "seed": 0, "epoch": 0, "pretrain_epochs": 50, "finetune_epochs": 30}',
         "no field 'method'"),
        ('{"subset": "FD001", "seed": 0, "method": "hepa", "epoch": "last", "pretrain_epochs": 50, '
         '"finetune_epochs": 30}', "field 'epoch' is \"last\", not an integer"),
        ("[1, 2]", "a JSON array, not an object"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("study", [[], ["--datasets", "VIX"]], ids=["cmapss", "events"])
def test_a_damaged_record_of_the_snapshot_file_ends_the_study_before_any_work(
    tmp_path, monkeypatch, line, problem, study
):
    monkeypatch.setattr(snapshots, "environment", lambda *a, **k: pytest.fail("the study started"))
    results = tmp_path / "snap.jsonl"
    results.write_text(line + "\n")
    with pytest.raises(SystemExit) as exc:
        main(["snapshots", "--results", str(results), *study])
    assert str(exc.value).startswith(f"hepa-bench snapshots: {results}, line 1: {problem}")
    assert results.read_text() == line + "\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--datasets", "NOPE"], r"unknown event benchmarks \['NOPE'\]"),
        (["--datasets", "VIX", "--epochs", "-1"], r"snapshot epochs must be >= 0"),
        (["--epochs", "60"], r"snapshot epochs must lie in \[0, 50\]"),
        (["--threads", "-2"], r"--threads must be an integer from 0, got -2"),
        (["--seeds", "0", "-1"], r"--seeds must be integers from 0 to 2\*\*32 - 1, got \[-1\]"),
    ],
)
def test_the_snapshot_command_refuses_bad_names_and_epochs_in_one_line(tmp_path, monkeypatch, argv, message):
    monkeypatch.setattr(snapshots, "environment", lambda *a, **k: pytest.fail("the study started"))
    with pytest.raises(SystemExit, match=rf"^hepa-bench snapshots: {message}"):
        main(["snapshots", "--results", str(tmp_path / "snap.jsonl"), *argv])
