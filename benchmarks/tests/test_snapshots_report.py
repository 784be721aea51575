"""The snapshot study's summaries: Spearman's ρ per seed and pooled, the overview across datasets, the figure."""

import pytest
from hepa_bench.report.snapshots import markdown, overview, plot_snapshots, summarise


def test_summarise_spearman_hand_case():
    records = [
        {"subset": "S", "method": "m", "seed": 0, "epoch": e, "eps_valid": x, "h_auroc": y}
        for e, x, y in [(0, 3.0, 0.5), (1, 2.0, 0.6), (2, 1.0, 0.7), (3, 0.5, 0.65)]
    ]
    rows = summarise(records)
    assert rows[0]["rho"] == pytest.approx(-0.8)
    assert rows[0]["n"] == 4


def test_overview_pairs_epoch_zero_with_each_seeds_last_snapshot():
    rows = [
        (0, 0, 3.0, 0.70),
        (0, 1, 2.0, 0.60),
        (0, 9, 1.0, 0.50),  # seed 0: ρ = +1, falls by 0.2
        (1, 0, 3.0, 0.60),
        (1, 5, 2.0, 0.65),
        (1, 7, 1.0, 0.80),  # seed 1: ρ = -1, rises by 0.2
        (2, 1, 2.5, 0.90),
        (2, 4, 1.5, 0.95),
        (2, 6, 1.0, 0.97),
    ]  # ρ = -1; no epoch 0: not paired
    records = [
        {"subset": "S", "method": "m", "seed": s, "epoch": e, "eps_valid": x, "h_auroc": y} for s, e, x, y in rows
    ]
    (row,) = overview(records)
    assert (row["seeds"], row["n"], row["negative"], row["paired"], row["last_higher"]) == (3, 9, 2, 2, 1)
    assert row["first"] == pytest.approx(0.65) and row["last"] == pytest.approx(0.65)
    assert row["rho"] == pytest.approx(summarise(records)[-1]["rho"])
    assert "| S | `m` | 3 | 9 |" in "\n".join(
        markdown([dict(r, rank_valid=1.0, probe_r2_valid=0.0, valid_h_auroc=0.5) for r in records])
    )


def test_plot_snapshots_wraps_panels_four_to_a_row(tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    records = [
        {"subset": f"S{k}", "method": "m", "seed": 0, "epoch": e, "eps_valid": 2.0 - e, "h_auroc": 0.5 + e / 10}
        for k in range(5)
        for e in (0, 1)
    ]
    height, width = imread(plot_snapshots(records, tmp_path / "grid.png")).shape[:2]
    assert (width, height) == (4 * 540, 2 * 480)  # 4.5 x 4 inches a panel at 120 dpi
