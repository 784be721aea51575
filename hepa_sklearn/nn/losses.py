"""Training losses: the JEPA objective, BCE on the cumulative event surface, discrete-time survival likelihood, the
cause of an event."""

import math

import torch
import torch.nn.functional as F

from .predictor import log_survival


def jepa_loss(predicted, target, regularizer, *, regularizer_weight=0.1, weight=None):
    """(1 - α) · L1(normalize(ĥ), normalize(h*)) + α · R(ĥ)   (paper §3.1: R = SIGReg, α = 0.1).

    The L1 term is averaged over vector entries and over samples with
    positive ``weight`` (samples whose target interval holds no observation
    get weight 0). ``regularizer`` is the already computed value of the
    regulariser R (SIGReg or VICReg), ``regularizer_weight`` is α.

    Returns the loss and its L1 term.
    """
    distance = (F.normalize(predicted, dim=-1) - F.normalize(target, dim=-1)).abs().mean(-1)
    if weight is None:
        prediction = distance.mean()
    else:
        prediction = (distance * weight).sum() / weight.sum().clamp(min=1)
    return (1 - regularizer_weight) * prediction + regularizer_weight * regularizer, prediction


def _log_one_minus_exp(log_survival_value):
    """log(1 - exp(x)) for x < 0, accurate on both sides of -log 2 (Mächler 2012)."""
    x = log_survival_value
    return torch.where(x > -math.log(2), torch.log(-torch.expm1(x)), torch.log1p(-torch.exp(x)))


def surface_bce(hazard_logits, labels, known, pos_weight):
    """Positive-weighted BCE on the cumulative surface p(Δt) = 1 - Π(1 - λ_j).

    Parameters
    ----------
    hazard_logits : tensor (B, K)
    labels : tensor (B, K), 1 where the event happens within Δt
    known : tensor (B, K), 1 for known cells; unknown (censored) cells add nothing
    pos_weight : float, w+ = N_neg / N_pos over the known training cells

    Returns
    -------
    loss : BCE summed over horizons, averaged over windows.
    """
    # the surface starts at p = 0 when every hazard underflows; keep log p finite
    log_not_event = log_survival(hazard_logits).clamp(max=-1e-7)  # log(1 - p)
    log_event = _log_one_minus_exp(log_not_event)  # log p
    cell = -(pos_weight * labels * log_event + (1 - labels) * log_not_event)
    return (cell * known).sum() / hazard_logits.shape[0]


def survival_nll(hazard_logits, labels, known):
    """Negative log-likelihood of the discrete-time survival model, from the label surface.

    A window whose event happens at step T <= K contributes
    ``log λ_T + Σ_{j<T} log(1 - λ_j)``; a window known to survive up to
    step c contributes ``Σ_{j<=c} log(1 - λ_j)``. In terms of the label
    surface: every known negative cell k is a survived step (T > k), and the
    first positive cell is the event step.

    Parameters
    ----------
    hazard_logits, labels, known : tensors (B, K), as in :func:`surface_bce`

    Returns
    -------
    loss : summed over horizons, averaged over windows.
    """
    onset = labels - F.pad(labels[:, :-1], (1, 0))  # 1 at the first positive cell
    survived = known * (1 - labels)
    log_likelihood = survived * F.logsigmoid(-hazard_logits) + onset * F.logsigmoid(hazard_logits)
    return -log_likelihood.sum() / hazard_logits.shape[0]


def cause_cross_entropy(cause_logits, labels, cause):
    """Cross-entropy of the observed cause at the event step: ``-log π_c(T)``, summed and averaged over windows.

    Only a window whose event falls within the K horizons (at step ``T``,
    its first positive cell) has a cause to learn from; with the survival
    likelihood of the any-event hazard this is the likelihood of the
    discrete-time competing-risks model.

    Parameters
    ----------
    cause_logits : tensor (B, n_causes, K), the logits of each cause's share at each step
    labels : tensor (B, K), the any-event label surface
    cause : tensor (B,), integer, 1, 2, ... the cause of each event, 0 where there is none

    Returns
    -------
    loss : summed over windows, divided by B.
    """
    onset = labels - F.pad(labels[:, :-1], (1, 0))  # 1 at the event step, if within K
    index = (cause.long().clamp(min=1) - 1)[:, None, None].expand(-1, 1, cause_logits.shape[2])
    log_share = F.log_softmax(cause_logits, dim=1).gather(1, index)[:, 0]  # (B, K)
    return -(onset * log_share).sum() / cause_logits.shape[0]
