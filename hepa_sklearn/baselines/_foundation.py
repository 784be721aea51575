"""Frozen embeddings of windows from pretrained time-series foundation models (Chronos-2, MOMENT)."""

import contextlib
import json
import math
import os
from pathlib import Path

import numpy as np
import torch
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._base import store_parameters
from .._docs import fill_doc
from .._training.runtime import resolve_device
from .._validation import POSITIVE_INT, StrOptions, WindowTransformerTags, check_windows, row_chunks

__all__ = ["ChronosEmbedder", "MomentEmbedder"]

CHANNEL_POOLINGS = ("mean", "concat")

# RevIN's epsilon in MOMENT (the default of its RevIN layer in the momentfm package):
# added to each series' standard deviation before dividing
MOMENT_REVIN_EPS = 1e-5

# Length of MOMENT's sinusoidal position table: ample for its 512-step input in patches
MOMENT_MAX_PATCHES = 5000


# -- numeric core: independent of any model --------------------------------------------


def last_steps_in_patches(series, max_length, patch_len, *, fill_to=None):
    """The last ``max_length`` steps of each series, NaN-padded on the left to whole patches.

    Parameters
    ----------
    series : ndarray of shape (n_series, n_timepoints)
    max_length : int
        At most this many final steps are kept.
    patch_len : int
        The result's length is a multiple of it.
    fill_to : int, default=None
        Pad on the left to exactly this length instead (a model with a
        fixed input length); it must be a multiple of ``patch_len``.

    Returns
    -------
    padded : ndarray of shape (n_series, length), float32
    """
    kept = series[:, -max_length:]
    length = fill_to if fill_to is not None else patch_len * math.ceil(kept.shape[1] / patch_len)
    padded = np.full((series.shape[0], length), np.nan, dtype=np.float32)
    padded[:, length - kept.shape[1] :] = kept
    return padded


