"""Frozen TimesFM-2.5 embeddings of windows, each channel encoded on its own."""

import dataclasses
import re

import numpy as np
import torch

from .._docs import fill_doc
from ._foundation import FoundationEmbedder, last_steps_in_patches

__all__ = ["TimesFMEmbedder"]

# TimesFM-2.5 reads at most 16,384 steps (its context limit)
CONTEXT_LIMIT = 16384
_LAYER = re.compile(r"stacked_xf\.(\d+)\.")


def _definition(tensors):
    """The model definition of the released layout, its sizes read from the checkpoint's tensors."""
    from timesfm.timesfm_2p5 import timesfm_2p5_base

    base = timesfm_2p5_base.TimesFM_2p5_200M_Definition()
    stack = base.stacked_transformers
    d_model = tensors["tokenizer.output_layer.weight"].shape[0]
    head_dim = tensors["stacked_xf.0.attn.query_ln.scale"].shape[0]
    n_layers = 1 + max(int(match[1]) for match in map(_LAYER.match, tensors) if match)

    def block(config, prefix):
        hidden, inputs = tensors[f"{prefix}.hidden_layer.weight"].shape
        return dataclasses.replace(
            config, input_dims=inputs, hidden_dims=hidden, output_dims=tensors[f"{prefix}.output_layer.weight"].shape[0]
        )

    layer = dataclasses.replace(
        stack.transformer,
        model_dims=d_model,
        num_heads=d_model // head_dim,
        hidden_dims=tensors["stacked_xf.0.ff0.weight"].shape[0],
    )
    return dataclasses.replace(
        base,
        input_patch_len=tensors["tokenizer.hidden_layer.weight"].shape[1] // 2,
        tokenizer=block(base.tokenizer, "tokenizer"),
        stacked_transformers=dataclasses.replace(stack, num_layers=n_layers, transformer=layer),
        output_projection_point=block(base.output_projection_point, "output_projection_point"),
        output_projection_quantiles=block(base.output_projection_quantiles, "output_projection_quantiles"),
    )


