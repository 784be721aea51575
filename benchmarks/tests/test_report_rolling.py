"""The rolling-origin section: its seeds apart from the fixed split's, seed 0 shared, its own Holm family."""

from hepa_bench.report.events import render_events
from hepa_bench.report.rolling import ROLLING_METHODS, render_rolling, rolling_records


def _record(dataset, method, seed, score, split=None):
    record = {
        "dataset": dataset,
        "method": method,
        "seed": seed,
        "fraction": 1.0,
        "h_auroc": score,
        "pretrain_epochs": 100,
        "finetune_epochs": 50,
        "f1": 0.5,
        "pa_f1": 0.8,
        "event_recall": 0.4,
    }
    return {**record, "split": split} if split else record


def _records():
    # fixed split: seeds 0-4 of hepa and gbm; rolling origin: seeds 1-4 of gbm and elapsed only
    records = [_record("ETTm1", m, s, base + 0.01 * s) for m, base in (("hepa", 0.8), ("gbm", 0.7)) for s in range(5)]
    records += [_record("ETTm1", "gbm", s, 0.50 + 0.02 * s, "rolling") for s in range(1, 5)]
    records += [_record("ETTm1", "elapsed", s, 0.5, "rolling") for s in range(5)]
    return records


def test_rolling_records_are_the_later_seeds_and_seed_zero_of_the_methods_that_rolled():
    picked = rolling_records(_records())
    assert sorted((r["method"], r["seed"], r.get("split")) for r in picked) == sorted(
        [("gbm", 0, None)]
        + [("gbm", s, "rolling") for s in range(1, 5)]
        + [("elapsed", s, "rolling") for s in range(5)]
    )
    assert rolling_records([_record("BATADAL", "gbm", 1, 0.5, "rolling")]) == []  # no rolling origin there


def test_rolling_section_tables_its_own_seeds_and_the_main_table_leaves_them_out():
    text = "\n".join(render_rolling(_records()))
    assert "### Seeds that vary the data: the rolling origin" in text
    assert "0.580 ± 0.071 (5)" in text  # gbm: seed 0 of the fixed split (0.70) and 0.52..0.58 rolled
    assert "hepa" not in text.split("| dataset |")[1].split("\n")[0]  # hepa never rolled: no column
    main = render_events(_records())
    assert "0.720 ± 0.016 (5)" in main  # gbm's fixed-split seeds only
    assert render_rolling([r for r in _records() if "split" not in r]) == []


def test_rolling_section_lists_the_seeds_each_method_still_misses():
    records = _records() + [
        _record("ETTm1", "gbm", 2, 0.6, "rolling") | {"fraction": 0.1},
        _record("Weather", "gbm", 1, 0.6, "rolling"),
    ]
    text = "\n".join(render_rolling(records))
    assert "- `gbm`: ETTm1 10% seeds 1, 3, 4; Weather 100% seeds 2, 3, 4" in text
    assert "- `elapsed`: ETTm1 10% seeds 1, 2, 3, 4; Weather 100% seeds 1, 2, 3, 4" in text
    assert "- `patchtst`: no cell yet" in text  # due on every row, never ran
    complete = [
        _record(d, m, s, 0.6, "rolling" if s else None) | {"fraction": f}
        for d in ("ETTm1", "Weather")
        for m in ROLLING_METHODS
        for s in range(5)
        for f in (1.0, 0.1)
    ]
    assert "Every method of this table has every seed of every row." in "\n".join(render_rolling(complete))
