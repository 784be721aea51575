"""Malformed and ambiguous input on every public path: each is refused with a message naming the problem and the fix.

What reads one way only keeps working (rows in any order with a time
column, 0/1 and nullable event columns, a DataFrame y); what reads several
ways, or reads wrong by truthiness, raises instead of being guessed at.
"""

import io

import numpy as np
import pandas as pd
import pytest
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc, h_auroc_scorer
from hepa_sklearn.cli import main
from hepa_sklearn.export import export_torchscript
from hepa_sklearn.metrics import (
    best_f1_threshold,
    event_recall,
    f1_at_threshold,
    false_alarm_threshold,
    make_sksurv_scorer,
    point_adjust,
    rul_rmse,
)
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import check_survival_y, label_surface, make_survival_y
from hepa_sklearn.windows import make_windows, surface_frame
from tests.conftest import TINY_EVENT_PREDICTOR, TINY_PRETRAINER

# two units of four and three steps, rows shuffled: "t" gives the order
FRAME = pd.DataFrame(
    {
        "unit": ["a", "b", "a", "a", "b", "a", "b"],
        "t": [2, 0, 0, 3, 2, 1, 1],
        "x": [2.0, 10.0, 0.0, 3.0, 12.0, 1.0, 11.0],
        "event": [0, 0, 0, 1, 1, 0, 0],
    }
)
LONG = dict(feature_cols=["x"], event_col="event", unit_col="unit", time_col="t", context_length=3)


def windows(frame, **params):
    return make_windows(frame, **{**LONG, **params})


def reference():
    X, y, groups = windows(FRAME)
    return X, y, groups


# -- event columns ---------------------------------------------------------------


@pytest.mark.parametrize(
    "column",
    [
        FRAME["event"].astype(bool),
        FRAME["event"].astype(float),
        FRAME["event"].astype("boolean"),
        FRAME["event"].astype("Int64"),
        FRAME["event"].astype(bool).astype(object),
        FRAME["event"].astype(bool).astype("category"),
    ],
    ids=["bool", "float-0-1", "nullable-boolean", "nullable-integer", "object-bools", "categorical-bools"],
)
def test_event_columns_that_read_one_way_give_the_same_windows(column):
    X, y, groups = windows(FRAME.assign(event=column))
    X0, y0, groups0 = reference()
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


@pytest.mark.parametrize(
    "values, error, match",
    [
        (["no", "no", "no", "yes", "yes", "no", "no"], TypeError, r"found strings \('no', 'yes'\).*column == 'yes'"),
        (["False", "False", "False", "True", "True", "False", "False"], TypeError, "'no' and 'False' among them"),
        ([0, 0, 0, 2, 1, 0, 0], ValueError, r"0 and 1 only \(or False and True\), found 2\..*\(counts > 0\)"),
        ([0, 0, 0, 0.5, 1, 0, 0], ValueError, "found 0.5"),
        ([0, 0, 0, -1, 1, 0, 0], ValueError, "found -1"),
        ([0, True, "1", 0, 0, 0, 1], TypeError, "values of mixed types"),
        (pd.date_range("2024", periods=7), TypeError, "found datetimes"),
        ([0, 0, None, 1, 1, 0, 0], ValueError, "event column 'event' of unit 'a' has 1 missing value"),
    ],
    ids=["yes-no", "true-false-text", "count", "fraction", "negative", "mixed", "datetimes", "missing"],
)
def test_event_columns_are_never_read_by_truthiness(values, error, match):
    with pytest.raises(error, match=match):
        windows(FRAME.assign(event=pd.Series(values, dtype=object if isinstance(values, list) else None)))


# -- unit and time columns ---------------------------------------------------------


def test_shuffled_rows_with_a_time_column_are_sorted():
    ordered = FRAME.sort_values(["unit", "t"]).reset_index(drop=True)
    for X, X0 in zip(windows(FRAME)[:1], windows(ordered)[:1], strict=True):
        np.testing.assert_array_equal(X, X0)


