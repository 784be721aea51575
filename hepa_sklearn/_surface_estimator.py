"""The torch estimators whose net maps windows or embeddings to K hazard logits: what they share.

Functions that each of them calls, :class:`~hepa_sklearn.HEPAEventPredictor`
among them: the surface parameters' constraints, the training targets (with
causes) and the positive weight, the net trained on the surface loss, the
rows of an inference chunk, and the surface of hazard logits.
:class:`SurfaceNetEstimator` is the base of the others (the matched head, the
finetuner, the supervised encoders): on embeddings
(:class:`EmbeddingSurfaceEstimator`) or on windows
(:class:`WindowSurfaceEstimator`).
"""

import numpy as np
import torch

from ._docs import fill_doc
from ._torch_estimator import FitPlan, TorchEstimator
from ._validation import (
    POSITIVE_INT,
    POSITIVE_REAL,
    StrOptions,
    WindowSurfaceTags,
    check_embeddings,
    check_groups,
    check_windows,
)
from .causes import cause_targets
from .nn.predictor import event_surface
from .surface import expected_time_to_event, surface_targets
from .survival import SurvivalMixin
from .training._criteria import SurfaceLoss
from .training._net import HEPANet, make_net

__all__ = [
    "SURFACE_CONSTRAINTS",
    "EmbeddingSurfaceEstimator",
    "SurfaceNetEstimator",
    "WindowSurfaceEstimator",
    "surface_inference_chunk",
    "surface_net",
    "surface_of_logits",
    "surface_training_targets",
]

# the parameters of every surface net: its horizons, its width and its loss
SURFACE_CONSTRAINTS = {
    "K": [POSITIVE_INT],
    "hidden": [POSITIVE_INT],
    "loss": [StrOptions({"bce", "nll"})],
    "pos_weight": [StrOptions({"auto"}), POSITIVE_REAL],
}
# elements of one (rows, K, width) activation of the horizon grid per inference chunk:
# 2**20 (4 MB) keeps the chunk's working memory near 30 MB at K = 150 and width 256,
# where chunks of 128 rows raised the peak RSS by 131 MB and ran no faster
GRID_ELEMENTS = 2**20


def surface_training_targets(estimator, y, n_samples, *, learns_causes):
    """Packed labels and known mask (n, 2, K) of ``y`` for ``estimator``, and the fitted attributes they give.

    ``pos_weight_`` (N_neg / N_pos of the known cells with
    ``pos_weight="auto"``) and, where the estimator ``learns_causes`` (one
    incidence per cause of ``y``), ``n_causes_``; see
    :func:`hepa_sklearn.causes.cause_targets`.
    """
    packed, n_pos, n_neg = surface_targets(y, estimator.K, n_samples)
    pos_weight = n_neg / n_pos if estimator.pos_weight == "auto" else float(estimator.pos_weight)
    packed, n_causes = cause_targets(
        y,
        packed,
        estimator.K,
        type(estimator).__name__,
        learns=learns_causes,
        n_causes=getattr(estimator, "n_causes", None),
    )
    return packed, {"pos_weight_": pos_weight, **({"n_causes_": n_causes} if learns_causes else {})}


def surface_net(estimator, module, fitted, device, **module_params):
    """The untrained net of ``module(**module_params)``, trained on ``estimator``'s surface loss."""
    params = {f"module__{name}": value for name, value in module_params.items()}
    return make_net(
        HEPANet,
        module,
        SurfaceLoss,
        training=estimator._training_config(),
        params={**params, "criterion__pos_weight": fitted["pos_weight_"], "criterion__loss": estimator.loss},
        device=device,
    )


def surface_inference_chunk(estimator):
    """Rows per inference chunk of a surface net: at most 128, and ``GRID_ELEMENTS`` on its horizon grid."""
    width = max(estimator.hidden, getattr(estimator, "n_features_in_", 0) or 0)
    return max(1, min(128, GRID_ELEMENTS // (estimator.K * width)))


def surface_of_logits(logits):
    """The event surface (n, K), float64, of hazard logits (n, K), or of the any-event ones of causes."""
    logits = logits[:, 0] if logits.ndim == 3 else logits  # several causes: the any-event hazard comes first
    return event_surface(torch.from_numpy(logits)).numpy().astype(np.float64)


class SurfaceNetEstimator(SurvivalMixin, TorchEstimator):
    """A torch estimator whose net maps its input to K hazard logits: the surface, its loss and its outputs.

    Besides ``predict_proba`` and ``predict``, it has ``score`` (h-AUROC),
    scikit-survival's prediction methods (``predict_survival_function``,
    ``predict_cumulative_hazard_function``) and the risk score
    ``predict_risk``, from :class:`~hepa_sklearn.survival.SurvivalMixin`.

    A subclass declares ``_check_input`` (its forms on embeddings and on
    windows below do), ``_fitted_state(X)`` (the fitted attributes besides
    ``n_features_in_`` and ``pos_weight_`` that the checked input gives)
    and ``_build_net``, which builds its net with :func:`surface_net`.
    """

    _parameter_constraints = {**TorchEstimator._parameter_constraints, **SURFACE_CONSTRAINTS}
    _fitted_attributes = ("n_features_in_", "pos_weight_")

    @property
    def _inference_chunk(self):
        return surface_inference_chunk(self)

    def _prepare_fit(self, X, y, groups):
        """Check ``X``, ``groups`` and ``y``: the fitted attributes and the packed targets to train on."""
        X = self._check_input(X, reset=True)
        groups = check_groups(groups, X.shape[0])
        packed, from_targets = surface_training_targets(self, y, X.shape[0], learns_causes=False)
        fitted = {"n_features_in_": X.shape[1], **from_targets, **self._fitted_state(X)}
        return FitPlan(fitted, X, packed, groups)

    def predict_proba(self, X):
        """Event probability surface, shape (n_samples, K): ``P[i, k-1]`` = P(event within k steps)."""
        return surface_of_logits(self._infer(self._validated_input(X), "predict_proba"))

    def predict(self, X):
        """Expected time to event truncated at K, ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``."""
        return expected_time_to_event(self.predict_proba(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class EmbeddingSurfaceEstimator(SurfaceNetEstimator):
    """A surface estimator on embeddings (n_samples, n_features), such as a frozen encoder's."""

    _check_input = check_embeddings

    @fill_doc
    def fit(self, E, y, groups=None):
        """Train on embeddings ``E`` and survival labels ``y``.

        Parameters
        ----------
        E : array-like of shape (n_samples, n_features)
            Finite embeddings, one row per sample.
        y : structured ndarray with fields ``event`` and ``time``
            Time from each sample to its event, or to censoring.
        %(fit_groups)s

        Returns
        -------
        self : object
            The fitted estimator.

        %(fit_interruption)s
        """
        return super().fit(E, y, groups)


class WindowSurfaceEstimator(WindowSurfaceTags, SurfaceNetEstimator):
    """A surface estimator on windows (n_windows, n_channels, n_timepoints), NaN where missing."""

    _check_input = check_windows

    @fill_doc
    def fit(self, X, y, groups=None):
        """Train on windows ``X`` and survival labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.
        y : structured ndarray with fields ``event`` and ``time``
            Time from each window's end to its event, or to censoring.
        %(fit_groups)s

        Returns
        -------
        self : object
            The fitted estimator.

        %(fit_interruption)s
        """
        return super().fit(X, y, groups)
