"""What the estimators that train a Transformer encoder on windows share.

:func:`encoder_config`: the :class:`~hepa_sklearn.nn.EncoderConfig` their
parameters make (``d_model``, ``n_layers``, ``n_heads``, ``dropout`` of
:data:`~hepa_sklearn._validation.ENCODER_CONSTRAINTS`, the normalisation
inside the network). :class:`WindowEncoderMixin`: that configuration and
``transform`` through the net's ``embed``, for the baseline encoders (MAE,
PatchTST, iTransformer); :class:`~hepa_sklearn.HEPAPretrainer` holds its own
``transform``.
"""

from .nn.encoder import EncoderConfig

__all__ = ["WindowEncoderMixin", "encoder_config"]


def encoder_config(estimator, n_channels, norm, **settings):
    """The encoder configuration of ``estimator``'s parameters for ``n_channels`` channels and ``norm``.

    ``settings`` gives the other fields (``patch_size``...).
    """
    return EncoderConfig(
        n_channels=n_channels,
        d_model=estimator.d_model,
        n_layers=estimator.n_layers,
        n_heads=estimator.n_heads,
        dropout=float(estimator.dropout),
        norm=norm,
        **settings,
    )


class WindowEncoderMixin:
    """The encoder configuration of a baseline encoder's parameters (``norm`` as given), and ``transform``."""

    def _encoder_config(self, n_channels, **settings):
        """The encoder configuration for ``n_channels`` channels; ``settings`` gives the other fields
        (``patch_size``...)."""
        return encoder_config(self, n_channels, self.norm, **settings)

    def transform(self, X):
        """Embed windows ``X`` (n_windows, n_channels, n_timepoints) with the fitted encoder; float32 rows."""
        return self._infer(self._validated_input(X), "transform", forward=lambda module: module.embed)
