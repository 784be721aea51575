"""The skorch nets of the package and their construction from a training configuration."""

import contextlib
import ctypes
import sys
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import torch
from skorch import NeuralNet
from skorch.dataset import Dataset as SkorchDataset
from skorch.dataset import get_len
from skorch.utils import to_tensor

from ._callbacks import training_callbacks
from ._distributed import gather_rows, shard_rows
from ._optim import AdamW
from ._runtime import as_fp32, autocast, autocast_dtype, seeded_torch
from ._sampling import BlockBatches, RowsDataset, TailSplit, collate_rows, window_ids

# optimiser kernels that do the AdamW update of every parameter in one pass, on these devices
FUSED_ADAMW_DEVICES = ("cpu", "cuda")


def denormals_flushed():
    """Whether this thread's CPU treats subnormal floats as zero (flush to zero)."""
    return (torch.tensor([2.0**-126]) * 0.5).item() == 0.0


@contextlib.contextmanager
def flushed_denormals():
    """Treat subnormal floats (magnitude below 2**-126, about 1.2e-38) as zero on this thread inside the block.

    In the event predictor's training, saturated cells of the surface give
    loss gradients near 1e-39; they flow back through every layer, and
    arithmetic on subnormals is many times slower on x86 CPUs: on FD001
    (K = 150, one thread) the finetuning epochs slowed from 2.2 to 7.5 CPU
    seconds from the 15th epoch on, and stayed at 2.3 s with subnormals
    flushed. Flushing changes a value only where it is below 1.2e-38. The
    previous setting is restored on leaving (it is left on when it was on).
    Other threads (intra-op worker threads started before the block) keep
    their own setting.
    """
    was_on = denormals_flushed()
    switched = not was_on and torch.set_flush_denormal(True)
    try:
        yield
    finally:
        if switched:
            torch.set_flush_denormal(False)


# glibc's mallopt parameters (malloc.h) and the values training runs under, see retained_heap
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
TRAINING_TRIM_THRESHOLD = 1 << 30
MMAP_THRESHOLD = 32 << 20  # the largest that glibc's own adjustment reaches on 64-bit systems
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD


