"""Input checks and parameter constraints shared by the estimators and functions, with messages that name the problem.

Parameter constraints are declared in scikit-learn's vocabulary (``Interval``,
``StrOptions``, ``validate_params``); this module is the one place that
imports them, so a change in scikit-learn touches one file.
"""

import inspect
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
import scipy.sparse
import torch
from sklearn.utils._param_validation import HasMethods, Hidden, Interval, StrOptions, validate_params

from .nn.encoder import NORM_MODES

__all__ = [
    "DEPRECATED",
    "Count",
    "HasMethods",
    "Hidden",
    "Interval",
    "StrOptions",
    "validate_params",
    "POSITIVE_INT",
    "POSITIVE_REAL",
    "NON_NEGATIVE_REAL",
    "OPEN_UNIT",
    "UNIT",
    "NON_NEGATIVE_INT",
    "ENCODER_CONSTRAINTS",
    "WindowSurfaceTags",
    "WindowTransformerTags",
    "as_three_d",
    "refuse_frame_as_windows",
    "check_windows",
    "check_embeddings",
    "check_groups",
    "check_encoder_heads",
    "check_heads",
    "check_renamed_parameters",
    "default_parameters",
    "given",
    "renamed_from",
    "check_event_indicator",
    "real_numbers",
    "row_chunks",
    "some_values",
    "window_surface_tags",
    "window_transformer_tags",
]


class Count(Interval):
    """An integer interval that, unlike scikit-learn's ``Interval(Integral, ...)``, refuses booleans.

    ``True`` passed as a window length or a layer count is a mistake, not 1.
    """

    def __init__(self, left, right=None):
        super().__init__(Integral, left, right, closed="both" if right is not None else "left")

    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


# The constraints most parameters use: an integer >= 1 (or >= 0), a real > 0,
# a real >= 0, a fraction in (0, 1) and a weight in [0, 1].
POSITIVE_INT = Count(1)
NON_NEGATIVE_INT = Count(0)
POSITIVE_REAL = Interval(Real, 0, None, closed="neither")
NON_NEGATIVE_REAL = Interval(Real, 0, None, closed="left")
OPEN_UNIT = Interval(Real, 0, 1, closed="neither")
UNIT = Interval(Real, 0, 1, closed="both")

# The encoder parameters that HEPA, MAE and the supervised baseline encoders
# share (an encoder without patches leaves ``patch_size`` out); see check_heads.
ENCODER_CONSTRAINTS = {
    "d_model": [POSITIVE_INT],
    "n_layers": [POSITIVE_INT],
    "n_heads": [POSITIVE_INT],
    "patch_size": [POSITIVE_INT],
    "dropout": [Interval(Real, 0, 1, closed="left")],
    "norm": [StrOptions(set(NORM_MODES))],
}


def check_heads(d_model, n_heads):
    """ValueError unless ``n_heads`` divides ``d_model`` (each head gets ``d_model / n_heads`` dimensions)."""
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} must be divisible by n_heads={n_heads}.")


def check_encoder_heads(estimator):
    """:func:`check_heads` of an encoder estimator's parameters: one of its ``_parameter_checks``."""
    check_heads(estimator.d_model, estimator.n_heads)


# The default of a renamed parameter's former name, kept in ``__init__`` until it is removed: not given.
DEPRECATED = "deprecated"


def renamed_from(constraints):
    """The constraints of a parameter's former name: those of its current name, and the default DEPRECATED."""
    return [*constraints, Hidden(StrOptions({DEPRECATED}))]


def given(value):
    """Whether a parameter's former name was given a value (its default is DEPRECATED)."""
    return not (isinstance(value, str) and value == DEPRECATED)


def default_parameters(cls):
    """``{name: default}`` of the parameters of ``cls.__init__`` that have a default."""
    signature = inspect.signature(cls.__init__)
    return {name: p.default for name, p in signature.parameters.items() if p.default is not p.empty}