def test_a_repeated_unit_and_time_is_refused_naming_the_rows():
    repeated = pd.concat([FRAME, FRAME.iloc[[2]]], ignore_index=True)
    with pytest.raises(
        ValueError,
        match=r"2 rows that share their \(unit, time\).*unit 'a' at time 0 in rows \[2, 7\]"
        r".*drop_duplicates\(\['unit', 't'\]\)",
    ):
        windows(repeated)
    single = FRAME[FRAME["unit"] == "a"]
    with pytest.raises(ValueError, match=r"at time 1 in rows \[5, 5\].*drop_duplicates\(\['t'\]\)"):
        windows(pd.concat([single, single.loc[[5]]]), unit_col=None)


def test_a_repeated_instance_and_time_of_a_multiindex_frame_is_refused():
    frame = FRAME.set_index(["unit", "t"])
    frame = pd.concat([frame, frame.iloc[[0]]])
    with pytest.raises(ValueError, match="share their \\(unit, time\\)"):
        make_windows(frame, feature_cols=["x"], event_col="event", context_length=3, layout="pd-multiindex")


@pytest.mark.parametrize(
    "times, error, match",
    [
        ([2, 0, 0, np.nan, 2, 1, 1], ValueError, "time column 't' has 1 missing value"),
        (["2", "0", "0", "10", "2", "1", "1"], TypeError, r"found strings.*'10' before '9'.*pandas.to_numeric"),
        ([2, 0, 0, "3", 2, 1, 1], TypeError, "values of mixed types"),
        ([True, False, False, True, True, False, True], TypeError, "found boolean"),
    ],
    ids=["missing", "text", "mixed", "booleans"],
)
def test_times_must_be_numbers_or_datetimes_without_gaps(times, error, match):
    with pytest.raises(error, match=match):
        windows(FRAME.assign(t=pd.Series(times, dtype=object if isinstance(times[0], str) else None)))


def test_the_time_level_of_a_multiindex_frame_is_checked_alike():
    frame = FRAME.assign(t=FRAME["t"].astype(str)).set_index(["unit", "t"])
    with pytest.raises(TypeError, match="time level .* found strings"):
        make_windows(frame, feature_cols=["x"], event_col="event", context_length=3, layout="pd-multiindex")


def test_datetime_and_timedelta_times_are_sorted():
    start = pd.Timestamp("2024-01-01")
    X0 = reference()[0]
    for times in (start + pd.to_timedelta(FRAME["t"], unit="h"), pd.to_timedelta(FRAME["t"], unit="s")):
        np.testing.assert_array_equal(windows(FRAME.assign(t=times))[0], X0)


def test_unit_labels_of_mixed_types_are_refused():
    units = pd.Series([1, 2, "1", 1, 2, 1, 2], dtype=object)
    with pytest.raises(TypeError, match=r"mixed types \(1, 2, '1'\).*astype\(str\)"):
        windows(FRAME.assign(unit=units))


# -- feature columns and column arguments ------------------------------------------


@pytest.mark.parametrize(
    "values, error, match",
    [
        (
            ["2.0", "10", "0", "3", "12", "1", "11"],
            TypeError,
            r"feature column 'x' of frame must hold numbers, found "
            r"strings.*pandas.to_numeric\(frame\['x'\]\)",
        ),
        ([2.0, 10, 0, np.inf, 12, 1, 11], ValueError, "1 infinite value.*first at 3.*NaN instead"),
        (np.arange(7) + 1j, TypeError, "found complex numbers"),
        (pd.date_range("2024", periods=7), TypeError, "found datetimes"),
    ],
    ids=["numeric-text", "inf", "complex", "datetimes"],
)
def test_features_must_be_numbers(values, error, match):
    with pytest.raises(error, match=match):
        windows(FRAME.assign(x=pd.Series(values, dtype=object if isinstance(values, list) else None)))


def test_missing_features_of_any_kind_are_nan():
    for missing in (
        pd.array([2.0, None, 0, 3, 12, 1, 11], dtype="Float64"),
        pd.Series([2.0, None, 0, 3, 12, 1, 11], dtype=object),
    ):
        X, _, _, index = windows(FRAME.assign(x=missing), return_index=True)
        row = index.index[index["row"] == 1][0]
        assert np.isnan(X[row, 0, -1])


