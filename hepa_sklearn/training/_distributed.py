"""Training on several processes.

The process world, each rank's rows of a global batch, the gathered output, agreed epoch scores.

Every process iterates the same global batches (same shuffling, same
(cut, horizon) draws), runs the module on its own rows only, and gathers the
outputs of all rows, so that every process computes the loss of the whole
batch exactly as one process would. Gradients of the rows flow back to the
process that computed them, and :class:`~torch.nn.parallel.DistributedDataParallel`
sums the parameter gradients over the processes.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import torch
import torch.distributed as dist
from skorch.callbacks import Callback


@dataclass(frozen=True)
class ProcessWorld:
    """The processes that train one model together, seen from one of them.

    Parameters
    ----------
    rank : int
        This process's number, 0 to ``size - 1``.
    size : int
        Number of processes.
    backend : str
        The process group's backend (``"gloo"``, ``"nccl"``...).
    """

    rank: int
    size: int
    backend: str

    def sizes(self, n_rows):
        """Rows of each rank in a batch of ``n_rows``: as even as possible, the first ranks one more."""
        base, extra = divmod(n_rows, self.size)
        return [base + (rank < extra) for rank in range(self.size)]

    def rows(self, n_rows):
        """``(start, stop)`` of this rank's rows in a batch of ``n_rows`` (empty when ``n_rows < size``)."""
        sizes = self.sizes(n_rows)
        start = sum(sizes[: self.rank])
        return start, start + sizes[self.rank]

    def communication_device(self, device):
        """Where collective tensors live: NCCL needs them on the GPU, the other backends take CPU tensors."""
        return torch.device(device) if self.backend == "nccl" else torch.device("cpu")


def process_world():
    """The :class:`ProcessWorld` of the initialised default process group, or None to train alone.

    None when ``torch.distributed`` is unavailable, no process group is
    initialised, or the group has one process.
    """
    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
        return None
    return ProcessWorld(dist.get_rank(), dist.get_world_size(), str(dist.get_backend()))


