"""Metrics of each cause's cumulative incidence against that cause's events: h-AUROC and calibration per cause."""

import numpy as np

from .._validation import POSITIVE_INT, validate_params
from ..causes import cause_event_y, check_cause_y, check_incidence
from ..surface import check_survival_y
from ._calibration import CALIBRATION_BINS, expected_calibration_error
from ._ranking import h_auroc

__all__ = ["cause_calibration_error", "cause_h_auroc"]


def _cause_labels(y_true, incidence):
    """The checked incidences and, per cause, its events as a survival ``y``
    (:func:`~hepa_sklearn.causes.cause_event_y`)."""
    event, _ = check_survival_y(y_true)
    incidence = check_incidence(incidence, event.shape[0])
    n_causes, K = incidence.shape[1:]
    cause = check_cause_y(y_true)
    largest = int(cause.max(initial=0)) if cause is not None else int(event.any())
    if largest > n_causes:
        raise ValueError(
            f"y_true holds cause {largest} but incidence has {n_causes} cause(s); score the incidences of a model "
            "fitted on labels with every cause of y_true."
        )
    return incidence, [cause_event_y(y_true, c, K) for c in range(1, n_causes + 1)]


def cause_h_auroc(y_true, incidence, *, horizons=None):
    """h-AUROC of each cause's cumulative incidence against that cause's events.

    For cause ``c`` and horizon ``k``, the positives are the windows with an
    event of cause ``c`` within ``k`` steps and the negatives those known
    to have none: no event within ``k`` steps, or an event of another cause
    (which came first), as in
    :func:`~hepa_sklearn.causes.cause_label_surface`. Windows censored
    before ``k`` are left out. The AUROC of column ``k`` of cause ``c``'s
    incidence on these cells is averaged over the non-degenerate horizons,
    as :func:`~hepa_sklearn.metrics.h_auroc` averages it.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event``, ``time`` and ``cause``
        A ``y`` without a cause field has the single cause 1.
    incidence : array-like of shape (n_samples, n_causes, K)
        As returned by ``predict_cumulative_incidence``.
    horizons : array-like of int, default=None
        1-based horizons to evaluate; None means ``1..K``.

    Returns
    -------
    scores : ndarray of shape (n_causes,)
        NaN for a cause whose every horizon is degenerate (for example one
        without an event in ``y_true``).

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn.causes import cause_label_surface
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True, False, True], [1, 2, 5, 3], cause=[1, 2, 0, 1])
    >>> labels, _ = cause_label_surface(y, 3)
    >>> cause_h_auroc(y, labels).tolist()
    [1.0, 1.0]
    """
    incidence, per_cause = _cause_labels(y_true, incidence)
    return np.array([h_auroc(y_c, incidence[:, c], horizons=horizons) for c, y_c in enumerate(per_cause)])


@validate_params({"n_bins": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def cause_calibration_error(y_true, incidence, *, n_bins=CALIBRATION_BINS):
    """Expected calibration error of each cause's cumulative incidence over its known cells.

    The cells are those of :func:`cause_h_auroc`, every horizon pooled;
    the bins those of :func:`~hepa_sklearn.metrics.expected_calibration_error`.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event``, ``time`` and ``cause``
    incidence : array-like of shape (n_samples, n_causes, K)
    n_bins : int, default=10

    Returns
    -------
    ece : ndarray of shape (n_causes,)

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True], [1, 1], cause=[1, 2])
    >>> cause_calibration_error(y, [[[0.75], [0.25]], [[0.5], [0.5]]]).tolist()  # cause 1: (0.25 + 0.5) / 2
    [0.375, 0.375]
    """
    incidence, per_cause = _cause_labels(y_true, incidence)
    return np.array(
        [expected_calibration_error(y_c, incidence[:, c], n_bins=n_bins) for c, y_c in enumerate(per_cause)]
    )
