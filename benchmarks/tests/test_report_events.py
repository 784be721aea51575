"""The event-benchmark report: ours beside the paper's figures, wins and ties, leaders, the default pipeline, CPU
time."""

import json

from hepa_bench.report.events import render_events


def _record(dataset, method, seed, fraction, score):
    return {
        "dataset": dataset,
        "method": method,
        "seed": seed,
        "fraction": fraction,
        "h_auroc": score,
        "pretrain_epochs": 100,
        "finetune_epochs": 50,
        "f1": 0.5,
        "pa_f1": 0.8,
        "event_recall": 0.4,
    }


def test_events_report_shows_ours_beside_the_quoted_figures():
    records = [_record("ETTm1", "hepa", s, f, 0.80 + 0.01 * s) for s in range(5) for f in (1.0, 0.1)]
    records += [_record("ETTm1", "gbm", s, f, 0.60 + 0.01 * s + 0.001 * (s % 2)) for s in range(5) for f in (1.0, 0.1)]
    text = render_events(records)
    assert "## Event benchmarks" in text
    assert "0.820 ± 0.016 (5) >gbm" in text  # hepa beats gbm on every seed by 0.2
    assert "quoted" in text and "0.81 ± 0.00" in text  # the paper's HEPA on ETTm1
    assert "MAE 0.87 ± 0.00" in text  # the paper's best baseline on ETTm1 at 100 %
    assert "Holm" in text
    assert json.dumps(text)
    beijing = render_events([_record("Beijing", "hepa", s, 1.0, 0.8) for s in range(2)])
    assert "PatchTST 0.81 ± 0.01, MAE 0.81 ± 0.01" in beijing  # ties in the paper are all named


def test_events_report_shows_only_the_label_fractions_each_dataset_ran():
    # C-MAPSS runs 5, 2 and 1 % labels as well; the event datasets run 100 and 10 % only
    records = [_record("ETTm1", "hepa", s, f, 0.8) for s in range(2) for f in (1.0, 0.1)]
    records += [
        {**_record("FD001", "hepa", s, f, 0.9), "pretrain_epochs": 50, "finetune_epochs": 30}
        for s in range(2)
        for f in (1.0, 0.1, 0.05)
    ]
    table = render_events(records).split("### Thresholded")[0]
    labels = [
        tuple(cell.strip() for cell in line.strip("|").split("|")[:2])
        for line in table.splitlines()
        if line.startswith(("| ETTm1", "| FD001"))
    ]
    assert labels == [("FD001", "100%"), ("FD001", "10%"), ("FD001", "5%"), ("ETTm1", "100%"), ("ETTm1", "10%")]


def test_events_report_judges_our_figures_against_the_papers_spread():
    # ETTm1 in the paper: HEPA 0.81 ± 0.00 (spread floored at 0.005), MAE 0.87 ± 0.00 / 0.77 ± 0.02 at 10 %
    records = [_record("ETTm1", "hepa", s, 1.0, v) for s, v in enumerate((0.820, 0.824))]  # +0.012 > 2 × 0.005
    records += [_record("ETTm1", "mae", s, 1.0, v) for s, v in enumerate((0.70, 0.72))]  # far below 0.87
    records += [_record("ETTm1", "mae", s, 0.1, v) for s, v in enumerate((0.80, 0.81))]  # +0.035 <= 2 × 0.02
    records += [_record("ETTm1", "gbm", s, 1.0, 0.6) for s in range(2)]  # the paper has no boosting column
    records += [_record("ETTm1", "hepa", 0, 0.1, 0.9)]  # one seed: shown, not judged
    section = render_events(records).split("### Ours beside the paper's figure")[1].split("###")[0]
    rows = {
        tuple(cell.strip() for cell in line.strip("|").split("|")[:3]): line
        for line in section.splitlines()
        if line.startswith("| ETTm1")
    }
    assert set(rows) == {
        ("ETTm1", "100%", "hepa"),
        ("ETTm1", "100%", "mae"),
        ("ETTm1", "10%", "mae"),
        ("ETTm1", "10%", "hepa"),
    }
    assert rows[("ETTm1", "100%", "hepa")].endswith("| +0.012 | above |")
    assert rows[("ETTm1", "100%", "mae")].endswith("| -0.160 | below |")
    assert rows[("ETTm1", "10%", "mae")].endswith("| +0.035 | within spread |")
    assert rows[("ETTm1", "10%", "hepa")].endswith("| 0.900 (1) | 0.73 ± 0.01 | +0.170 | — |")


