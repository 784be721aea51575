"""The baselines of the method table: the neural and foundation-model encoders, boosting, and the references."""

import functools

from hepa_sklearn.baselines import ITransformerEncoder, PatchTSTEncoder

from .boosting_hazard import DiscreteHazardBoosting
from .foundation import FOUNDATION_MODELS, foundation_encoder, weights_folder
from .parts import Method, headline_head, matched_head, minirocket_features, pretrained_mae, supervised_encoder
from .simple_boosting import SimpleBoosting
from .surfaces import elapsed_time, gradient_boosting, position_only

__all__ = ["BOOSTING_AND_REFERENCE_METHODS", "NEURAL_BASELINE_METHODS", "simple_boosting"]

CMAPSS = ("FD001", "FD002", "FD003", "FD004")  # the datasets with operating settings to normalise by


def _supervised(estimator_class, description, *, norm=None, regime=False):
    """A baseline encoder trained end to end on the cell's labels, then frozen, under the matched head.

    ``norm`` replaces the entry's normalisation; ``regime`` reads the windows
    normalised per operating condition, which C-MAPSS alone has.
    """
    encoder = functools.partial(supervised_encoder, estimator_class, **({"norm": norm} if norm else {}))
    return Method(
        description,
        family="baseline",
        encoder=encoder,
        head=matched_head,
        supervised=True,
        regime=regime,
        datasets=CMAPSS if regime else None,
    )


def simple_boosting(entry, data, mask, *, epochs, device, seed, encoder=None):
    """:class:`~hepa_bench.methods.simple_boosting.SimpleBoosting` on the labelled training windows; nothing
    chosen."""
    return SimpleBoosting(K=entry.K, random_state=seed).fit(data.X_train[mask], data.y_train[mask]), {}


# the encoders of the paper's and other baselines, each with the paper's matched head (MiniRocket: hepa's head)
NEURAL_BASELINE_METHODS = {
    "mae": Method(
        "MAE baseline: the same causal encoder pretrained by masked-patch reconstruction, matched head",
        family="baseline",
        encoder=pretrained_mae,
        head=matched_head,
    ),
    **{
        name: Method(
            f"{embedder.model_name} baseline: frozen, each channel alone, patch outputs averaged, then "
            f"channels; matched head (weights from {weights_folder(embedder)})",
            family="baseline",
            encoder=functools.partial(foundation_encoder, embedder),
            head=matched_head,
        )
        for name, embedder in FOUNDATION_MODELS.items()
    },
    "minirocket": Method(
        "MiniRocket baseline: a random feature map, MiniRocketEncoder's defaults (252 convolutional "
        "features, each "
        "channel's mean over the window and its last 30 steps, its observed share) fitted on the pretraining "
        "windows, then HEPAEventPredictor as hepa's head",
        family="baseline",
        encoder=minirocket_features,
    ),
    "minirocket-10k": Method(
        "MiniRocket at its standard size: 9,996 convolutional features (84 kernels, the multiple of 84 "
        "nearest "
        "10,000), each channel's mean over the window and its last 30 steps, its observed share, fitted on "
        "the "
        "pretraining windows; the headline line's head (HEPAEventPredictor(K=K) with its defaults, fitted "
        "on the "
        "labelled training windows alone)",
        family="baseline",
        encoder=minirocket_features,
        pretrain={"n_kernels": 9996},
        head=headline_head,
    ),
    "patchtst": _supervised(
        PatchTSTEncoder,
        "PatchTST baseline: channel-independent patches, bidirectional attention, trained end to end with "
        "the "
        "cell's labels, then frozen; matched head",
    ),
    "itransformer": _supervised(
        ITransformerEncoder,
        "iTransformer baseline: one token per variate, attention across variates, trained end to end with "
        "the "
        "cell's labels, then frozen; matched head",
    ),
    "patchtst-revin": _supervised(
        PatchTSTEncoder,
        "the PatchTST baseline with RevIN on every dataset (on C-MAPSS, where HEPA has the global z-score, "
        "this erases the degradation level; the baseline as first run there)",
        norm="revin",
    ),
    "itransformer-revin": _supervised(
        ITransformerEncoder,
        "the iTransformer baseline with RevIN on every dataset (on C-MAPSS, where HEPA has the global "
        "z-score, "
        "this erases the degradation level; the baseline as first run there)",
        norm="revin",
    ),
    "patchtst-regime": _supervised(
        PatchTSTEncoder,
        "the PatchTST baseline on per-operating-condition z-scores (C-MAPSS), then its global z-score, as "
        "gbm-regime is gbm on them; matched head",
        regime=True,
    ),
    "itransformer-regime": _supervised(
        ITransformerEncoder,
        "the iTransformer baseline on per-operating-condition z-scores (C-MAPSS), then its global z-score; "
        "matched "
        "head",
        regime=True,
    ),
}