def check_global_batch(batch_size, world):
    """ValueError unless the global ``batch_size`` splits evenly over the processes."""
    if batch_size % world.size:
        multiple = -(-batch_size // world.size) * world.size
        raise ValueError(
            f"batch_size={batch_size} is the global batch size, split evenly over the {world.size} "
            f"training processes, so it must be divisible by {world.size}; pass for example "
            f"batch_size={multiple}."
        )


def rank_device(device, world):
    """This process's device: a bare ``"cuda"`` becomes ``cuda:LOCAL_RANK`` (torchrun's variable), or the current GPU.

    NCCL groups need a GPU device; any other device string passes through.
    """
    kind = torch.device(device).type
    if world.backend == "nccl" and kind != "cuda":
        raise ValueError(
            f"the process group uses NCCL, which needs device='cuda' or 'auto' on GPUs, got device={device!r}; "
            "train on CPU with a group initialised by init_process_group('gloo')."
        )
    if kind == "cuda" and torch.device(device).index is None:
        index = os.environ.get("LOCAL_RANK")
        return f"cuda:{int(index) if index is not None else torch.cuda.current_device()}"
    return device


def agree_on_seed(seed, world, device):
    """Rank 0's ``seed`` on every process, so that ``random_state=None`` still draws the same batches everywhere."""
    value = torch.tensor([int(seed)], dtype=torch.int64, device=world.communication_device(device))
    dist.broadcast(value, src=0)
    return int(value.item())


def join_world(device, seed, X, y, settings):
    """This process's world, device and seed for a fit on ``(X, y)``: ``(None, device, seed)`` when it trains alone.

    In a world of several processes the device gets this process's GPU
    (:func:`rank_device`), every process must have the same data and
    ``settings`` (a dict of numbers with ``batch_size``, which the world
    size must divide), and all take rank 0's seed.
    """
    world = process_world()
    if world is None:
        return None, device, seed
    device = rank_device(device, world)
    check_same_run(X, y, settings, world, device)  # first: a collective every process reaches
    check_global_batch(settings["batch_size"], world)
    return world, device, agree_on_seed(seed, world, device)


def join_net(net, world):
    """Make ``net`` train as one process of ``world``: scores agreed across processes, progress and logs from rank 0."""
    net.callbacks = distributed_callbacks(net.callbacks, world)
    if world.rank != 0:
        net.verbose = 0  # skorch's per-epoch table from rank 0 only
    net.world_ = world


def _summary(data):
    """Length and NaN-ignoring float64 sum of a training input.

    The input is an array, a tensor, or a dataset holding windows as ``X``.
    """
    if data is None:
        return [0.0, 0.0]
    values = getattr(data, "X", data)
    values = values.numpy() if isinstance(values, torch.Tensor) else np.asarray(values)
    return [float(len(data)), float(np.nansum(values, dtype=np.float64))]


def check_same_run(X, y, settings, world, device):
    """ValueError on every process unless all of them fit the same data with the same ``settings``.

    The data are compared by the length and sum of X and y; ``settings`` is a
    dict of numbers.

    Every process must pass the whole data set and the same parameters to
    ``fit``: each draws every global batch and computes its share of it.
    """
    summary = _summary(X) + _summary(y) + [float(value) for value in settings.values()]
    local = torch.tensor(summary, dtype=torch.float64, device=world.communication_device(device))
    summaries = [torch.empty_like(local) for _ in range(world.size)]
    dist.all_gather(summaries, local)
    summaries = torch.stack(summaries).cpu().numpy()
    # loose enough for embeddings computed on each GPU (bf16 rounding may differ), far from other data
    if not np.allclose(summaries, summaries[0], rtol=1e-4, atol=0.0):
        raise ValueError(
            "the training processes were given different data or training parameters (per rank: length "
            f"and sum of X, of y, then {', '.join(settings)}: {summaries.tolist()}); with distributed "
            "training every process passes the whole data set and the same parameters to fit, and each "
            "computes its share of every batch."
        )


def shard_rows(x, start, stop):
    """Rows ``[start, stop)`` of a batch: a tensor, or a dict of tensors with a first axis of rows."""
    if isinstance(x, Mapping):
        return {name: value[start:stop] for name, value in x.items()}
    return x[start:stop]


class _GatherRows(torch.autograd.Function):
    """All ranks' rows of one output tensor, in rank order; the gradient goes back to the rows this rank computed.

    Every process computes the same loss of the whole batch, so the
    gradient of its own rows is already complete locally: no communication
    in the backward pass. It is scaled by the number of processes because
    DistributedDataParallel averages parameter gradients while the batch's
    gradient is their sum.
    """

    @staticmethod
    def forward(ctx, local, world, n_rows, n_local):
        sizes = world.sizes(n_rows)
        padded = local.new_zeros((max(sizes), *local.shape[1:]))
        padded[:n_local] = local[:n_local]
        parts = [torch.empty_like(padded) for _ in range(world.size)]
        dist.all_gather(parts, padded)
        ctx.rows, ctx.n_computed, ctx.scale = world.rows(n_rows), local.shape[0], world.size
        return torch.cat([part[:size] for part, size in zip(parts, sizes, strict=True)])

    @staticmethod
    def backward(ctx, grad):
        start, stop = ctx.rows
        local = grad.new_zeros((ctx.n_computed, *grad.shape[1:]))
        local[: stop - start] = grad[start:stop] * ctx.scale
        return local, None, None, None


def gather_rows(output, world, n_rows, n_local):
    """The whole batch's output (tensor or tuple of tensors) from each rank's ``n_local`` computed rows."""
    if isinstance(output, tuple):
        return tuple(gather_rows(part, world, n_rows, n_local) for part in output)
    return _GatherRows.apply(output, world, n_rows, n_local)


class ScoresAcrossRanks(Callback):
    """At each epoch's end, every number of the history row (but ``dur``) becomes its mean over the processes.

    Each process already computes the loss of whole batches, so the values
    agree up to rounding; the mean makes them identical, so that early
    stopping ends training on every process at the same epoch and every
    process keeps the same ``history_``. Runs before early stopping reads
    the row.
    """

    def on_epoch_end(self, net, **kwargs):
        world = net.world_
        row = net.history[-1]
        names = sorted(
            name
            for name, value in row.items()
            if name not in ("epoch", "dur") and isinstance(value, (float, np.floating)) and not isinstance(value, bool)
        )
        values = torch.tensor(
            [float(row[name]) for name in names], dtype=torch.float64, device=world.communication_device(net.device)
        )
        dist.all_reduce(values)
        for name, value in zip(names, (values / world.size).tolist(), strict=True):
            net.history.record(name, value)


def distributed_callbacks(callbacks, world):
    """The net's ``(name, callback)`` pairs for ``world``.

    Scores are agreed before they are read; progress and logs come from rank 0 only.
    """
    at = [name for name, _ in callbacks].index("training_log")  # right after the callbacks that record scores
    pairs = [*callbacks[:at], ("scores_across_ranks", ScoresAcrossRanks()), *callbacks[at:]]
    if world.rank != 0:
        pairs = [(name, callback) for name, callback in pairs if name not in ("training_log", "training_progress")]
    return pairs
