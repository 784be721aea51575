"""Causal patch Transformer encoder with NaN masking and normalisation; its packed and grouped passes over intervals."""

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .packed import PackedLayout, interval_tokens

NORM_MODES = ("revin", "global", "none")
TOKEN_MODES = ("patch", "channel", "univariate")


@dataclass(frozen=True)
class EncoderConfig:
    n_channels: int  # sensors per step; one token holds patch_size * n_channels values
    d_model: int = 256  # paper Table "Hyperparameters"
    n_layers: int = 2
    n_heads: int = 4  # each block's feed-forward layer is d_model wide, as in the paper
    patch_size: int = 16  # P = 16 (paper §3.1)
    dropout: float = 0.1
    norm: str = "revin"  # "revin" per context, "global" per channel from fit, "none"
    tokens: str = "patch"  # "patch": one token per patch across channels; "channel": one stream per channel


def sinusoidal_positions(positions, d_model):
    """Sinusoidal encodings (Vaswani et al. 2017) of integer positions, shape (*positions.shape, d_model)."""
    half = torch.arange(0, d_model, 2, device=positions.device, dtype=torch.float32)
    frequencies = torch.exp(-math.log(10000.0) * half / d_model)
    angles = positions.to(torch.float32)[..., None] * frequencies
    encoding = torch.zeros(*positions.shape, d_model, device=positions.device)
    encoding[..., 0::2] = torch.sin(angles)
    encoding[..., 1::2] = torch.cos(angles[..., : d_model // 2])
    return encoding


def window_statistics(x, observed, norm, channel_loc, channel_scale):
    """Per-(window, channel) location and scale (B, C) normalising ``x`` (B, C, L) under ``norm``.

    ``"revin"``: mean and standard deviation of each window's observed values
    in each channel; ``"global"``: the given per-channel ``channel_loc`` and
    ``channel_scale`` (C,); ``"none"``: 0 and 1.
    """
    B, C, _ = x.shape
    if norm == "global":
        return channel_loc.expand(B, C), channel_scale.expand(B, C)
    if norm == "none":
        return x.new_zeros(B, C), x.new_ones(B, C)
    count = observed.sum(-1)
    zeros = torch.zeros_like(x)
    mean = torch.where(observed, x, zeros).sum(-1) / count.clamp(min=1)
    centred = torch.where(observed, x - mean[..., None], zeros)
    variance = centred.square().sum(-1) / count.clamp(min=1)
    # RevIN (Kim et al. 2022) adds eps = 1e-5 to the variance
    return mean, torch.sqrt(variance + 1e-5)


def running_max(values):
    """Maximum of ``values`` over each prefix of the last axis, as ``values.cummax(-1).values``.

    ONNX has no cumulative maximum, so while exporting to ONNX the same
    result comes from a doubling scan, ceil(log2(L)) element-wise maxima; it
    is about 5x slower than ``cummax`` (7.7 against 37.9 ms at (64, 14, 512)
    on one CPU thread), so training keeps ``cummax``.
    """
    if not torch.onnx.is_in_onnx_export():
        return values.cummax(dim=-1).values
    length, shift = values.shape[-1], 1
    while shift < length:
        earlier = F.pad(values[..., :-shift], (shift, 0), value=torch.iinfo(values.dtype).min)
        values = torch.maximum(values, earlier)
        shift *= 2
    return values


def forward_fill(values, observed):
    """Carry the last observed value forward along the last axis; 0 before the first one.

    With normalised inputs 0 is the channel's mean, so a value missing before
    any observation never pulls information from the future (causality).
    """
    steps = torch.arange(values.shape[-1], device=values.device)
    last_seen = running_max(torch.where(observed, steps, torch.full_like(steps, -1)))
    filled = values.gather(-1, last_seen.clamp(min=0))
    return torch.where(last_seen >= 0, filled, torch.zeros_like(filled))


def attention_mask(valid, causal):
    """Boolean mask (B, 1, N, N), True where query i may attend to key j.

    Keys that hold no observation are never attended to. Each query may
    always attend to itself, so rows of padded tokens stay finite instead
    of turning into NaN that would spread through later layers.
    """
    n_tokens = valid.shape[1]
    eye = torch.eye(n_tokens, dtype=torch.bool, device=valid.device)
    allowed = valid[:, None, :].expand(-1, n_tokens, -1)
    if causal:
        allowed = allowed & torch.ones_like(eye).tril()
    return (allowed | eye)[:, None]


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def forward(self, x, mask):
        B, N, D = x.shape  # batch, tokens, model width
        q, k, v = self.qkv(x).view(B, N, 3, self.n_heads, D // self.n_heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=self.dropout if self.training else 0.0
        )  # (B, heads, N, D / heads)
        return self.out(y.transpose(1, 2).reshape(B, N, D))


class Block(nn.Module):
    """Pre-norm Transformer block: x + attn(LN(x)), then x + FF(LN(x))."""

    def __init__(self, config):
        super().__init__()
        d = config.d_model
        self.norm1 = nn.LayerNorm(d)
        self.attention = SelfAttention(d, config.n_heads, config.dropout)
        self.norm2 = nn.LayerNorm(d)
        self.feed_forward = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Dropout(config.dropout), nn.Linear(d, d))
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x, mask):
        x = x + self.dropout(self.attention(self.norm1(x), mask))
        return x + self.dropout(self.feed_forward(self.norm2(x)))

    def forward_packed(self, x, layout):
        """The same block on the tokens of many sequences packed in rows ``x`` (T, d), see :class:`PackedLayout`."""
        attention = self.attention
        qkv = attention.qkv(self.norm1(x))
        mixed = layout.attend(qkv, attention.n_heads, attention.dropout if attention.training else 0.0)
        x = x + self.dropout(attention.out(mixed))
        return x + self.dropout(self.feed_forward(self.norm2(x)))


