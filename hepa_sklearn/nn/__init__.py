"""Torch modules of HEPA: encoder, predictor, hazard head, SIGReg and losses (no scikit-learn)."""

from .baselines import MaskedAutoencoder, MatchedHead, PatchTSTBackbone, VariateTransformer
from .channel import ChannelPatchEncoder, make_encoder
from .encoder import EncoderConfig, PatchEncoder, last_valid_state, pool_in_groups
from .jepa import JEPA, AttentionPooling
from .level import WindowLevel
from .losses import jepa_loss, surface_bce
from .predictor import EventModel, HazardHead, HorizonPredictor, event_surface, log_survival
from .sigreg import EppsPulley, SIGReg

__all__ = [
    "AttentionPooling",
    "ChannelPatchEncoder",
    "EncoderConfig",
    "EppsPulley",
    "EventModel",
    "HazardHead",
    "HorizonPredictor",
    "JEPA",
    "MaskedAutoencoder",
    "MatchedHead",
    "PatchEncoder",
    "PatchTSTBackbone",
    "SIGReg",
    "VariateTransformer",
    "WindowLevel",
    "event_surface",
    "jepa_loss",
    "last_valid_state",
    "log_survival",
    "make_encoder",
    "pool_in_groups",
    "surface_bce",
]
