"""The simulated section: h-AUROC per method and each method's share of the elapsed-to-oracle gap."""

import numpy as np
import pytest
from hepa_bench.report import render_report
from hepa_bench.report_simulated import gap_share, render_simulated, simulated_cells
from hepa_bench.results import append_record


def _records():
    base = {
        "sim-default": {"oracle": 0.9, "elapsed": 0.7, "gbm": 0.85, "hepa-default-auto0": 0.8},
        "sim-hard": {"oracle": 0.9, "elapsed": 0.8, "gbm": 0.75},
    }
    records = []
    for name, scores in base.items():
        for method, score in scores.items():
            for seed in range(3):
                for fraction in (1.0, 0.1):
                    drop = 0.1 if fraction < 1 and method not in ("oracle",) else 0.0
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
    shares = text.split("Share of the gap")[1]
    # sim-default 100 %: gbm (0.85 - 0.7) / (0.9 - 0.7) = 0.75, hepa-default-auto0 0.5; at 10 %, elapsed 0.6:
    # gbm (0.75 - 0.6) / 0.3 = 0.5; sim-hard: gbm -0.5 (below the age), no hepa-default-auto0 cell
    assert "| sim-default | 100% | 0.50 | 0.75 |" in shares
    assert "| sim-default | 10% | 0.33 | 0.50 |" in shares
    assert "| sim-hard | 100% | — | -0.50 |" in shares
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