def check_renamed_parameters(estimator):
    """A FutureWarning for each former parameter name given; ValueError where the current name is given too.

    ``estimator._renamed_parameters`` maps each former name to ``(current
    name, release that renamed it, release that removes it)``; the current
    name counts as given where it differs from its default. One of the
    checks of every torch estimator's ``fit``.
    """
    defaults = default_parameters(type(estimator))
    for former, (current, renamed, removed) in estimator._renamed_parameters.items():
        value = getattr(estimator, former)
        if not given(value):
            continue
        if getattr(estimator, current) != defaults[current]:
            raise ValueError(
                f"{former}={value!r} and {current}={getattr(estimator, current)!r} were both given: "
                f"{former} was renamed {current} in {renamed}; pass {current} alone."
            )
        warnings.warn(
            f"{former} was renamed {current} in {renamed} and will be removed in {removed}: pass "
            f"{current}={value!r} instead.",
            FutureWarning,
            stacklevel=5,
        )


def as_three_d(X):
    """Windows as (n_windows, n_channels, n_timepoints): 2-D input is one channel; other ranks raise."""
    if X.ndim == 2:
        X = X[:, None, :]
    if X.ndim != 3:
        raise ValueError(
            f"X must be 3-D (n_windows, n_channels, n_timepoints) or 2-D (n_windows, n_timepoints), "
            f"got {X.ndim}-D with shape {X.shape}."
        )
    return X


def refuse_frame_as_windows(X):
    """Raise TypeError for a DataFrame passed as windows: its layout cannot be told from its shape.

    A 2-D frame may hold one window per row (columns = time steps) or one
    time step per row (columns = channels), and a MultiIndex frame holds
    whole series; reading either as windows would drop its labels and
    could transpose it.
    """
    if not isinstance(X, pd.DataFrame):
        return
    if isinstance(X.index, pd.MultiIndex):
        raise TypeError(
            f"X is a DataFrame indexed by a {X.index.nlevels}-level MultiIndex: series in the "
            "'pd-multiindex' layout of sktime and aeon, not windows. Cut them into windows first with "
            "make_windows(X, layout='pd-multiindex', feature_cols=..., event_col=..., context_length=...)."
        )
    columns = list(X.columns[:4]) + (["..."] if X.shape[1] > 4 else [])
    raise TypeError(
        f"X is a 2-D DataFrame with columns {columns}, which reads two ways: one window per row with "
        "the columns as time steps of one channel, or one time step per row with the columns as "
        "channels of a series. For windows pass X.to_numpy(), shape (n_windows, n_timepoints); for "
        "a series, cut it into windows with make_windows(X, layout='long', feature_cols=..., "
        "event_col=..., context_length=...)."
    )


# kinds of values (``pandas.api.types.infer_dtype``) that are plain real numbers
NUMBER_KINDS = ("integer", "floating", "mixed-integer-float", "decimal")
# how messages name the other kinds
KIND_NAMES = {
    "string": "strings",
    "bytes": "bytes",
    "mixed": "values of mixed types",
    "mixed-integer": "values of mixed types",
    "categorical": "categories",
    "datetime64": "datetimes",
    "datetime": "datetimes",
    "date": "dates",
    "timedelta64": "time spans",
    "timedelta": "time spans",
    "complex": "complex numbers",
    "period": "periods",
}


def some_values(values, limit=5):
    """Up to ``limit`` distinct values of ``values`` as text, in order of appearance, for messages."""
    array = np.asarray(values, dtype=object).ravel()
    try:
        distinct = pd.unique(array[: 100 * limit])
    except TypeError:  # unhashable items
        distinct = array[: 100 * limit]
    shown = list(dict.fromkeys(repr(v.item() if isinstance(v, np.generic) else v) for v in distinct))
    return ", ".join(shown[:limit]) + (", ..." if len(shown) > limit else "")


