"""The window level in torch: each channel's mean over the window and over its last steps, standardised."""

import torch
from torch import nn

__all__ = ["WindowLevel", "observed_mean"]


def observed_mean(x):
    """Per window and channel the mean of the observed (non-NaN) steps of ``x`` (B, C, T).

    NaN where a channel has no observed step.
    """
    observed = ~torch.isnan(x)
    return torch.where(observed, x, torch.zeros_like(x)).sum(-1) / observed.sum(-1)


class WindowLevel(nn.Module):
    """Windows (B, C, L) -> their level (B, len(spans) * C), standardised by fitted statistics.

    For each span in turn (None: the whole window; an int n: its last n
    steps), each channel's mean over its observed steps; the columns are
    then standardised as ``(level - loc) / scale`` and are 0 where a channel
    has no observed step in the span. With the pretrainer's spans and its
    ``level_loc_`` and ``level_scale_`` these are the columns that
    ``HEPAPretrainer.transform`` appends with ``window_level=True``.

    ``loc`` and ``scale`` are buffers left out of the state dict: they are
    the pretrainer's fitted attributes, stored with it.
    """

    def __init__(self, loc, scale, spans):
        super().__init__()
        self.spans = tuple(spans)
        self.register_buffer("loc", torch.as_tensor(loc, dtype=torch.float32), persistent=False)
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32), persistent=False)

    def forward(self, x):
        spans = [x if length is None else x[..., -length:] for length in self.spans]
        level = torch.cat([observed_mean(span) for span in spans], 1)
        level = (level - self.loc) / self.scale
        return torch.where(torch.isnan(level), torch.zeros_like(level), level)
