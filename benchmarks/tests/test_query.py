"""``hepa-bench query``: the figures of a comparison read from records, checked on hand-made records.

With three seeds the paired t-test has 2 degrees of freedom, whose two-sided
p has a closed form, ``1 - |t| / sqrt(t**2 + 2)``; the p-values below are
that formula's, not the code's.
"""

import json
import math
from pathlib import Path

import pytest
from hepa_bench.cli import main
from hepa_bench.query import overall, query_cells, render

BENCHMARKS = Path(__file__).resolve().parents[1]

# two rows, three seeds: method A against the reference R
SCORES = {
    ("X", 1.0, "R"): [0.80, 0.90, 0.70],
    ("X", 1.0, "A"): [0.82, 0.93, 0.71],  # A - R: +0.02, +0.03, +0.01
    ("Y", 1.0, "R"): [0.50, 0.60, 0.70],
    ("Y", 1.0, "A"): [0.40, 0.51, 0.65],  # A - R: -0.10, -0.09, -0.05
}


def records(scores=SCORES, **extra):
    return [
        {"dataset": d, "fraction": f, "method": m, "seed": seed, "h_auroc": value, "cpu_s": 10.0, **extra}
        for (d, f, m), values in scores.items()
        for seed, value in enumerate(values)
    ]


def two_sided_p(differences):
    """The paired t-test's p for three pairs (2 degrees of freedom), by its closed form."""
    n = len(differences)
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    t = mean / (sd / math.sqrt(n))
    return 1 - abs(t) / math.sqrt(t**2 + 2)


def test_the_figures_of_a_comparison_against_a_reference():
    lines = render([records()], ["A"], reference="R")
    text = "\n".join(lines)
    assert lines[:4] == [
        "| dataset | labels | `R` | `A` | highest mean |",
        "|---|---|---|---|---|",
        "| X | 100% | 0.800 ± 0.100 (3) | 0.820 ± 0.110 (3) | A (0.820) |",
        "| Y | 100% | 0.600 ± 0.100 (3) | 0.520 ± 0.125 (3) | R (0.600) |",
    ]
    p_x, p_y = two_sided_p([0.02, 0.03, 0.01]), two_sided_p([-0.10, -0.09, -0.05])
    assert f"{p_x:.3g}" == "0.0742" and f"{p_y:.3g}" == "0.0346"
    # Holm over the two: the smaller times 2 (0.0692), the larger times 1 but never below it (0.0742)
    assert "| `A` | X | 100% | 3 | +0.020 | 0.0742 | 0.25 | 0.0742 |" in lines
    assert "| `A` | Y | 100% | 3 | -0.080 | 0.0346 | 0.25 | 0.0692 |" in lines
    assert "Holm's correction over the 2 tested comparisons below" in text
    # pooled: six (row, seed) pairs, |d| ranked 1..6, the positive ones 1, 2, 3 (W+ = 6); P(W+ <= 6) = 14 / 64
    assert (
        "`A` against `R` over 2 of 2 rows: mean difference -0.030; largest shortfall +0.080 (Y 100%); "
        "Holm p < 0.05 above on 0 rows, below on 0; over 6 (row, seed) pairs: mean -0.030, from -0.100 to +0.030, "
        "one-sided Wilcoxon p (below `R`) 0.219; CPU 60 s."
    ) in lines
    # over both rows: the means of the row means, and A first in X, second in Y
    assert lines[-6:] == [
        "Over the 2 rows where every method ran:",
        "",
        "| method | mean of the row means | mean rank |",
        "|---|---|---|",
        "| `R` | 0.700 | 1.50 |",
        "| `A` | 0.670 | 1.50 |",
    ]


def test_digits_and_the_scores_seed_by_seed():
    lines = render([records()], ["A"], reference="R", digits=4, per_seed=True, datasets=["Y"])
    assert "| Y | 100% | 0.6000 ± 0.1000 (3) | 0.5200 ± 0.1253 (3) | R (0.6000) |" in lines
    at = lines.index("Y, 100%:")
    assert lines[at + 2 : at + 7] == [
        "| seed | `R` | `A` | `A` − `R` |",
        "|---|---|---|---|",
        "| 0 | 0.5000 | 0.4000 | -0.1000 |",
        "| 1 | 0.6000 | 0.5100 | -0.0900 |",
        "| 2 | 0.7000 | 0.6500 | -0.0500 |",
    ]
    # one row, one comparison: Holm leaves its p as it is
    assert "| `A` | Y | 100% | 3 | -0.0800 | 0.0346 | 0.25 | 0.0346 * |" in lines
    assert any("below on 1 (Y 100%)" in line for line in lines)


def test_a_cell_comes_from_the_first_file_that_holds_it():
    first = records({("X", 1.0, "A"): [0.5, 0.6]})
    second = records({("X", 1.0, "A"): [0.9, 0.9, 0.9], ("X", 1.0, "R"): [0.1, 0.2, 0.3]})
    cells = query_cells([first, second], {"A", "R"})
    assert [r["h_auroc"] for r in cells[("X", 1.0, "A")]] == [0.5, 0.6]
    assert [r["h_auroc"] for r in cells[("X", 1.0, "R")]] == [0.1, 0.2, 0.3]
    # filtered before the precedence: without seed 2 in the first file, its cell comes from the second
    cells = query_cells([first, second], {"A"}, seeds={2})
    assert [r["h_auroc"] for r in cells[("X", 1.0, "A")]] == [0.9]


