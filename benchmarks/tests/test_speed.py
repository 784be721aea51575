"""The speed benchmark alone: FLOPs per stage, throughput, the scaling table, the child run of either layout."""

import json

import pytest
from hepa_bench.speed import protocol as speed
from hepa_bench.speed.protocol import _throughput, scaling, scaling_table, stage_flops


def test_stage_flops_counts_every_stage_and_orders_like_the_throughput():
    flops = stage_flops(n_channels=3, context_length=64, history=48, K=10, batch=8)
    result = {
        "pretrain_epochs": 2,
        "cuts_per_window": 4,
        "n_pretrain_windows": 5,
        "pretrain_s": 1.0,
        "finetune_epochs": 3,
        "n_finetune_windows": 10,
        "finetune_s": 2.0,
        "n_embedded_windows": 30,
        "embed_s": 3.0,
        "n_test_windows": 8,
        "predict_s": 4.0,
    }
    throughput = _throughput(result)
    assert [name.split()[0] for name in flops] == [name.split()[0] for name in throughput]
    assert all(value > 0 for value in flops.values())
    # backward costs about twice the forward pass
    assert flops["finetune (fwd+bwd) per window"] == pytest.approx(3 * flops["predict_proba per window"], rel=0.05)
    assert throughput == {
        "pretrain cuts/s": 40.0,
        "finetune windows/s": 15.0,
        "transform windows/s": 10.0,
        "predict_proba windows/s": 2.0,
    }


def test_scaling_table_lists_every_stage():
    rows = [
        ("windows", 256, 512, {"pretrain epoch": 1.0, "finetune epoch": 0.5}),
        ("context", 1024, 128, {"pretrain epoch": 2.25, "finetune epoch": 0.125}),
    ]
    lines = scaling_table(rows)
    assert lines[3] == "| series | windows | context length | pretrain epoch | finetune epoch |"
    assert lines[5] == "| windows | 256 | 512 | 1.00 | 0.50 |"
    assert lines[6] == "| context | 1024 | 128 | 2.25 | 0.12 |"


def test_scaling_table_marks_stages_not_timed_at_a_size():
    rows = [("windows", 100000, 512, {"pretrain epoch": None, "transform + predict_proba": 30.5})]
    assert scaling_table(rows)[5] == "| windows | 100000 | 512 | — | 30.50 |"


def test_scaling_times_training_and_inference_at_their_own_sizes():
    rows = scaling(n_windows=(8, 24), train_windows=(8, 16), context_lengths=(32,), n_channels=2, repeats=1)
    sizes = [(kind, n, length) for kind, n, length, _ in rows]
    assert sizes == [("windows", 8, 512), ("windows", 16, 512), ("windows", 24, 512), ("context", 16, 32)]
    timed = {n: {stage for stage, seconds in row.items() if seconds is not None} for _, n, _, row in rows[:3]}
    every = {"pretrain epoch", "finetune epoch", "transform + predict_proba"}
    assert timed == {8: every, 16: every - {"transform + predict_proba"}, 24: {"transform + predict_proba"}}


def test_both_layouts_count_the_same_inference():
    packed = stage_flops(n_channels=3, context_length=64, history=48, K=10, batch=8, batch_layout="packed")
    padded = stage_flops(n_channels=3, context_length=64, history=48, K=10, batch=8, batch_layout="padded")
    assert list(padded) == list(packed) and all(value > 0 for value in padded.values())
    for stage in ("transform per window", "finetune (fwd+bwd) per window", "predict_proba per window"):
        assert padded[stage] == packed[stage]


@pytest.mark.parametrize("layout", ["packed", "padded"])
def test_a_child_run_prints_the_protocol_run_of_its_layout(layout, monkeypatch, capsys):
    given = {}

    def run_protocol(subset, **kwargs):
        given.update(subset=subset, **kwargs)
        return {"h_auroc": 0.5, "batch_layout": kwargs["layout"]}

    monkeypatch.setattr(speed, "run_protocol", run_protocol)
    speed.main(
        ["--one-run", "--seed", "2", "--pretrain-epochs", "3", "--finetune-epochs", "1", "--batch-layout", layout]
    )
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["batch_layout"] == layout and printed["torch_threads"] >= 1
    assert (given["subset"], given["seed"], given["pretrain_epochs"], given["finetune_epochs"]) == ("FD001", 2, 3, 1)
    assert (given["cuts_per_unit"], given["horizon_knots"]) == (40, None)  # the paper's run unless told
    speed.main(["--one-run", "--batch-layout", layout, "--cuts-per-unit", "7", "--horizon-knots", "5"])
    assert (given["cuts_per_unit"], given["horizon_knots"]) == (7, 5)
