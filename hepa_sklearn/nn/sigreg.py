"""SIGReg: sketched isotropic Gaussian regularisation by the Epps–Pulley statistic."""

import torch
from torch import nn


class EppsPulley(nn.Module):
    """Epps–Pulley test statistic of 1-D samples against N(0, 1).

    For samples ``z`` (N, M) (M independent 1-D samples of size N)::

        T = N * ∫ |φ_N(t) - exp(-t²/2)|² exp(-t²/2) dt,  t in [-t_max, t_max]

    with the empirical characteristic function φ_N(t) = mean_n exp(i t z_n),
    integrated by the trapezoid rule on ``n_knots`` points. Under the null its
    expectation is ∫ (1 - exp(-t²)) exp(-t²/2) dt ≈ 1.05 for every N; for a
    fixed non-Gaussian law it grows linearly in N.
    """

    def __init__(self, n_knots=17, t_max=3.0):
        super().__init__()
        knots = torch.linspace(-t_max, t_max, n_knots)
        step = 2 * t_max / (n_knots - 1)
        trapezoid = torch.full((n_knots,), step)
        trapezoid[[0, -1]] = step / 2
        self.register_buffer("knots", knots)
        self.register_buffer("gaussian_cf", torch.exp(-knots.square() / 2))
        self.register_buffer("weights", trapezoid * torch.exp(-knots.square() / 2))

    def forward(self, z):
        N = z.shape[0]
        angles = z[..., None] * self.knots  # (N, M, knots)
        real = torch.cos(angles).mean(0) - self.gaussian_cf  # (M, knots)
        imaginary = torch.sin(angles).mean(0)
        return N * ((real.square() + imaginary.square()) * self.weights).sum(-1)  # (M,)


class SIGReg(nn.Module):
    """Mean Epps–Pulley statistic over random unit projections of a batch (N, d).

    Fresh directions are drawn from torch's generator at every call, so a
    fixed seed reproduces them.

    Parameters
    ----------
    n_projections : int, default=256
        Number of random unit directions per call.
    n_knots : int, default=17
        Trapezoid knots on [-3, 3] (PAPER_NOTES §2).
    """

    def __init__(self, n_projections=256, n_knots=17):
        super().__init__()
        self.n_projections = n_projections
        self.statistic = EppsPulley(n_knots=n_knots)

    def forward(self, z):
        directions = torch.randn(z.shape[1], self.n_projections, device=z.device, dtype=z.dtype)
        directions = directions / directions.norm(dim=0, keepdim=True)
        return self.statistic(z @ directions).mean()

