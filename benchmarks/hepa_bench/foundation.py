"""The foundation-model baselines as benchmark encoders: frozen embedders loaded from a folder of local weights.

The weights are never downloaded. ``$HEPA_MODEL_HOME`` (default:
``models/`` in the data home) holds one folder per model, named as the
last part of its Hugging Face repository (``chronos-2``,
``MOMENT-1-large``), as ``huggingface-cli download REPO --local-dir NAME``
writes it; the embedder's ``FileNotFoundError`` says what to fetch when a
folder is missing.
"""

import os
from pathlib import Path

from hepa_sklearn.datasets import get_data_home

__all__ = ["foundation_encoder", "model_home"]


def model_home():
    """The folder that holds the foundation models' weights: ``$HEPA_MODEL_HOME``, else ``<data home>/models``."""
    return Path(os.environ.get("HEPA_MODEL_HOME") or Path(get_data_home()) / "models").expanduser()


def foundation_encoder(embedder_class, entry, data, *, epochs, device, seed):
    """``embedder_class`` loaded from the model home's folder for it; nothing is trained, ``epochs`` do not apply."""
    folder = model_home() / embedder_class._hub_id.split("/")[-1]
    return embedder_class(folder, device=device).fit(data.X_pre)
