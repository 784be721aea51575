"""HEPA's recipes in the method table: the paper's method, its variants, ablations and untrained controls."""

from ..protocols import multi_horizon_probe, predictor_init
from .parts import Method, matched_head, pretrained_hepa, untrained_hepa
from .surfaces import end_to_end

__all__ = ["HEPA_METHODS"]


def _retired(description, option):
    return Method(description, retired=f"the estimators no longer have {option}; the records stay as data")


def _hepa(description, **kwargs):
    return Method(description, encoder=pretrained_hepa, **kwargs)


def _untrained(description, **kwargs):
    return Method(description, encoder=untrained_hepa, **kwargs)


_PACKED = {"layout": "packed"}  # C-MAPSS variants measured with the library's batch layout


def _fewer_cuts(cuts):
    """The speed options of ``hepa protocol --horizon-knots 12 --cuts-per-unit cuts`` as an entry."""
    return _hepa(
        f"speed options: hepa-packed-knots12 pretrained on {cuts} (cut, Δt) pairs per unit and epoch instead of 40 "
        f"(hepa protocol --horizon-knots 12 --cuts-per-unit {cuts})",
        pretrain={**_PACKED, "cuts_per_window": cuts},
        finetune={"horizon_knots": 12},
    )


HEPA_METHODS = {
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
    # the protocol's speed options (off in the protocol itself): the head evaluated at 12 horizons, fewer cuts
    "hepa-packed-knots12": _hepa(
        "speed option: hepa-packed with its event head evaluated at 12 horizon knots and interpolated between "
        "them (hepa protocol --horizon-knots 12) instead of at all 150",
        pretrain=_PACKED,
        finetune={"horizon_knots": 12},
    ),
    **{f"hepa-packed-knots12-cuts{cuts}": _fewer_cuts(cuts) for cuts in (30, 36, 20)},
    "hepa-sigreg-high": _hepa(
        "variant: hepa-packed, SIGReg weight α = 1 (the loss (1 - α)·L1 + α·SIGReg is SIGReg alone)",
        pretrain={**_PACKED, "regularizer_weight": 1.0},
    ),
    "hepa-sigreg-low": _hepa(
        "variant: hepa-packed with SIGReg weight α = 0.01 instead of 0.1 (SIGReg:L1 about 1:99, not 1:9)",
        pretrain={**_PACKED, "regularizer_weight": 0.01},
    ),
    "hepa-sigreg-mid": _hepa(
        "variant: hepa-packed with SIGReg weight α = 0.5 (SIGReg:L1 1:1, nine times the paper's 1:9)",
        pretrain={**_PACKED, "regularizer_weight": 0.5},
    ),
    "hepa-revin": _hepa(
        "variant: hepa-packed normalising each context by its own statistics (RevIN) instead of the global "
        "z-score, which removes the absolute degradation level",
        pretrain={**_PACKED, "norm": "revin"},
    ),
    "hepa-rankstop": _hepa(
        "variant: hepa-packed stopped by the label-free rank rule: a fifth of the pretraining units held out, the "
        "weights of the epoch whose held-out embeddings have the highest effective rank",
        pretrain={**_PACKED, "validation_metric": "rank", "validation_fraction": 0.2},
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
    "hepa-ema": _hepa("ablation: EMA target encoder", pretrain={"target_weights": "ema"}, ablation=True),
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
}