class PatchEncoder(nn.Module):
    """Patch Transformer over windows ``(B, C, L)`` with NaN for missing steps.

    The window is cut into non-overlapping patches of ``patch_size`` steps
    across all channels, aligned on the window's last step (the window is
    left-padded with NaN to a multiple of the patch size). A token without a
    single observed value is masked out of attention; within a token,
    missing values are forward-filled from earlier steps. Positions are the
    absolute patch indices of the padded window, so one causal pass gives
    the state after every patch boundary.
    """

    def __init__(self, config):
        super().__init__()
        if config.norm not in NORM_MODES:
            raise ValueError(f"norm must be one of {NORM_MODES}, got {config.norm!r}.")
        self.config = config
        self.projection = nn.Linear(self.token_width(config), config.d_model)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.n_layers))
        self.final_norm = nn.LayerNorm(config.d_model)
        self.input_dropout = nn.Dropout(config.dropout)
        # per-channel statistics of norm="global", set from the training data in fit
        self.register_buffer("channel_loc", torch.zeros(config.n_channels))
        self.register_buffer("channel_scale", torch.ones(config.n_channels))

    @staticmethod
    def token_width(config):
        """Values per token: one patch of every channel."""
        return config.patch_size * config.n_channels

    def statistics(self, x, observed):
        """Per-(window, channel) location and scale used to normalise ``x``."""
        return window_statistics(x, observed, self.config.norm, self.channel_loc, self.channel_scale)

    def tokenize(self, x, loc, scale, align_right):
        """Normalise, fill and patch ``x`` (B, C, L) into tokens (B, N, C * P) and validity (B, N)."""
        B, C, L = x.shape  # batch, channels, steps
        P = self.config.patch_size
        pad = (-L) % P
        if pad:
            padding = (pad, 0) if align_right else (0, pad)
            x = F.pad(x, padding, value=float("nan"))
        observed = ~torch.isnan(x)
        x = (x - loc[..., None]) / scale[..., None]
        x = forward_fill(torch.where(observed, x, torch.zeros_like(x)), observed)
        N = x.shape[-1] // P
        tokens = x.view(B, C, N, P).permute(0, 2, 1, 3).reshape(B, N, C * P)
        valid = observed.view(B, C, N, P).any(dim=3).any(dim=1)  # (B, N)
        return tokens, valid

    def forward(self, x, *, causal=True, loc=None, scale=None, drop_empty=True, replace_tokens=None):
        """Encode windows.

        Parameters
        ----------
        x : tensor (B, C, L), NaN where missing or padded
        causal : bool
            Causal attention (context path) or bidirectional (target path).
        loc, scale : tensors (B, C) or None
            Normalisation statistics; computed from ``x`` when None.
        drop_empty : bool
            Drop the token columns that are empty in every window of the
            batch before attention (faster on left-padded batches). False
            keeps every column, so no shape depends on the values of ``x``,
            as a traced or exported graph needs.
        replace_tokens : (mask, token) or None
            Masked-patch pretraining: the projected tokens where ``mask``
            (B, N), over the full token sequence, is True are replaced by
            ``token`` (d_model,) before positions are added. None (the
            default) replaces nothing.

        Returns
        -------
        states : tensor (B, N', d_model), token states after the final LayerNorm
        valid : tensor (B, N'), bool, tokens that hold at least one observation
        first : int, index in the full token sequence of ``states[:, 0]``
            (with ``drop_empty``, token columns that are empty in every window
            of the batch are dropped before attention; this changes no valid
            output).
        loc, scale : the normalisation statistics used
        """
        if loc is None:
            loc, scale = self.statistics(x, ~torch.isnan(x))
        tokens, valid = self.tokenize(x, loc, scale, align_right=causal)
        first, last = 0, tokens.shape[1]
        if drop_empty:
            any_valid = valid.any(dim=0).nonzero()
            first, last = (int(any_valid[0]), int(any_valid[-1]) + 1) if any_valid.numel() else (0, 1)
            tokens, valid = tokens[:, first:last], valid[:, first:last]
        positions = torch.arange(first, last, device=x.device)
        h = self.projection(tokens)
        if replace_tokens is not None:
            mask, token = replace_tokens
            h = torch.where(mask[:, first:last, None], token.to(h.dtype), h)
        h = h + sinusoidal_positions(positions, self.config.d_model)
        h = self.input_dropout(h)
        mask = attention_mask(valid, causal)
        for block in self.blocks:
            h = block(h, mask)
        return self.final_norm(h), valid, first, loc, scale

    def pool_intervals(self, x, lengths, loc, scale, pooling):
        """Bidirectional pass over intervals ``x`` (B, C, L) aligned left, each pooled to one vector by ``pooling``.

        The tokens of all intervals are packed (:func:`encode_packed`), so no
        padding token is computed; ``lengths`` (B,), the steps of each
        interval, is not needed here (see :func:`pool_in_groups`).

        Returns
        -------
        pooled : tensor (B, d_model)
        observed : tensor (B,), bool, intervals that hold an observation
        """
        states, layout = encode_packed(self, x, loc, scale)
        return pool_packed(states, layout, pooling)

    def pool_targets(self, x, cut, dt, loc, scale, pooling, n_columns):
        """``pool_intervals`` of the intervals ``[cut, cut + dt)`` of windows ``x``, read from ``x`` directly.

        Equals ``pool_intervals(future_intervals(x, cut, dt, n_columns * P), dt, ...)``
        without forming the (B, C, n_columns * P) grid of intervals and its
        padding (:func:`~hepa_sklearn.nn.packed.interval_tokens`).
        """
        tokens, valid, lengths = interval_tokens(x, cut, dt, loc, scale, self.config.patch_size, n_columns)
        layout = PackedLayout(valid, lengths)
        return pool_packed(encode_rows(self, tokens, layout), layout, pooling)


