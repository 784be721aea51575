"""The runner: records, resuming, the encoder shared by methods and fractions, call limits, Ctrl-C, scoring."""

import dataclasses
import functools
import json
import time
import types

import numpy as np
import pytest
import torch
from hepa_bench import runner
from hepa_bench.cli import build_parser
from hepa_bench.methods.table import METHODS, Method
from hepa_bench.protocols import kept_epoch
from hepa_bench.registry import BENCHMARKS
from hepa_bench.results import read_results
from hepa_bench.runner import cell_key, run_benchmark, run_cell


def test_runner_writes_records_shares_the_encoder_and_resumes(run_small, tmp_path, monkeypatch):
    fits = []
    original = runner.Encoded

    def counting(*args, **kwargs):
        fits.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(runner, "Encoded", counting)
    records = run_small(command="hepa-bench run --results results.jsonl")
    assert len(records) == 6 and len(read_results(tmp_path / "results.jsonl")) == 6
    assert len(fits) == 1  # one encoder for both encoder methods and both fractions
    for record in records:
        assert record["dataset"] == "VIX" and record["K"] == 200
        for key in (
            "h_auroc",
            "valid_h_auroc",
            "f1",
            "pa_f1",
            "event_recall",
            "fit_s",
            "cpu_s",
            "cell_s",
            "predict_s",
            "n_label_blocks",
            "versions",
            "finished",
        ):
            assert key in record
        assert record["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
        assert "accelerator" not in record  # ran on the CPU
        assert 0 <= record["h_auroc"] <= 1
        # each F1 at its own threshold from the validation windows: no order between them on test windows
        assert all(np.isnan(record[k]) or 0 <= record[k] <= 1 for k in ("f1", "pa_f1", "event_recall"))
        assert "nasa_rmse" not in record and "rul_rmse" not in record  # C-MAPSS only
        assert "/" not in record["command"].split("--results ")[1]
    encoder_cells = [r for r in records if r["method"] != "gbm"]
    assert all(r["pretrain_epochs_run"] == 1 and r["pretrain_s"] > 0 for r in encoder_cells)
    # early stopping ran, so the record names the epoch whose weights were kept
    assert all(r["pretrain_epoch_kept"] == 1 for r in encoder_cells)
    # ε, the pretrained encoder's JEPA prediction error on the validation windows, beside each of its cells
    assert len({r["valid_jepa_l1"] for r in encoder_cells}) == 1 and encoder_cells[0]["valid_jepa_l1"] > 0
    assert all("valid_jepa_l1" not in r for r in records if r["method"] == "gbm")
    partial = [r for r in records if r["fraction"] == 0.2]
    assert all(r["n_train_windows"] < records[0]["n_train_windows"] for r in partial)
    assert len({r["n_train_windows"] for r in partial}) == 1  # the same labelled windows for every method
    # hepa and hepa-head2 are the same recipe on one encoder: equal scores
    by = {(r["method"], r["fraction"]): r["h_auroc"] for r in records}
    assert by[("hepa", 1.0)] == by[("hepa-head2", 1.0)]
    # a rerun computes nothing; other epochs are other cells
    assert run_small() == [] and len(fits) == 1
    assert len(run_small(max_cells=2, finetune_epochs=2)) == 2
    assert len(read_results(tmp_path / "results.jsonl")) == 8


def test_an_interrupted_run_resumes_where_it_stopped(run_small, tmp_path, monkeypatch):
    calls = []
    original = runner.run_cell

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(runner, "run_cell", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_small()
    assert len(read_results(tmp_path / "results.jsonl")) == 2
    monkeypatch.setattr(runner, "run_cell", original)
    assert len(run_small()) == 4
    keys = [cell_key(r) for r in read_results(tmp_path / "results.jsonl")]
    assert len(keys) == len(set(keys)) == 6


def test_a_cell_whose_fit_swallowed_ctrl_c_is_not_recorded_and_the_run_stops(
    run_small, tmp_path, monkeypatch, swallowed_ctrl_c, tiny
):
    path = tmp_path / "results.jsonl"
    original, calls = runner.run_cell, []

    def cut_short(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            swallowed_ctrl_c()
        return original(*args, **kwargs)

    monkeypatch.setattr(runner, "run_cell", cut_short)
    with pytest.raises(KeyboardInterrupt):
        run_small(methods=["gbm"])
    # the second cell ran to its end, cut short, and was not written; the first stays
    assert len(calls) == 2 and [(r["method"], r["fraction"]) for r in read_results(path)] == [("gbm", 1.0)]
    monkeypatch.setattr(runner, "run_cell", original)

    def encoder_cut_short(entry, data, **kwargs):
        swallowed_ctrl_c()
        return tiny["encoder_fn"](entry, data, **kwargs)

    methods = {**tiny["methods"], "hepa": Method("cut short", encoder=encoder_cut_short, head=tiny["head_fn"])}
    with pytest.raises(KeyboardInterrupt):  # an encoder cut short is neither used nor kept
        run_small(methods=["hepa"], methods_table=methods)
    assert len(read_results(path)) == 1


def test_time_limit_lets_a_fitted_encoder_finish_its_label_fractions(run_small, monkeypatch):
    shift = [0.0]
    clock = types.SimpleNamespace(perf_counter=lambda: time.perf_counter() + shift[0], process_time=time.process_time)
    original = runner.append_record

    def appending(path, record):
        original(path, record)
        shift[0] = 3600.0  # the hour is up once the first cell has landed

    monkeypatch.setattr(runner, "time", clock)
    monkeypatch.setattr(runner, "append_record", appending)
    records = run_small(methods=["hepa", "gbm"], max_minutes=30)
    # the second fraction reuses the encoder already in memory; gbm would start fresh, so the call ends there
    assert [(r["method"], r["fraction"]) for r in records] == [("hepa", 1.0), ("hepa", 0.2)]
    shift[0] = 0.0
    assert run_small(methods=["hepa", "gbm"], max_minutes=0) == []


@pytest.mark.parametrize(
    "overrides, match",
    [
        ({"datasets": ["Nope"]}, r"unknown datasets \['Nope'\]"),
        ({"methods": ["hepa", "nope"]}, r"unknown methods \['nope'\]; choose from"),
        ({"fractions": [0.0]}, "label fractions must lie in"),
        (
            {"methods": ["hepa-uniform"], "methods_table": METHODS},
            r"retired methods cannot run: hepa-uniform \(the estimators no longer have horizons",
        ),
    ],
)
def test_runner_refuses_unknown_names_bad_fractions_and_retired_methods(run_small, overrides, match):
    with pytest.raises(ValueError, match=match):
        run_small(**overrides)


def test_retired_methods_keep_their_records_as_data():
    record = {
        "subset": "FD001",
        "seed": 0,
        "fraction": 1.0,
        "method": "hepa-ctxreg",
        "pretrain_epochs": 50,
        "finetune_epochs": 30,
    }
    assert cell_key(record) == (
        "FD001",
        0,
        1.0,
        "hepa-ctxreg",
        50,
        30,
        "fixed",
        "test",
    )  # the former sweep's field name
    assert cell_key({**record, "dataset": "FD001"}) == cell_key(record)
    assert METHODS["hepa-ctxreg"].retired and METHODS["hepa-ctxreg"].encoder is None


def test_the_command_and_each_subcommand_print_their_help(capsys):
    """argparse formats every help string with %: a literal percent sign must be written %%."""
    parser = build_parser()
    commands = ["run", "snapshots", "speed", "report", "query", "corpus", "yardstick"]
    for argv in [["--help"], *([name, "--help"] for name in commands)]:
        with pytest.raises(SystemExit) as stop:
            parser.parse_args(argv)
        assert stop.value.code == 0
    assert "with 95 % intervals" in " ".join(capsys.readouterr().out.split())


def test_the_run_command_parses_and_reports_bad_names(tmp_path):
    args = build_parser().parse_args(
        [
            "run",
            "--datasets",
            "ETTm1",
            "VIX",
            "--seeds",
            "0",
            "1",
            "--label-fractions",
            "1",
            "0.1",
            "--methods",
            "hepa",
            "gbm",
            "--pretrain-epochs",
            "1",
            "--max-minutes",
            "90",
        ]
    )
    assert args.datasets == ["ETTm1", "VIX"] and args.label_fractions == [1.0, 0.1]
    assert args.pretrain_epochs == 1 and args.finetune_epochs is None and args.max_minutes == 90
    args = build_parser().parse_args(["run", "--datasets", "Nope", "--results", str(tmp_path / "r.jsonl")])
    with pytest.raises(SystemExit, match="hepa-bench run: unknown datasets"):
        args.handler(args)
    args = build_parser().parse_args(
        ["run", "--datasets", "VIX", "--methods", "hepa-constlr", "--results", str(tmp_path / "r.jsonl")]
    )
    with pytest.raises(SystemExit, match="retired methods cannot run"):
        args.handler(args)


def test_supervised_baselines_are_trained_once_per_label_fraction(run_small):
    from hepa_bench.methods.table import matched_head, supervised_encoder

    from hepa_sklearn.baselines import ITransformerEncoder, PatchTSTEncoder

    seen = []

    def recording(estimator_class, entry, data, mask, **kwargs):
        seen.append((estimator_class.__name__, int(mask.sum()), kwargs["epochs"]))
        small = functools.partial(estimator_class, d_model=16, n_heads=2, n_layers=1, hidden=16)
        encoder = supervised_encoder(small, entry, data, mask, **kwargs)
        # trained on the labelled windows plus the validation windows, which early stopping holds out
        assert encoder.n_features_in_ == data.X_train.shape[1]
        return encoder

    table = {
        name: Method(
            name, family="baseline", encoder=functools.partial(recording, estimator), head=matched_head, supervised=True
        )
        for name, estimator in (("patchtst", PatchTSTEncoder), ("itransformer", ITransformerEncoder))
    }
    records = run_small(methods=["patchtst", "itransformer"], methods_table=table, finetune_epochs=2)
    assert {(r["method"], r["fraction"]) for r in records} == {
        ("itransformer", 0.2),
        ("itransformer", 1.0),
        ("patchtst", 0.2),
        ("patchtst", 1.0),
    }
    full, partial = (records[0]["n_train_windows"], records[1]["n_train_windows"])
    assert partial < full
    # one encoder per (method, fraction), each seeing exactly the cell's labelled windows, with the finetuning epochs
    assert (
        set(seen)
        == {
            ("ITransformerEncoder", full, 2),
            ("ITransformerEncoder", partial, 2),
            ("PatchTSTEncoder", full, 2),
            ("PatchTSTEncoder", partial, 2),
        }
        and len(seen) == 4
    )
    for record in records:
        assert 0 <= record["h_auroc"] <= 1 and 1 <= record["pretrain_epochs_run"] <= 2


# -- C-MAPSS through the same runner --------------------------------------------------------------------------------


def test_a_cmapss_cell_adds_calibration_and_the_nasa_test_file(tmp_path, tiny):
    table = {"gbm": tiny["methods"]["gbm"]}
    records = run_benchmark(
        datasets=["FD001"],
        seeds=[0],
        fractions=[0.1],
        methods=["gbm"],
        device="cpu",
        results=str(tmp_path / "r.jsonl"),
        methods_table=table,
        log=lambda *a, **k: None,
    )
    (record,) = records
    assert (record["dataset"], record["K"], record["pretrain_epochs"], record["finetune_epochs"]) == (
        "FD001",
        150,
        50,
        30,
    )
    assert record["n_label_blocks"] == 6  # ceil(0.1 * 60) training units
    for key in ("nasa_rmse", "ece_isotonic", "ece_sigmoid", "rul_rmse", "h_auroc", "pooled_auroc", "brier"):
        assert np.isfinite(record[key]), key
    assert record["nasa_rmse"] > 0 and 0 <= record["ece_isotonic"] <= 1


def test_a_cell_scores_validation_and_nasa_units_the_same_whatever_the_test_windows_hold(fd001, tiny):
    entry = BENCHMARKS["FD001"]
    noise = np.random.default_rng(1).normal(scale=100.0, size=fd001.X_test.shape).astype(np.float32)
    cells = [
        run_cell(entry, data, tiny["methods"]["gbm"], 0.1, seed=0, finetune_epochs=1, device="cpu")
        for data in (fd001, dataclasses.replace(fd001, X_test=fd001.X_test + noise))
    ]
    # fitting, thresholds and calibration read training and validation units only; the test units are only scored
    for key in ("valid_h_auroc", "nasa_rmse", "f1_threshold", "alarm_threshold"):
        assert cells[0][key] == cells[1][key] or (np.isnan(cells[0][key]) and np.isnan(cells[1][key])), key
    assert cells[0]["h_auroc"] != cells[1]["h_auroc"]


def test_a_validation_only_cell_never_predicts_a_test_window(fd001, tiny):
    entry = BENCHMARKS["FD001"]
    # test windows of the wrong width: predicting any of them would raise
    no_test = dataclasses.replace(fd001, X_test=fd001.X_test[:, :, :7])
    cell = run_cell(
        entry, no_test, tiny["methods"]["gbm"], 0.1, seed=0, finetune_epochs=1, device="cpu", validation_only=True
    )
    scored = run_cell(entry, fd001, tiny["methods"]["gbm"], 0.1, seed=0, finetune_epochs=1, device="cpu")
    assert cell["scope"] == "validation" and cell["valid_h_auroc"] == scored["valid_h_auroc"]
    assert not {"h_auroc", "f1", "event_recall", "nasa_rmse", "pooled_auroc"} & set(cell)
    with pytest.raises(ValueError):
        run_cell(entry, no_test, tiny["methods"]["gbm"], 0.1, seed=0, finetune_epochs=1, device="cpu")


def test_validation_only_and_scored_records_never_share_a_file(run_small, tmp_path):
    records = run_small(methods=["gbm"], fractions=[1.0], validation_only=True)
    assert records and all(r["scope"] == "validation" and "h_auroc" not in r for r in records)
    assert run_small(methods=["gbm"], fractions=[1.0], validation_only=True) == []  # resumes
    with pytest.raises(ValueError, match="separate results files"):
        run_small(methods=["gbm"], fractions=[1.0])


def test_records_name_the_pretraining_epoch_a_stopping_rule_kept(run_small, data_home, small_registry, tiny):
    rank_stopped = {"validation_metric": "rank", "validation_fraction": 0.2}
    table = {
        "rank": Method("rank-stopped", encoder=tiny["encoder_fn"], head=tiny["head_fn"], pretrain=rank_stopped),
        "fixed": Method(
            "fixed epochs", encoder=tiny["encoder_fn"], head=tiny["head_fn"], pretrain={"early_stopping": False}
        ),
    }
    records = {
        r["method"]: r
        for r in run_small(methods=["rank", "fixed"], fractions=[1.0], pretrain_epochs=3, methods_table=table)
    }
    assert records["fixed"]["pretrain_epochs_run"] == 3
    assert "pretrain_epoch_kept" not in records["fixed"]  # fixed epochs: nothing was chosen
    entry = small_registry["VIX"]
    encoder = tiny["encoder_fn"](
        entry, entry.load(0, data_home=data_home), epochs=3, device="cpu", seed=0, **rank_stopped
    )
    ranks = encoder.history_[:, "valid_rank"]
    assert records["rank"]["pretrain_epochs_run"] == encoder.n_epochs_ == len(ranks) <= 3
    kept = records["rank"]["pretrain_epoch_kept"]
    assert kept == kept_epoch(encoder) and 1 <= kept <= encoder.n_epochs_
    assert ranks[kept - 1] >= max(ranks) * (1 - 1e-3)  # the highest rank, up to early stopping's threshold


def test_runner_refuses_a_retired_dataset_and_the_report_counts_its_rows_for_nobody(tmp_path):
    from hepa_bench.registry import BENCHMARKS
    from hepa_bench.report.events import render_events

    assert "position" in BENCHMARKS["TEP"].retired and not BENCHMARKS["VIX"].retired
    with pytest.raises(ValueError, match=r"retired datasets cannot run: TEP \(every faulty run"):
        run_benchmark(
            datasets=["TEP"],
            seeds=[0],
            fractions=[1.0],
            methods=["gbm"],
            results=str(tmp_path / "r.jsonl"),
            registry=BENCHMARKS,
        )
    records = [
        {
            "dataset": "TEP",
            "seed": s,
            "fraction": 1.0,
            "method": m,
            "pretrain_epochs": 100,
            "finetune_epochs": 50,
            "h_auroc": score + 0.01 * s,
            "cpu_s": 1.0,
            "torch_threads": 1,
        }
        for s in range(3)
        for m, score in (("hepa", 0.9), ("gbm", 0.5))
    ]
    text = render_events(records)
    assert "**TEP is retired**: every faulty run switches its fault on at sample 160" in text
    wins = text.split("### HEPA against each baseline")[1].split("### Pairwise")[0]
    assert "(TEP 100%) count for nobody" in wins


def test_rolling_split_records_its_seeds_apart_from_the_fixed_split(run_small, tmp_path):
    fixed = run_small(seeds=[0, 1], fractions=[1.0], methods=["gbm"])
    rolling = run_small(seeds=[0, 1], fractions=[1.0], methods=["gbm"], split="rolling")
    # seed 0 of the rolling origin is the fixed split: already run, not run again
    assert [(r["seed"], r.get("split")) for r in rolling] == [(1, "rolling")]
    assert all("split" not in r for r in fixed)
    assert rolling[0]["h_auroc"] != next(r for r in fixed if r["seed"] == 1)["h_auroc"]
    assert run_small(seeds=[0, 1], fractions=[1.0], methods=["gbm"], split="rolling") == []
    with pytest.raises(ValueError, match="'fixed' or 'rolling'"):
        run_small(split="blocked")
    no_origin = {"VIX": dataclasses.replace(BENCHMARKS["VIX"], origin_step=None)}
    with pytest.raises(ValueError, match="no rolling origin"):
        run_small(split="rolling", registry=no_origin)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--seeds", "-1"], r"--seeds must be integers from 0 to 2\*\*32 - 1, got \[-1\]"),
        (["--seeds", "4294967296"], r"--seeds must be integers from 0"),
        (["--pretrain-epochs", "-3"], r"--pretrain-epochs must be integers from 0 .*got \[-3\]"),
        (["--finetune-epochs", "0"], r"--finetune-epochs must be integers from 1 .*got \[0\]"),
        (["--threads", "-2"], r"--threads must be integers from 0"),
        (["--max-cells", "0"], r"--max-cells must be integers from 1"),
        (["--max-minutes", "-5"], r"--max-minutes must be a positive number, got -5.0"),
        (["--max-minutes", "nan"], r"--max-minutes must be a positive number, got nan"),
        (["--label-fractions", "nan"], r"--label-fractions must lie in \(0, 1\], got \[nan\]"),
        (["--label-fractions", "1.5"], r"--label-fractions must lie in \(0, 1\], got \[1.5\]"),
        (["--seeds", "1", "1"], r"--seeds names \[1\] more than once"),
        (["--methods", "hepa", "hepa"], r"--methods names \['hepa'\] more than once"),
        (["--device", "gpu"], r"--device must be 'auto' or a torch device .*got 'gpu'"),
    ],
)
def test_run_refuses_impossible_options_before_any_work_naming_the_option(tmp_path, monkeypatch, argv, message):
    monkeypatch.setattr(runner, "run_benchmark", lambda **kw: pytest.fail("the run started"))
    results = tmp_path / "r.jsonl"
    args = build_parser().parse_args(["run", "--datasets", "VIX", "--results", str(results), *argv])
    with pytest.raises(SystemExit, match=rf"hepa-bench run: {message}"):
        runner.run(args)
    assert not results.exists()
    args = build_parser().parse_args(["run", "--datasets", "VIX", "--results", str(tmp_path)])
    with pytest.raises(SystemExit, match=r"--results names the folder"):
        runner.run(args)


GOOD = {"dataset": "VIX", "seed": 0, "fraction": 1.0, "method": "gbm",
        "pretrain_epochs": 1, "finetune_epochs": 1}  # fmt: skip


@pytest.mark.parametrize(
    "line, problem",
    [
        ({**GOOD, "seed": None}, "field 'seed' is null, not an integer"),
        ({k: v for k, v in GOOD.items() if k != "seed"}, "no field 'seed'"),
        ({k: v for k, v in GOOD.items() if k != "method"}, "no field 'method'"),
        ({**GOOD, "fraction": "x"}, "field 'fraction' is \"x\", not a number"),
        ({k: v for k, v in GOOD.items() if k != "pretrain_epochs"}, "no field 'pretrain_epochs'"),
        ([1, 2], "a JSON array, not an object"),
    ],
)
def test_a_damaged_record_of_the_file_the_run_resumes_ends_it_before_any_cell(tmp_path, monkeypatch, line,
                                                                              problem):  # fmt: skip
    monkeypatch.setattr(runner, "run_cell", lambda *a, **k: pytest.fail("a cell ran"))
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps(GOOD) + "\n" + json.dumps(line) + "\n")
    before = results.read_bytes()
    argv = ["run", "--datasets", "VIX", "--methods", "gbm", "--results", str(results)]
    args = build_parser().parse_args(argv)
    with pytest.raises(SystemExit) as exc:
        runner.run(args)
    assert str(exc.value).startswith(f"hepa-bench run: {results}, line 2: {problem}")
    assert "\n" not in str(exc.value) and results.read_bytes() == before