def _mallopt():
    """glibc's ``mallopt``, or None on other C libraries."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return None


@contextlib.contextmanager
def retained_heap():
    """Keep freed heap memory in the process while training, instead of handing it back at every step.

    A finetuning step of the event predictor (64 windows x 150 horizons x
    256) frees about 150 MB of activations; glibc returns the free top of
    its heap to the operating system once it exceeds its trim threshold (a
    few MB), so every step took 11,400 fresh pages again, each a page fault:
    measured on FD001 with one thread, 88 against 73 CPU ms per finetuning
    step and 50 against 47 per pretraining step, with the same peak RSS.
    Inside the block buffers up to 32 MB come from the heap and up to 1 GB
    of free heap is kept; on leaving, the trim threshold is 64 MB, and
    ``fit`` hands the freed memory back (``release_freed_memory``). Setting
    these ends glibc's dynamic adjustment of both thresholds, whose upper
    bounds (32 and 64 MB) they then keep. A no-op on other C libraries.
    """
    mallopt = _mallopt()
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        mallopt(M_TRIM_THRESHOLD, TRAINING_TRIM_THRESHOLD)
    try:
        yield
    finally:
        if mallopt is not None:
            mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)


class TrainingDivergedError(FloatingPointError):
    """Training produced a non-finite loss; the estimator keeps the state it had before ``fit``."""


class HEPANet(NeuralNet):
    """skorch net with the project's safeguards.

    Forward passes may run under autocast (``autocast_dtype``) while losses
    stay fp32; a non-finite training loss stops training with
    :class:`TrainingDivergedError` naming the epoch and batch; an interrupted
    ``fit`` (KeyboardInterrupt) sets ``interrupted_`` (skorch then ends
    training normally, restoring the best weights under early stopping).

    With ``world_`` set (a :class:`~hepa_sklearn.training._distributed.ProcessWorld`,
    only during a distributed ``fit``) each training and validation step
    runs the module on this process's rows of the global batch
    (:meth:`shard_inputs`), training steps through DistributedDataParallel,
    and gathers every row's output, so the loss is that of the whole batch.
    """

    def __init__(self, *args, autocast_dtype=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.autocast_dtype = autocast_dtype

    def infer(self, x, **fit_params):
        if getattr(self, "world_", None) is not None:
            return self._infer_rows(x, **fit_params)
        with autocast(self.device, self.autocast_dtype):
            output = super().infer(x, **fit_params)
        return as_fp32(output)

    def shard_inputs(self, x, start, stop):
        """This process's part of a collated batch ``x``: its rows ``[start, stop)``."""
        return shard_rows(x, start, stop)

    def get_dataset(self, X, y=None):
        """Numeric arrays as a :class:`RowsDataset`, which fetches a batch at once; anything else as skorch does."""
        if self.dataset is SkorchDataset and not self.get_params_for("dataset") and RowsDataset.accepts(X, y):
            return RowsDataset(X, y)
        return super().get_dataset(X, y)

    def _infer_rows(self, x, **fit_params):
        """The whole batch's output, this process computing only its rows of it."""
        world = self.world_
        x = to_tensor(x, device=self.device)
        n_rows = get_len(x)
        start, stop = world.rows(n_rows)
        # a rank without rows (a last batch smaller than the world) runs one row and
        # sends back no gradient, so that DistributedDataParallel sees every rank step
        part = self.shard_inputs(x, start, stop) if stop > start else self.shard_inputs(x, 0, 1)
        training = self.module_.training
        module = self.ddp_module_ if training else self.module_
        with self._rank_random_state(training), autocast(self.device, self.autocast_dtype):
            output = module(**part, **fit_params) if isinstance(part, Mapping) else module(part, **fit_params)
        return gather_rows(as_fp32(output), world, n_rows, stop - start)

    def _rank_random_state(self, training):
        """Dropout of training steps draws from a generator of its own per rank and step.

        Ranks compute different rows, so they must not reuse each other's
        dropout masks, and what they draw must not move the shared
        generator, which every rank keeps in step for shuffling and the
        regulariser's random directions.
        """
        if not training:
            return contextlib.nullcontext()
        self.sharded_steps_ = getattr(self, "sharded_steps_", 0) + 1
        seed = np.random.SeedSequence([torch.initial_seed(), self.world_.rank, self.sharded_steps_])
        return seeded_torch(int(seed.generate_state(1)[0]), self.device)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        loss = super().get_loss(y_pred, y_true, X=X, training=training)
        if training and not torch.isfinite(loss):
            epoch, batch = len(self.history), len(self.history[-1, "batches"])
            raise TrainingDivergedError(
                f"training diverged: the loss is {loss.item()} at epoch {epoch}, batch {batch}. "
                "The estimator keeps the state it had before fit. Lower lr, or look for huge or "
                "badly scaled input values."
            )
        return loss

    def fit_loop(self, X, y=None, epochs=None, **fit_params):
        self.interrupted_ = False
        if getattr(self, "world_", None) is not None:
            device = torch.device(self.device)
            # set past skorch's __setattr__, which would register a module as part of the net
            # (saved, moved between devices); the wrapper only lives while fit_loop runs
            vars(self)["ddp_module_"] = torch.nn.parallel.DistributedDataParallel(
                self.module_, device_ids=[device.index] if device.type == "cuda" else None
            )
        try:
            with flushed_denormals(), retained_heap():
                return super().fit_loop(X, y, epochs=epochs, **fit_params)
        except KeyboardInterrupt:
            self.interrupted_ = True
            raise
        finally:
            for name in ("ddp_module_", "sharded_steps_"):
                self.__dict__.pop(name, None)


