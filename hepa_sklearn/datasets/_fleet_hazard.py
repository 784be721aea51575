"""The discrete-time hazard of a simulated fleet and its exact oracle surfaces.

A unit's damage in failure mode ``m`` grows linearly from its initial wear,
``d_m(s) = w_m + r_m s`` at step ``s``. At each step ``s >= 1`` every mode
has a rate ``lambda_m(s) = scale * exp(growth * (d_m(s) - 1))``, so that
``scale`` is the rate at damage 1 and each unit of damage multiplies it by
``e**growth``. A unit alive at step ``s - 1`` fails at step ``s`` with
probability ``1 - exp(-Lambda(s))``, ``Lambda = sum_m lambda_m``, and the
failure is of mode ``m`` with probability ``lambda_m(s) / Lambda(s)``: the
modes are competing exponential clocks within each step.

Given ``(w, r)``, the damage path and so every future hazard is known, and
the surfaces below are exact (no sampling):

- any event: ``P(F <= t + k | F > t) = 1 - exp(H(t) - H(t + k))``, with
  ``H(s) = sum_{i <= s} Lambda(i)``;
- mode ``m``: ``sum_{j <= k} exp(H(t) - H(t + j - 1)) (1 - exp(-Lambda(t + j)))
  lambda_m(t + j) / Lambda(t + j)``, which sum over the modes to the first.

A steep hazard (a large ``growth`` or ``scale``) overflows a rate to
infinity a few steps past damage 1: failure at that step is then certain,
``H`` is infinite from there on and a survival across it is 0. Every
function below keeps to that limit without an undefined operation: a
mode's share of the rate is taken from the log rates, normalised by the
largest before exponentiating, wherever the total is not a finite positive
number, and the survival from a step whose ``H`` is already infinite (the
window ending at the failure step) sums the rates ahead of it instead of
subtracting two infinities.
"""

import numpy as np

__all__ = ["age_surface", "draw_failure", "mode_rates", "mode_shares", "oracle_surfaces"]


def _damage(wear, rate, steps):
    return wear[None, :] + rate[None, :] * np.asarray(steps, dtype=float)[:, None]


def _total(rates):
    """``Lambda``: the sum over the modes (the last axis), ``inf`` past the largest float, not warning."""
    with np.errstate(over="ignore"):
        return rates.sum(axis=-1)


def mode_rates(wear, rate, steps, *, scale, growth):
    """``lambda_m(s)`` of one unit, shape (len(steps), n_modes), from its wear and rate per mode (n_modes,).

    A rate past the largest float is ``inf`` (failure certain), one below
    the smallest is 0; neither warns.
    """
    with np.errstate(over="ignore", under="ignore"):
        return scale * np.exp(growth * (_damage(wear, rate, steps) - 1.0))


def mode_shares(wear, rate, steps, rates, *, scale, growth):
    """``lambda_m(s) / Lambda(s)``, shape (len(steps), n_modes), from those steps' ``mode_rates``.

    Where ``Lambda`` is a finite positive number the ratio itself; where it
    overflowed, ``exp(growth * (d_m - max_m d_m))`` normalised, the log rates
    less their largest before exponentiating (so an infinite rate keeps its
    share); 0 where every rate is 0.
    """
    total = _total(rates)
    shares = rates / np.where((total > 0) & np.isfinite(total), total, 1.0)[:, None]
    steep = np.isinf(total)
    if steep.any():
        damage = _damage(wear, rate, np.asarray(steps)[steep])
        with np.errstate(over="ignore", under="ignore"):
            weights = np.exp(growth * (damage - damage.max(axis=1, keepdims=True)))  # the largest is 1
        shares[steep] = weights / weights.sum(axis=1, keepdims=True)
    return shares


def _cumulative(wear, rate, n_steps, *, scale, growth):
    """``(lambda, H)``: rates at steps 0..n_steps-1 (step 0's unused, set to 0) and H(s) with H(0) = 0."""
    rates = mode_rates(wear, rate, np.arange(n_steps), scale=scale, growth=growth)
    rates[0] = 0.0  # a unit is alive at its first step
    with np.errstate(over="ignore"):
        return rates, np.cumsum(_total(rates))


