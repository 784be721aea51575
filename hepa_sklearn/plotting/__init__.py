"""Displays of event probability surfaces, embeddings and training runs, drawn with the optional matplotlib.

Install matplotlib with ``pip install 'hepa-sklearn[plot]'``; this package
imports it only when something is drawn.
"""

from ._embedding_pca import EmbeddingPCADisplay
from ._event_surface import EventSurfaceDisplay
from ._horizon_auroc import HorizonAUROCDisplay
from ._predictor_outputs import PredictorOutputsDisplay, predictor_outputs
from ._reliability import SurfaceReliabilityDisplay
from ._training_history import TrainingHistoryDisplay

__all__ = [
    "EmbeddingPCADisplay",
    "EventSurfaceDisplay",
    "HorizonAUROCDisplay",
    "PredictorOutputsDisplay",
    "SurfaceReliabilityDisplay",
    "TrainingHistoryDisplay",
    "predictor_outputs",
]
