"""The event benchmark: registry entries, the resumable runner on a tiny configuration, the report."""

import dataclasses
import inspect
import json
import os
import signal
import time
import types

import numpy as np
import pytest
import torch

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.benchmarks import events as event_benchmark
from hepa_sklearn.benchmarks.events import EVENT_METHODS, EventMethod, event_head, run_events
from hepa_sklearn.benchmarks.protocol import SubsetSplit
from hepa_sklearn.benchmarks.registry import BENCHMARKS, PAPER_COLUMNS, _block_rule, _unit_blocks, get_benchmark
from hepa_sklearn.benchmarks.report import render_events
from hepa_sklearn.benchmarks.results import noting_interrupts, read_results
from hepa_sklearn.benchmarks.snapshots import kept_epoch
from hepa_sklearn.cli import build_parser
from hepa_sklearn.windows import make_survival_y

TINY = dict(d_model=16, n_heads=2, n_layers=1, dim_feedforward=16, predictor_hidden=16, n_projections=16,
            batch_size=64)


def _data_home():
    value = os.environ.get("HEPA_DATA_HOME")
    if not value:
        pytest.skip("HEPA_DATA_HOME is not set; point it at the benchmark data.")
    return value


# -- registry ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_every_entry_is_complete_and_matches_its_loader(name):
    entry = BENCHMARKS[name]
    assert entry.name == name and entry.description
    assert entry.norm in {"global", "revin"} and entry.finetune_stop in {"fixed", "validation"}
    assert entry.pretrain_part in {"train", "normal"}
    for value in (entry.K, entry.context_length, entry.pretrain_stride, entry.finetune_stride, entry.eval_stride,
                  entry.min_history, entry.pretrain_epochs, entry.finetune_epochs):
        assert isinstance(value, int) and value >= 1
    assert set(entry.paper) <= set(PAPER_COLUMNS) and "hepa" in entry.paper
    for figures in entry.paper.values():
        assert set(figures) == {1.0, 0.1}
        assert all(0 <= mean <= 1 and 0 <= std < 0.5 for mean, std in figures.values())
    if entry.is_cmapss:
        # C-MAPSS entries are the protocol of `hepa benchmark cmapss`
        assert (entry.K, entry.context_length, entry.finetune_stride, entry.eval_stride) == (150, 512, 4, 1)
        assert entry.norm == "global" and entry.finetune_stop == "fixed"
        assert (entry.pretrain_epochs, entry.finetune_epochs) == (50, 30)
        return
    assert entry.norm == "revin" and entry.finetune_stop == "validation"
    assert entry.K == (150 if name == "TEP" else 200)
    defaults = inspect.signature(entry.loader).parameters
    assert entry.context_length == defaults["context_length"].default
    assert entry.min_history == defaults["min_history"].default
    # the part that pretrains is one the loader returns
    module = inspect.getmodule(entry.loader)
    assert entry.pretrain_part in module.SPEC.parts
    assert (entry.pretrain_part == "normal") == (module.SPEC.normal is not None)
    assert ("random_state" in defaults) == entry.seeded_split


def test_table_1_figures_are_the_papers():
    assert BENCHMARKS["FD001"].paper["hepa"] == {1.0: (.81, .03), 0.1: (.78, .07)}
    assert BENCHMARKS["Weather"].paper["hepa"][1.0] == (.89, .01)
    assert BENCHMARKS["MBA"].paper["itransformer"] == {1.0: (.84, .03), 0.1: (.31, .05)}
    assert "chronos2" not in BENCHMARKS["TEP"].paper and "chronos2" not in BENCHMARKS["FD004"].paper
    assert len(BENCHMARKS) == 14


def test_unknown_dataset_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown dataset 'NOPE'.*ETTm1"):
        get_benchmark("NOPE")