def real_numbers(values, name):
    """``values`` as a float64 ndarray; TypeError unless they hold real numbers (text is not parsed, nor booleans)."""
    values = np.asarray(values)
    numeric = values.dtype.kind in "iuf" or (
        values.dtype == object and pd.api.types.infer_dtype(values.ravel(), skipna=True) in NUMBER_KINDS
    )
    if not numeric:
        raise TypeError(
            f"{name} must be numeric, got dtype {values.dtype} ({some_values(values)}); text is not parsed "
            "as numbers: convert it first, e.g. with pandas.to_numeric."
        )
    return values.astype(float)


def check_event_indicator(values, what):
    """An event indicator as a bool ndarray: booleans, or numbers that are exactly 0 and 1.

    Nothing is read by truthiness: strings ("no" would be an event), other
    objects, mixed types and other numbers are refused, as are missing
    values, with a message naming ``what`` and the values found.
    """
    if isinstance(getattr(values, "dtype", None), pd.CategoricalDtype):
        values = np.asarray(values, dtype=object)
    missing = np.asarray(pd.isna(values))
    if missing.any():
        raise ValueError(
            f"{what} has {int(missing.sum())} missing value(s) (first at position {int(np.argmax(missing))}); "
            "an event indicator marks every step: True (or 1) where an event happens, False (or 0) elsewhere."
        )
    if len(values) == 0:
        return np.zeros(0, dtype=bool)
    kind = pd.api.types.infer_dtype(values, skipna=False)
    if kind == "boolean":
        return np.asarray(values, dtype=bool)
    if kind in NUMBER_KINDS:
        numbers = np.asarray(values, dtype=float)
        wrong = (numbers != 0) & (numbers != 1)
        if wrong.any():
            raise ValueError(
                f"{what} must hold 0 and 1 only (or False and True), found {some_values(np.asarray(values)[wrong])}. "
                "Mark each event with 1 and every other step with 0; for counts, pass (counts > 0)."
            )
        return numbers == 1
    raise TypeError(
        f"{what} must hold booleans or the numbers 0 and 1, found {KIND_NAMES.get(kind, kind)} "
        f"({some_values(values)}). They are not read by truthiness, which would count every non-empty "
        "string, 'no' and 'False' among them, as an event: pass the comparison that marks an event, "
        "e.g. column == 'yes', or 0/1 integers."
    )


def _as_float32(X, name, inf_hint):
    if isinstance(X, torch.Tensor):
        X = X.detach().cpu().numpy()
    if scipy.sparse.issparse(X):
        raise TypeError(f"{name} is a sparse matrix; sparse input is not supported, pass a dense array.")
    try:
        array = np.asarray(X)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array: {exc}") from exc
    if array.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {array.dtype}.")
    if array.dtype.kind in "US" or (
        array.dtype.kind == "O"
        and pd.api.types.infer_dtype(array.ravel(), skipna=True) not in NUMBER_KINDS + ("boolean",)
    ):
        raise TypeError(
            f"{name} must hold numbers, got dtype {array.dtype} holding {some_values(array)}; text and other "
            "objects are not parsed as numbers. Convert them first, e.g. with pandas.to_numeric."
        )
    if array.dtype.kind not in "biuf":
        try:
            array = array.astype(np.float32)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must hold numbers, got dtype {array.dtype} that cannot be cast to float.") from exc
    if any(np.isinf(part).any() for part in row_chunks(array)):
        raise ValueError(f"{name} contains infinite values; {inf_hint}.")
    if (
        array.dtype.itemsize > 4
        and array.dtype.kind == "f"
        and any((np.abs(part) > np.finfo(np.float32).max).any() for part in row_chunks(array))
    ):
        raise ValueError(f"{name} holds values beyond float32's range (about 3.4e38), in which it is read; rescale it.")
    return np.ascontiguousarray(array.astype(np.float32, copy=False))


# Checks over large inputs read this many rows at a time, so their temporary
# boolean arrays stay small (measured: a whole-array isinf over 200,000 C-MAPSS
# windows held 1.4 GB)
CHECK_CHUNK = 4096


def row_chunks(array, size=CHECK_CHUNK):
    """Views of ``array`` in blocks of ``size`` rows."""
    return (array[start : start + size] for start in range(0, max(array.shape[0], 1), size))


