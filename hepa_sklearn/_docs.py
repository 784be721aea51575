"""Docstring fragments shared by several public objects, filled in by :func:`fill_doc`.

A docstring names a fragment as ``%(name)s`` alone on its line; the
fragment's lines take that line's indentation. This is how MNE-Python shares
parameter descriptions: one text, no copies that drift apart.
"""

import inspect

__all__ = ["fill_doc"]

DOCS = {
    "y_true": """\
y_true : structured ndarray with fields ``event`` and ``time``""",
    "surface_probabilities": """\
y_true : structured ndarray with fields ``event`` and ``time``
proba : array-like of shape (n_samples, K)
    Probabilities in [0, 1].""",
    "surface_probabilities_binned": """\
y_true : structured ndarray with fields ``event`` and ``time``
proba : array-like of shape (n_samples, K)
    Probabilities in [0, 1].
n_bins : int, default=10
    Equal-width bins on [0, 1].""",
    "pooled_score": """\
Parameters
----------
y_true : structured ndarray with fields ``event`` and ``time``
proba : array-like of shape (n_samples, K)
    Scores; any finite values (only their order matters).

Returns
-------
score : float
    NaN when the known cells hold fewer than two classes.""",
    "window_shape_attributes": """\
n_features_in_ : int
    Number of channels seen in ``fit``.
n_timepoints_in_ : int
    Window length seen in ``fit``.""",
    # defaults are filled from the decorated class's own signature
    "training_parameters": """\
max_epochs : int, default={max_epochs}
    Training epochs; fewer when early stopping ends training.
batch_size : int, default={batch_size}
lr : float, default={lr}
    AdamW learning rate, annealed by a cosine schedule over ``max_epochs``.
weight_decay : float, default={weight_decay}
    AdamW weight decay.
early_stopping : bool, default={early_stopping}
    Hold out the last ``validation_fraction`` of the training samples
    (input order) and stop when their loss has not improved for
    ``n_iter_no_change`` epochs, keeping the best weights.
validation_fraction : float, default={validation_fraction}
n_iter_no_change : int, default={n_iter_no_change}
device : str, default={device!r}
    ``"auto"`` (CUDA when torch sees a GPU, else CPU), ``"cpu"``,
    ``"cuda"`` or any torch device string.
precision : {{"auto", "bf16", "fp32"}}, default={precision!r}
    ``"bf16"`` runs forward passes under bf16 autocast (weights,
    optimiser state and losses stay fp32); ``"auto"`` means bf16 on
    CUDA and fp32 on CPU.
random_state : int, RandomState instance or None, default={random_state}
    Seeds everything random in ``fit`` (initial weights, shuffling,
    sampling); a fixed value gives identical results on CPU.
verbose : int, default={verbose}
    Print skorch's per-epoch table when positive.""",
}


def fill_doc(obj):
    """Decorator: replace each ``%(name)s`` line of ``obj.__doc__`` by the fragment ``DOCS[name]``.

    For a class, ``{default}`` fields in the fragments are filled with the
    defaults of its constructor, so the text cannot drift from the code.
    """
    defaults = {}
    if inspect.isclass(obj):
        defaults = {name: p.default for name, p in inspect.signature(obj.__init__).parameters.items()}
    lines = []
    for line in obj.__doc__.splitlines():
        name = line.strip()
        if name.startswith("%(") and name.endswith(")s"):
            indent = line[: len(line) - len(line.lstrip())]
            fragment = DOCS[name[2:-2]]
            if "{" in fragment and defaults:
                fragment = fragment.format(**defaults)
            lines += [indent + part if part else part for part in fragment.splitlines()]
        else:
            lines.append(line)
    obj.__doc__ = "\n".join(lines)
    return obj
