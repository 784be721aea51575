"""Torch modules of the paper's baselines: the matched downstream head, the masked autoencoder, PatchTST and
iTransformer.

Every encoder here is built from the blocks of :mod:`hepa_sklearn.nn.encoder`
(pre-norm :class:`~hepa_sklearn.nn.encoder.Block`, the attention mask that
skips empty tokens, forward fill, normalisation), so the baselines differ
from HEPA in what they tokenise and how they are trained, not in the
Transformer itself.
"""

import torch
import torch.nn.functional as F
from torch import nn

from .encoder import (
    Block,
    PatchEncoder,
    attention_mask,
    forward_fill,
    last_valid_state,
    sinusoidal_positions,
    window_statistics,
)
from .packed import PackedLayout

CHANNEL_POOLING = ("mean", "concat")


class MatchedHead(nn.Module):
    """Hazard logits at horizons 1..K from embeddings (B, d_in): the paper's common baseline head.

    ``z_k = LayerNorm(Linear(d_in, H)(e) + horizon_embedding[k - 1])``, then
    ``Linear(H, H)-GELU-Linear(H, H)-GELU-Linear(H, 1)`` on each ``z_k``
    (paper, App. "Baseline protocol": a linear projection to 256, a learned
    horizon embedding of 256 entries x 256, LayerNorm and a 3-layer MLP
    256-256-256-1, 264K parameters at d_in = 256).

    Parameters
    ----------
    d_in : int
        Width of the embeddings.
    K : int
        Number of horizons; horizon ``k`` reads row ``k - 1`` of the table.
    hidden : int, default=256
    horizon_rows : int or None, default=None
        Rows of the horizon embedding table (at least ``K``); None gives ``K``.
    """

    def __init__(self, d_in, K, hidden=256, horizon_rows=None):
        super().__init__()
        rows = K if horizon_rows is None else horizon_rows
        if rows < K:
            raise ValueError(f"the horizon table needs at least K={K} rows, got {rows}.")
        self.K = K
        self.input = nn.Linear(d_in, hidden)
        self.horizon_embedding = nn.Embedding(rows, hidden)
        self.norm = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(
            nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 1)
        )

    def forward(self, embeddings):
        z = self.input(embeddings)[:, None, :] + self.horizon_embedding.weight[: self.K]  # (B, K, H)
        return self.mlp(self.norm(z)).squeeze(-1)  # (B, K)


def pool_channels(states, valid, how):
    """Per-channel states (B, C, d) with their validity (B, C) -> one embedding per window.

    ``"mean"``: the mean over the channels that hold an observation, (B, d);
    ``"concat"``: the channels side by side, (B, C * d), with zeros for a
    channel without observation.
    """
    weight = valid.to(states.dtype)[..., None]  # (B, C, 1)
    if how == "mean":
        return (states * weight).sum(1) / weight.sum(1).clamp(min=1)
    if how == "concat":
        return (states * weight).flatten(1)
    raise ValueError(f"channel pooling must be one of {CHANNEL_POOLING}, got {how!r}.")


class _TokenStack(nn.Module):
    """Input dropout, the pre-norm blocks of ``config`` and a final LayerNorm over tokens (B, N, d)."""

    def __init__(self, config):
        super().__init__()
        self.input_dropout = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        self.final_norm = nn.LayerNorm(config.d_model)

    def forward(self, h, valid, causal):
        h = self.input_dropout(h)
        mask = attention_mask(valid, causal)
        for block in self.blocks:
            h = block(h, mask)
        return self.final_norm(h)

    def forward_packed(self, h, layout):
        """The same stack on tokens packed in rows ``h`` (T, d), attending within their sequences (bidirectional).

        See :class:`~hepa_sklearn.nn.packed.PackedLayout`.
        """
        h = self.input_dropout(h)
        for block in self.blocks:
            h = block.forward_packed(h, layout)
        return self.final_norm(h)


