"""What each training step sees: windows repeated per cut, the (cut, horizon) sampler, the validation split."""

from typing import NamedTuple

import numpy as np
import pandas as pd
import torch
from torch.utils.data import Dataset, Subset, default_collate


class ItemBatch(NamedTuple):
    """The items of one batch of a :class:`WindowDataset`, fetched together."""

    windows: torch.Tensor  # (B, C, L)
    items: np.ndarray  # (B,) item indices
    window_ids: np.ndarray  # (B,) the window of each item


class WindowDataset(Dataset):
    """Windows (n, C, L) as items ``(window, item index, window index)``, each window ``repeats`` times in a row.

    Item ``i`` is window ``i // repeats``; the collate function draws one
    (cut, horizon) pair per item, so every window yields ``repeats`` pairs
    per epoch. A data loader fetches a batch in one indexing operation
    (``__getitems__``, an :class:`ItemBatch`), which the collate functions
    below take as they take a list of items.
    """

    def __init__(self, X, repeats=1):
        self.X = torch.as_tensor(X)
        self.repeats = repeats

    def __len__(self):
        return self.X.shape[0] * self.repeats

    def __getitem__(self, i):
        return self.X[i // self.repeats], i, i // self.repeats

    def __getitems__(self, indices):
        items = np.asarray(indices, dtype=np.int64)
        ids = items // self.repeats
        return ItemBatch(self.X[torch.from_numpy(ids)], items, ids)


def item_batch(batch):
    """A batch as an :class:`ItemBatch`: fetched by ``__getitems__`` already, or a list of items."""
    if isinstance(batch, ItemBatch):
        return batch
    windows = torch.stack([item[0] for item in batch])
    items = np.array([int(item[1]) for item in batch], dtype=np.int64)
    return ItemBatch(windows, items, np.array([int(item[2]) for item in batch], dtype=np.int64))


def window_ids(dataset):
    """The window each item of ``dataset`` (a WindowDataset or a Subset of one) draws its cut from."""
    if isinstance(dataset, Subset):
        return window_ids(dataset.dataset)[np.asarray(dataset.indices)]
    return np.arange(len(dataset)) // dataset.repeats


class RowBatch(NamedTuple):
    """The rows of one batch of a :class:`RowsDataset`, fetched together."""

    X: torch.Tensor  # (B, ...)
    y: torch.Tensor  # (B, ...), or zeros (B, 1) without targets


class RowsDataset(Dataset):
    """Numeric arrays ``X`` and ``y`` (or None) as items ``(X[i], y[i])``, a batch fetched in one indexing operation.

    What skorch's own dataset yields, without its cost: skorch indexes one
    row at a time and the data loader stacks the rows, which for the event
    head's embeddings (64 rows of a few hundred numbers per batch) took
    about a tenth of its fit in Python. ``__getitems__`` takes a batch's rows
    at once, as a :class:`RowBatch` that :func:`collate_rows` hands on as
    the ``[X, y]`` that stacking gives, with the same values and dtypes;
    without ``y``, zeros of shape (B, 1) stand in for it, as skorch's
    placeholder does. ``X`` and ``y`` share memory with the arrays given.
    """

    def __init__(self, X, y=None):
        self.X = _as_tensor(X)
        self.y = None if y is None else _as_tensor(y)

    @staticmethod
    def accepts(X, y):
        """Whether ``X`` and ``y`` (or None) are numeric arrays of one length, which this dataset reads as skorch's."""
        arrays = [X] if y is None else [X, y]
        return all(_numeric_array(a) and a.ndim >= 1 for a in arrays) and (y is None or len(X) == len(y))

    def __len__(self):
        return self.X.shape[0]

    def __getitem__(self, i):
        return self.X[i], torch.zeros(1) if self.y is None else self.y[i]

    def __getitems__(self, indices):
        rows = torch.as_tensor(np.asarray(indices, dtype=np.int64))
        return RowBatch(self.X[rows], torch.zeros(len(rows), 1) if self.y is None else self.y[rows])


def _numeric_array(a):
    if isinstance(a, torch.Tensor):
        return not a.is_complex()
    return isinstance(a, np.ndarray) and a.dtype.kind in "biuf"


def _as_tensor(a):
    if isinstance(a, torch.Tensor):
        return a
    # torch warns on a read-only array (it cannot mark the tensor so); such an array is copied
    return torch.from_numpy(np.ascontiguousarray(a) if a.flags.writeable else np.array(a))


def collate_rows(batch):
    """A batch of :class:`RowsDataset` as ``[X, y]``; any other batch as torch's default collate stacks it."""
    if isinstance(batch, RowBatch):
        return [batch.X, batch.y]
    return default_collate(batch)


class BlockBatches:
    """Batch sampler keeping the items of one window together in blocks of ``block``.

    Each window's items are cut, in order, into blocks of at most ``block``
    items; the blocks are shuffled and laid end to end, then read off in
    batches of ``batch_size``. A batch then holds the items of at most
    ``ceil(batch_size / block) + 1`` windows, and the items of one window
    share a single causal context pass (:meth:`JEPA.shared_context_state`).
    Each item still gets its own (cut, Δt) draw. ``block=1`` is an ordinary
    shuffle. The order comes from ``generator`` (a seeded ``torch.Generator``).
    """

    def __init__(self, windows, block, batch_size, generator):
        self.block = block
        self.batch_size = batch_size
        self.generator = generator
        windows = np.asarray(windows)
        order = np.argsort(windows, kind="stable")
        starts = np.flatnonzero(np.r_[True, windows[order][1:] != windows[order][:-1]])
        self.blocks = []
        for start, stop in zip(starts, np.r_[starts[1:], len(order)], strict=True):
            self.blocks += [order[i : min(i + block, stop)] for i in range(start, stop, block)]
        self.n_items = len(order)

    def __len__(self):
        return -(-self.n_items // self.batch_size)

    def __iter__(self):
        permutation = torch.randperm(len(self.blocks), generator=self.generator).tolist()
        items = np.concatenate([self.blocks[i] for i in permutation]) if self.blocks else np.empty(0, int)
        for start in range(0, len(items), self.batch_size):
            yield items[start : start + self.batch_size].tolist()


class CutSampler:
    """Collate function drawing one (cut t, horizon Δt) per window.

    The cut is a patch boundary counted back from the window's last step,
    with at least one observed step before it; Δt ~ LogUniform[1, K]
    (the paper), restricted so that the target ``[t, t + Δt)`` lies inside
    the window.
    With ``fixed=True`` each window's draw depends only on ``(seed, index)``
    (a stable validation set); otherwise draws continue one stream.
    """

    def __init__(self, patch_size, K, seed, fixed=False):
        self.patch_size = patch_size
        self.K = K
        self.seed = seed
        self.fixed = fixed
        self.rng = np.random.default_rng(seed)

    def _draw(self, rng, first_observed, length):
        P = self.patch_size
        n_cuts = int(np.ceil((length - first_observed) / P)) - 1  # boundaries L - kP > first_observed
        if n_cuts < 1:
            return length - P if length > P else length, 1, 0.0
        k = int(rng.integers(1, n_cuts + 1))
        cut = length - k * P
        max_dt = min(self.K, length - cut)
        dt = int(np.floor(np.exp(rng.uniform(0.0, np.log(max_dt + 1)))))
        return cut, min(max(dt, 1), max_dt), 1.0

    def __setstate__(self, state):
        # pickled before 0.3.0, which named K ``max_horizon``
        if "max_horizon" in state:
            state["K"] = state.pop("max_horizon")
        self.__dict__.update(state)

    def __call__(self, batch):
        windows, items, ids = item_batch(batch)
        B, _, L = windows.shape
        # items of the same window point at its first item: one context pass serves them all
        distinct, first_item, local = np.unique(ids, return_index=True, return_inverse=True)
        owner = torch.from_numpy(first_item[local])
        observed = ~torch.isnan(windows[torch.from_numpy(first_item)]).all(dim=1)  # (windows, L)
        first = torch.where(observed.any(dim=1), observed.int().argmax(dim=1), torch.full((len(distinct),), L))
        draws = []
        for index, first_observed in zip(items.tolist(), first[torch.from_numpy(local)].tolist(), strict=True):
            rng = np.random.default_rng([self.seed, index]) if self.fixed else self.rng
            draws.append(self._draw(rng, first_observed, L))
        cut, dt, usable = (torch.tensor(column) for column in zip(*draws, strict=True))
        inputs = {"x": windows, "owner": owner, "cut": cut, "dt": dt, "usable": usable.float()}
        return inputs, torch.zeros(B)


class PatchMaskSampler:
    """Collate function drawing the masked tokens of masked-patch pretraining.

    In each window, ``round(mask_ratio * n)`` of its ``n`` tokens that hold an
    observation (at least one) are masked, uniformly at random. Tokens are
    the encoder's patches of ``patch_size`` steps aligned on the window's
    last step. With ``fixed=True`` each window's draw depends only on
    ``(seed, index)`` (a stable validation set); otherwise draws continue
    one stream.
    """

    def __init__(self, patch_size, mask_ratio, seed, fixed=False):
        self.patch_size = patch_size
        self.mask_ratio = mask_ratio
        self.seed = seed
        self.fixed = fixed
        self.rng = np.random.default_rng(seed)

    def __call__(self, batch):
        windows, items, _ = item_batch(batch)
        B, _, L = windows.shape
        P = self.patch_size
        observed = (~torch.isnan(windows).all(dim=1)).numpy()  # (B, L)
        observed = np.pad(observed, ((0, 0), ((-L) % P, 0)))
        valid = observed.reshape(B, -1, P).any(axis=2)  # (B, N)
        mask = np.zeros_like(valid)
        for row, index in enumerate(items.tolist()):
            rng = np.random.default_rng([self.seed, int(index)]) if self.fixed else self.rng
            tokens = np.flatnonzero(valid[row])
            n_masked = min(tokens.size, max(1, int(round(self.mask_ratio * tokens.size))))
            mask[row, rng.choice(tokens, size=n_masked, replace=False)] = True
        return {"x": windows, "mask": torch.from_numpy(mask)}, torch.zeros(B)


class TailSplit:
    """skorch ``train_split`` holding out the tail of the input: the last ``fraction`` of samples, or of units.

    Without ``groups`` the validation part is the last ``fraction`` of the
    samples in input order; with windows grouped by unit it shares no unit
    with the training part except at most the one unit straddling the
    boundary. With ``groups`` (one label per dataset item) it is every item
    of the last ``round(fraction * n_groups)`` distinct groups (at least
    one), in order of first appearance, so no unit is on both sides.
    """

    def __init__(self, fraction, groups=None):
        self.fraction = fraction
        self.groups = groups

    def __call__(self, dataset, y=None):
        n = len(dataset)
        if self.groups is None:
            n_valid = max(1, int(round(self.fraction * n)))
            if n_valid >= n:
                raise ValueError(f"validation_fraction={self.fraction} leaves no training sample out of {n}.")
            return Subset(dataset, np.arange(n - n_valid)), Subset(dataset, np.arange(n - n_valid, n))
        if len(self.groups) != n:
            raise ValueError(f"groups has {len(self.groups)} labels for {n} samples; they must match.")
        codes, uniques = pd.factorize(self.groups)  # codes number the groups in order of first appearance
        n_groups = len(uniques)
        n_valid = max(1, int(round(self.fraction * n_groups)))
        if n_valid >= n_groups:
            raise ValueError(
                f"validation_fraction={self.fraction} of {n_groups} group(s) leaves no group for "
                "training; pass windows of more units, or early_stopping=False."
            )
        valid = codes >= n_groups - n_valid
        return Subset(dataset, np.flatnonzero(~valid)), Subset(dataset, np.flatnonzero(valid))
