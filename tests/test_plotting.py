"""Tests of hepa_sklearn.plotting: what each display draws, its input checks, the optional matplotlib."""

import importlib
import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import NotFittedError

import hepa_sklearn
from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.metrics import per_horizon_auroc
from hepa_sklearn.plotting import (
    EventSurfaceDisplay,
    HorizonAUROCDisplay,
    SurfaceReliabilityDisplay,
    TrainingHistoryDisplay,
)
from hepa_sklearn.surface import make_survival_y

# One unit, windows ending at steps 0, 2, 4, 6: the first three see the event
# at step 5, the last is censored 2 steps later (observation ends at step 8).
UNIT_Y = make_survival_y([True, True, True, False], [5, 3, 1, 2])
UNIT_TIMES = np.array([0, 2, 4, 6])
UNIT_PROBA = np.array([[0.0, 0.1, 0.2, 0.3], [0.1, 0.2, 0.4, 0.6], [0.3, 0.6, 0.8, 0.9], [0.5, 0.7, 0.9, 1.0]])

# Known cells per horizon (K = 4): all four at Δt = 1, 2; the window censored
# at 2 is unknown from Δt = 3 on. Positives: window 0 (event at 1) from Δt = 1,
# window 1 (event at 3) from Δt = 3.
PREVALENCE_Y = make_survival_y([True, True, False, True], [1, 3, 2, 6])
PREVALENCE = [1 / 4, 1 / 4, 2 / 3, 2 / 3]


@pytest.fixture
def embedded():
    """Embeddings of 60 windows of three units (20 each, in time order) and their labels."""
    rng = np.random.default_rng(0)
    E = rng.normal(size=(60, 8)).astype(np.float32)
    time = np.tile(np.arange(20, 0, -1), 3)
    event = np.ones(60, bool)
    event[40:] = False  # the third unit is censored
    return E, make_survival_y(event, time), np.repeat([7, 8, 9], 20)


@pytest.fixture
def event_predictor(embedded, tiny_event_params):
    E, y, _ = embedded
    return HEPAEventPredictor(**tiny_event_params).fit(E, y)


def render(display, tmp_path, name):
    path = tmp_path / f"{name}.png"
    display.figure_.savefig(path)
    assert path.stat().st_size > 0


# EventSurfaceDisplay


def test_event_surface_draws_surface_and_event_marks(plt, tmp_path):
    display = EventSurfaceDisplay.from_predictions(UNIT_Y, UNIT_PROBA, times=UNIT_TIMES)
    render(display, tmp_path, "surface")
    assert_array_equal(np.asarray(display.mesh_.get_array()), UNIT_PROBA.T)
    corners = display.mesh_.get_coordinates()  # (K + 1, n + 1, 2)
    assert_array_equal(corners[0, :, 0], [-1, 1, 3, 5, 7])
    assert_array_equal(corners[:, 0, 1], [0.5, 1.5, 2.5, 3.5, 4.5])
    # the event within K = 4 steps: windows at 2 and 4, at their time to event
    assert_array_equal(display.event_markers_.get_xydata(), [[2, 3], [4, 1]])
    assert_array_equal(display.censor_markers_.get_xydata(), [[6, 2]])
    [segment] = display.event_lines_.get_segments()
    assert_array_equal(segment, [[5, 0.5], [5, 4.5]])
    assert display.colorbar_ is not None
    assert display.ax_.get_ylim() == (0.5, 4.5)
    assert display.figure_ is display.ax_.figure


def test_event_surface_without_times_uses_window_index(plt, tmp_path):
    display = EventSurfaceDisplay.from_predictions(UNIT_Y, UNIT_PROBA, colorbar=False)
    render(display, tmp_path, "index")
    assert_array_equal(display.event_markers_.get_xdata(), [1, 2])
    assert display.event_lines_ is None  # a window index is not a time
    assert display.colorbar_ is None
    assert display.ax_.get_xlabel() == "window"


def test_event_surface_leaves_out_marks_with_nothing_to_mark(plt):
    y = make_survival_y([False, False], [9, 0])  # censored beyond K = 4, and with no known cell
    display = EventSurfaceDisplay.from_predictions(y, UNIT_PROBA[:2], times=[0, 1])
    assert display.event_markers_ is None
    assert display.censor_markers_ is None
    assert display.event_lines_ is None


