"""Competing risks: the cause of each event in ``y``, the label surface of each cause, and cumulative incidences that
sum to the any-event surface.

With several failure types, ``y`` carries a third field ``("cause", int)``:
1, 2, ... for the type of each event and 0 for a censored window (see
:func:`hepa_sklearn.surface.make_survival_y`). The cumulative incidence of cause
``c`` at horizon ``k`` is ``F_c(k) = P(event within k steps, of cause c)``;
the incidences of all causes sum to the any-event surface
``P(k) = P(event within k steps)``.
"""

import warnings

import numpy as np
import pandas as pd

from ._survival_fields import CAUSE_FIELD, check_cause_codes, frame_records
from ._validation import POSITIVE_INT, real_numbers, validate_params
from .surface import check_surface, check_survival_y, label_surface, make_survival_y

__all__ = [
    "any_event_y",
    "cause_event_y",
    "cause_label_surface",
    "cause_targets",
    "check_cause_y",
    "check_incidence",
    "cumulative_incidence",
    "fitted_causes",
]


def check_cause_y(y, n_samples=None):
    """The cause of each sample of ``y`` as int64 (0 for no event), or None when ``y`` has no ``cause`` field.

    ``y`` is checked as :func:`~hepa_sklearn.surface.check_survival_y`
    checks it, the causes included.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> check_cause_y(make_survival_y([True, False], [3, 8], cause=[2, 0])).tolist()
    [2, 0]
    >>> check_cause_y(make_survival_y([True, False], [3, 8])) is None
    True
    """
    event, _ = check_survival_y(y, n_samples=n_samples)
    records = frame_records(y) if isinstance(y, pd.DataFrame) else np.asarray(y)
    if CAUSE_FIELD not in records.dtype.names or len(records.dtype.names) != 3:
        return None
    return check_cause_codes(np.asarray(records[CAUSE_FIELD]), event, f"y[{CAUSE_FIELD!r}]")


def any_event_y(y):
    """``y`` without its cause: the ``(event, time)`` records of the any-event surface.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> any_event_y(make_survival_y([True, False], [3, 8], cause=[2, 0])).dtype.names
    ('event', 'time')
    """
    return make_survival_y(*check_survival_y(y))


def _causes_or_event(y):
    """Causes of ``y``, or 1 for every event of a ``y`` without a cause field."""
    cause = check_cause_y(y)
    if cause is None:
        event, _ = check_survival_y(y)
        cause = event.astype(np.int64)
    return cause


