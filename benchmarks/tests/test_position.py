"""The position-only score and the report's guard: rows solved by where a window sits count for nobody."""

import numpy as np
import pytest
from hepa_bench.methods.position import AGE_BINS, PositionOnlyPredictor
from hepa_bench.report.events import render_events

from hepa_sklearn import h_auroc
from hepa_sklearn.surface import make_survival_y


def windows_of_age(ages, length=64):
    X = np.ones((len(ages), 2, length))
    for i, age in enumerate(ages):
        X[i, :, : length - age] = np.nan
    return X


def test_each_age_gets_its_training_windows_event_share():
    # ages 1 and 2, three windows each: at age 1 one of three has its event within 1 step, at age 2 all three
    X = windows_of_age([1, 1, 1, 2, 2, 2])
    y = make_survival_y([True, False, False, True, True, True], [1, 5, 5, 1, 1, 1])
    model = PositionOnlyPredictor(K=3).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(windows_of_age([1, 2])), [[1 / 3] * 3, [1.0] * 3])
    # an age outside the training range takes the nearest bin
    np.testing.assert_allclose(model.predict_proba(windows_of_age([40])), [[1.0] * 3])


def test_unknown_cells_are_left_out_and_rows_are_monotone():
    X = windows_of_age([3, 3])
    # the second window is censored after 1 step: only its first horizon is known (negative)
    y = make_survival_y([True, False], [2, 1])
    P = PositionOnlyPredictor(K=3).fit(X, y).predict_proba(X[:1])[0]
    np.testing.assert_allclose(P, [0.0, 1.0, 1.0])  # horizon 1: 0 of 2; horizons 2-3: 1 of 1 known
    assert np.all(np.diff(P) >= 0)


def test_bins_are_at_most_the_limit():
    ages = np.arange(1, 64).tolist() * 3
    y = make_survival_y(np.ones(len(ages), bool), np.full(len(ages), 5))
    model = PositionOnlyPredictor(K=4).fit(windows_of_age(ages), y)
    assert model.table_.shape[0] <= AGE_BINS


def test_position_solves_a_fleet_whose_faults_start_at_one_step():
    # as in TEP: every run's fault starts at step 48, so the padding gives the time to it
    ages = np.arange(1, 48)
    y = make_survival_y(np.ones(ages.size, bool), 48 - ages)
    model = PositionOnlyPredictor(K=20).fit(windows_of_age(ages.tolist()), y)
    assert h_auroc(y, model.predict_proba(windows_of_age(ages.tolist()))) == pytest.approx(1.0)


def _record(dataset, method, seed, score, fraction=1.0):
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


def test_report_marks_a_row_solved_by_position_and_leaves_it_out_of_the_win_counts():
    records = []
    for s in range(5):
        # TEP: position as good as the best method; ETTm1: position far below it
        records += [
            _record("TEP", "hepa", s, 0.90 + 0.01 * s),
            _record("TEP", "gbm", s, 0.55 + 0.01 * (s % 2)),
            _record("TEP", "position", s, 0.95 + 0.01 * (s % 3)),
            _record("TEP", "elapsed", s, 0.9),
            _record("ETTm1", "hepa", s, 0.80 + 0.01 * s),
            _record("ETTm1", "gbm", s, 0.70 + 0.012 * s),
            _record("ETTm1", "position", s, 0.50 + 0.003 * s),
            _record("ETTm1", "elapsed", s, 0.5),
        ]
    text = render_events(records)
    guard = text.split("### Reference points")[1].split("###")[0]
    tep = next(line for line in guard.splitlines() if line.startswith("| TEP"))
    ettm1 = next(line for line in guard.splitlines() if line.startswith("| ETTm1"))
    assert tep.endswith("| **solved by position** |") and ettm1.endswith("| ruled out |")
    wins = text.split("### HEPA against each baseline")[1].split("###")[0]
    assert "Rows where position is not ruled out (TEP 100%) count for nobody." in wins
    assert "| hepa | 1/0/0 | 1 of 1 |" in wins  # only the ETTm1 row is counted
    # the reference points are shown in the table, but never compared with the methods there
    comparisons = text.split("### Pairwise comparisons")[1].split("### CPU time")[0]
    assert "position" not in comparisons and "elapsed" not in comparisons
