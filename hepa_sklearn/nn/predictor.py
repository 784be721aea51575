"""Horizon-conditioned predictor g(h_t, Δt) and the hazard head of the event surface."""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class HorizonPredictor(nn.Module):
    """MLP on ``[h_t ; Δt / horizon_scale]``: Linear(d+1, H)-GELU-Linear(H, H)-GELU-Linear(H, d).

    The first layer is linear in its input, so its ``h_t`` part is computed
    once per window and the ``Δt`` part is a rank-one term added for each
    horizon; evaluating all ``K`` horizons never copies ``h_t`` ``K`` times.

    Parameters
    ----------
    d_model : int
        Width of ``h_t`` and of the output.
    hidden : int, default=256
        Width of the two hidden layers (paper: 256, 197.6K parameters for d=256).
    horizon_scale : float, default=1.0
        ``Δt`` is divided by this before entering the network.
    """

    def __init__(self, d_model, hidden=256, horizon_scale=1.0):
        super().__init__()
        self.d_model = d_model
        self.horizon_scale = float(horizon_scale)
        self.input = nn.Linear(d_model + 1, hidden)
        self.body = nn.Sequential(nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, d_model))

    def _split_input(self, h):
        weight = self.input.weight  # (hidden, d_model + 1)
        return F.linear(h, weight[:, : self.d_model], self.input.bias), weight[:, self.d_model]

    def forward(self, h, horizons):
        """Predicted representation at one horizon per window: ``h`` (B, d), ``horizons`` (B,) -> (B, d)."""
        from_state, horizon_weight = self._split_input(h)  # (B, H), (H,)
        scaled = horizons.to(h.dtype) / self.horizon_scale
        return self.body(from_state + scaled[:, None] * horizon_weight)

    def grid(self, h, horizons):
        """Predictions at every horizon of ``horizons`` (K,) for each window: (B, K, d)."""
        from_state, horizon_weight = self._split_input(h)
        scaled = horizons.to(h.dtype) / self.horizon_scale
        return self.body(from_state[:, None, :] + scaled[None, :, None] * horizon_weight)


class HazardHead(nn.Module):
    """LayerNorm(d) -> Linear(d, 1): the logit of the conditional hazard λ_Δt."""

    def __init__(self, d_model):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.linear = nn.Linear(d_model, 1)

    def forward(self, z):
        # Linear(d, 1) as a matrix-vector product: the same sum, but its input gradient is an
        # outer product instead of a matrix product with one inner dimension, 3.2 against 6.9 ms
        # forward and backward at (64, 150, 256) on one CPU thread
        return torch.matmul(self.norm(z), self.linear.weight[0]) + self.linear.bias


def log_survival(hazard_logits):
    """log Π_{j<=k} (1 - λ_j) for every k, from hazard logits (..., K)."""
    return torch.cumsum(F.logsigmoid(-hazard_logits), dim=-1)


def event_surface(hazard_logits):
    """Cumulative event probability p(Δt) = 1 - Π_{j<=Δt} (1 - λ_j), non-decreasing in Δt."""
    return -torch.expm1(log_survival(hazard_logits))


class CauseHead(nn.Module):
    """LayerNorm(d) -> Linear(d, n_causes): the logits of each cause's share of the event at a horizon."""

    def __init__(self, d_model, n_causes):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.linear = nn.Linear(d_model, n_causes)

    def forward(self, z):
        return self.linear(self.norm(z))  # (..., n_causes)


def knot_horizons(K, horizon_knots):
    """The horizons at which the predictor runs: ``horizon_knots`` spread evenly over ``1..K``, both ends in.

    ``None``, or at least ``K`` knots, gives every horizon ``1..K``. The
    knots are whole horizons, so fewer than ``horizon_knots`` remain when
    rounding makes two of them equal.
    """
    if horizon_knots is None or horizon_knots >= K:
        return np.arange(1, K + 1)
    if horizon_knots < 2:
        raise ValueError(f"horizon_knots must be at least 2 (both ends of 1..K), got {horizon_knots}.")
    return np.unique(np.rint(np.linspace(1, K, horizon_knots)).astype(int))


