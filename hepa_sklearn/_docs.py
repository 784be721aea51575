"""Docstring fragments shared by three or more public objects, filled in by :func:`fill_doc`.

A docstring names a fragment as ``%(name)s`` alone on its line; the
fragment's lines take that line's indentation. This is how MNE-Python shares
parameter descriptions: one text, no copies that drift apart. Text that
fewer objects share is written out in their docstrings, where a reader of
the source finds it (``tests/test_docs_fragments.py`` checks both).
"""

import inspect

__all__ = ["fill_doc"]

DOCS = {
    # the loss of every estimator of an event surface
    "surface_loss_parameters": """\
loss : {{"bce", "nll"}}, default={loss!r}
    ``"bce"``: positive-weighted BCE on the cumulative surface (the
    paper's loss). ``"nll"``: the negative log-likelihood of the
    discrete-time survival model of the hazards, which ignores
    ``pos_weight``.
pos_weight : "auto" or float, default={pos_weight!r}
    Weight of positive cells; ``"auto"`` is N_neg / N_pos over the known
    cells of the training labels.""",
    # the survival methods of hepa_sklearn.survival.SurvivalMixin
    "step_function_parameters": """\
X : array-like
    The input of ``predict_proba``.
return_array : bool, default=False
    Return the values at the horizons ``1..K`` as an array instead of
    step functions.""",
    # the functions of a surface in hepa_sklearn.surface
    "surface_proba_parameters": """\
Parameters
----------
proba : array-like of shape (n_samples, K)
    Probabilities in [0, 1], ``proba[i, k-1]`` = P(event within k steps).""",
    "window_shape_attributes": """\
n_features_in_ : int
    Number of channels seen in ``fit``.
n_timepoints_in_ : int
    Window length seen in ``fit``.""",
    # the encoders of HEPA, MAE, PatchTST and iTransformer
    "encoder_parameters": """\
d_model : int, default={d_model}
    Token width.
n_layers : int, default={n_layers}
    Transformer blocks.
n_heads : int, default={n_heads}
    Attention heads; must divide ``d_model``. The feed-forward layer of
    each block is ``d_model`` wide, as in the paper.""",
    "encoder_attributes": """\
%(window_shape_attributes)s
channel_loc_, channel_scale_ : ndarray of shape (n_channels,)
    Statistics of ``norm="global"`` (0 and 1 for the other modes).""",
    # the frozen foundation-model embedders of hepa_sklearn.baselines
    "foundation_parameters": """\
model_path : str or path-like
    Folder holding the model's ``config.json`` and ``model.safetensors``.
channel_pooling : {{"mean", "concat"}}, default={channel_pooling!r}
    ``"mean"``: one embedding per window, the mean over its channels
    (the paper's protocol, independent of the channel count).
    ``"concat"``: the channels' embeddings side by side, channel 0
    first, which keeps which sensor said what at ``n_channels`` times
    the width.
%(foundation_runtime_parameters)s""",
    "foundation_runtime_parameters": """\
batch_size : int, default={batch_size}
    Series (window channels) encoded at once.
device : str, default={device!r}
    ``"auto"`` (CUDA when torch sees a GPU, else CPU), ``"cpu"``,
    ``"cuda"`` or any torch device string.""",
    # The training parameters, in parts: the pretrainers write their own
    # max_epochs (0 is allowed), and HEPAPretrainer its own early_stopping,
    # which stops on its validation_metric. Defaults are filled from the decorated class's
    # own signature.
    "training_parameters": """\
%(training_epochs)s
%(training_optimiser)s
%(training_early_stopping)s
%(training_run)s""",
    "training_epochs": """\
max_epochs : int, default={max_epochs}
    Training epochs; fewer when early stopping ends training.""",
    "training_optimiser": """\
batch_size : int, default={batch_size}
    Samples per optimiser step; under distributed training (see
    ``device``), the global batch of all processes together.
lr : float, default={lr}
    AdamW learning rate, annealed to 0 by a cosine schedule over
    ``max_epochs``.
weight_decay : float, default={weight_decay}
    AdamW weight decay.""",
    "training_early_stopping": """\
early_stopping : bool, default={early_stopping}
    Hold out the last ``validation_fraction`` of the training samples
    (input order), or of the units when ``fit`` gets ``groups``, and
    stop when their loss has not improved for ``n_iter_no_change``
    epochs, keeping the best weights.""",
    "training_run": """\
validation_fraction : float, default={validation_fraction}
n_iter_no_change : int, default={n_iter_no_change}
device : str, default={device!r}
    ``"auto"`` (CUDA when torch sees a GPU, else CPU), ``"cpu"``,
    ``"cuda"`` or any torch device string. Training on several
    processes needs no parameter: in a script launched by ``torchrun``
    that has initialised a ``torch.distributed`` process group of more
    than one process, every process of the group trains this one model
    with :class:`~torch.nn.parallel.DistributedDataParallel` (a bare
    ``"cuda"`` becomes each process's own GPU); otherwise the process
    trains alone. Every process passes the same data and parameters to
    ``fit``; each of the N processes computes ``batch_size / N`` rows of
    every batch (ValueError when N does not divide it), and the loss is
    that of the whole batch, so training follows the one-process run up
    to floating-point rounding, except for dropout in an encoder, whose
    masks each process draws itself. All processes end with the same
    weights and ``history_``; only rank 0 prints and logs the progress
    of ``fit``. See the user guide, "Training on several processes or
    GPUs".
precision : {{"auto", "bf16", "fp32"}}, default={precision!r}
    ``"bf16"`` runs forward passes under bf16 autocast (weights,
    optimiser state and losses stay fp32); ``"auto"`` means bf16 on
    CUDA and fp32 on CPU.
random_state : int, RandomState instance or None, default={random_state}
    Seeds everything random in ``fit`` (initial weights, shuffling,
    sampling); a fixed value gives identical results on CPU.
verbose : int, default={verbose}
    0: silent. 1: a progress bar on stderr with the epoch and the
    current loss. 2 or more: skorch's per-epoch table of losses on
    stdout. Whatever its value, the start and end of ``fit``, each
    epoch's losses, early stopping and collapse are also logged to the
    ``"hepa_sklearn"`` logger (:mod:`logging`), which has only a
    ``NullHandler``: they appear once the application configures
    logging, for example ``logging.basicConfig(level=logging.INFO)``.
callbacks : list of skorch callbacks or (name, callback) pairs, default=None
    Added to the estimator's own callbacks (schedule, clipping, early
    stopping, logging, progress bar), for example
    ``skorch.callbacks.Checkpoint`` or ``TensorBoard``. Each ``fit`` trains with fresh
    copies, so the objects passed here are never changed; read what a
    callback recorded from ``net_.callbacks_``. Not stored by
    :func:`~hepa_sklearn.persistence.save`. Under distributed training
    they run on every process.""",
    "fit_groups": """\
groups : array-like of shape (n_samples,), default=None
    Unit label of each sample, for example the ``groups`` of
    :func:`~hepa_sklearn.windows.make_windows`. Only early stopping reads it:
    its validation part is then every sample of the last
    ``validation_fraction`` of the distinct units (at least one), in
    order of first appearance, so no unit is on both sides of the
    split. None (the default) holds out the last ``validation_fraction``
    of the samples in input order. Inside a pipeline pass it as
    ``pipe.fit(X, y, <step>__groups=groups)``; with metadata routing
    enabled, request it with ``set_fit_request(groups=True)``.""",
    "fit_interruption": """\
Raises
------
KeyboardInterrupt
    When ``fit`` is interrupted (Ctrl-C, or a ``SIGINT`` sent to the
    process): nothing is fitted, and the estimator keeps the state it had
    before ``fit`` (a fresh one stays unfitted: ``check_is_fitted``
    raises), rather than keeping half-trained weights. The message names
    the epochs that completed. Any other exception raised during training,
    for example ``SystemExit`` from a ``SIGTERM`` handler, leaves the
    estimator alike; without a handler, ``SIGTERM`` ends the process.""",
    # The event-benchmark loaders and fetchers: their ``{field}`` names are
    # filled from each dataset's spec by ``datasets._event_dataset.dataset_doc``.
    "event_loader_parameters": """\
Parameters
----------
data_home : str or path-like, default=None
    Data home, see :func:`get_data_home`.
split : {split_choices} or None, default=None
    Part whose windows to return. None returns windows over every unit
    whole, with labels that look across part boundaries.
context_length : int, default={context_length}
    Window length in {step}s; history shorter than this is left-padded
    with NaN.
stride : int, default={stride}
    Distance in {step}s between consecutive window ends, counted back
    from each unit's last row in the part.
min_history : int, default={min_history}
    Minimum number of observed {step}s in a window.
normalize : bool, default=True
    Scale ``X`` by the per-channel {statistics}
    of the ``"{scaling_part}"`` rows. The frame keeps the unscaled values.""",
    # the dataset's own ``frame`` field follows the fragment in its docstring
    "event_loader_returns": """\
Returns
-------
data : :class:`~sklearn.utils.Bunch`
    With the fields:

    X : ndarray of shape (n_windows, {n_channels}, context_length), float32
        Windows over the channels in ``feature_names``, left-padded
        with NaN where the history is shorter than ``context_length``.
    y : structured ndarray of shape (n_windows,)
        Fields ``event`` (bool) and ``time`` (float): {step}s from the
        window's end to the next {event} in the part, or to the part's
        last row when censored.
    groups : ndarray of shape (n_windows,), str
        Unit of each window.
    feature_names : list of str
        The channels of ``X``, in order.
    splits : DataFrame
        One row per (unit, part): ``unit``, ``split``, ``start``, ``stop``
        (row positions within the unit, stop excluded), ``n_rows``,
        ``n_events``.
    offset, scale : ndarray of shape ({n_channels},)
        Per-channel {statistics} of the ``"{scaling_part}"``
        rows (a constant channel gets scale 1).
    DESCR : str
        Description of the data, the event, the split and the parameters
        used.""",
    "event_fetch": """\
Each missing file is downloaded from a public copy on GitHub, pinned to
one commit, and checked against the SHA-256 of its uncompressed content
before it is kept in ``{directory}/`` of the data home (gzipped where its
name ends in ``.gz``). Files already there, plain or gzipped, are used as
they are.

Parameters
----------
data_home : str or path-like, default=None
    Data home, see :func:`get_data_home`.
download_if_missing : bool, default=True
    If False, raise ``OSError`` instead of downloading a missing file.
**load_params
    Passed to :func:`{loader}`.

Returns
-------
data : :class:`~sklearn.utils.Bunch`
    As returned by :func:`{loader}`.""",
}


