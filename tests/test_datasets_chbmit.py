"""load_chbmit on small files written in CHB-MIT's published layout (EDF recordings and a summary per patient)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn.datasets import fetch_chbmit, load_chbmit
from hepa_sklearn.datasets._chbmit import FEATURES, read_edf, read_summary

RATE = 256
# CHB-MIT's files hold more derivations than the 18 read, in another order, with T8-P8 twice
LABELS = [
    "FP1-F7",
    "F7-T7",
    "T7-P7",
    "P7-O1",
    "FP1-F3",
    "F3-C3",
    "C3-P3",
    "P3-O1",
    "FP2-F4",
    "F4-C4",
    "C4-P4",
    "P4-O2",
    "FP2-F8",
    "F8-T8",
    "T8-P8",
    "P8-O2",
    "FZ-CZ",
    "CZ-PZ",
    "P7-T7",
    "T7-FT9",
    "FT9-FT10",
    "FT10-T8",
    "T8-P8",
]


def write_edf(path, digital, labels, rate=RATE, physical=(-800.0, 800.0), digits=(-2048, 2047)):
    """An EDF file (version 0) of one-second records from ``digital`` (n_samples, n_signals) int16."""
    n_samples, n = digital.shape
    n_records = n_samples // rate

    def fixed(values, width):
        return b"".join(str(v).ljust(width)[:width].encode("ascii") for v in values)

    head = (
        fixed(["0"], 8)
        + fixed(["patient"], 80)
        + fixed(["recording"], 80)
        + fixed(["01.01.01"], 8)
        + fixed(["00.00.00"], 8)
        + fixed([256 * (n + 1)], 8)
        + fixed([""], 44)
        + fixed([n_records], 8)
        + fixed(["1"], 8)
        + fixed([n], 4)
    )
    signals = (
        fixed(labels, 16)
        + fixed([""] * n, 80)
        + fixed(["uV"] * n, 8)
        + fixed([physical[0]] * n, 8)
        + fixed([physical[1]] * n, 8)
        + fixed([digits[0]] * n, 8)
        + fixed([digits[1]] * n, 8)
        + fixed([""] * n, 80)
        + fixed([rate] * n, 8)
        + fixed([""] * n, 32)
    )
    records = digital[: n_records * rate].reshape(n_records, rate, n).transpose(0, 2, 1)
    path.write_bytes(head + signals + records.astype("<i2").tobytes())


def to_physical(digital, physical=(-800.0, 800.0), digits=(-2048, 2047)):
    return (digital - digits[0]) * (physical[1] - physical[0]) / (digits[1] - digits[0]) + physical[0]


SUMMARY = """Data Sampling Rate: 256 Hz
*************************

Channels in EDF Files:
**********************
Channel 1: FP1-F7
Channel 2: F7-T7

File Name: {p}_01.edf
File Start Time: 11:42:54
File End Time: 11:43:54
Number of Seizures in File: 0

File Name: {p}_02.edf
File Start Time: 11:44:00
File End Time: 11:45:00
Number of Seizures in File: 2
Seizure 1 Start Time: 10 seconds
Seizure 1 End Time: 14 seconds
Seizure 2 Start Time: 40 seconds
Seizure 2 End Time: 41 seconds

