import math

import pytest
import torch

from hepa_sklearn.nn import EppsPulley, SIGReg

# ∫ (1 - e^{-t²}) e^{-t²/2} dt over the real line: the statistic's mean under N(0, 1)
GAUSSIAN_MEAN = math.sqrt(2 * math.pi) - math.sqrt(2 * math.pi / 3)


@pytest.mark.parametrize("n", [64, 256])
def test_sigreg_is_about_1_05_on_gaussian_samples_for_any_batch_size(n):
    torch.manual_seed(0)
    values = torch.stack([SIGReg(n_projections=64)(torch.randn(n, 32)) for _ in range(20)])
    assert abs(values.mean().item() - GAUSSIAN_MEAN) < 0.1
    assert abs(GAUSSIAN_MEAN - 1.06) < 0.01


def test_sigreg_is_large_on_collapsed_samples_and_grows_with_batch():
    torch.manual_seed(0)
    collapsed_small = SIGReg()(torch.ones(64, 32))
    collapsed_large = SIGReg()(torch.ones(256, 32))
    assert collapsed_small > 10
    assert collapsed_large / collapsed_small == pytest.approx(4.0, rel=0.05)


def test_sigreg_penalises_wrong_scale():
    torch.manual_seed(0)
    gaussian = SIGReg()(torch.randn(256, 16))
    shrunk = SIGReg()(0.1 * torch.randn(256, 16))
    assert shrunk > 10 * gaussian


def test_epps_pulley_hand_computed_on_a_point_mass_at_zero():
    # all samples at 0: φ_N(t) = 1, so T = N ∫ (1 - e^{-t²/2})² e^{-t²/2} dt (trapezoid on 17 knots)
    statistic = EppsPulley()
    knots = torch.linspace(-3, 3, 17)
    integrand = (1 - torch.exp(-(knots**2) / 2)) ** 2 * torch.exp(-(knots**2) / 2)
    expected = 10 * torch.trapezoid(integrand, knots)
    value = statistic(torch.zeros(10, 1))
    assert value.shape == (1,)
    assert torch.isclose(value[0], expected, rtol=1e-5)


def test_sigreg_uses_fresh_directions_reproducible_with_seed():
    z = torch.randn(32, 8)
    torch.manual_seed(1)
    first = SIGReg(n_projections=4)(z)
    second = SIGReg(n_projections=4)(z)
    torch.manual_seed(1)
    again = SIGReg(n_projections=4)(z)
    assert first == again and first != second


def test_sigreg_gradient_is_finite():
    z = torch.randn(16, 8, requires_grad=True)
    SIGReg()(z).backward()
    assert torch.isfinite(z.grad).all() and z.grad.abs().sum() > 0


def test_variance_covariance_is_near_zero_for_whitened_and_large_for_collapsed_batches():
    from hepa_sklearn.nn.sigreg import VarianceCovariance

    torch.manual_seed(0)
    regulariser = VarianceCovariance()
    white = torch.randn(4096, 8)
    assert regulariser(white).item() < 0.02
    collapsed = torch.zeros(64, 8)
    # std = sqrt(eps) = 0.01 per dimension: variance term 0.99, no covariance
    assert regulariser(collapsed).item() == pytest.approx(0.99, abs=1e-6)
    line = torch.randn(512, 1).repeat(1, 4)  # four copies of one coordinate
    # variance term ~0; each of the 12 off-diagonal covariances ~1, divided by d = 4
    assert regulariser(line).item() == pytest.approx(3.0, rel=0.2)
