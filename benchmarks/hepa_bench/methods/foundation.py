"""The foundation-model baselines as benchmark encoders: frozen embedders loaded from a folder of local weights.

The weights are never downloaded. ``$HEPA_MODEL_HOME`` (default:
``models/`` in the data home) holds one folder per model, named as the
last part of its Hugging Face repository (``chronos-2``,
``MOMENT-1-large``, ``timesfm-2.5-200m-pytorch``, ``moirai-1.1-R-small``),
as ``huggingface-cli download REPO --local-dir NAME`` writes it; the
embedder's ``FileNotFoundError`` says what to fetch when a folder is
missing.
"""

import os
from pathlib import Path

from hepa_sklearn.baselines import ChronosEmbedder, MoiraiEmbedder, MomentEmbedder, TimesFMEmbedder
from hepa_sklearn.datasets import get_data_home

__all__ = ["FOUNDATION_MODELS", "foundation_encoder", "model_home", "weights_folder"]

#: the method names of the foundation-model baselines (the paper's Table 1 names its Chronos-2 column chronos2)
FOUNDATION_MODELS = {
    "chronos2": ChronosEmbedder,
    "moment": MomentEmbedder,
    "timesfm": TimesFMEmbedder,
    "moirai": MoiraiEmbedder,
}


def model_home():
    """The folder that holds the foundation models' weights: ``$HEPA_MODEL_HOME``, else ``<data home>/models``."""
    return Path(os.environ.get("HEPA_MODEL_HOME") or Path(get_data_home()) / "models").expanduser()


def weights_folder(embedder_class):
    """Where the weights of ``embedder_class`` are read, as a text: ``$HEPA_MODEL_HOME/<repository name>``."""
    return "$HEPA_MODEL_HOME/" + embedder_class.hub_id.split("/")[-1]


def foundation_encoder(embedder_class, entry, data, *, epochs, device, seed):
    """``embedder_class`` loaded from the model home's folder for it; nothing is trained, ``epochs`` do not apply."""
    folder = model_home() / embedder_class.hub_id.split("/")[-1]
    return embedder_class(folder, device=device).fit(data.X_pre)
