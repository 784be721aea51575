"""Tests for hepa_sklearn.windows: windowing, survival targets and label surfaces."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn.surface import check_survival_y, label_surface, make_survival_y
from hepa_sklearn.windows import make_windows, surface_frame

nan = np.nan

# Two units in long format, rows shuffled and interleaved; "t" gives the order.
# Unit "u1" has 5 steps with events at steps 1 and 3; unit "u2" has 3 steps
# with a single event at its first step (so no window of u2 sees a later event).
ROWS = [
    # unit, t, a, b, ev
    ("u1", 3, 13.0, 23.0, 1),
    ("u2", 2, 32.0, 42.0, 0),
    ("u1", 0, 10.0, 20.0, 0),
    ("u1", 4, 14.0, 24.0, 0),
    ("u2", 0, 30.0, 40.0, 1),
    ("u1", 1, 11.0, 21.0, 1),
    ("u2", 1, 31.0, 41.0, 0),
    ("u1", 2, 12.0, 22.0, 0),
]


def long_frame():
    return pd.DataFrame(ROWS, columns=["unit", "t", "a", "b", "ev"])


def unit_arrays():
    """The same data as ``long_frame`` as one (T_i, 3) array per unit: a, b, ev."""
    u1 = np.array([[10, 20, 0], [11, 21, 1], [12, 22, 0], [13, 23, 1], [14, 24, 0]], float)
    u2 = np.array([[30, 40, 1], [31, 41, 0], [32, 42, 0]], float)
    return [u1, u2]


def windows(frame=None, **kwargs):
    params = dict(feature_cols=["a", "b"], event_col="ev", unit_col="unit", time_col="t", context_length=3)
    params.update(kwargs)
    return make_windows(long_frame() if frame is None else frame, **params)


# Expected windows for context_length=3, stride=1, min_history=1, channel "a"
# (channel "b" is "a" + 10 everywhere).
EXPECTED_A = {
    ("u1", 0): [nan, nan, 10],
    ("u1", 1): [nan, 10, 11],
    ("u1", 2): [10, 11, 12],
    ("u1", 3): [11, 12, 13],
    ("u1", 4): [12, 13, 14],
    ("u2", 0): [nan, nan, 30],
    ("u2", 1): [nan, 30, 31],
    ("u2", 2): [30, 31, 32],
}
# (event, time) of the window ending at each step.
EXPECTED_Y = {
    ("u1", 0): (True, 1),  # next event at step 1
    ("u1", 1): (True, 2),  # the event at step 1 itself does not count; next is step 3
    ("u1", 2): (True, 1),
    ("u1", 3): (False, 1),  # no later event: censored at the last step (4)
    ("u1", 4): (False, 0),
    ("u2", 0): (False, 2),  # the event at step 0 is not strictly after t=0
    ("u2", 1): (False, 1),
    ("u2", 2): (False, 0),
}


def expected(ends):
    """Expected (X, event, time, groups) for a list of (unit, end_step) keys."""
    a = np.array([EXPECTED_A[key] for key in ends], dtype=np.float32)
    X = np.stack([a, a + 10], axis=1)
    event = np.array([EXPECTED_Y[key][0] for key in ends])
    time = np.array([EXPECTED_Y[key][1] for key in ends], dtype=float)
    groups = [unit for unit, _ in ends]
    return X, event, time, groups


def assert_windows(result, ends):
    X, y, groups = result
    X_exp, event_exp, time_exp, groups_exp = expected(ends)
    assert X.dtype == np.float32
    assert X.shape == X_exp.shape
    np.testing.assert_array_equal(X, X_exp)  # NaN positions must match too
    np.testing.assert_array_equal(y["event"], event_exp)
    np.testing.assert_array_equal(y["time"], time_exp)
    assert list(groups) == groups_exp


# --------------------------------------------------------------------------
# make_windows: exact hand-computed cases
# --------------------------------------------------------------------------


def test_make_windows_all_steps_exact():
    ends = [("u1", t) for t in range(5)] + [("u2", t) for t in range(3)]
    assert_windows(windows(), ends)


def test_make_windows_output_types_and_shape():
    X, y, groups = windows()
    assert X.shape == (8, 2, 3)
    assert y.dtype.names == ("event", "time")
    assert y["event"].dtype == bool
    assert y["time"].dtype == float
    assert groups.shape == (8,)


def test_make_windows_sorts_by_time_col():
    shuffled = long_frame()
    ordered = shuffled.sort_values(["unit", "t"]).reset_index(drop=True)
    X1, y1, g1 = windows(shuffled)
    X2, y2, g2 = windows(ordered)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_array_equal(g1, g2)


def test_make_windows_without_time_col_keeps_row_order():
    # Without time_col the (shuffled) row order is taken as the time order.
    frame = long_frame()
    X, _, groups = windows(frame, time_col=None)
    u1_rows = frame.loc[frame["unit"] == "u1", "a"].to_numpy(np.float32)
    u1_windows = X[np.asarray(groups) == "u1"]
    np.testing.assert_array_equal(u1_windows[:, 0, -1], u1_rows)


@pytest.mark.parametrize(
    "stride, u1_ends, u2_ends",
    [(1, [0, 1, 2, 3, 4], [0, 1, 2]), (2, [0, 2, 4], [0, 2]), (3, [1, 4], [2]), (4, [0, 4], [2]), (10, [4], [2])],
)
def test_make_windows_stride_counts_back_from_last_step(stride, u1_ends, u2_ends):
    ends = [("u1", t) for t in u1_ends] + [("u2", t) for t in u2_ends]
    assert_windows(windows(stride=stride), ends)


@pytest.mark.parametrize(
    "min_history, stride, u1_ends, u2_ends",
    [
        (2, 1, [1, 2, 3, 4], [1, 2]),
        (3, 1, [2, 3, 4], [2]),
        (4, 1, [3, 4], []),  # u2 (3 steps) is dropped entirely
        (5, 1, [4], []),
        (4, 2, [4], []),  # step 2 would be next but has only 3 steps of history
        (2, 2, [2, 4], [2]),
    ],
)
def test_make_windows_min_history(min_history, stride, u1_ends, u2_ends):
    ends = [("u1", t) for t in u1_ends] + [("u2", t) for t in u2_ends]
    assert_windows(windows(min_history=min_history, stride=stride), ends)


def test_make_windows_context_longer_than_history_pads_left():
    X, _, _ = windows(context_length=6)
    assert X.shape == (8, 2, 6)
    np.testing.assert_array_equal(X[4, 0], [nan, 10, 11, 12, 13, 14])
    np.testing.assert_array_equal(X[7, 1], [nan, nan, nan, 40, 41, 42])


def test_make_windows_context_length_one():
    X, y, _ = windows(context_length=1)
    np.testing.assert_array_equal(X[:, 0, 0], [10, 11, 12, 13, 14, 30, 31, 32])
    np.testing.assert_array_equal(X[:, 1, 0], [20, 21, 22, 23, 24, 40, 41, 42])
    np.testing.assert_array_equal(y["time"], [1, 2, 1, 1, 0, 2, 1, 0])


def test_make_windows_channel_order_follows_feature_cols():
    X_ab, _, _ = windows(feature_cols=["a", "b"])
    X_ba, _, _ = windows(feature_cols=["b", "a"])
    X_b, _, _ = windows(feature_cols=["b"])
    np.testing.assert_array_equal(X_ba[:, 0], X_ab[:, 1])
    np.testing.assert_array_equal(X_ba[:, 1], X_ab[:, 0])
    assert X_b.shape == (8, 1, 3)
    np.testing.assert_array_equal(X_b[:, 0], X_ab[:, 1])


def test_make_windows_keeps_missing_feature_values():
    frame = long_frame()
    frame.loc[(frame["unit"] == "u1") & (frame["t"] == 2), "a"] = nan
    X, _, _ = windows(frame)
    np.testing.assert_array_equal(X[2, 0], [10, 11, nan])
    np.testing.assert_array_equal(X[4, 0], [nan, 13, 14])
    np.testing.assert_array_equal(X[2, 1], [20, 21, 22])  # other channel untouched


def test_make_windows_boolean_event_column():
    frame = long_frame()
    frame["ev"] = frame["ev"].astype(bool)
    _, y_bool, _ = windows(frame)
    _, y_int, _ = windows()
    np.testing.assert_array_equal(y_bool, y_int)


def test_make_windows_single_unit_without_unit_col():
    frame = long_frame()
    u1 = frame[frame["unit"] == "u1"].drop(columns="unit")
    X, y, groups = make_windows(u1, feature_cols=["a", "b"], event_col="ev", time_col="t", context_length=3)
    X_exp, event_exp, time_exp, _ = expected([("u1", t) for t in range(5)])
    np.testing.assert_array_equal(X, X_exp)
    np.testing.assert_array_equal(y["event"], event_exp)
    np.testing.assert_array_equal(y["time"], time_exp)
    np.testing.assert_array_equal(groups, np.zeros(5))


def test_make_windows_numeric_unit_ids_in_groups():
    frame = long_frame()
    frame["unit"] = frame["unit"].map({"u1": 7, "u2": 3})
    _, _, groups = windows(frame)
    np.testing.assert_array_equal(groups, [7, 7, 7, 7, 7, 3, 3, 3])


@pytest.mark.parametrize("stride, min_history", [(1, 1), (2, 1), (1, 2), (3, 2)])
def test_make_windows_list_of_arrays_matches_dataframe(stride, min_history):
    frame = long_frame()
    frame["unit"] = frame["unit"].map({"u1": 0, "u2": 1})
    X_df, y_df, g_df = windows(frame, stride=stride, min_history=min_history)
    X_ls, y_ls, g_ls = make_windows(
        unit_arrays(),
        layout="time-first-list",
        feature_cols=[0, 1],
        event_col=2,
        context_length=3,
        stride=stride,
        min_history=min_history,
    )
    assert X_ls.dtype == np.float32
    np.testing.assert_array_equal(X_ls, X_df)
    np.testing.assert_array_equal(y_ls, y_df)
    np.testing.assert_array_equal(g_ls, g_df)


def test_make_windows_tuple_of_arrays_and_column_positions():
    X, _, _ = make_windows(
        tuple(unit_arrays()), feature_cols=[1, 0], event_col=2, context_length=2, layout="time-first-list"
    )
    np.testing.assert_array_equal(X[0], [[nan, 20], [nan, 10]])
    np.testing.assert_array_equal(X[-1], [[41, 42], [31, 32]])


# --------------------------------------------------------------------------
# make_windows: errors
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, missing",
    [
        (dict(feature_cols=["a", "zz"]), "zz"),
        (dict(event_col="no_event"), "no_event"),
        (dict(unit_col="no_unit"), "no_unit"),
        (dict(time_col="no_time"), "no_time"),
    ],
)
def test_make_windows_missing_column(kwargs, missing):
    with pytest.raises(ValueError, match=missing):
        windows(**kwargs)


@pytest.mark.parametrize("bad", [nan, None])
def test_make_windows_missing_event_value(bad):
    frame = long_frame().astype({"ev": object})
    frame.loc[3, "ev"] = bad
    with pytest.raises(ValueError, match="event column 'ev' of unit 'u1' has 1 missing value"):
        windows(frame)


@pytest.mark.parametrize("name", ["context_length", "stride", "min_history"])
@pytest.mark.parametrize("bad", [0, -1, 2.0, 1.5, True, "3", None])
def test_make_windows_bad_integer_parameter(name, bad):
    params = dict(context_length=3, stride=1, min_history=1)
    params[name] = bad
    with pytest.raises(ValueError, match=name):
        windows(**params)


def test_make_windows_accepts_numpy_integers():
    X, _, _ = windows(context_length=np.int64(3), stride=np.int32(2), min_history=np.int8(1))
    assert X.shape == (5, 2, 3)


def test_make_windows_no_unit_long_enough():
    with pytest.raises(ValueError, match="min_history"):
        windows(min_history=6)


def test_make_windows_empty_feature_cols():
    with pytest.raises(ValueError, match="feature_cols"):
        windows(feature_cols=[])


@pytest.mark.parametrize("frame", [np.zeros((5, 3)), {"a": [1, 2]}, "frame", None, pd.Series([1.0, 2.0])])
def test_make_windows_wrong_frame_type(frame):
    with pytest.raises(TypeError):
        make_windows(frame, feature_cols=[0], event_col=1, context_length=2)


@pytest.mark.parametrize("kwargs", [dict(unit_col=0), dict(time_col=0)])
def test_make_windows_list_input_rejects_unit_and_time_col(kwargs):
    with pytest.raises(ValueError, match="unit_col"):
        make_windows(unit_arrays(), feature_cols=[0], event_col=2, context_length=2, layout="time-first-list", **kwargs)


def test_make_windows_list_input_rejects_non_2d_array():
    with pytest.raises(ValueError, match="2-D"):
        make_windows([np.zeros(4)], feature_cols=[0], event_col=0, context_length=2, layout="time-first-list")


# --------------------------------------------------------------------------
# make_windows: layouts
# --------------------------------------------------------------------------


def aeon_series():
    """Two units in aeon's np-list layout, (2 channels, 30 steps) each; channel 1 marks events."""
    rng = np.random.default_rng(0)
    arrays = []
    for _ in range(2):
        array = np.stack([rng.normal(size=30), np.zeros(30)]).astype(np.float32)
        array[1, [9, 24]] = 1.0
        arrays.append(array)
    return arrays


