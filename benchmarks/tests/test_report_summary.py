"""The report's summary table: columns chosen on validation figures, a dash for a method without records, the position
mark."""

import pytest
from hepa_bench.report.summary import (
    CAPTION,
    END,
    START,
    readme_block,
    render_summary,
    summary_section,
    summary_table,
    with_readme_block,
)


def _record(dataset, method, seed, score, fraction=1.0, valid=None):
    epochs = (50, 30) if dataset.startswith("FD") else (100, 50)
    return {
        "dataset": dataset,
        "method": method,
        "seed": seed,
        "fraction": fraction,
        "h_auroc": score,
        "valid_h_auroc": score if valid is None else valid,
        "pretrain_epochs": epochs[0],
        "finetune_epochs": epochs[1],
    }


def _cells(dataset, method, scores, fraction=1.0, valid=None):
    """Records of seeds 0, 1, ...; ``valid`` gives every seed that validation h-AUROC (default: the test score)."""
    return [_record(dataset, method, seed, score, fraction, valid) for seed, score in enumerate(scores)]


def _rows(lines):
    """``{dataset: [cells]}`` of the summary's table."""
    return {
        cells[0]: cells[1:]
        for cells in (
            [c.strip() for c in line.strip("|").split("|")]
            for line in lines
            if line.startswith("| ") and "---" not in line
        )
    }


def test_every_column_is_chosen_on_validation_figures_and_never_on_test_figures():
    events = _cells("ETTm1", "hepa", [0.80, 0.82, 0.81], valid=0.90)
    events += _cells("ETTm1", "hepa-random", [0.84, 0.86, 0.85], valid=0.80)  # the higher test mean: not chosen
    events += _cells("ETTm1", "hepa-channel", [0.99], valid=0.99)  # one seed: not chosen
    events += _cells("ETTm1", "hepa-change", [0.97, 0.98, 0.99], valid=0.99)  # retired: not chosen
    events += _cells("ETTm1", "hepa-default-auto0-knots12", [0.76, 0.78])  # the headline line: a column
    events += _cells("ETTm1", "hepa-default-auto0", [0.97, 0.98])  # 0.2.0's headline line: neither column nor variant
    events += _cells("ETTm1", "gbm", [0.60, 0.61, 0.62], valid=0.70)
    events += _cells("ETTm1", "gbm-select", [0.90, 0.91, 0.92], valid=0.65)  # better on test, worse on validation
    events += _cells("ETTm1", "mae", [0.95, 0.96, 0.97], valid=0.75)  # a baseline family of its own
    events += _cells("ETTm1", "minirocket", [0.70, 0.71, 0.72], valid=0.60)
    row = _rows(summary_table([], events))["ETTm1"]
    # headline, best baseline, boosting, MiniRocket, PatchTST, iTransformer, MAE, elapsed, HEPA variant, seeds
    assert row == [
        "0.770",
        "0.960 (mae)",
        "0.610 (gbm)",
        "0.710 (minirocket)",
        "–",
        "–",
        "0.960",
        "–",
        "0.810 (hepa)",
        "2–3",
        "–",
    ]


def test_a_method_without_records_shows_a_dash():
    lines = render_summary([], _cells("VIX", "hepa", [0.6, 0.62, 0.64]))
    assert lines[0] == CAPTION + ":"
    assert (
        "| dataset | headline line (`hepa-default-auto0-knots12`) | best baseline | boosting | MiniRocket | PatchTST "
        "| iTransformer | MAE | `elapsed` | best HEPA variant | seeds | position not ruled out |"
    ) in lines
    assert _rows(lines)["VIX"] == ["–", "–", "–", "–", "–", "–", "–", "–", "0.620 (hepa)", "3", "–"]


def test_rows_solved_by_position_are_marked():
    jitter = [0.0, 0.004, -0.003, 0.002, -0.001]
    events = []
    for name, position in (("TEP", 0.99), ("MBA", 0.50)):  # TEP: position at least the best; MBA: far below
        events += _cells(name, "hepa", [0.80 + j for j in jitter])
        events += _cells(name, "position", [position + 2 * j for j in jitter])
        events += _cells(name, "elapsed", [position - 0.1 + j for j in jitter])
    rows = _rows(summary_table([], events))
    assert rows["TEP"][-1] == "yes" and rows["MBA"][-1] == "no"
    assert rows["TEP"][7] == "0.890"  # the elapsed-time column


def test_cmapss_cells_come_from_the_cmapss_records_first():
    events = _cells("FD001", "hepa", [0.90, 0.92, 0.94]) + _cells("FD001", "gbm-last30", [0.95, 0.96, 0.97])
    old = [{**r, "subset": r.pop("dataset")} for r in _cells("FD001", "hepa", [0.95, 0.97, 0.99])]  # older records
    results = old + _cells("FD001", "hepa-default-auto0-knots12", [0.94, 0.96, 0.98])
    results += _cells("FD001", "hepa-default-auto0-knots12", [0.1, 0.1, 0.1], fraction=0.1)  # another fraction
    results += [{**r, "pretrain_epochs": 5} for r in _cells("FD001", "gbm", [0.5, 0.5, 0.5])]  # other epochs: out
    row = _rows(render_summary(results, events))["FD001"]
    assert row[:3] == ["0.960", "0.960 (gbm-last30)", "0.960 (gbm-last30)"] and row[-3:] == ["0.970 (hepa)", "3", "–"]


def test_the_section_goes_before_the_reports_first_heading():
    events = _cells("VIX", "hepa", [0.6, 0.62])
    text = "# C-MAPSS benchmark\n\nProtocol.\n\n## h-AUROC\n\ntable\n"
    out = summary_section(text, [], events)
    assert out.startswith("# C-MAPSS benchmark\n\nProtocol.\n\n## Summary\n\n" + CAPTION)
    assert out.endswith("no records.\n\n## h-AUROC\n\ntable\n")
    assert summary_section(text, [], []) == text
    assert summary_section("No results.\n", [], events).startswith("No results.\n\n## Summary\n")


def test_the_readme_block_is_replaced_between_its_markers():
    text = f"# title\n\n{START}\nold\n{END}\n\nrest\n"
    new = with_readme_block(text, ["a", "", "b"])
    assert new == f"# title\n\n{START}\n\na\n\nb\n\n{END}\n\nrest\n"
    assert readme_block(new) == ["a", "", "b"]
    with pytest.raises(ValueError, match="expected one"):
        readme_block("no markers\n")
