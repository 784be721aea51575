"""Bounded fuzzing of the two readers of outside data: ``make_windows`` on arbitrary columns, ``load`` on damaged files.

Each raises only TypeError or ValueError on what it cannot read, and what
it reads is what was meant: windows of finite-or-NaN float32 with one label
per window, or the very model that was saved.
"""

import datetime
import io
import struct
import zipfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.windows import make_windows

FUZZ = settings(
    max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)

cells = st.one_of(
    st.integers(-2, 3),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.binary(max_size=2),
    st.datetimes(min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2001, 1, 1)),
    st.just(pd.NA),
    st.just(np.nan),
    st.just(np.inf),
)


@st.composite
def columns(draw, n):
    """A column of ``n`` values: one numpy dtype, or an object column of arbitrary cells."""
    kind = draw(st.sampled_from(["int", "float", "bool", "object"]))
    if kind == "int":
        return np.asarray(draw(st.lists(st.integers(-2, 3), min_size=n, max_size=n)), dtype=np.int64)
    if kind == "float":
        return np.asarray(draw(st.lists(st.floats(), min_size=n, max_size=n)), dtype=np.float64)
    if kind == "bool":
        return np.asarray(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return pd.Series(draw(st.lists(cells, min_size=n, max_size=n)), dtype=object).to_numpy()


@st.composite
def inputs(draw):
    n = draw(st.integers(0, 12))
    frame = pd.DataFrame({name: draw(columns(n)) for name in ("unit", "t", "x", "y", "event")})
    layout = draw(st.sampled_from(["long", "pd-multiindex", "np-list", "time-first-list"]))
    params = {
        "context_length": draw(st.integers(1, 4)),
        "stride": draw(st.integers(1, 3)),
        "min_history": draw(st.integers(1, 3)),
        "layout": layout,
    }
    if layout == "long":
        params.update(
            feature_cols=["x", "y"],
            event_col="event",
            unit_col=draw(st.sampled_from(["unit", None])),
            time_col=draw(st.sampled_from(["t", None])),
        )
        return frame, params
    if layout == "pd-multiindex":
        return frame.set_index(["unit", "t"]), {**params, "feature_cols": ["x", "y"], "event_col": "event"}
    values = frame[["x", "y", "event"]].to_numpy()
    split = draw(st.integers(0, n))
    parts = [values[:split], values[split:]]
    series = [part.T for part in parts] if layout == "np-list" else parts
    return series, {**params, "feature_cols": [0, 1], "event_col": 2}


@FUZZ
@given(case=inputs())
def test_make_windows_reads_or_refuses_any_columns(case):
    frame, params = case
    try:
        X, y, groups = make_windows(frame, **params)
    except (TypeError, ValueError):
        return
    assert X.dtype == np.float32 and X.shape[1:] == (2, params["context_length"])
    assert not np.isinf(X).any()
    assert y.shape == groups.shape == (X.shape[0],) and X.shape[0] > 0
    assert np.isfinite(y["time"]).all() and (y["time"] >= 0).all()


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A small fitted event model, its file's bytes, and the embeddings to compare outputs on."""
    rng = np.random.default_rng(0)
    E = rng.normal(size=(40, 4)).astype(np.float32)
    y = make_survival_y(rng.random(40) < 0.7, rng.integers(1, 8, 40))
    model = HEPAEventPredictor(K=4, hidden=4, max_epochs=1, batch_size=16, early_stopping=False, random_state=0).fit(
        E, y
    )
    path = tmp_path_factory.mktemp("saved") / "model.pt"
    save(model, path)
    return path.read_bytes(), E, model.predict_proba(E), path.parent


def check_damaged(data, saved):
    _, E, expected, folder = saved
    path = folder / "damaged.pt"
    path.write_bytes(data)
    try:
        loaded = load(path)
    except ValueError as exc:
        assert str(path) in str(exc)
        return
    # damage to bytes that nothing reads (zip header fields, padding) leaves the same model
    np.testing.assert_array_equal(loaded.predict_proba(E), expected)


@FUZZ
@given(data=st.data())
def test_load_of_a_truncated_file_is_a_value_error(saved, data):
    original = saved[0]
    check_damaged(original[: data.draw(st.integers(0, len(original) - 1))], saved)


@FUZZ
@given(data=st.data())
def test_load_of_a_file_with_flipped_bits_is_a_value_error_or_the_same_model(saved, data):
    damaged = bytearray(saved[0])
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(damaged) - 1), st.integers(0, 7)), min_size=1, max_size=4))
    for position, bit in flips:
        damaged[position] ^= 1 << bit
    check_damaged(bytes(damaged), saved)


def test_any_changed_weight_is_refused(saved):
    # torch's reader does not check the stored CRCs: the digest is what finds altered tensor bytes
    original, _, _, folder = saved
    records = [info for info in zipfile.ZipFile(io.BytesIO(original)).infolist() if "/data/" in info.filename]
    assert records
    for info in records:
        header = info.header_offset
        name_length, extra_length = struct.unpack("<HH", original[header + 26 : header + 30])
        start = header + 30 + name_length + extra_length
        for position in (start, start + info.file_size - 1):
            damaged = bytearray(original)
            damaged[position] ^= 0x01
            (folder / "changed.pt").write_bytes(bytes(damaged))
            with pytest.raises(ValueError, match="differs from the digest it was saved with"):
                load(folder / "changed.pt")
