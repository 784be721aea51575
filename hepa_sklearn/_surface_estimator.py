"""The surface estimators: a torch net mapping windows or embeddings to K hazard logits, its loss and its outputs."""

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

__all__ = ["EmbeddingSurfaceEstimator", "SurfaceNetEstimator", "WindowSurfaceEstimator"]


class SurfaceNetEstimator(SurvivalMixin, TorchEstimator):
    """A torch estimator whose net maps its input to K hazard logits: the surface, its loss and its outputs.

    Besides ``predict_proba`` and ``predict``, it has ``score`` (h-AUROC),
    scikit-survival's prediction methods (``predict_survival_function``,
    ``predict_cumulative_hazard_function``) and the risk score
    ``predict_risk``, from :class:`~hepa_sklearn.survival.SurvivalMixin`.

    A subclass builds its net with :meth:`_surface_net` and may extend
    :meth:`_check_hyperparameters`, :meth:`_fitted_state` (fitted
    attributes read from the input) and :meth:`_prepare_net` (the
    initialised net before training).
    """

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        "K": [POSITIVE_INT],
        "hidden": [POSITIVE_INT],
        "loss": [StrOptions({"bce", "nll"})],
        "pos_weight": [StrOptions({"auto"}), POSITIVE_REAL],
    }
    _fitted_attributes = ("n_features_in_", "pos_weight_")
    _learns_causes = False  # True: one cumulative incidence per cause of y (n_causes_), else y of one cause only
    # elements of one (rows, K, width) activation of the horizon grid per inference chunk:
    # 2**20 (4 MB) keeps the chunk's working memory near 30 MB at K = 150 and width 256,
    # where chunks of 128 rows raised the peak RSS by 131 MB and ran no faster
    _grid_elements = 2**20

    @property
    def _inference_chunk(self):
        width = max(self.hidden, getattr(self, "n_features_in_", 0) or 0)
        return max(1, min(128, self._grid_elements // (self.K * width)))

    def _check_hyperparameters(self):
        """Validate the parameters (before any input is read)."""
        self._validate_params()

    def _surface_targets(self, y, n_samples):
        """Packed labels and known mask (n, 2, K) of ``y`` (with causes, see ``cause_targets``) and the fitted
        attributes they give."""
        packed, n_pos, n_neg = surface_targets(y, self.K, n_samples)
        pos_weight = n_neg / n_pos if self.pos_weight == "auto" else float(self.pos_weight)
        packed, n_causes = cause_targets(
            y, packed, self.K, type(self).__name__, learns=self._learns_causes, n_causes=getattr(self, "n_causes", None)
        )
        return packed, {"pos_weight_": pos_weight, **({"n_causes_": n_causes} if self._learns_causes else {})}

    def _fitted_state(self, X):
        """Fitted attributes besides ``n_features_in_`` and ``pos_weight_`` that the checked input ``X`` gives."""
        return {}

    def _prepare_net(self, net):
        """Called on the initialised net before training (for example to load starting weights)."""

    def _fit_plan(self, X, y, groups):
        """Check the parameters, ``X``, ``groups`` and ``y``: the plan of training on them."""
        self._check_hyperparameters()
        X = type(self)._check_input(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        packed, from_targets = self._surface_targets(y, X.shape[0])
        fitted = {"n_features_in_": X.shape[1], **from_targets, **self._fitted_state(X)}
        return FitPlan(fitted, X, packed, groups, self._prepare_net)

    def _fit_surface(self, X, y, groups):
        """Check the parameters, ``X``, ``groups`` and ``y``, then train on them."""
        return self._fit_planned(self._fit_plan(X, y, groups))

    def _surface_net(self, module, fitted, device, **module_params):
        """The untrained net of ``module(**module_params)``, trained on the surface loss ``loss`` with
        ``pos_weight_``."""
        params = {f"module__{name}": value for name, value in module_params.items()}
        return make_net(
            HEPANet,
            module,
            SurfaceLoss,
            training=self._training_config(),
            params={**params, "criterion__pos_weight": fitted["pos_weight_"], "criterion__kind": self.loss},
            device=device,
        )

    def predict_proba(self, X):
        """Event probability surface, shape (n_samples, K): ``P[i, k-1]`` = P(event within k steps)."""
        logits = self._infer(self._validated_input(X), "predict_proba")
        logits = logits[:, 0] if logits.ndim == 3 else logits  # several causes: the any-event hazard comes first
        return event_surface(torch.from_numpy(logits)).numpy().astype(np.float64)

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
        return self._fit_surface(E, y, groups)


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
        return self._fit_surface(X, y, groups)