def observed_patches(series, patch_len, rule):
    """Which patches of each series count as observed: ``"any"`` step or ``"all"`` steps non-NaN.

    ``series`` (n_series, length) with length a multiple of ``patch_len``;
    returns a bool array (n_series, length // patch_len).
    """
    n, length = series.shape
    observed = ~np.isnan(series).reshape(n, length // patch_len, patch_len)
    return observed.any(axis=-1) if rule == "any" else observed.all(axis=-1)


def mean_over_patches(tokens, observed):
    """Mean of the token outputs over the observed patches: (b, P, d) and (b, P) -> (b, d).

    Unobserved tokens are left out even when they hold NaN; a row with no
    observed patch gets zeros.
    """
    kept = torch.where(observed[..., None], tokens, torch.zeros((), dtype=tokens.dtype, device=tokens.device))
    count = observed.sum(dim=1, keepdim=True).clamp(min=1).to(tokens.dtype)
    return kept.sum(dim=1) / count


def pool_channels(embeddings, usable, pooling):
    """Per-channel embeddings (n, C, d) to one row per window: mean over usable channels, or concatenated.

    ``usable`` (n, C) marks the channels the model could embed; with
    ``"concat"`` the others contribute zeros. Every window needs at least
    one usable channel (the caller checks).
    """
    n, C, d = embeddings.shape
    kept = np.where(usable[..., None], embeddings, 0.0).astype(np.float32)
    if pooling == "concat":
        return kept.reshape(n, C * d)
    return kept.sum(axis=1) / usable.sum(axis=1, keepdims=True).astype(np.float32)


def moment_position_table(n_positions, d_model):
    """The fixed sinusoidal position embeddings of MOMENT (Vaswani et al., 2017): (n_positions, d_model).

    Entry ``(p, 2i)`` is ``sin(p / 10000^(2i/d))`` and ``(p, 2i+1)`` the
    cosine of the same angle.
    """
    position = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequency = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(n_positions, d_model)
    table[:, 0::2] = torch.sin(position * frequency)
    table[:, 1::2] = torch.cos(position * frequency[: d_model // 2])
    return table


# -- the shared estimator ----------------------------------------------------------------


class _FoundationEmbedder(WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Embed each channel of each window with a frozen pretrained model, pool over time, then over channels.

    A subclass names its model (``_model_name``, ``_hub_id``) and the rule
    by which a patch counts as observed (``_patch_rule``: ``"any"`` or
    ``"all"`` of its steps), and implements ``_import_library()`` (an
    ImportError naming the extra), ``_check_config(config, folder)``,
    ``_load(folder, config, device)`` (returns the fitted attributes,
    among them ``model_``, ``embedding_dim_`` and ``patch_len_``),
    ``_model_input(series)`` (the NaN-padded input the model reads, in
    whole patches), ``_encode(series)`` (token outputs of shape (b,
    n_patches, d)) and ``_patch_requirement()`` (what a channel needs,
    for the error message).
    """

    _parameter_constraints = {
        "model_path": [str, os.PathLike],
        "channel_pooling": [StrOptions(set(CHANNEL_POOLINGS))],
        "batch_size": [POSITIVE_INT],
        "device": [str],
    }

    def __init__(self, model_path, *, channel_pooling="mean", batch_size=64, device="auto"):
        store_parameters(self, locals())

    def _weights_folder(self):
        """The folder ``model_path`` names; FileNotFoundError saying where the weights come from when it holds none."""
        folder = Path(self.model_path).expanduser()
        if not (folder / "config.json").is_file():
            found = "does not exist" if not folder.exists() else "holds no config.json"
            raise FileNotFoundError(
                f"{type(self).__name__} found no {self._model_name} weights: model_path={str(self.model_path)!r} "
                f"{found}. The weights are the files of the Hugging Face repository {self._hub_id}; on a "
                f"machine with internet access run `huggingface-cli download {self._hub_id} --local-dir "
                f"{self._hub_id.split('/')[-1]}`, copy that folder (config.json and model.safetensors) to "
                "this machine, and pass its path as model_path."
            )
        config = json.loads((folder / "config.json").read_text())
        self._check_config(config, folder)
        return folder, config

    def fit(self, X, y=None):
        """Load the pretrained model from ``model_path``; nothing is trained.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            Windows; only their shape is recorded. NaN marks missing values
            and left padding.
        y : None
            Ignored.

        Returns
        -------
        self
        """
        self._validate_params()
        X = check_windows(self, X, reset=True)
        self._import_library()
        folder, config = self._weights_folder()
        fitted = self._load(folder, config, resolve_device(self.device))
        for name, value in {**fitted, "n_features_in_": X.shape[1], "n_timepoints_in_": X.shape[2]}.items():
            setattr(self, name, value)
        return self

    def transform(self, X):
        """Embed windows: each channel encoded alone, its patch outputs averaged, then the channels pooled.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            NaN marks missing values and left padding. A window may have
            any length; see the class description for what the model sees.

        Returns
        -------
        E : ndarray of shape (n_windows, d) or (n_windows, n_channels * d)
            float32, ``d`` being the fitted ``embedding_dim_``; the second
            shape with ``channel_pooling="concat"``.
        """
        check_is_fitted(self, "model_")
        X = check_windows(self, X, reset=False)
        n, C, L = X.shape  # windows, channels, steps
        flat = X.reshape(n * C, L)  # one row per channel of each window
        # the model's inputs are built a block at a time: padded to MOMENT's 512 steps,
        # all of them at once would take 2 KB per channel and window
        usable = np.concatenate([self._observed_patches(part).any(axis=1) for part in row_chunks(flat)])
        unusable = ~usable.reshape(n, C).any(axis=1)
        if unusable.any():
            raise ValueError(
                f"{int(unusable.sum())} window(s) of X (first at index {int(np.argmax(unusable))}) have no "
                f"channel that {self._model_name} can embed: {self._patch_requirement()}."
            )
        embeddings = np.zeros((n * C, self.embedding_dim_), dtype=np.float32)
        rows = np.flatnonzero(usable)  # channels with nothing usable are never sent to the model
        with torch.inference_mode():
            for start in range(0, rows.size, self.batch_size):
                batch = rows[start : start + self.batch_size]
                series = self._model_input(flat[batch])  # (b, length)
                tokens = self._encode(series)  # (b, n_patches, d)
                mask = torch.from_numpy(self._observed_patches(flat[batch])).to(tokens.device)
                embeddings[batch] = mean_over_patches(tokens.float(), mask).cpu().numpy()
        return pool_channels(embeddings.reshape(n, C, -1), usable.reshape(n, C), self.channel_pooling)

    def _observed_patches(self, series):
        """Which patches of the model's input for ``series`` (b, L) the model counts as observed: (b, n_patches)."""
        return observed_patches(self._model_input(series), self.patch_len_, self._patch_rule)

    @property
    def _n_features_out(self):
        width = self.embedding_dim_
        return width * self.n_features_in_ if self.channel_pooling == "concat" else width


# -- Chronos-2 ------------------------------------------------------------------------------


@contextlib.contextmanager
def _quiet_transformers():
    """Silence transformers' progress bars while a checkpoint loads, then restore the user's setting."""
    from transformers.utils import logging as transformers_logging

    enabled = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if enabled:
            transformers_logging.enable_progress_bar()


@fill_doc
class ChronosEmbedder(_FoundationEmbedder):
    """Frozen Chronos-2 embeddings of windows, each channel encoded on its own.

    ``fit`` loads a pretrained Chronos-2 model (Ansari et al., 2025) from the
    local folder ``model_path``; nothing is trained. ``transform`` passes
    every channel of every window to the model as a separate univariate
    series (so Chronos-2's attention across the series of a group never
    mixes channels), averages the encoder's outputs over the patches that
    hold at least one observation (the context tokens; the ``[REG]`` token
    and the output-patch token are left out), and then averages over
    channels, or concatenates them. This is the paper's matched baseline:
    frozen foundation-model features, per channel, then mean-pooled (the
    baselines of the HEPA paper), for a head such as
    :class:`~hepa_sklearn.HEPAEventPredictor` to be trained on.

    NaN (missing values and left padding) is passed to Chronos-2 as missing,
    as the model expects; a channel with no observation in a window is left
    out of that window's mean (zeros with ``"concat"``). Windows longer
    than the model's context (8192 steps for ``amazon/chronos-2``) keep
    their last steps.

    Needs ``chronos-forecasting`` (``pip install 'hepa-sklearn[chronos]'``).
    The weights are not downloaded: fetch the Hugging Face repository
    ``amazon/chronos-2`` on a machine with internet access and copy the
    folder here (the user guide's "Foundation-model baselines").

    Parameters
    ----------
    model_path : str or path-like
        Folder holding the model's ``config.json`` and ``model.safetensors``.
    channel_pooling : {"mean", "concat"}, default="mean"
        ``"mean"``: one embedding per window, the mean over its channels
        (the paper's protocol, independent of the channel count).
        ``"concat"``: the channels' embeddings side by side, channel 0
        first, which keeps which sensor said what at ``n_channels`` times
        the width.
    %(foundation_runtime_parameters)s

    Attributes
    ----------
    model_ : chronos.Chronos2Pipeline
        The loaded model, in evaluation mode on ``device``.
    embedding_dim_ : int
        Width of the model's token outputs (768 for ``amazon/chronos-2``).
    patch_len_ : int
        Steps per input patch (16 for ``amazon/chronos-2``).
    context_length_ : int
        Longest input the model reads, in steps.
    %(window_shape_attributes)s

    See Also
    --------
    MomentEmbedder : The same protocol with MOMENT.
    hepa_sklearn.HEPAPretrainer : The self-supervised encoder these baselines compare against.

    References
    ----------
    A. F. Ansari et al., "Chronos-2: From univariate to universal
    forecasting", arXiv, 2025.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from hepa_sklearn import HEPAEventPredictor
    >>> from hepa_sklearn.baselines import ChronosEmbedder
    >>> pipe = make_pipeline(ChronosEmbedder("models/chronos-2"), HEPAEventPredictor(K=150))
    >>> pipe.steps[0][1].get_params()["channel_pooling"]
    'mean'
    """

    _model_name = "Chronos-2"
    _hub_id = "amazon/chronos-2"
    _patch_rule = "any"  # Chronos-2 attends to a patch holding at least one observation

    def _import_library(self):
        try:
            import chronos  # noqa: F401
        except ImportError as exc:
            raise ImportError(
                "ChronosEmbedder needs chronos-forecasting: pip install 'hepa-sklearn[chronos]'"
            ) from exc

    def _check_config(self, config, folder):
        if "chronos_config" not in config or "Chronos2Model" not in config.get("architectures", []):
            raise ValueError(
                f"model_path={str(folder)!r} holds a model of architecture {config.get('architectures')}, not "
                "Chronos-2 (Chronos2Model); ChronosEmbedder reads Chronos-2 only, such as amazon/chronos-2."
            )

    def _patch_requirement(self):
        return "each needs at least one observed (non-NaN) step"

    def _load(self, folder, config, device):
        from chronos import Chronos2Pipeline

        with _quiet_transformers():
            pipeline = Chronos2Pipeline.from_pretrained(str(folder), local_files_only=True)
        pipeline.model.to(device=device, dtype=torch.float32).eval()
        return {
            "model_": pipeline,
            "embedding_dim_": int(pipeline.model.config.d_model),
            "patch_len_": int(pipeline.model.chronos_config.input_patch_size),
            "context_length_": int(pipeline.model_context_length),
        }

    def _model_input(self, series):
        # Chronos-2 itself pads on the left to whole patches; padding here first
        # makes the patches counted below the ones the model encodes
        return last_steps_in_patches(series, self.context_length_, self.patch_len_)

    def _encode(self, series):
        n_patches = series.shape[1] // self.patch_len_
        outputs, _ = self.model_.embed(series[:, None, :], batch_size=series.shape[0])
        # each output is (1, n_patches + extra tokens, d): the context patches come first
        return torch.cat([output[:, :n_patches] for output in outputs])


# -- MOMENT -----------------------------------------------------------------------------------


def _with_prefix(weights, prefix):
    """The tensors of ``weights`` whose names start with ``prefix``, with the prefix removed."""
    return {name[len(prefix):]: tensor for name, tensor in weights.items() if name.startswith(prefix)}


class _MomentEncoder(torch.nn.Module):
    """MOMENT's embedding path (Goswami et al., 2024): RevIN, patching, patch embedding, T5 encoder.

    Built from the checkpoint's ``config.json`` and weights; the
    reconstruction head is not needed for embeddings and is not loaded.
    """

    def __init__(self, config, weights):
        from transformers import T5Config, T5EncoderModel

        super().__init__()
        self.patch_len = int(config["patch_len"])
        t5_config = T5Config.from_dict(config["t5_config"])
        t5_config.is_decoder, t5_config.use_cache, t5_config.is_encoder_decoder = False, False, False
        self.encoder = T5EncoderModel(t5_config).encoder
        d_model = t5_config.d_model
        bias = config.get("value_embedding_bias", False)
        self.value_embedding = torch.nn.Linear(self.patch_len, d_model, bias=bias)
        self.mask_embedding = torch.nn.Parameter(torch.zeros(d_model))
        positions = torch.zeros(MOMENT_MAX_PATCHES, d_model)
        if config.get("add_positional_embedding", True):
            table = weights.get("patch_embedding.position_embedding.pe")
            positions = table[0] if table is not None else moment_position_table(MOMENT_MAX_PATCHES, d_model)
        self.register_buffer("positions", positions)

        for prefix, module in (("encoder.", self.encoder), ("patch_embedding.value_embedding.", self.value_embedding)):
            module.load_state_dict(_with_prefix(weights, prefix))
        self.mask_embedding.data.copy_(weights["patch_embedding.mask_embedding"])

    def forward(self, series):
        """Token outputs (b, n_patches, d) for series (b, seq_len) with NaN where unobserved."""
        observed = ~torch.isnan(series)
        mean = torch.nanmean(series, dim=1, keepdim=True)
        spread = (series - mean).square().nanmean(dim=1, keepdim=True).sqrt() + MOMENT_REVIN_EPS
        values = torch.nan_to_num((series - mean) / spread, nan=0.0)
        patches = values.unfold(-1, self.patch_len, self.patch_len)  # (b, P, patch_len)
        full = observed.unfold(-1, self.patch_len, self.patch_len).all(dim=-1)  # (b, P)
        # a patch with any missing step is replaced by the learned mask token, and attended to by none
        tokens = torch.where(full[..., None], self.value_embedding(patches), self.mask_embedding)
        tokens = tokens + self.positions[: tokens.shape[1]]
        return self.encoder(inputs_embeds=tokens, attention_mask=full.long()).last_hidden_state


@fill_doc
class MomentEmbedder(_FoundationEmbedder):
    """Frozen MOMENT embeddings of windows, each channel encoded on its own.

    ``fit`` loads a pretrained MOMENT model (Goswami et al., 2024) from the
    local folder ``model_path``; nothing is trained. ``transform`` gives
    MOMENT every channel of every window as a separate series, averages
    the encoder's patch outputs over the fully observed patches (those
    MOMENT attends to), and then averages over channels, or concatenates
    them: the paper's matched baseline, frozen foundation-model features
    per channel, then mean-pooled (the baselines of the HEPA paper).

    MOMENT reads a fixed number of steps (512 for the released models) in
    patches of 8. A shorter window is padded on the left and the padding is
    masked, as MOMENT's own interface does; a longer one keeps its last 512
    steps. Each series is normalised by the mean and spread of its observed
    steps (RevIN). A patch with any missing step is replaced by MOMENT's
    mask token and left out of attention and of the mean, so a channel
    counts only if it has at least one fully observed patch; impute
    scattered gaps first if they would leave none.

    The model is built with ``transformers`` (MOMENT's encoder is T5's) from
    the checkpoint's ``config.json`` and ``model.safetensors``, so the
    ``momentfm`` package is not needed: ``momentfm`` 0.1.4 pins
    ``numpy==1.25.2`` and ``transformers==4.33.3``, which would downgrade
    both. Its embeddings and this class's agree on the same checkpoint (the
    test suite checks it when ``momentfm`` is importable). Needs
    ``pip install 'hepa-sklearn[moment]'``. The weights are not downloaded:
    fetch a Hugging Face repository such as ``AutonLab/MOMENT-1-large`` on
    a machine with internet access and copy the folder here (the user
    guide's "Foundation-model baselines").

    Parameters
    ----------
    model_path : str or path-like
        Folder holding the model's ``config.json`` and ``model.safetensors``.
    channel_pooling : {"mean", "concat"}, default="mean"
        ``"mean"``: one embedding per window, the mean over its channels
        (the paper's protocol). ``"concat"``: the channels' embeddings side
        by side, channel 0 first (zeros for a channel with no fully
        observed patch).
    %(foundation_runtime_parameters)s

    Attributes
    ----------
    model_ : torch.nn.Module
        The loaded encoder (patch embedding and T5 encoder), in evaluation
        mode on ``device``.
    embedding_dim_ : int
        Width of the encoder's outputs (1024 for ``MOMENT-1-large``).
    patch_len_ : int
        Steps per patch (8).
    seq_len_ : int
        Steps the model reads (512).
    %(window_shape_attributes)s

    See Also
    --------
    ChronosEmbedder : The same protocol with Chronos-2.
    hepa_sklearn.HEPAPretrainer : The self-supervised encoder these baselines compare against.

    References
    ----------
    M. Goswami, K. Szafer, A. Choudhry, Y. Cai, S. Li and A. Dubrawski,
    "MOMENT: A family of open time-series foundation models", ICML 2024.

    T. Kim et al., "Reversible instance normalization for accurate
    time-series forecasting against distribution shift", ICLR 2022.

    Examples
    --------
    >>> from hepa_sklearn.baselines import MomentEmbedder
    >>> MomentEmbedder("models/MOMENT-1-large", channel_pooling="concat").channel_pooling
    'concat'
    """

    _model_name = "MOMENT"
    _hub_id = "AutonLab/MOMENT-1-large"
    _patch_rule = "all"  # MOMENT attends to fully observed patches only

    def _import_library(self):
        try:
            import safetensors  # noqa: F401
            import transformers  # noqa: F401
        except ImportError as exc:
            raise ImportError(
                "MomentEmbedder needs transformers and safetensors: pip install 'hepa-sklearn[moment]'"
            ) from exc

    def _check_config(self, config, folder):
        if "t5_config" not in config or "patch_len" not in config:
            raise ValueError(
                f"model_path={str(folder)!r} holds no MOMENT model: its config.json lacks t5_config and "
                "patch_len; MomentEmbedder reads MOMENT checkpoints such as AutonLab/MOMENT-1-large."
            )
        unsupported = {
            "patch_stride_len": (config.get("patch_stride_len", config["patch_len"]), config["patch_len"]),
            "revin_affine": (config.get("revin_affine", False), False),
            "transformer_type": (config.get("transformer_type", "encoder_only"), "encoder_only"),
        }
        for name, (value, supported) in unsupported.items():
            if value != supported:
                raise ValueError(
                    f"MomentEmbedder reads MOMENT checkpoints with {name}={supported!r} (as the released "
                    f"models); the one at {str(folder)!r} has {name}={value!r}."
                )
        if not (folder / "model.safetensors").is_file():
            raise FileNotFoundError(
                f"model_path={str(folder)!r} holds config.json but no model.safetensors; copy the whole "
                f"folder of the Hugging Face repository ({self._hub_id} or another MOMENT model)."
            )

    def _patch_requirement(self):
        return (
            f"each needs at least one fully observed patch of {self.patch_len_} steps within its last "
            f"{self.seq_len_}"
        )

    def _load(self, folder, config, device):
        from safetensors.torch import load_file

        weights = load_file(str(folder / "model.safetensors"))
        try:
            model = _MomentEncoder(config, weights)
        except (KeyError, RuntimeError) as exc:  # a tensor missing, unexpected or of another shape
            raise ValueError(
                f"The weights in {str(folder / 'model.safetensors')!r} do not fit the MOMENT architecture "
                f"its config.json describes: {exc}"
            ) from exc
        model = model.to(device=device, dtype=torch.float32).eval()
        return {
            "model_": model,
            "embedding_dim_": int(model.mask_embedding.shape[0]),
            "patch_len_": model.patch_len,
            "seq_len_": int(config["seq_len"]),
        }

    def _model_input(self, series):
        return last_steps_in_patches(series, self.seq_len_, self.patch_len_, fill_to=self.seq_len_)

    def _encode(self, series):
        device = next(self.model_.parameters()).device
        return self.model_(torch.from_numpy(series).to(device))
