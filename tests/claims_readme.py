"""README.md: where each of its figures comes from (see ``claims_check`` for the rules).

The summary table between ``<!-- summary-table:start -->`` and ``<!-- summary-table:end -->`` is
generated and checked against the records by ``tests/test_readme.py``, so it has no entries here.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # imported by the suite's doctest collection too

from claims_check import Bind, Computed, Json, Line, Not, Records  # noqa: E402

DOCUMENT = "README.md"

FIRST_FIT = "benchmarks/experiments/first_fit.txt"
DEFAULT_SCREEN = "benchmarks/retired/default_screen.txt"
SPEED_CPU = "benchmarks/speed_reference_median3.json"
SPEED_GPU = "benchmarks/speed_gpu.json"


FIT_VS_BOOSTING = "benchmarks/experiments/fit_vs_boosting.txt"
BATADAL = "benchmarks/experiments/batadal_diagnosis.txt"


def _fd001_summary():
    """The summary line of the FD001 side-by-side run in fit_vs_boosting.txt (the one with medians)."""
    text = (Path(__file__).resolve().parents[1] / FIT_VS_BOOSTING).read_text()
    (line,) = [line for line in text.splitlines() if line.startswith('{"subset": "FD001", "params": {}')]
    return json.loads(line)


def fit_vs_boosting(method, field):
    """The median over the repetitions of the FD001 side-by-side run, as printed."""
    return Computed(lambda: _fd001_summary()["medians"][method][field])


def _default_knots():
    from hepa_sklearn import HEPAEventPredictor

    return HEPAEventPredictor().horizon_knots


def first_fit(subset, field):
    """The main job with today's defaults (no parameters), seed 0, one thread, as printed."""
    return Records(FIRST_FIT, dict(subset=subset, params={}), field, how="one")


CORPUS_SCREEN = "benchmarks/screen_corpus_results.jsonl"


def screen_mean(method):
    """A method's mean validation h-AUROC over the 16 cells of the corpus screen."""
    return Records(CORPUS_SCREEN, dict(method=method, scope="validation"), "valid_h_auroc")