@validate_params({"K": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def cause_label_surface(y, K):
    """Label surface of each cause and the mask of known cells, for horizons ``1..K``.

    Cell ``(i, c-1, k-1)`` answers "does an event of cause ``c`` happen
    within ``k`` steps of window ``i``'s end". A window whose event has
    another cause is a known negative for ``c`` at every horizon (that
    event of cause ``c`` can no longer come first), so the known cells are
    those of :func:`~hepa_sklearn.surface.label_surface`, whose labels are the sum
    over the causes of these. A ``y`` without a cause field has one cause.

    Parameters
    ----------
    y : structured ndarray with fields ``event``, ``time`` and optionally ``cause``
    K : int
        Number of unit-step horizons.

    Returns
    -------
    labels : ndarray of shape (n_samples, n_causes, K), dtype float32
        ``n_causes`` is the largest cause in ``y`` (at least 1).
    known : ndarray of shape (n_samples, K), dtype bool

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> labels, known = cause_label_surface(make_survival_y([True, True], [1, 2], cause=[2, 1]), 2)
    >>> labels.tolist()
    [[[0.0, 0.0], [1.0, 1.0]], [[0.0, 1.0], [0.0, 0.0]]]
    """
    labels, known = label_surface(y, K)
    cause = _causes_or_event(y)
    n_causes = max(int(cause.max(initial=0)), 1)
    of_cause = cause[:, None] == np.arange(1, n_causes + 1)[None, :]  # (n, n_causes)
    return labels[:, None, :] * of_cause[:, :, None].astype(np.float32), known


def cause_event_y(y, cause, K):
    """The labels of one cause as a survival ``y``: its events are events, other causes' events known negatives up to
    ``K``.

    A window whose event has another cause becomes censored at
    ``max(time, K)``, which :func:`~hepa_sklearn.surface.label_surface` reads as
    negative at every horizon ``1..K``: every metric of a surface then
    scores cause ``c``'s cumulative incidence against cause ``c``'s events,
    with :func:`cause_label_surface`'s known cells.

    Parameters
    ----------
    y : structured ndarray with fields ``event``, ``time`` and optionally ``cause``
    cause : int
        The cause, 1, 2, ...
    K : int
        The horizons the incidence covers.

    Returns
    -------
    y_cause : structured ndarray of shape (n_samples,), fields ``event`` and ``time``

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> cause_event_y(make_survival_y([True, True, False], [3, 4, 6], cause=[1, 2, 0]), 1, 10).tolist()
    [(True, 3.0), (False, 10.0), (False, 6.0)]
    """
    event, time = check_survival_y(y)
    codes = _causes_or_event(y)
    of_cause = event & (codes == cause)
    competing = event & ~of_cause
    return make_survival_y(of_cause, np.where(competing, np.maximum(time, K), time))


def fitted_causes(y, K, estimator, n_causes=None):
    """The causes a model learns from ``y``: ``(cause or None, n_causes)``; warns for each cause without a training
    event.

    ``n_causes`` is the estimator's parameter: None learns the causes up to
    the largest in ``y`` (1 without a cause field), an int that many (a
    ``y`` holding a larger cause is refused). A cause in ``1..n_causes``
    with no event within ``K`` steps of a window's end gets a
    ``UserWarning`` naming it: the model never sees it in ``y``, so its
    incidence is not learned from data (a network's head for it stays
    untrained).
    """
    cause = check_cause_y(y)
    largest = 1 if cause is None else max(int(cause.max(initial=0)), 1)
    if n_causes is not None and largest > n_causes:
        raise ValueError(
            f"y holds cause {largest} but {estimator} has n_causes={n_causes}; raise n_causes to the number of "
            "causes, or leave it None to learn the causes up to the largest in y."
        )
    if cause is None and n_causes in (None, 1):
        return None, 1
    if cause is None:  # one event type, of cause 1, among the n_causes the model is asked for
        event, _ = check_survival_y(y)
        cause = event.astype(np.int64)
    _, time = check_survival_y(y)
    source = "the largest cause in y" if n_causes is None else f"its n_causes={n_causes} setting"
    n_causes = largest if n_causes is None else n_causes
    seen = np.unique(cause[(cause > 0) & (time <= K)])
    missing = sorted(set(range(1, n_causes + 1)) - set(seen.tolist()))
    if missing:
        warnings.warn(
            f"{estimator} learns {n_causes} causes ({source}), but cause(s) {missing} never occur "
            f"within K={K} steps of a training window's end: never seen in y, their incidences are not "
            "learned from data (a network's heads for them stay untrained). Number the causes 1, 2, ... "
            "without gaps, or train on windows that hold their events.",
            UserWarning,
            stacklevel=3,
        )
    return cause, n_causes


def check_incidence(incidence, n_samples=None):
    """Validate cumulative incidences (n_samples, n_causes, K): 3-D, finite, in [0, 1]; float64."""
    incidence = real_numbers(np.asarray(incidence), "incidence")
    if incidence.ndim != 3 or 0 in incidence.shape[1:]:
        raise ValueError(
            f"incidence must be 3-D (n_samples, n_causes, K) with at least one cause and one horizon, got shape "
            f"{incidence.shape}; predict_cumulative_incidence returns it."
        )
    check_surface(incidence.reshape(incidence.shape[0], -1), n_samples, probabilities=True)
    return incidence


def cumulative_incidence(proba, shares):
    """Cumulative incidence of each cause from the any-event surface and each step's cause shares.

    ``F_c(k) = Σ_{j<=k} (P(j) - P(j-1)) π_c(j)`` with ``P(0) = 0``: the
    probability of an event at step ``j`` (``S(j-1) λ_j`` for the discrete
    hazard ``λ``) split among the causes by their shares ``π(j)``. Each
    ``F_c`` is non-decreasing in ``k`` when ``P`` is, and
    ``Σ_c F_c(k) = P(k)`` when each step's shares sum to 1.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        The any-event surface, non-decreasing in ``k``.
    shares : array-like of shape (n_samples, n_causes, K) or (n_samples, n_causes)
        Non-negative, summing to 1 over the causes: each step's (or, 2-D,
        every step's) share of each cause in the event.

    Returns
    -------
    incidence : ndarray of shape (n_samples, n_causes, K), float64

    Examples
    --------
    >>> F = cumulative_incidence([[0.5, 0.75]], [[[1.0, 0.0], [0.0, 1.0]]])
    >>> F.tolist(), F.sum(axis=1).tolist()
    ([[[0.5, 0.5], [0.0, 0.25]]], [[0.5, 0.75]])
    """
    proba = check_surface(proba, probabilities=True)
    shares = np.asarray(shares, dtype=float)
    if shares.ndim == 2:
        shares = shares[:, :, None]
    if shares.ndim != 3 or shares.shape[0] != proba.shape[0] or shares.shape[2] not in (1, proba.shape[1]):
        raise ValueError(
            f"shares must be (n_samples, n_causes, K) or (n_samples, n_causes) for proba of shape {proba.shape}, "
            f"got shape {shares.shape}."
        )
    step = np.diff(proba, axis=1, prepend=0.0)  # P(event at step j)
    return np.cumsum(step[:, None, :] * shares, axis=2)


def cause_targets(y, packed, K, estimator, *, learns, n_causes=None):
    """Training targets with causes: ``(packed, n_causes)``, ``packed`` (n, 3, K) with a row of causes when several.

    ``packed`` is :func:`~hepa_sklearn.surface.surface_targets`'s (n, 2, K).
    An estimator that ``learns`` causes gets the number of causes of ``y``
    or its ``n_causes`` (:func:`fitted_causes`) and, with several, the cause of each window in a
    third row; one that does not refuses a ``y`` of several causes. Interval
    labels have no cause.
    """
    records = frame_records(y) if isinstance(y, pd.DataFrame) else np.asarray(y)
    if CAUSE_FIELD not in (records.dtype.names or ()) and (not learns or n_causes in (None, 1)):
        return packed, 1
    if not learns:
        if (check_cause_y(y) > 1).any():
            raise ValueError(
                f"{estimator} learns the any-event surface only, and y holds several causes. Fit it on "
                "hepa_sklearn.causes.any_event_y(y), or fit HEPAEventPredictor or GradientBoostingEventPredictor, "
                "which learn one cumulative incidence per cause."
            )
        return packed, 1
    cause, n_causes = fitted_causes(y, K, estimator, n_causes)
    if n_causes == 1:  # one cause: the targets, and so the fit, of a y without causes
        return packed, 1
    row = np.broadcast_to(cause[:, None, None].astype(np.float32), (cause.shape[0], 1, packed.shape[2]))
    return np.concatenate([packed, row], axis=1), n_causes