@pytest.mark.parametrize(
    "params, error, match",
    [
        (dict(feature_cols="x"), TypeError, r"got 'x'; for a single column pass \['x'\]"),
        (dict(feature_cols=3), TypeError, "list of column labels"),
        (dict(feature_cols=["x", "x"]), ValueError, r"names \['x'\] more than once"),
        (dict(event_col={"event"}), TypeError, r"event_col must be one column label \(or position\), got \{'event'\}"),
        (dict(feature_cols=[["x"]]), TypeError, "feature_cols must hold column labels"),
    ],
)
def test_column_arguments_are_checked(params, error, match):
    with pytest.raises(error, match=match):
        windows(FRAME, **params)


def test_a_column_label_used_twice_in_the_frame_is_refused():
    with pytest.raises(ValueError, match=r"several columns labelled \['x'\]"):
        windows(pd.concat([FRAME, FRAME[["x"]]], axis=1))


def test_an_empty_frame_says_so():
    with pytest.raises(ValueError, match="holds no series"):
        windows(FRAME.iloc[:0])
    with pytest.raises(ValueError, match="holds no series"):
        make_windows([], feature_cols=[0], event_col=1, context_length=2, layout="np-list")


# -- the list layouts ---------------------------------------------------------------


def test_list_layouts_check_positions_values_and_shapes():
    unit = np.array([[0.0, 1, 2, 3], [0, 0, 1, 0]])
    params = dict(feature_cols=[0], event_col=1, context_length=2, layout="np-list")
    with pytest.raises(TypeError, match=r"positions in each array \(integers\), got \[True\]"):
        make_windows([unit], **{**params, "feature_cols": [True]})
    with pytest.raises(ValueError, match="event channel 1 of array 1 must hold 0 and 1 only.*found 0.5"):
        make_windows([unit, unit * [[1], [0.5]]], **params)
    with pytest.raises(TypeError, match="feature channel 0 of array 0 .* found strings.*to float first"):
        make_windows([unit.astype(str)], **params)
    with pytest.raises(ValueError, match="item 0 of the list is not a rectangular array"):
        make_windows([[[0.0, 1.0], [0.0]]], **params)
    # empty and one-step units are units like any other
    X, y, groups = make_windows([np.zeros((2, 0)), np.zeros((2, 1)), unit], **params)
    assert groups.tolist() == [1, 2, 2, 2, 2]
    time_first = {**params, "layout": "time-first-list"}
    with pytest.raises(ValueError, match="event column 1 of array 0 must hold 0 and 1 only.*found 2"):
        make_windows([unit.T * [1, 2]], **time_first)
    with pytest.raises(ValueError, match="feature column 0 of array 0 .* infinite"):
        make_windows([np.where(unit.T == 3, np.inf, unit.T)], **time_first)


# -- y --------------------------------------------------------------------------------

Y = make_survival_y([True, False, True], [1.0, 4.0, 2.0])
P = np.array([[0.6, 0.7], [0.1, 0.2], [0.3, 0.9]])


def test_y_as_a_two_column_dataframe_reads_like_the_structured_array():
    for frame in (
        pd.DataFrame(Y),
        pd.DataFrame(Y)[["time", "event"]],
        pd.DataFrame({"status": Y["event"], "days": Y["time"]}),
        pd.DataFrame({"event": pd.array(Y["event"], dtype="boolean"), "time": Y["time"]}),
    ):
        event, time = check_survival_y(frame)
        np.testing.assert_array_equal(event, Y["event"])
        np.testing.assert_array_equal(time, Y["time"])
        assert h_auroc(frame, P) == h_auroc(Y, P)


@pytest.mark.parametrize(
    "y, error, match",
    [
        (pd.Series(Y["event"], name="event"), TypeError, "pandas Series named 'event': one column"),
        (pd.DataFrame({"event": ["yes", "no", "yes"], "time": [1.0, 4, 2]}), TypeError, "y\\['event'\\] .*strings"),
        (
            pd.DataFrame({"event": [1, 0, 1], "time": ["1", "4", "2"]}),
            TypeError,
            "y\\['time'\\] \\(the time\\) must be numeric.*pandas.to_numeric",
        ),
        (pd.DataFrame({"event": [True], "time": [1.0], "unit": ["a"]}), ValueError, "exactly two columns"),
        (pd.DataFrame({"status": [1, 0], "days": [1.0, 2.0]}), TypeError, "first field 'status' must be the boolean"),
        ([(True, 1.0), (False, 2.0)], TypeError, "structured array"),
        (np.array([(2.0, 1.0)], dtype=[("event", float), ("time", float)]), ValueError, "found 2.0"),
    ],
    ids=["series", "text-event", "text-time", "three-columns", "integer-by-position", "tuples", "float-event"],
)
def test_malformed_y_names_the_problem(y, error, match):
    with pytest.raises(error, match=match):
        check_survival_y(y)