def test_make_windows_np_list_reads_channels_first():
    arrays = aeon_series()
    X, y, groups = make_windows(arrays, feature_cols=[0, 1], event_col=1, context_length=8, layout="np-list")
    # 2 units of 30 steps with 2 channels each, not 2-step series of 30 columns
    assert X.shape == (60, 2, 8)
    np.testing.assert_array_equal(groups, [0] * 30 + [1] * 30)
    np.testing.assert_array_equal(X[29, :, -1], arrays[0][:, -1])
    np.testing.assert_array_equal(X[59], arrays[1][:, -8:])
    np.testing.assert_array_equal(y["time"][:3], [9, 8, 7])


def test_make_windows_np_list_equals_time_first_list_of_transposes():
    arrays = aeon_series()
    params = dict(feature_cols=[1, 0], event_col=1, context_length=5, stride=3, min_history=4)
    X_a, y_a, g_a = make_windows(arrays, layout="np-list", **params)
    X_t, y_t, g_t = make_windows([a.T for a in arrays], layout="time-first-list", **params)
    np.testing.assert_array_equal(X_a, X_t)
    np.testing.assert_array_equal(y_a, y_t)
    np.testing.assert_array_equal(g_a, g_t)


def multiindex_frame():
    """The long frame as sktime's pd-multiindex: (instance, time) index, one column per variable."""
    return long_frame().set_index(["unit", "t"])


