"""The simulated rows: parts of a seed's fleet, seeds that change the fleet, the oracle references through the
runner."""

import numpy as np
import pytest
from hepa_bench.methods.table import METHODS
from hepa_bench.results import read_results
from hepa_bench.runner import run_benchmark
from hepa_bench.simulated.rows import UNITS, row_parts
from hepa_bench.simulated.run import (
    CONTEXT_LENGTH,
    N_UNITS,
    ORACLES,
    PARTS,
    PRESETS,
    SIMULATED,
    K,
    load_fleet,
    main,
    oracle_surface,
)

from hepa_sklearn.datasets import make_fleet
from hepa_sklearn.windows import make_windows


def test_parts_are_the_windows_make_windows_cuts_from_their_units():
    fleet = make_fleet(N_UNITS, K=K, context_length=CONTEXT_LENGTH, random_state=3, **PRESETS["sim-modes"])
    seen = set()
    for part, units in PARTS.items():
        bunch = load_fleet(split=part, stride=4, min_history=5, random_state=3, preset="sim-modes")
        frame = fleet.frame[fleet.frame["unit"].isin(units)]
        X, y, groups = make_windows(
            frame,
            feature_cols=fleet.feature_names,
            event_col="failure",
            unit_col="unit",
            time_col="step",
            context_length=CONTEXT_LENGTH,
            stride=4,
            min_history=5,
        )
        np.testing.assert_array_equal(bunch.X, X)
        np.testing.assert_array_equal(bunch.y, y)
        np.testing.assert_array_equal(bunch.groups, groups)
        assert bunch.oracle.shape == bunch.age_oracle.shape == (len(X), K)
        assert set(bunch.splits["split"]) == {part} and list(bunch.splits["unit"]) == list(units)
        assert seen.isdisjoint(units)
        seen |= set(units)
    assert seen == set(range(N_UNITS))


def test_each_seed_draws_another_fleet():
    entry = SIMULATED["sim-default"]
    a, b, c = entry.load(0), entry.load(0), entry.load(1)
    np.testing.assert_array_equal(a.X_test, b.X_test)
    assert a.X_test.shape != c.X_test.shape or not np.array_equal(a.X_test, c.X_test, equal_nan=True)
    # a label fraction keeps whole units: one block per training unit
    mask, n_units = a.train_mask(0.1)
    assert n_units == 6 and len(np.unique(a.g_train[mask])) == 6


def test_the_oracle_reads_the_fleets_surfaces_and_refuses_other_windows():
    entry = SIMULATED["sim-hard"]
    data = entry.load(2)
    model, info = oracle_surface(entry, data, None, epochs=1, device="cpu", seed=2)
    test = load_fleet(split="test", random_state=2, preset="sim-hard")
    np.testing.assert_array_equal(model.predict_proba(data.X_test), test.oracle)
    age, _ = ORACLES["age-oracle"].surface(entry, data, None, epochs=1, device="cpu", seed=2)
    np.testing.assert_array_equal(age.predict_proba(data.X_test), test.age_oracle)
    with pytest.raises(ValueError, match="knows only the validation and test windows"):
        model.predict_proba(data.X_train)


def test_the_runner_scores_the_references_on_a_simulated_row(tmp_path):
    results = tmp_path / "simulated.jsonl"
    records = run_benchmark(
        datasets=["sim-default"],
        seeds=[0],
        fractions=[1.0],
        methods=["oracle", "elapsed"],
        results=results,
        methods_table={**METHODS, **ORACLES},
        registry=SIMULATED,
        log=lambda *a, **k: None,
    )
    scores = {r["method"]: r["h_auroc"] for r in records}
    assert scores["oracle"] > scores["elapsed"] > 0.5
    assert len(read_results(results)) == 2


def test_the_command_line_runs_the_simulated_rows(tmp_path, capsys):
    results = tmp_path / "out.jsonl"
    main(
        [
            "--datasets",
            "sim-modes",
            "--seeds",
            "1",
            "--label-fractions",
            "1.0",
            "--methods",
            "age-oracle",
            "--results",
            str(results),
        ]
    )
    (record,) = read_results(results)
    assert (record["dataset"], record["method"], record["K"]) == ("sim-modes", "age-oracle", K)
    assert record["command"].split("--datasets")[0].endswith("python -m hepa_bench.simulated ")
    assert "1 cells to run" in capsys.readouterr().out


def test_the_command_line_refuses_bad_options_by_name(tmp_path):
    with pytest.raises(SystemExit, match="unknown methods"):
        main(["--methods", "nope", "--results", str(tmp_path / "out.jsonl")])
    with pytest.raises(SystemExit, match="--label-fractions"):
        main(["--label-fractions", "2", "--results", str(tmp_path / "out.jsonl")])


def test_a_row_of_more_units_keeps_the_proportions_of_the_parts():
    assert all(row_parts(name) == PARTS for name in PRESETS if name not in UNITS)
    n = UNITS["sim-spread"]
    parts = row_parts("sim-spread")
    assert [len(units) for units in parts.values()] == [6 * n // 10, n // 10, 3 * n // 10]
    assert [units.start for units in parts.values()] == [0, parts["train"].stop, parts["valid"].stop]
    assert parts["test"].stop == n
    description = SIMULATED["sim-spread"].description
    assert f"{n} units" in description and f"{parts['test'].start}-{n - 1} test" in description
