"""The simulated rows as rows of ``hepa-bench run``: the same fleets as the committed records, a new fleet per seed,
the oracles refused elsewhere."""

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from hepa_bench import cli
from hepa_bench.methods.table import METHODS
from hepa_bench.registry import BENCHMARKS
from hepa_bench.results import read_results
from hepa_bench.runner import RUN_DATASETS, RUN_METHODS, run_benchmark
from hepa_bench.simulated import run as simulated
from hepa_bench.simulated.rows import ORACLES, PRESETS, SIMULATED

from hepa_sklearn.metrics import h_auroc

COMMITTED = Path(__file__).resolve().parents[1] / "records" / "simulated_results.jsonl"
ROWS = ["sim-default", "sim-hard", "sim-modes"]  # the rows of the committed records
SEEDS = range(5)
WINDOW_FIELDS = ("n_train_windows", "n_valid_windows", "n_test_windows", "n_pretrain_windows", "n_label_blocks")
# fields that differ between two runs of one cell: timings, when and how it ran
RUN_FIELDS = {"cell_s", "fit_s", "cpu_s", "predict_s", "pretrain_s", "pretrain_cpu_s", "embed_s", "embed_cpu_s"}
RUN_FIELDS |= {"finished", "command", "machine", "cpu_capability", "torch_threads", "versions"}


def committed(method):
    """``{(row, seed, fraction): record}`` of ``method`` in the committed simulated records."""
    return {
        (r["dataset"], r["seed"], float(r["fraction"])): r for r in read_results(COMMITTED) if r["method"] == method
    }


def quiet(*args, **kwargs):
    pass


def test_the_runner_holds_the_simulated_rows_beside_the_registry():
    assert all(RUN_DATASETS[name] is entry for name, entry in SIMULATED.items())
    assert all(RUN_DATASETS[name] is entry for name, entry in BENCHMARKS.items())
    assert all(RUN_METHODS[name] is method for name, method in {**METHODS, **ORACLES}.items())
    # the registry itself, which the event report and the corpus read, holds no simulated row
    assert not set(PRESETS) & set(BENCHMARKS) and not set(ORACLES) & set(METHODS)
    # a plain `hepa-bench run` runs the registry's datasets; the simulated rows are named
    args = cli.build_parser().parse_args(["run"])
    assert args.datasets == list(BENCHMARKS)


@pytest.mark.parametrize("name", ROWS)
def test_the_registry_route_draws_the_fleets_of_the_committed_records(name):
    oracle, age, elapsed = committed("oracle"), committed("age-oracle"), committed("elapsed")
    entry = RUN_DATASETS[name]
    for seed in SEEDS:
        data = entry.load(seed)
        for fraction in (1.0, 0.1):
            mask, n_blocks = data.train_mask(fraction)
            record = elapsed[(name, seed, fraction)]
            seen = (int(mask.sum()), len(data.X_valid), len(data.X_test), len(data.X_pre), int(n_blocks))
            assert seen == tuple(record[f] for f in WINDOW_FIELDS), (seed, fraction)
        # the exact surfaces of these test windows score what the committed oracle records scored
        for method, records in (("oracle", oracle), ("age-oracle", age)):
            model, _ = RUN_METHODS[method].surface(entry, data, None, epochs=1, device="cpu", seed=seed)
            score = h_auroc(data.y_test, model.predict_proba(data.X_test))
            assert score == pytest.approx(records[(name, seed, 1.0)]["h_auroc"], abs=1e-12), (method, seed)


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_seed_draws_another_fleet_through_the_runner(name):
    entry = RUN_DATASETS[name]
    a, again, b = entry.load(0), entry.load(0), entry.load(1)
    np.testing.assert_array_equal(a.X_train, again.X_train)
    np.testing.assert_array_equal(a.y_test, again.y_test)
    for part in ("X_train", "X_test"):
        x, y = getattr(a, part), getattr(b, part)
        assert x.shape != y.shape or not np.array_equal(x, y, equal_nan=True), part
    assert not np.array_equal(a.y_test, b.y_test) or a.y_test.shape != b.y_test.shape


def test_hepa_bench_run_and_the_module_write_the_same_record(tmp_path, monkeypatch, capsys):
    options = ["--datasets", "sim-hard", "--seeds", "2", "--label-fractions", "0.1", "--methods", "elapsed"]
    via_run, via_module = tmp_path / "run.jsonl", tmp_path / "module.jsonl"
    monkeypatch.setattr(sys, "argv", ["hepa-bench", "run", *options, "--results", str(via_run)])
    assert cli.main() == 0
    simulated.main([*options, "--results", str(via_module)])
    (a,), (b,) = read_results(via_run), read_results(via_module)
    assert {k: v for k, v in a.items() if k not in RUN_FIELDS} == {k: v for k, v in b.items() if k not in RUN_FIELDS}
    assert a["command"].split("--datasets")[0].endswith("hepa-bench run ")
    assert b["command"].split("--datasets")[0].endswith("python -m hepa_bench.simulated ")
    # and both score what the committed record of that cell scored (the elapsed-time fit is deterministic)
    assert a["h_auroc"] == pytest.approx(committed("elapsed")[("sim-hard", 2, 0.1)]["h_auroc"], abs=1e-12)


def test_hepa_bench_run_resumes_the_committed_file(tmp_path):
    results = tmp_path / "simulated_results.jsonl"
    shutil.copy(COMMITTED, results)
    logged = []
    records = run_benchmark(
        datasets=ROWS,
        seeds=list(SEEDS),
        fractions=[1.0, 0.1],
        methods=list(simulated.DEFAULT_METHODS),
        results=str(results),
        log=lambda message, **kw: logged.append(message),
    )
    assert records == [] and logged[0].startswith("0 cells to run")
    assert results.read_bytes() == COMMITTED.read_bytes()


def test_the_oracles_run_on_the_simulated_rows_only(tmp_path):
    results = tmp_path / "out.jsonl"
    with pytest.raises(ValueError, match=r"oracle runs on \['sim-default'.*only, not on \['VIX'\]"):
        run_benchmark(
            datasets=["sim-default", "VIX"], seeds=[0], fractions=[1.0], methods=["oracle"], results=results, log=quiet
        )
    with pytest.raises(SystemExit, match="hepa-bench run: age-oracle runs on"):
        cli.main(["run", "--datasets", "FD001", "--methods", "age-oracle", "--results", str(results)])
    with pytest.raises(SystemExit, match=r"python -m hepa_bench.simulated: unknown datasets \['sim-nope'\]"):
        simulated.main(["--datasets", "sim-nope", "--results", str(results)])
    assert not results.exists()  # refused before any cell