def future_intervals(x, cut, dt, length):
    """The intervals ``[cut, cut + dt)`` of windows ``x`` (B, C, L), left-aligned in (B, C, length), NaN after."""
    B, C, L = x.shape
    offsets = torch.arange(length, device=x.device)
    index = cut[:, None] + offsets  # (B, length)
    outside = (offsets >= dt[:, None]) | (index >= L)
    future = x.gather(2, index.clamp(max=L - 1)[:, None, :].expand(B, C, -1))
    return future.masked_fill(outside[:, None, :], float("nan"))


def pool_packed(states, layout, pooling):
    """Each sequence's pooled vector (B, d) and whether it holds an observation (B,), from packed ``states``."""
    observed = torch.zeros(layout.n_sequences, dtype=torch.bool, device=states.device).index_put_(
        (layout.sequence,), layout.key_valid, accumulate=True
    )
    return pooling.forward_packed(states, layout), observed


def encode_packed(encoder, x, loc, scale):
    """Bidirectional pass of ``encoder`` over windows ``x`` (B, C, L) aligned left, without padding tokens.

    Gives the states of ``encoder(x, causal=False, loc=loc, scale=scale)``
    for every token up to each window's last observed one (the same
    function, summed in another order), computing no token past it.

    Returns
    -------
    states : tensor (T, d_model), the tokens of all windows packed row by row
    layout : PackedLayout, which window and column each row belongs to
    """
    tokens, valid = encoder.tokenize(x, loc, scale, align_right=False)
    n_tokens = valid.shape[1]
    columns = torch.arange(n_tokens, device=x.device)
    lengths = torch.where(valid, columns + 1, torch.zeros_like(columns)).max(dim=1).values
    layout = PackedLayout(valid, lengths)
    return encode_rows(encoder, tokens[layout.sequence, layout.column], layout), layout


