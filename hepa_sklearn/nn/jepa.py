"""JEPA wiring: context path, weight-shared bidirectional target path, horizon predictor."""

import math

import torch
from torch import nn

from .encoder import AttentionPooling, PatchEncoder, last_valid_state
from .predictor import HorizonPredictor


class JEPA(nn.Module):
    """Context encoder f, target path (f bidirectional + attention pooling) and predictor g.

    Parameters
    ----------
    config : EncoderConfig
    predictor_hidden : int
        Hidden width of the predictor MLP.
    max_horizon : int
        Largest Δt sampled in pretraining; also the predictor's ``horizon_scale``.
    channel_loc, channel_scale : array-like of shape (n_channels,) or None
        Statistics of ``norm="global"``.
    """

    def __init__(self, config, predictor_hidden, max_horizon, channel_loc=None, channel_scale=None):
        super().__init__()
        self.encoder = PatchEncoder(config)
        if channel_loc is not None:
            self.encoder.channel_loc.copy_(torch.as_tensor(channel_loc, dtype=torch.float32))
            self.encoder.channel_scale.copy_(torch.as_tensor(channel_scale, dtype=torch.float32))
        self.target_pooling = AttentionPooling(config.d_model, config.n_heads)
        self.predictor = HorizonPredictor(config.d_model, predictor_hidden, horizon_scale=max_horizon)
        P = config.patch_size
        self.target_length = math.ceil(max_horizon / P) * P

    def embed(self, x):
        """h_t of each window (B, C, L): the state of its last token with an observation."""
        states, valid, *_ = self.encoder(x, causal=True)
        return last_valid_state(states, valid)

    def context_state(self, x, cut):
        """h_t from the steps before ``cut`` only (later steps are hidden before normalisation).

        Returns h (B, d), whether the context holds an observation (B,), and
        the normalisation statistics (B, C) for the target path.
        """
        steps = torch.arange(x.shape[-1], device=x.device)
        context = x.masked_fill(steps >= cut[:, None, None], float("nan"))
        states, valid, _, loc, scale = self.encoder(context, causal=True)
        return last_valid_state(states, valid), valid.any(dim=1), loc, scale

    def forward(self, x, cut, dt, usable):
        """Predicted and target representations for one (cut, Δt) per window.

        Parameters
        ----------
        x : tensor (B, C, L), NaN where missing or padded
        cut : tensor (B,), context = steps ``[0, cut)``; ``L - cut`` is a multiple of P
        dt : tensor (B,), target = steps ``[cut, cut + dt)``
        usable : tensor (B,), 0 for windows without any valid (cut, Δt) pair

        Returns
        -------
        predicted, target : tensors (B, d_model)
        weight : tensor (B,), 0 where the sample must not count in the loss
        """
        B, C, L = x.shape  # batch, channels, steps
        h, has_context, loc, scale = self.context_state(x, cut)

        offsets = torch.arange(self.target_length, device=x.device)
        index = cut[:, None] + offsets  # (B, target_length)
        outside = (offsets >= dt[:, None]) | (index >= L)
        future = x.gather(2, index.clamp(max=L - 1)[:, None, :].expand(B, C, -1))
        future = future.masked_fill(outside[:, None, :], float("nan"))
        target_states, target_valid, *_ = self.encoder(future, causal=False, loc=loc, scale=scale)
        target = self.target_pooling(target_states, target_valid)

        predicted = self.predictor(h, dt)
        weight = usable * target_valid.any(dim=1) * has_context
        return predicted, target, weight.to(predicted.dtype)