def _check_width(estimator, found, what):
    """Raise when ``found`` differs from the ``n_features_in_`` the estimator was fitted with."""
    if found != estimator.n_features_in_:
        raise ValueError(
            f"{what[0]} has {found} {what[1]}, but {type(estimator).__name__} was fitted with "
            f"{estimator.n_features_in_} {what[1]}."
        )


def check_windows(estimator, X, *, reset):
    """Validate windows: (n, C, L) float32, or (n, L) read as one channel; NaN allowed, inf not, no DataFrame.

    Without ``reset`` the channel count must match ``n_features_in_`` of the
    fitted estimator; ``fit`` stores the shape itself once every check passed,
    so a failed ``fit`` never leaves a half-updated estimator.
    """
    refuse_frame_as_windows(X)
    X = as_three_d(_as_float32(X, "X", "mark missing values with NaN instead"))
    n, C, L = X.shape
    if n == 0 or C == 0 or L == 0:
        raise ValueError(f"X is empty: shape {X.shape}; at least one window, channel and step are needed.")
    empty = np.concatenate([np.isnan(part).all(axis=(1, 2)) for part in row_chunks(X)])
    if empty.any():
        raise ValueError(
            f"X has {int(empty.sum())} window(s) with no observed value at all (first at index "
            f"{int(np.argmax(empty))}); every window needs at least one non-NaN value."
        )
    if not reset:
        _check_width(estimator, C, ("X", "channels"))
    return X


def check_embeddings(estimator, E, *, reset):
    """Validate embeddings (n, d): finite float32; d must match ``n_features_in_`` when not ``reset``."""
    E = _as_float32(E, "E", "embeddings must be finite")
    if E.ndim != 2:
        raise ValueError(f"E must be 2-D (n_samples, n_features), got shape {E.shape}.")
    if E.shape[0] == 0 or E.shape[1] == 0:
        raise ValueError(f"E is empty: shape {E.shape}.")
    if any(np.isnan(part).any() for part in row_chunks(E)):
        raise ValueError("E contains NaN values; embeddings must be finite.")
    if not reset:
        _check_width(estimator, E.shape[1], ("E", "features"))
    return E


def check_groups(groups, n_samples):
    """Validate ``groups`` for ``fit``: None, or one label per sample (1-D, no missing value), as an ndarray."""
    if groups is None:
        return None
    groups = np.asarray(groups)
    if groups.ndim != 1:
        raise ValueError(f"groups must be 1-D, one unit label per sample; got shape {groups.shape}.")
    if groups.shape[0] != n_samples:
        raise ValueError(f"groups has {groups.shape[0]} labels but there are {n_samples} samples; they must match.")
    if pd.isna(groups).any():
        raise ValueError("groups has missing values; every sample needs the label of its unit.")
    return groups


def _window_input_tags(tags):
    """scikit-learn tags of an estimator of windows: NaN allowed, 3-D input."""
    tags.input_tags.allow_nan = True
    tags.input_tags.three_d_array = True
    return tags


def window_surface_tags(tags):
    """``tags`` (scikit-learn's) set for an estimator of windows whose ``fit`` requires ``y``."""
    tags = _window_input_tags(tags)
    tags.target_tags.required = True
    return tags


def window_transformer_tags(tags):
    """``tags`` (scikit-learn's) set for a transformer of windows: NaN, 3-D input, float32 out, no target."""
    tags = _window_input_tags(tags)
    tags.transformer_tags.preserves_dtype = ["float32"]
    tags.target_tags.required = False
    return tags


class WindowSurfaceTags:
    """The tags of :func:`window_surface_tags`, for an estimator class."""

    def __sklearn_tags__(self):
        return window_surface_tags(super().__sklearn_tags__())


class WindowTransformerTags:
    """The tags of :func:`window_transformer_tags`, for an estimator class."""

    def __sklearn_tags__(self):
        return window_transformer_tags(super().__sklearn_tags__())