def test_event_surface_picks_one_unit(plt, embedded):
    E, y, groups = embedded
    proba = np.linspace(0, 1, 60 * 3).reshape(60, 3)
    display = EventSurfaceDisplay.from_predictions(y, proba, groups=groups, unit=8, times=np.tile(np.arange(20), 3))
    assert_array_equal(np.asarray(display.mesh_.get_array()), proba[20:40].T)
    assert display.ax_.get_title() == "unit 8"
    single = EventSurfaceDisplay.from_predictions(y[:20], proba[:20], groups=groups[:20])
    assert_array_equal(np.asarray(single.mesh_.get_array()), proba[:20].T)


def test_event_surface_from_estimator_predicts_the_unit_only(plt, embedded, event_predictor, tmp_path):
    E, y, groups = embedded
    display = EventSurfaceDisplay.from_estimator(event_predictor, E, y, groups=groups, unit=9)
    render(display, tmp_path, "estimator")
    assert_allclose(np.asarray(display.mesh_.get_array()), event_predictor.predict_proba(E[40:]).T)
    # the third unit is censored: no event mark, censoring within K = 10 for 9 windows
    assert display.event_markers_ is None
    assert_array_equal(display.censor_markers_.get_ydata(), np.arange(9, 0, -1))


def test_event_surface_draws_on_the_given_axes(plt):
    figure, (left, right) = plt.subplots(1, 2)
    display = EventSurfaceDisplay.from_predictions(UNIT_Y, UNIT_PROBA, ax=right)
    assert display.ax_ is right
    assert display.figure_ is figure
    assert not left.collections


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(groups=[1, 1, 2, 2]), "holds 2 units; pick"),
        (dict(groups=[1, 1, 2, 2], unit=3), "unknown unit 3"),
        (dict(unit=1), "groups is not"),
        (dict(groups=[1, 1, 2]), "groups has 3 entries"),
        (dict(times=[0, 1, 1, 2]), "strictly increasing"),
        (dict(times=[0, 1, 2]), "times has shape"),
    ],
)
def test_event_surface_rejects_bad_unit_and_times(plt, kwargs, message):
    with pytest.raises(ValueError, match=message):
        EventSurfaceDisplay.from_predictions(UNIT_Y, UNIT_PROBA, **kwargs)


@pytest.mark.parametrize(
    "proba, message", [(UNIT_PROBA[:3], "proba has shape"), (UNIT_PROBA[0], "2-D"), (UNIT_PROBA + 1, r"\[0, 1\]")]
)
def test_event_surface_rejects_bad_proba(plt, proba, message):
    with pytest.raises(ValueError, match=message):
        EventSurfaceDisplay.from_predictions(UNIT_Y, proba)


def test_event_surface_rejects_estimator_without_predict_proba(plt, embedded):
    E, y, _ = embedded
    with pytest.raises(TypeError, match="has no predict_proba"):
        EventSurfaceDisplay.from_estimator(HEPAPretrainer(), E, y)


# HorizonAUROCDisplay


def test_horizon_auroc_curves_and_prevalence(plt, tmp_path):
    rng = np.random.default_rng(1)
    surfaces = {"a": np.sort(rng.random((4, 4)), axis=1), "b": np.sort(rng.random((4, 4)), axis=1)}
    display = HorizonAUROCDisplay.from_predictions(PREVALENCE_Y, surfaces)
    render(display, tmp_path, "auroc")
    for name, proba in surfaces.items():
        assert_array_equal(display.lines_[name].get_xdata(), [1, 2, 3, 4])
        assert_allclose(display.lines_[name].get_ydata(), per_horizon_auroc(PREVALENCE_Y, proba))
    assert_allclose(display.prevalence_line_.get_ydata(), PREVALENCE)
    assert display.prevalence_line_.axes is display.ax2_
    assert display.ax2_.get_shared_x_axes().joined(display.ax2_, display.ax_)
    labels = [text.get_text() for text in display.ax2_.get_legend().get_texts()]
    assert labels[0].startswith("a (h-AUROC ")
    assert len(labels) == 3


def test_horizon_auroc_at_chosen_horizons(plt):
    proba = np.tile([0.1, 0.2, 0.3, 0.4], (4, 1))
    display = HorizonAUROCDisplay.from_predictions(PREVALENCE_Y, proba, horizons=[2, 4])
    assert list(display.lines_) == ["surface"]
    assert_array_equal(display.prevalence_line_.get_xdata(), [2, 4])
    assert_allclose(display.prevalence_line_.get_ydata(), [PREVALENCE[1], PREVALENCE[3]])