def test_make_windows_pd_multiindex_matches_long_layout():
    X_l, y_l, g_l = windows()
    X_m, y_m, g_m = make_windows(
        multiindex_frame(), feature_cols=["a", "b"], event_col="ev", context_length=3, layout="pd-multiindex"
    )
    np.testing.assert_array_equal(X_m, X_l)
    np.testing.assert_array_equal(y_m, y_l)
    np.testing.assert_array_equal(g_m, g_l)


def test_make_windows_pd_multiindex_round_trip():
    frame = multiindex_frame()
    X, _, groups, index = make_windows(
        frame,
        feature_cols=["a", "b"],
        event_col="ev",
        context_length=3,
        stride=2,
        layout="pd-multiindex",
        return_index=True,
    )
    keys = pd.MultiIndex.from_frame(index[["unit", "time"]])
    # each window's last step is the frame row at its (instance, time)
    np.testing.assert_array_equal(frame.loc[keys, ["a", "b"]].to_numpy(np.float32), X[:, :, -1])
    np.testing.assert_array_equal(index["unit"], groups)
    assert list(index["time"]) == [0, 2, 4, 0, 2]
    surface = surface_frame(np.zeros((X.shape[0], 2)), index)
    assert surface.index.isin(frame.index).all()


def test_make_windows_pd_multiindex_sorts_time_and_keeps_datetimes():
    frame = long_frame()
    frame["t"] = pd.Timestamp("2024-01-01") + pd.to_timedelta(frame["t"], unit="h")
    frame = frame.set_index(["unit", "t"])
    _, _, _, index = make_windows(
        frame, feature_cols=["a"], event_col="ev", context_length=2, layout="pd-multiindex", return_index=True
    )
    u1 = index[index["unit"] == "u1"]
    assert u1["time"].is_monotonic_increasing
    assert u1["time"].iloc[-1] == pd.Timestamp("2024-01-01 04:00")
    np.testing.assert_array_equal(u1["step"], np.arange(5))


