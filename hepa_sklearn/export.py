"""Export the inference path of fitted estimators as TorchScript or ONNX graphs that run without this package.

What is exported, by the object given:

=============================================  ===================  ===================
object                                         input                output
=============================================  ===================  ===================
:class:`~hepa_sklearn.HEPAPretrainer`          windows (B, C, L)    ``transform``, (B, d)
:class:`~hepa_sklearn.HEPAEventPredictor`      embeddings (B, d)    ``predict_proba``, (B, K)
:class:`~hepa_sklearn.finetune.HEPAFinetuner`  windows (B, C, L)    ``predict_proba``, (B, K)
Pipeline of a pretrainer then a predictor      windows (B, C, L)    ``predict_proba``, (B, K)
=============================================  ===================  ===================

The graph holds what the pretrainer does outside its network: the
standardisation by operating regime where ``fit`` found regimes
(``regimes``, :meth:`~hepa_sklearn.HEPAPretrainer.standardise_by_regime`)
and, with ``window_level=True`` (the default), the window level
``transform`` appends: ``d`` is ``d_model + 2 * n_channels`` there,
``d_model`` otherwise.

(A Pipeline of one of the estimators alone works too; ``"passthrough"``
steps are skipped. Any other step, such as a scaler, is refused: only the
torch networks are exported.)

The graph takes float32 and returns float32 (``predict_proba`` returns the
same values as float64). Its batch dimension is dynamic; the number of
channels and of time steps are those of ``example``. NaN in a window marks
a missing value or left padding, exactly as in ``transform``: the graph
holds the encoder's masking and forward fill, so windows with NaN give the
estimator's outputs (to float32 rounding: about 1e-7, and about 1e-5 in
the embedding where the graph standardises by regime in float32, which the
estimator does in float64). The input is not
validated inside the graph: a window without any observed value, which
``transform`` refuses, gives an arbitrary output there, and inf is not
caught. Dropout is off and the arithmetic is float32, whatever the
estimator's ``device`` and ``precision``.

The ONNX graph comes from ``torch.onnx.export(..., dynamo=True)`` and needs
the optional dependencies onnx and onnxscript to write, and onnxruntime to
run (``pip install "hepa-sklearn[export]"``). TorchScript comes from
``torch.jit.trace``; torch has deprecated TorchScript in favour of
``torch.export``, so prefer ONNX for graphs that must outlive the current
torch release.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> import numpy as np
>>> import torch
>>> from hepa_sklearn import HEPAPretrainer
>>> from hepa_sklearn.export import export_torchscript
>>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
>>> X[:4, :, :20] = np.nan  # short histories, left-padded
>>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, K=16, regimes=None,
...                      window_level=False, random_state=0).fit(X)
>>> path = Path(tempfile.mkdtemp()) / "encoder.pt"
>>> export_torchscript(pre, path, X[:2])
>>> graph = torch.jit.load(path)
>>> bool(np.abs(graph(torch.from_numpy(X)).numpy() - pre.transform(X)).max() < 1e-5)
True
"""

import copy
import warnings

import numpy as np
import torch
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted
from torch import nn

from ._persistence_format import replacing
from ._validation import check_embeddings, check_windows
from .event_predictor import HEPAEventPredictor
from .finetune import HEPAFinetuner
from .nn.encoder import last_valid_state
from .nn.level import WindowLevel
from .nn.predictor import event_surface
from .pretrainer import LEVEL_SPANS, HEPAPretrainer

__all__ = ["export_onnx", "export_torchscript"]

_EXPORT_MISSING = (
    "export_onnx needs the optional dependencies onnx and onnxscript (torch's ONNX exporter "
    'uses them); install them with: pip install "hepa-sklearn[export]"'
)


