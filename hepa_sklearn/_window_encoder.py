"""Base classes of the torch-backed estimators; the encoders' mixin.

:class:`TorchEstimator` (:mod:`._torch_estimator`) holds what every
torch-backed estimator shares, the surface estimators
(:mod:`._surface_estimator`) what those mapping their input to a surface
share; both are importable from here. :class:`WindowEncoderMixin` is what
the estimators that train a Transformer encoder on windows share.
"""

from ._surface_estimator import EmbeddingSurfaceEstimator, SurfaceNetEstimator, WindowSurfaceEstimator
from ._torch_estimator import FitPlan, TorchEstimator, registered_estimator
from ._validation import check_heads, check_windows
from .nn.encoder import EncoderConfig

__all__ = [
    "EmbeddingSurfaceEstimator",
    "FitPlan",
    "SurfaceNetEstimator",
    "TorchEstimator",
    "WindowEncoderMixin",
    "WindowSurfaceEstimator",
    "registered_estimator",
]


class WindowEncoderMixin:
    """What the estimators that train a Transformer encoder on windows share.

    The parameters of :data:`~hepa_sklearn._validation.ENCODER_CONSTRAINTS`
    (``d_model``, ``n_layers``, ``n_heads``, ``dropout``, ``norm``, most
    often ``patch_size``), their check, the
    :class:`~hepa_sklearn.nn.EncoderConfig` they make, and ``transform``
    through the net module's ``embed``.
    """

    _check_input = check_windows

    def _check_hyperparameters(self):
        """Validate the parameters; ValueError unless ``n_heads`` divides ``d_model``."""
        self._validate_params()
        check_heads(self.d_model, self.n_heads)

    def _network_norm(self):
        """The normalisation inside the network: ``norm``."""
        return self.norm

    def _encoder_config(self, n_channels, **settings):
        """The encoder configuration for ``n_channels`` channels; ``settings`` gives the other fields
        (``patch_size``...)."""
        return EncoderConfig(
            n_channels=n_channels,
            d_model=self.d_model,
            n_layers=self.n_layers,
            n_heads=self.n_heads,
            dropout=float(self.dropout),
            norm=self._network_norm(),
            **settings,
        )

    def transform(self, X):
        """Embed windows ``X`` (n_windows, n_channels, n_timepoints) with the fitted encoder; float32 rows."""
        return self._infer(self._validated_input(X), "transform", forward=lambda module: module.embed)
