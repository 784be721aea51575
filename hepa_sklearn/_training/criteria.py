"""Training criteria: the JEPA objective with its collapse regulariser, and the event-surface losses."""

import math

import torch
import torch.nn.functional as F
from torch import nn

from ..nn.losses import jepa_loss, surface_bce, survival_nll
from ..nn.sigreg import SIGReg, VarianceCovariance


def centred_within(values, owner):
    """Rows of ``values`` (N, d) minus the mean of the rows with the same ``owner``; groups of one row are left out."""
    groups = torch.unique(owner, return_inverse=True)[1]
    n_groups = int(groups.max()) + 1
    sums = values.new_zeros(n_groups, values.shape[1]).index_add_(0, groups, values)
    counts = values.new_zeros(n_groups).index_add_(0, groups, torch.ones_like(values[:, 0]))
    keep = counts[groups] > 1
    return (values - sums[groups] / counts[groups, None])[keep]


class JEPACriterion(nn.Module):
    """JEPA loss on the module's ``(predicted, target, weight, context, owner)`` output.

    ``regularizer`` is ``"sigreg"`` (the paper) or ``"vicreg"`` (variance +
    covariance, the reference code's choice); its value is recorded under
    its own name next to the L1 term. ``regularize`` says what it acts on:
    the predictions ĥ (the paper), the context representations h_t, the
    mean of both terms, or (``"within"``) the mean of the term on the
    predictions and the term on h_t centred within each window, which
    keeps a window's representation moving from one cut to the next
    (it needs several cuts of a window in a batch).

    ``objective`` says what the predictions are compared with: the target
    representation h* (``"representation"``, the paper) or its change from
    the context, ``h* - h_t`` (``"change"``). With ``"change"`` whatever a
    window's context and target share, such as which unit it comes from,
    cancels out of the target, and the regulariser keeps the predicted
    changes spread out.
    """

    # criteria pickled before these options existed regularised the predictions and compared them
    # with the representation: the class attributes give them those values
    regularize = "predictions"
    objective = "representation"

    def __init__(self, alpha=0.1, n_projections=256, regularizer="sigreg", regularize="predictions",
                 objective="representation"):
        super().__init__()
        self.alpha = alpha
        self.regularizer = regularizer
        self.regularize = regularize
        self.objective = objective
        if regularizer == "sigreg":
            self.regulariser = SIGReg(n_projections=n_projections)
        else:
            self.regulariser = VarianceCovariance()
        self.last_terms = {}

    def forward(self, y_pred, y_true=None):
        predicted, target, weight, context, *owner = y_pred
        if self.objective == "change":
            target = target - context
        usable = weight > 0
        if usable.sum() > 1:
            if self.regularize == "within":
                moving = centred_within(context[usable], owner[0][usable])
                parts = (predicted[usable],) + ((moving,) if moving.shape[0] > 1 else ())
            else:
                regularised = {"predictions": (predicted,), "context": (context,), "both": (predicted, context)}
                parts = tuple(part[usable] for part in regularised[self.regularize])
            terms = [self.regulariser(part) for part in parts]
            regulariser = sum(terms) / len(terms)
        else:
            regulariser = predicted.new_zeros(())
        loss, prediction = jepa_loss(predicted, target, regulariser, alpha=self.alpha, weight=weight)
        self.last_terms = {"l1": prediction.item(), self.regularizer: regulariser.item()}
        if usable.sum() > 1:
            self.last_terms["spread"] = prediction_spread(predicted[usable].detach())
        return loss


def prediction_spread(predicted):
    """√d × mean per-dimension std of the L2-normalised predictions over a batch (N, d).

    About 1 for directions spread evenly over the sphere, 0 when every
    prediction points the same way (representation collapse).
    """
    unit = F.normalize(predicted.float(), dim=-1)
    return float(unit.std(dim=0).mean() * math.sqrt(unit.shape[1]))


class SurfaceLoss(nn.Module):
    """Criterion on packed targets ``(B, 2, K)`` (labels, mask of known cells): surface BCE or survival NLL."""

    def __init__(self, pos_weight=1.0, kind="bce"):
        super().__init__()
        self.pos_weight = pos_weight
        self.kind = kind

    def forward(self, hazard_logits, packed):
        if self.kind == "nll":
            return survival_nll(hazard_logits, packed[:, 0], packed[:, 1])
        return surface_bce(hazard_logits, packed[:, 0], packed[:, 1], self.pos_weight)


class ReconstructionLoss(nn.Module):
    """Mean squared error over the weighted values of the module's ``(reconstruction, target, weight)`` output.

    Masked-patch pretraining weighs the observed values of the masked
    patches by 1 and every other value by 0.
    """

    def forward(self, y_pred, y_true=None):
        reconstruction, target, weight = y_pred
        return ((reconstruction - target).square() * weight).sum() / weight.sum().clamp(min=1)
