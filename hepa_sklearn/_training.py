"""Glue to skorch: nets, datasets, cut-sampling collate, validation split and callbacks."""

import contextlib
import math
import warnings

import numpy as np
import torch
import torch.nn.functional as F
from skorch import NeuralNet
from skorch.callbacks import Callback, EarlyStopping, GradientNormClipping, LRScheduler, PassthroughScoring
from torch import nn
from torch.utils.data import Dataset, Subset

from .nn.losses import jepa_loss, surface_bce, survival_nll
from .nn.sigreg import SIGReg, VarianceCovariance

GRADIENT_CLIP = 1.0  # reference protocol: gradient-norm clipping at 1.0 (PAPER_NOTES §2)


PRECISIONS = ("auto", "bf16", "fp32")


def resolve_device(device):
    """'auto' -> 'cuda' when a GPU is visible, else 'cpu'; other values are checked and pass through."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        kind = torch.device(device).type
    except (RuntimeError, TypeError) as exc:
        raise ValueError(f"device must be 'auto', 'cpu', 'cuda' or a torch device string, got {device!r}.") from exc
    if kind == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device={device!r} was asked for but torch sees no CUDA GPU; use 'cpu' or 'auto'.")
    return device


def autocast_dtype(precision, device):
    """The autocast dtype for ``precision`` on ``device``: bf16, or None for plain fp32.

    ``"auto"`` means bf16 on CUDA (tensor cores run it several times faster
    than fp32) and fp32 on CPU, where bf16 matmuls are rarely faster.
    """
    if precision == "bf16" or (precision == "auto" and torch.device(device).type == "cuda"):
        return torch.bfloat16
    return None


def autocast(device, dtype):
    """``torch.autocast`` context for ``dtype`` on ``device``, or a no-op when ``dtype`` is None."""
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=torch.device(device).type, dtype=dtype)


def _as_fp32(output):
    """Cast every floating tensor in a module output (tensor or tuple) to fp32 for the loss."""
    if isinstance(output, tuple):
        return tuple(_as_fp32(part) for part in output)
    if isinstance(output, torch.Tensor) and output.is_floating_point():
        return output.float()
    return output


def infer_in_chunks(module, forward, array, chunk_size, *, dtype=None):
    """Apply ``forward`` to ``array`` in chunks of ``chunk_size`` rows in eval mode; a CPU float tensor.

    Memory is bounded by the chunk, not by the number of rows. ``dtype``
    runs the forward pass under autocast (None: fp32).
    """
    device = next(module.parameters()).device
    module.eval()
    output = None
    # one preallocated output instead of a list of chunks to concatenate: the list
    # fragmented the heap and held up to 1.4 GB extra at 20,000 windows; with it the
    # working memory is 276 MB at 20,000 and 340 MB at 200,000 (benchmarks/memory_cpu.txt)
    with torch.inference_mode(), autocast(device, dtype):
        for start in range(0, array.shape[0], chunk_size):
            part = forward(torch.as_tensor(array[start : start + chunk_size], device=device)).float().cpu()
            if output is None:
                output = torch.empty((array.shape[0], *part.shape[1:]), dtype=torch.float32)
            output[start : start + part.shape[0]] = part
    return output


class TrainingDivergedError(FloatingPointError):
    """Training produced a non-finite loss; the estimator keeps the state it had before ``fit``."""


def check_finite_output(values, method):
    """``values`` unchanged when finite; otherwise a ValueError that says which rows overflowed."""
    bad = ~np.isfinite(values).reshape(values.shape[0], -1).all(axis=1)
    if bad.any():
        raise ValueError(
            f"{method} produced non-finite values for {int(bad.sum())} of {values.shape[0]} windows "
            f"(the first is row {int(bad.argmax())}): their values lie so far outside the range "
            "seen in fit that the network overflows float32. Rescale the input."
        )
    return values


class HEPANet(NeuralNet):
    """skorch net with the project's safeguards.

    Forward passes may run under autocast (``autocast_dtype``) while losses
    stay fp32; a non-finite training loss stops training with
    :class:`TrainingDivergedError` naming the epoch and batch; an interrupted
    ``fit`` (KeyboardInterrupt) sets ``interrupted_`` (skorch then ends
    training normally, restoring the best weights under early stopping).
    """

    def __init__(self, *args, autocast_dtype=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.autocast_dtype = autocast_dtype

    def infer(self, x, **fit_params):
        with autocast(self.device, self.autocast_dtype):
            output = super().infer(x, **fit_params)
        return _as_fp32(output)

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
        try:
            return super().fit_loop(X, y, epochs=epochs, **fit_params)
        except KeyboardInterrupt:
            self.interrupted_ = True
            raise


def completed_epochs(net):
    """Epochs of ``net``'s history that finished (an interrupted epoch has no ``train_loss``)."""
    return sum("train_loss" in row for row in net.history)