@pytest.mark.parametrize(
    "frame, kwargs, error, fix",
    [
        (unit_arrays(), {}, TypeError, "layout='np-list'"),
        (unit_arrays(), {}, TypeError, "layout='time-first-list'"),
        (multiindex_frame(), {}, ValueError, "layout='pd-multiindex'"),
        (long_frame(), dict(layout="pd-multiindex"), ValueError, "layout='long'"),
        (long_frame(), dict(layout="np-list"), TypeError, "layout='long'"),
        (multiindex_frame(), dict(layout="time-first-list"), TypeError, "layout='pd-multiindex'"),
        (unit_arrays(), dict(layout="pd-multiindex"), TypeError, "layout='np-list'"),
    ],
)
def test_make_windows_refuses_input_of_another_layout(frame, kwargs, error, fix):
    columns = (
        dict(feature_cols=["a"], event_col="ev")
        if isinstance(frame, pd.DataFrame)
        else dict(feature_cols=[0], event_col=2)
    )
    with pytest.raises(error, match=fix):
        make_windows(frame, context_length=2, **columns, **kwargs)


def test_make_windows_pd_multiindex_refuses_unit_and_three_levels():
    with pytest.raises(ValueError, match="unit_col and time_col must be None"):
        make_windows(
            multiindex_frame(),
            feature_cols=["a"],
            event_col="ev",
            unit_col="unit",
            context_length=2,
            layout="pd-multiindex",
        )
    deep = long_frame().assign(site="x").set_index(["site", "unit", "t"])
    with pytest.raises(ValueError, match="3-level MultiIndex"):
        make_windows(deep, feature_cols=["a"], event_col="ev", context_length=2, layout="pd-multiindex")


