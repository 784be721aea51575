"""A reader of EDF recordings (European Data Format): the header checked field by field, chosen signals in physical
units.

CHB-MIT's recordings are EDF files (:mod:`._chbmit`). Only what they need
is read: 16-bit samples, one common sampling rate of the chosen signals.
"""

from pathlib import Path

import numpy as np

__all__ = ["edf_header", "read_edf"]


def _field(block, widths, index, n):
    """Field ``index`` of the EDF signal header ``block`` for ``n`` signals, as stripped strings."""
    start = n * sum(widths[:index])
    width = widths[index]
    return [block[start + i * width : start + (i + 1) * width].decode("ascii", "replace").strip() for i in range(n)]


_SIGNAL_WIDTHS = (16, 80, 8, 8, 8, 8, 8, 80, 8, 32)  # label, transducer, unit, pmin, pmax, dmin, dmax, filter, n, -


def _header_number(path, text, field, kind=int, *, low=None):
    """The EDF header ``field`` of ``path`` read from ``text`` as ``kind``; ValueError naming both when it is not one.

    ``low``: the least value allowed (finite and above it for floats).
    """
    text = text.decode("ascii", "replace").strip() if isinstance(text, bytes) else text
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not np.isfinite(value) or (low is not None and value < low):
        wanted = "an integer" if kind is int else "a number"
        raise ValueError(
            f"{path}: the EDF header field {field} holds {text!r}, not {wanted}"
            + ("" if low is None else f" of at least {low}")
            + "; is the file damaged, or not EDF?"
        )
    return value


def edf_header(path, channels):
    """From the header of the EDF file at ``path``: header bytes, records, samples per record of each signal,
    the physical/digital bounds, the common sampling rate of ``channels`` and their signal indices.

    Every field read is checked: a damaged header raises a ValueError naming the file and the field."""
    with open(path, "rb") as handle:
        head = handle.read(256)
        if len(head) < 256 or not head[:8].strip().isdigit():
            raise ValueError(f"{path} does not start with an EDF header (256 bytes, version '0'); is it an EDF file?")
        n_signals = _header_number(path, head[252:256], "'number of signals'", low=1)
        n_header = _header_number(path, head[184:192], "'number of bytes in header'", low=256)
        n_records = _header_number(path, head[236:244], "'number of data records'", low=-1)
        duration = _header_number(path, head[244:252], "'duration of a data record'", float, low=0)
        if n_header != 256 * (n_signals + 1) or n_records == 0 or duration == 0:
            raise ValueError(
                f"{path}: the EDF header announces {n_header} header bytes for {n_signals} signals "
                f"(256 x {n_signals + 1} expected), {n_records} data records of {duration:g} s; "
                "is the file damaged, or not EDF?"
            )
        block = handle.read(256 * n_signals)
    if len(block) < 256 * n_signals:
        raise ValueError(f"{path}: the EDF header of {n_signals} signals is cut short; the file is damaged.")
    labels = [label.upper() for label in _field(block, _SIGNAL_WIDTHS, 0, n_signals)]
    missing = [name for name in channels if name.upper() not in labels]
    if missing:
        raise ValueError(f"{path} lacks the channel(s) {missing}; it holds {labels}.")
    picks = [labels.index(name.upper()) for name in channels]
    names = ("physical minimum", "physical maximum", "digital minimum", "digital maximum")
    numbers = [
        np.array(
            [
                _header_number(path, text, f"'{name}' of signal {labels[i]}", float) if i in picks else np.nan
                for i, text in enumerate(_field(block, _SIGNAL_WIDTHS, 3 + k, n_signals))
            ]
        )
        for k, name in enumerate(names)
    ]
    samples = np.array(
        [
            _header_number(path, text, f"'number of samples in each data record' of signal {labels[i]}", low=0)
            for i, text in enumerate(_field(block, _SIGNAL_WIDTHS, 8, n_signals))
        ]
    )
    flat = [
        labels[i] for i in picks if numbers[0][i] == numbers[1][i] or numbers[2][i] == numbers[3][i] or samples[i] == 0
    ]
    if flat:
        raise ValueError(
            f"{path}: the EDF header gives the signal(s) {flat} an empty physical or digital range "
            "(minimum = maximum) or no sample per record, so they cannot be read; is the file damaged?"
        )
    rates = set(samples[picks] / duration)
    if len(rates) != 1:
        raise ValueError(f"{path}: the channels {list(channels)} are sampled at different rates {sorted(rates)}.")
    return n_header, n_records, samples, numbers, rates.pop(), picks


def read_edf(path, channels, factor):
    """The ``channels`` of the EDF file at ``path`` in physical units, averaged over blocks of ``factor`` samples.

    Returns (n_blocks, len(channels)) float64 and the file's sampling rate
    in Hz. A label found twice (CHB-MIT repeats ``T8-P8``) is read from its
    first signal; labels are compared without case.
    """
    path = Path(path)
    n_header, n_records, samples, numbers, rate, picks = edf_header(path, channels)
    data = np.fromfile(path, dtype="<i2", offset=n_header)
    if n_records < 0:  # -1: unknown when the file was written
        n_records = data.size // samples.sum()
    if data.size < n_records * samples.sum():
        raise ValueError(
            f"{path} holds {data.size} samples, its header announces {n_records * samples.sum()}: "
            "the file is cut short."
        )
    records = data[: n_records * samples.sum()].reshape(n_records, samples.sum())
    offsets = np.concatenate([[0], np.cumsum(samples)])
    p_min, p_max, d_min, d_max = (values[picks] for values in numbers)
    digital = np.stack([records[:, offsets[i] : offsets[i + 1]].reshape(-1) for i in picks], axis=1)
    physical = (digital - d_min) * (p_max - p_min) / (d_max - d_min) + p_min
    n_blocks = physical.shape[0] // factor
    return physical[: n_blocks * factor].reshape(n_blocks, factor, -1).mean(axis=1), float(rate)
