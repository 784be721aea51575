"""Callbacks of every training run and the user's own.

LR schedule, gradient clipping, early stopping, progress and logging, collapse monitor, EMA target.
"""

import copy
import logging
import math
import sys
import warnings

import numpy as np
import torch
from skorch.callbacks import Callback, EarlyStopping, GradientNormClipping, LRScheduler, PassthroughScoring
from tqdm import tqdm

from .._stats import effective_rank
from ..nn.jepa import EMA_MOMENTUM

logger = logging.getLogger("hepa_sklearn")

GRADIENT_CLIP = 1.0  # reference protocol: gradient-norm clipping at 1.0 (the paper, §3.1)

# Spread below this is reported as collapse: evenly spread predictions give
# about 1, and SIGReg-trained C-MAPSS models stay above 0.3 (measured).
COLLAPSE_SPREAD = 0.05


def user_callbacks(callbacks, own):
    """Fresh copies of the user's skorch callbacks as ``(name, callback)`` pairs, named as skorch names them.

    Each fit gets deep copies, so state a callback keeps from one fit never
    leaks into the next (or into a clone). A name that one of the
    estimator's own callbacks already has is refused, since skorch would
    replace that callback.
    """
    if not callbacks:
        return []
    taken = {name for name, _ in own}
    pairs = []
    for item in callbacks:
        name, callback = item if isinstance(item, tuple) else (type(item).__name__, item)
        if not isinstance(callback, Callback):
            raise TypeError(
                f"callbacks must hold skorch callbacks or (name, callback) pairs; got {type(callback).__name__}."
            )
        if name in taken:
            raise ValueError(
                f"callback name {name!r} is already used by the estimator's own callbacks {sorted(taken)}; "
                "pass it as a (name, callback) pair with another name."
            )
        taken.add(name)
        pairs.append((name, copy.deepcopy(callback)))
    return pairs


class CollapseMonitor(Callback):
    """After each epoch, flag representation collapse in the history (``collapse``); warn once per fit."""

    def __init__(self, threshold=COLLAPSE_SPREAD):
        self.threshold = threshold

    def on_train_begin(self, net, **kwargs):
        self.warned_ = False

    def on_epoch_end(self, net, **kwargs):
        spread = net.history[-1].get("train_spread")
        collapsed = spread is not None and spread < self.threshold
        net.history.record("collapse", bool(collapsed))
        if collapsed:
            logger.warning(
                "epoch %d: representation collapse, the predictions' spread is %.3g (below %s)",
                len(net.history),
                spread,
                self.threshold,
            )
        if collapsed and not getattr(self, "warned_", False):
            self.warned_ = True
            warnings.warn(
                f"representation collapse at epoch {len(net.history)}: the predictions' spread is "
                f"{spread:.3g} (about 1 when healthy, below {self.threshold} counts as collapse). "
                "Raise regularizer_weight or lower lr. This warning is given once per fit; "
                "history_[:, 'collapse'] flags every collapsed epoch.",
                RuntimeWarning,
                stacklevel=2,
            )


class TargetEMA(Callback):
    """After every optimiser step, move an EMA target encoder towards the context encoder by ``momentum``."""

    def __init__(self, momentum=EMA_MOMENTUM):
        self.momentum = momentum

    def on_batch_end(self, net, batch=None, training=False, **kwargs):
        if training:
            net.module_.update_target(self.momentum)


class DeviceFreeLRScheduler(LRScheduler):
    """skorch's LRScheduler, pickled without its torch scheduler.

    The torch scheduler holds the optimizer, whose state lives on the training
    device. skorch pickles ``optimizer_`` so that a net trained on a GPU
    unpickles on a CPU-only machine, but this second reference would be
    pickled as it is and fail there ("Attempting to deserialize object on a
    CUDA device"; skorch issue 1096). The scheduler is rebuilt from
    ``optimizer_`` when training begins, so nothing is lost.
    """

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("lr_scheduler_", None)
        return state


class PatientEarlyStopping(EarlyStopping):
    """skorch's EarlyStopping that marks the net as stopped early before ending training.

    skorch ends training by raising ``KeyboardInterrupt``, the same exception
    as a real Ctrl-C; the mark (``net.stopped_early_``) tells the two apart,
    so an early stop is not reported as an interruption.
    """

    def on_train_begin(self, net, **kwargs):
        net.stopped_early_ = False
        return super().on_train_begin(net, **kwargs)

    def on_epoch_end(self, net, **kwargs):
        try:
            super().on_epoch_end(net, **kwargs)
        except KeyboardInterrupt:
            net.stopped_early_ = True
            logger.info(
                "early stopping at epoch %d: %s has not improved for %d epochs; the weights of epoch %d are kept",
                len(net.history),
                self.monitor,
                self.patience,
                self.best_epoch_,
            )
            raise


def raise_if_interrupted(estimator, net, n_epochs):
    """Raise KeyboardInterrupt when ``net``'s training was interrupted (not stopped early): nothing is fitted.

    skorch ends training on ``KeyboardInterrupt`` (a Ctrl-C) and returns
    normally with the weights reached so far; ``fit`` calls this before it
    stores any fitted attribute, so an interrupted fit never leaves a
    half-trained estimator that looks fitted.
    """
    if getattr(net, "interrupted_", False) and not getattr(net, "stopped_early_", False):
        raise KeyboardInterrupt(
            f"{type(estimator).__name__}.fit was interrupted after {n_epochs} complete epoch(s) of "
            f"{net.max_epochs}; nothing was fitted: the estimator keeps the state it had before fit "
            "(a fresh one stays unfitted)."
        )


