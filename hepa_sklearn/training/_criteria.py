"""Training criteria: the JEPA objective with its collapse regulariser, and the event-surface losses."""

import math

import torch.nn.functional as F
from torch import nn

from ..nn.losses import cause_cross_entropy, jepa_loss, surface_bce, survival_nll
from ..nn.sigreg import SIGReg, VarianceCovariance


class JEPACriterion(nn.Module):
    """JEPA loss on the module's ``(predicted, target, weight)`` output.

    ``regularizer`` is ``"sigreg"`` (the paper) or ``"vicreg"`` (variance +
    covariance, the reference code's choice); it acts on the predictions ĥ
    of the usable pairs, weighted by ``regularizer_weight`` (α in
    ``(1-α)·L1 + α·regulariser``), and its value is recorded under its own
    name next to the L1 term.
    """

    def __init__(self, regularizer_weight=0.1, regularizer="sigreg"):
        super().__init__()
        self.regularizer_weight = regularizer_weight
        self.regularizer = regularizer
        self.regulariser = SIGReg() if regularizer == "sigreg" else VarianceCovariance()
        self.last_terms = {}

    def forward(self, y_pred, y_true=None):
        predicted, target, weight = y_pred
        usable = weight > 0
        if usable.sum() > 1:
            regulariser = self.regulariser(predicted[usable])
        else:
            regulariser = predicted.new_zeros(())
        loss, prediction = jepa_loss(
            predicted, target, regulariser, regularizer_weight=self.regularizer_weight, weight=weight
        )
        self.last_terms = {"l1": prediction.item(), self.regularizer: regulariser.item()}
        if usable.sum() > 1:
            self.last_terms["spread"] = prediction_spread(predicted[usable].detach())
        return loss

    def __setstate__(self, state):
        # pickled before 0.3.0, which named regularizer_weight ``alpha``
        if "alpha" in state:
            state["regularizer_weight"] = state.pop("alpha")
        super().__setstate__(state)


def prediction_spread(predicted):
    """√d × mean per-dimension std of the L2-normalised predictions over a batch (N, d).

    About 1 for directions spread evenly over the sphere, 0 when every
    prediction points the same way (representation collapse).
    """
    unit = F.normalize(predicted.float(), dim=-1)
    return float(unit.std(dim=0).mean() * math.sqrt(unit.shape[1]))


class SurfaceLoss(nn.Module):
    """Criterion on packed targets ``(B, 2, K)`` (labels, mask of known cells): surface BCE or survival NLL.

    With several causes the output is (B, 1 + n_causes, K) and the targets
    (B, 3, K), the third row holding each window's cause: the loss of the
    any-event hazard plus :func:`~hepa_sklearn.nn.losses.cause_cross_entropy`.
    """

    def __init__(self, pos_weight=1.0, loss="bce"):
        super().__init__()
        self.pos_weight = pos_weight
        self.loss = loss

    def __setstate__(self, state):
        # pickled before 0.3.0, which named loss ``kind``
        if "kind" in state:
            state["loss"] = state.pop("kind")
        super().__setstate__(state)

    def forward(self, output, packed):
        hazard_logits = output[:, 0] if output.dim() == 3 else output
        if self.loss == "nll":
            loss = survival_nll(hazard_logits, packed[:, 0], packed[:, 1])
        else:
            loss = surface_bce(hazard_logits, packed[:, 0], packed[:, 1], self.pos_weight)
        if output.dim() == 3:
            loss = loss + cause_cross_entropy(output[:, 1:], packed[:, 0], packed[:, 2, 0])
        return loss


class ReconstructionLoss(nn.Module):
    """Mean squared error over the weighted values of the module's ``(reconstruction, target, weight)`` output.

    Masked-patch pretraining weighs the observed values of the masked
    patches by 1 and every other value by 0.
    """

    def forward(self, y_pred, y_true=None):
        reconstruction, target, weight = y_pred
        return ((reconstruction - target).square() * weight).sum() / weight.sum().clamp(min=1)
