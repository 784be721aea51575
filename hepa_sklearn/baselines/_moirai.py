"""Frozen Moirai embeddings of windows, each channel encoded on its own."""

import math
import re

import torch
import torch.nn.functional as F
from torch import nn

from .._docs import fill_doc
from ._foundation import FoundationEmbedder, last_steps_in_patches

__all__ = ["MoiraiEmbedder"]

PATCH_LEN = 16  # Moirai reads several patch sizes; windows are cut into patches of 16, as HEPA's and Chronos-2's
_EPS = 1e-5  # RMSNorm's epsilon and the scaler's smallest variance in the released models
_LAYER = re.compile(r"encoder\.layers\.(\d+)\.")


def _rms(x, weight):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + _EPS) * weight


class MoiraiEncoder(nn.Module):
    """Moirai's input projection and Transformer encoder (Woo et al., 2024), for one patch size, from its tensors.

    The layout of ``Salesforce/moirai-1.1-R-*`` (uni2ts ``MoiraiModule``):
    ``in_proj.weight`` (patch sizes, d, largest size), ``in_proj.bias``;
    per layer ``encoder.layers.<i>.`` ``norm1``/``norm2`` (RMSNorm),
    ``self_attn.{q,k,v,out}_proj`` (no bias), ``self_attn.{q,k}_norm``
    (RMSNorm over a head), ``self_attn.var_attn_bias.emb`` (two biases per
    head: another variate, the same), ``ffn.{fc_gate,fc1,fc2}`` (SiLU gated
    unit); ``encoder.norm``. Heads of 64 dimensions; rotary position on the
    first half of each head's dimensions, indexed by the patch's time id.
    The distribution head is not read.
    """

    def __init__(self, tensors, patch_sizes, patch_len):
        super().__init__()
        self.size_index = list(patch_sizes).index(patch_len)
        self.patch_len = patch_len
        self.d_model = tensors["in_proj.weight"].shape[1]
        self.n_heads = self.d_model // 64
        self.n_layers = 1 + max(int(match[1]) for match in map(_LAYER.match, tensors) if match)
        kept = {name: tensor for name, tensor in tensors.items() if name.startswith(("in_proj.", "encoder."))}
        self.weights = nn.ParameterDict(
            {name.replace(".", "__"): nn.Parameter(t, requires_grad=False) for name, t in kept.items()}
        )
        rotated = (self.d_model // self.n_heads) // 2
        self.register_buffer("theta", 1.0 / 10000 ** (torch.arange(0, rotated, 2, dtype=torch.float32) / rotated))

    def _w(self, name):
        return self.weights[name.replace(".", "__")]

    def _rotate(self, x, time_id):
        """Rotary position on the first half of the head dimensions, pairs (0, 1), (2, 3), ... turned together."""
        half = x.shape[-1] // 2
        angle = time_id[:, None, :, None].float() * self.theta  # (b, 1, n, half / 2)
        cos, sin = torch.cos(angle).repeat_interleave(2, -1), torch.sin(angle).repeat_interleave(2, -1)
        part = x[..., :half]
        turned = torch.stack([-part[..., 1::2], part[..., 0::2]], dim=-1).flatten(-2)
        return torch.cat([part * cos + turned * sin, x[..., half:]], dim=-1)

    def forward(self, values, observed, real, time_id):
        """Token states (b, n, d) of patches ``values`` (b, n, patch_len) with ``observed`` steps.

        ``real`` (b, n) marks the tokens from the series' first observation on
        (Moirai's sample id 1); the padding tokens before it are a sample of
        their own (id 0), standardised by nothing and attending to each other.
        """
        count = observed.sum((-2, -1)).clamp(min=1).to(values.dtype)
        values = torch.where(observed, values, torch.zeros_like(values))
        loc = values.sum((-2, -1)) / count
        var = (((values - loc[:, None, None]) ** 2) * observed).sum((-2, -1)) / (count - 1).clamp(min=1)
        scale = torch.sqrt(var + _EPS)
        loc, scale = loc[:, None, None] * real[..., None], torch.where(real[..., None], scale[:, None, None], 1.0)
        weight = self._w("in_proj.weight")[self.size_index, :, : self.patch_len]
        x = F.linear((values - loc) / scale, weight, self._w("in_proj.bias")[self.size_index])
        b, n, d = x.shape
        heads, head_dim = self.n_heads, d // self.n_heads
        allowed = real[:, :, None] == real[:, None, :]  # (b, n, n)
        for i in range(self.n_layers):
            p = f"encoder.layers.{i}."
            h = _rms(x, self._w(p + "norm1.weight"))
            q, k, v = (
                F.linear(h, self._w(p + f"self_attn.{name}_proj.weight")).view(b, n, heads, head_dim).transpose(1, 2)
                for name in "qkv"
            )
            q = self._rotate(_rms(q, self._w(p + "self_attn.q_norm.weight")), time_id)
            k = self._rotate(_rms(k, self._w(p + "self_attn.k_norm.weight")), time_id)
            # one variate per series: every pair of tokens gets the "same variate" bias
            bias = self._w(p + "self_attn.var_attn_bias.emb.weight")[1][None, :, None, None]
            bias = bias.masked_fill(~allowed[:, None], float("-inf"))
            scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim) + bias
            attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, n, d)
            x = x + F.linear(attended, self._w(p + "self_attn.out_proj.weight"))
            h = _rms(x, self._w(p + "norm2.weight"))
            gated = F.silu(F.linear(h, self._w(p + "ffn.fc_gate.weight"))) * F.linear(h, self._w(p + "ffn.fc1.weight"))
            x = x + F.linear(gated, self._w(p + "ffn.fc2.weight"))
        return _rms(x, self._w("encoder.norm.weight"))