BINDINGS = [
    # the corpus screen (benchmarks/corpus_selection.md, docs/findings.md)
    Bind("the best of eight designs scored {} on C-MAPSS validation", screen_mean("hepa-corpus-u128"), ".3f"),
    Bind("against the default's {}, short of the 0.01 margin", screen_mean("hepa-default-auto0-knots12"), ".3f"),
    # the defaults of 0.2.0: the last screen of default_screen.py (seeds 0 and 1, validation units)
    Bind(
        "and at most {} below on the other two",
        Line(DEFAULT_SCREEN, r"^hepa-default-auto0: largest shortfall against hepa-default \+(\d\.\d+)", n=-1),
        "printed",
    ),
    # the demo on one thread: first_fit.py's FD001 line
    Bind("records, scores {} in 11 CPU s on one core", first_fit("FD001", "test_h_auroc"), ".3f"),
    Bind("scores 0.896 in {} CPU s on one core", first_fit("FD001", "fit_cpu_s"), ".0f"),
    # hepa protocol, CPU: the median of the side-by-side pairs
    Bind("30 of finetuning: {} CPU s,", Json(SPEED_CPU, "median.hepa_sklearn.cpu_s"), ".0f"),
    Bind("CPU s, {} times less CPU time than the authors'", Json(SPEED_CPU, "ratio.cpu_s"), ".2f"),
    Bind("median of {} side-by-side pairs", Computed("len", Json(SPEED_CPU, "runs")), "d"),
    # Quickstart: first_fit.py's FD001 and FD002 lines
    Bind("It fits on the {} training windows of FD001", first_fit("FD001", "n_train_windows"), ","),
    Bind("of FD001 and scores the {} windows of NASA's", first_fit("FD001", "n_test_windows"), ","),
    Bind("which the fit never sees, in {} CPU seconds on one thread", first_fit("FD001", "fit_cpu_s"), ".0f"),
    Bind("to an h-AUROC of {} (seed 0 on one thread", first_fit("FD001", "test_h_auroc"), ".3f"),
    Bind("On the {} training windows of FD002", first_fit("FD002", "n_train_windows"), ","),
    Bind("the same line takes {} CPU seconds", first_fit("FD002", "fit_cpu_s"), ".0f"),
    Bind("CPU seconds and scores {} on its test engines", first_fit("FD002", "test_h_auroc"), ".3f"),
    # the headline line beside boosting, pinned cores: fit_vs_boosting.py's FD001 medians
    Bind("the line takes\n{} against", fit_vs_boosting("headline", "fit_cpu_s"), ".1f"),
    Bind("11.1 against {} CPU seconds on FD001", fit_vs_boosting("boosting", "fit_cpu_s"), ".1f"),
    Bind("(medians of {}) and holds", Computed(lambda: _fd001_summary()["repeats"]), "d"),
    Bind("and holds {} against 544 MB", fit_vs_boosting("headline", "peak_rss_mb"), ".0f"),
    Bind("against {} MB at its peak", fit_vs_boosting("boosting", "peak_rss_mb"), ".0f"),
    # BATADAL below chance: batadal_diagnosis.py's controls
    Bind(
        "(training\nh-AUROC {})",
        Line(BATADAL, r"the same head on whole-window means alone\s+train (\d\.\d+)"),
        "printed",
    ),
    Bind(
        "backwards (mean {} over seeds",
        Line(BATADAL, r"^\s+headline\s+test, seeds 0-4: .*\(mean (\d\.\d+)\)"),
        "printed",
    ),
    Bind(
        "the same pipeline scores {}\n",
        Line(BATADAL, r"^\s+window_level=False\s+test, seeds 0-4: .*\(mean (\d\.\d+)\)"),
        "printed",
    ),
    # the head's default (head_judgement.py) and its knots
    Bind("runs its horizon predictor at {} horizons", Computed(_default_knots), "d"),
]

NOT_MEASUREMENTS = [
    Not("units ({} % and 10 % labels, width 128)", "5", "a label fraction, a setting"),
    Not("units (5 % and {} % labels, width 128)", "10", "a label fraction, a setting"),
    Not("units (5 % and 10 % labels, width {})", "128", "a width, a setting"),
    Not("short of the {} margin fixed before the screen", "0.01", "a threshold of the screen's rule, a setting"),
    Not("for every horizon Δt = {}..K", "1", "the first horizon, a definition"),
    Not("Since release {} `HEPAPretrainer()`", "0.2.0", "a release"),
    Not("Since {} `HEPAEventPredictor()`", "0.3.0", "a release"),
    Not("defaults of {} on the validation units", "0.1.0", "a release"),
    Not("the paper's protocol instead ({} epochs of JEPA pretraining", "50", "a setting of the protocol"),
    Not("epochs of JEPA pretraining, {} of finetuning", "30", "a setting of the protocol"),
    Not("(Python {} or later)", "3.10", "a version of Python"),
    Not("(seed {} on one thread", "0", "a setting: the seed"),
    Not('Simulation", PHM {})', "2008", "the year of a publication"),
    Not("every row at {} % and 10 % labels", "100", "a label fraction, a setting"),
    Not("every row at 100 % and {} % labels", "10", "a label fraction, a setting"),
    Not("and {} % on C-MAPSS, on 20", "5", "a label fraction, a setting"),
    Not("on {} further seeds", "20", "the yardstick's number of seeds, a setting"),
    Not("seeds with {} % intervals", "95", "the level of the intervals, a setting"),
    Not("(mean 0.233 over seeds\n{}-4)", "0", "the seeds, a setting"),
    Not("(mean 0.233 over seeds\n0-{})", "4", "the seeds, a setting"),
]
