"""The plain pipeline in the method table: the defaults of each release, and the candidates for the next ones."""

import functools

from ..protocols import SpreadLevelPretrainer, TrendLevelPretrainer, plain_pipeline
from .parts import Method

__all__ = ["DEFAULT_METHODS"]


def _auto0(description, family="candidate", **params):
    """A candidate default: the plain pipeline under the 0.2.0 defaults (0.2.0's norm="auto", untrained) with
    ``params``."""
    params = {"norm": "revin", "regimes": "auto", "window_level": True, "max_epochs": 0, **params}
    return Method(description, family=family, surface=functools.partial(plain_pipeline, **params))


DEFAULT_METHODS = {
    "hepa-default": Method(
        "the plain pipeline make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150)) with every other default "
        "(those of release 0.1.0, pinned in hepa_bench.protocols), fitted on the labelled training windows alone",
        family="default",
        surface=plain_pipeline,
    ),
    "hepa-default-rank": Method(
        'candidate default: hepa-default with HEPAPretrainer(validation_metric="rank"), pretraining stopped '
        "on the effective rank of the held-out windows' embeddings",
        family="candidate",
        surface=functools.partial(plain_pipeline, validation_metric="rank"),
    ),
    "hepa-default-untrained": Method(
        "candidate default: hepa-default with the encoder never pretrained (max_epochs=0), RevIN as the default",
        family="candidate",
        surface=functools.partial(plain_pipeline, max_epochs=0),
    ),
    "hepa-default-regime": Method(
        'candidate default: hepa-default with HEPAPretrainer(norm="regime"), operating regimes found from the '
        "channels and each step standardised by its regime",
        family="candidate",
        surface=functools.partial(plain_pipeline, norm="global", regimes="auto"),
    ),
    "hepa-default-regime0": Method(
        "candidate default: hepa-default-regime with the encoder never pretrained (max_epochs=0)",
        family="candidate",
        surface=functools.partial(plain_pipeline, norm="global", regimes="auto", max_epochs=0),
    ),
    "hepa-default-auto0": _auto0(
        "the headline line with the defaults of release 0.2.0, chosen among the candidates: hepa-default with "
        'HEPAPretrainer(norm="auto") never pretrained (max_epochs=0): windows standardised per operating regime '
        "where regimes are found, then RevIN, the window level (each channel's mean over the window and over its "
        "last 30 steps) passed on beside the embedding",
        family="default",
    ),
    "hepa-default-auto0-spread": _auto0(
        "candidate default: hepa-default-auto0 with the window level's first form, each channel's mean and "
        "standard deviation over the window and over its last 30 steps (its screening records ran as "
        "hepa-default-auto0 before commit d68869a kept the two means alone)",
        pretrainer=SpreadLevelPretrainer,
    ),
    "hepa-default-trend0": _auto0(
        "candidate default: hepa-default-auto0 with the level widened to each channel's "
        "mean and least-squares slope over its last 10, 30, 100 steps and the whole window",
        pretrainer=TrendLevelPretrainer,
    ),
    "hepa-default-auto0-channel": _auto0(
        'candidate default: hepa-default-auto0 with one token stream per channel (tokens="channel")', tokens="channel"
    ),
    "hepa-default-auto0-wd": _auto0(
        "candidate default: hepa-default-auto0 with ten times the event head's weight decay (0.1)",
        predictor={"weight_decay": 0.1},
    ),
    "hepa-default-auto0-knots16": _auto0(
        "candidate default: hepa-default-auto0 with the event head run at 16 horizons spread evenly over 1..K "
        "and the hazard logits interpolated between them (horizon_knots=16)",
        predictor={"horizon_knots": 16},
    ),
    "hepa-default-auto0-knots8": _auto0(
        "candidate default: hepa-default-auto0 with the event head run at 8 horizons spread evenly over 1..K "
        "and the hazard logits interpolated between them (horizon_knots=8)",
        predictor={"horizon_knots": 8},
    ),
    "hepa-default-auto0-knots12": _auto0(
        "candidate default: hepa-default-auto0 with the event head run at 12 horizons spread evenly over 1..K "
        "and the hazard logits interpolated between them (horizon_knots=12)",
        predictor={"horizon_knots": 12},
    ),
    "hepa-default-auto0-knots12-b128": _auto0(
        "candidate default: hepa-default-auto0-knots12 with batches of 128 windows for the event head",
        predictor={"horizon_knots": 12, "batch_size": 128},
    ),
    "hepa-default-auto0-knots16-h128": _auto0(
        "candidate default: hepa-default-auto0-knots16 with the event head's hidden width halved (hidden=128)",
        predictor={"horizon_knots": 16, "hidden": 128},
    ),
    "hepa-default-auto0-nll": _auto0(
        "candidate default: hepa-default-auto0 with the event head trained by the "
        'discrete-time survival likelihood (loss="nll") instead of BCE',
        predictor={"loss": "nll"},
    ),
}