@fill_doc
class TimesFMEmbedder(FoundationEmbedder):
    """Frozen TimesFM-2.5 embeddings of windows, each channel encoded on its own.

    ``fit`` loads a pretrained TimesFM-2.5 model (Das et al., 2024; release
    2.5 of ``google-research/timesfm``) from the local folder ``model_path``,
    in the layout of the Hugging Face repository
    ``google/timesfm-2.5-200m-pytorch`` (``config.json`` and
    ``model.safetensors`` with the tensors ``tokenizer.*``,
    ``stacked_xf.<layer>.*``, ``output_projection_point.*`` and
    ``output_projection_quantiles.*``); the model's sizes are read from the
    tensors, so smaller models of the same layout load too. Nothing is
    trained. ``transform`` feeds every channel of every window to the model
    as a univariate series, as TimesFM's own forecasting does: leading NaN
    (left padding) dropped, interior NaN filled by linear interpolation,
    the series padded on the left to whole patches of 32 steps with the
    padding masked, each patch normalised by the running mean and standard
    deviation of the steps up to it. The transformer's outputs are averaged
    over the patches that hold an observation, then over channels (or
    concatenated): the paper's matched protocol for foundation models.

    Needs ``timesfm`` (``pip install 'hepa-sklearn[timesfm]'``). The weights
    are not downloaded: fetch ``google/timesfm-2.5-200m-pytorch`` on a
    machine with internet access and copy the folder here (the user guide's
    "Foundation-model baselines").

    Parameters
    ----------
    %(foundation_parameters)s

    Attributes
    ----------
    model_ : torch.nn.Module
        TimesFM-2.5's module with the loaded weights, in evaluation mode on ``device``.
    embedding_dim_ : int
        Width of the transformer's outputs (1280 for the released model).
    patch_len_ : int
        Steps per input patch (32 for the released model).
    %(window_shape_attributes)s

    See Also
    --------
    ChronosEmbedder : The same protocol with Chronos-2.
    MomentEmbedder : The same protocol with MOMENT.

    References
    ----------
    A. Das, W. Kong, R. Sen and Y. Zhou, "A decoder-only foundation model
    for time-series forecasting", ICML 2024.

    Examples
    --------
    >>> from hepa_sklearn.baselines import TimesFMEmbedder
    >>> embedder = TimesFMEmbedder("models/timesfm-2.5-200m-pytorch")  # the folder of the weights
    >>> embedder.get_params()["channel_pooling"]
    'mean'
    """

    #: The model, as messages and reports name it.
    model_name = "TimesFM-2.5"
    #: The Hugging Face repository of the weights, whose folder ``model_path`` holds.
    hub_id = "google/timesfm-2.5-200m-pytorch"
    _patch_rule = "any"  # after interpolation a patch with one observation is a patch the model attends to
    _libraries = ("timesfm", "timesfm.timesfm_2p5.timesfm_2p5_torch", "safetensors")
    _requirement = "timesfm"
    _extra = "timesfm"

    def _check_config(self, config, folder):
        from safetensors import safe_open

        weights = folder / "model.safetensors"
        names = set()
        if weights.is_file():
            with safe_open(str(weights), framework="pt") as handle:
                names = set(handle.keys())
        if not {"tokenizer.output_layer.weight", "stacked_xf.0.attn.qkv_proj.weight"} <= names:
            raise ValueError(
                f"model_path={str(folder)!r} holds no TimesFM-2.5 weights (model.safetensors with the tensors "
                "tokenizer.* and stacked_xf.*); TimesFMEmbedder reads the layout of google/timesfm-2.5-200m-pytorch."
            )

    def _patch_requirement(self):
        return "each needs at least one observed (non-NaN) step"

    def _load(self, folder, config, device):
        from safetensors.torch import load_file
        from timesfm.timesfm_2p5.timesfm_2p5_torch import TimesFM_2p5_200M_torch_module

        tensors = load_file(str(folder / "model.safetensors"))
        # the module's sizes come from its class's definition; this instance reads the checkpoint's instead
        # (set before __init__ builds the layers; the instance stays of the released class, so it pickles)
        model = TimesFM_2p5_200M_torch_module.__new__(TimesFM_2p5_200M_torch_module)
        object.__setattr__(model, "config", _definition(tensors))
        TimesFM_2p5_200M_torch_module.__init__(model)
        model.load_state_dict(tensors, strict=True)
        model.to(device=device, dtype=torch.float32).eval()
        return {"model_": model, "embedding_dim_": int(model.md), "patch_len_": int(model.p)}

    def _model_input(self, series):
        return last_steps_in_patches(series, CONTEXT_LIMIT, self.patch_len_)

    def _encode(self, series):
        from timesfm.torch.util import revin, update_running_stats

        values = np.array(series, dtype=np.float32)
        padding = np.cumsum(~np.isnan(values), axis=1) == 0  # the steps before the first observation
        for row in np.flatnonzero(np.isnan(values).any(axis=1)):
            seen = ~np.isnan(values[row])
            steps = np.arange(values.shape[1])
            values[row, ~padding[row]] = np.interp(steps[~padding[row]], steps[seen], values[row, seen])
        device = next(self.model_.parameters()).device
        b, p = values.shape[0], self.patch_len_
        inputs = torch.from_numpy(np.where(padding, 0.0, values)).to(device).reshape(b, -1, p)
        masks = torch.from_numpy(padding).to(device).reshape(b, -1, p)
        n, mu, sigma = (torch.zeros(b, device=device) for _ in range(3))
        mus, sigmas = [], []
        for patch in range(inputs.shape[1]):  # the running statistics up to each patch, as TimesFM normalises
            (n, mu, sigma), _ = update_running_stats(n, mu, sigma, inputs[:, patch], masks[:, patch])
            mus.append(mu)
            sigmas.append(sigma)
        normed = revin(inputs, torch.stack(mus, dim=1), torch.stack(sigmas, dim=1))
        normed = torch.where(masks, torch.zeros((), device=device), normed)
        (_, states, _, _), _ = self.model_(normed, masks)
        return states