def encode_rows(encoder, tokens, layout):
    """The bidirectional pass of ``encoder`` over packed ``tokens`` (T, token width) laid out by ``layout``."""
    positions = sinusoidal_positions(torch.arange(layout.n_columns, device=tokens.device), encoder.config.d_model)
    h = encoder.input_dropout(encoder.projection(tokens) + positions[layout.column])
    for block in encoder.blocks:
        h = block.forward_packed(h, layout)
    return encoder.final_norm(h)


def last_valid_state(states, valid):
    """State of each window's last token that holds an observation, (B, d_model)."""
    n_tokens = valid.shape[1]
    steps = torch.arange(n_tokens, device=valid.device)
    index = torch.where(valid, steps, torch.full_like(steps, -1)).max(dim=1).values.clamp(min=0)
    return states[torch.arange(states.shape[0], device=states.device), index]


# Below this many rows per group, splitting a batch costs more in small
# matrix products than it saves in padding: target pass of a 64-cut FD001
# batch on 2 CPU cores, 26.5 ms with groups of 16, 17.8 ms with 32, 22 ms unsplit.
MIN_GROUP = 32


def similar_groups(key):
    """Indices sorted by ``key`` and cut into groups of at least MIN_GROUP rows."""
    order = torch.argsort(key, stable=True)
    n_groups = max(1, order.shape[0] // MIN_GROUP)
    return torch.tensor_split(order, n_groups)


def pool_in_groups(encoder, x, lengths, loc, scale, pooling):
    """What :meth:`PatchEncoder.pool_intervals` returns, with the intervals padded in groups of similar ``lengths``.

    Any encoder runs this way: each group is one padded batch through
    ``encoder(..., causal=False)``, so short intervals do not pay for the
    padding of long ones.
    """
    pooled, observed, order = [], [], []
    for group in similar_groups(lengths):
        states, valid, *_ = encoder(x[group], causal=False, loc=loc[group], scale=scale[group])
        pooled.append(pooling(states, valid))
        observed.append(valid.any(dim=1))
        order.append(group)
    inverse = torch.argsort(torch.cat(order))
    return torch.cat(pooled)[inverse], torch.cat(observed)[inverse]