def test_horizon_auroc_from_estimators(plt, embedded, event_predictor, tiny_event_params):
    E, y, _ = embedded
    other = HEPAEventPredictor(**{**tiny_event_params, "random_state": 1}).fit(E, y)
    display = HorizonAUROCDisplay.from_estimator({"seed 0": event_predictor, "seed 1": other}, E, y)
    for name, model in (("seed 0", event_predictor), ("seed 1", other)):
        expected = per_horizon_auroc(y, model.predict_proba(E))
        assert_allclose(display.lines_[name].get_ydata(), expected)
    alone = HorizonAUROCDisplay.from_estimator(event_predictor, E, y)
    assert list(alone.lines_) == ["HEPAEventPredictor"]


@pytest.mark.parametrize(
    "proba, kwargs, message",
    [
        ({"a": np.zeros((4, 4)), "b": np.zeros((4, 3))}, {}, "same number of horizons"),
        ({}, {}, "proba is empty"),
        (np.zeros((3, 4)), {}, "proba has 3 rows"),
        (np.zeros((4, 4)), dict(horizons=[0, 2]), r"1\.\.K = 1\.\.4"),
        (np.zeros((4, 4)), dict(horizons=[5]), r"1\.\.K = 1\.\.4"),
        (np.zeros((4, 4)), dict(horizons=[1.5]), "integers"),
    ],
)
def test_horizon_auroc_rejects_bad_input(plt, proba, kwargs, message):
    with pytest.raises(ValueError, match=message):
        HorizonAUROCDisplay.from_predictions(PREVALENCE_Y, proba, **kwargs)


# SurfaceReliabilityDisplay

# Δt = 1: all cells known, scores 0.8 (positive) | 0.3, 0.2, 0.1 (negative).
# Δt = 2: the window censored at 1 is unknown (its 0.95 is left out);
# 0.9, 0.7 positive and 0.2 negative.
RELIABILITY_Y = make_survival_y([True, True, False, False], [1, 2, 1, 5])
RELIABILITY_PROBA = np.array([[0.8, 0.9], [0.3, 0.7], [0.2, 0.95], [0.1, 0.2]])


def test_reliability_points_are_bin_means(plt, tmp_path):
    display = SurfaceReliabilityDisplay.from_predictions(RELIABILITY_Y, RELIABILITY_PROBA, horizons=[1, 2], n_bins=2)
    render(display, tmp_path, "reliability")
    assert_allclose(display.lines_[0].get_xydata(), [[0.2, 0.0], [0.8, 1.0]])
    assert_allclose(display.lines_[1].get_xydata(), [[0.2, 0.0], [0.8, 1.0]])
    assert_array_equal(display.counts, [[3, 1], [1, 2]])
    assert_array_equal(display.diagonal_.get_xydata(), [[0, 0], [1, 1]])
    assert [line.get_label() for line in display.lines_] == ["Δt = 1", "Δt = 2"]


def test_reliability_skips_empty_bins(plt):
    display = SurfaceReliabilityDisplay.from_predictions(RELIABILITY_Y, RELIABILITY_PROBA, horizons=[2], n_bins=10)
    assert_array_equal(display.counts[0], [0, 0, 1, 0, 0, 0, 0, 1, 0, 1])
    assert np.isnan(display.mean_predicted[0, 0])
    assert_allclose(display.lines_[0].get_xdata(), [0.2, 0.7, 0.9])


def test_reliability_default_horizons_and_estimator(plt, embedded, event_predictor):
    E, y, _ = embedded
    display = SurfaceReliabilityDisplay.from_estimator(event_predictor, E, y)
    assert_array_equal(display.horizons, [3, 5, 8, 10])
    assert len(display.lines_) == 4
    assert display.ax_.get_title() == "HEPAEventPredictor"
    expected = SurfaceReliabilityDisplay.from_predictions(y, event_predictor.predict_proba(E))
    assert_array_equal(display.counts, expected.counts)
    assert_allclose(display.observed_rate, expected.observed_rate)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(horizons=[0]), r"1\.\.K = 1\.\.2"),
        (dict(horizons=[3]), r"1\.\.K = 1\.\.2"),
        (dict(horizons=[]), "at least one"),
        (dict(n_bins=0), "'n_bins' parameter of SurfaceReliabilityDisplay.from_predictions must be an int"),
    ],
)
def test_reliability_rejects_bad_horizons_and_bins(plt, kwargs, message):
    with pytest.raises(ValueError, match=message):
        SurfaceReliabilityDisplay.from_predictions(RELIABILITY_Y, RELIABILITY_PROBA, **kwargs)


# TrainingHistoryDisplay

HISTORY = [
    {"epoch": 1, "train_loss": 2.0, "valid_loss": 2.2, "collapse": False},
    {"epoch": 2, "train_loss": 1.5, "valid_loss": 1.9, "collapse": True},
    {"epoch": 3, "train_loss": 1.2, "valid_loss": 1.7, "collapse": False},
    {"epoch": 4, "train_loss": 1.1, "valid_loss": 1.8, "collapse": True},
    {"epoch": 5, "train_loss": 1.0, "valid_loss": 1.9, "collapse": False},
]