class WindowInputs(nn.Module):
    """What a fitted pretrainer does to windows outside its network, as tensors.

    Where ``fit`` found regimes, each step is standardised by the
    statistics of the nearest regime centre (the global ones where a
    channel is missing), as :meth:`~hepa_sklearn.HEPAPretrainer.standardise_by_regime`;
    with ``window_level=True`` the window level (its ``level_features``,
    each channel's mean over the window and over its last 30 steps,
    standardised by the training windows') is returned beside the windows.
    ``level=False`` leaves it out.
    Export takes HEPAPretrainer itself, not a subclass, so the level is
    always that of its ``level_features``.
    """

    def __init__(self, pretrainer, level=True):
        super().__init__()

        def buffer(name, values):
            self.register_buffer(name, None if values is None else torch.as_tensor(values, dtype=torch.float32))

        centers = pretrainer.regime_centers_
        buffer("centers", centers)  # (R, C)
        buffer("regime_loc", None if centers is None else pretrainer.regime_loc_)  # (R + 1, C), row R global
        buffer("regime_scale", None if centers is None else pretrainer.regime_scale_)
        with_level = level and pretrainer.level_loc_ is not None
        loc, scale = pretrainer.level_loc_, pretrainer.level_scale_
        self.level = WindowLevel(loc, scale, LEVEL_SPANS) if with_level else None

    def forward(self, x):
        if self.centers is not None:
            z = (x - self.regime_loc[-1, :, None]) / self.regime_scale[-1, :, None]
            distance = ((z[:, None] - self.centers[None, :, :, None]) ** 2).sum(2)  # (B, R, T)
            regime = distance.argmin(1)
            regime = torch.where(torch.isnan(z).any(1), torch.full_like(regime, self.centers.shape[0]), regime)
            x = (x - self.regime_loc[regime].transpose(1, 2)) / self.regime_scale[regime].transpose(1, 2)
        return x, None if self.level is None else self.level(x)  # (B, 2 C)


class InferenceGraph(nn.Module):
    """Windows -> embedding ``h_t`` (``encoder``), embedding -> surface (``event``), or both in turn.

    ``inputs`` (a :class:`WindowInputs`) prepares the windows first and
    appends the window level to ``h_t`` where the pretrainer does. The
    encoder keeps every token column (``drop_empty=False``), so no shape
    depends on the values of the input and one trace serves every batch.
    """

    def __init__(self, encoder=None, event=None, inputs=None):
        super().__init__()
        self.encoder = encoder
        self.event = event
        self.inputs = inputs

    def forward(self, x):
        if self.encoder is not None:
            x, level = self.inputs(x) if self.inputs is not None else (x, None)
            states, valid, *_ = self.encoder(x, causal=True, drop_empty=False)
            x = last_valid_state(states, valid)  # (B, d_model)
            if level is not None:
                x = torch.cat([x, level], 1)
        if self.event is not None:
            x = event_surface(self.event(x))  # (B, K)
        return x


def _exported_steps(estimator):
    """The torch-backed estimators whose networks ``estimator`` runs, in order; TypeError otherwise."""
    if type(estimator) is not Pipeline:
        steps = [("estimator", estimator)]
    else:
        steps = [
            (name, step)
            for name, step in estimator.steps
            if step is not None and not (isinstance(step, str) and step == "passthrough")
        ]
    supported = (HEPAPretrainer, HEPAEventPredictor, HEPAFinetuner)
    for name, step in steps:
        if not isinstance(step, supported):
            where = "" if name == "estimator" else f"Pipeline step {name!r} is "
            raise TypeError(
                f"export supports HEPAPretrainer, HEPAEventPredictor, HEPAFinetuner and a Pipeline of a "
                f"HEPAPretrainer followed by a HEPAEventPredictor; {where}a {type(step).__name__}."
            )
        check_is_fitted(step, "net_")
        if getattr(step, "n_causes_", 1) > 1:
            raise ValueError(
                f"export supports single-cause models; this {type(step).__name__} learned {step.n_causes_} causes, "
                "whose cumulative incidences the exported graph would not compute. Export a model fitted on y "
                "without a 'cause' field (the any-event surface), or use predict_cumulative_incidence in Python."
            )
    kinds = tuple(type(step) for _, step in steps)
    if kinds not in ((HEPAPretrainer,), (HEPAEventPredictor,), (HEPAFinetuner,), (HEPAPretrainer, HEPAEventPredictor)):
        names = [type(step).__name__ for _, step in steps]
        raise TypeError(
            f"export supports a Pipeline of one HEPAPretrainer, HEPAEventPredictor or HEPAFinetuner, or of a "
            f"HEPAPretrainer followed by a HEPAEventPredictor; this one runs {names}."
        )
    return [step for _, step in steps]