def test_make_windows_np_list_names_channels_in_errors():
    with pytest.raises(ValueError, match=r"no channel\(s\) \[5\]"):
        make_windows(aeon_series(), feature_cols=[0, 5], event_col=1, context_length=2, layout="np-list")
    with pytest.raises(ValueError, match=r"\(n_channels, n_timepoints\)"):
        make_windows([np.zeros(4)], feature_cols=[0], event_col=0, context_length=2, layout="np-list")


@pytest.mark.parametrize("layout", ["wide", None, "np_list"])
def test_make_windows_unknown_layout(layout):
    with pytest.raises(ValueError, match="layout"):
        windows(layout=layout)


# --------------------------------------------------------------------------
# make_windows: the window index and surface_frame
# --------------------------------------------------------------------------


def test_make_windows_index_long_layout_maps_rows_back():
    frame = long_frame()
    frame.index = [f"r{i}" for i in range(len(frame))]
    X, _, groups, index = windows(frame, stride=2, return_index=True)
    assert list(index.columns) == ["unit", "step", "time", "row"]
    assert len(index) == X.shape[0]
    np.testing.assert_array_equal(frame.loc[index["row"], ["a", "b"]].to_numpy(np.float32), X[:, :, -1])
    np.testing.assert_array_equal(frame.loc[index["row"], "t"], index["time"])
    np.testing.assert_array_equal(index["unit"], groups)
    np.testing.assert_array_equal(index["step"], [0, 2, 4, 0, 2])


def test_make_windows_index_without_time_is_the_step():
    _, _, _, index = make_windows(
        unit_arrays(),
        feature_cols=[0],
        event_col=2,
        context_length=2,
        min_history=2,
        layout="time-first-list",
        return_index=True,
    )
    assert list(index.columns) == ["unit", "step", "time"]
    np.testing.assert_array_equal(index["step"], [1, 2, 3, 4, 1, 2])
    np.testing.assert_array_equal(index["time"], index["step"])


def test_make_windows_default_returns_three_arrays():
    assert len(windows()) == 3
    assert len(windows(return_index=False)) == 3


def test_surface_frame_wide_and_long():
    _, _, _, index = windows(return_index=True)
    P = np.linspace(0, 1, 8 * 3).reshape(8, 3)
    wide = surface_frame(P, index)
    assert wide.index.names == ["unit", "time"]
    assert list(wide.columns) == [1, 2, 3] and wide.columns.name == "horizon"
    assert wide.loc[("u1", 4), 2] == P[4, 1]
    assert wide.loc[("u2", 0), 3] == P[5, 2]
    long = surface_frame(P, index, form="long")
    assert long.index.names == ["unit", "time", "horizon"]
    assert list(long.columns) == ["probability"]
    assert long.shape == (24, 1)
    assert long.loc[("u2", 2, 1), "probability"] == P[7, 0]


def test_surface_frame_accepts_a_multiindex():
    keys = pd.MultiIndex.from_tuples([("a", 1), ("b", 1)])
    frame = surface_frame([[0.1], [0.2]], keys)
    assert frame.index.names == ["unit", "time"]
    assert frame.loc[("b", 1), 1] == 0.2


def test_surface_frame_errors():
    _, _, _, index = windows(return_index=True)
    with pytest.raises(ValueError, match="P has 3 rows but index has 8"):
        surface_frame(np.zeros((3, 2)), index)
    with pytest.raises(ValueError, match="no column"):
        surface_frame(np.zeros((8, 2)), index.drop(columns="time"))
    with pytest.raises(TypeError, match="return_index=True"):
        surface_frame(np.zeros((8, 2)), np.arange(8))
    with pytest.raises(ValueError, match="form"):
        surface_frame(np.zeros((8, 2)), index, form="tidy")


# --------------------------------------------------------------------------
# Survival targets
# --------------------------------------------------------------------------


def test_make_survival_y_round_trip():
    y = make_survival_y([1, 0, 1], [2, 5.5, 0])
    assert y.dtype.names == ("event", "time")
    event, time = check_survival_y(y, n_samples=3)
    np.testing.assert_array_equal(event, [True, False, True])
    np.testing.assert_array_equal(time, [2.0, 5.5, 0.0])
    assert event.dtype == bool and time.dtype == float