class HeldOutRank(Callback):
    """After each epoch, the effective rank of the held-out windows' embeddings, as ``valid_rank``.

    A label-free view of how much of the embedding space the encoder uses:
    it falls when pretraining concentrates ``h_t`` on fewer directions.
    Each distinct held-out window is embedded once, in eval mode.
    """

    def on_epoch_end(self, net, dataset_valid=None, **kwargs):
        if dataset_valid is None:
            return
        windows = dataset_valid.dataset
        rows = np.unique(np.asarray(dataset_valid.indices) // windows.repeats)
        module = net.module_
        device = next(module.parameters()).device
        training = module.training
        module.eval()
        with torch.no_grad():
            embedded = torch.cat(
                [
                    module.embed(windows.X[part].to(device)).float().cpu()
                    for part in np.array_split(rows, max(1, len(rows) // 256))
                ]
            )
        module.train(training)
        net.history.record("valid_rank", effective_rank(embedded.numpy()))


class TrainingLog(Callback):
    """Log the split and each epoch's losses to the package's logger (INFO)."""

    def on_epoch_begin(self, net, dataset_train=None, dataset_valid=None, **kwargs):
        if len(net.history) == 1:
            n_valid = 0 if dataset_valid is None else len(dataset_valid)
            logger.info("training on %d samples, validating on %d", len(dataset_train), n_valid)

    def on_epoch_end(self, net, **kwargs):
        row = net.history[-1]
        losses = ", ".join(f"{name}={row[name]:.4g}" for name in ("train_loss", "valid_loss") if name in row)
        logger.info("epoch %d/%d: %s (%.2f s)", row["epoch"], net.max_epochs, losses, row.get("dur", math.nan))


class TrainingProgress(Callback):
    """One progress bar per fit on stderr: batches over all epochs, the epoch, the current batch loss.

    It ends early when early stopping does; the last line stays, showing
    the final losses.
    """

    def on_epoch_begin(self, net, dataset_train=None, dataset_valid=None, **kwargs):
        if len(net.history) == 1:
            per_epoch = sum(
                math.ceil(len(dataset) / net.batch_size) for dataset in (dataset_train, dataset_valid) if dataset
            )
            self.bar_ = tqdm(total=per_epoch * net.max_epochs, file=sys.stderr, unit="batch", dynamic_ncols=True)
        self.bar_.set_description(f"epoch {len(net.history)}/{net.max_epochs}", refresh=False)

    def on_batch_end(self, net, training=False, **kwargs):
        if training:  # the last training batch's loss, and the validation loss of the last finished epoch
            postfix = {"loss": net.history[-1, "batches", -1, "train_loss"]}
            if len(net.history) > 1 and "valid_loss" in net.history[-2]:
                postfix["valid_loss"] = net.history[-2, "valid_loss"]
            self.bar_.set_postfix({name: f"{value:.4g}" for name, value in postfix.items()}, refresh=False)
        self.bar_.update()

    def on_epoch_end(self, net, **kwargs):
        if "valid_loss" in net.history[-1]:
            postfix = {"loss": net.history[-1, "train_loss"], "valid_loss": net.history[-1, "valid_loss"]}
            self.bar_.set_postfix({name: f"{value:.4g}" for name, value in postfix.items()}, refresh=False)

    def on_train_end(self, net, **kwargs):
        bar = self.__dict__.pop("bar_", None)
        if bar is not None:
            bar.close()

    def __getstate__(self):
        # a bar is an open terminal handle; each fit makes its own
        state = self.__dict__.copy()
        state.pop("bar_", None)
        return state


def training_callbacks(
    *,
    max_epochs,
    early_stopping,
    n_iter_no_change,
    verbose=0,
    extra_scores=(),
    scoring=(),
    monitor=("valid_loss", True),
):
    """Cosine LR schedule, gradient clipping, logging, a progress bar at ``verbose=1``, optional early stopping.

    The learning rate anneals to 0 over ``max_epochs`` (the paper's
    schedule). ``scoring``: ``(name, callback)`` pairs that record per-epoch
    values before early stopping reads them (only with early stopping);
    ``monitor``: the history key early stopping watches and whether lower
    is better.
    """
    callbacks = [
        ("lr_schedule", DeviceFreeLRScheduler(policy="CosineAnnealingLR", T_max=max_epochs)),
        ("gradient_clipping", GradientNormClipping(gradient_clip_value=GRADIENT_CLIP)),
    ]
    for name in extra_scores:
        on_train = name.startswith("train")
        if on_train or early_stopping:
            callbacks.append((name, PassthroughScoring(name=name, on_train=on_train)))
    if early_stopping:
        callbacks += list(scoring)
    # before early stopping, which ends the last epoch by raising
    callbacks.append(("training_log", TrainingLog()))
    if verbose == 1:
        callbacks.append(("training_progress", TrainingProgress()))
    if early_stopping:
        callbacks.append(
            (
                "early_stopping",
                PatientEarlyStopping(
                    monitor=monitor[0], lower_is_better=monitor[1], patience=n_iter_no_change, load_best=True
                ),
            )
        )
    return callbacks
