"""The former forms of baselines: out of every table and comparison, shown beside their successors."""

from hepa_bench.report.former import current_records, former_section


def record(method, seed, score, dataset="VIX", fraction=1.0, **extra):
    return {"dataset": dataset, "method": method, "seed": seed, "fraction": fraction, "h_auroc": score, **extra}


def test_former_records_leave_the_tables_and_sit_beside_their_successor():
    records = [
        record("gbm-logtime", 0, 0.60),
        record("gbm-logtime", 1, 0.70),
        record("gbm", 0, 0.80),
        record("gbm", 1, 0.84),
        record("hepa", 0, 0.9),
        record("gbm-select-logtime", 0, 0.5, dataset="MBA", fraction=0.1),
    ]
    assert [r["method"] for r in current_records(records)] == ["gbm", "gbm", "hepa"]
    lines = former_section(records, title="then and now")
    assert lines[0] == "## then and now"
    assert "| `gbm` | VIX | 100% | fixed | 0.650 (2) | 0.820 (2) | +0.170 |" in lines
    # no successor record yet: a dash, never a difference
    assert "| `gbm-select` | MBA | 10% | fixed | 0.500 (1) | – | – |" in lines


def test_rolling_seeds_are_paired_with_rolling_seeds_only():
    records = [
        record("gbm-logtime", 1, 0.6, split="rolling"),
        record("gbm", 1, 0.9),
        record("gbm", 2, 0.7, split="rolling"),
    ]
    lines = former_section(records, title="t")
    assert "| `gbm` | VIX | 100% | rolling | 0.600 (1) | 0.700 (1) | +0.100 |" in lines


def test_no_former_method_no_section():
    assert former_section([record("gbm", 0, 0.8)], title="t") == []
