"""Post-hoc calibration of event probability surfaces by one monotone map over all cells."""

import numpy as np
from scipy.special import logit
from sklearn.base import BaseEstimator
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from ._validation import StrOptions
from .surface import check_surface, check_survival_y, label_surface

__all__ = ["SurfaceCalibrator"]

# Platt scaling clips probabilities to [eps, 1 - eps] before the logit. The
# surfaces are float32 network outputs, which resolve nothing finer than
# float32's machine epsilon next to 1.
LOGIT_CLIP = float(np.finfo(np.float32).eps)


def _platt_feature(proba):
    """Logit of the clipped probabilities, as one feature column (n_cells, 1)."""
    clipped = np.clip(proba, LOGIT_CLIP, 1.0 - LOGIT_CLIP)
    return logit(clipped).reshape(-1, 1)


class SurfaceCalibrator(BaseEstimator):
    """Recalibrate an event probability surface with one non-decreasing map.

    The map ``g`` is fitted on the known cells of the label surface, pooled
    over all horizons, and applied to every cell. Because the same
    non-decreasing ``g`` is used in every column, ``p(t, Δt) <= p(t, Δt + 1)``
    implies ``g(p(t, Δt)) <= g(p(t, Δt + 1))``: each monotone row stays
    monotone in Δt. Separate maps per horizon would not guarantee this.

    Parameters
    ----------
    method : {"isotonic", "sigmoid"}, default="isotonic"
        ``"isotonic"`` fits ``sklearn.isotonic.IsotonicRegression`` (clipped
        to [0, 1] outside the fitted range). ``"sigmoid"`` is Platt scaling:
        ``g(p) = expit(a * logit(p) + b)`` with ``a > 0`` and ``b`` fitted by
        unpenalised logistic regression; ``p`` is first clipped to
        ``[eps, 1 - eps]`` with ``eps`` the float32 machine epsilon.

    Attributes
    ----------
    calibrator_ : IsotonicRegression or LogisticRegression
        The fitted map; for ``"sigmoid"`` it acts on the logit of ``p``.
    n_features_in_ : int
        Number of horizons K of the surface seen in ``fit``.

    See Also
    --------
    hepa_sklearn.metrics.expected_calibration_error
    hepa_sklearn.metrics.brier_decomposition

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import SurfaceCalibrator
    >>> from hepa_sklearn.metrics import expected_calibration_error
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True, False, False], [1, 2, 5, 5])
    >>> P = np.array([[0.6, 0.7], [0.5, 0.6], [0.3, 0.6], [0.2, 0.3]])
    >>> calibrator = SurfaceCalibrator().fit(P, y)
    >>> calibrator.predict_proba(P).round(3)  # two of the three cells at 0.6 are positive
    array([[0.667, 1.   ],
           [0.   , 0.667],
           [0.   , 0.667],
           [0.   , 0.   ]])
    >>> round(expected_calibration_error(y, P), 6)
    0.225
    >>> expected_calibration_error(y, calibrator.predict_proba(P))
    0.0
    """

    _parameter_constraints = {"method": [StrOptions({"isotonic", "sigmoid"})]}

    def __init__(self, method="isotonic"):
        self.method = method

    def fit(self, proba, y):
        """Fit the map on the known cells of ``label_surface(y, K)``.

        Parameters
        ----------
        proba : array-like of shape (n_samples, K)
            Probabilities in [0, 1].
        y : structured ndarray with fields ``event`` and ``time``

        Returns
        -------
        self : SurfaceCalibrator
        """
        self._validate_params()
        event, _ = check_survival_y(y)
        proba = check_surface(proba, event.shape[0], probabilities=True)
        labels, known = label_surface(y, proba.shape[1])
        target, scores = labels[known].astype(int), proba[known]
        if target.size == 0:
            raise ValueError("y leaves no known cell to fit on: every window is censored before horizon 1.")
        if np.unique(target).size < 2:
            raise ValueError(
                f"the known cells hold only {'positive' if target[0] else 'negative'} labels; "
                "calibration needs both classes."
            )
        if self.method == "isotonic":
            calibrator = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True, out_of_bounds="clip").fit(
                scores, target
            )
        else:
            calibrator = LogisticRegression(C=np.inf).fit(_platt_feature(scores), target)
            slope = float(calibrator.coef_[0, 0])
            if slope <= 0:
                raise ValueError(
                    f"sigmoid calibration fitted a slope of {slope:.3g} <= 0: the surface is "
                    "anti-correlated with the labels, so no increasing map can calibrate it. "
                    "Check that proba is P(event), not P(no event)."
                )
        self.calibrator_ = calibrator
        self.n_features_in_ = proba.shape[1]
        return self

    def predict_proba(self, proba):
        """Calibrated surface, same shape as ``proba``, float64.

        Rows that are non-decreasing in ``proba`` stay non-decreasing; the
        running maximum along each such row only undoes float round-off of
        the map (isotonic outputs may tie, which is allowed).

        Parameters
        ----------
        proba : array-like of shape (n_samples, K)
            Probabilities in [0, 1], with the K of ``fit``.

        Returns
        -------
        calibrated : ndarray of shape (n_samples, K)
        """
        check_is_fitted(self, "calibrator_")
        proba = check_surface(proba, probabilities=True)
        if proba.shape[1] != self.n_features_in_:
            raise ValueError(
                f"proba has {proba.shape[1]} columns (horizons) but SurfaceCalibrator was "
                f"fitted on {self.n_features_in_}."
            )
        cells = proba.ravel()
        if isinstance(self.calibrator_, IsotonicRegression):
            calibrated = self.calibrator_.predict(cells)
        else:
            calibrated = self.calibrator_.predict_proba(_platt_feature(cells))[:, 1]
        calibrated = np.asarray(calibrated, dtype=np.float64).reshape(proba.shape)
        monotone = np.all(np.diff(proba, axis=1) >= 0, axis=1)
        calibrated[monotone] = np.maximum.accumulate(calibrated[monotone], axis=1)
        return calibrated

    def transform(self, proba):
        """Alias of :meth:`predict_proba`, for use as a pipeline step."""
        return self.predict_proba(proba)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
