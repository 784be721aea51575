"""The simulated section: h-AUROC per method and each method's share of the gap from the exact age-only
surface to the oracle."""

import numpy as np
import pytest
from hepa_bench.report.document import render_report
from hepa_bench.report.simulated import gap_share, render_simulated, simulated_cells
from hepa_bench.results import append_record


def _records():
    base = {
        "sim-default": {
            **{"oracle": 0.9, "age-oracle": 0.75, "elapsed": 0.7},
            **{"gbm": 0.85, "hepa-default-auto0": 0.8},
        },
        "sim-hard": {"oracle": 0.9, "age-oracle": 0.8, "elapsed": 0.8, "gbm": 0.75},
    }
    records = []
    for name, scores in base.items():
        for method, score in scores.items():
            for seed in range(3):
                for fraction in (1.0, 0.1):
                    drop = 0.1 if fraction < 1 and method not in ("oracle", "age-oracle") else 0.0
                    records.append(
                        {
                            "dataset": name,
                            "method": method,
                            "seed": seed,
                            "fraction": fraction,
                            "h_auroc": score - drop + 0.01 * (seed - 1),
                        }
                    )
    return records + [{"dataset": "FD001", "method": "gbm", "seed": 0, "fraction": 1.0, "h_auroc": 0.5}]


def test_gap_share_pairs_the_seeds_all_three_ran():
    share, n_seeds = gap_share({0: 0.8, 1: 0.9}, {0: 0.7, 1: 0.7}, {0: 0.95, 1: 0.95, 2: 0.9})
    assert share == pytest.approx(0.6) and n_seeds == 2  # (0.85 - 0.7) / (0.95 - 0.7) over seeds 0 and 1
    assert np.isnan(gap_share({0: 0.8}, {1: 0.7}, {0: 0.9})[0])
    assert np.isnan(gap_share({0: 0.8}, {0: 0.9}, {0: 0.9})[0])  # no gap to share


def test_simulated_cells_keep_the_simulated_rows_only():
    cells = simulated_cells(_records())
    assert {name for name, _, _ in cells} == {"sim-default", "sim-hard"}
    assert cells[("sim-default", 1.0, "gbm")] == {0: 0.84, 1: 0.85, 2: 0.86}


def test_the_section_tables_scores_and_shares():
    text = "\n".join(render_simulated(_records()))
    assert "### Simulated fleets: the distance to the ceiling" in text
    assert "| sim-default | 100% | 0.900 ± 0.010 (3) |" in text
    shares = text.split("Share of the gap")[1].split("####")[0]
    # from the age-only surface (0.75 on sim-default at every fraction) to the oracle (0.9), elapsed a method:
    # sim-default 100 %: hepa-default-auto0 (0.8 - 0.75) / 0.15 = 0.33, gbm 0.67, elapsed
    # (0.7 - 0.75) / 0.15 = -0.33; at 10 % the methods lose 0.1 and the references nothing: -0.33, 0.00
    # and -1.00 (the fitted floor's collapse no longer inflates the others); sim-hard: no
    # hepa-default-auto0 cell, gbm -0.5, elapsed 0
    assert "| fleet | labels | hepa-default-auto0 | gbm | elapsed |" in shares
    assert "| sim-default | 100% | 0.33 | 0.67 | -0.33 |" in shares
    assert "| sim-default | 10% | -0.33 | 0.00 | -1.00 |" in shares
    assert "| sim-hard | 100% | — | -0.50 | 0.00 |" in shares
    assert "from `age-oracle` (0) to `oracle` (1)" in shares
    assert render_simulated(_records()[-1:]) == []


def test_report_adds_the_section_only_when_asked(tmp_path):
    cmapss, simulated = tmp_path / "cmapss.jsonl", tmp_path / "simulated.jsonl"
    cmapss.write_text("")  # no C-MAPSS record: the report's first section is its empty frame
    for record in _records():
        append_record(simulated, record)
    plain = render_report(cmapss)
    assert "Simulated fleets" not in plain
    assert render_report(cmapss, simulated=simulated).startswith(plain.rstrip("\n"))
    assert "Simulated fleets" in render_report(cmapss, simulated=simulated)


def _record(name, fraction, method, seed, score, **extra):
    return {"dataset": name, "fraction": fraction, "method": method, "seed": seed, "h_auroc": score, **extra}


def _hand_made():
    """sim-modes at 10 % labels: the references ran with all labels only, and the methods on other seeds."""
    scores = {
        ("oracle", 1.0): {0: 0.90, 1: 0.95, 2: 0.92},
        ("age-oracle", 1.0): {0: 0.70, 1: 0.72, 2: 0.71},
        ("elapsed", 0.1): {0: 0.60, 1: 0.70, 2: 0.65},
        ("gbm-select", 0.1): {0: 0.80, 1: 0.75, 3: 0.90},  # seed 2 did not run, seed 3 has no reference
        ("minirocket", 0.1): {0: 0.55, 1: 0.68, 2: 0.61},
    }
    return [
        _record("sim-modes", fraction, method, seed, score)
        for (method, fraction), by_seed in scores.items()
        for seed, score in by_seed.items()
    ]


