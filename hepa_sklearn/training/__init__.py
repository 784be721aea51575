"""The runtime settings that the estimators' training runs under, for scripts that time or profile it.

The estimators choose their device (:func:`resolve_device`), the dtype of
their forward passes (:func:`autocast_dtype`, :func:`autocast`), seed torch
for ``fit`` without touching the caller's generator (:func:`seeded_torch`),
clip the gradient norm at :data:`GRADIENT_CLIP`, and run their epochs with
subnormal floats flushed (:func:`flushed_denormals`) and freed heap memory
kept in the process (:func:`retained_heap`). A script that times a training
step outside ``fit`` (on the net of an estimator's ``initialize`` and its
``training_data``) reproduces these conditions with the same functions.
A training whose loss is no longer finite raises
:class:`TrainingDivergedError`.
"""

from . import _callbacks
from ._net import TrainingDivergedError, flushed_denormals, retained_heap
from ._runtime import autocast, autocast_dtype, resolve_device, seeded_torch

__all__ = [
    "GRADIENT_CLIP",
    "TrainingDivergedError",
    "autocast",
    "autocast_dtype",
    "flushed_denormals",
    "resolve_device",
    "retained_heap",
    "seeded_torch",
]

#: The gradient norm at which every estimator's training clips the gradients (the paper, §3.1).
GRADIENT_CLIP = _callbacks.GRADIENT_CLIP
