"""Frozen MOMENT embeddings of windows, each channel on its own; the encoder rebuilt from its checkpoint."""

import math

import torch

from .._docs import fill_doc
from ._foundation import FoundationEmbedder, last_steps_in_patches

__all__ = ["MomentEmbedder"]

# RevIN's epsilon in MOMENT (the default of its RevIN layer in the momentfm package):
# added to each series' standard deviation before dividing
MOMENT_REVIN_EPS = 1e-5

# Length of MOMENT's sinusoidal position table: ample for its 512-step input in patches
MOMENT_MAX_PATCHES = 5000


def moment_position_table(n_positions, d_model):
    """The fixed sinusoidal position embeddings of MOMENT (Vaswani et al., 2017): (n_positions, d_model).

    Entry ``(p, 2i)`` is ``sin(p / 10000^(2i/d))`` and ``(p, 2i+1)`` the
    cosine of the same angle.
    """
    position = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequency = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(n_positions, d_model)
    table[:, 0::2] = torch.sin(position * frequency)
    table[:, 1::2] = torch.cos(position * frequency[: d_model // 2])
    return table


def _with_prefix(weights, prefix):
    """The tensors of ``weights`` whose names start with ``prefix``, with the prefix removed."""
    return {name[len(prefix) :]: tensor for name, tensor in weights.items() if name.startswith(prefix)}


class _MomentEncoder(torch.nn.Module):
    """MOMENT's embedding path (Goswami et al., 2024): RevIN, patching, patch embedding, T5 encoder.

    Built from the checkpoint's ``config.json`` and weights; the
    reconstruction head is not needed for embeddings and is not loaded.
    """

    def __init__(self, config, weights):
        from transformers import T5Config, T5EncoderModel

        super().__init__()
        self.patch_len = int(config["patch_len"])
        t5_config = T5Config.from_dict(config["t5_config"])
        t5_config.is_decoder, t5_config.use_cache, t5_config.is_encoder_decoder = False, False, False
        self.encoder = T5EncoderModel(t5_config).encoder
        d_model = t5_config.d_model
        bias = config.get("value_embedding_bias", False)
        self.value_embedding = torch.nn.Linear(self.patch_len, d_model, bias=bias)
        self.mask_embedding = torch.nn.Parameter(torch.zeros(d_model))
        positions = torch.zeros(MOMENT_MAX_PATCHES, d_model)
        if config.get("add_positional_embedding", True):
            table = weights.get("patch_embedding.position_embedding.pe")
            positions = table[0] if table is not None else moment_position_table(MOMENT_MAX_PATCHES, d_model)
        self.register_buffer("positions", positions)

        for prefix, module in (("encoder.", self.encoder), ("patch_embedding.value_embedding.", self.value_embedding)):
            module.load_state_dict(_with_prefix(weights, prefix))
        self.mask_embedding.data.copy_(weights["patch_embedding.mask_embedding"])

    def forward(self, series):
        """Token outputs (b, n_patches, d) for series (b, seq_len) with NaN where unobserved."""
        observed = ~torch.isnan(series)
        mean = torch.nanmean(series, dim=1, keepdim=True)
        spread = (series - mean).square().nanmean(dim=1, keepdim=True).sqrt() + MOMENT_REVIN_EPS
        values = torch.nan_to_num((series - mean) / spread, nan=0.0)
        patches = values.unfold(-1, self.patch_len, self.patch_len)  # (b, P, patch_len)
        full = observed.unfold(-1, self.patch_len, self.patch_len).all(dim=-1)  # (b, P)
        # a patch with any missing step is replaced by the learned mask token, and attended to by none
        tokens = torch.where(full[..., None], self.value_embedding(patches), self.mask_embedding)
        tokens = tokens + self.positions[: tokens.shape[1]]
        return self.encoder(inputs_embeds=tokens, attention_mask=full.long()).last_hidden_state


@fill_doc
class MomentEmbedder(FoundationEmbedder):
    """Frozen MOMENT embeddings of windows, each channel encoded on its own.

    ``fit`` loads a pretrained MOMENT model (Goswami et al., 2024) from the
    local folder ``model_path``; nothing is trained. ``transform`` gives
    MOMENT every channel of every window as a separate series, averages
    the encoder's patch outputs over the fully observed patches (those
    MOMENT attends to), and then averages over channels, or concatenates
    them: the paper's matched baseline, frozen foundation-model features
    per channel, then mean-pooled (the baselines of the HEPA paper).

    MOMENT reads a fixed number of steps (512 for the released models) in
    patches of 8. A shorter window is padded on the left and the padding is
    masked, as MOMENT's own interface does; a longer one keeps its last 512
    steps. Each series is normalised by the mean and spread of its observed
    steps (RevIN). A patch with any missing step is replaced by MOMENT's
    mask token and left out of attention and of the mean, so a channel
    counts only if it has at least one fully observed patch; impute
    scattered gaps first if they would leave none.

    The model is built with ``transformers`` (MOMENT's encoder is T5's) from
    the checkpoint's ``config.json`` and ``model.safetensors``, so the
    ``momentfm`` package is not needed: ``momentfm`` 0.1.4 pins
    ``numpy==1.25.2`` and ``transformers==4.33.3``, which would downgrade
    both. Its embeddings and this class's agree on the same checkpoint (the
    test suite checks it when ``momentfm`` is importable). Needs
    ``pip install 'hepa-sklearn[moment]'``. The weights are not downloaded:
    fetch a Hugging Face repository such as ``AutonLab/MOMENT-1-large`` on
    a machine with internet access and copy the folder here (the user
    guide's "Foundation-model baselines").

    With ``channel_pooling="concat"``, a channel with no fully observed patch
    embeds as zeros.

    Parameters
    ----------
    %(foundation_parameters)s

    Attributes
    ----------
    model_ : torch.nn.Module
        The loaded encoder (patch embedding and T5 encoder), in evaluation
        mode on ``device``.
    embedding_dim_ : int
        Width of the encoder's outputs (1024 for ``MOMENT-1-large``).
    patch_len_ : int
        Steps per patch (8).
    seq_len_ : int
        Steps the model reads (512).
    %(window_shape_attributes)s

    See Also
    --------
    ChronosEmbedder : The same protocol with Chronos-2.
    hepa_sklearn.HEPAPretrainer : The self-supervised encoder these baselines compare against.

    References
    ----------
    M. Goswami, K. Szafer, A. Choudhry, Y. Cai, S. Li and A. Dubrawski,
    "MOMENT: A family of open time-series foundation models", ICML 2024.

    T. Kim et al., "Reversible instance normalization for accurate
    time-series forecasting against distribution shift", ICLR 2022.

    Examples
    --------
    >>> from hepa_sklearn.baselines import MomentEmbedder
    >>> MomentEmbedder("models/MOMENT-1-large", channel_pooling="concat").channel_pooling
    'concat'
    """

    #: The model, as messages and reports name it.
    model_name = "MOMENT"
    #: The Hugging Face repository of the weights, whose folder ``model_path`` holds.
    hub_id = "AutonLab/MOMENT-1-large"
    _patch_rule = "all"  # MOMENT attends to fully observed patches only
    _libraries = ("safetensors", "transformers")
    _requirement = "transformers and safetensors"
    _extra = "moment"

    def _check_config(self, config, folder):
        if "t5_config" not in config or "patch_len" not in config:
            raise ValueError(
                f"model_path={str(folder)!r} holds no MOMENT model: its config.json lacks t5_config and "
                "patch_len; MomentEmbedder reads MOMENT checkpoints such as AutonLab/MOMENT-1-large."
            )
        unsupported = {
            "patch_stride_len": (config.get("patch_stride_len", config["patch_len"]), config["patch_len"]),
            "revin_affine": (config.get("revin_affine", False), False),
            "transformer_type": (config.get("transformer_type", "encoder_only"), "encoder_only"),
        }
        for name, (value, supported) in unsupported.items():
            if value != supported:
                raise ValueError(
                    f"MomentEmbedder reads MOMENT checkpoints with {name}={supported!r} (as the released "
                    f"models); the one at {str(folder)!r} has {name}={value!r}."
                )
        if not (folder / "model.safetensors").is_file():
            raise FileNotFoundError(
                f"model_path={str(folder)!r} holds config.json but no model.safetensors; copy the whole "
                f"folder of the Hugging Face repository ({self.hub_id} or another MOMENT model)."
            )

    def _patch_requirement(self):
        return (
            f"each needs at least one fully observed patch of {self.patch_len_} steps within its last {self.seq_len_}"
        )

    def _load(self, folder, config, device):
        from safetensors.torch import load_file

        weights = load_file(str(folder / "model.safetensors"))
        try:
            model = _MomentEncoder(config, weights)
        except (KeyError, RuntimeError) as exc:  # a tensor missing, unexpected or of another shape
            raise ValueError(
                f"The weights in {str(folder / 'model.safetensors')!r} do not fit the MOMENT architecture "
                f"its config.json describes: {exc}"
            ) from exc
        model = model.to(device=device, dtype=torch.float32).eval()
        return {
            "model_": model,
            "embedding_dim_": int(model.mask_embedding.shape[0]),
            "patch_len_": model.patch_len,
            "seq_len_": int(config["seq_len"]),
        }

    def _model_input(self, series):
        return last_steps_in_patches(series, self.seq_len_, self.patch_len_, fill_to=self.seq_len_)

    def _encode(self, series):
        device = next(self.model_.parameters()).device
        return self.model_(torch.from_numpy(series).to(device))