def test_make_survival_y_flattens_column_vectors():
    y = make_survival_y(np.array([[True], [False]]), np.array([[1], [2]]))
    assert y.shape == (2,)


def test_make_survival_y_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        make_survival_y([True, False], [1.0, 2.0, 3.0])


def test_check_survival_y_n_samples_mismatch():
    y = make_survival_y([True, False], [1.0, 2.0])
    with pytest.raises(ValueError, match="X has 3"):
        check_survival_y(y, n_samples=3)


def test_check_survival_y_accepts_foreign_field_order_and_int_time():
    y = np.array([(3, 1), (0, 0)], dtype=[("time", int), ("event", np.uint8)])
    event, time = check_survival_y(y)
    np.testing.assert_array_equal(event, [True, False])
    np.testing.assert_array_equal(time, [3.0, 0.0])


def test_check_survival_y_none():
    with pytest.raises(ValueError, match="required"):
        check_survival_y(None)


def test_check_survival_y_2d_structured():
    y = make_survival_y([True, False], [1.0, 2.0]).reshape(2, 1)
    with pytest.raises(ValueError, match="1-D"):
        check_survival_y(y)


# --------------------------------------------------------------------------
# label_surface
# --------------------------------------------------------------------------

Y_SMALL = make_survival_y([True, True, False, False, True], [1, 3, 2, 0, 5])


def test_label_surface_hand_computed():
    labels, known = label_surface(Y_SMALL, 4)
    assert labels.dtype == np.float32 and known.dtype == bool
    assert labels.shape == known.shape == (5, 4)
    np.testing.assert_array_equal(
        labels,
        [
            [1, 1, 1, 1],  # event at 1: positive from horizon 1 on
            [0, 0, 1, 1],  # event at 3
            [0, 0, 0, 0],  # censored at 2
            [0, 0, 0, 0],  # censored at 0
            [0, 0, 0, 0],  # event at 5 > K
        ],
    )
    np.testing.assert_array_equal(
        known,
        [
            [True, True, True, True],
            [True, True, True, True],
            [True, True, False, False],  # censored at 2: negative up to 2, then unknown
            [False, False, False, False],  # censored at 0: nothing is known
            [True, True, True, True],
        ],
    )


def test_label_surface_censored_exactly_at_horizon_is_known_negative():
    y = make_survival_y([False], [3])
    labels, known = label_surface(y, 5)
    np.testing.assert_array_equal(labels[0], [0, 0, 0, 0, 0])
    np.testing.assert_array_equal(known[0], [True, True, True, False, False])


def test_label_surface_event_at_time_zero_is_positive_everywhere():
    y = make_survival_y([True], [0])
    labels, known = label_surface(y, 3)
    np.testing.assert_array_equal(labels[0], [1, 1, 1])
    assert known.all()


def test_label_surface_fractional_times():
    y = make_survival_y([True, False], [1.5, 1.5])
    labels, known = label_surface(y, 3)
    np.testing.assert_array_equal(labels, [[0, 1, 1], [0, 0, 0]])
    np.testing.assert_array_equal(known, [[True, True, True], [True, False, False]])


def test_label_surface_from_make_windows():
    _, y, _ = windows()
    labels, known = label_surface(y, 2)
    # y times: u1 (T1, T2, T1, F1, F0), u2 (F2, F1, F0)
    np.testing.assert_array_equal(labels, [[1, 1], [0, 1], [1, 1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]])
    np.testing.assert_array_equal(known, [[1, 1], [1, 1], [1, 1], [1, 0], [0, 0], [1, 1], [1, 0], [0, 0]])


@pytest.mark.parametrize("K", [0, -1, 2.5, 3.0, "4", None])
def test_label_surface_bad_K(K):
    with pytest.raises(ValueError, match="K"):
        label_surface(Y_SMALL, K)


def test_label_surface_accepts_numpy_integer_K():
    labels, _ = label_surface(Y_SMALL, np.int64(2))
    assert labels.shape == (5, 2)


@pytest.mark.parametrize("y", [np.array([1.0, 2.0]), [1, 2], np.array([[True, 1.0], [False, 2.0]])])
def test_label_surface_unstructured_y(y):
    with pytest.raises(TypeError, match="structured"):
        label_surface(y, 2)


@pytest.mark.parametrize(
    "dtype",
    [
        [("event", bool), ("duration", float)],
        [("status", bool), ("time", float)],
        [("Status", bool), ("Survival_in_days", float)],
        [("fstat", bool), ("lenfol", int)],
    ],
)
def test_label_surface_reads_other_field_names_by_position(dtype):
    y = np.array([(True, 1.0), (False, 3.0)], dtype=dtype)
    labels, known = label_surface(y, 2)
    expected_labels, expected_known = label_surface(make_survival_y([True, False], [1.0, 3.0]), 2)
    np.testing.assert_array_equal(labels, expected_labels)
    np.testing.assert_array_equal(known, expected_known)


