"""Callbacks of every training run: LR schedule, gradient clipping, early stopping, collapse monitor, EMA target."""

import warnings

from skorch.callbacks import Callback, EarlyStopping, GradientNormClipping, LRScheduler, PassthroughScoring

GRADIENT_CLIP = 1.0  # reference protocol: gradient-norm clipping at 1.0 (the paper, §3.1)

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
            raise


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
            ("early_stopping", PatientEarlyStopping(monitor="valid_loss", patience=n_iter_no_change, load_best=True))
        )
    return callbacks