class _NormalisedInput(nn.Module):
    """Holds the per-channel statistics of ``norm="global"`` and normalises and fills windows."""

    def __init__(self, config, channel_loc=None, channel_scale=None):
        super().__init__()
        self.config = config
        self.register_buffer("channel_loc", torch.zeros(config.n_channels))
        self.register_buffer("channel_scale", torch.ones(config.n_channels))
        if channel_loc is not None:
            self.channel_loc.copy_(torch.as_tensor(channel_loc, dtype=torch.float32))
            self.channel_scale.copy_(torch.as_tensor(channel_scale, dtype=torch.float32))

    def normalised(self, x):
        """``x`` (B, C, L) normalised and forward-filled (0 before a channel's first value), and its observed mask."""
        observed = ~torch.isnan(x)
        loc, scale = window_statistics(x, observed, self.config.norm, self.channel_loc, self.channel_scale)
        values = torch.where(observed, (x - loc[..., None]) / scale[..., None], torch.zeros_like(x))
        return forward_fill(values, observed), observed


class PatchTSTBackbone(_NormalisedInput):
    """Channel-independent patch Transformer with bidirectional attention (Nie et al. 2023).

    Each channel is its own token stream: patches of ``patch_size`` steps
    every ``patch_stride`` steps, aligned on the window's last step, are
    projected by one shared ``Linear(patch_size, d_model)`` with sinusoidal
    positions, and attend to each other in both directions (tokens without
    an observation are masked out). A channel's state is the mean of its
    valid token states.

    Returns per-channel states (B, C, d_model) and which channels hold an
    observation (B, C).
    """

    def __init__(self, config, patch_stride, channel_loc=None, channel_scale=None):
        super().__init__(config, channel_loc, channel_scale)
        self.patch_stride = patch_stride
        self.projection = nn.Linear(config.patch_size, config.d_model)
        self.stack = _TokenStack(config)

    def patches(self, x):
        """Patches (B, C, N, P) of the normalised window and their validity (B, C, N)."""
        values, observed = self.normalised(x)
        L, P, S = x.shape[-1], self.config.patch_size, self.patch_stride
        pad = P - L if L < P else (-(L - P)) % S  # the last patch ends on the last step
        values = F.pad(values, (pad, 0))
        observed = F.pad(observed, (pad, 0), value=False)
        return values.unfold(-1, P, S), observed.unfold(-1, P, S).any(-1)

    def forward(self, x, *, pack=True):
        """Per-channel states (B, C, d_model) and validity (B, C) of windows ``x`` (B, C, L).

        With ``pack`` (the default), a batch that holds padding runs only its
        valid tokens (:meth:`_packed_mean`); ``pack=False`` runs the dense pass
        over every token, padding included. Both give the same states.
        """
        patches, valid = self.patches(x)
        B, C, N, P = patches.shape  # batch, channels, tokens per channel, patch length
        positions = sinusoidal_positions(torch.arange(N, device=x.device), self.config.d_model)
        patches, valid = patches.reshape(B * C, N, P), valid.reshape(B * C, N)
        if not pack or valid.all() or torch.onnx.is_in_onnx_export():
            h = self.stack(self.projection(patches) + positions, valid, causal=False)  # (B * C, N, d)
            weight = valid.to(h.dtype)[..., None]
            per_channel = (h * weight).sum(1) / weight.sum(1).clamp(min=1)
        else:
            per_channel = self._packed_mean(patches, valid, positions)
        return per_channel.view(B, C, -1), valid.view(B, C, N).any(-1)

    def _packed_mean(self, patches, valid, positions):
        """Mean state of the valid tokens of each stream (S, d), computing only valid tokens.

        The function of the dense pass (an empty token is never a key, and
        its own state is left out of the mean), summed in another order:
        on windows with long padding, such as C-MAPSS's early cycles, most
        of the work of the dense pass goes to tokens that are thrown away.
        """
        layout = PackedLayout(valid, present=valid)
        h = self.projection(patches[layout.sequence, layout.column]) + positions[layout.column]
        h = self.stack.forward_packed(h, layout)
        total = h.new_zeros(valid.shape[0], h.shape[1]).index_add_(0, layout.sequence, h)
        return total / valid.sum(1, keepdim=True).clamp(min=1).to(h.dtype)


class VariateTransformer(_NormalisedInput):
    """One token per variate, attention across variates (iTransformer, Liu et al. 2024).

    Channel ``c``'s whole normalised, forward-filled window and its observed
    indicator (2 L values) are projected to one token, so a padded step is
    not mistaken for a value at the channel's mean; the tokens of all
    channels attend to each other (a channel without any observation is
    masked out). The window length is fixed at construction.

    Returns per-channel states (B, C, d_model) and which channels hold an
    observation (B, C).
    """

    def __init__(self, config, n_timepoints, channel_loc=None, channel_scale=None):
        super().__init__(config, channel_loc, channel_scale)
        self.projection = nn.Linear(2 * n_timepoints, config.d_model)
        self.stack = _TokenStack(config)

    def forward(self, x):
        values, observed = self.normalised(x)
        tokens = torch.cat([values, observed.to(values.dtype)], dim=-1)  # (B, C, 2L)
        valid = observed.any(-1)  # (B, C)
        return self.stack(self.projection(tokens), valid, causal=False), valid