@pytest.mark.parametrize(
    "dtype, error, match",
    [
        ([("time", float), ("status", bool)], TypeError, "first field 'time' must be the boolean event"),
        ([("status", np.uint8), ("duration", float)], TypeError, "first field 'status'"),
        ([("status", bool), ("duration", "U3")], TypeError, "'duration'.*must be numeric"),
        ([("status", bool), ("duration", bool)], TypeError, "must be numeric"),
        ([("event", "U3"), ("time", float)], TypeError, "y\\['event'\\] must hold booleans or the numbers 0 and 1"),
        ([("event", bool), ("time", float), ("group", int)], ValueError, "exactly two fields, .* got 3"),
        ([("event", bool)], ValueError, "exactly two fields"),
        ([("event", bool), ("time", float, (2,))], ValueError, "one value per sample"),
    ],
    ids=[
        "time-first",
        "integer-by-position",
        "text-time",
        "bool-time",
        "text-event",
        "three-fields",
        "one-field",
        "subarray-time",
    ],
)
def test_check_survival_y_bad_fields_name_the_problem(dtype, error, match):
    with pytest.raises(error, match=match):
        check_survival_y(np.zeros(2, dtype=dtype))


def test_check_survival_y_named_integer_event_must_be_zero_or_one():
    y = np.array([(2, 1.0), (0, 3.0)], dtype=[("event", int), ("time", float)])
    with pytest.raises(ValueError, match="0 and 1 only \\(or False and True\\), found 2\\."):
        check_survival_y(y)


def test_check_survival_y_positional_errors_name_the_time_field():
    y = np.array([(True, -1.0), (False, 2.0)], dtype=[("Status", bool), ("Survival_in_days", float)])
    with pytest.raises(ValueError, match="y\\['Survival_in_days'\\] must be non-negative"):
        check_survival_y(y)


@pytest.mark.parametrize("bad_time, message", [(-1.0, "non-negative"), (nan, "NaN"), (np.inf, "NaN")])
def test_label_surface_bad_time(bad_time, message):
    y = make_survival_y([True, False], [1.0, bad_time])
    with pytest.raises(ValueError, match=message):
        label_surface(y, 2)


# --------------------------------------------------------------------------
# Property tests
# --------------------------------------------------------------------------


@st.composite
def unit_series(draw):
    n_units = draw(st.integers(1, 4))
    lengths = draw(st.lists(st.integers(1, 12), min_size=n_units, max_size=n_units))
    events = [draw(st.lists(st.booleans(), min_size=n, max_size=n)) for n in lengths]
    return lengths, events


def build_units(lengths, events):
    """One (T_i, 3) array per unit: two distinct features and the event flag."""
    arrays = []
    for uid, (n, ev) in enumerate(zip(lengths, events, strict=True)):
        step = np.arange(n, dtype=float)
        code = 100.0 * uid + step
        arrays.append(np.column_stack([code, -code - 0.5, np.asarray(ev, dtype=float)]))
    return arrays


@settings(max_examples=50, deadline=None)
@given(series=unit_series(), context_length=st.integers(1, 6), stride=st.integers(1, 5), min_history=st.integers(1, 6))
def test_make_windows_matches_reference(series, context_length, stride, min_history):
    lengths, events = series
    arrays = build_units(lengths, events)
    # Reference: window ends per unit, stepping back from the last step.
    reference = []
    for uid, (n, ev) in enumerate(zip(lengths, events, strict=True)):
        for t in range(n):
            if (n - 1 - t) % stride == 0 and t + 1 >= min_history:
                later = [s for s in range(t + 1, n) if ev[s]]
                label = (True, later[0] - t) if later else (False, n - 1 - t)
                reference.append((uid, t, n, label))
    kwargs = dict(
        feature_cols=[0, 1],
        event_col=2,
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        layout="time-first-list",
    )
    if not reference:
        with pytest.raises(ValueError):
            make_windows(arrays, **kwargs)
        return
    X, y, groups = make_windows(arrays, **kwargs)
    assert X.dtype == np.float32
    assert X.shape == (len(reference), 2, context_length)
    np.testing.assert_array_equal(groups, [uid for uid, _, _, _ in reference])
    for i, (uid, t, n, (event, time)) in enumerate(reference):
        # last column is the unit at the window's end step
        np.testing.assert_array_equal(X[i, :, -1], arrays[uid][t, :2])
        # observed steps = min(history, L), all on the right, in time order
        observed = np.isfinite(X[i, 0])
        n_obs = min(t + 1, context_length)
        assert observed.sum() == n_obs
        assert observed[context_length - n_obs :].all()
        np.testing.assert_array_equal(X[i, 0, context_length - n_obs :], arrays[uid][t - n_obs + 1 : t + 1, 0])
        assert y["event"][i] == event
        assert y["time"][i] == time
        if event:
            assert y["time"][i] >= 1
        assert y["time"][i] <= n - 1 - t
    # groups: each unit's windows end at its last step
    for uid, n in enumerate(lengths):
        if n >= min_history:
            last = np.flatnonzero(groups == uid)[-1]
            np.testing.assert_array_equal(X[last, :, -1], arrays[uid][n - 1, :2])