def test_make_survival_y_reads_no_event_by_truthiness_and_no_time_from_text():
    np.testing.assert_array_equal(make_survival_y([1.0, 0.0], [3, 4])["event"], [True, False])
    with pytest.raises(TypeError, match="event must hold booleans or the numbers 0 and 1, found strings"):
        make_survival_y(["yes", "no"], [1, 2])
    with pytest.raises(ValueError, match="found 0.5"):
        make_survival_y([0.5, 0], [1, 2])
    with pytest.raises(TypeError, match="time must be numeric"):
        make_survival_y([1, 0], ["1", "2"])


def test_scikit_survival_labels_work_as_they_are():
    Surv = pytest.importorskip("sksurv.util").Surv
    y = Surv.from_dataframe("failed", "days", pd.DataFrame({"failed": [True, False, True], "days": [1.0, 4, 2]}))
    np.testing.assert_array_equal(label_surface(y, 2)[0], label_surface(Y, 2)[0])


# -- the estimators -------------------------------------------------------------------

RNG = np.random.default_rng(0)
X = RNG.normal(size=(24, 2, 32)).astype(np.float32)
Y_FIT = make_survival_y(RNG.random(24) < 0.8, RNG.integers(1, 10, 24))


@pytest.fixture(scope="module")
def pretrainer():
    return HEPAPretrainer(**TINY_PRETRAINER, norm="revin").fit(X)  # exportable


def test_windows_of_text_are_refused_not_parsed(pretrainer):
    with pytest.raises(TypeError, match="X must hold numbers, got dtype <U.*text and other objects are not parsed"):
        pretrainer.transform(X.astype(str))
    with pytest.raises(TypeError, match="X must hold numbers, got dtype object"):
        HEPAPretrainer(**TINY_PRETRAINER).fit(np.where(X > 0, "1.5", X).astype(object))
    np.testing.assert_array_equal(pretrainer.transform(X.astype(object)), pretrainer.transform(X))


def test_event_models_take_a_dataframe_y_and_refuse_a_text_one(pretrainer):
    E = pretrainer.transform(X)
    model = HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(E, pd.DataFrame(Y_FIT))
    reference = HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(E, Y_FIT)
    np.testing.assert_array_equal(model.predict_proba(E), reference.predict_proba(E))
    assert model.score(E, pd.DataFrame(Y_FIT)) == reference.score(E, Y_FIT)
    text = pd.DataFrame({"event": np.where(Y_FIT["event"], "yes", "no"), "time": Y_FIT["time"]})
    with pytest.raises(TypeError, match="strings"):
        HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(E, text)
    for method in (model.predict_proba, model.predict, model.predict_risk, model.predict_survival_function):
        with pytest.raises(TypeError, match="E must hold numbers"):
            method(E.astype(str))


def test_windows_beyond_float32_are_refused_not_made_infinite(pretrainer):
    X64 = X.astype(np.float64)
    X64[3, 1, 7] = 1e39
    with pytest.raises(ValueError, match="beyond float32's range"):
        pretrainer.transform(X64)


