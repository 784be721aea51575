"""The one table of benchmark methods: each name written once, each a set of callables that build and fit its estimators.

A method either embeds windows with a frozen ``encoder`` and fits a
``head`` on the embeddings, or fits a ``surface`` model on the windows
(which may start from the method's encoder, as end-to-end finetuning
does). The runner (:mod:`hepa_bench.runner`) calls them with the
dataset's registry entry, so one entry serves every dataset, C-MAPSS
included. To add a baseline: its estimator in ``hepa_sklearn.baselines``,
one entry here, one test. The callables that fit a surface model on raw
windows are in :mod:`hepa_bench.surfaces`.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hepa_sklearn.baselines import (
    ITransformerEncoder,
    MAEPretrainer,
    MatchedHeadPredictor,
    MiniRocketEncoder,
    PatchTSTEncoder,
)
from hepa_sklearn.datasets._cmapss import CUTS_PER_UNIT

from .boosting_hazard import DiscreteHazardBoosting
from .foundation import FOUNDATION_MODELS, foundation_encoder, weights_folder
from .protocols import TrendLevelPretrainer, multi_horizon_probe, plain_pipeline, predictor_init
from .registry import PATIENCE
from .surfaces import elapsed_time, end_to_end, gradient_boosting, position_only

__all__ = ["METHODS", "Method", "PAPER_ABLATIONS", "baselines", "headline_variants", "references", "tuned_variants"]


# -- encoders: encoder(entry, data, *, epochs, device, seed, **pretrain) -> fitted transformer -----------------


def pretrained_hepa(entry, data, *, epochs, device, seed, **params):
    """HEPAPretrainer fitted on the entry's pretraining windows with its protocol; ``params`` override."""
    return entry.make_pretrainer(epochs, device=device, seed=seed, **params).fit(data.X_pre)


def untrained_hepa(entry, data, *, epochs, device, seed, **params):
    """The same encoder never trained (``max_epochs=0``): the entry's input statistics, its initial weights."""
    return entry.make_pretrainer(0, device=device, seed=seed, **params).fit(data.X_pre)


def pretrained_mae(entry, data, *, epochs, device, seed):
    """The MAE baseline: the same causal encoder pretrained by masked-patch reconstruction.

    It sees the entry's pretraining windows with the same normalisation and
    stop rule as HEPA. On C-MAPSS, where HEPA draws 40 cuts from each
    unit's window per epoch, each window is repeated 40 times per epoch
    (each repeat gets its own mask), so both see as many samples.
    """
    template = entry.make_pretrainer(epochs, device=device, seed=seed)
    mae = MAEPretrainer(
        norm=template.norm,
        max_epochs=epochs,
        early_stopping=template.early_stopping,
        n_iter_no_change=template.n_iter_no_change,
        device=device,
        random_state=seed,
    )
    return mae.fit(np.repeat(data.X_pre, CUTS_PER_UNIT, axis=0) if entry.is_cmapss else data.X_pre)


def minirocket_features(entry, data, *, epochs, device, seed):
    """MiniRocketEncoder fitted on the entry's pretraining windows: nothing is trained (``epochs``, ``device`` unused)."""
    return MiniRocketEncoder(random_state=seed).fit(data.X_pre)


def supervised_encoder(estimator_class, entry, data, mask, *, epochs, device, seed, norm=None):
    """``estimator_class`` trained end to end on the labelled windows of ``mask``, stopped as the entry says, then frozen.

    Its normalisation is ``norm``, by default the entry's, HEPA's (C-MAPSS:
    the global z-score, which keeps the degradation level; elsewhere RevIN).

    Fitted through :meth:`~hepa_bench.registry.BenchmarkEntry.fit_head` like
    a head: early-stopped on the validation windows, or on C-MAPSS the
    protocol's fixed finetuning epochs.
    """
    encoder = estimator_class(
        K=entry.K,
        norm=norm or entry.norm,
        max_epochs=epochs,
        early_stopping=entry.finetune_stop != "fixed",
        validation_fraction=0.5,
        n_iter_no_change=PATIENCE,
        device=device,
        random_state=seed,
    )
    return entry.fit_head(encoder, data.X_train[mask], data.y_train[mask], data.X_valid, data.y_valid)


# -- heads: head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed, **finetune) ----------------


def event_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed, **params):
    """HEPAEventPredictor on frozen embeddings, stopped as the entry's protocol says."""
    head = entry.make_event_predictor(epochs, device=device, seed=seed, **params)
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


def matched_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed):
    """The paper's common baseline head (:class:`MatchedHeadPredictor`), stopped as the entry says.

    Its learned horizon table has the paper's 256 rows, or K rows where K
    is larger.
    """
    head = MatchedHeadPredictor(
        K=entry.K,
        horizon_rows=None if entry.K > 256 else 256,
        max_epochs=epochs,
        early_stopping=entry.finetune_stop != "fixed",
        validation_fraction=0.5,
        device=device,
        random_state=seed,
    )
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


