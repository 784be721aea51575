"""Mean ± std, pairing by seed, the paired tests and Holm's correction, the comparisons of a table."""

import numpy as np
import pytest
from hepa_bench.stats import beaten_by, cells_by, compare, family_note, holm, mean_std, paired_by_seed, paired_tests

BASE = np.array([0.80, 0.90, 0.70, 0.85, 0.95])
CLEAR = np.array([0.02, 0.03, 0.01, 0.025, 0.015])


def test_mean_std():
    assert mean_std(np.array([0.9, 0.92, 0.94])) == "0.920 ± 0.020 (3)"
    assert mean_std(np.array([0.9])) == "0.900 (1)"
    assert mean_std(np.array([np.nan])) == "—"


def test_pairs_by_seed_and_drops_unpaired_or_missing_seeds():
    a = [
        {"seed": 3, "h_auroc": 0.9},
        {"seed": 0, "h_auroc": 0.8},
        {"seed": 1, "h_auroc": 0.7},
        {"seed": 4, "h_auroc": None},
    ]
    b = [
        {"seed": 1, "h_auroc": 0.6},
        {"seed": 0, "h_auroc": 0.5},
        {"seed": 2, "h_auroc": 0.4},
        {"seed": 4, "h_auroc": 0.3},
        {"seed": 3, "h_auroc": float("nan")},
    ]
    seeds, score_a, score_b = paired_by_seed(a, b)
    assert seeds == [0, 1]  # 2: only b; 3: b is NaN; 4: a is missing
    np.testing.assert_array_equal(score_a, [0.8, 0.7])
    np.testing.assert_array_equal(score_b, [0.5, 0.6])
    assert paired_by_seed(a, [], "h_auroc")[0] == []


def test_holm_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04; running max 0.02, 0.03, 0.06, 0.06
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    # NaN is no test and does not count: m = 2
    np.testing.assert_allclose(holm([0.2, np.nan, 0.6]), [0.4, np.nan, 0.6])
    np.testing.assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])  # capped at 1
    np.testing.assert_allclose(holm([0.02, 0.02]), [0.04, 0.04])
    assert holm([]).size == 0


def test_paired_tests_by_hand():
    # differences 1, 2, 3: t = 2 / (1 / sqrt 3) = sqrt 12 on 2 degrees of freedom, whose
    # two-sided p is 1 - t / sqrt(t^2 + 2) = 1 - sqrt(12 / 14); Wilcoxon, all 3 signs
    # positive: exact p = 2 / 2^3
    t_p, w_p = paired_tests(np.array([1.0, 2.0, 3.0]), np.zeros(3))
    assert t_p == pytest.approx(1 - np.sqrt(12 / 14))
    assert w_p == pytest.approx(0.25)
    # five seeds, all better: Wilcoxon's smallest two-sided p, 2 / 2^5
    assert paired_tests(BASE + CLEAR, BASE)[1] == pytest.approx(0.0625)
    assert paired_tests(BASE, BASE) == (1.0, 1.0)
    assert paired_tests(BASE + 0.01, BASE)[0] == 0.0  # the same gain on every seed
    assert all(np.isnan(paired_tests(BASE[:1], BASE[:1])))


def test_comparisons_are_holm_adjusted_over_the_table(hand_made_records):
    cells = cells_by(hand_made_records())
    comparisons = compare(cells, [(s, 1.0, ["hepa", "gbm"]) for s in ("FD001", "FD002", "FD003")])
    assert [(c.a, c.b, c.subset, c.n_seeds) for c in comparisons] == [
        ("hepa", "gbm", "FD001", 5),
        ("hepa", "gbm", "FD002", 5),
        ("hepa", "gbm", "FD003", 5),
    ]
    np.testing.assert_allclose([c.t_p for c in comparisons], [0.004813, 0.045240, 0.047421], atol=1e-6)
    np.testing.assert_allclose([c.holm_p for c in comparisons], [0.014438, 0.090480, 0.090480], atol=1e-6)
    np.testing.assert_allclose([c.mean_difference for c in comparisons], [0.02, 0.023, -0.02])
    assert dict(beaten_by(comparisons)) == {("FD001", 1.0, "hepa"): ["gbm"]}


def test_a_method_with_one_score_on_every_seed_is_one_run_and_not_tested():
    def records(method, scores):
        return [
            {"subset": "FD001", "seed": s, "fraction": 1.0, "method": method, "h_auroc": v}
            for s, v in enumerate(scores)
        ]

    # hepa varies over the seeds, gbm scores 0.8 on each (a deterministic fit of a fixed split),
    # mae varies too: only hepa against mae is a paired test
    cells = cells_by(
        records("hepa", [0.90, 0.91, 0.92, 0.93, 0.94])
        + records("gbm", [0.8] * 5)
        + records("mae", [0.85, 0.87, 0.86, 0.88, 0.84])
    )
    comparisons = compare(cells, [("FD001", 1.0, ["hepa", "gbm", "mae"])])
    tested = {(c.a, c.b): (c.one_run, np.isfinite(c.t_p)) for c in comparisons}
    assert tested == {("hepa", "gbm"): (True, False), ("hepa", "mae"): (False, True), ("gbm", "mae"): (True, False)}
    (hepa_mae,) = [c for c in comparisons if not c.one_run]
    assert hepa_mae.holm_p == hepa_mae.t_p  # a family of one
    # the paired t-test would have called hepa's 0.12 ahead of gbm significant on its own spread alone
    assert paired_tests(np.array([0.90, 0.91, 0.92, 0.93, 0.94]), np.full(5, 0.8))[0] < 1e-4
    assert not beaten_by(comparisons).get(("FD001", 1.0, "hepa"), []).count("gbm")
    assert "2 comparisons with a method that scored the same on every seed" in family_note(comparisons)
