"""The report's section of method families: one part per family with records, each its own Holm family."""

import json
import math
from pathlib import Path

import pytest
from hepa_bench.report.cli import check_inputs
from hepa_bench.report.document import render_report
from hepa_bench.report.families import FAMILIES, Family, render_families

SCREEN = {
    # two rows of one family, three seeds: hepa-views-global against the reference hepa-default-auto0
    ("Beijing", 1.0, "hepa-default-auto0"): [0.70, 0.72, 0.68],
    ("Beijing", 1.0, "hepa-views-global"): [0.73, 0.76, 0.70],  # +0.03, +0.04, +0.02
    ("ETTm1", 1.0, "hepa-default-auto0"): [0.80, 0.82, 0.84],
    ("ETTm1", 1.0, "hepa-views-global"): [0.70, 0.73, 0.78],  # -0.10, -0.09, -0.06
}


def records(scores):
    return [
        {"dataset": d, "fraction": f, "method": m, "seed": s, "valid_h_auroc": v, "scope": "validation", "cpu_s": 1.0}
        for (d, f, m), values in scores.items()
        for s, v in enumerate(values)
    ]


def paired_p(differences):
    """The two-sided paired t-test's p for three pairs (2 degrees of freedom), in closed form."""
    n = len(differences)
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    t = mean / (sd / math.sqrt(n))
    return 1 - abs(t) / math.sqrt(t**2 + 2)


def test_no_records_of_a_family_no_section():
    assert render_families([[]]) == []
    other = records({("Beijing", 1.0, "hepa-default-auto0"): [0.7, 0.7, 0.7]})
    assert render_families([other]) == []  # the reference alone is no family's record


def test_a_family_with_records_has_its_part_and_its_own_holm_family():
    lines = render_families([records(SCREEN)])
    text = "\n".join(lines)
    assert lines[0] == "## Method families"
    headings = [line for line in lines if line.startswith("### ")]
    assert headings == ["### Two views of each window (`hepa-views-*`, validation units)"]
    # two comparisons in this family: Holm multiplies the smaller p by 2, the larger keeps its own (at least)
    p_beijing, p_ettm1 = paired_p([0.03, 0.04, 0.02]), paired_p([-0.10, -0.09, -0.06])
    assert "over the 2 tested comparisons" in text
    low, high = sorted([p_beijing, p_ettm1])
    assert f"{min(1.0, 2 * low):.3g}" in text and f"{max(2 * low, high):.3g}" in text
    assert "+0.030" in text and "-0.083" in text


def test_each_family_is_its_own_holm_family():
    beside = {(d, f, "hepa-beside-trend"): v for (d, f, m), v in SCREEN.items() if m == "hepa-views-global"}
    both = records({**SCREEN, **beside})
    text = "\n".join(render_families([both]))
    assert text.count("over the 2 tested comparisons") == 2  # not one family of four


def test_a_family_shows_only_its_own_datasets_of_a_shared_file():
    """The reference's cells that another family ran (Beijing, for hepa-views-*) stay out of hepa-spread-*."""
    spread = {(d, f, "hepa-spread-wd"): v for (d, f, m), v in SCREEN.items() if m == "hepa-views-global"}
    lines = render_families([records({**SCREEN, **spread})])
    start = lines.index("### The window level's forms and heads (`hepa-spread-*`, validation units)")
    part = "\n".join(lines[start : lines.index("### Two views of each window (`hepa-views-*`, validation units)")])
    assert "| ETTm1 | 100% |" in part and "Beijing" not in part and "over the 1 tested comparison below" in part


def test_a_family_reads_only_the_seeds_its_runs_had():
    """hepa-level-* ran seed 0 alone: the reference's other seeds stay out of its means."""
    level = {(d, f, "hepa-level-revin"): v[:1] for (d, f, m), v in SCREEN.items() if m == "hepa-views-global"}
    lines = render_families([records({**SCREEN, **level})])
    level_heading = "### The window level beside a level-free embedding (`hepa-level-*`, validation units)"
    views_heading = "### Two views of each window (`hepa-views-*`, validation units)"
    part = "\n".join(lines[lines.index(level_heading) : lines.index(views_heading)])
    assert "| Beijing | 100% | 0.700 (1) | 0.730 (1) |" in part and "± " not in part


def test_a_family_reads_its_own_key_and_rows():
    family = Family("T", ("hepa-views-global",), reference="hepa-default-auto0", datasets=("ETTm1",))
    text = "\n".join(render_families([records(SCREEN)], families=(family,)))
    assert "ETTm1" in text and "Beijing" not in text


def test_a_family_reads_its_reference_from_the_benchmark_and_nothing_else_there():
    """hepa-norm-* pairs with the C-MAPSS benchmark's hepa-default cells; its other entries stay out."""
    norm = [
        {**r, "h_auroc": r["valid_h_auroc"], "dataset": "FD002"}
        for r in records({("FD002", 1.0, "hepa-norm-global"): [0.86, 0.88, 0.84]})
    ]
    benchmark = [
        {"subset": "FD002", "fraction": 1.0, "method": m, "seed": s, "h_auroc": v}
        for m, values in (("hepa-default", [0.50, 0.55, 0.52]), ("hepa-norm-pre", [0.1, 0.1, 0.1]))
        for s, v in enumerate(values)
    ]
    family = next(f for f in FAMILIES if "hepa-norm-global" in f.methods)
    text = "\n".join(render_families([norm], families=(family,), results=benchmark))
    # the reference's mean from the benchmark, the entry's from the family's file; the benchmark's
    # hepa-norm-pre (0.1) stays out
    assert "| FD002 | 100% | 0.523 ± 0.025 (3) | — | — | 0.860 ± 0.020 (3) | — | — |" in text
    assert "+0.337" in text
    without = "\n".join(render_families([norm], families=(family,)))
    assert "+0.337" not in without  # no pairs without the benchmark's cells


def test_every_family_names_entries_of_the_method_table():
    from hepa_bench.methods.table import METHODS

    for family in FAMILIES:
        assert family.reference in METHODS
        assert all(method in METHODS for method in family.methods), family.title


def test_the_report_ends_with_the_families_and_is_otherwise_the_same(tmp_path):
    results = Path(__file__).resolve().parents[1] / "records" / "cmapss_results.jsonl"
    screen = tmp_path / "screen.jsonl"
    screen.write_text("".join(json.dumps(r) + "\n" for r in records(SCREEN)))
    without = render_report(results)
    with_families = render_report(results, families=[screen])
    assert with_families.startswith(without.rstrip("\n"))
    assert "## Method families" in with_families[len(without.rstrip("\n")) :]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert render_report(results, families=[empty]) == without


def test_a_missing_families_file_is_refused(tmp_path):
    class Args:
        results = str(tmp_path / "r.jsonl")
        families = [str(tmp_path / "missing.jsonl")]

    (tmp_path / "r.jsonl").write_text("")
    with pytest.raises(SystemExit, match="--families names .*missing.jsonl"):
        check_inputs(Args())
