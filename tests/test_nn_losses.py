import math

import pytest
import torch

from hepa_sklearn.nn import jepa_loss, surface_bce


def test_surface_bce_hand_computed_with_mask_and_pos_weight():
    hazards = torch.tensor([[0.5, 0.5]])
    logits = torch.log(hazards / (1 - hazards))  # p = [0.5, 0.75]
    labels = torch.tensor([[0.0, 1.0]])
    known = torch.tensor([[1.0, 1.0]])
    expected = -(math.log(0.5) + 3.0 * math.log(0.75))
    assert math.isclose(surface_bce(logits, labels, known, 3.0).item(), expected, rel_tol=1e-5)
    masked = surface_bce(logits, labels, torch.tensor([[1.0, 0.0]]), 3.0)
    assert math.isclose(masked.item(), -math.log(0.5), rel_tol=1e-5)


def test_surface_bce_averages_over_windows_and_stays_finite_at_extremes():
    logits = torch.tensor([[-80.0, -80.0], [80.0, 80.0]], requires_grad=True)
    labels = torch.tensor([[1.0, 1.0], [0.0, 0.0]])
    loss = surface_bce(logits, labels, torch.ones(2, 2), 1.0)
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(logits.grad).all()
    assert loss.item() > 10


def test_jepa_loss_is_l1_on_normalised_vectors_plus_weighted_sigreg():
    predicted = torch.tensor([[3.0, 4.0], [1.0, 0.0]])
    target = torch.tensor([[6.0, 8.0], [0.0, 2.0]])
    # first pair identical after normalisation; second: |1-0| + |0-1| over 2 entries = 1
    loss, l1 = jepa_loss(predicted, target, torch.tensor(2.0), regularizer_weight=0.1)
    assert math.isclose(l1.item(), 0.5, rel_tol=1e-6)
    assert math.isclose(loss.item(), 0.9 * 0.5 + 0.1 * 2.0, rel_tol=1e-6)
    _, weighted = jepa_loss(predicted, target, torch.tensor(0.0), weight=torch.tensor([1.0, 0.0]))
    assert weighted.item() == 0.0


def test_survival_nll_hand_computed():
    from hepa_sklearn.nn.losses import survival_nll

    # hazards 0.5 everywhere (logit 0), K = 3
    logits = torch.zeros(3, 3)
    # row 0: event at step 2 -> log λ2 + log(1 - λ1) = 2 log 0.5
    # row 1: censored, known to survive 3 steps -> 3 log 0.5
    # row 2: censored after 1 step (cells 2, 3 unknown) -> log 0.5
    labels = torch.tensor([[0.0, 1, 1], [0, 0, 0], [0, 0, 0]])
    known = torch.tensor([[1.0, 1, 1], [1, 1, 1], [1, 0, 0]])
    expected = -(2 + 3 + 1) * math.log(0.5) / 3
    assert survival_nll(logits, labels, known).item() == pytest.approx(expected)


def test_survival_nll_is_the_likelihood_of_the_event_time():
    from hepa_sklearn.nn.losses import survival_nll
    from hepa_sklearn.nn.predictor import log_survival

    logits = torch.randn(1, 6)
    hazard = torch.sigmoid(logits)[0]
    labels = torch.tensor([[0.0, 0, 0, 1, 1, 1]])  # event at step 4
    probability = (1 - hazard[:3]).prod() * hazard[3]
    assert survival_nll(logits, labels, torch.ones(1, 6)).item() == pytest.approx(-math.log(probability), rel=1e-5)
    # surviving all 6 steps has probability exp(log S(6))
    survive = survival_nll(logits, torch.zeros(1, 6), torch.ones(1, 6)).item()
    assert survive == pytest.approx(-log_survival(logits)[0, -1].item(), rel=1e-5)
