"""Properties of the input checks on generated series: dtypes, NaN patterns, repeated keys, empty and one-step units,
mixed types.

Each input either reads one way, and then gives exactly the windows of its
plain form, or is refused with a TypeError or ValueError; none is read a
third way.
"""

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hepa_sklearn.surface import check_survival_y, make_survival_y
from hepa_sklearn.windows import make_windows

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def long_frames(draw, max_units=4, max_steps=8):
    """A long frame of numbered units with times 0..n-1 (shuffled), a feature with NaN and a boolean event."""
    lengths = draw(st.lists(st.integers(1, max_steps), min_size=1, max_size=max_units))
    rows = [(unit, step) for unit, n in enumerate(lengths) for step in range(n)]
    n = len(rows)
    values = draw(st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(np.nan)), min_size=n, max_size=n))
    events = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    order = draw(st.permutations(range(n)))
    frame = pd.DataFrame(
        {
            "unit": [rows[i][0] for i in order],
            "t": [rows[i][1] for i in order],
            "x": [values[i] for i in order],
            "event": [events[i] for i in order],
        }
    )
    return frame


def cut(frame, **params):
    return make_windows(
        frame,
        **{
            "feature_cols": ["x"],
            "event_col": "event",
            "unit_col": "unit",
            "time_col": "t",
            "context_length": 3,
            **params,
        },
    )


def same_windows(a, b):
    for left, right in zip(a, b, strict=True):
        np.testing.assert_array_equal(left, right)


def as_kind(events, kind):
    """The boolean ``events`` in the column ``kind`` stands for."""
    events = pd.Series(events)
    return {
        "bool": events,
        "int": events.astype(int),
        "float": events.astype(float),
        "nullable": events.astype("boolean"),
        "object": events.astype(object),
        "uint8": events.astype(np.uint8),
    }[kind]


@SETTINGS
@given(frame=long_frames(), kind=st.sampled_from(["bool", "int", "float", "nullable", "object", "uint8"]))
def test_event_columns_of_every_plain_dtype_give_the_boolean_windows(frame, kind):
    same_windows(cut(frame.assign(event=as_kind(frame["event"], kind))), cut(frame))


@SETTINGS
@given(
    frame=long_frames(),
    bad=st.sampled_from(["text", "count", "fraction", "mixed", "missing"]),
    where=st.integers(0, 1000),
)
def test_event_columns_that_do_not_read_one_way_are_refused(frame, bad, where):
    row = where % len(frame)
    events = frame["event"].astype(object)
    if bad == "text":
        events = events.map({True: "yes", False: "no"})
    elif bad == "count":
        events = events.astype(int)
        events[row] = 2
    elif bad == "fraction":
        events = events.astype(float)
        events[row] = 0.5
    elif bad == "mixed":
        events[row] = "1"
    else:
        events[row] = None
    try:
        cut(frame.assign(event=events))
    except (TypeError, ValueError) as exc:
        assert "event column 'event'" in str(exc)
    else:
        raise AssertionError(f"an event column of {bad} values was read")


@SETTINGS
@given(frame=long_frames(), seed=st.integers(0, 2**16))
def test_missing_values_stay_where_they_were(frame, seed):
    missing = np.random.default_rng(seed).random(len(frame)) < 0.3
    frame = frame.assign(x=frame["x"].mask(missing))
    X, _, _, index = cut(frame, return_index=True)
    np.testing.assert_array_equal(np.isnan(X[:, 0, -1]), frame.loc[index["row"], "x"].isna().to_numpy())
    for nullable in (frame["x"].astype("Float64"), frame["x"].astype(object).where(~missing, None)):
        same_windows(cut(frame.assign(x=nullable)), cut(frame))


@SETTINGS
@given(frame=long_frames(), repeats=st.lists(st.integers(0, 1000), max_size=3))
def test_repeated_unit_and_time_is_refused_exactly_when_present(frame, repeats):
    repeated = pd.concat([frame, frame.iloc[[r % len(frame) for r in repeats]]], ignore_index=True)
    if repeats:
        try:
            cut(repeated)
        except ValueError as exc:
            assert "share their (unit, time)" in str(exc)
        else:
            raise AssertionError("a repeated (unit, time) was windowed")
    else:
        # rows in time order within units kept in order of first appearance: the same series
        first = {unit: rank for rank, unit in enumerate(pd.unique(frame["unit"]))}
        ordered = frame.iloc[np.lexsort((frame["t"], frame["unit"].map(first)))]
        same_windows(cut(repeated), cut(ordered))


@SETTINGS
@given(
    lengths=st.lists(st.integers(0, 6), min_size=1, max_size=6),
    min_history=st.integers(1, 3),
    layout=st.sampled_from(["np-list", "time-first-list"]),
)
def test_empty_and_one_step_units_are_units_like_any_other(lengths, min_history, layout):
    series = [np.vstack([np.arange(n, dtype=float), np.zeros(n)]) for n in lengths]
    frames = series if layout == "np-list" else [unit.T for unit in series]
    long_units = [n for n in lengths if n >= min_history]
    try:
        X, y, groups = make_windows(
            frames, feature_cols=[0], event_col=1, context_length=2, min_history=min_history, layout=layout
        )
    except ValueError as exc:
        assert not long_units and "min_history" in str(exc)
        return
    assert X.shape[0] == sum(n - min_history + 1 for n in long_units)
    assert sorted(set(groups)) == [i for i, n in enumerate(lengths) if n >= min_history]
    assert not y["event"].any()


mixed_values = st.one_of(st.integers(-3, 3), st.floats(allow_nan=True), st.text(max_size=2), st.none(), st.booleans())


@SETTINGS
@given(frame=long_frames(), column=st.sampled_from(["unit", "t", "x", "event"]), data=st.data())
def test_object_columns_of_mixed_values_are_read_one_way_or_refused(frame, column, data):
    values = data.draw(st.lists(mixed_values, min_size=len(frame), max_size=len(frame)))
    mixed = frame.assign(**{column: pd.Series(values, dtype=object, index=frame.index)})
    try:
        X, y, groups = cut(mixed)
    except (TypeError, ValueError):
        return
    # what was read must be read as its plain form would be
    kinds = {type(v) for v in values if v is not None and not (isinstance(v, float) and np.isnan(v))}
    assert str not in kinds or column == "unit"
    assert X.dtype == np.float32 and not np.isinf(X).any()
    assert y.shape == groups.shape == (X.shape[0],)


@SETTINGS
@given(event=st.lists(st.booleans(), min_size=1, max_size=20), data=st.data())
def test_y_reads_the_same_as_a_frame_a_structured_array_and_from_integers(event, data):
    time = data.draw(st.lists(st.floats(0, 1e3), min_size=len(event), max_size=len(event)))
    y = make_survival_y(event, time)
    for form in (
        pd.DataFrame(y),
        pd.DataFrame({"event": np.asarray(event, int), "time": time}),
        pd.DataFrame({"time": time, "event": event}),
        make_survival_y(np.asarray(event, float), time),
    ):
        for got, expected in zip(check_survival_y(form), check_survival_y(y), strict=True):
            np.testing.assert_array_equal(got, expected)