def report_interruption(estimator, net):
    """Warn when ``fit`` was interrupted, naming the epochs that completed; returns their number."""
    n_epochs = completed_epochs(net)
    if getattr(net, "interrupted_", False):
        warnings.warn(
            f"{type(estimator).__name__}.fit was interrupted after {n_epochs} complete epoch(s) of "
            f"{net.max_epochs}; the estimator keeps the weights reached so far (the best ones "
            "under early stopping).",
            UserWarning,
            stacklevel=3,
        )
    return n_epochs


class WindowDataset(Dataset):
    """Windows (n, C, L) as items ``(window, item index, window index)``, each window ``repeats`` times in a row.

    Item ``i`` is window ``i // repeats``; the collate function draws one
    (cut, horizon) pair per item, so every window yields ``repeats`` pairs
    per epoch.
    """

    def __init__(self, X, repeats=1):
        self.X = torch.as_tensor(X)
        self.repeats = repeats

    def __len__(self):
        return self.X.shape[0] * self.repeats

    def __getitem__(self, i):
        return self.X[i // self.repeats], i, i // self.repeats


class CutSampler:
    """Collate function drawing one (cut t, horizon Δt) per window.

    The cut is a patch boundary counted back from the window's last step,
    with at least one observed step before it; Δt ~ LogUniform[1, max_horizon]
    restricted so that the target ``[t, t + Δt)`` lies inside the window.
    With ``fixed=True`` each window's draw depends only on ``(seed, index)``
    (a stable validation set); otherwise draws continue one stream.
    """

    def __init__(self, patch_size, max_horizon, seed, fixed=False):
        self.patch_size = patch_size
        self.max_horizon = max_horizon
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
        max_dt = min(self.max_horizon, length - cut)
        dt = int(np.floor(np.exp(rng.uniform(0.0, np.log(max_dt + 1)))))
        return cut, min(max(dt, 1), max_dt), 1.0

    def __call__(self, batch):
        windows = torch.stack([item[0] for item in batch])
        B, _, L = windows.shape
        # items of the same window point at its first item: one context pass serves them all
        window_ids = torch.tensor([int(item[2]) for item in batch])
        same = window_ids[:, None] == window_ids[None, :]
        owner = same.int().argmax(dim=1)
        observed = ~torch.isnan(windows).all(dim=1)  # (B, L)
        first = torch.where(observed.any(dim=1), observed.int().argmax(dim=1), torch.full((B,), L))
        draws = []
        for (_, index, _), first_observed in zip(batch, first.tolist()):
            rng = np.random.default_rng([self.seed, int(index)]) if self.fixed else self.rng
            draws.append(self._draw(rng, first_observed, L))
        cut, dt, usable = (torch.tensor(column) for column in zip(*draws))
        inputs = {"x": windows, "owner": owner, "cut": cut, "dt": dt, "usable": usable.float()}
        return inputs, torch.zeros(B)


class TailSplit:
    """skorch ``train_split`` holding out the last ``fraction`` of samples in input order.

    With windows grouped by unit, the validation part shares no unit with
    the training part except at most the one unit straddling the boundary.
    """

    def __init__(self, fraction):
        self.fraction = fraction

    def __call__(self, dataset, y=None, groups=None):
        n = len(dataset)
        n_valid = max(1, int(round(self.fraction * n)))
        if n_valid >= n:
            raise ValueError(
                f"validation_fraction={self.fraction} leaves no training sample out of {n}."
            )
        return Subset(dataset, np.arange(n - n_valid)), Subset(dataset, np.arange(n - n_valid, n))


class JEPACriterion(nn.Module):
    """JEPA loss on the module's ``(predicted, target, weight)`` output.

    ``regularizer`` is ``"sigreg"`` (the paper) or ``"vicreg"`` (variance +
    covariance, the reference code's choice); its value is recorded under
    its own name next to the L1 term.
    """

    def __init__(self, alpha=0.1, n_projections=256, regularizer="sigreg"):
        super().__init__()
        self.alpha = alpha
        self.regularizer = regularizer
        if regularizer == "sigreg":
            self.regulariser = SIGReg(n_projections=n_projections)
        else:
            self.regulariser = VarianceCovariance()
        self.last_terms = {}

    def forward(self, y_pred, y_true=None):
        predicted, target, weight = y_pred
        usable = weight > 0
        regulariser = self.regulariser(predicted[usable]) if usable.sum() > 1 else predicted.new_zeros(())
        loss, prediction = jepa_loss(predicted, target, regulariser, alpha=self.alpha, weight=weight)
        self.last_terms = {"l1": prediction.item(), self.regularizer: regulariser.item()}
        if usable.sum() > 1:
            self.last_terms["spread"] = prediction_spread(predicted[usable].detach())
        return loss


def prediction_spread(predicted):
    """√d × mean per-dimension std of the L2-normalised predictions over a batch (N, d).

    About 1 for directions spread evenly over the sphere, 0 when every
    prediction points the same way (representation collapse).
    """
    unit = F.normalize(predicted.float(), dim=-1)
    return float(unit.std(dim=0).mean() * math.sqrt(unit.shape[1]))


# Spread below this is reported as collapse: evenly spread predictions give
# about 1, and SIGReg-trained C-MAPSS models stay above 0.3 (measured).
COLLAPSE_SPREAD = 0.05


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
        if collapsed and not getattr(self, "warned_", False):
            self.warned_ = True
            warnings.warn(
                f"representation collapse at epoch {len(net.history)}: the predictions' spread is "
                f"{spread:.3g} (about 1 when healthy, below {self.threshold} counts as collapse). "
                "Raise sigreg_weight or lower lr. This warning is given once per fit; "
                "history_[:, 'collapse'] flags every collapsed epoch.",
                RuntimeWarning,
                stacklevel=2,
            )


class TargetEMA(Callback):
    """After every optimiser step, move an EMA target encoder towards the context encoder."""

    def __init__(self, momentum):
        self.momentum = momentum

    def on_batch_end(self, net, batch=None, training=False, **kwargs):
        if training:
            net.module_.update_target(self.momentum)


class JEPANet(HEPANet):
    """skorch net for pretraining; records the L1 and SIGReg terms per batch and epoch."""

    def get_loss(self, y_pred, y_true, X=None, training=False):
        loss = super().get_loss(y_pred, y_true, X=X, training=training)
        prefix = "train" if training else "valid"
        for name, value in self.criterion_.last_terms.items():
            self.history.record_batch(f"{prefix}_{name}", value)
        return loss


class SurfaceLoss(nn.Module):
    """Criterion on packed targets ``(B, 2, K)`` (labels, mask of known cells): surface BCE or survival NLL."""

    def __init__(self, pos_weight=1.0, kind="bce"):
        super().__init__()
        self.pos_weight = pos_weight
        self.kind = kind

    def forward(self, hazard_logits, packed):
        if self.kind == "nll":
            return survival_nll(hazard_logits, packed[:, 0], packed[:, 1])
        return surface_bce(hazard_logits, packed[:, 0], packed[:, 1], self.pos_weight)


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


def training_callbacks(*, max_epochs, early_stopping, n_iter_no_change, extra_scores=()):
    """Cosine LR schedule, gradient clipping, optional early stopping on the validation loss."""
    callbacks = [
        ("lr_schedule", DeviceFreeLRScheduler(policy="CosineAnnealingLR", T_max=max_epochs)),
        ("gradient_clipping", GradientNormClipping(gradient_clip_value=GRADIENT_CLIP)),
    ]
    for name in extra_scores:
        on_train = name.startswith("train")
        if on_train or early_stopping:
            callbacks.append((name, PassthroughScoring(name=name, on_train=on_train)))
    if early_stopping:
        callbacks.append(
            ("early_stopping", EarlyStopping(monitor="valid_loss", patience=n_iter_no_change, load_best=True))
        )
    return callbacks


def make_net(net_class, module, criterion, *, estimator, params, device,
             collate_train=None, collate_valid=None, extra_scores=(), callbacks=()):
    """Build a skorch net with the project's optimiser, callbacks and split.

    The training settings (epochs, batch size, learning rate, weight decay,
    early stopping, precision, verbosity) are read from the estimator's parameters of
    the same names.
    """
    max_epochs = estimator.max_epochs
    early_stopping = estimator.early_stopping
    iterator = {}
    if collate_train is not None:
        iterator = {"iterator_train__collate_fn": collate_train, "iterator_valid__collate_fn": collate_valid}
    return net_class(
        module,
        criterion=criterion,
        optimizer=torch.optim.AdamW,
        optimizer__weight_decay=estimator.weight_decay,
        lr=estimator.lr,
        max_epochs=max_epochs,
        batch_size=estimator.batch_size,
        iterator_train__shuffle=True,
        train_split=TailSplit(estimator.validation_fraction) if early_stopping else None,
        callbacks=training_callbacks(
            max_epochs=max_epochs,
            early_stopping=early_stopping,
            n_iter_no_change=estimator.n_iter_no_change,
            extra_scores=extra_scores,
        ) + list(callbacks),
        device=device,
        autocast_dtype=autocast_dtype(estimator.precision, device),
        verbose=estimator.verbose,
        **iterator,
        **params,
    )
