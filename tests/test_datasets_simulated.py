"""Simulated fleets: the oracle's calibration and properties, the fleet's layout, seeds and parameter errors."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from hepa_sklearn.datasets import SENSOR_SHAPES, make_fleet
from hepa_sklearn.datasets._fleet_hazard import age_surface, oracle_surfaces
from hepa_sklearn.datasets._simulated import _even_quantiles
from hepa_sklearn.metrics import expected_calibration_error
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.windows import make_windows

N_BINS = 10  # expected_calibration_error's default bins
SIGMAS = 4  # per-bin bound: a calibrated surface exceeds it in a bin with probability 6e-5 (normal tail)


@pytest.fixture(scope="module")
def large_fleet():
    """3000 uncensored units, one sensor: every cell of every window is known."""
    return make_fleet(
        3000, n_informative=1, n_uninformative=0, n_regimes=1, censoring=0.0, context_length=1, random_state=7
    )


def one_cell_per_unit(fleet, k, seed):
    """At most one window per unit at horizon ``k``: independent cells, chosen without looking at the outcome.

    Each unit gets a step drawn uniformly from 0..149, independently of its
    failure; the unit's window ending there is kept if the unit is still
    alive at that step (what the oracle conditions on). Choosing among the
    steps a unit lived would favour short lives and bias the check.
    Returns ``y`` moved so that horizon 1 reads horizon ``k`` (an event
    within ``k`` steps is one within 1), and the oracle's and age oracle's
    probabilities at ``k``.
    """
    steps = np.random.default_rng(seed).integers(0, 150, size=fleet.units.shape[0])
    alive = fleet.y["time"] > 0  # the window ending at the failure step has nothing left to predict
    rows = np.flatnonzero(alive & (fleet.index["step"].to_numpy() == steps[fleet.groups]))
    y = fleet.y[rows]
    moved = make_survival_y(y["event"], np.maximum(y["time"] - (k - 1), 1))
    return moved, fleet.oracle[rows, k - 1 : k], fleet.age_oracle[rows, k - 1 : k]


def ece_bound(p):
    """Monte Carlo bound of the ECE of a calibrated forecast ``p`` (n, 1) of independent cells.

    In bin ``b`` the sum of (outcome - forecast) has mean 0 and variance
    ``V_b = sum p (1 - p)``; the bound allows ``SIGMAS`` standard deviations
    in every bin: ``ECE <= SIGMAS * sum_b sqrt(V_b) / n``.
    """
    p = p.ravel()
    bins = np.minimum((p * N_BINS).astype(int), N_BINS - 1)
    variance = np.bincount(bins, weights=p * (1 - p), minlength=N_BINS)
    return SIGMAS * np.sqrt(variance).sum() / p.size


@pytest.mark.parametrize("k", [5, 20, 50])
def test_the_oracle_is_calibrated_within_monte_carlo_error(large_fleet, k):
    y, oracle, _ = one_cell_per_unit(large_fleet, k, seed=k)
    ece, bound = expected_calibration_error(y, oracle), ece_bound(oracle)
    assert ece <= bound, (ece, bound)
    # the bound is tight enough to catch a miscalibration: the oracle's square root (too high) fails it
    assert expected_calibration_error(y, np.sqrt(oracle)) > ece_bound(np.sqrt(oracle))


def test_the_age_oracle_is_calibrated_but_less_sharp_than_the_oracle(large_fleet):
    y, oracle, age = one_cell_per_unit(large_fleet, 20, seed=1)
    assert expected_calibration_error(y, age) <= ece_bound(age)
    labels = y["time"] <= 1
    brier_oracle, brier_age = np.mean((oracle[:, 0] - labels) ** 2), np.mean((age[:, 0] - labels) ** 2)
    assert brier_oracle < brier_age


@settings(max_examples=60, deadline=None)
@given(
    n_modes=st.integers(1, 3),
    K=st.integers(1, 30),
    scale=st.floats(1e-3, 2.0),
    growth=st.floats(0.1, 12.0),
    seed=st.integers(0, 2**16),
)
def test_oracle_surfaces_rise_with_the_horizon_and_the_modes_sum_to_any_event(n_modes, K, scale, growth, seed):
    rng = np.random.default_rng(seed)
    wear, rate = rng.uniform(0, 0.5, n_modes), rng.uniform(0, 0.05, n_modes)
    ends = np.sort(rng.choice(200, size=5, replace=False))
    P, by_mode = oracle_surfaces(wear, rate, ends, K, scale=scale, growth=growth)
    assert P.shape == (5, K) and by_mode.shape == (5, n_modes, K)
    assert np.all(np.diff(P, axis=1) >= 0) and np.all((P >= 0) & (P <= 1))
    assert np.all(np.diff(by_mode, axis=2) >= -1e-15) and np.all(by_mode >= 0)
    np.testing.assert_allclose(by_mode.sum(axis=1), P, atol=1e-12)


@settings(max_examples=10, deadline=None)
@given(n_modes=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_a_fleets_surfaces_rise_and_its_modes_sum_to_any_event(n_modes, seed):
    fleet = make_fleet(
        6, n_modes=n_modes, n_informative=3, n_uninformative=0, K=20, context_length=8, stride=5, random_state=seed
    )
    for surface in (fleet.oracle, fleet.age_oracle):
        assert np.all(np.diff(surface, axis=1) >= 0)
    np.testing.assert_allclose(fleet.oracle_by_mode.sum(axis=1), fleet.oracle, atol=1e-12)


def test_constant_hazards_give_the_hand_computed_surfaces():
    # damage frozen (rate 0) where exp(d - 1) is 0.1 and 0.3: those rates at every step, 0.4 in all
    ratios = np.array([0.1, 0.3])
    P, by_mode = oracle_surfaces(np.log(ratios) + 1, np.zeros(2), [0, 7], 3, scale=1.0, growth=1.0)
    expected = 1 - np.exp(-0.4 * np.arange(1, 4))
    np.testing.assert_allclose(P, [expected, expected])
    np.testing.assert_allclose(by_mode[0], [0.25 * expected, 0.75 * expected])


def test_the_age_oracle_of_one_draw_is_that_units_oracle():
    wear, rate = np.array([[0.1, 0.2]]), np.array([[0.01, 0.005]])
    ages = np.array([0, 30, 90])
    P, _ = oracle_surfaces(wear[0], rate[0], ages, 10, scale=0.1, growth=8.0)
    np.testing.assert_allclose(age_surface(wear, rate, ages, 10, scale=0.1, growth=8.0), P)


def test_windows_labels_and_tables_agree():
    fleet = make_fleet(12, n_modes=2, censoring=0.5, stride=3, random_state=0)
    names = fleet.feature_names
    assert names == [f"s{i}" for i in range(1, 13)] and fleet.X.shape[1:] == (12, 128)
    X, y, groups = make_windows(
        fleet.frame,
        feature_cols=names,
        event_col="failure",
        unit_col="unit",
        time_col="step",
        context_length=128,
        stride=3,
    )
    np.testing.assert_array_equal(X, fleet.X)
    np.testing.assert_array_equal(y, fleet.y)
    np.testing.assert_array_equal(groups, fleet.groups)
    units, last = fleet.units, fleet.frame.groupby("unit")["step"].max()
    assert units["event"].sum() == fleet.frame["failure"].sum() and 0 < units["event"].sum() < 12
    observed = units[units["event"]]
    np.testing.assert_array_equal(last[observed.index], observed["failure_step"])
    censored = units[~units["event"]]
    np.testing.assert_array_equal(last[censored.index], censored["censor_step"])
    assert (censored["censor_step"] < censored["failure_step"]).all()
    failures = fleet.frame[fleet.frame["failure"]]
    np.testing.assert_array_equal(failures["mode"], observed["failure_mode"])
    assert list(fleet.sensors["shape"]) == [*SENSOR_SHAPES, *SENSOR_SHAPES, *["none"] * 4]
    assert list(fleet.sensors["mode"]) == [0, 1] * 4 + [-1] * 4


def test_sensors_read_the_damage_through_their_shapes():
    fleet = make_fleet(3, n_informative=4, n_uninformative=1, n_regimes=1, noise=0.0, random_state=2)
    frame = fleet.frame[fleet.frame["unit"] == 0]
    damage = frame["damage0"].to_numpy()
    lagged = np.r_[np.full(10, damage[0]), damage[:-10]]
    for sensor, clean in zip(["s1", "s2", "s3", "s4"], [damage, damage**2, lagged, np.tanh(3 * damage)], strict=True):
        slope, intercept = np.polyfit(clean, frame[sensor], 1)
        np.testing.assert_allclose(frame[sensor], intercept + slope * clean, atol=1e-9)
    assert frame["s5"].nunique() == 1  # no regime, no noise: the empty sensor is a constant


def test_equal_seeds_give_equal_fleets_and_other_seeds_others():
    a, b, c = (make_fleet(5, n_modes=2, stride=7, random_state=seed) for seed in (3, 3, 4))
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.oracle, b.oracle)
    np.testing.assert_array_equal(a.age_oracle, b.age_oracle)
    assert a.frame.equals(b.frame) and a.units.equals(b.units)
    assert not a.units.equals(c.units) and not a.frame["s1"].equals(c.frame["s1"])


def test_censoring_extremes():
    assert make_fleet(10, censoring=0.0, stride=50, random_state=0).units["event"].all()
    assert (make_fleet(10, censoring=1.0, stride=50, random_state=0).units["censor_step"] >= 1).all()


@pytest.mark.parametrize(
    "params, name",
    [
        ({"n_units": 0}, "n_units"),
        ({"noise": -0.1}, "noise"),
        ({"n_units": 2.5}, "n_units"),
        ({"censoring": 1.5}, "censoring"),
        ({"initial_wear": 1.0}, "initial_wear"),
        ({"degradation_rate": 0}, "degradation_rate"),
        ({"unit_sampling": "stratified"}, "unit_sampling"),
        ({"unit_sampling": None}, "unit_sampling"),
    ],
)
def test_bad_parameters_are_refused_by_name(params, name):
    with pytest.raises((ValueError, TypeError), match=f"'{name}' parameter"):
        make_fleet(**params)


def test_a_mode_without_a_sensor_is_refused():
    with pytest.raises(ValueError, match=r"n_informative=2 leaves failure mode\(s\) \[2\] without a sensor"):
        make_fleet(n_modes=3, n_informative=2)


def test_a_fleet_that_cannot_fail_is_refused():
    with pytest.raises(ValueError, match="survived 100000 steps"):
        make_fleet(1, degradation_rate=1e-9, hazard_scale=1e-12, random_state=0)


@pytest.mark.parametrize("n_modes", [1, 2])
def test_a_steep_hazard_keeps_every_surface_finite_and_the_modes_summing_to_the_oracle(n_modes):
    # at hazard_growth 2000 the rates overflow a float within a few steps of the failure: each mode's share
    # of an infinite rate is still its share, and the unit's survival past such a step is 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fleet = make_fleet(20, n_modes=n_modes, hazard_growth=2000.0, stride=4, random_state=0)
    for surface in (fleet.oracle, fleet.oracle_by_mode, fleet.age_oracle):
        assert np.isfinite(surface).all() and (surface >= 0).all() and (surface <= 1).all()
    np.testing.assert_allclose(fleet.oracle_by_mode.sum(axis=1), fleet.oracle, atol=1e-12)
    assert np.all(np.diff(fleet.oracle, axis=1) >= 0) and np.all(np.diff(fleet.age_oracle, axis=1) >= 0)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("scale, growth", [(0.1, 1e6), (1e300, 8.0), (1.7e308, 1.7e308)])
def test_the_surfaces_stay_finite_where_the_rates_overflow(scale, growth):
    # ends past the step where the rates reach inf (about step 40 here): H there is already infinite
    wear, rate = np.array([0.5, 0.6, 0.1]), np.array([0.012, 0.01, 0.02])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        P, by_mode = oracle_surfaces(wear, rate, [0, 5, 39, 41, 60], 10, scale=scale, growth=growth)
        age = age_surface(wear[None], rate[None], [0, 5, 41], 10, scale=scale, growth=growth)
    assert np.isfinite(P).all() and np.isfinite(by_mode).all() and np.isfinite(age).all()
    np.testing.assert_allclose(by_mode.sum(axis=1), P, atol=1e-12)
    assert np.all(np.diff(P, axis=1) >= 0) and np.all(by_mode >= 0)
    np.testing.assert_array_equal(P[-2:], 1.0)  # past the overflow, failure within one step is certain


def test_even_unit_sampling_keeps_the_fleet_and_its_exact_oracle():
    fleet = make_fleet(200, n_modes=2, unit_sampling="even", stride=6, random_state=0)
    assert fleet.X.shape[1:] == (12, 128) and fleet.oracle.shape == (len(fleet.X), 50)
    assert fleet.oracle_by_mode.shape == (len(fleet.X), 2, 50)
    assert fleet.age_oracle.shape == fleet.oracle.shape
    for surface in (fleet.oracle, fleet.age_oracle):
        assert np.all(np.diff(surface, axis=1) >= 0) and np.all((surface >= 0) & (surface <= 1))
    np.testing.assert_allclose(fleet.oracle_by_mode.sum(axis=1), fleet.oracle, atol=1e-12)
    # the oracle is still the exact probability given the unit's own wear and rates
    unit = fleet.units.iloc[17]
    rows = np.flatnonzero(fleet.groups == 17)
    P, _ = oracle_surfaces(
        unit[["wear0", "wear1"]].to_numpy(float),
        unit[["rate0", "rate1"]].to_numpy(float),
        fleet.index["step"].to_numpy()[rows],
        50,
        scale=0.1,
        growth=8.0,
    )
    np.testing.assert_array_equal(fleet.oracle[rows], P)
    # with one mode, any run of consecutive units covers the prior evenly: the rates' and wears' quantiles
    # of units 140-199 are within 0.08 of uniform (Kolmogorov distance), where 60 independent draws are
    # further in 19 fleets of 20 (the larger of the two distances)
    units = make_fleet(200, unit_sampling="even", stride=50, random_state=0).units
    rates, wears = units["rate0"].to_numpy()[140:], units["wear0"].to_numpy()[140:]
    quantiles = (stats.norm.cdf(np.log(rates / 0.008) / 0.3), wears / 0.2)
    for q in quantiles:
        assert stats.kstest(q, "uniform").statistic < 0.08


def test_even_quantiles_are_uniform_for_each_unit():
    # over the random shift, a unit's quantiles are uniform and independent across dimensions, as a draw's
    draws = np.array([_even_quantiles(np.random.default_rng(seed), 8, 2)[5] for seed in range(2000)])
    for d in range(2):
        assert stats.kstest(draws[:, d], "uniform").pvalue > 1e-3
    assert abs(np.corrcoef(draws.T)[0, 1]) < 0.1
    assert np.all((draws > 0) & (draws < 1))
