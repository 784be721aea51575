"""Operating regimes found from the channels themselves: RegimeNormalizer(None, n_regimes="auto"), HEPAPretrainer's
regimes and window level."""

import pickle
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAFinetuner, HEPAPretrainer, RegimeNormalizer
from hepa_sklearn._stats import window_level
from hepa_sklearn.export import export_torchscript
from hepa_sklearn.persistence import load, save
from hepa_sklearn.preprocessing import RegimeWarning, choose_n_regimes, window_regimes
from hepa_sklearn.surface import make_survival_y

TINY = dict(d_model=16, n_heads=2, max_epochs=1, K=16, device="cpu", random_state=0)
# release 0.2.0's norm="regime": regimes, then the global z-score, no window level
BY_REGIME = dict(norm="global", regimes="auto", window_level=False)
GLOBAL = dict(norm="global", regimes=None, window_level=False)


def traced(path):
    with warnings.catch_warnings():  # torch's own deprecation notice, not the package's behaviour
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.load` is deprecated")
        return torch.jit.load(path)


def regime_windows(n=40, length=128, n_regimes=3, seed=0):
    """Two channels whose levels jump with a regime drawn per step, plus unit noise."""
    rng = np.random.default_rng(seed)
    regime = rng.integers(0, n_regimes, size=(n, length))
    X = np.stack([100.0 * regime, -50.0 * regime], axis=1) + rng.normal(size=(n, 2, length))
    return X.astype(np.float32), regime


def test_auto_finds_the_regimes_from_all_channels_and_standardises_within_each():
    X, regime = regime_windows()
    normalizer = RegimeNormalizer(None, n_regimes="auto").fit(X)
    assert normalizer.n_regimes_ == 3 and normalizer.setting_channels_.tolist() == [0, 1]
    Z = normalizer.transform(X)
    assert Z.shape == X.shape  # every channel kept and normalised
    for r in range(3):
        values = Z.transpose(0, 2, 1)[regime == r]
        np.testing.assert_allclose(values.mean(axis=0), 0.0, atol=0.02)
        np.testing.assert_allclose(values.std(axis=0), 1.0, atol=0.02)


def test_auto_keeps_one_regime_where_there_are_no_operating_conditions():
    rng = np.random.default_rng(1)
    smooth = np.cumsum(rng.normal(size=(30, 3, 200)), axis=2)  # drifting levels, no discrete conditions
    normalizer = RegimeNormalizer(None, n_regimes="auto").fit(smooth)
    assert normalizer.n_regimes_ == 1
    flat = (smooth - smooth.mean(axis=(0, 2), keepdims=True)) / smooth.std(axis=(0, 2), keepdims=True)
    np.testing.assert_allclose(normalizer.transform(smooth), flat, atol=1e-4)  # the global z-score
    assert choose_n_regimes(np.zeros((100, 2)), 0) == 1  # nothing to cluster
    assert choose_n_regimes(np.ones((5, 2)), 0) == 1  # too few steps


def test_pretrainer_with_one_regime_is_the_global_norm():
    X = np.random.default_rng(2).normal(size=(24, 2, 64)).astype(np.float32)
    regime = HEPAPretrainer(**BY_REGIME, **TINY).fit(X)
    assert regime.regime_centers_ is None
    np.testing.assert_array_equal(regime.transform(X), HEPAPretrainer(**GLOBAL, **TINY).fit(X).transform(X))


def test_pretrainer_sees_windows_standardised_per_regime_and_keeps_it_through_every_round_trip(tmp_path):
    X, _ = regime_windows()
    pre = HEPAPretrainer(**BY_REGIME, **TINY).fit(X)
    assert pre.regime_centers_.shape == (3, 2) and pre.regime_loc_.shape == pre.regime_scale_.shape == (4, 2)
    np.testing.assert_allclose(pre.channel_loc_, 0.0, atol=0.05)  # the net sees standardised windows
    E = pre.transform(X)
    # two windows with the same noise under different regime sequences embed alike: the jumps are gone
    rng = np.random.default_rng(5)
    noise = rng.normal(size=(1, 2, 128))
    levels = np.array([100.0, -50.0])[None, :, None]
    A, B = (noise + levels * rng.integers(0, 3, size=(1, 1, 128)) for _ in range(2))
    pair = np.concatenate([A, B]).astype(np.float32)
    close = np.abs(np.subtract(*pre.transform(pair))).max()
    globally = HEPAPretrainer(**GLOBAL, **TINY).fit(X)
    assert close < 0.1 * np.abs(np.subtract(*globally.transform(pair))).max()
    save(pre, tmp_path / "pre.hepa")
    np.testing.assert_array_equal(load(tmp_path / "pre.hepa").transform(X), E)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(pre)).transform(X), E)

    y = make_survival_y(np.ones(len(X), bool), np.arange(len(X)) % 16 + 1)
    finetuner = HEPAFinetuner(pre, K=16, max_epochs=1, device="cpu", random_state=0).fit(X, y)
    P = finetuner.predict_proba(X)
    assert P.shape == (len(X), 16) and (np.diff(P, axis=1) >= 0).all()
    head = HEPAEventPredictor(K=16, max_epochs=1, device="cpu", random_state=0).fit(E, y)
    # the exported graphs standardise by regime themselves, a missing value taking the global statistics
    X_missing = X.copy()
    X_missing[0, 1, 10:20] = np.nan
    for name, model, method in (("pre", pre, pre.transform), ("ft", finetuner, finetuner.predict_proba)):
        export_torchscript(model, tmp_path / f"{name}.pt", X[:2])
        graph = traced(tmp_path / f"{name}.pt")
        with torch.no_grad():
            np.testing.assert_allclose(graph(torch.from_numpy(X_missing)).numpy(), method(X_missing), atol=1e-4)
    assert head.predict_proba(E).shape == (len(X), 16)


def test_bad_norm_names_the_choices():
    with pytest.raises(ValueError, match="norm"):
        HEPAPretrainer(norm="regimes").fit(np.zeros((4, 1, 32), np.float32))


def test_the_default_appends_the_window_level_revin_removes():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(24, 2, 64)).astype(np.float32) + np.linspace(0, 5, 24)[:, None, None].astype(np.float32)
    X[:6, :, :20] = np.nan  # left padding
    pre = HEPAPretrainer(**TINY).fit(X)
    E = pre.transform(X)
    assert E.shape == (24, 16 + 2 * 2) and pre.regime_centers_ is None  # one regime: RevIN plus the level
    assert len(pre.get_feature_names_out()) == E.shape[1]
    # the level by hand: the mean over the window's observed steps and over its last 30, standardised
    level = np.concatenate([np.nanmean(X, -1), X[..., -30:].mean(-1)], 1)
    expected = (level - level.mean(0)) / level.std(0)
    np.testing.assert_allclose(E[:, 16:], expected, rtol=1e-4, atol=1e-4)
    # the embedding part is RevIN's: it does not see a window's shift
    np.testing.assert_allclose(pre.transform(X + 3.0)[:, :16], E[:, :16], atol=1e-4)
    assert not np.allclose(pre.transform(X + 3.0)[:, 16:], E[:, 16:])
    np.testing.assert_allclose(pickle.loads(pickle.dumps(pre)).transform(X), E)


def test_the_default_exports_with_the_window_level(tmp_path):
    X, _ = regime_windows()
    X[:4, :, :50] = np.nan  # short histories: the level over the observed steps only
    y = make_survival_y(np.ones(40, bool), np.arange(1, 41))
    pipe = make_pipeline(HEPAPretrainer(**TINY), HEPAEventPredictor(K=8, max_epochs=1, random_state=0))
    pipe.fit(X, y)
    for name, model, method in (("pre", pipe[0], pipe[0].transform), ("pipe", pipe, pipe.predict_proba)):
        export_torchscript(model, tmp_path / f"{name}.pt", X[:2])
        with torch.no_grad():
            out = traced(tmp_path / f"{name}.pt")(torch.from_numpy(X)).numpy()
        assert out.shape == method(X).shape
        np.testing.assert_allclose(out, method(X), atol=1e-4)


class SlopeLevelPretrainer(HEPAPretrainer):
    """A pretrainer whose window level is each channel's mean and slope over its last 10 steps and the window."""

    def level_features(self, X):
        return window_level(X, spans=(10, None), spread=False, slope=True)


def test_a_subclass_passes_another_level_through_level_features_and_export_refuses_it(tmp_path):
    rng = np.random.default_rng(3)
    X = (rng.normal(size=(20, 2, 40)) + np.arange(40) * rng.normal(size=(20, 2, 1))).astype(np.float32)
    X[:5, :, :20] = np.nan  # left padding
    X[5, 1, -9:] = np.nan  # one observed step in the last 10: no slope there
    pre = SlopeLevelPretrainer(**TINY).fit(X)
    E = pre.transform(X)
    assert E.shape == (20, 16 + 4 * 2)
    assert pre.get_feature_names_out().tolist()[16:] == [f"level{j}" for j in range(8)]

    def by_hand(span):
        mean = np.nanmean(span, -1)
        slope = np.full(mean.shape, np.nan)
        for i, c in np.ndindex(mean.shape):
            seen = ~np.isnan(span[i, c])
            if seen.sum() >= 2:
                slope[i, c] = np.polyfit(np.flatnonzero(seen), span[i, c, seen].astype(np.float64), 1)[0]
        return [mean, slope]

    level = np.concatenate(by_hand(X[..., -10:]) + by_hand(X), 1)
    loc, scale = np.nanmean(level, 0), np.nanstd(level, 0)
    np.testing.assert_allclose(E[:, 16:], np.nan_to_num((level - loc) / scale), rtol=1e-4, atol=1e-4)
    assert E[5, 16 + 2 + 1] == 0  # the slope of a channel seen once in the span
    # the graph holds HEPAPretrainer's level alone: a subclass is refused, not exported wrong
    with pytest.raises(TypeError, match=r"this one runs \['SlopeLevelPretrainer'\]"):
        export_torchscript(pre, tmp_path / "pre.pt", X[:2])
    assert not (tmp_path / "pre.pt").exists()


def test_the_default_standardises_per_regime_first_and_reads_the_level_there(tmp_path):
    X, _ = regime_windows()
    pre = HEPAPretrainer(**TINY).fit(X)
    assert pre.regime_centers_.shape[0] == 3
    E = pre.transform(X)
    assert E.shape == (40, 16 + 2 * 2)
    # per-regime standardised windows have means near 0: the level columns stay small, unlike the raw jumps
    assert np.abs(E[:, 16:]).max() < 10
    save(pre, tmp_path / "pre.skops")
    np.testing.assert_allclose(load(tmp_path / "pre.skops").transform(X), E)
    y = make_survival_y(np.ones(40, bool), np.arange(1, 41))
    assert HEPAEventPredictor(K=8, max_epochs=1, random_state=0).fit(E, y).predict_proba(E).shape == (40, 8)
    assert HEPAFinetuner(pre, K=8, max_epochs=1, random_state=0).fit(X, y).predict_proba(X).shape == (40, 8)


def staggered_windows(n=24, n_channels=3, length=48, seed=0):
    """Channels logged at different steps: channel c is observed only at the steps t with t % n_channels == c."""
    X = np.random.default_rng(seed).normal(size=(n, n_channels, length)).astype(np.float32)
    for channel in range(n_channels):
        X[:, channel, np.arange(length) % n_channels != channel] = np.nan
    return X


@pytest.mark.parametrize("norm", ["revin", "global"])
def test_channels_observed_at_different_steps_embed_with_one_regime_and_a_warning_that_says_why(norm):
    X = staggered_windows()
    with pytest.warns(RegimeWarning, match=r"regimes='auto'.*0 time steps .*observed at different steps"):
        pretrainer = HEPAPretrainer(norm=norm, **TINY).fit(X)
    assert pretrainer.regime_centers_ is None
    E = pretrainer.transform(X)
    assert E.shape[0] == len(X) and np.isfinite(E).all()


def test_the_default_embeds_windows_with_a_channel_never_observed():
    X = np.random.default_rng(3).normal(size=(24, 3, 48)).astype(np.float32)
    X[:, 1] = np.nan
    with pytest.warns(RegimeWarning, match=r"channel\(s\) \[1\] of X are never observed"):
        E = HEPAPretrainer(**TINY).fit(X).transform(X)
    assert np.isfinite(E).all()


def test_windows_observed_together_find_regimes_without_a_warning():
    X, _ = regime_windows(n=16, length=64)
    X[:4, :, :20] = np.nan  # left padding: every channel missing at the same steps
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert HEPAPretrainer(**BY_REGIME, **TINY).fit(X).regime_centers_.shape == (3, 2)


@settings(max_examples=20, deadline=None)
@given(n_channels=st.integers(2, 5), complete=st.integers(0, 40), seed=st.integers(0, 2**16))
def test_regimes_are_looked_for_exactly_when_enough_steps_have_every_channel(n_channels, complete, seed):
    X = staggered_windows(n=4, n_channels=n_channels, length=60, seed=seed)
    rows = np.random.default_rng(seed).normal(size=(complete, n_channels))
    X[np.arange(complete) % 4, :, np.arange(complete) // 4] = rows  # `complete` steps with every channel
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        window_regimes(X, 0, "auto")
    assert any(issubclass(w.category, RegimeWarning) for w in caught) == (complete < 16)


def test_regime_normalizer_names_the_parameter_and_the_fix_when_no_step_has_every_setting():
    X = staggered_windows()
    with pytest.raises(
        ValueError,
        match=r"RegimeNormalizer: X has 0 time steps with every channel "
        r"\(setting_channels=None\).*setting_channels.*forward-fill",
    ):
        RegimeNormalizer(None, n_regimes="auto").fit(X)
    X[:, 0] = np.nan
    with pytest.raises(ValueError, match=r"0 time steps with the setting channels \[0\].*n_regimes=6 needs"):
        RegimeNormalizer([0], n_regimes=6).fit(X)
