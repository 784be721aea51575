"""Frozen embeddings from pretrained time-series foundation models: numeric core and shared estimator."""

import importlib
import json
import math
import os
from pathlib import Path

import numpy as np
import torch
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import POSITIVE_INT, StrOptions, WindowTransformerTags, check_windows, row_chunks
from ..training._runtime import resolve_device

CHANNEL_POOLINGS = ("mean", "concat")


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


# -- the shared estimator ----------------------------------------------------------------


class FoundationEmbedder(WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Embed each channel of each window with a frozen pretrained model, pool over time, then over channels.

    A subclass names its model (``model_name``, ``hub_id``), the rule
    by which a patch counts as observed (``_patch_rule``: ``"any"`` or
    ``"all"`` of its steps) and the modules ``fit`` imports
    (``_libraries``; ``_requirement`` names their packages for the
    ImportError, ``_extra`` the extra that installs them), and implements
    ``_check_config(config, folder)``,
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
        self.model_path = model_path
        self.channel_pooling = channel_pooling
        self.batch_size = batch_size
        self.device = device

    def _import_library(self):
        """Import the modules the model needs; ImportError naming the extra that installs them."""
        try:
            for module in self._libraries:
                importlib.import_module(module)
        except ImportError as exc:
            raise ImportError(
                f"{type(self).__name__} needs {self._requirement}: pip install 'hepa-sklearn[{self._extra}]'"
            ) from exc

    def _weights_folder(self):
        """The folder ``model_path`` names; FileNotFoundError saying where the weights come from when it holds none."""
        folder = Path(self.model_path).expanduser()
        if not (folder / "config.json").is_file():
            found = "does not exist" if not folder.exists() else "holds no config.json"
            raise FileNotFoundError(
                f"{type(self).__name__} found no {self.model_name} weights: model_path={str(self.model_path)!r} "
                f"{found}. The weights are the files of the Hugging Face repository {self.hub_id}; on a "
                f"machine with internet access run `huggingface-cli download {self.hub_id} --local-dir "
                f"{self.hub_id.split('/')[-1]}`, copy that folder (config.json and model.safetensors) to "
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
                f"channel that {self.model_name} can embed: {self._patch_requirement()}."
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