BACKBONES = {"patchtst": PatchTSTBackbone, "itransformer": VariateTransformer}


class SupervisedSurfaceModel(nn.Module):
    """A per-channel encoder, channel pooling and the matched head: windows (B, C, L) -> hazard logits (B, K).

    The encoder is ``BACKBONES[backbone](config, **backbone_params,
    channel_loc=..., channel_scale=...)``, built here so that its initial
    weights come from the seeded generator of ``fit``. ``embed`` gives the
    pooled embedding that the frozen encoder exposes.
    """

    def __init__(
        self,
        backbone,
        config,
        backbone_params,
        pooling,
        K,
        hidden,
        horizon_rows=None,
        channel_loc=None,
        channel_scale=None,
    ):
        super().__init__()
        if backbone not in BACKBONES:
            raise ValueError(f"backbone must be one of {sorted(BACKBONES)}, got {backbone!r}.")
        self.backbone = BACKBONES[backbone](
            config, **backbone_params, channel_loc=channel_loc, channel_scale=channel_scale
        )
        self.pooling = pooling
        d_in = config.d_model * config.n_channels if pooling == "concat" else config.d_model
        self.head = MatchedHead(d_in, K, hidden, horizon_rows)

    def embed(self, x):
        return pool_channels(*self.backbone(x), self.pooling)

    def forward(self, x):
        return self.head(self.embed(x))


def _token_layout(observed, patch_size):
    """A boolean (B, C, L) laid out as the encoder's tokens (B, N, C * P): left-padded with False, patch-major."""
    B, C, L = observed.shape
    observed = F.pad(observed, ((-L) % patch_size, 0), value=False)
    N = observed.shape[-1] // patch_size
    return observed.view(B, C, N, patch_size).permute(0, 2, 1, 3).reshape(B, N, C * patch_size)


class MaskedAutoencoder(nn.Module):
    """HEPA's causal patch encoder with a learned mask token and a linear decoder to patch values (He et al. 2022).

    Masked tokens are replaced by the mask token before positions are added;
    the decoder maps each token's state to the ``patch_size * n_channels``
    normalised values of its patch. ``embed`` is the state of the last valid
    token of the unmasked window, as :meth:`hepa_sklearn.nn.JEPA.embed`.
    """

    def __init__(self, config, channel_loc=None, channel_scale=None):
        super().__init__()
        self.encoder = PatchEncoder(config)
        if channel_loc is not None:
            self.encoder.channel_loc.copy_(torch.as_tensor(channel_loc, dtype=torch.float32))
            self.encoder.channel_scale.copy_(torch.as_tensor(channel_scale, dtype=torch.float32))
        self.mask_token = nn.Parameter(torch.zeros(config.d_model))
        nn.init.normal_(self.mask_token, std=0.02)
        self.decoder = nn.Linear(config.d_model, config.patch_size * config.n_channels)

    def embed(self, x):
        states, valid, *_ = self.encoder(x, causal=True)
        return last_valid_state(states, valid)

    def forward(self, x, mask):
        """Reconstructed and true patch values (B, N', C * P) and the weight of each value (1 where masked and
        observed).

        ``mask`` (B, N) marks the masked tokens over the window's full token
        sequence (right-aligned patches, as the encoder cuts them).
        """
        states, _, first, loc, scale = self.encoder(x, causal=True, replace_tokens=(mask, self.mask_token))
        reconstruction = self.decoder(states)
        n_tokens = states.shape[1]
        target, _ = self.encoder.tokenize(x, loc, scale, align_right=True)
        observed = _token_layout(~torch.isnan(x), self.encoder.config.patch_size).to(target.dtype)
        target, observed = target[:, first : first + n_tokens], observed[:, first : first + n_tokens]
        weight = observed * mask[:, first : first + n_tokens, None].to(observed.dtype)
        return reconstruction, target, weight