def test_events_report_counts_wins_ties_and_losses_against_each_baseline():
    jitter = [0.0, 0.003, -0.002, 0.004, -0.001]
    records = [_record("ETTm1", "hepa", s, f, 0.80 + 0.01 * s) for s in range(5) for f in (1.0, 0.1)]
    # gbm far below in both rows: two wins
    records += [_record("ETTm1", "gbm", s, f, 0.60 + 0.01 * s + jitter[s]) for s in range(5) for f in (1.0, 0.1)]
    # mae level with hepa at 100 % (differences of both signs), far below at 10 %: one win, one tie
    records += [_record("ETTm1", "mae", s, 1.0, 0.80 + 0.01 * s + (0.02 if s % 2 else -0.02)) for s in range(5)]
    records += [_record("ETTm1", "mae", s, 0.1, 0.50 + 0.01 * s + jitter[s]) for s in range(5)]
    # patchtst far above at 100 %: one loss; at 10 % a single seed, which is never counted
    records += [_record("ETTm1", "patchtst", s, 1.0, 0.95 + 0.001 * s + jitter[s]) for s in range(5)]
    records += [_record("ETTm1", "patchtst", 0, 0.1, 0.99)]
    text = render_events(records)
    section = text.split("### HEPA against each baseline")[1].split("### Pairwise")[0]
    assert "| method | vs mae | vs patchtst | vs gbm | ahead of every baseline |" in section
    # the 10 % row: hepa beats mae and gbm, and patchtst (one seed) does not count
    assert "| hepa | 1/1/0 | 0/0/1 | 2/0/0 | 1 of 2 |" in section
    leaders = text.split("### Which method, per dataset")[1].split("###")[0]
    # 100 %: patchtst leads; mae's mean 0.816 and hepa's 0.820 are both significantly below it, gbm too
    assert "| ETTm1 | 100% | patchtst (0.953) | none |" in leaders
    # 10 %: hepa leads, patchtst has one seed and takes no part, mae and gbm are significantly below
    assert "| ETTm1 | 10% | hepa (0.820) | none |" in leaders
    # a baseline that never ran gets no column; no HEPA variant means no table
    assert "vs itransformer" not in section
    assert "No HEPA variant" in render_events([_record("ETTm1", "gbm", s, 1.0, 0.6) for s in range(3)])


def test_events_report_sums_cpu_time_charging_each_encoder_once_per_seed():
    def cell(method, seed, fraction, cpu, pretrain, embed=6.0):
        return {
            **_record("TEP", method, seed, fraction, 0.9),
            "cpu_s": cpu,
            "pretrain_cpu_s": pretrain,
            "embed_cpu_s": embed,
        }

    records = [cell("hepa", s, f, 30.0, 600.0) for s in range(2) for f in (1.0, 0.1)]  # 60 + 606 per seed
    records += [cell("patchtst", 0, 1.0, 12.0, 300.0), cell("patchtst", 0, 0.1, 6.0, 60.0)]  # per fraction
    records += [cell("gbm", s, f, 60.0 * (s + 1), 0.0, 0.0) for s in range(3) for f in (1.0, 0.1)]
    text = render_events(records).split("### CPU time")[1]
    assert "| TEP | hepa | 2 | 11.1 | 22.2 |" in text  # (2 * 30 + 600 + 6) / 60 = 11.1 per seed
    assert "| TEP | patchtst | 1 | 6.5 | 6.5 |" in text  # 12 + 306 + 6 + 66 = 390 s
    assert "| TEP | gbm | 3 | 4.0 | 12.0 |" in text  # 120, 240, 360 s per seed
    assert "All cells above: 0.7 CPU hours." in text  # (1332 + 390 + 720) / 3600
    assert "CPU kernels of the cells (torch's `cpu_capability`): not recorded 12." in text
    records[0]["cpu_capability"], records[1]["cpu_capability"] = "AVX512", "AVX2"
    text = render_events(records).split("### CPU time")[1]
    assert "(torch's `cpu_capability`): AVX2 1, AVX512 1, not recorded 10." in text
    assert "Cells run on a GPU (" not in text
    # a cell run on a GPU leaves the CPU table and is named with its accelerator
    gpu = [{**cell("patchtst", s, f, 5.0, 50.0), "accelerator": "NVIDIA H200"} for s in (1, 2) for f in (1.0, 0.1)]
    text = render_events(records + gpu).split("### CPU time")[1]
    assert "| TEP | patchtst | 1 | 6.5 | 6.5 |" in text and "All cells above: 0.7 CPU hours." in text
    assert "Cells run on a GPU (NVIDIA H200; bf16 autocast" in text and "TEP patchtst (4)" in text


def test_events_report_judges_the_default_pipeline_against_the_best_tuned_variant():
    records = [_record("TEP", "hepa", s, 1.0, v) for s, v in enumerate((0.90, 0.92))]
    records += [_record("TEP", "hepa-channel", s, 1.0, v) for s, v in enumerate((0.98, 1.00))]  # best: 0.990
    records += [_record("TEP", "hepa-matched", 0, 1.0, 1.0)]  # one seed: never the best
    records += [_record("TEP", "gbm", s, 1.0, 1.0) for s in range(2)]  # a baseline, not a tuned variant
    records += [_record("TEP", "hepa-default", s, 1.0, v) for s, v in enumerate((0.97, 0.98))]  # 0.975
    records += [_record("TEP", "hepa", s, 0.1, v) for s, v in enumerate((0.80, 0.82))]  # best at 10 %: 0.810
    records += [_record("TEP", "hepa-default", s, 0.1, v) for s, v in enumerate((0.70, 0.76))]  # 0.730
    records += [_record("ETTm1", "hepa", s, 1.0, 0.8) for s in range(2)]
    records += [_record("ETTm1", "hepa-default", 0, 1.0, 0.9)]  # one seed: shown, not judged
    section = render_events(records).split("### The default pipeline beside")[1].split("###")[0]
    assert "| TEP | 100% | 0.975 ± 0.007 (2) | hepa-channel (0.990) | -0.015 | yes |" in section
    assert "| TEP | 10% | 0.730 ± 0.042 (2) | hepa (0.810) | -0.080 | no |" in section
    assert "| ETTm1 | 100% | 0.900 (1) | hepa (0.800) | +0.100 | — |" in section
    assert (
        "not run"
        in render_events([_record("TEP", "hepa", s, 1.0, 0.9) for s in range(2)]).split(
            "### The default pipeline beside"
        )[1]
    )