def test_history_lines_and_collapse_marks(plt, tmp_path):
    display = TrainingHistoryDisplay.from_history(HISTORY, name="run")
    render(display, tmp_path, "history")
    assert_array_equal(display.train_line_.get_xdata(), [1, 2, 3, 4, 5])
    assert_array_equal(display.train_line_.get_ydata(), [2.0, 1.5, 1.2, 1.1, 1.0])
    assert_array_equal(display.valid_line_.get_ydata(), [2.2, 1.9, 1.7, 1.8, 1.9])
    assert_array_equal(display.collapse_markers_.get_xydata(), [[2, 1.5], [4, 1.1]])
    spans = [(span.get_bbox().x0, span.get_bbox().x1) for span in display.collapse_spans_]
    assert spans == [(1.5, 2.5), (3.5, 4.5)]
    assert display.ax_.get_title() == "run"


def test_history_without_validation_or_collapse(plt):
    display = TrainingHistoryDisplay.from_history([{"train_loss": 1.0}, {"train_loss": 0.5}])
    assert_array_equal(display.train_line_.get_xdata(), [1, 2])
    assert display.valid_line_ is None
    assert display.collapse_markers_ is None
    assert display.collapse_spans_ == []


def test_history_of_fitted_pretrainer(plt, windows, tiny_pretrainer_params, tmp_path):
    # windows 28 and on have at most 16 observed steps, too few for one (cut, horizon) pair
    pretrainer = HEPAPretrainer(**{**tiny_pretrainer_params, "max_epochs": 2}).fit(windows[:28])
    display = TrainingHistoryDisplay.from_estimator(pretrainer)
    render(display, tmp_path, "pretrainer")
    history = pretrainer.history_
    assert len(display.train_line_.get_xdata()) == len(history) == 2
    assert_allclose(display.train_line_.get_ydata(), history[:, "train_loss"])
    flagged = [record["epoch"] for record in history if record["collapse"]]
    markers = display.collapse_markers_
    assert ([] if markers is None else markers.get_xdata().tolist()) == flagged
    assert display.ax_.get_title() == "HEPAPretrainer"


def test_history_of_fitted_event_predictor(plt, event_predictor):
    display = TrainingHistoryDisplay.from_estimator(event_predictor)
    assert len(display.train_line_.get_xdata()) == len(event_predictor.history_)


@pytest.mark.parametrize(
    "history, error, message",
    [
        ([], ValueError, "history is empty"),
        ([{"valid_loss": 1.0}], ValueError, "epoch 1 of history has no 'train_loss'"),
        ([1.0, 2.0], TypeError, "entry 1 is a float"),
        ({"train_loss": 1.0}, TypeError, "list of per-epoch dicts"),
    ],
)
def test_history_rejects_bad_history(plt, history, error, message):
    with pytest.raises(error, match=message):
        TrainingHistoryDisplay.from_history(history)


def test_history_needs_a_fitted_estimator_with_history(plt):
    with pytest.raises(TypeError, match="has no history_"):
        TrainingHistoryDisplay.from_estimator(object())
    with pytest.raises(NotFittedError):
        TrainingHistoryDisplay.from_estimator(HEPAPretrainer())


# matplotlib is optional


def hide_matplotlib(monkeypatch):
    for name in [name for name in sys.modules if name.split(".")[0] == "matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)


def test_drawing_without_matplotlib_names_the_extra(monkeypatch):
    hide_matplotlib(monkeypatch)
    with pytest.raises(ImportError, match=r"pip install 'hepa-sklearn\[plot\]'"):
        TrainingHistoryDisplay.from_history(HISTORY)
    with pytest.raises(ImportError, match="matplotlib"):
        EventSurfaceDisplay.from_predictions(UNIT_Y, UNIT_PROBA)


def test_import_works_without_matplotlib(monkeypatch):
    hide_matplotlib(monkeypatch)
    for name in [name for name in sys.modules if name.startswith("hepa_sklearn.plotting")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(hepa_sklearn, "plotting")
    plotting = importlib.import_module("hepa_sklearn.plotting")
    assert plotting.__all__ == [
        "EmbeddingPCADisplay",
        "EventSurfaceDisplay",
        "HorizonAUROCDisplay",
        "PredictorOutputsDisplay",
        "SurfaceReliabilityDisplay",
        "TrainingHistoryDisplay",
        "predictor_outputs",
    ]
