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

FIRST_FIT = "benchmarks/experiments/first_fit/first_fit.txt"
FIRST_FIT_SEEDS = "benchmarks/experiments/first_fit/first_fit_seeds.txt"
SPEED_CPU = "benchmarks/outputs/speed_reference_median3.json"
SPEED_GPU = "benchmarks/experiments/gpu_check/speed_gpu.json"


FIT_VS_BOOSTING = "benchmarks/experiments/fit_vs_boosting/fit_vs_boosting.txt"
BATADAL = "benchmarks/experiments/batadal_diagnosis/batadal_diagnosis.txt"


def _fd001_summary():
    """The summary line of the FD001 side-by-side run in fit_vs_boosting.txt (the one with medians)."""
    text = (Path(__file__).resolve().parents[1] / FIT_VS_BOOSTING).read_text()
    (line,) = [line for line in text.splitlines() if line.startswith('{"subset": "FD001", "params": {}')]
    return json.loads(line)


def fit_vs_boosting(method, field):
    """The median over the repetitions of the FD001 side-by-side run, as printed."""
    return Computed(lambda: _fd001_summary()["medians"][method][field])


def seeds_figure(field):
    """A field of first_fit_seeds.txt's summary line over seeds 0 to 9 (today's defaults)."""
    return Records(FIRST_FIT_SEEDS, dict(subset="FD001", params={}, seeds=list(range(10))), field, how="one")


def first_fit(subset, field):
    """The main job with today's defaults (no parameters), seed 0, one thread, as printed."""
    return Records(FIRST_FIT, dict(subset=subset, params={}), field, how="one")


BINDINGS = [
    # the demo on one thread: first_fit.py's FD001 line
    Bind("scores an h-AUROC of {} in 18 CPU s on one core", first_fit("FD001", "test_h_auroc"), ".3f"),
    Bind("h-AUROC of 0.960 in {} CPU s on one core", first_fit("FD001", "fit_cpu_s"), ".0f"),
    # hepa protocol, CPU: the median of the side-by-side pairs
    Bind("30 of finetuning), takes {} CPU s,", Json(SPEED_CPU, "median.hepa_sklearn.cpu_s"), ".0f"),
    Bind("CPU s, {} times less CPU time than the authors'", Json(SPEED_CPU, "ratio.cpu_s"), ".2f"),
    Bind("median of {} side-by-side pairs", Computed("len", Json(SPEED_CPU, "runs")), "d"),
    # Quickstart: first_fit.py's FD001 line, first_fit_seeds.txt's ten seeds
    Bind("It fits on the {} training windows of FD001", first_fit("FD001", "n_train_windows"), ","),
    Bind("and scores the {} windows\nof NASA's", first_fit("FD001", "n_test_windows"), ","),
    Bind("which the fit never sees, in {} CPU seconds", first_fit("FD001", "fit_cpu_s"), ".0f"),
    Bind("to an h-AUROC of {} (seed 0 on one thread", first_fit("FD001", "test_h_auroc"), ".3f"),
    Bind("ten seeds span {} to", seeds_figure("test_h_auroc_min"), ".3f"),
    Bind("span 0.950 to {}).", seeds_figure("test_h_auroc_max"), ".3f"),
    # the headline line beside boosting, pinned cores: fit_vs_boosting.py's FD001 medians
    Bind("`GradientBoostingEventPredictor(K=150)` scores {} where", fit_vs_boosting("boosting", "test_h_auroc"), ".3f"),
    Bind("where the pipeline scores {} (", fit_vs_boosting("headline", "test_h_auroc"), ".3f"),
    # BATADAL below chance: batadal_diagnosis.py's controls
    Bind(
        "(training\nh-AUROC {})",
        Line(BATADAL, r"the same head on whole-window means alone\s+train (\d\.\d+)"),
        "printed",
    ),
    Bind(
        "below chance (mean\n{} over seeds",
        Line(BATADAL, r"^\s+headline\s+test, seeds 0-4: .*\(mean (\d\.\d+)\)"),
        "printed",
    ),
    Bind(
        "without the window level it scores {}\n",
        Line(BATADAL, r"^\s+window_level=False\s+test, seeds 0-4: .*\(mean (\d\.\d+)\)"),
        "printed",
    ),
]

NOT_MEASUREMENTS = [
    Not("for every horizon Δt = {}..K", "1", "the first horizon, a definition"),
    Not("the paper's protocol ({} epochs of JEPA pretraining", "50", "a setting of the protocol"),
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