# gradient boosting, its former targets, and the reference points that learn nothing from the sensor values
BOOSTING_AND_REFERENCE_METHODS = {
    "gbm": Method(
        "HistGradientBoostingRegressor on multiscale features: level, trend, spread and extremes of every "
        "channel over its last 10, 30, 100 steps and the whole window, missingness, the window's visible age",
        family="baseline",
        surface=gradient_boosting,
    ),
    "gbm-select": Method(
        "gbm with its feature set, multiscale or the last 30 steps, chosen on the validation "
        "windows with the rest of its settings (event datasets)",
        family="baseline",
        surface=gradient_boosting,
        finetune={"choose_features": True},
    ),
    "gbm-regime": Method(
        "gbm on per-operating-condition z-scores", family="baseline", surface=gradient_boosting, regime=True
    ),
    "gbm-last30": Method(
        'the former boosting baseline: four features per channel of the last 30 steps only (features="last")',
        family="baseline",
        surface=gradient_boosting,
        finetune={"features": "last"},
    ),
    "gbm-regime-last30": Method(
        "gbm-last30 on per-operating-condition z-scores",
        family="baseline",
        surface=gradient_boosting,
        finetune={"features": "last"},
        regime=True,
    ),
    "gbm-simple": Method(
        "the twenty-line boosting model: HistGradientBoostingRegressor at its defaults on four features per "
        "channel of the last 30 steps (last value, means of the last 10 and 30, slope; NaN read as 0), "
        "fitted "
        "on the windows with an observed event, target log1p(time) (hepa_bench.methods.simple_boosting)",
        family="baseline",
        surface=simple_boosting,
    ),
    "gbm-hazard": Method(
        "candidate boosting targets: interval hazards of the next event by "
        "HistGradientBoostingClassifier on gbm's features, windows censored inside the horizon "
        "used up to their censoring (hepa_bench.methods.boosting_hazard)",
        family="candidate",
        surface=functools.partial(gradient_boosting, estimator=DiscreteHazardBoosting),
    ),
    **{
        f"{name}-logtime": Method(
            f"{name} with the boosting targets of release 0.2.0: log(time) of every observed event, log(K) "
            "for the "
            "windows censored beyond K, which ranks a window whose event is observed far beyond the "
            "horizon as safer "
            "than one known only to survive it",
            family="former",
            surface=gradient_boosting,
            retired="the targets were corrected: every window known to survive the horizon now gets the same target",
        )
        for name in ("gbm", "gbm-select", "gbm-regime", "gbm-last30", "gbm-regime-last30")
    },
    "elapsed": Method(
        "reference: ElapsedTimeEventPredictor, the event-time distribution given the unit's visible "
        "age (left-truncated Kaplan-Meier on the training windows), no sensor value",
        family="reference",
        surface=elapsed_time,
    ),
    "position": Method(
        "reference: the position-only score, per bin of the window's visible age the training "
        "windows' event share per horizon; a row it is not significantly below is solved by position",
        family="reference",
        surface=position_only,
    ),
}