File Name: {p}_03.edf
File Start Time: 11:46:00
File End Time: 11:47:00
Number of Seizures in File: 1
Seizure Start Time: 30 seconds
Seizure End Time: 35 seconds
"""


@pytest.fixture
def home(tmp_path):
    """Two patients of three one-minute files each, in the published folder layout."""
    rng = np.random.default_rng(0)
    signals = {}
    for patient in ("chb01", "chb02"):
        folder = tmp_path / "CHBMIT" / patient
        folder.mkdir(parents=True)
        (folder / f"{patient}-summary.txt").write_text(SUMMARY.format(p=patient))
        for i in (1, 2, 3):
            digital = rng.integers(-2048, 2048, size=(60 * RATE, len(LABELS))).astype(np.int16)
            write_edf(folder / f"{patient}_0{i}.edf", digital, LABELS)
            signals[f"{patient}_0{i}"] = digital
    return tmp_path, signals


def test_read_edf_picks_the_channels_by_label_and_averages_blocks(home):
    tmp_path, signals = home
    values, rate = read_edf(tmp_path / "CHBMIT/chb01/chb01_02.edf", ["CZ-PZ", "t8-p8", "FP1-F7"], 16)
    digital = signals["chb01_02"][:, [17, 14, 0]]  # T8-P8 read from its first signal
    assert rate == 256 and values.shape == (60 * 16, 3)
    np.testing.assert_allclose(values, to_physical(digital).reshape(-1, 16, 3).mean(axis=1))
    with pytest.raises(ValueError, match=r"lacks the channel\(s\) \['O9-O10'\]"):
        read_edf(tmp_path / "CHBMIT/chb01/chb01_02.edf", ["O9-O10"], 16)


def test_read_edf_refuses_a_file_cut_short_and_one_that_is_not_edf(home, tmp_path):
    path = tmp_path / "CHBMIT/chb01/chb01_01.edf"
    (tmp_path / "short.edf").write_bytes(path.read_bytes()[:-100])
    with pytest.raises(ValueError, match="cut short"):
        read_edf(tmp_path / "short.edf", ["FP1-F7"], 1)
    (tmp_path / "text.edf").write_bytes(b"x" * 300)
    with pytest.raises(ValueError, match="EDF header"):
        read_edf(tmp_path / "text.edf", ["FP1-F7"], 1)


def test_read_summary_pairs_numbered_and_plain_seizure_lines(home):
    tmp_path, _ = home
    assert read_summary(tmp_path / "CHBMIT/chb01/chb01-summary.txt") == {
        "chb01_01.edf": [],
        "chb01_02.edf": [(10, 14), (40, 41)],
        "chb01_03.edf": [(30, 35)],
    }
    bad = tmp_path / "bad-summary.txt"
    bad.write_text("File Name: x.edf\nSeizure Start Time: 10 seconds\n")
    with pytest.raises(ValueError, match="do not pair up"):
        read_summary(bad)


def test_seizures_label_the_blocks_and_onsets_are_events(home):
    tmp_path, signals = home
    data = load_chbmit(data_home=tmp_path, sampling_rate=4, context_length=32, stride=8, min_history=8)
    frame = data.frame
    assert list(frame.columns[:3]) == ["unit", "step", "patient"] and tuple(frame.columns[3:21]) == FEATURES
    assert data.X.shape[1:] == (18, 32)
    file2 = frame[frame["unit"] == "chb01_02"]
    assert len(file2) == 60 * 4
    np.testing.assert_array_equal(np.flatnonzero(file2["label"]), np.r_[40:56, 160:164])  # seconds x 4
    np.testing.assert_array_equal(np.flatnonzero(file2["event"]), [40, 160])
    assert not frame.loc[frame["unit"] == "chb01_01", "label"].any()
    np.testing.assert_allclose(
        file2[list(FEATURES)].to_numpy(), to_physical(signals["chb01_02"][:, :18]).reshape(-1, 64, 18).mean(axis=1)
    )


def test_files_split_whole_with_seizure_files_in_their_own_share(home):
    tmp_path, _ = home
    kwargs = dict(
        data_home=tmp_path, patients=["chb01", "chb02"], sampling_rate=4, context_length=32, stride=8, min_history=8
    )
    splits = load_chbmit(**kwargs).splits
    assert set(splits["unit"]) == {f"chb0{p}_0{i}" for p in (1, 2) for i in (1, 2, 3)}
    assert (splits.groupby("unit")["split"].nunique() == 1).all()  # each file whole
    part = splits.set_index("unit")["split"]
    seizure_files = [f"chb0{p}_0{i}" for p in (1, 2) for i in (2, 3)]
    # 4 files: 10 % and 30 % rounded, one at least in valid and test
    assert sorted(part[seizure_files]) == ["test", "train", "train", "valid"]
    assert sorted(part.drop(seizure_files)) == ["test", "train"]  # 2 files: 60/10/30 rounded
    again = load_chbmit(**kwargs).splits
    assert again.equals(splits)
    other = load_chbmit(**kwargs, random_state=3).splits.set_index("unit")["split"]
    assert not other.equals(part)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"patients": ["patient1"]}, "patients must name CHB-MIT patient folders"),
        ({"patients": []}, "patients must name CHB-MIT patient folders"),
        ({"sampling_rate": 0}, "sampling_rate must be a positive integer"),
        ({"sampling_rate": 5}, "sampling_rate=5 does not divide"),
    ],
)
def test_bad_parameters_are_refused(home, params, message):
    tmp_path, _ = home
    with pytest.raises(ValueError, match=message):
        load_chbmit(data_home=tmp_path, **params)


def test_missing_files_say_where_to_put_them_and_nothing_is_downloaded(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"chb03-summary.txt not found .*fetch_chbmit"):
        load_chbmit(data_home=tmp_path, patients="chb03")
    with pytest.raises(FileNotFoundError, match="download_if_missing=False"):
        fetch_chbmit(data_home=tmp_path, patients="chb03", download_if_missing=False)


def test_fetch_uses_the_files_present_when_their_checksums_are_listed(home):
    tmp_path, _ = home
    lines = [f"{'0' * 64}  chb01/chb01-summary.txt"] + [f"{'0' * 64}  chb01/chb01_0{i}.edf" for i in (1, 2, 3)]
    (tmp_path / "CHBMIT" / "SHA256SUMS.txt").write_text("\n".join(lines) + "\n")
    data = fetch_chbmit(
        data_home=tmp_path, download_if_missing=False, sampling_rate=4, context_length=32, stride=8, min_history=8
    )
    assert set(data.frame["unit"]) == {"chb01_01", "chb01_02", "chb01_03"}
    with pytest.raises(ValueError, match="lists no chb05/chb05-summary.txt"):
        fetch_chbmit(data_home=tmp_path, patients="chb05", download_if_missing=False)


@settings(max_examples=25, deadline=None)
@given(
    n_signals=st.integers(1, 4),
    n_records=st.integers(1, 3),
    rate=st.sampled_from([4, 8, 16]),
    factor=st.sampled_from([1, 2, 4]),
    low=st.floats(-1000, -1),
    span=st.floats(1, 2000),
    seed=st.integers(0, 99),
)
def test_read_edf_converts_any_file_to_physical_block_means(
    tmp_path_factory, n_signals, n_records, rate, factor, low, span, seed
):
    digital = np.random.default_rng(seed).integers(-32768, 32768, size=(n_records * rate, n_signals)).astype(np.int16)
    labels = [f"S{i}" for i in range(n_signals)]
    physical, digits = (round(low, 3), round(low + span, 3)), (-32768, 32767)
    path = tmp_path_factory.mktemp("edf") / "x.edf"
    write_edf(path, digital, labels, rate=rate, physical=physical, digits=digits)
    picks = labels[::-1]
    values, found_rate = read_edf(path, picks, factor)
    expected = to_physical(digital[:, ::-1].astype(np.float64), physical, digits)
    n_blocks = len(expected) // factor
    assert found_rate == rate and values.shape == (n_blocks, n_signals)
    np.testing.assert_allclose(
        values, expected[: n_blocks * factor].reshape(n_blocks, factor, -1).mean(axis=1), rtol=1e-9, atol=1e-9
    )


_SIGNAL_FIELD_WIDTHS = (16, 80, 8, 8, 8, 8, 8, 80, 8, 32)


def _damaged_edf(path, field, text, signal=None, n_signals=2):
    """A two-signal EDF file with the header ``field`` (an offset in the fixed header, or a signal field's index)
    of ``signal`` replaced by ``text``."""
    digital = np.random.default_rng(0).integers(-2048, 2047, size=(4 * RATE, n_signals)).astype(np.int16)
    write_edf(path, digital, ["FP1-F7", "F7-T7"])
    data = bytearray(path.read_bytes())
    if signal is None:
        start, width = field
    else:
        width = _SIGNAL_FIELD_WIDTHS[field]
        start = 256 + n_signals * sum(_SIGNAL_FIELD_WIDTHS[:field]) + signal * width
    data[start : start + width] = text.ljust(width).encode("ascii")
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    "field, text, signal, message",
    [
        ((252, 4), "ab", None, r"field 'number of signals' holds 'ab', not an integer"),
        ((252, 4), "0", None, r"field 'number of signals' holds '0', not an integer of at least 1"),
        ((184, 8), "x1", None, r"field 'number of bytes in header' holds 'x1'"),
        ((184, 8), "1024", None, r"announces 1024 header bytes for 2 signals \(256 x 3 expected\)"),
        ((236, 8), "many", None, r"field 'number of data records' holds 'many'"),
        ((236, 8), "0", None, r"announces 768 header bytes for 2 signals .*0 data records"),
        ((244, 8), "0", None, r"data records of 0 s"),
        ((244, 8), "nan", None, r"field 'duration of a data record' holds 'nan', not a number"),
        ((244, 8), "-1", None, r"field 'duration of a data record' holds '-1', not a number of at least 0"),
        (3, "low", 0, r"field 'physical minimum' of signal FP1-F7 holds 'low', not a number"),
        (5, "2047", 1, r"signal\(s\) \['F7-T7'\] an empty physical or digital range"),
        (3, "800", 0, r"signal\(s\) \['FP1-F7'\] an empty physical or digital range"),
        (8, "0", 0, r"signal\(s\) \['FP1-F7'\] .*no sample per record"),
        (8, "2.5", 1, r"'number of samples in each data record' of signal F7-T7 holds '2.5', not an integer"),
    ],
)
def test_read_edf_names_the_file_and_the_field_of_a_damaged_header(tmp_path, field, text, signal, message):
    path = _damaged_edf(tmp_path / "damaged.edf", field, text, signal)
    with pytest.raises(ValueError, match=rf"damaged.edf: .*{message}"):
        read_edf(path, ["FP1-F7", "F7-T7"], 1)


def test_read_edf_refuses_a_header_cut_short(tmp_path):
    path = _damaged_edf(tmp_path / "short.edf", (252, 4), "2")
    path.write_bytes(path.read_bytes()[:400])
    with pytest.raises(ValueError, match=r"short.edf: the EDF header of 2 signals is cut short"):
        read_edf(path, ["FP1-F7"], 1)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ValueError, match=r"short.edf does not start with an EDF header"):
        read_edf(path, ["FP1-F7"], 1)
