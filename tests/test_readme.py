"""The README is a short product page: first commands, length, links, a table true to the records, speed figures."""

import json
import re
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
README = REPOSITORY / "README.md"
MAX_LINES = 160
# continuous integration runs these two, in this order, as the README's first two code blocks
COMMANDS = ["pip install -e . && hepa demo", 'pip install -e ".[test]" -e benchmarks && pytest']


def code_blocks(text):
    """``(info string, body)`` of each fenced code block of a markdown text, in order."""
    return re.findall(r"^```([^\n`]*)\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def relative_links(text):
    """Targets of the markdown links and images of ``text`` that are paths, without a ``#fragment``."""
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def readme_words():
    """README.md's text with every run of whitespace (line breaks included) as one space."""
    return " ".join(README.read_text().split())


def test_readme_table_is_what_the_records_give():
    from hepa_bench.report.summary import readme_block, render_summary
    from hepa_bench.results import read_results

    benchmarks = REPOSITORY / "benchmarks" / "records"
    expected = render_summary(
        read_results(benchmarks / "cmapss_results.jsonl"), read_results(benchmarks / "event_results.jsonl")
    )
    assert readme_block(README.read_text()) == expected, (
        "README.md's summary table differs from the records: run `python -m hepa_bench.report.summary`"
    )


def test_readme_is_short():
    n_lines = len(README.read_text().splitlines())
    assert n_lines <= MAX_LINES, f"README.md has {n_lines} lines; the details belong in docs/."


def test_readme_opens_with_the_two_commands():
    blocks = code_blocks(README.read_text())
    assert [(info.strip(), body.strip()) for info, body in blocks[:2]] == [("bash", c) for c in COMMANDS]


def test_readme_links_point_to_files():
    links = relative_links(README.read_text())
    assert "docs/findings.md" in links and "docs/harness.md" in links
    missing = [link for link in links if not (REPOSITORY / link).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_readme_speed_figures_are_the_measured_ones():
    """The protocol's CPU time and ratio (median of the side-by-side pairs), as measured; GPU figures: docs/speed.md."""
    text = readme_words()
    cpu = json.loads((REPOSITORY / "benchmarks" / "outputs" / "speed_reference_median3.json").read_text())
    n_pairs = len(cpu["runs"])
    assert (
        f"{cpu['median']['hepa_sklearn']['cpu_s']:.0f} CPU s, {cpu['ratio']['cpu_s']:.2f} times less CPU time "
        f"than the authors' implementation, median of {n_pairs} side-by-side pairs"
    ) in text


def test_readme_first_fit_figure_is_the_measured_one():
    """The main job's h-AUROC and CPU time, as ``benchmarks/experiments/first_fit/first_fit.py`` printed them
    for FD001."""
    first_fit = REPOSITORY / "benchmarks" / "experiments" / "first_fit" / "first_fit.txt"
    lines = first_fit.read_text().splitlines()
    records = [json.loads(line) for line in lines if line.startswith("{")]
    fd001 = next(r for r in records if r["subset"] == "FD001" and not r["params"])
    text = readme_words()
    assert f"{fd001['test_h_auroc']:.3f} in {fd001['fit_cpu_s']:.0f} CPU s on one core" in text
    assert fd001["seed"] == 0 and "HEPAPretrainer(random_state=0), HEPAEventPredictor(K=150, random_state=0)" in text


def test_the_helpers_on_a_hand_made_text():
    text = "```bash\nls\n```\n\n```\nx\n```\n[a](docs/a.md#b) [b](https://x.org) [c](#here) ![d](img.png)\n"
    assert code_blocks(text) == [("bash", "ls\n"), ("", "x\n")]
    assert relative_links(text) == ["docs/a.md", "img.png"]


def listed(names):
    """``["a", "b", "c"]`` as prose: ``"a, b and c"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def test_readme_says_where_the_headline_line_leads_the_best_baseline_as_its_table_gives():
    """The paragraph under the summary: the rows where position is not ruled out, and where the headline's mean
    beats the validation-chosen best baseline's."""
    from hepa_bench.report.summary import readme_block

    rows = [
        line.strip("|").split("|")
        for line in readme_block(README.read_text())
        if line.startswith("| ") and not line.startswith("| dataset")
    ]
    rows = [[cell.strip() for cell in row] for row in rows]
    solved = [row[0] for row in rows if row[-1] == "yes"]
    counted = [row for row in rows if row[-1] == "no" and "–" not in (row[1], row[2])]
    higher = [row[0] for row in counted if float(row[1]) > float(row[2].split()[0])]
    lower = [row[0] for row in counted if float(row[1]) < float(row[2].split()[0])]
    text = readme_words()
    assert solved == ["BATADAL", "TEP"]
    assert "Rows where position is not ruled out are marked and count for no method: BATADAL, where" in text
    assert "and TEP, where every faulty run starts its fault at the same sample" in text
    assert (
        f"the headline line has the higher mean than the best baseline chosen on validation units on "
        f"{listed(higher)}, and the lower on {listed(lower)}."
    ) in text


def test_listed():
    assert listed(["a"]) == "a" and listed(["a", "b", "c"]) == "a, b and c"