class JEPANet(HEPANet):
    """skorch net for pretraining; records the L1 and SIGReg terms per batch and epoch.

    With ``cut_block > 1`` the training iterator keeps the items (cuts) of
    one window together in shuffled blocks of that many (:class:`BlockBatches`),
    so a batch needs one context pass per window instead of one per cut.
    """

    def __init__(self, *args, cut_block=1, **kwargs):
        super().__init__(*args, **kwargs)
        self.cut_block = cut_block

    def get_iterator(self, dataset, training=False):
        if not training or self.cut_block <= 1:
            return super().get_iterator(dataset, training=training)
        kwargs = self.get_params_for("iterator_train")
        kwargs.pop("shuffle", None)
        batch_size = kwargs.pop("batch_size", self.batch_size)
        batch_size = len(dataset) if batch_size == -1 else batch_size
        # the block order is drawn from torch's global generator, which random_state seeds
        generator = torch.Generator().manual_seed(int(torch.randint(0, 2**62, ()).item()))
        sampler = BlockBatches(window_ids(dataset), self.cut_block, batch_size, generator)
        return self.iterator_train(dataset, batch_sampler=sampler, **kwargs)

    def shard_inputs(self, x, start, stop):
        """Rows ``[start, stop)`` of a CutSampler batch, ``owner`` pointing inside them."""
        part = super().shard_inputs(x, start, stop)
        owner = part["owner"]  # the first item of the same window in the global batch
        part["owner"] = (owner[:, None] == owner[None, :]).int().argmax(dim=1)
        return part

    def get_loss(self, y_pred, y_true, X=None, training=False):
        loss = super().get_loss(y_pred, y_true, X=X, training=training)
        prefix = "train" if training else "valid"
        for name, value in self.criterion_.last_terms.items():
            self.history.record_batch(f"{prefix}_{name}", value)
        return loss


def completed_epochs(net):
    """Epochs of ``net``'s history that finished (an interrupted epoch has no ``train_loss``)."""
    return sum("train_loss" in row for row in net.history)


@dataclass(frozen=True)
class TrainingConfig:
    """The optimisation settings every torch-backed estimator shares (its parameters of the same names)."""

    max_epochs: int
    batch_size: int
    lr: float  # AdamW, cosine-annealed over max_epochs
    weight_decay: float
    early_stopping: bool  # hold out the last validation_fraction of samples (or units), stop on their loss
    validation_fraction: float
    n_iter_no_change: int
    precision: str  # "auto", "bf16" or "fp32" (see runtime.autocast_dtype)
    verbose: int  # 0 silent, 1 progress bar, 2 or more skorch's per-epoch table


def make_net(
    net_class,
    module,
    criterion,
    *,
    training,
    params,
    device,
    collate=None,
    extra_scores=(),
    callbacks=(),
    scoring=(),
    monitor=("valid_loss", True),
):
    """An uninitialised skorch net with the package's optimiser, callbacks and split.

    Parameters
    ----------
    net_class : HEPANet subclass
    module, criterion : torch module classes, configured through ``params``
    training : TrainingConfig
    params : dict
        ``module__*`` and ``criterion__*`` arguments.
    device : str
    collate : (callable, callable) or None
        Collate functions of the training and validation iterators; None
        stacks items as torch does, and takes a :class:`RowsDataset` batch
        as it comes.
    extra_scores : names of per-batch values recorded by the criterion to average per epoch
    callbacks : extra ``(name, callback)`` pairs
    scoring, monitor : what early stopping reads (see ``training_callbacks``)
    """
    collate = (collate_rows, collate_rows) if collate is None else collate
    iterator = {"iterator_train__collate_fn": collate[0], "iterator_valid__collate_fn": collate[1]}
    return net_class(
        module,
        criterion=criterion,
        optimizer=AdamW,
        optimizer__weight_decay=training.weight_decay,
        # one fused kernel per parameter instead of about ten operators: 1.2 against 3.7 ms per
        # step for the JEPA module on one CPU thread; the same update up to float rounding
        optimizer__fused=torch.device(device).type in FUSED_ADAMW_DEVICES or None,
        lr=training.lr,
        max_epochs=training.max_epochs,
        batch_size=training.batch_size,
        iterator_train__shuffle=True,
        train_split=TailSplit(training.validation_fraction) if training.early_stopping else None,
        callbacks=training_callbacks(
            max_epochs=training.max_epochs,
            early_stopping=training.early_stopping,
            n_iter_no_change=training.n_iter_no_change,
            verbose=training.verbose,
            extra_scores=extra_scores,
            scoring=scoring,
            monitor=monitor,
        )
        + list(callbacks),
        device=device,
        autocast_dtype=autocast_dtype(training.precision, device),
        # skorch prints its per-epoch table when verbose; verbose=1 shows a progress bar instead
        verbose=training.verbose if training.verbose >= 2 else 0,
        **iterator,
        **params,
    )