def test_the_gap_is_shared_exactly_on_hand_made_records():
    text = "\n".join(render_simulated(_hand_made()))
    tested = text.split("#### The gap, tested")[1]
    # gbm-select: seeds 0 and 1 pair with the all-labels references (neither learns anything):
    # (0.775 - 0.71) / (0.925 - 0.71) = 0.3023...; its own mean is over its three seeds,
    # (0.8 + 0.75 + 0.9) / 3
    assert "| sim-modes | 10% | gbm-select | 0.817 | 0.30 | 2 |" in tested
    # minirocket, below the age: seeds 0-2, (0.61333 - 0.71) / (0.92333 - 0.71) = -0.453...
    assert "| sim-modes | 10% | minirocket | 0.613 | -0.45 | 3 |" in tested
    # the fitted age curve, a method like the others: (0.65 - 0.71) / (0.92333 - 0.71) = -0.281...
    assert "| sim-modes | 10% | elapsed | 0.650 | -0.28 | 3 |" in tested
    floor, ceiling = {0: 0.70, 1: 0.72, 2: 0.71}, {0: 0.90, 1: 0.95, 2: 0.92}
    share, n_seeds = gap_share({0: 0.80, 1: 0.75, 3: 0.90}, floor, ceiling)
    assert share == pytest.approx((0.775 - 0.71) / (0.925 - 0.71), abs=1e-12) and n_seeds == 2


def test_the_paired_tests_are_holm_adjusted_over_the_simulated_family():
    from hepa_bench.report.simulated import simulated_comparisons
    from hepa_bench.stats import holm
    from scipy import stats

    hard = {
        "oracle": (0.93, 0.95, 0.91, 0.94),
        "age-oracle": (0.84, 0.86, 0.83, 0.85),
        "elapsed": (0.80, 0.85, 0.82, 0.81),
        "gbm": (0.88, 0.90, 0.86, 0.92),
    }
    records = _hand_made() + [
        _record("sim-hard", 1.0, m, seed, score) for m, scores in hard.items() for seed, score in enumerate(scores)
    ]
    records.append(_record("FD001", 1.0, "gbm", 0, 0.5))  # not a simulated row: in no comparison
    _, rows, comparisons = simulated_comparisons(records)
    assert [(name, fraction) for name, fraction, _ in rows] == [
        ("sim-hard", 1.0),
        ("sim-modes", 1.0),
        ("sim-modes", 0.1),
    ]
    # sim-hard: 6 pairs; sim-modes 100 %: the two references, 1 pair; sim-modes 10 %: 3 pairs
    assert len(comparisons) == 10 and {c.subset for c in comparisons} == {"sim-hard", "sim-modes"}
    pair = next(c for c in comparisons if {c.a, c.b} == {"gbm-select", "minirocket"})
    assert pair.n_seeds == 2 and pair.t_p == pytest.approx(stats.ttest_rel([0.80, 0.75], [0.55, 0.68]).pvalue)
    np.testing.assert_allclose([c.holm_p for c in comparisons], holm([c.t_p for c in comparisons]))
    assert min(c.holm_p for c in comparisons) > min(c.t_p for c in comparisons)  # ten tests, one family
    text = "\n".join(render_simulated(records))
    gbm = next(c for c in comparisons if c.subset == "sim-hard" and {c.a, c.b} == {"gbm", "age-oracle"})
    difference = gbm.mean_difference if gbm.a == "gbm" else -gbm.mean_difference
    # its difference from the floor is from the age-only surface: (0.89 - 0.845) / (0.9325 - 0.845) = 0.514...
    assert f"| sim-hard | 100% | gbm | 0.890 | 0.51 | 4 | {difference:+.3f} (p {gbm.holm_p:.3g}" in text
    assert "Holm's correction over 10 comparisons" in text and "FD001" not in text


def test_the_report_skips_malformed_simulated_records_with_a_warning(tmp_path):
    cmapss, simulated = tmp_path / "cmapss.jsonl", tmp_path / "simulated.jsonl"
    cmapss.write_text("")
    for record in _records():
        append_record(simulated, record)
    append_record(simulated, {"dataset": "sim-default", "method": "gbm", "seed": "one", "fraction": 1.0})
    append_record(simulated, _record("sim-default", 1.0, "gbm", 7, "0.99"))  # a score that is not a number
    with pytest.warns(UserWarning, match=r"line 56: skipped, fields \['seed'\] of another type"):
        text = render_report(cmapss, simulated=simulated)
    assert "| sim-default | 100% | 0.900 ± 0.010 (3) |" in text and "(4)" not in text.split("Simulated fleets")[1]
