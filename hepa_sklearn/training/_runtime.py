"""Where and how training runs: device, autocast precision, seeding, chunked inference, finite outputs."""

import contextlib
import ctypes
import sys

import numpy as np
import torch

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


def as_fp32(output):
    """Cast every floating tensor in a module output (tensor or tuple) to fp32 for the loss."""
    if isinstance(output, tuple):
        return tuple(as_fp32(part) for part in output)
    if isinstance(output, torch.Tensor) and output.is_floating_point():
        return output.float()
    return output


@contextlib.contextmanager
def seeded_torch(seed, device):
    """Seed torch inside the block without changing the caller's global generator state."""
    devices = [torch.device(device).index or 0] if str(device).startswith("cuda") else []
    with torch.random.fork_rng(devices=devices):
        torch.manual_seed(seed)
        yield


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
    # working memory is 276 MB at 20,000 and 340 MB at 200,000 (benchmarks/outputs/memory_cpu.txt)
    with torch.inference_mode(), autocast(device, dtype):
        for start in range(0, array.shape[0], chunk_size):
            part = forward(torch.as_tensor(array[start : start + chunk_size], device=device)).float().cpu()
            if output is None:
                output = torch.empty((array.shape[0], *part.shape[1:]), dtype=torch.float32)
            output[start : start + part.shape[0]] = part
    release_freed_memory()
    return output


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


def release_freed_memory():
    """Hand memory freed by training back to the operating system (glibc's ``malloc_trim``); a no-op elsewhere.

    glibc keeps the heap pages of freed training buffers (batches of
    activations and their gradients) mapped, so the process's resident size
    stays at its training peak and the next stage's buffers come on top of
    it. On the C-MAPSS FD001 protocol (2 pretraining epochs, 1 finetuning
    epoch, 1 torch thread), trimming after each fit and each chunked
    inference lowered the run's peak RSS from 793 to 699 MB.
    """
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = False
        if sys.platform.startswith("linux"):
            try:
                _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
            except (OSError, AttributeError):  # not glibc (musl, ...)
                pass
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim = None