def test_cmapss_entry_gives_the_cmapss_protocol_windows():
    data = BENCHMARKS["FD001"].load(0)
    reference = SubsetSplit("FD001", 0, regime=False)
    np.testing.assert_array_equal(data.X_test, reference.X_test)
    np.testing.assert_array_equal(data.y_train, reference.y_train)
    np.testing.assert_array_equal(data.g_test[:3], np.full(3, data.g_test[0]))
    assert len(data.g_valid) == len(data.X_valid) and len(data.g_test) == len(data.X_test)
    mask, n_units = data.train_mask(0.1)
    np.testing.assert_array_equal(mask, reference.train_mask(0.1))
    assert n_units == 6
    # the C-MAPSS condition at t+1 is the failure itself: one window per unit ends the cycle before it
    one_step = data.y_test["event"] & (data.y_test["time"] == 1)
    np.testing.assert_array_equal(data.point_test == 1, one_step)
    assert one_step.sum() >= len(np.unique(data.g_test)) - 1


def test_unit_blocks_cut_each_unit_in_order():
    groups = np.array(["a"] * 5 + ["b"] * 3)
    np.testing.assert_array_equal(_unit_blocks(groups, 2), [0, 0, 0, 1, 1, 2, 2, 3])
    np.testing.assert_array_equal(_unit_blocks(groups, 4), [0, 0, 1, 2, 3, 4, 5, 6])


def test_block_rule_keeps_whole_blocks_and_reaches_an_event():
    blocks = np.repeat(np.arange(10), 4)
    event = np.zeros(40, bool)
    event[[37, 38, 39]] = True  # only block 9 holds windows with an event within K
    y = make_survival_y(event, np.where(event, 2, 50))
    rule = _block_rule(blocks, y, 5, seed=0)
    order = np.random.default_rng(0).permutation(10)
    mask, n_blocks = rule(0.1)
    kept = np.unique(blocks[mask])
    np.testing.assert_array_equal(np.sort(kept), np.sort(order[:n_blocks]))
    assert 9 in kept and n_blocks == list(order).index(9) + 1
    assert mask.sum() == 4 * n_blocks
    full, n_all = rule(1.0)
    assert full.all() and n_all == 10
    again, _ = _block_rule(blocks, y, 5, seed=0)(0.1)
    np.testing.assert_array_equal(again, mask)


# -- runner on a tiny configuration ----------------------------------------------------------------

def tiny_encoder(entry, data, *, epochs, device, seed):
    return entry.make_pretrainer(epochs, device=device, seed=seed, **TINY).fit(data.X_pre)


def tiny_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed):
    head = entry.make_event_predictor(epochs, device=device, seed=seed, hidden=16, batch_size=64)
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


def tiny_gbm(entry, X_train, y_train, g_train, X_valid, y_valid, *, seed):
    from hepa_sklearn.baselines import GradientBoostingEventPredictor

    return GradientBoostingEventPredictor(K=entry.K, max_iter=5, search=None, random_state=seed).fit(
        X_train, y_train), {}


TINY_METHODS = {
    "hepa": EventMethod("tiny hepa", encoder=tiny_encoder, encoder_key="tiny", head=tiny_head),
    "hepa-head2": EventMethod("the same encoder, another head", encoder=tiny_encoder, encoder_key="tiny",
                              head=tiny_head),
    "gbm": EventMethod("tiny gbm", surface=tiny_gbm),
}


@pytest.fixture(scope="module")
def tiny_registry():
    home = _data_home()
    entry = BENCHMARKS["VIX"]
    if not entry.available(home):
        pytest.skip("VIX is not in HEPA_DATA_HOME.")
    small = dataclasses.replace(entry, context_length=64, min_history=64, pretrain_stride=64, finetune_stride=16,
                                eval_stride=16, label_blocks=5)
    return {"VIX": small}, home


def tiny_run(path, registry, home, **overrides):
    params = dict(datasets=["VIX"], seeds=[0], fractions=[1.0, 0.2], methods=["hepa", "hepa-head2", "gbm"],
                  pretrain_epochs=1, finetune_epochs=1, device="cpu", results=str(path), data_home=home,
                  methods_table=TINY_METHODS, registry=registry, log=lambda *a, **k: None)
    return run_events(**{**params, **overrides})


