"""The optimiser of every net: torch's AdamW, stepped without importing torch's compiler."""

import inspect

import torch

__all__ = ["AdamW", "compiler_free"]


def _unwrapped(method):
    """``method`` without the wrappers that ``functools.wraps`` recorded, or None where it has none."""
    raw = inspect.unwrap(method)
    return None if raw is method else raw


# torch's own functions under its wrappers, read before any optimiser patches AdamW.step with its profiling hook
_ADD_PARAM_GROUP = _unwrapped(torch.optim.Optimizer.add_param_group)
_ZERO_GRAD = _unwrapped(torch.optim.Optimizer.zero_grad)
_STEP = _unwrapped(torch.optim.AdamW.step)


def compiler_free():
    """Whether this torch lets :class:`AdamW` reach its update without the compiler's wrappers."""
    return None not in (_ADD_PARAM_GROUP, _ZERO_GRAD, _STEP)


class AdamW(torch.optim.AdamW):
    """torch's AdamW: the same update with the same kernels, without importing ``torch._dynamo``.

    torch wraps ``add_param_group`` and ``zero_grad`` so that its compiler
    does not trace them, and ``step`` so that a compiled graph breaks there;
    each wrapper imports ``torch._dynamo`` on its first call. That import
    costs about 1.4 CPU seconds and 68 MB of resident memory per process
    (torch 2.13, one thread), a tenth of the headline line's whole fit on
    FD001. No net of this package compiles its optimiser, so
    this class calls the functions under those wrappers, the step under
    ``torch.no_grad()`` as torch's wrapper runs it for an optimiser that is
    not differentiable. Where a torch release has no such wrappers
    (:func:`compiler_free` is False), or with ``differentiable=True``, each
    method is torch's own.
    """

    def add_param_group(self, param_group):
        if _ADD_PARAM_GROUP is None:
            return super().add_param_group(param_group)
        return _ADD_PARAM_GROUP(self, param_group)

    def zero_grad(self, set_to_none=True):
        if _ZERO_GRAD is None:
            return super().zero_grad(set_to_none)
        return _ZERO_GRAD(self, set_to_none)

    def step(self, closure=None):
        if _STEP is None or self.defaults["differentiable"]:
            return super().step(closure)
        with torch.no_grad():  # the closure, if any, enables gradients for itself inside the step
            return _STEP(self, closure)