@settings(max_examples=50, deadline=None)
@given(
    records=st.lists(
        st.tuples(st.booleans(), st.integers(0, 12) | st.floats(0, 12, allow_nan=False)), min_size=1, max_size=30
    ),
    K=st.integers(1, 10),
)
def test_label_surface_monotone(records, K):
    event = [e for e, _ in records]
    time = [t for _, t in records]
    y = make_survival_y(event, time)
    labels, known = label_surface(y, K)
    assert set(np.unique(labels)) <= {0.0, 1.0}
    # once positive, a row stays positive at longer horizons
    assert np.all(np.diff(labels, axis=1) >= 0)
    # known cells only shrink along K, and only censored rows have unknown cells
    assert np.all(np.diff(known.astype(int), axis=1) <= 0)
    ev = np.asarray(event)
    assert known[ev].all()
    # positives are known; censored rows are never positive
    assert np.all(known[labels == 1])
    assert not labels[~ev].any()


@settings(max_examples=40, deadline=None)
@given(
    series=unit_series(),
    n_channels=st.integers(1, 3),
    context_length=st.integers(1, 5),
    stride=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_make_windows_layouts_agree(series, n_channels, context_length, stride, seed):
    """The same series in all four layouts gives the same windows, and the index finds each window's last step."""
    lengths, events = series
    rng = np.random.default_rng(seed)
    names = [f"unit-{i}" for i in rng.permutation(len(lengths))]
    steps = [rng.normal(size=(n, n_channels)) for n in lengths]
    rows = [np.column_stack([values, ev]) for values, ev in zip(steps, events, strict=True)]
    features, event = list(range(n_channels)), n_channels
    long = pd.concat(
        [
            pd.DataFrame({"unit": name, "t": np.arange(len(r)) * 10, **{c: r[:, c] for c in range(n_channels + 1)}})
            for name, r in zip(names, rows, strict=True)
        ],
        ignore_index=True,
    )
    # rows shuffled within each unit; the units keep their order of first appearance
    shuffled = long.groupby("unit", sort=False, group_keys=False).sample(frac=1.0, random_state=seed)
    common = dict(
        feature_cols=features, event_col=event, context_length=context_length, stride=stride, return_index=True
    )
    results = {
        "long": make_windows(shuffled, unit_col="unit", time_col="t", **common),
        "pd-multiindex": make_windows(shuffled.set_index(["unit", "t"]), layout="pd-multiindex", **common),
        "np-list": make_windows([r.T for r in rows], layout="np-list", **common),
        "time-first-list": make_windows(rows, layout="time-first-list", **common),
    }
    X, y, groups, index = results["time-first-list"]
    for layout, (X_l, y_l, _, index_l) in results.items():
        np.testing.assert_array_equal(X_l, X, err_msg=layout)
        np.testing.assert_array_equal(y_l, y, err_msg=layout)
        np.testing.assert_array_equal(index_l["step"], index["step"], err_msg=layout)
    # the frames name units by label and time by the "t" column, the lists by position
    for layout in ("long", "pd-multiindex"):
        _, _, g_l, index_l = results[layout]
        np.testing.assert_array_equal(g_l, np.asarray(names)[groups])
        np.testing.assert_array_equal(index_l["time"], index_l["step"] * 10)
    # through the index, each window's last column is the frame row at (unit, time)
    _, _, _, index_l = results["pd-multiindex"]
    by_key = long.set_index(["unit", "t"])
    last = by_key.loc[pd.MultiIndex.from_frame(index_l[["unit", "time"]]), features].to_numpy(np.float32)
    np.testing.assert_array_equal(results["pd-multiindex"][0][:, :, -1], last)
    for i, (uid, step) in enumerate(zip(groups, index["step"], strict=True)):
        np.testing.assert_array_equal(X[i, :, -1], steps[uid][step].astype(np.float32))
