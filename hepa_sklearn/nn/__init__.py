"""Torch modules of HEPA: encoder, predictor, hazard head, SIGReg and losses (no scikit-learn)."""

from .encoder import AttentionPooling, EncoderConfig, PatchEncoder, last_valid_state
from .jepa import JEPA
from .losses import jepa_loss, surface_bce
from .predictor import EventModel, HazardHead, HorizonPredictor, event_surface, log_survival
from .sigreg import EppsPulley, SIGReg

__all__ = [
    "AttentionPooling",
    "EncoderConfig",
    "EppsPulley",
    "EventModel",
    "HazardHead",
    "HorizonPredictor",
    "JEPA",
    "PatchEncoder",
    "SIGReg",
    "event_surface",
    "jepa_loss",
    "last_valid_state",
    "log_survival",
    "surface_bce",
]
