"""Collapse regularisers: SIGReg (Epps–Pulley on random projections) and VICReg-style variance + covariance."""

import torch
from torch import nn

# Random directions per SIGReg evaluation: the paper's 256 (§3.1). 1024 gave
# no gain on C-MAPSS over five seeds (docs/user_guide.md, "hepa-proj1024").
SIGREG_PROJECTIONS = 256


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
        # The integrand is even in t (cos is even, sin odd, the knots and weights symmetric
        # about 0), and it is 0 at t = 0: the knots t > 0 with twice their weight give the
        # same sum with half the cosines and sines.
        positive = knots > 0
        self.register_buffer("positive_knots", knots[positive], persistent=False)
        self.register_buffer("positive_cf", self.gaussian_cf[positive], persistent=False)
        self.register_buffer("positive_weights", 2 * self.weights[positive], persistent=False)

    def forward(self, z):
        N = z.shape[0]
        angles = z[..., None] * self.positive_knots  # (N, M, knots > 0)
        real = torch.cos(angles).mean(0) - self.positive_cf  # (M, knots > 0)
        imaginary = torch.sin(angles).mean(0)
        return N * ((real.square() + imaginary.square()) * self.positive_weights).sum(-1)  # (M,)


class SIGReg(nn.Module):
    """Mean Epps–Pulley statistic over random unit projections of a batch (N, d).

    Fresh directions are drawn from torch's generator at every call, so a
    fixed seed reproduces them.

    Parameters
    ----------
    n_projections : int, default=SIGREG_PROJECTIONS
        Number of random unit directions per call.
    n_knots : int, default=17
        Trapezoid knots on [-3, 3] (the paper, §3.1).
    """

    def __init__(self, n_projections=SIGREG_PROJECTIONS, n_knots=17):
        super().__init__()
        self.n_projections = n_projections
        self.statistic = EppsPulley(n_knots=n_knots)

    def forward(self, z):
        directions = torch.randn(z.shape[1], self.n_projections, device=z.device, dtype=z.dtype)
        directions = directions / directions.norm(dim=0, keepdim=True)
        return self.statistic(z @ directions).mean()


class VarianceCovariance(nn.Module):
    """VICReg-style variance and covariance terms on a batch (N, d), the reference code's regulariser.

    ``mean_j relu(1 - sqrt(Var z_j + eps)) + Σ_{i≠j} Cov(z)_ij² / d``
    (Bardes, Ponce and LeCun 2022, without the invariance term, which the
    JEPA prediction loss plays). Zero for whitened batches; large when the
    batch collapses to a point or to a low-dimensional subspace.
    """

    def __init__(self, eps=1e-4):
        super().__init__()
        self.eps = eps

    def forward(self, z):
        N, d = z.shape
        centred = z - z.mean(0)
        std = torch.sqrt(centred.square().sum(0) / (N - 1) + self.eps)
        variance = torch.relu(1 - std).mean()
        covariance = centred.T @ centred / (N - 1)  # (d, d)
        off_diagonal = covariance.square().sum() - covariance.diagonal().square().sum()
        return variance + off_diagonal / d
