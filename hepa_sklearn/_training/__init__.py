"""Training internals on skorch, one module per concern.

runtime, sampling, statistics, criteria, callbacks, net, distributed.
"""

from .callbacks import COLLAPSE_SPREAD, GRADIENT_CLIP, CollapseMonitor, TargetEMA
from .criteria import JEPACriterion, ReconstructionLoss, SurfaceLoss, prediction_spread
from .net import HEPANet, JEPANet, TrainingConfig, TrainingDivergedError, make_net
from .runtime import PRECISIONS, autocast_dtype, check_finite_output, infer_in_chunks, resolve_device, seeded_torch
from .sampling import CutSampler, PatchMaskSampler, TailSplit, WindowDataset
from .statistics import check_pretrainable, global_statistics, window_attributes

__all__ = [
    "COLLAPSE_SPREAD",
    "GRADIENT_CLIP",
    "PRECISIONS",
    "CollapseMonitor",
    "CutSampler",
    "HEPANet",
    "JEPACriterion",
    "JEPANet",
    "PatchMaskSampler",
    "ReconstructionLoss",
    "SurfaceLoss",
    "TailSplit",
    "TargetEMA",
    "TrainingConfig",
    "TrainingDivergedError",
    "WindowDataset",
    "autocast_dtype",
    "check_finite_output",
    "check_pretrainable",
    "global_statistics",
    "infer_in_chunks",
    "make_net",
    "prediction_spread",
    "resolve_device",
    "seeded_torch",
    "window_attributes",
]