def draw_failure(wear, rate, rng, *, scale, growth, max_steps):
    """``(failure step, mode)`` of one unit: the first step whose H reaches an Exp(1) draw, the mode by its rate share.

    ``P(F > s) = exp(-H(s))`` is the survival of the per-step hazard in the
    module docstring. Raises ValueError when the unit would outlive
    ``max_steps`` steps (a hazard that barely grows).
    """
    threshold = rng.exponential()
    n_steps = 256
    while True:
        rates, H = _cumulative(wear, rate, n_steps, scale=scale, growth=growth)
        reached = np.flatnonzero(H >= threshold)
        if reached.size:
            step = int(reached[0])
            share = mode_shares(wear, rate, [step], rates[step : step + 1], scale=scale, growth=growth)[0]
            return step, int(rng.choice(rates.shape[1], p=share))
        if n_steps >= max_steps:
            raise ValueError(
                f"a unit survived {max_steps} steps: degradation_rate, hazard_scale or hazard_growth is too "
                "small for the fleet to fail; raise one of them."
            )
        n_steps = min(2 * n_steps, max_steps)


def oracle_surfaces(wear, rate, ends, K, *, scale, growth):
    """The any-event surface (len(ends), K) and the per-mode incidences (len(ends), n_modes, K) of one unit.

    ``ends`` are the steps at which windows end; the unit is known to be
    alive there.

    Examples
    --------
    One mode whose rate is ``scale`` at every step (damage fixed at 1):

    >>> import numpy as np
    >>> P, by_mode = oracle_surfaces(np.array([1.0]), np.array([0.0]), np.array([3]), 2,
    ...                              scale=np.log(2), growth=1.0)
    >>> P.round(3).tolist()
    [[0.5, 0.75]]
    >>> bool(np.allclose(by_mode.sum(axis=1), P))
    True
    """
    ends = np.asarray(ends, dtype=np.int64)
    n_steps = (int(ends.max()) if ends.size else 0) + K + 1
    rates, H = _cumulative(wear, rate, n_steps, scale=scale, growth=growth)
    ahead = ends[:, None] + np.arange(0, K + 1)[None, :]  # (n, K + 1): steps t, t+1, ..., t+K
    total = _total(rates)
    with np.errstate(invalid="ignore"):
        reached = H[ends][:, None] - H[ahead]  # -(H(t + j) - H(t)); NaN where H(t) is already infinite
    past = np.isinf(H[ends])
    with np.errstate(over="ignore"):
        reached[past] = -np.cumsum(np.hstack([np.zeros((past.sum(), 1)), total[ahead[past, 1:]]]), axis=1)
    survival = np.exp(reached)  # (n, K + 1): P(F > t + j | F > t)
    P = 1.0 - survival[:, 1:]
    fail_now = -np.expm1(-total[ahead[:, 1:]])  # (n, K): P(fail at t + j | alive at t + j - 1)
    every_share = mode_shares(wear, rate, np.arange(n_steps), rates, scale=scale, growth=growth)
    share = every_share[ahead[:, 1:]]  # (n, K, n_modes)
    by_mode = np.cumsum((survival[:, :-1] * fail_now)[..., None] * share, axis=1)  # (n, K, n_modes)
    return P, by_mode.transpose(0, 2, 1)


def age_surface(wear, rate, ages, K, *, scale, growth):
    """The age-only oracle: ``P(F <= a + k | F > a)`` over a population of units, shape (len(ages), K).

    ``wear`` and ``rate`` (n_draws, n_modes) are draws of the fleet's prior;
    the population survival ``E[exp(-H(s))]`` is their mean, so the surface
    is exact for that population and a Monte Carlo estimate of the prior's.
    """
    ages = np.asarray(ages, dtype=np.int64)
    n_steps = (int(ages.max()) if ages.size else 0) + K + 1
    survival = np.zeros(n_steps)
    for w, r in zip(wear, rate, strict=True):
        survival += np.exp(-_cumulative(w, r, n_steps, scale=scale, growth=growth)[1])
    ahead = ages[:, None] + np.arange(1, K + 1)[None, :]
    alive = survival[ages][:, None]
    return 1.0 - np.divide(survival[ahead], alive, out=np.zeros(ahead.shape), where=alive > 0)
