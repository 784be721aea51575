import pytest

from hepa_sklearn.benchmarks.speed import _throughput, stage_flops


def test_stage_flops_counts_every_stage_and_orders_like_the_throughput():
    flops = stage_flops(n_channels=3, context_length=64, history=48, K=10, batch=8)
    result = {
        "pretrain_epochs": 2, "cuts_per_window": 4, "n_pretrain_windows": 5, "pretrain_s": 1.0,
        "finetune_epochs": 3, "n_finetune_windows": 10, "finetune_s": 2.0,
        "n_embedded_windows": 30, "embed_s": 3.0, "n_test_windows": 8, "predict_s": 4.0,
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
    from hepa_sklearn.benchmarks.speed import scaling_table

    rows = [("windows", 256, 512, {"pretrain epoch": 1.0, "finetune epoch": 0.5}),
            ("context", 1024, 128, {"pretrain epoch": 2.25, "finetune epoch": 0.125})]
    lines = scaling_table(rows)
    assert lines[3] == "| series | windows | context length | pretrain epoch | finetune epoch |"
    assert lines[5] == "| windows | 256 | 512 | 1.00 | 0.50 |"
    assert lines[6] == "| context | 1024 | 128 | 2.25 | 0.12 |"
