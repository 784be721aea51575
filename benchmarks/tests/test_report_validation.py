"""The report's check of whether validation units rank the methods as the test units do."""

import numpy as np
import pytest
from hepa_bench.report.events import render_events
from hepa_bench.report.validation import agreement_table, validation_agreement
from hepa_bench.stats import cells_by


def _record(method, seed, valid, test, fraction=1.0, dataset="ETTm1"):
    return {
        "dataset": dataset,
        "method": method,
        "seed": seed,
        "fraction": fraction,
        "h_auroc": test,
        "valid_h_auroc": valid,
        "pretrain_epochs": 100,
        "finetune_epochs": 50,
    }


def _rows(records):
    return sorted({(r["dataset"], r["fraction"], None) for r in records})


def test_reversed_ranking_gives_rho_minus_one_and_the_choice_on_validation_its_test_score():
    # four methods whose validation order is the reverse of their test order
    records = [
        _record(m, s, 0.6 + 0.1 * i + 0.01 * s, 0.9 - 0.1 * i - 0.01 * s)
        for i, m in enumerate("abcd")
        for s in range(2)
    ]
    (found,) = validation_agreement(cells_by(records, "dataset"), _rows(records), list("abcd"))
    assert found["n_methods"] == 4
    assert found["rho"] == pytest.approx(-1.0)
    assert found["chosen"] == "d"  # highest validation mean, 0.905
    assert found["chosen_test"] == pytest.approx(0.595)  # mean of 0.6 and 0.59
    assert found["best_test"] == pytest.approx(0.895)


def test_a_method_needs_two_seeds_with_both_figures_and_a_row_needs_four_methods():
    records = [_record(m, s, 0.5 + 0.1 * i, 0.5 + 0.1 * i) for i, m in enumerate("abc") for s in range(2)]
    records += [_record("d", 0, 0.9, 0.9), _record("d", 1, None, 0.9)]  # one usable seed: left out
    records += [_record("e", s, float("nan"), 0.9) for s in range(2)]  # no finite validation figure
    cells = cells_by(records, "dataset")
    assert validation_agreement(cells, _rows(records), list("abcde")) == []
    assert agreement_table(cells, _rows(records), list("abcde")) == [
        "No row has 4 methods with validation and test figures on 2+ seeds."
    ]
    records += [_record("d", 2, 0.8, 0.2)]  # two usable seeds: first on validation (0.85), second lowest on test
    (found,) = validation_agreement(cells_by(records, "dataset"), _rows(records), list("abcde"))
    assert found["n_methods"] == 4 and found["chosen"] == "d"
    assert found["chosen_test"] == pytest.approx(0.55)
    expected = np.corrcoef([0, 1, 2, 3], [0, 2, 3, 1])[0, 1]  # Spearman is Pearson on the ranks
    assert found["rho"] == pytest.approx(expected)


def test_the_events_report_tables_the_agreement_per_row():
    records = [
        _record(m, s, 0.6 + 0.1 * i, 0.6 + 0.1 * i + 0.001 * s, fraction=f)
        for i, m in enumerate(("hepa", "hepa-random", "gbm", "mae"))
        for s in range(2)
        for f in (1.0, 0.1)
    ]
    section = render_events(records).split("### Does validation rank the methods as test does?")[1].split("###")[0]
    lines = [line for line in section.splitlines() if line.startswith("| ETTm1")]
    assert lines == [
        "| ETTm1 | 100% | 4 | +1.00 | 0 | mae (0.901) | 0.901 | +0.000 |",
        "| ETTm1 | 10% | 4 | +1.00 | 0 | mae (0.901) | 0.901 | +0.000 |",
    ]