def _inference_graph(estimator, example):
    """The float32 CPU graph of ``estimator``, a checked example tensor and the input and output names."""
    steps = _exported_steps(estimator)
    first, last = steps[0], steps[-1]
    check = check_embeddings if isinstance(first, HEPAEventPredictor) else check_windows
    example = check(first, example, reset=False)  # its values only drive the trace
    if example.shape[0] < 2:
        # a batch of one would let the exporter fix the batch size at 1
        example = np.concatenate([example, example])
    if isinstance(first, HEPAFinetuner):
        encoder, event = first.net_.module_.encoder, first.net_.module_.event
        # its network computes the level itself where it reads one; the graph computes it as the inputs
        inputs = WindowInputs(first.pretrainer, level=first.net_.module_.reads_level)
    else:
        encoder = first.encoder_ if isinstance(first, HEPAPretrainer) else None
        event = last.net_.module_ if isinstance(last, HEPAEventPredictor) else None
        inputs = WindowInputs(first) if encoder is not None else None
    graph = copy.deepcopy(InferenceGraph(encoder, event, inputs)).cpu().float().eval().requires_grad_(False)
    names = ("windows" if encoder is not None else "embeddings", "surface" if event is not None else "embeddings")
    return graph, torch.from_numpy(np.ascontiguousarray(example)), names


def export_torchscript(estimator, path, example):
    """Write the inference path of a fitted estimator or Pipeline as a TorchScript file.

    Load it with ``torch.jit.load(path)`` (in Python or C++); it takes a
    float32 tensor and needs neither this package nor scikit-learn.

    Parameters
    ----------
    estimator : HEPAPretrainer, HEPAEventPredictor, HEPAFinetuner or Pipeline
        Fitted; see the module description for what each exports.
    path : str or path-like
        The file to write (conventionally ``*.pt`` for TorchScript, ``*.onnx``
        for ONNX, which holds the weights too), whose folder must exist; it is
        written under a temporary name and renamed over ``path`` once
        complete, so an export cut short leaves no half file.
    example : array-like of shape (n, C, L) or (n, d)
        Inputs as ``transform`` / ``predict_proba`` take them (validated the
        same way); the graph accepts any batch size with the channels and
        steps of ``example``.

    Raises
    ------
    TypeError
        For another estimator, or a Pipeline with any other step.
    ValueError
        For an ``example`` that the estimator's own method refuses.
    FileNotFoundError
        When the folder of ``path`` does not exist.
    sklearn.exceptions.NotFittedError
        For an unfitted estimator.
    """
    graph, example, _ = _inference_graph(estimator, example)
    with replacing(path, "export_torchscript") as temporary, torch.no_grad(), warnings.catch_warnings():
        # tracing fixes the Python values read from the input's shape (its padding to
        # whole patches); the channels and steps are fixed by design, the batch is not
        warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
        # torch deprecates torch.jit (2.13 with a DeprecationWarning, 2.14 with a
        # FutureWarning); the module description says so once
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.\w+` is deprecated")
        torch.jit.save(torch.jit.trace(graph, example), temporary)


def export_onnx(estimator, path, example):
    """Write the inference path of a fitted estimator or Pipeline as one ONNX file with a dynamic batch.

    Run it with ``onnxruntime.InferenceSession(path)``; its input is named
    ``"windows"`` or ``"embeddings"`` and its output ``"embeddings"`` or
    ``"surface"``, and its first dimension is ``"batch"``.

    Parameters
    ----------
    estimator : HEPAPretrainer, HEPAEventPredictor, HEPAFinetuner or Pipeline
        Fitted; see the module description for what each exports.
    path : str or path-like
        The file to write (conventionally ``*.pt`` for TorchScript, ``*.onnx``
        for ONNX, which holds the weights too), whose folder must exist; it is
        written under a temporary name and renamed over ``path`` once
        complete, so an export cut short leaves no half file.
    example : array-like of shape (n, C, L) or (n, d)
        Inputs as ``transform`` / ``predict_proba`` take them (validated the
        same way); the graph accepts any batch size with the channels and
        steps of ``example``.

    Raises
    ------
    TypeError
        For another estimator, or a Pipeline with any other step.
    ValueError
        For an ``example`` that the estimator's own method refuses.
    FileNotFoundError
        When the folder of ``path`` does not exist.
    sklearn.exceptions.NotFittedError
        For an unfitted estimator.
    ImportError
        When onnx or onnxscript is not installed.
    """
    try:
        import onnx  # noqa: F401
        import onnxscript  # noqa: F401
    except ImportError as exc:
        raise ImportError(_EXPORT_MISSING) from exc
    graph, example, (input_name, output_name) = _inference_graph(estimator, example)
    with replacing(path, "export_onnx") as temporary, torch.no_grad(), warnings.catch_warnings():
        # raised by torch's own exporter code in torch 2.13, about its internals
        warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)`", category=FutureWarning)
        program = torch.onnx.export(
            graph,
            (example,),
            input_names=[input_name],
            output_names=[output_name],
            dynamic_shapes=({0: torch.export.Dim("batch")},),
            dynamo=True,
            verbose=False,
        )
        program.save(temporary, external_data=False)
