"""HEPA's encoder with channel tokens: one stream of patch tokens per channel, fused per patch position.

With ``tokens="univariate"`` the channels carry no identity, so one set of
weights reads windows of any number of channels.
"""

import torch
import torch.nn.functional as F
from torch import nn

from .encoder import TOKEN_MODES, PatchEncoder, attention_mask, future_intervals, pool_in_groups, sinusoidal_positions


class ChannelPatchEncoder(PatchEncoder):
    """Patch encoder with one token stream per channel, fused per patch position (``tokens="channel"``).

    Each channel's patch of ``patch_size`` steps is its own token: projected
    by one ``Linear(patch_size, d_model)`` shared by all channels, plus a
    learned embedding of its channel (``tokens="channel"``; none with
    ``tokens="univariate"``, where every channel is read alike and the
    weights do not depend on the number of channels) and the sinusoidal
    position of its patch. The blocks run on each channel's stream separately (causal or
    bidirectional as asked, so no channel reads another's future), and the
    final states of the channels observed in each patch are averaged into
    that patch's state. The output is laid out as :class:`PatchEncoder`'s
    (one state per patch position), so the JEPA objective, the target
    pooling and ``last_valid_state`` apply unchanged.
    """

    def __init__(self, config):
        super().__init__(config)
        self.channel_embedding = None
        if config.tokens == "channel":
            self.channel_embedding = nn.Parameter(torch.zeros(config.n_channels, config.d_model))
            nn.init.normal_(self.channel_embedding, std=0.02)

    @staticmethod
    def token_width(config):
        """Values per token: one patch of one channel."""
        return config.patch_size

    def forward(self, x, *, causal=True, loc=None, scale=None, drop_empty=True, replace_tokens=None):
        """Encode windows; arguments and outputs as :meth:`PatchEncoder.forward`."""
        if loc is None:
            loc, scale = self.statistics(x, ~torch.isnan(x))
        tokens, valid = self.tokenize(x, loc, scale, align_right=causal)
        B, C, L = x.shape  # batch, channels, steps
        P, N = self.config.patch_size, tokens.shape[1]
        observed = ~torch.isnan(x)
        pad = (-L) % P
        observed = F.pad(observed, (pad, 0) if causal else (0, pad), value=False)
        channel_valid = observed.view(B, C, N, P).any(dim=3)  # (B, C, N)
        first, last = 0, N
        if drop_empty:
            any_valid = valid.any(dim=0).nonzero()
            first, last = (int(any_valid[0]), int(any_valid[-1]) + 1) if any_valid.numel() else (0, 1)
        tokens = tokens[:, first:last].reshape(B, last - first, C, P).transpose(1, 2)  # (B, C, N', P)
        valid, channel_valid = valid[:, first:last], channel_valid[:, :, first:last]
        positions = sinusoidal_positions(torch.arange(first, last, device=x.device), self.config.d_model)
        h = self.projection(tokens)  # (B, C, N', d)
        if replace_tokens is not None:
            mask, token = replace_tokens
            h = torch.where(mask[:, None, first:last, None], token.to(h.dtype), h)
        if self.channel_embedding is not None:
            h = h + self.channel_embedding[:, None, :]
        h = h + positions
        h = self.input_dropout(h).reshape(B * C, last - first, -1)
        mask = attention_mask(channel_valid.reshape(B * C, -1), causal)
        for block in self.blocks:
            h = block(h, mask)
        weight = channel_valid.to(h.dtype)[..., None]  # (B, C, N', 1)
        fused = (h.view(B, C, last - first, -1) * weight).sum(1) / weight.sum(1).clamp(min=1)
        return self.final_norm(fused), valid, first, loc, scale

    def pool_intervals(self, x, lengths, loc, scale, pooling):
        """As :meth:`PatchEncoder.pool_intervals`; the channel streams have no packed pass, so in padded groups."""
        return pool_in_groups(self, x, lengths, loc, scale, pooling)

    def pool_targets(self, x, cut, dt, loc, scale, pooling, n_columns):
        """As :meth:`PatchEncoder.pool_targets`, through the padded grid of intervals."""
        future = future_intervals(x, cut, dt, n_columns * self.config.patch_size)
        return self.pool_intervals(future, dt, loc, scale, pooling)


def make_encoder(config):
    """The encoder for ``config.tokens``: :class:`PatchEncoder` or :class:`ChannelPatchEncoder`."""
    if config.tokens == "patch":
        return PatchEncoder(config)
    if config.tokens in ("channel", "univariate"):
        return ChannelPatchEncoder(config)
    raise ValueError(f"tokens must be one of {TOKEN_MODES}, got {config.tokens!r}.")