@dataclass(frozen=True)
class Method:
    """One column of the benchmark.

    Attributes
    ----------
    description : str
    family : {"hepa", "default", "candidate", "baseline", "reference", "former"}
        ``"hepa"``: a HEPA recipe a user would tune (pretrained or untrained
        encoder, any head); ``"default"``: the plain pipeline with the
        defaults of a release (0.1.0 and 0.2.0); ``"candidate"``: the plain pipeline with a candidate
        default; ``"baseline"``: another method; ``"reference"``: a
        reference point that learns nothing from the sensor values (the
        unit's age, the window's position), shown beside every row and
        compared only with the row's best method; ``"former"``: a retired
        form of a baseline, whose records stay as data and count in no
        comparison.
    encoder : callable or None
        ``encoder(entry, data, *, epochs, device, seed, **pretrain)``: a
        fitted object whose ``transform(X)`` gives embeddings; ``epochs``
        are the pretraining epochs. A ``supervised`` encoder is called as
        ``encoder(entry, data, mask, *, epochs, device, seed)`` with the
        cell's labelled windows and the finetuning epochs, once per label
        fraction.
    head : callable or None
        ``head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device,
        seed, **finetune)``: a fitted estimator with ``predict_proba(E)``.
    surface : callable or None
        ``surface(entry, data, mask, *, epochs, device, seed, encoder,
        **finetune)``: ``(fitted estimator with predict_proba(X), info)``;
        ``encoder`` is the method's fitted encoder, if it has one.
    pretrain, finetune : dict
        Parameters passed to the encoder and to the head or surface.
        Methods with equal encoder, ``pretrain`` and ``regime`` share one
        fitted encoder (and its embeddings) per dataset and seed.
    regime : bool
        The windows are normalised per operating condition
        (:class:`~hepa_sklearn.preprocessing.RegimeNormalizer`; C-MAPSS).
    ablation : bool
        One of the paper's ablations (§4.4), tabled against ``hepa``.
    retired : str or None
        Why the method no longer runs (the option it needs was removed from
        the estimators); its records stay in the results as data.
    """

    description: str
    family: str = "hepa"
    encoder: Callable | None = None
    head: Callable | None = event_head
    surface: Callable | None = None
    pretrain: dict = field(default_factory=dict)
    finetune: dict = field(default_factory=dict)
    supervised: bool = False
    regime: bool = False
    ablation: bool = False
    retired: str | None = None

    def __post_init__(self):
        if self.retired is None and self.encoder is None and self.surface is None:
            raise ValueError("a Method needs an encoder or a surface.")
        if self.surface is None and self.encoder is not None and self.head is None:
            raise ValueError("a Method with an encoder and no surface needs a head.")

    @property
    def control(self):
        """An untrained-encoder control: the recipe's encoder never trained (``max_epochs=0``)."""
        return self.encoder is untrained_hepa

    @property
    def encoder_key(self):
        """Methods with equal keys share one fitted encoder."""
        if self.encoder is None:
            return None
        return (
            getattr(self.encoder, "__name__", repr(self.encoder)),
            tuple(sorted(self.pretrain.items())),
            self.regime,
        )


def _retired(description, option):
    return Method(description, retired=f"the estimators no longer have {option}; the records stay as data")


def _hepa(description, **kwargs):
    return Method(description, encoder=pretrained_hepa, **kwargs)


def _untrained(description, **kwargs):
    return Method(description, encoder=untrained_hepa, **kwargs)


_PACKED = {"layout": "packed"}  # C-MAPSS variants measured with the library's batch layout


def _auto0(description, family="candidate", **params):
    """A candidate default: the plain pipeline under the 0.2.0 defaults (0.2.0's norm="auto", untrained) with ``params``."""
    params = {"norm": "revin", "regimes": "auto", "window_level": True, "max_epochs": 0, **params}
    return Method(description, family=family, surface=functools.partial(plain_pipeline, **params))


