"""Tokens of many sequences packed in rows without padding: their layout, attention within each sequence, interval
tokens."""

import torch

# Packed rows per attention block (whole sequences, padded to a multiple of KEY_ALIGN):
# the scores of a block are one (rows x rows) matrix per head
ATTENTION_BLOCK = 128
# softmax over a last axis shorter than the CPU's vector width runs element by element:
# 20 ns per element at 10 columns against 1.2 at 16 (one thread, AVX-512)
KEY_ALIGN = 16


class PackedLayout:
    """Where the tokens of sequences of different lengths sit when packed without padding.

    Sequence ``i`` holds the first ``lengths[i]`` token columns of a padded
    batch (B, N), or, when ``present`` (B, N) is given instead, the columns
    where it is True (in column order); ``valid`` (B, N) says which of them
    hold an observation. Every token-wise layer (projections, feed-forward,
    norms) runs once on the packed rows, computing no padding token.

    Attention (:meth:`attend`) is bidirectional within each sequence: a
    token attends to the tokens of its sequence that hold an observation
    and always to itself, as under
    :func:`~hepa_sklearn.nn.encoder.attention_mask` on the padded grid. The
    rows are cut into blocks of whole sequences of about ``ATTENTION_BLOCK``
    rows, and each block's attention is one dense matrix per head, masked
    to its sequences: a few matrix products of a hundred rows instead of
    one tiny product per sequence and head (the CPU multiplies each matrix
    of a batched product separately). Its dropout draws what attention on
    the padded grid draws, so a seeded run gets the same masks.
    """

    def __init__(self, valid, lengths=None, *, present=None):
        B, N = valid.shape
        if (lengths is None) == (present is None):
            raise ValueError("give exactly one of lengths and present.")
        if present is None:
            columns = torch.arange(N, device=valid.device)
            present = columns < lengths[:, None]  # (B, N)
        self.sequence, self.column = present.nonzero().unbind(1)  # row-major: sequence by sequence
        self.key_valid = valid[present]  # (T,)
        self.n_sequences, self.n_columns = B, N
        self._blocks(present.sum(1))

    def _blocks(self, counts):
        """Each row's place in the grid of blocks, the blocks' additive attention mask and dropout pairs."""
        device = counts.device
        starts = torch.cumsum(counts, 0) - counts  # first row of each sequence
        block = torch.unique_consecutive(starts // ATTENTION_BLOCK, return_inverse=True)[1][self.sequence]
        n_blocks = int(block[-1]) + 1 if block.numel() else 1
        sizes = torch.zeros(n_blocks, dtype=torch.long, device=device).index_add_(0, block, torch.ones_like(block))
        size = max(1, int(sizes.max()))
        size += (-size) % KEY_ALIGN
        first = torch.cumsum(sizes, 0) - sizes
        self.slot = block * size + torch.arange(block.shape[0], device=device) - first[block]
        self.n_blocks, self.block_size = n_blocks, size

        def in_blocks(values, fill):
            grid = torch.full((n_blocks * size,), fill, dtype=values.dtype, device=device)
            return grid.index_copy(0, self.slot, values).view(n_blocks, size, 1)

        sequence, column = in_blocks(self.sequence, -1), in_blocks(self.column, 0)
        key = in_blocks(self.key_valid, False).transpose(1, 2)
        allowed = (sequence == sequence.transpose(1, 2)) & key | torch.eye(size, dtype=torch.bool, device=device)
        self.bias = torch.zeros(allowed.shape, device=device).masked_fill_(~allowed, float("-inf"))[:, None]
        # the entry of the (B, N, N) grid whose dropout draw each (query, key) pair of a block takes
        N = self.n_columns
        self.pair = (sequence.clamp(min=0) * N + column) * N + column.transpose(1, 2)

    def attend(self, qkv, n_heads, dropout):
        """Multi-head attention of packed ``qkv`` (T, 3d) within each sequence -> (T, d).

        The function of ``scaled_dot_product_attention`` on the padded
        (B, N) grid under :func:`~hepa_sklearn.nn.encoder.attention_mask`,
        dropout included: that draws one Bernoulli variable per (sequence,
        head, query column, key column) of the grid in one call, and so does
        this.
        """
        T, three_d = qkv.shape
        d = three_d // 3
        n_blocks, size = self.n_blocks, self.block_size
        grid = qkv.new_zeros(n_blocks * size, three_d).index_copy(0, self.slot, qkv)
        q, k, v = grid.view(n_blocks, size, 3, n_heads, d // n_heads).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (d // n_heads) ** -0.5 + self.bias.to(qkv.dtype)
        weights = torch.softmax(scores, dim=-1)  # (n_blocks, heads, size, size)
        if dropout > 0:
            B, N = self.n_sequences, self.n_columns
            keep = torch.empty(B, n_heads, N, N, dtype=qkv.dtype, device=qkv.device).bernoulli_(1 - dropout)
            keep = keep.div_(1 - dropout).transpose(0, 1).reshape(n_heads, B * N * N)[:, self.pair]
            weights = weights * keep.transpose(0, 1)
        y = torch.matmul(weights, v).transpose(1, 2).reshape(n_blocks * size, d)
        return y[self.slot]


def interval_tokens(x, cut, dt, loc, scale, patch_size, n_columns):
    """The packed tokens of the intervals ``[cut, cut + dt)`` of windows ``x`` (B, C, L), read from ``x`` directly.

    The same rows as the patch encoder's tokens of the intervals cut out and
    left-aligned in ``n_columns`` patches (NaN after each interval's end,
    :func:`~hepa_sklearn.nn.encoder.future_intervals`) for the columns up to
    each interval's last observed token: normalised by ``loc`` and ``scale``
    (B, C), missing steps filled forward from the interval's own earlier
    steps (0 before its first observation). Only the patches that overlap
    an interval are read, not the padding of the (B, C, n_columns * P) grid.

    Returns
    -------
    tokens : tensor (T, C * patch_size), the tokens of :class:`PackedLayout` ``(valid, lengths)``'s rows
    valid : tensor (B, n_columns), bool, tokens that hold an observation
    lengths : tensor (B,), each interval's columns up to its last observed token
    """
    B, C, L = x.shape
    P, device = patch_size, x.device
    span = torch.minimum(dt, L - cut).clamp(min=0)  # steps of each interval inside its window
    count = torch.div(span + P - 1, P, rounding_mode="floor").clamp(max=n_columns)  # patches overlapping it
    item = torch.repeat_interleave(torch.arange(B, device=device), count)  # (S,) candidate rows, item by item
    start = torch.cumsum(count, 0) - count
    column = torch.arange(item.shape[0], device=device) - start[item]
    offset = column[:, None] * P + torch.arange(P, device=device)  # (S, P) steps from the cut
    inside = offset < span[item, None]
    values = x.transpose(1, 2)[item[:, None], (cut[item, None] + offset).clamp(max=L - 1)]  # (S, P, C)
    observed = inside[..., None] & ~torch.isnan(values)
    values = (values - loc[item, None, :]) / scale[item, None, :]
    values = torch.where(observed, values, torch.zeros_like(values)).reshape(-1, C)
    # forward fill along each interval's steps, which lie one after the other in the flattened rows
    steps = torch.arange(values.shape[0], device=device)
    last_seen = torch.where(observed.reshape(-1, C), steps[:, None], -1).cummax(dim=0).values
    first_step = (start[item, None] * P).expand(-1, P).reshape(-1)  # each interval's first flattened step
    filled = values.gather(0, last_seen.clamp(min=0))
    filled = torch.where(last_seen >= first_step[:, None], filled, torch.zeros_like(filled))
    tokens = filled.view(-1, P, C).transpose(1, 2).reshape(-1, C * P)
    token_valid = observed.any(dim=2).any(dim=1)  # (S,)
    valid = torch.zeros(B, n_columns, dtype=torch.bool, device=device).index_put((item, column), token_valid)
    columns = torch.arange(1, n_columns + 1, device=device)
    lengths = torch.where(valid, columns, torch.zeros_like(columns)).max(dim=1).values
    return tokens[column < lengths[item]], valid, lengths
