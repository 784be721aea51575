"""The markdown report: mean ± std, tests paired by seed, Holm's correction, the marks in the tables."""

import json

import numpy as np
import pytest

from hepa_sklearn.benchmarks.report import (
    beaten_by,
    compare,
    holm,
    mean_std,
    paired_by_seed,
    paired_tests,
    render,
)
from hepa_sklearn.cli import main

# Five seeds whose scores spread far more than any method difference: Welch's
# test between two methods 0.02 apart sees p = 0.76, the differences per seed
# are what carry the signal.
BASE = np.array([0.80, 0.90, 0.70, 0.85, 0.95])
# paired t p: 0.0048, 0.0452 and 0.0474 (scipy.stats.ttest_rel, computed once);
# Holm over the three: 3 x 0.0048 = 0.0144, 2 x 0.0452 = 0.0905, then
# max(0.0905, 0.0474) = 0.0905: only the first stays below 0.05.
CLEAR = np.array([0.02, 0.03, 0.01, 0.025, 0.015])
BORDERLINE = np.array([0.05, 0.01, 0.02, 0.005, 0.03])
BORDERLINE_OTHER_WAY = np.array([0.03, 0.01, 0.02, 0.0, 0.04])


def record(subset, seed, method, h_auroc, fraction=1.0):
    return {"subset": subset, "seed": seed, "fraction": fraction, "method": method, "pretrain_epochs": 50,
            "finetune_epochs": 30, "h_auroc": float(h_auroc), "n_label_units": 60, "pretrain_s": 0.0,
            "fit_s": 1.0, "predict_s": 0.1, "cell_s": 1.0, "versions": {"torch": "2"},
            "machine": "x86_64, 2 CPU cores", "torch_threads": 1, "device": "cpu", "command": "hepa benchmark cmapss"}


def hand_made_records():
    hepa_over_gbm = {"FD001": CLEAR, "FD002": BORDERLINE, "FD003": -BORDERLINE_OTHER_WAY}
    records = []
    for subset, difference in hepa_over_gbm.items():
        for seed in range(5):
            records.append(record(subset, seed, "hepa", BASE[seed] + difference[seed]))
            records.append(record(subset, seed, "gbm", BASE[seed]))
    return records


def test_mean_std():
    assert mean_std(np.array([0.9, 0.92, 0.94])) == "0.920 ± 0.020 (3)"
    assert mean_std(np.array([0.9])) == "0.900 (1)"
    assert mean_std(np.array([np.nan])) == "—"


def test_pairs_by_seed_and_drops_unpaired_or_missing_seeds():
    a = [{"seed": 3, "h_auroc": 0.9}, {"seed": 0, "h_auroc": 0.8}, {"seed": 1, "h_auroc": 0.7},
         {"seed": 4, "h_auroc": None}]
    b = [{"seed": 1, "h_auroc": 0.6}, {"seed": 0, "h_auroc": 0.5}, {"seed": 2, "h_auroc": 0.4},
         {"seed": 4, "h_auroc": 0.3}, {"seed": 3, "h_auroc": float("nan")}]
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


def test_comparisons_are_holm_adjusted_over_the_table():
    cells = {}
    for r in hand_made_records():
        cells.setdefault((r["subset"], 1.0, r["method"]), []).append(r)
    comparisons = compare(cells, [(s, 1.0, ["hepa", "gbm"]) for s in ("FD001", "FD002", "FD003")])
    assert [(c.a, c.b, c.subset, c.n_seeds) for c in comparisons] == [
        ("hepa", "gbm", "FD001", 5), ("hepa", "gbm", "FD002", 5), ("hepa", "gbm", "FD003", 5)]
    np.testing.assert_allclose([c.t_p for c in comparisons], [0.004813, 0.045240, 0.047421], atol=1e-6)
    np.testing.assert_allclose([c.holm_p for c in comparisons], [0.014438, 0.090480, 0.090480], atol=1e-6)
    np.testing.assert_allclose([c.mean_difference for c in comparisons], [0.02, 0.023, -0.02])
    assert dict(beaten_by(comparisons)) == {("FD001", 1.0, "hepa"): ["gbm"]}


def test_report_from_a_hand_made_results_file(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in hand_made_records()))
    output = tmp_path / "report.md"
    main(["report", "--results", str(results), "--output", str(output)])
    text = output.read_text()
    table = text[text.index("## h-AUROC, 100% labels"):text.index("## Label efficiency")]
    # FD001: marked, where Welch's test (p = 0.76) would not; FD002 and FD003: raw p < 0.05, Holm's above
    assert "| FD001 | 0.860 ± 0.100 (5) >gbm | 0.840 ± 0.096 (5) |" in table
    assert "| FD002 | 0.863 ± 0.096 (5) | 0.840 ± 0.096 (5) |" in table
    assert "| FD003 | 0.820 ± 0.095 (5) | 0.840 ± 0.096 (5) |" in table
    assert "Holm's correction over 3 comparisons (paired t-test, p < 0.05)." in table
    assert "Welch" not in text
    assert "0.0625" in text  # Wilcoxon's floor on 5 seeds is stated
    pairwise = text[text.index("## Pairwise comparisons"):text.index("## Wall time")]
    assert "| hepa vs gbm | FD001 | 100% | 5 | +0.020 | 0.00481 | 0.0625 | 0.0144 * |" in pairwise
    assert "| hepa vs gbm | FD002 | 100% | 5 | +0.023 | 0.0452 | 0.0625 | 0.0905 |" in pairwise
    assert "| hepa vs gbm | FD003 | 100% | 5 | -0.020 | 0.0474 | 0.125 | 0.0905 |" in pairwise


def test_report_pairs_only_the_shared_seeds(tmp_path):
    records = hand_made_records()
    # an unpaired hepa seed with a wild score changes hepa's mean, not the comparison
    records.append(record("FD001", 7, "hepa", 0.1))
    text = render(records)
    assert "| FD001 | 0.733 ± 0.323 (6) >gbm |" in text
    assert "| hepa vs gbm | FD001 | 100% | 5 | +0.020 | 0.00481 |" in text
