"""``hepa-bench report``: the command on a hand-made results file, and the committed report regenerated exactly."""

import json
from pathlib import Path

from hepa_bench.cli import main
from hepa_bench.report import render_report

REPOSITORY = Path(__file__).resolve().parents[2]


def test_report_from_a_hand_made_results_file(tmp_path, hand_made_records):
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
    assert "## Event benchmarks" not in text and "## Snapshot study" not in text


def test_report_regenerates_docs():
    # what `hepa-bench report --results benchmarks/cmapss_results.jsonl --snapshots
    # benchmarks/snapshot_results.jsonl --events benchmarks/event_results.jsonl` writes
    benchmarks = REPOSITORY / "benchmarks"
    text = render_report(benchmarks / "cmapss_results.jsonl", snapshots=benchmarks / "snapshot_results.jsonl",
                         events=benchmarks / "event_results.jsonl")
    assert text.encode() == (REPOSITORY / "docs" / "benchmarks.md").read_bytes()