def _placeholder(line):
    """The fragment name of a line ``%(name)s`` (with any indentation), or None for any other line."""
    name = line.strip()
    return name[2:-2] if name.startswith("%(") and name.endswith(")s") else None


def _expanded(text, defaults=None):
    """``text`` with each ``%(name)s`` line replaced by the fragment ``DOCS[name]`` (itself expanded), indented as the
    line.

    With ``defaults``, the ``{field}`` names of each fragment are filled from it.
    """
    lines = []
    for line in text.splitlines():
        name = _placeholder(line)
        if name is None:
            lines.append(line)
            continue
        fragment = _expanded(DOCS[name])
        if defaults and "{" in fragment:
            fragment = fragment.format(**defaults)
        indent = line[: len(line) - len(line.lstrip())]
        lines += [indent + part if part else part for part in fragment.splitlines()]
    return "\n".join(lines)


def fill_doc(obj):
    """Decorator: replace each ``%(name)s`` line of ``obj.__doc__`` by the fragment ``DOCS[name]``.

    A fragment may name other fragments the same way. For a class,
    ``{default}`` fields in the fragments are filled with the defaults of
    its constructor, so the text cannot drift from the code.
    """
    defaults = {}
    if inspect.isclass(obj):
        defaults = {name: p.default for name, p in inspect.signature(obj.__init__).parameters.items()}
    obj.__doc__ = _expanded(obj.__doc__, defaults)
    return obj
