"""Frozen Chronos-2 embeddings of windows, each channel encoded on its own."""

import contextlib

import torch

from .._docs import fill_doc
from ._foundation import FoundationEmbedder, last_steps_in_patches

__all__ = ["ChronosEmbedder"]


@contextlib.contextmanager
def _quiet_transformers():
    """Silence transformers' progress bars while a checkpoint loads, then restore the user's setting."""
    from transformers.utils import logging as transformers_logging

    enabled = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            transformers_logging.enable_progress_bar()


@fill_doc
class ChronosEmbedder(FoundationEmbedder):
    """Frozen Chronos-2 embeddings of windows, each channel encoded on its own.

    ``fit`` loads a pretrained Chronos-2 model (Ansari et al., 2025) from the
    local folder ``model_path``; nothing is trained. ``transform`` passes
    every channel of every window to the model as a separate univariate
    series (so Chronos-2's attention across the series of a group never
    mixes channels), averages the encoder's outputs over the patches that
    hold at least one observation (the context tokens; the ``[REG]`` token
    and the output-patch token are left out), and then averages over
    channels, or concatenates them. This is the paper's matched baseline:
    frozen foundation-model features, per channel, then mean-pooled (the
    baselines of the HEPA paper), for a head such as
    :class:`~hepa_sklearn.HEPAEventPredictor` to be trained on.

    NaN (missing values and left padding) is passed to Chronos-2 as missing,
    as the model expects; a channel with no observation in a window is left
    out of that window's mean (zeros with ``"concat"``). Windows longer
    than the model's context (8192 steps for ``amazon/chronos-2``) keep
    their last steps.

    Needs ``chronos-forecasting`` (``pip install 'hepa-sklearn[chronos]'``).
    The weights are not downloaded: fetch the Hugging Face repository
    ``amazon/chronos-2`` on a machine with internet access and copy the
    folder here (the user guide's "Foundation-model baselines").

    Parameters
    ----------
    %(foundation_parameters)s

    Attributes
    ----------
    model_ : chronos.Chronos2Pipeline
        The loaded model, in evaluation mode on ``device``.
    embedding_dim_ : int
        Width of the model's token outputs (768 for ``amazon/chronos-2``).
    patch_len_ : int
        Steps per input patch (16 for ``amazon/chronos-2``).
    context_length_ : int
        Longest input the model reads, in steps.
    %(window_shape_attributes)s

    See Also
    --------
    MomentEmbedder : The same protocol with MOMENT.
    hepa_sklearn.HEPAPretrainer : The self-supervised encoder these baselines compare against.

    References
    ----------
    A. F. Ansari et al., "Chronos-2: From univariate to universal
    forecasting", arXiv, 2025.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from hepa_sklearn import HEPAEventPredictor
    >>> from hepa_sklearn.baselines import ChronosEmbedder
    >>> pipe = make_pipeline(ChronosEmbedder("models/chronos-2"), HEPAEventPredictor(K=150))
    >>> pipe.steps[0][1].get_params()["channel_pooling"]
    'mean'
    """

    #: The model, as messages and reports name it.
    model_name = "Chronos-2"
    #: The Hugging Face repository of the weights, whose folder ``model_path`` holds.
    hub_id = "amazon/chronos-2"
    _patch_rule = "any"  # Chronos-2 attends to a patch holding at least one observation
    _libraries = ("chronos",)
    _requirement = "chronos-forecasting"
    _extra = "chronos"

    def _check_config(self, config, folder):
        if "chronos_config" not in config or "Chronos2Model" not in config.get("architectures", []):
            raise ValueError(
                f"model_path={str(folder)!r} holds a model of architecture {config.get('architectures')}, not "
                "Chronos-2 (Chronos2Model); ChronosEmbedder reads Chronos-2 only, such as amazon/chronos-2."
            )

    def _patch_requirement(self):
        return "each needs at least one observed (non-NaN) step"

    def _load(self, folder, config, device):
        from chronos import Chronos2Pipeline

        with _quiet_transformers():
            pipeline = Chronos2Pipeline.from_pretrained(str(folder), local_files_only=True)
        pipeline.model.to(device=device, dtype=torch.float32).eval()
        return {
            "model_": pipeline,
            "embedding_dim_": int(pipeline.model.config.d_model),
            "patch_len_": int(pipeline.model.chronos_config.input_patch_size),
            "context_length_": int(pipeline.model_context_length),
        }

    def _model_input(self, series):
        # Chronos-2 itself pads on the left to whole patches; padding here first
        # makes the patches counted below the ones the model encodes
        return last_steps_in_patches(series, self.context_length_, self.patch_len_)

    def _encode(self, series):
        n_patches = series.shape[1] // self.patch_len_
        outputs, _ = self.model_.embed(series[:, None, :], batch_size=series.shape[0])
        # each output is (1, n_patches + extra tokens, d): the context patches come first
        return torch.cat([output[:, :n_patches] for output in outputs])