def interpolation_matrix(knots, K):
    """The (len(knots), K) matrix that maps values at ``knots`` to every horizon ``1..K`` by linear interpolation.

    Column ``k - 1`` holds the weights of horizon ``k``: ``1 - w`` on the knot
    at or below it and ``w`` on the next one, ``w`` its fractional position
    between the two; a knot's own column is one-hot.
    """
    knots = np.asarray(knots)
    horizons = np.arange(1, K + 1)
    left = np.clip(np.searchsorted(knots, horizons, side="right") - 1, 0, len(knots) - 2)
    weight = (horizons - knots[left]) / (knots[left + 1] - knots[left])
    matrix = np.zeros((len(knots), K))
    matrix[left, horizons - 1] = 1.0 - weight
    matrix[left + 1, horizons - 1] += weight
    return matrix


class EventModel(nn.Module):
    """Hazard logits at horizons 1..K from embeddings (B, d), and with several causes each cause's share.

    ``head="mlp"``: the horizon predictor + hazard head (pred-FT).
    ``head="linear"``: a linear probe, one ``Linear(d, K)`` map from ``h_t``
    to the K hazard logits.

    With ``n_causes=1`` the output is the hazard logits (B, K). With more,
    it is (B, 1 + n_causes, K): the any-event hazard logits first, then the
    logits of each cause's share of an event at each horizon (a softmax over
    the causes, :func:`hepa_sklearn.causes.cumulative_incidence`), from a
    :class:`CauseHead` on the predictor's output (``"mlp"``) or a second
    linear map (``"linear"``). The cause parts are built after the others,
    so a model of one cause starts from the same weights as without them.

    With ``horizon_knots`` (``"mlp"`` only), the predictor and the heads
    run at the horizons of :func:`knot_horizons` alone, and the logits of
    the horizons between two knots are interpolated linearly from theirs:
    the cost of the predictor falls by about ``K / horizon_knots``. The
    hazard stays a sigmoid of a logit at every horizon, so the surface
    stays non-decreasing.

    The parameters are those of :class:`~hepa_sklearn.HEPAEventPredictor`
    of the same names; ``head`` chooses the modules (the submodule
    ``head`` is the :class:`HazardHead` of ``"mlp"``).
    """

    def __init__(self, d_model, hidden, K, horizon_scale, head="mlp", n_causes=1, horizon_knots=None):
        super().__init__()
        if head not in ("mlp", "linear"):
            raise ValueError(f"head must be 'mlp' or 'linear', got {head!r}.")
        self.n_causes = n_causes
        self.register_buffer("interpolation", None)  # (horizon_knots, K) when the predictor runs at knots
        if head == "mlp":
            self.predictor = HorizonPredictor(d_model, hidden, horizon_scale)
            self.head = HazardHead(d_model)
            knots = knot_horizons(K, horizon_knots)
            self.register_buffer("horizons", torch.as_tensor(knots, dtype=torch.float32))
            if len(knots) < K:
                matrix = interpolation_matrix(knots, K)
                self.register_buffer("interpolation", torch.as_tensor(matrix, dtype=torch.float32))
        else:
            self.probe = nn.Linear(d_model, K)
        if n_causes > 1:
            self.causes = CauseHead(d_model, n_causes) if head == "mlp" else nn.Linear(d_model, n_causes * K)

    @property
    def linear_probe(self):
        """Whether this is ``head="linear"``: read from the modules, which a pickle of 0.2.0 holds too."""
        return "probe" in self._modules

    def forward(self, X):
        if self.linear_probe:
            hazard = self.probe(X)  # (B, K)
            if self.n_causes == 1:
                return hazard
            shares = self.causes(X).view(X.shape[0], self.n_causes, -1)  # (B, n_causes, K)
        else:
            z = self.predictor.grid(X, self.horizons)  # (B, K, d), or (B, knots, d) with horizon_knots
            hazard = self.head(z)  # (B, K) or (B, knots)
            shares = self.causes(z).transpose(1, 2) if self.n_causes > 1 else None  # (B, n_causes, K|knots)
            if self.interpolation is not None:  # from the knots to every horizon
                hazard = hazard @ self.interpolation
                shares = None if shares is None else shares @ self.interpolation
            if shares is None:
                return hazard
        return torch.cat([hazard[:, None, :], shares], dim=1)  # (B, 1 + n_causes, K)