@fill_doc
class MoiraiEmbedder(FoundationEmbedder):
    """Frozen Moirai embeddings of windows, each channel encoded on its own.

    ``fit`` loads a pretrained Moirai model (Woo et al., 2024; release 1.1 of
    ``SalesforceAIResearch/uni2ts``) from the local folder ``model_path`` in
    the layout of the Hugging Face repositories ``Salesforce/moirai-1.1-R-small``,
    ``-base`` and ``-large`` (``config.json`` with ``d_model``,
    ``num_layers``, ``patch_sizes`` and ``max_seq_len``; ``model.safetensors``
    with the tensors :class:`MoiraiEncoder` reads); nothing is trained and
    the ``uni2ts`` package is not needed. ``transform`` feeds every channel
    of every window to the model as a univariate series cut into patches of
    16 steps, as Moirai's own forecasting packs a series: left padding
    before the first observation forms tokens of their own, time ids count
    the patches from the first observed one, missing steps are masked and
    the series is standardised by the mean and standard deviation of its
    observed steps. The encoder's outputs are averaged over the patches that
    hold an observation, then over channels (or concatenated). Windows
    longer than ``max_seq_len`` patches keep their last patches.

    Parameters
    ----------
    %(foundation_parameters)s

    Attributes
    ----------
    model_ : MoiraiEncoder
        The encoder with the loaded weights, in evaluation mode on ``device``.
    embedding_dim_ : int
        Width of the encoder's outputs (384 for ``moirai-1.1-R-small``).
    patch_len_ : int
        Steps per input patch (16).
    %(window_shape_attributes)s

    See Also
    --------
    ChronosEmbedder, MomentEmbedder, TimesFMEmbedder : The same protocol with other models.

    References
    ----------
    G. Woo, C. Liu, A. Kumar, C. Xiong, S. Savarese and D. Sahoo, "Unified
    training of universal time series forecasting transformers", ICML 2024.

    Examples
    --------
    >>> from hepa_sklearn.baselines import MoiraiEmbedder
    >>> embedder = MoiraiEmbedder("models/moirai-1.1-R-small")  # the folder of the weights
    >>> embedder.get_params()["batch_size"]
    64
    """

    #: The model, as messages and reports name it.
    model_name = "Moirai"
    #: The Hugging Face repository of the weights, whose folder ``model_path`` holds.
    hub_id = "Salesforce/moirai-1.1-R-small"
    _patch_rule = "any"
    _libraries = ("safetensors",)
    _requirement = "safetensors"
    _extra = "moirai"

    def _check_config(self, config, folder):
        if not {"d_model", "num_layers", "patch_sizes", "max_seq_len"} <= set(config) or (
            PATCH_LEN not in config["patch_sizes"]
        ):
            raise ValueError(
                f"model_path={str(folder)!r} holds no Moirai model (config.json with d_model, num_layers, "
                f"patch_sizes holding {PATCH_LEN} and max_seq_len); MoiraiEmbedder reads the layout of "
                "Salesforce/moirai-1.1-R-small, -base and -large."
            )

    def _patch_requirement(self):
        return "each needs at least one observed (non-NaN) step"

    def _load(self, folder, config, device):
        from safetensors.torch import load_file

        model = MoiraiEncoder(load_file(str(folder / "model.safetensors")), config["patch_sizes"], PATCH_LEN)
        if model.n_layers != config["num_layers"] or model.d_model != config["d_model"]:
            raise ValueError(
                f"{folder}: model.safetensors holds {model.n_layers} layers of width {model.d_model}, "
                f"config.json says {config['num_layers']} of {config['d_model']}."
            )
        model.to(device=device, dtype=torch.float32).eval()
        return {
            "model_": model,
            "embedding_dim_": model.d_model,
            "patch_len_": PATCH_LEN,
            "context_length_": PATCH_LEN * int(config["max_seq_len"]),
        }

    def _model_input(self, series):
        return last_steps_in_patches(series, self.context_length_, self.patch_len_)

    def _encode(self, series):
        device = self.model_.theta.device
        values = torch.as_tensor(series, device=device).reshape(len(series), -1, self.patch_len_)
        observed = ~torch.isnan(values)
        started = torch.cumsum(observed.flatten(1).int(), dim=-1).reshape(observed.shape) > 0
        real = started.any(-1)  # tokens from the first observed step on, missing steps inside them or not
        time_id = (real.cumsum(dim=-1) - 1).clamp(min=0)
        return self.model_(values, observed, real, time_id)
