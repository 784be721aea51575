"""Simulated run-to-failure fleets whose failure hazard is known, with the oracle surface of every window."""

from numbers import Real

import numpy as np
import pandas as pd
from scipy.special import ndtri
from sklearn.utils import Bunch, check_random_state

from .._validation import (
    NON_NEGATIVE_INT,
    NON_NEGATIVE_REAL,
    POSITIVE_INT,
    POSITIVE_REAL,
    UNIT,
    Interval,
    StrOptions,
    validate_params,
)
from ..windows import make_windows
from ._fleet_hazard import age_surface, draw_failure, oracle_surfaces

__all__ = ["SENSOR_SHAPES", "make_fleet"]

#: How the informative sensors read their mode's damage ``d`` (0 new, about 1
#: at failure), assigned in this order, cycling: in proportion, convex (wear
#: that shows late), ``LAG`` steps behind, and flattening out (a reading that
#: stops moving before failure, so the late life is seen only by the others).
SENSOR_SHAPES = ("linear", "curved", "lagged", "saturating")
LAG = 10  # steps a lagged sensor trails its damage: a tenth of the default fleet's median life (~100 steps)
SATURATION = 3.0  # tanh(3 d): past d = 0.5 a saturating sensor has covered 80 % of its range
AGE_DRAWS = 4096  # prior draws of the age-only oracle: the population survival's standard error <= 0.5 / 64
MAX_STEPS = 100_000  # a unit still running after this many steps means the hazard cannot make it fail
UNIT_SAMPLING = ("independent", "even")

_DESCR = """\
Simulated run-to-failure fleet
==============================

{n_units} units, {n_modes} failure mode(s), {n_rows} rows, {n_windows} windows;
{n_failed} units run to failure, {n_censored} are cut short while running.
Each unit's damage in mode m grows from its initial wear at its own rate,
d_m(s) = w_m + r_m s; at each step every mode has the hazard rate
{hazard_scale} * exp({hazard_growth} * (d_m - 1)) and the unit fails when the
modes' combined per-step hazard strikes, so the failure time is random even
given the damage. Sensors: {n_informative} informative ({shapes}) and
{n_uninformative} that carry nothing; every sensor is shifted by the step's
operating regime (one of {n_regimes}, drawn at random each step, shift scale
{regime_shift}) and read with Gaussian noise of scale {noise}.

``oracle`` is P(failure within k steps | damage and rates at the window's
end), exact; no model of the sensors can do better on average, so its score
is the ceiling of the task. ``age_oracle`` is the same probability given the
unit's age alone.
"""


def _validate(n_modes, n_informative):
    if n_informative < n_modes:
        raise ValueError(
            f"n_informative={n_informative} leaves failure mode(s) {list(range(n_informative, n_modes))} without a "
            f"sensor: each of the n_modes={n_modes} modes needs at least one informative sensor, so n_informative "
            f"must be at least n_modes."
        )


def _read(damage, shape):
    """One informative sensor's clean reading of its mode's damage path (n_steps,)."""
    if shape == "linear":
        return damage
    if shape == "curved":
        return damage**2
    if shape == "lagged":
        return np.concatenate([np.full(LAG, damage[0]), damage[:-LAG]])[: damage.shape[0]]
    return np.tanh(SATURATION * damage) / np.tanh(SATURATION)


def _even_quantiles(rng, n_units, n_dims):
    """Quantiles (n_units, n_dims) in (0, 1): a Kronecker sequence with a uniform random shift.

    Unit ``i`` gets ``frac(shift + i * alpha)``, ``alpha_j = g**-j`` for the
    ``g`` with ``g**(n_dims + 1) = g + 1`` (the generalised golden ratio),
    so that any run of consecutive units fills the unit cube evenly, while
    the shift makes each unit's quantiles uniform and independent across
    dimensions, as independent draws are.
    """
    g = 2.0
    for _ in range(64):  # the fixed point of g = (1 + g) ** (1 / (n_dims + 1)), reached in far fewer steps
        g = (1.0 + g) ** (1.0 / (n_dims + 1))
    alpha = g ** -np.arange(1.0, n_dims + 1)
    quantiles = (rng.random(n_dims)[None, :] + np.arange(n_units)[:, None] * alpha[None, :]) % 1.0
    return np.clip(quantiles, 2.0**-53, 1.0 - 2.0**-53)  # no rate of 0: every unit fails


