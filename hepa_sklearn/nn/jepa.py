"""JEPA wiring: context path, weight-shared bidirectional target path, horizon predictor."""

import copy
import math

import torch
from torch import nn

from .encoder import AttentionPooling, PatchEncoder, encode_packed, last_valid_state, make_encoder
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
    target : {"shared", "ema"}, default="shared"
        ``"shared"``: the target path runs the context encoder's own weights
        and both paths get gradients (the paper). ``"ema"``: the target path
        runs a copy of the encoder that gets no gradient and follows the
        context encoder by an exponential moving average
        (:meth:`update_target` after each optimiser step).
    packed : bool, default=False
        Encode the target intervals with their tokens packed
        (:meth:`packed_target_state`, no padding token computed) instead of
        in padded groups of similar length (:meth:`target_state`). The two
        compute the same function; they differ only in floating-point
        summation order and in the dropout draws. Only the patch encoder
        has the packed pass; with channel tokens ``packed`` is ignored.
    """

    def __init__(self, config, predictor_hidden, max_horizon, channel_loc=None, channel_scale=None,
                 target="shared", packed=False):
        super().__init__()
        self.encoder = make_encoder(config)
        # the packed target pass runs the patch encoder's own layers token by token
        self.packed = packed and type(self.encoder) is PatchEncoder
        if channel_loc is not None:
            self.encoder.channel_loc.copy_(torch.as_tensor(channel_loc, dtype=torch.float32))
            self.encoder.channel_scale.copy_(torch.as_tensor(channel_scale, dtype=torch.float32))
        self.target = target
        if target == "ema":
            self.target_encoder = copy.deepcopy(self.encoder).requires_grad_(False)
        elif target != "shared":
            raise ValueError(f"target must be 'shared' or 'ema', got {target!r}.")
        self.target_pooling = AttentionPooling(config.d_model, config.n_heads)
        self.predictor = HorizonPredictor(config.d_model, predictor_hidden, horizon_scale=max_horizon)
        P = config.patch_size
        self.target_length = math.ceil(max_horizon / P) * P

    @torch.no_grad()
    def update_target(self, momentum):
        """EMA step of the target encoder: θ_target <- m θ_target + (1 - m) θ_context."""
        if self.target != "ema":
            return
        for target, online in zip(self.target_encoder.parameters(), self.encoder.parameters()):
            target.lerp_(online, 1 - momentum)

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

    def shared_context_state(self, x, owner, cut):
        """Same as ``context_state(x[owner], cut)`` with one causal pass per distinct window.

        Valid when the normalisation does not depend on the cut ("global",
        "none"): the causal encoder's state after the patch that ends at
        ``cut`` is then the state of the context ``[0, cut)``. Windows are
        encoded in groups of similar history length, so short histories do
        not pay for the padding of long ones.
        """
        P = self.encoder.config.patch_size
        L = x.shape[-1]
        token = (cut + (-L) % P) // P - 1  # index of the token that ends at the cut
        first_observed = (~torch.isnan(x)).any(dim=1).int().argmax(dim=1)
        h, has_context, order = [], [], []
        for group in _similar_groups(first_observed):
            states, valid, first, *_ = self.encoder(x[group], causal=True)
            steps = torch.arange(valid.shape[1], device=x.device)
            last_seen = torch.where(valid, steps, torch.full_like(steps, -1)).cummax(dim=1).values
            local = torch.full((x.shape[0],), -1, device=x.device, dtype=torch.long)
            local[group] = torch.arange(group.shape[0], device=x.device)
            items = (local[owner] >= 0).nonzero().squeeze(1)
            position = token[items] - first
            seen = last_seen[local[owner[items]], position.clamp(0, valid.shape[1] - 1)]
            seen = torch.where(position >= 0, seen, torch.full_like(seen, -1))
            h.append(states[local[owner[items]], seen.clamp(min=0)])
            has_context.append(seen >= 0)
            order.append(items)
        inverse = torch.argsort(torch.cat(order))
        loc, scale = self.encoder.statistics(x[owner], None)
        return torch.cat(h)[inverse], torch.cat(has_context)[inverse], loc, scale

    def _future(self, x, cut, dt):
        """The target intervals ``[cut, cut + dt)`` of ``x``, left-aligned in (B, C, target_length), NaN after."""
        B, C, L = x.shape
        offsets = torch.arange(self.target_length, device=x.device)
        index = cut[:, None] + offsets  # (B, target_length)
        outside = (offsets >= dt[:, None]) | (index >= L)
        future = x.gather(2, index.clamp(max=L - 1)[:, None, :].expand(B, C, -1))
        return future.masked_fill(outside[:, None, :], float("nan"))

    def packed_target_state(self, x, cut, dt, loc, scale):
        """Same as :meth:`target_state`, with the tokens of all targets packed: no padding token is computed."""
        encoder = self.encoder if self.target == "shared" else self.target_encoder
        states, layout = encode_packed(encoder, self._future(x, cut, dt), loc, scale)
        has_target = torch.zeros(x.shape[0], dtype=torch.bool, device=x.device).index_put_(
            (layout.sequence,), layout.key_valid, accumulate=True)
        return self.target_pooling.forward_packed(states, layout), has_target

    def target_state(self, x, cut, dt, loc, scale):
        """Pooled bidirectional representation of ``[cut, cut + dt)``, grouped by target length."""
        future = self._future(x, cut, dt)
        encoder = self.encoder if self.target == "shared" else self.target_encoder
        pooled, has_target, order = [], [], []
        for group in _similar_groups(dt):
            states, valid, *_ = encoder(future[group], causal=False, loc=loc[group], scale=scale[group])
            pooled.append(self.target_pooling(states, valid))
            has_target.append(valid.any(dim=1))
            order.append(group)
        inverse = torch.argsort(torch.cat(order))
        return torch.cat(pooled)[inverse], torch.cat(has_target)[inverse]

    def forward(self, x, owner, cut, dt, usable):
        """Predicted and target representations for one (cut, Δt) per item.

        Parameters
        ----------
        x : tensor (B, C, L), each item's window, NaN where missing or padded
        owner : tensor (B,), index of the first item with the same window
        cut : tensor (B,), context = steps ``[0, cut)``; ``L - cut`` is a multiple of P
        dt : tensor (B,), target = steps ``[cut, cut + dt)``
        usable : tensor (B,), 0 for windows without any valid (cut, Δt) pair

        Returns
        -------
        predicted, target : tensors (B, d_model)
        weight : tensor (B,), 0 where the sample must not count in the loss
        context : tensor (B, d_model), the context representations h_t
        owner : tensor (B,), as given: which items share a window
        """
        if self.encoder.config.norm == "revin":
            h, has_context, loc, scale = self.context_state(x, cut)
        else:
            distinct = torch.unique(owner)  # sorted
            local = torch.searchsorted(distinct, owner)
            h, has_context, loc, scale = self.shared_context_state(x[distinct], local, cut)
        target_state = self.packed_target_state if getattr(self, "packed", False) else self.target_state
        target, has_target = target_state(x, cut, dt, loc, scale)
        predicted = self.predictor(h, dt)
        weight = usable * has_target * has_context
        return predicted, target, weight.to(predicted.dtype), h, owner


# Below this many rows per group, splitting a batch costs more in small
# matrix products than it saves in padding: target pass of a 64-cut FD001
# batch on 2 CPU cores, 26.5 ms with groups of 16, 17.8 ms with 32, 22 ms unsplit.
MIN_GROUP = 32


def _similar_groups(key):
    """Indices sorted by ``key`` and cut into groups of at least MIN_GROUP rows."""
    order = torch.argsort(key, stable=True)
    n_groups = max(1, order.shape[0] // MIN_GROUP)
    return torch.tensor_split(order, n_groups)