def test_runner_writes_records_shares_the_encoder_and_resumes(tmp_path, tiny_registry, monkeypatch):
    registry, home = tiny_registry
    path = tmp_path / "events.jsonl"
    fits = {"encoder": 0}
    original = event_benchmark._Encoded

    def counting(*args, **kwargs):
        fits["encoder"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(event_benchmark, "_Encoded", counting)
    records = tiny_run(path, registry, home, command="hepa benchmark events --results events.jsonl")
    assert len(records) == 6 and len(read_results(path)) == 6
    assert fits["encoder"] == 1  # one encoder for both encoder methods and both fractions
    for record in records:
        assert record["dataset"] == "VIX" and record["K"] == 200
        for key in ("h_auroc", "valid_h_auroc", "f1", "pa_f1", "event_recall", "fit_s", "cpu_s", "versions"):
            assert key in record
        assert record["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
        assert "accelerator" not in record  # ran on the CPU
        assert 0 <= record["h_auroc"] <= 1
        # each F1 at its own threshold from the validation windows: no order between them on test windows
        assert all(np.isnan(record[k]) or 0 <= record[k] <= 1 for k in ("f1", "pa_f1", "event_recall"))
        assert "/" not in record["command"].split("--results ")[1]
    partial = [r for r in records if r["fraction"] == 0.2]
    assert all(r["n_train_windows"] < records[0]["n_train_windows"] for r in partial)
    assert len({r["n_train_windows"] for r in partial}) == 1  # the same labelled windows for every method
    # hepa and hepa-head2 are the same recipe on one encoder: equal scores
    by = {(r["method"], r["fraction"]): r["h_auroc"] for r in records}
    assert by[("hepa", 1.0)] == by[("hepa-head2", 1.0)]
    # a rerun computes nothing; other epochs are other cells
    assert tiny_run(path, registry, home) == [] and fits["encoder"] == 1
    assert len(tiny_run(path, registry, home, max_cells=2, finetune_epochs=2)) == 2
    assert len(read_results(path)) == 8


def test_noting_interrupts_sees_a_ctrl_c_that_a_fit_swallowed_and_restores_the_handler():
    before = signal.getsignal(signal.SIGINT)
    with noting_interrupts() as caught:
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:  # as skorch's fit does: training ends, the weights so far are kept
            pass
    assert caught == [signal.SIGINT] and signal.getsignal(signal.SIGINT) is before
    with noting_interrupts() as caught:
        pass
    assert caught == [] and signal.getsignal(signal.SIGINT) is before


def test_a_cell_whose_fit_swallowed_ctrl_c_is_not_recorded_and_the_run_stops(tmp_path, tiny_registry):
    registry, home = tiny_registry

    def cut_short(entry, data, *, epochs, device, seed):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        return tiny_encoder(entry, data, epochs=epochs, device=device, seed=seed)

    methods = {**TINY_METHODS, "hepa": EventMethod("cut short", encoder=cut_short, encoder_key="cut", head=tiny_head)}
    path = tmp_path / "events.jsonl"
    with pytest.raises(KeyboardInterrupt):
        tiny_run(path, registry, home, methods=["gbm", "hepa"], methods_table=methods)
    # the cells finished before the interrupt stay; the one it cut short is not written
    assert [(r["method"], r["fraction"]) for r in read_results(path)] == [("gbm", 1.0), ("gbm", 0.2)]


def test_time_limit_lets_a_fitted_encoder_finish_its_label_fractions(tmp_path, tiny_registry, monkeypatch):
    registry, home = tiny_registry
    shift = [0.0]
    clock = types.SimpleNamespace(perf_counter=lambda: time.perf_counter() + shift[0], process_time=time.process_time)
    original = event_benchmark.append_record

    def appending(path, record):
        original(path, record)
        shift[0] = 3600.0  # the hour is up once the first cell has landed

    monkeypatch.setattr(event_benchmark, "time", clock)
    monkeypatch.setattr(event_benchmark, "append_record", appending)
    records = tiny_run(tmp_path / "events.jsonl", registry, home, methods=["hepa", "gbm"], max_minutes=30)
    # the second fraction reuses the encoder already in memory; gbm would start fresh, so the call ends there
    assert [(r["method"], r["fraction"]) for r in records] == [("hepa", 1.0), ("hepa", 0.2)]
    shift[0] = 0.0
    assert [r["method"] for r in tiny_run(tmp_path / "events.jsonl", registry, home, methods=["hepa", "gbm"],
                                          max_minutes=0)] == []


def test_baseline_and_variant_methods_run_through_the_runner(tmp_path, tiny_registry):
    registry, home = tiny_registry
    methods = ["mae", "hepa-matched", "hepa-channel"]
    records = tiny_run(tmp_path / "events.jsonl", registry, home, methods=methods, fractions=[1.0],
                       methods_table=event_benchmark.EVENT_METHODS)
    assert [r["method"] for r in records] == methods
    for record in records:
        assert 0 <= record["h_auroc"] <= 1 and record["n_train_windows"] > 0


def test_default_pipeline_method_is_the_plain_pipeline_on_the_labelled_windows(tmp_path, tiny_registry):
    registry, home = tiny_registry
    entry = registry["VIX"]
    data = entry.load(0, data_home=home)
    mask, _ = data.train_mask(0.2)
    pipe, info = event_benchmark.default_pipeline(entry, data.X_train[mask], data.y_train[mask],
                                                  data.g_train[mask], data.X_valid, data.y_valid, seed=0)
    pretrainer, predictor = pipe[0], pipe[-1]
    # every parameter at its default but the seed (and K for the predictor)
    assert {k: v for k, v in pretrainer.get_params().items() if k != "random_state"} == \
        {k: v for k, v in HEPAPretrainer().get_params().items() if k != "random_state"}
    assert predictor.get_params() == HEPAEventPredictor(K=entry.K, random_state=0).get_params()
    assert pretrainer.random_state == 0 and pretrainer.n_features_in_ == data.X_train.shape[1]
    assert info == {"pretrain_epochs_run": pretrainer.n_epochs_, "finetune_epochs_run": predictor.n_epochs_,
                    "pretrain_epoch_kept": kept_epoch(pretrainer)}
    assert 1 <= info["pretrain_epoch_kept"] <= info["pretrain_epochs_run"]
    assert 1 <= info["pretrain_epochs_run"] <= 100 and 1 <= info["finetune_epochs_run"] <= 50
    assert pipe.predict_proba(data.X_test[:5]).shape == (5, entry.K)
    # through the runner it is one more column, the same fit under the same seed
    records = tiny_run(tmp_path / "events.jsonl", registry, home, methods=["hepa-default"], fractions=[0.2],
                       methods_table=event_benchmark.EVENT_METHODS)
    assert [r["method"] for r in records] == ["hepa-default"]
    assert records[0]["pretrain_epochs_run"] == info["pretrain_epochs_run"]
    assert records[0]["h_auroc"] == pytest.approx(h_auroc(data.y_test, pipe.predict_proba(data.X_test)), abs=1e-12)


def test_candidate_default_differs_from_the_default_pipeline_only_in_its_stopping_score(tmp_path, tiny_registry):
    registry, home = tiny_registry
    records = tiny_run(tmp_path / "events.jsonl", registry, home, methods=["hepa-default-rank"], fractions=[0.2],
                       methods_table=event_benchmark.EVENT_METHODS)
    data = registry["VIX"].load(0, data_home=home)
    mask, _ = data.train_mask(0.2)
    pipe, info = EVENT_METHODS["hepa-default-rank"].surface(registry["VIX"], data.X_train[mask], data.y_train[mask],
                                                             data.g_train[mask], data.X_valid, data.y_valid, seed=0)
    changed = {k: v for k, v in pipe[0].get_params().items() if v != HEPAPretrainer(random_state=0).get_params()[k]}
    assert changed == {"early_stopping_score": "rank"}
    assert "valid_rank" in pipe[0].history_[-1]
    assert records[0]["pretrain_epoch_kept"] == info["pretrain_epoch_kept"] <= info["pretrain_epochs_run"]
    assert records[0]["h_auroc"] == pytest.approx(h_auroc(data.y_test, pipe.predict_proba(data.X_test)), abs=1e-12)


def test_supervised_baselines_are_trained_once_per_label_fraction(tmp_path, tiny_registry, monkeypatch):
    registry, home = tiny_registry
    seen = []
    original = event_benchmark._supervised_encoder

    def recording(estimator_class, entry, data, mask, **kwargs):
        seen.append((estimator_class.__name__, int(mask.sum()), kwargs["epochs"]))
        encoder = original(estimator_class, entry, data, mask, **kwargs)
        # trained on the labelled windows plus the validation windows, which early stopping holds out
        assert encoder.n_features_in_ == data.X_train.shape[1]
        return encoder

    monkeypatch.setattr(event_benchmark, "_supervised_encoder", recording)
    records = tiny_run(tmp_path / "events.jsonl", registry, home, methods=["patchtst", "itransformer"],
                       methods_table=event_benchmark.EVENT_METHODS, finetune_epochs=2)
    assert [(r["method"], r["fraction"]) for r in records] == [
        ("patchtst", 1.0), ("patchtst", 0.2), ("itransformer", 1.0), ("itransformer", 0.2)]
    full, partial = records[0]["n_train_windows"], records[1]["n_train_windows"]
    assert partial < full
    # one encoder per (method, fraction), each seeing exactly the cell's labelled windows, with the finetuning epochs
    assert seen == [("PatchTSTEncoder", full, 2), ("PatchTSTEncoder", partial, 2),
                    ("ITransformerEncoder", full, 2), ("ITransformerEncoder", partial, 2)]
    for record in records:
        assert 0 <= record["h_auroc"] <= 1 and 1 <= record["pretrain_epochs_run"] <= 2


@pytest.mark.parametrize("method", ["patchtst", "itransformer"])
def test_supervised_baselines_on_cmapss_train_the_protocols_fixed_epochs(method):
    # C-MAPSS finetunes for fixed epochs (no early stopping): the supervised baselines follow the same rule
    entry = BENCHMARKS["FD001"]
    data = entry.load(0)
    mask, n_units = data.train_mask(0.01)
    assert n_units == 1 and set(data.g_train[mask]) == {data.g_train[0]}  # the first unit of the seed's list
    encoder = event_benchmark.EVENT_METHODS[method].encoder(entry, data, mask, epochs=2, device="cpu", seed=0)
    assert encoder.early_stopping is False and encoder.n_epochs_ == 2
    assert encoder.K == entry.K == 150
    assert encoder.transform(data.X_valid[:3]).shape == (3, encoder.d_model)


def test_runner_refuses_unknown_names(tmp_path):
    with pytest.raises(ValueError, match=r"unknown datasets \['Nope'\]"):
        run_events(datasets=["Nope"], seeds=[0], fractions=[1.0], methods=["hepa"], results=str(tmp_path / "r"))
    with pytest.raises(ValueError, match=r"unknown methods \['nope'\]; choose from"):
        run_events(datasets=["VIX"], seeds=[0], fractions=[1.0], methods=["nope"], results=str(tmp_path / "r"))
    with pytest.raises(ValueError, match="label fractions"):
        run_events(datasets=["VIX"], seeds=[0], fractions=[0.0], methods=["gbm"], results=str(tmp_path / "r"))
    with pytest.raises(SystemExit, match="unknown datasets"):
        args = build_parser().parse_args(["benchmark", "events", "--datasets", "Nope", "--results",
                                          str(tmp_path / "r")])
        args.handler(args)


def test_a_method_needs_exactly_one_of_encoder_and_surface():
    with pytest.raises(ValueError, match="exactly one"):
        EventMethod("neither")
    with pytest.raises(ValueError, match="exactly one"):
        EventMethod("both", encoder=tiny_encoder, surface=tiny_gbm)
    with pytest.raises(ValueError, match="supervised EventMethod needs an encoder"):
        EventMethod("labels without encoder", surface=tiny_gbm, supervised=True)
    assert EVENT_METHODS["hepa"].head is event_head
    assert {"hepa", "hepa-random", "gbm"} <= set(EVENT_METHODS)


def test_the_untrained_controls_keep_their_initial_weights_and_statistics(tiny_registry):
    registry, home = tiny_registry
    entry = registry["VIX"]
    data = entry.load(0, data_home=home)
    X = data.X_pre[:8]
    for tokens in ("patch", "channel"):
        params = {**TINY, "tokens": tokens}
        untrained = event_benchmark.untrained_hepa(entry, data, epochs=3, device="cpu", seed=0, **params)
        trained = entry.make_pretrainer(1, device="cpu", seed=0, **params).fit(data.X_pre)
        assert untrained.tokens == tokens and untrained.n_epochs_ == 1
        # the same input statistics as one epoch of training, but not its weights
        np.testing.assert_array_equal(untrained.channel_loc_, trained.channel_loc_)
        assert not np.allclose(untrained.transform(X), trained.transform(X))
        again = event_benchmark.untrained_hepa(entry, data, epochs=3, device="cpu", seed=0, **params)
        np.testing.assert_array_equal(untrained.transform(X), again.transform(X))
    assert EVENT_METHODS["hepa-channel-random"].encoder is event_benchmark.untrained_hepa_channels


def test_cli_parses_the_events_command():
    args = build_parser().parse_args(
        ["benchmark", "events", "--datasets", "ETTm1", "VIX", "--seeds", "0", "1", "--label-fractions", "1", "0.1",
         "--methods", "hepa", "gbm", "--pretrain-epochs", "1", "--max-minutes", "90"])
    assert args.datasets == ["ETTm1", "VIX"] and args.label_fractions == [1.0, 0.1]
    assert args.pretrain_epochs == 1 and args.finetune_epochs is None and args.max_minutes == 90


# -- report ----------------------------------------------------------------------------------------

def _record(dataset, method, seed, fraction, score):
    return {"dataset": dataset, "method": method, "seed": seed, "fraction": fraction, "h_auroc": score,
            "pretrain_epochs": 100, "finetune_epochs": 50, "f1": 0.5, "pa_f1": 0.8, "event_recall": 0.4}


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
    records += [{**_record("FD001", "hepa", s, f, 0.9), "pretrain_epochs": 50, "finetune_epochs": 30}
                for s in range(2) for f in (1.0, 0.1, 0.05)]
    table = render_events(records).split("### Thresholded")[0]
    labels = [tuple(cell.strip() for cell in line.strip("|").split("|")[:2])
              for line in table.splitlines() if line.startswith(("| ETTm1", "| FD001"))]
    assert labels == [("FD001", "100%"), ("FD001", "10%"), ("FD001", "5%"), ("ETTm1", "100%"), ("ETTm1", "10%")]


def test_events_report_judges_our_figures_against_the_papers_spread():
    # ETTm1 in the paper: HEPA 0.81 ± 0.00 (spread floored at 0.005), MAE 0.87 ± 0.00 / 0.77 ± 0.02 at 10 %
    records = [_record("ETTm1", "hepa", s, 1.0, v) for s, v in enumerate((0.820, 0.824))]  # +0.012 > 2 × 0.005
    records += [_record("ETTm1", "mae", s, 1.0, v) for s, v in enumerate((0.70, 0.72))]  # far below 0.87
    records += [_record("ETTm1", "mae", s, 0.1, v) for s, v in enumerate((0.80, 0.81))]  # +0.035 <= 2 × 0.02
    records += [_record("ETTm1", "gbm", s, 1.0, 0.6) for s in range(2)]  # the paper has no boosting column
    records += [_record("ETTm1", "hepa", 0, 0.1, 0.9)]  # one seed: shown, not judged
    section = render_events(records).split("### Ours beside the paper's figure")[1].split("###")[0]
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|")[:3]): line
            for line in section.splitlines() if line.startswith("| ETTm1")}
    assert set(rows) == {("ETTm1", "100%", "hepa"), ("ETTm1", "100%", "mae"), ("ETTm1", "10%", "mae"),
                         ("ETTm1", "10%", "hepa")}
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
        return {**_record("TEP", method, seed, fraction, 0.9), "cpu_s": cpu, "pretrain_cpu_s": pretrain,
                "embed_cpu_s": embed}

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
    assert "not run" in render_events([_record("TEP", "hepa", s, 1.0, 0.9) for s in range(2)]).split(
        "### The default pipeline beside")[1]


def test_event_snapshot_study_scores_each_copy_and_the_kept_weights_as_the_hepa_cell(tmp_path, tiny_registry):
    from hepa_sklearn.benchmarks.snapshots import run_event_snapshots, summarise

    registry, home = tiny_registry
    registry = {"VIX": dataclasses.replace(registry["VIX"], pretrain_epochs=3, finetune_epochs=2)}
    path = tmp_path / "snapshots.jsonl"
    params = dict(datasets=["VIX"], seeds=[0], epochs=[0, 1], device="cpu", results=str(path), data_home=home,
                  registry=registry, log=lambda *a, **k: None)
    records = run_event_snapshots(**params)
    kept = [r for r in records if r["kept"]]
    assert len(kept) == 1 and 1 <= kept[0]["epoch"] <= kept[0]["epochs_run"] <= 3
    assert [r["epoch"] for r in records] == sorted({0, 1, kept[0]["epoch"]})
    for r in records:
        assert r["subset"] == "VIX" and r["method"] == "hepa" and np.isfinite(r["eps_valid"])
        assert 0 <= r["h_auroc"] <= 1 and 0 <= r["valid_h_auroc"] <= 1 and r["rank_valid"] > 0
    # the kept weights are the encoder of the benchmark's hepa cell with all labels: the same score
    cell = tiny_run(tmp_path / "events.jsonl", registry, home, methods=["hepa"], fractions=[1.0],
                    pretrain_epochs=3, finetune_epochs=2, methods_table=event_benchmark.EVENT_METHODS)[0]
    assert kept[0]["h_auroc"] == pytest.approx(cell["h_auroc"], abs=1e-12)
    assert kept[0]["valid_h_auroc"] == pytest.approx(cell["valid_h_auroc"], abs=1e-12)
    # epoch 0 is the untrained encoder: its held-out loss is not below the kept weights' on the same draws
    assert records[0]["epoch"] == 0 and records[0]["eps_valid"] >= kept[0]["eps_valid"]
    assert [row["n"] for row in summarise(records)] == [len(records), len(records)]
    assert run_event_snapshots(**params) == []  # a rerun skips what is there
    with pytest.raises(ValueError, match="unknown event benchmarks"):
        run_event_snapshots(**{**params, "datasets": ["FD001"]})


def test_event_snapshot_study_records_nothing_from_a_pretraining_cut_short_by_ctrl_c(tmp_path, tiny_registry,
                                                                                       monkeypatch):
    from hepa_sklearn.benchmarks import snapshots

    class CutShort(snapshots.EncoderSnapshots):
        def on_epoch_end(self, net, **kwargs):
            super().on_epoch_end(net, **kwargs)
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:  # as skorch's fit does: training ends after this epoch
                pass

    registry, home = tiny_registry
    registry = {"VIX": dataclasses.replace(registry["VIX"], pretrain_epochs=3, finetune_epochs=1)}
    monkeypatch.setattr(snapshots, "EncoderSnapshots", CutShort)
    path = tmp_path / "snapshots.jsonl"
    with pytest.raises(KeyboardInterrupt):  # else epoch 1 would be stored as the kept weights of a full run
        snapshots.run_event_snapshots(datasets=["VIX"], seeds=[0], epochs=[0, 1], device="cpu", results=str(path),
                                      data_home=home, registry=registry, log=lambda *a, **k: None)
    assert read_results(path) == []