METHODS = {
    "hepa": _hepa(
        "HEPA pred-FT: pretrain HEPAPretrainer with the dataset's protocol (C-MAPSS: global z-score, the "
        "paper's), then HEPAEventPredictor on frozen embeddings"
    ),
    "hepa-random": _untrained("control: the hepa encoder at its initial weights (never pretrained), finetuned as hepa"),
    "hepa-random-regime": _untrained(
        "control: the hepa-regime encoder at its initial weights, finetuned as hepa-regime", regime=True
    ),
    "hepa-random-e2e": _untrained(
        "control: hepa-e2e from the encoder's initial weights (end-to-end training, no pretraining)", surface=end_to_end
    ),
    "hepa-ctxreg": _retired(
        "variant: SIGReg on the context representations h_t as well as on the predictions", "regularize"
    ),
    "hepa-uniform": _retired("variant: pretraining horizons Δt uniform on 1..150 instead of log-uniform", "horizons"),
    "hepa-packed": _hepa(
        "hepa pretrained with the packed batch layout (cuts of a unit share a context pass)", pretrain=_PACKED
    ),
    "hepa-sigreg-high": _hepa(
        "variant: hepa-packed, SIGReg weight α = 1 (the loss (1 - α)·L1 + α·SIGReg is SIGReg alone)",
        pretrain={**_PACKED, "sigreg_weight": 1.0},
    ),
    "hepa-sigreg-low": _hepa(
        "variant: hepa-packed with SIGReg weight α = 0.01 instead of 0.1 (SIGReg:L1 about 1:99, not 1:9)",
        pretrain={**_PACKED, "sigreg_weight": 0.01},
    ),
    "hepa-sigreg-mid": _hepa(
        "variant: hepa-packed with SIGReg weight α = 0.5 (SIGReg:L1 1:1, nine times the paper's 1:9)",
        pretrain={**_PACKED, "sigreg_weight": 0.5},
    ),
    "hepa-revin": _hepa(
        "variant: hepa-packed normalising each context by its own statistics (RevIN) instead of the global "
        "z-score, which removes the absolute degradation level",
        pretrain={**_PACKED, "norm": "revin"},
    ),
    "hepa-rankstop": _hepa(
        "variant: hepa-packed stopped by the label-free rank rule: a fifth of the pretraining units held out, the "
        "weights of the epoch whose held-out embeddings have the highest effective rank",
        pretrain={**_PACKED, "early_stopping": "rank", "validation_fraction": 0.2},
    ),
    "hepa-within": _retired(
        "variant: hepa-packed with SIGReg also on h_t centred within each unit's cuts, so that "
        "h_t keeps moving along a unit instead of coding which unit it is",
        "regularize",
    ),
    "hepa-change": _retired(
        "variant: hepa-packed predicting the change of the representation, h* - h_t, instead of "
        "h*, so that what stays constant along a unit cancels out of the target",
        "objective",
    ),
    "hepa-proj1024": _retired("variant: hepa-packed with 1024 SIGReg projections instead of 256", "n_projections"),
    "hepa-lowlr": _hepa(
        "variant: hepa-packed with pretraining learning rate 3e-5 (a tenth of 3e-4)", pretrain={**_PACKED, "lr": 3e-5}
    ),
    "hepa-constlr": _retired(
        "variant: hepa-packed with a constant pretraining learning rate instead of cosine annealing", "lr_schedule"
    ),
    "hepa-regime": _hepa("HEPA pred-FT on per-operating-condition z-scores (RegimeNormalizer)", regime=True),
    "hepa-regime-nll": _hepa(
        "hepa-regime finetuned with the discrete-time survival likelihood instead of BCE",
        regime=True,
        finetune={"loss": "nll"},
    ),
    "hepa-vicreg": _hepa(
        "ablation: VICReg-style variance + covariance instead of SIGReg",
        pretrain={"regularizer": "vicreg"},
        ablation=True,
    ),
    "hepa-ema": _hepa("ablation: EMA target encoder", pretrain={"target": "ema"}, ablation=True),
    "hepa-linear": _hepa("ablation: linear probe on h_t", finetune={"head": "linear"}, ablation=True),
    "hepa-e2e": _hepa("ablation: end-to-end finetuning of encoder and head", surface=end_to_end, ablation=True),
    "hepa-nll": _hepa(
        "ablation: discrete-time survival likelihood instead of BCE", finetune={"loss": "nll"}, ablation=True
    ),
    "hepa-matched": _hepa(
        "the hepa encoder with the paper's common baseline head (MatchedHeadPredictor) instead of pred-FT",
        head=matched_head,
    ),
    "hepa-probe-multi": _hepa(
        "analysis: a linear probe on the frozen predictor's outputs at 16 horizons, concatenated "
        "(the paper's frozen multi-horizon probe)",
        surface=multi_horizon_probe,
    ),
    "hepa-init": _hepa(
        "variant: hepa with the event predictor started from the pretrained JEPA predictor "
        "(init_from) instead of at random, the paper's appendix comparison",
        surface=predictor_init,
    ),
    "hepa-channel": _hepa(
        "HEPA with one token stream per channel (tokens='channel'), pred-FT head", pretrain={"tokens": "channel"}
    ),
    "hepa-channel-random": _untrained(
        "control: the hepa-channel encoder at its initial weights (never pretrained), finetuned as hepa-channel",
        pretrain={"tokens": "channel"},
    ),
    "mae": Method(
        "MAE baseline: the same causal encoder pretrained by masked-patch reconstruction, matched head",
        family="baseline",
        encoder=pretrained_mae,
        head=matched_head,
    ),
    **{
        name: Method(
            f"{embedder._model_name} baseline: frozen, each channel alone, patch outputs averaged, then "
            f"channels; matched head (weights from {weights_folder(embedder)})",
            family="baseline",
            encoder=functools.partial(foundation_encoder, embedder),
            head=matched_head,
        )
        for name, embedder in FOUNDATION_MODELS.items()
    },
    "minirocket": Method(
        "MiniRocket baseline: a random feature map, MiniRocketEncoder's defaults (252 convolutional features, each "
        "channel's mean over the window and its last 30 steps, its observed share) fitted on the pretraining "
        "windows, then HEPAEventPredictor as hepa's head",
        family="baseline",
        encoder=minirocket_features,
    ),
    "patchtst": Method(
        "PatchTST baseline: channel-independent patches, bidirectional attention, trained end to end with the "
        "cell's labels, then frozen; matched head",
        family="baseline",
        encoder=functools.partial(supervised_encoder, PatchTSTEncoder),
        head=matched_head,
        supervised=True,
    ),
    "itransformer": Method(
        "iTransformer baseline: one token per variate, attention across variates, trained end to end with the "
        "cell's labels, then frozen; matched head",
        family="baseline",
        encoder=functools.partial(supervised_encoder, ITransformerEncoder),
        head=matched_head,
        supervised=True,
    ),
    "patchtst-revin": Method(
        "the PatchTST baseline with RevIN on every dataset (on C-MAPSS, where HEPA has the global z-score, "
        "this erases the degradation level; the baseline as first run there)",
        family="baseline",
        encoder=functools.partial(supervised_encoder, PatchTSTEncoder, norm="revin"),
        head=matched_head,
        supervised=True,
    ),
    "itransformer-revin": Method(
        "the iTransformer baseline with RevIN on every dataset (on C-MAPSS, where HEPA has the global z-score, "
        "this erases the degradation level; the baseline as first run there)",
        family="baseline",
        encoder=functools.partial(supervised_encoder, ITransformerEncoder, norm="revin"),
        head=matched_head,
        supervised=True,
    ),
    "hepa-default": Method(
        "the plain pipeline make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150)) with every other default "
        "(those of release 0.1.0, pinned in hepa_bench.protocols), fitted on the labelled training windows alone",
        family="default",
        surface=plain_pipeline,
    ),
    "hepa-default-rank": Method(
        'candidate default: hepa-default with HEPAPretrainer(early_stopping="rank"), pretraining stopped on the '
        "effective rank of the held-out windows' embeddings",
        family="candidate",
        surface=functools.partial(plain_pipeline, early_stopping="rank"),
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
    "hepa-default-auto0-knots16-h128": _auto0(
        "candidate default: hepa-default-auto0-knots16 with the event head's hidden width halved (hidden=128)",
        predictor={"horizon_knots": 16, "hidden": 128},
    ),
    "hepa-default-auto0-nll": _auto0(
        "candidate default: hepa-default-auto0 with the event head trained by the "
        'discrete-time survival likelihood (loss="nll") instead of BCE',
        predictor={"loss": "nll"},
    ),
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
    "gbm-hazard": Method(
        "candidate boosting targets: interval hazards of the next event by "
        "HistGradientBoostingClassifier on gbm's features, windows censored inside the horizon "
        "used up to their censoring (hepa_bench.boosting_hazard)",
        family="candidate",
        surface=functools.partial(gradient_boosting, estimator=DiscreteHazardBoosting),
    ),
    **{
        f"{name}-logtime": Method(
            f"{name} with the boosting targets of release 0.2.0: log(time) of every observed event, log(K) for the "
            "windows censored beyond K, which ranks a window whose event is observed far beyond the horizon as safer "
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

#: the paper's ablations (§4.4), compared with ``hepa`` on FD001 and FD003
PAPER_ABLATIONS = tuple(name for name, method in METHODS.items() if method.ablation)


def _of(methods, keep):
    return [m for m in methods if m in METHODS and keep(METHODS[m])]


def tuned_variants(methods):
    """The HEPA recipes among ``methods`` a user would tune, against which the plain default pipeline is judged."""
    return _of(methods, lambda method: method.family == "hepa")


def headline_variants(methods):
    """HEPA's recipes and the default pipeline among ``methods``, without the untrained controls: the win counts' rows."""
    return _of(methods, lambda method: method.family in ("hepa", "default") and not method.control)


def baselines(methods):
    """The baselines among ``methods``: the win counts' columns."""
    return _of(methods, lambda method: method.family == "baseline")


def references(methods):
    """The reference points among ``methods``: shown beside each row, compared only with its best method."""
    return _of(methods, lambda method: method.family == "reference")