def test_the_filters_and_the_key():
    held = records({("X", 1.0, "A"): [0.5, 0.6], ("X", 0.1, "A"): [0.7]})
    held += records({("X", 1.0, "A"): [0.99]}, split="rolling")
    held += [{"subset": "X", "fraction": 1.0, "method": "A", "seed": 7, "h_auroc": None, "valid_h_auroc": 0.4}]
    cells = query_cells([held], {"A"})
    assert sorted(cells) == [("X", 0.1, "A"), ("X", 1.0, "A")]
    assert [r["seed"] for r in cells[("X", 1.0, "A")]] == [0, 1]  # no rolling record, none without a score
    assert [r["seed"] for r in query_cells([held], {"A"}, split="rolling")[("X", 1.0, "A")]] == [0]
    valid = query_cells([held], {"A"}, key="valid_h_auroc")  # an older record naming its dataset "subset"
    assert list(valid) == [("X", 1.0, "A")] and valid[("X", 1.0, "A")][0]["seed"] == 7
    assert list(query_cells([held], {"A"}, fractions={0.1})) == [("X", 0.1, "A")]
    assert render([held], ["A"], datasets=["Z"]) == ["No records of these methods in these rows."]


def test_a_method_that_scored_the_same_on_every_seed_is_not_tested():
    lines = render(
        [records({("X", 1.0, "R"): [0.5, 0.5, 0.5], ("X", 1.0, "A"): [0.6, 0.7, 0.8]})], ["A"], reference="R"
    )
    assert "| `A` | X | 100% | 3 | +0.200 | — | — | — |" in lines
    assert any("over the 0 tested comparisons below" in line and "1 with a method" in line for line in lines)


def test_ties_share_the_better_rank():
    cells = query_cells(
        [records({("X", 1.0, "R"): [0.5], ("X", 1.0, "A"): [0.5], ("X", 1.0, "B"): [0.4]})], {"R", "A", "B"}
    )
    lines = overall(cells, [("X", 1.0)], ["R", "A", "B"], "h_auroc", 3)
    assert lines[-3:] == ["| `R` | 0.500 | 1.00 |", "| `A` | 0.500 | 1.00 |", "| `B` | 0.400 | 3.00 |"]


def test_the_command_line(tmp_path, capsys):
    path = tmp_path / "results.jsonl"
    defaults = records({("X", 1.0, "hepa-default"): [0.5], ("X", 1.0, "hepa-default-auto0"): [0.6]})
    path.write_text("".join(json.dumps(r) + "\n" for r in records() + defaults))
    assert main(["query", "--results", str(path), "--methods", "A", "--reference", "R", "--datasets", "X"]) == 0
    out = capsys.readouterr().out
    assert "| X | 100% | 0.800 ± 0.100 (3) | 0.820 ± 0.110 (3) | A (0.820) |" in out and "| Y |" not in out
    # a family of the method table: the plain pipeline's release defaults
    main(["query", "--results", str(path), "--family", "default"])
    assert "| X | 100% | 0.500 (1) | 0.600 (1) | hepa-default-auto0 (0.600) |" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="name the methods"):
        main(["query", "--results", str(path)])
    with pytest.raises(SystemExit, match="no results file"):
        main(["query", "--results", str(tmp_path / "absent.jsonl"), "--methods", "A"])


def test_a_folder_given_as_a_results_file_is_named(tmp_path):
    with pytest.raises(SystemExit, match=rf"^hepa-bench query: {tmp_path} is a folder, not a results file"):
        main(["query", "--results", str(tmp_path), "--methods", "A"])


@pytest.mark.parametrize(
    "records_file, output, method, reference",
    [
        ("predictor_init_results.jsonl", "predictor_init.txt", "hepa-init", "hepa"),
        ("multi_horizon_probe_results.jsonl", "multi_horizon_probe.txt", "hepa-probe-multi", "hepa-linear"),
    ],
)
def test_the_query_prints_a_retired_comparisons_figures(records_file, output, method, reference):
    """The seed-by-seed table of a retired script's committed output, from the records it read."""
    from hepa_bench.results import read_results

    lines = render(
        [read_results(BENCHMARKS / "records" / records_file)], [method], reference=reference, digits=4, per_seed=True
    )
    printed = (BENCHMARKS / "retired" / output).read_text().splitlines()
    table = [line.split(" | ")[:3] for line in printed if line.startswith("| ") and line[2].isdigit()]
    at = lines.index("FD001, 100%:")
    assert [line.split(" | ")[:3] for line in lines[at + 4 : at + 9]] == table
    (summary,) = [line for line in printed if line.startswith("5 seeds, FD001")]
    difference = next(line for line in lines if line.startswith(f"| `{method}` | FD001 |")).split(" | ")[4]
    assert f"difference {difference}" in summary


def test_a_damaged_record_is_skipped_with_a_warning_naming_its_line(tmp_path, capsys):
    path = tmp_path / "results.jsonl"
    good = "".join(json.dumps(r) + "\n" for r in records())
    damaged = {"dataset": "X", "fraction": "x", "method": "A", "seed": 9, "h_auroc": 0.5}
    path.write_text(good + json.dumps(damaged) + "\n[1, 2]\n")
    skipped = "skipped, field 'fraction' is \"x\", not a number"
    with pytest.warns(UserWarning, match=rf"^{path}, line 13: {skipped}"):
        main(["query", "--results", str(path), "--methods", "A", "--reference", "R"])
    reference = tmp_path / "reference.jsonl"
    reference.write_text(good)
    with_damage = capsys.readouterr().out
    main(["query", "--results", str(reference), "--methods", "A", "--reference", "R"])
    assert with_damage == capsys.readouterr().out