# -- metrics and scorers --------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: h_auroc(Y, P.astype(str)), TypeError, "proba must be numeric"),
        (lambda: h_auroc(Y, P, horizons=["1"]), TypeError, "horizons must be integers"),
        (lambda: f1_at_threshold(["yes", "no", "yes"], [0.1, 0.2, 0.3], 0.2), TypeError, "labels .*strings"),
        (lambda: f1_at_threshold([1, 0, 2], [0.1, 0.2, 0.3], 0.2), ValueError, "labels must hold 0 and 1 only"),
        (lambda: f1_at_threshold([1, 0, 1], ["0.1", "0.2", "0.3"], 0.2), TypeError, "scores must be numeric"),
        (lambda: f1_at_threshold([1, 0, 1], [0.1, 0.2, 0.3], "0.2"), ValueError, "'threshold' parameter"),
        (lambda: best_f1_threshold([1, 0, 1], [0.1, 0.2, 0.3], point_adjusted="no"), ValueError, "point_adjusted"),
        (lambda: point_adjust([1, 0], [0.5, 1]), ValueError, "predictions must hold 0 and 1 only"),
        (lambda: false_alarm_threshold(Y, [0.1, 0.2, 0.3], rate="0.1", horizon=2), ValueError, "'rate' parameter"),
        (lambda: false_alarm_threshold(Y, [0.1, 0.2, 0.3], rate=0.1, horizon=0), ValueError, "'horizon' parameter"),
        (lambda: false_alarm_threshold(Y, [np.nan, 0.2, 0.3], rate=0.1, horizon=2), ValueError, "scores contain NaN"),
        (lambda: event_recall(Y, [0.1, 0.2, 0.3], 0.2, horizon=2.5), ValueError, "'horizon' parameter"),
        (lambda: event_recall(Y, [0.1, 0.2, 0.3], 0.2, horizon=2, groups=[1]), ValueError, "one label per point"),
        (lambda: rul_rmse(Y, ["1", "2", "3"]), TypeError, "predicted_time must be numeric"),
        (lambda: h_auroc_scorer(object(), P, Y), TypeError, "object has no predict_proba"),
        (
            lambda: make_sksurv_scorer(
                "concordance_index_ipcw", survival_train=pd.DataFrame({"event": ["yes"], "time": [1.0]})
            ),
            TypeError,
            "strings",
        ),
        (
            lambda: surface_frame(P[:2], pd.DataFrame({"unit": ["a", "a"], "time": [1, 1]})),
            ValueError,
            r"1 repeated \(unit, time\) key\(s\), the first \('a', 1\)",
        ),
    ],
    ids=[
        "text-surface",
        "text-horizons",
        "text-labels",
        "count-labels",
        "text-scores",
        "text-threshold",
        "text-flag",
        "fraction-predictions",
        "text-rate",
        "zero-horizon",
        "nan-scores",
        "fractional-horizon",
        "short-groups",
        "text-times",
        "no-predict-proba",
        "text-survival-train",
        "repeated-keys",
    ],
)
def test_metrics_and_scorers_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- persistence and export -----------------------------------------------------------


