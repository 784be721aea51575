"""Pairs that no test can judge (deterministic methods scoring the same on every seed) count as no win and no loss."""

import numpy as np
from hepa_bench.report.position import position_guard
from hepa_bench.stats import Comparison, win_tie_loss


def record(seed, score):
    return {"seed": seed, "h_auroc": score}


def test_an_untested_pair_is_a_tie_and_a_tested_one_counts():
    comparisons = [
        Comparison("hepa", "gbm", "A", 1.0, 5, +0.10, np.nan, np.nan, holm_p=np.nan, one_run=True),
        Comparison("hepa", "gbm", "B", 1.0, 5, -0.10, np.nan, np.nan, holm_p=np.nan, one_run=True),
        Comparison("hepa", "gbm", "C", 1.0, 5, +0.10, 0.001, 0.06, holm_p=0.01),
        Comparison("gbm", "hepa", "D", 1.0, 5, +0.10, 0.001, 0.06, holm_p=0.01),
        Comparison("hepa", "gbm", "E", 1.0, 5, +0.10, 0.2, 0.3, holm_p=0.4),
    ]
    assert win_tie_loss(comparisons, "hepa", ["gbm"]) == {"gbm": (1, 3, 1)}


def test_two_deterministic_runs_do_not_rule_position_out():
    seeds = range(5)
    cells = {
        ("X", 1.0, "gbm"): [record(s, 0.663) for s in seeds],  # one run, five times
        ("X", 1.0, "position"): [record(s, 0.5) for s in seeds],
        ("Y", 1.0, "gbm"): [record(s, 0.80 + 0.01 * s) for s in seeds],  # varies with the seed
        ("Y", 1.0, "position"): [record(s, 0.5) for s in seeds],
    }
    lines, not_ruled_out = position_guard(cells, [("X", 1.0, None), ("Y", 1.0, None)], ["gbm"])
    assert not_ruled_out == {("X", 1.0)}
    assert "untested (one run each)" in "\n".join(lines)


def test_a_one_run_best_gives_way_to_the_best_method_that_varies():
    seeds = range(5)
    cells = {
        ("X", 1.0, "gbm"): [record(s, 0.95) for s in seeds],  # one run, the highest mean
        ("X", 1.0, "hepa"): [record(s, 0.90 + 0.002 * s) for s in seeds],
        ("X", 1.0, "position"): [record(s, 0.60 + 0.003 * s) for s in seeds],
        ("Y", 1.0, "gbm"): [record(s, 0.95) for s in seeds],
        ("Y", 1.0, "hepa"): [record(s, 0.90 + 0.002 * s) for s in seeds],
        ("Y", 1.0, "position"): [record(s, 0.90 + 0.003 * (s % 2)) for s in seeds],
    }
    lines, not_ruled_out = position_guard(cells, [("X", 1.0, None), ("Y", 1.0, None)], ["gbm", "hepa"])
    assert not_ruled_out == {("Y", 1.0)}
    text = "\n".join(lines)
    assert "hepa (0.904)" in text and "gbm (" not in text
