"""JEPA wiring: context path, weight-shared bidirectional target path with attention pooling, horizon predictor."""

import copy
import math

import torch
import torch.nn.functional as F
from torch import nn

from .channel import make_encoder
from .encoder import future_intervals, last_valid_state, similar_groups
from .predictor import HorizonPredictor

# Momentum of the EMA target encoder (``target_weights="ema"``): the paper's value,
# the one I-JEPA (Assran et al. 2023) starts its momentum schedule from.
EMA_MOMENTUM = 0.996
# the weights of the target path: the context encoder's own, or an EMA copy of them
TARGET_WEIGHTS = ("shared", "ema")


class AttentionPooling(nn.Module):
    """One learned query attending over the valid tokens of the target interval."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.query = nn.Parameter(torch.zeros(1, 1, d_model))
        nn.init.normal_(self.query, std=0.02)
        self.attention = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward_packed(self, states, layout):
        """The pooled vector of each sequence of packed ``states`` (T, d) -> (B, d), as :meth:`forward`.

        A sequence without any valid token pools to the output bias (the
        caller gives it zero weight).
        """
        attention = self.attention
        d, heads = states.shape[1], attention.num_heads
        w_q, w_k, w_v = attention.in_proj_weight.chunk(3)
        b_q, b_k, b_v = attention.in_proj_bias.chunk(3)
        q = F.linear(self.query.reshape(1, d), w_q, b_q).view(heads, d // heads)
        k = F.linear(states, w_k, b_k).view(-1, heads, d // heads)
        v = F.linear(states, w_v, b_v).view(-1, heads, d // heads)
        scores = (k * q).sum(-1) / math.sqrt(d // heads)  # (T, heads)
        sequence, B = layout.sequence, layout.n_sequences
        # sequences with no valid token attend to all of their tokens, as in forward
        has_valid = torch.zeros(B, dtype=torch.bool, device=states.device).index_put_(
            (sequence,), layout.key_valid, accumulate=True
        )
        keep = layout.key_valid | ~has_valid[sequence]
        scores = scores.masked_fill(~keep[:, None], float("-inf"))
        top = scores.new_full((B, heads), float("-inf")).scatter_reduce_(
            0, sequence[:, None].expand(-1, heads), scores.detach(), reduce="amax"
        )
        weights = torch.exp(scores - top[sequence]).masked_fill(~keep[:, None], 0.0)
        total = weights.new_zeros(B, heads).index_add_(0, sequence, weights)
        weights = weights / total[sequence]
        # under CUDA autocast exp runs in fp32 while v is bf16: sum in the product's dtype
        weighted = weights[..., None] * v
        pooled = weighted.new_zeros(B, heads, d // heads).index_add_(0, sequence, weighted)
        return attention.out_proj(pooled.reshape(B, d))

    def forward(self, states, valid):
        # an interval with no observation attends to all of its (filled) tokens;
        # the caller gives such samples zero weight in the loss
        empty = ~valid.any(dim=1, keepdim=True)
        key_padding_mask = ~(valid | empty)
        query = self.query.expand(states.shape[0], -1, -1)
        pooled, _ = self.attention(query, states, states, key_padding_mask=key_padding_mask, need_weights=False)
        return pooled[:, 0]


class JEPA(nn.Module):
    """Context encoder f, target path (f bidirectional + attention pooling) and predictor g.

    Parameters
    ----------
    config : EncoderConfig
        The encoder; the predictor MLP's hidden layers are ``d_model`` wide too.
    K : int
        Largest Δt sampled in pretraining (Δt = 1..K); also the predictor's ``horizon_scale``.
    channel_loc, channel_scale : array-like of shape (n_channels,) or None
        Statistics of ``norm="global"``.
    target_weights : {"shared", "ema"}, default="shared"
        ``"shared"``: the target path runs the context encoder's own weights
        and both paths get gradients (the paper). ``"ema"``: the target path
        runs a copy of the encoder that gets no gradient and follows the
        context encoder by an exponential moving average
        (:meth:`update_target` after each optimiser step).
    """

    def __init__(self, config, K, channel_loc=None, channel_scale=None, target_weights="shared"):
        super().__init__()
        self.encoder = make_encoder(config)
        if channel_loc is not None:
            self.encoder.channel_loc.copy_(torch.as_tensor(channel_loc, dtype=torch.float32))
            self.encoder.channel_scale.copy_(torch.as_tensor(channel_scale, dtype=torch.float32))
        if target_weights not in TARGET_WEIGHTS:
            raise ValueError(f"target_weights must be 'shared' or 'ema', got {target_weights!r}.")
        self.target_weights = target_weights
        if target_weights == "ema":
            self.target_encoder = copy.deepcopy(self.encoder).requires_grad_(False)
        self.target_pooling = AttentionPooling(config.d_model, config.n_heads)
        self.predictor = HorizonPredictor(config.d_model, config.d_model, horizon_scale=K)
        P = config.patch_size
        self.target_length = math.ceil(K / P) * P

    def __setstate__(self, state):
        # pickled before 0.3.0, which named target_weights ``target``
        if "target" in state:
            state["target_weights"] = state.pop("target")
        super().__setstate__(state)

    @property
    def target_path(self):
        """The encoder of the target path: the context encoder itself, or its EMA copy."""
        return self.encoder if self.target_weights == "shared" else self.target_encoder

    @torch.no_grad()
    def update_target(self, momentum=EMA_MOMENTUM):
        """EMA step of the target encoder: θ_target <- m θ_target + (1 - m) θ_context."""
        if self.target_weights != "ema":
            return
        for target, online in zip(self.target_encoder.parameters(), self.encoder.parameters(), strict=True):
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
        for group in similar_groups(first_observed):
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
        loc, scale = (statistic[owner] for statistic in self.encoder.statistics(x, None))
        return torch.cat(h)[inverse], torch.cat(has_context)[inverse], loc, scale

    def future(self, x, cut, dt):
        """The target intervals ``[cut, cut + dt)`` of ``x``, left-aligned in (B, C, target_length), NaN after."""
        return future_intervals(x, cut, dt, self.target_length)

    def target_state(self, x, cut, dt, loc, scale):
        """Pooled bidirectional representation of ``[cut, cut + dt)`` (B, d) and whether it holds an observation (B,).

        Runs the target encoder's own pass over intervals
        (:meth:`~hepa_sklearn.nn.PatchEncoder.pool_targets`): the tokens
        of all intervals packed for patch tokens, padded groups of similar
        length for channel tokens.
        """
        n_columns = self.target_length // self.encoder.config.patch_size
        return self.target_path.pool_targets(x, cut, dt, loc, scale, self.target_pooling, n_columns)

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
        """
        if self.encoder.config.norm == "revin":
            h, has_context, loc, scale = self.context_state(x, cut)
        else:
            distinct = torch.unique(owner)  # sorted
            local = torch.searchsorted(distinct, owner)
            h, has_context, loc, scale = self.shared_context_state(x[distinct], local, cut)
        target, has_target = self.target_state(x, cut, dt, loc, scale)
        predicted = self.predictor(h, dt)
        weight = usable * has_target * has_context
        return predicted, target, weight.to(predicted.dtype)