def test_a_truncated_or_empty_saved_file_is_a_value_error(pretrainer, tmp_path):
    path = tmp_path / "pre.pt"
    save(pretrainer, path)
    data = path.read_bytes()
    for cut in (data[: len(data) // 2], data[:-1], data[:100], b""):
        path.write_bytes(cut)
        with pytest.raises(
            ValueError,
            match="is not a complete file written by hepa_sklearn.persistence.save: it is truncated or damaged",
        ):
            load(path)


def test_save_and_export_need_a_file_name_in_an_existing_folder(pretrainer, tmp_path):
    with pytest.raises(TypeError, match="path must be a file name .* got BytesIO"):
        save(pretrainer, io.BytesIO())
    with pytest.raises(FileNotFoundError, match="the folder .*absent does not exist"):
        save(pretrainer, tmp_path / "absent" / "pre.pt")
    with pytest.raises(FileNotFoundError, match="export_torchscript cannot write"):
        export_torchscript(pretrainer, tmp_path / "absent" / "pre.pt", X[:2])
    with pytest.raises(TypeError, match="X must hold numbers"):
        export_torchscript(pretrainer, tmp_path / "pre.pt", X[:2].astype(str))
    assert list(tmp_path.iterdir()) == []  # nothing, not even a temporary file, is left
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "absent.pt")
    with pytest.raises(IsADirectoryError):
        load(tmp_path)


def test_a_pipeline_of_dataframe_labels_saves_and_loads(tmp_path):
    pipe = make_pipeline(HEPAPretrainer(**TINY_PRETRAINER), HEPAEventPredictor(**TINY_EVENT_PREDICTOR))
    pipe.fit(X, pd.DataFrame(Y_FIT))
    save(pipe, tmp_path / "pipe.pt")
    np.testing.assert_array_equal(load(tmp_path / "pipe.pt").predict_proba(X), pipe.predict_proba(X))


# -- the command line -----------------------------------------------------------------


@pytest.mark.parametrize(
    "command, argv, message",
    [
        ("protocol", ["--pretrain-epochs", "0"], "argument --pretrain-epochs: must be at least 1, got 0"),
        ("protocol", ["--finetune-epochs", "-3"], "argument --finetune-epochs: must be at least 1, got -3"),
        ("protocol", ["--seed", "-1"], "argument --seed: must be at least 0"),
        ("protocol", ["--seed", "one"], "argument --seed: expected an integer, got 'one'"),
        ("protocol", ["--threads", "-2"], "argument --threads: must be at least 0"),
        ("protocol", ["--verbose", "x"], "argument --verbose: expected an integer"),
        (
            "protocol",
            ["--device", "gpu0"],
            "argument --device: device must be 'auto', 'cpu', 'cuda' or a torch device string",
        ),
        ("protocol", ["--subset", "FD005"], "argument --subset: invalid choice: 'FD005'"),
        ("protocol", ["--cuts-per-unit", "0"], "argument --cuts-per-unit: must be at least 1, got 0"),
        ("protocol", ["--horizon-knots", "1"], "argument --horizon-knots: must be at least 2, got 1"),
        ("protocol", ["--horizon-knots", "some"], "argument --horizon-knots: expected an integer, got 'some'"),
        ("demo", ["--test-stride", "0"], "argument --test-stride: must be at least 1, got 0"),
        ("demo", ["--seed", "-1"], "argument --seed: must be at least 0"),
        ("demo", ["--seed", "4294967296"], "argument --seed: must be at most 4294967295, got 4294967296"),
        ("protocol", ["--seed", "4294967296"], "argument --seed: must be at most 4294967295, got 4294967296"),
        (
            "demo",
            ["--device", "gpu0"],
            "argument --device: device must be 'auto', 'cpu', 'cuda' or a torch device string",
        ),
        ("demo", ["--subset", "FD005"], "argument --subset: invalid choice: 'FD005'"),
    ],
)
def test_the_commands_refuse_bad_arguments_before_any_work(command, argv, message, capsys, monkeypatch):
    import hepa_sklearn.cmapss_protocol
    import hepa_sklearn.datasets

    monkeypatch.setattr(hepa_sklearn.cmapss_protocol, "run_cmapss", lambda *a, **k: pytest.fail("the protocol ran"))
    monkeypatch.setattr(hepa_sklearn.datasets, "load_cmapss", lambda *a, **k: pytest.fail("the demo ran"))
    with pytest.raises(SystemExit) as exit_info:
        main([command, *argv])
    assert exit_info.value.code == 2
    assert f"hepa {command}: error: {message}" in capsys.readouterr().err


def test_demo_fits_the_headline_pipeline_and_scores_the_test_engines(capsys, monkeypatch):
    import hepa_sklearn.datasets
    from hepa_sklearn.datasets import load_cmapss

    def few_engines(subset, split="train", **kwargs):  # the real loader's windows of 8 engines, to keep it short
        assert split == "test" and kwargs == {"stride": 7} or split == "train" and not kwargs
        data = load_cmapss(subset, split=split, **kwargs)
        keep = np.isin(data.groups, np.unique(data.groups)[:8])
        return type("Windows", (), {"X": data.X[keep], "y": data.y[keep]})

    monkeypatch.setattr(hepa_sklearn.datasets, "load_cmapss", few_engines)
    assert main(["demo", "--subset", "FD003", "--test-stride", "7", "--threads", "1", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    n_train, n_test = len(few_engines("FD003").X), len(few_engines("FD003", "test", stride=7).X)
    assert out.startswith(
        f"FD003 seed 0: make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150)) fitted on "
        f"{n_train} training windows in "
    )
    score = float(out.split("h-AUROC on NASA's test engines ")[1].split()[0])
    assert 0 <= score <= 1 and out.rstrip().endswith(f"({n_test} windows)")