def _draw_units(rng, n_units, n_modes, degradation_rate, rate_spread, initial_wear, sampling="independent"):
    """Initial wear (uniform on [0, initial_wear)) and log-normal rates around ``degradation_rate``, (n_units,
    n_modes); ``sampling="even"`` takes them at the quantiles of :func:`_even_quantiles`."""
    if sampling == "even":
        quantiles = _even_quantiles(rng, n_units, 2 * n_modes)
        wear = initial_wear * quantiles[:, :n_modes]
        return wear, degradation_rate * np.exp(rate_spread * ndtri(quantiles[:, n_modes:]))
    wear = rng.uniform(0.0, initial_wear, size=(n_units, n_modes))
    rate = degradation_rate * np.exp(rate_spread * rng.standard_normal((n_units, n_modes)))
    return wear, rate


@validate_params(
    {
        "n_units": [POSITIVE_INT],
        "n_modes": [POSITIVE_INT],
        "n_informative": [POSITIVE_INT],
        "n_uninformative": [NON_NEGATIVE_INT],
        "n_regimes": [POSITIVE_INT],
        "regime_shift": [NON_NEGATIVE_REAL],
        "noise": [NON_NEGATIVE_REAL],
        "degradation_rate": [POSITIVE_REAL],
        "rate_spread": [NON_NEGATIVE_REAL],
        "initial_wear": [Interval(Real, 0, 1, closed="left")],
        "hazard_scale": [POSITIVE_REAL],
        "hazard_growth": [POSITIVE_REAL],
        "censoring": [UNIT],
        "unit_sampling": [StrOptions(set(UNIT_SAMPLING))],
        "K": [POSITIVE_INT],
        "context_length": [POSITIVE_INT],
        "stride": [POSITIVE_INT],
        "min_history": [POSITIVE_INT],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_fleet(
    n_units=100,
    *,
    n_modes=1,
    n_informative=8,
    n_uninformative=4,
    n_regimes=6,
    regime_shift=3.0,
    noise=0.15,
    degradation_rate=0.008,
    rate_spread=0.3,
    initial_wear=0.2,
    hazard_scale=0.1,
    hazard_growth=8.0,
    censoring=0.3,
    unit_sampling="independent",
    K=50,
    context_length=128,
    stride=1,
    min_history=1,
    random_state=None,
):
    """Simulate a run-to-failure fleet whose hazard is known, as windows with their oracle surfaces.

    Every unit starts new at step 0 with a hidden damage per failure mode,
    ``d_m(s) = w_m + r_m s``: initial wear ``w_m`` and a degradation rate
    ``r_m`` of its own. At each step a mode's hazard rate is
    ``hazard_scale * exp(hazard_growth * (d_m - 1))``; the unit fails at the
    step where the modes' combined hazard strikes (competing per-step
    risks), so its failure time is random even given its damage. Sensors
    read the damage through different shapes (:data:`SENSOR_SHAPES`), are
    shifted by the operating regime of the step and read with noise; some
    carry nothing. The oracle knows ``(w, r)``, hence the whole future
    hazard, and gives every window's surface exactly: it is an upper bound
    on what any model of the sensors can reach (on average, by any proper
    score). The defaults were fixed before any method was scored on them;
    their reasons are in the comments of each parameter.

    Parameters
    ----------
    n_units : int, default=100
        Units in the fleet (C-MAPSS FD001 has 100 training units).
    n_modes : int, default=1
        Failure modes, each with its own damage, rate and sensors (FD003 and
        FD004 have two).
    n_informative : int, default=8
        Sensors that read a mode's damage, assigned to modes in turn
        (sensor ``i`` reads mode ``i % n_modes``) and to the shapes of
        :data:`SENSOR_SHAPES` in turn, so the default has two of each
        shape. At least ``n_modes``.
    n_uninformative : int, default=4
        Sensors that carry nothing: the regime shift and noise alone, as the
        C-MAPSS sensors that stay flat within an operating condition.
    n_regimes : int, default=6
        Operating regimes, one drawn at random for each step (FD002's six
        operating conditions). 1: no regime.
    regime_shift : float, default=3.0
        Scale of each regime's offset of each sensor (standard normal times
        this), against a damage reading that moves by about 1 over a life:
        regimes dominate the raw readings, as in FD002.
    noise : float, default=0.15
        Standard deviation of the Gaussian noise of every reading, against
        that range of about 1 (a noisy but readable trend).
    degradation_rate : float, default=0.008
        Median damage per step; with the default hazard the median unit
        fails near step 95, so a window of 128 steps holds most lives.
    rate_spread : float, default=0.3
        Standard deviation of the log rate across units: the rate is what
        the sensors can tell and the age cannot (lives then range from about
        50 to 160 steps, 5th to 95th percentile).
    initial_wear : float, default=0.2
        Initial damage is uniform on ``[0, initial_wear)`` (C-MAPSS engines
        start with unknown wear).
    hazard_scale : float, default=0.1
        Hazard rate per step at damage 1.
    hazard_growth : float, default=8.0
        Each unit of damage multiplies the hazard rate by ``e**hazard_growth``.
        With the defaults, a unit of known damage and rate still fails
        anywhere from about 40 steps before to 20 steps after its median
        (5th to 95th percentile): an oracle far from certain, so its
        ceiling is below 1.
    censoring : float, default=0.3
        Share of units given a censoring step, uniform on ``[1, 2 /
        degradation_rate)`` and drawn independently of their failure; those
        whose failure comes later are cut short while still running (about
        an eighth of the fleet with the defaults), the others run to failure.
        Censoring is independent of the hazard, as the oracle assumes.
    unit_sampling : {"independent", "even"}, default="independent"
        How the units' wear and rates are drawn from their prior (and the
        age oracle's draws of it). ``"independent"``: each unit on its own.
        ``"even"``: at the quantiles of a Kronecker sequence with a random
        shift, so that any run of consecutive units (a part of the fleet, a
        few hundred units) holds close to the prior's mix of wear and rates.
        Each unit's wear and rates are still a draw of the prior, so both
        oracles stay exact; what changes is that fleets of different seeds
        differ less in their mix of lives, and so do their scores. The age
        oracle's 4096 draws are then an evenly spread sample of the prior.
        The runs are most even with one failure mode (two quantiles per
        unit); with more, each is about as even as independent draws.
    K : int, default=50
        Horizons ``1..K`` of the oracle surfaces (half the median life).
    context_length : int, default=128
        Steps per window.
    stride : int, default=1
        Steps between window ends, counted back from each unit's last step.
    min_history : int, default=1
        Least steps of a unit up to a window's end.
    random_state : int, RandomState instance or None, default=None
        Seed of every draw: equal seeds give equal fleets.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        X : ndarray of shape (n_windows, n_informative + n_uninformative, context_length), float32
            The windows, channels first; NaN is left padding.
        y : structured ndarray of shape (n_windows,)
            ``event`` and ``time``: steps to the failure after the window's
            end, or to the unit's last step when it is censored.
        groups : ndarray of shape (n_windows,), int
            Unit of each window.
        cause : ndarray of shape (n_windows,), int
            The failure mode ``m`` of each window's event as cause
            ``m + 1``, 0 where censored: ``make_survival_y(y["event"],
            y["time"], cause=cause)`` gives the labels of competing risks,
            whose exact incidences are ``oracle_by_mode``.
        index : DataFrame
            ``unit`` and ``step`` of each window's last step.
        oracle : ndarray of shape (n_windows, K)
            ``P(failure within k steps | w, r, alive at the window's end)``.
        oracle_by_mode : ndarray of shape (n_windows, n_modes, K)
            The incidence of each mode within k steps; they sum over the
            modes to ``oracle``.
        age_oracle : ndarray of shape (n_windows, K)
            The same probability given the unit's age alone (its step),
            over 4096 draws of the units' wear and rates.
        frame : DataFrame
            One row per (unit, step): ``unit``, ``step``, ``regime``, the
            sensors, ``failure`` (True at a failing unit's last step),
            ``mode`` (the failure's mode there, -1 elsewhere) and the hidden
            ``damage0``, ``damage1``, ... of each mode.
        units : DataFrame
            One row per unit: ``wear0``, ``rate0``, ... of each mode,
            ``failure_step`` and ``failure_mode`` (drawn even where censored),
            ``censor_step`` (-1 where none) and ``event`` (whether the
            failure is observed).
        feature_names : list of str
            The sensors, the channel order of ``X``.
        sensors : DataFrame
            Per sensor: ``mode`` (-1 for the uninformative) and ``shape``.
        DESCR : str
            A description of the fleet and its settings.

    See Also
    --------
    hepa_sklearn.windows.make_windows : How the windows and labels are cut.

    Examples
    --------
    >>> from hepa_sklearn.datasets import make_fleet
    >>> fleet = make_fleet(20, n_modes=2, stride=8, random_state=0)
    >>> fleet.X.shape[1:], fleet.oracle.shape[1], fleet.oracle_by_mode.shape[1]
    ((12, 128), 50, 2)
    >>> import numpy as np
    >>> bool(np.allclose(fleet.oracle_by_mode.sum(axis=1), fleet.oracle))
    True
    """
    _validate(n_modes, n_informative)
    rng = check_random_state(random_state)
    generator = np.random.default_rng(rng.randint(2**31))
    hazard = {"scale": hazard_scale, "growth": hazard_growth}
    n_sensors = n_informative + n_uninformative
    sensor_mode = np.r_[np.arange(n_informative) % n_modes, np.full(n_uninformative, -1)]
    shapes = [SENSOR_SHAPES[i % len(SENSOR_SHAPES)] for i in range(n_informative)] + ["none"] * n_uninformative
    names = [f"s{i + 1}" for i in range(n_sensors)]
    base = generator.standard_normal(n_sensors)
    gain = generator.choice([-1.0, 1.0], n_sensors) * generator.uniform(0.5, 1.5, n_sensors)
    shift = (
        regime_shift * generator.standard_normal((n_regimes, n_sensors)) if n_regimes > 1 else np.zeros((1, n_sensors))
    )
    prior = (n_modes, degradation_rate, rate_spread, initial_wear, unit_sampling)
    wear, rate = _draw_units(generator, n_units, *prior)

    columns, unit_rows = [], []  # per unit: (unit, step, regime, readings, failure, mode, damage)
    for unit in range(n_units):
        failure, mode = draw_failure(wear[unit], rate[unit], generator, max_steps=MAX_STEPS, **hazard)
        censored = generator.random() < censoring
        censor = int(generator.integers(1, max(2, int(np.ceil(2 / degradation_rate))))) if censored else -1
        event = not censored or failure <= censor
        last = failure if event else censor
        steps = np.arange(last + 1)
        damage = wear[unit][None, :] + rate[unit][None, :] * steps[:, None]  # (n_steps, n_modes)
        regime = generator.integers(n_regimes, size=steps.size)
        clean = np.zeros((steps.size, n_sensors))
        for c in range(n_informative):
            clean[:, c] = gain[c] * _read(damage[:, sensor_mode[c]], shapes[c])
        readings = base + shift[regime] + clean + noise * generator.standard_normal(clean.shape)
        failed = (steps == last) & event
        columns.append((np.full(steps.size, unit), steps, regime, readings, failed, np.where(failed, mode, -1), damage))
        unit_rows.append((failure, mode, censor, event))
    unit_col, step, regime, readings, failed, mode, damage = (np.concatenate(c) for c in zip(*columns, strict=True))
    frame = pd.DataFrame(
        {
            "unit": unit_col,
            "step": step,
            "regime": regime,
            **dict(zip(names, readings.T, strict=True)),
            "failure": failed,
            "mode": mode,
            **{f"damage{m}": damage[:, m] for m in range(n_modes)},
        }
    )

    # each unit's readings with its failure column last, in time order: the layout make_windows reads fastest
    series = [np.column_stack([part[3], part[4]]) for part in columns]
    X, y, groups, index = make_windows(
        series,
        feature_cols=list(range(n_sensors)),
        event_col=n_sensors,
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        layout="time-first-list",
        return_index=True,
    )
    index = index[["unit", "step"]]
    oracle = np.empty((len(index), K))
    by_mode = np.empty((len(index), n_modes, K))
    for unit, rows in index.groupby("unit", sort=False).indices.items():
        oracle[rows], by_mode[rows] = oracle_surfaces(
            wear[unit], rate[unit], index["step"].to_numpy()[rows], K, **hazard
        )
    # the age oracle's draws take their own stream (the next line's): the fleet does not depend on them
    age = age_surface(
        *_draw_units(np.random.default_rng(generator.integers(2**31)), AGE_DRAWS, *prior),
        index["step"].to_numpy(),
        K,
        **hazard,
    )

    units = pd.DataFrame(unit_rows, columns=["failure_step", "failure_mode", "censor_step", "event"])
    cause = np.where(y["event"], units["failure_mode"].to_numpy()[np.asarray(groups, dtype=np.int64)] + 1, 0)
    for m in range(n_modes):
        units.insert(2 * m, f"wear{m}", wear[:, m])
        units.insert(2 * m + 1, f"rate{m}", rate[:, m])
    units.index.name = "unit"
    descr = _DESCR.format(
        n_units=n_units,
        n_modes=n_modes,
        n_rows=len(frame),
        n_windows=len(X),
        n_failed=int(units["event"].sum()),
        n_censored=int((~units["event"]).sum()),
        hazard_scale=hazard_scale,
        hazard_growth=hazard_growth,
        n_informative=n_informative,
        shapes=", ".join(dict.fromkeys(shapes[:n_informative])),
        n_uninformative=n_uninformative,
        n_regimes=n_regimes,
        regime_shift=regime_shift,
        noise=noise,
    )
    return Bunch(
        X=X,
        y=y,
        groups=np.asarray(groups, dtype=np.int64),
        cause=cause,
        index=index,
        oracle=oracle,
        oracle_by_mode=by_mode,
        age_oracle=age,
        frame=frame,
        units=units,
        feature_names=names,
        sensors=pd.DataFrame({"mode": sensor_mode, "shape": shapes}, index=names),
        DESCR=descr,
    )
