"""HEPAPretrainer's input parameters: norm, regimes and window_level, each one effect; release 0.2.0's norm values."""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.preprocessing import RegimeWarning

# Written by release 0.2.0's HEPAPretrainer, before norm was split into three parameters (run this module with
# an output path to write it again: it then fits with 0.2.0's norm values, OLD_NORMS).
REFERENCE = Path(__file__).parent / "data" / "pretrainer_input_reference.npz"
OLD_NORMS = ("auto", "regime", "revin", "global", "none")
# what each of 0.2.0's norm values is in the parameters that replace it
AS_PARAMETERS = {
    "auto": dict(norm="revin", regimes="auto", window_level=True),
    "regime": dict(norm="global", regimes="auto", window_level=False),
    "revin": dict(norm="revin", regimes=None, window_level=False),
    "global": dict(norm="global", regimes=None, window_level=False),
    "none": dict(norm="none", regimes=None, window_level=False),
}
SMALL = dict(d_model=32, n_heads=4, n_layers=1, K=16, max_epochs=2, batch_size=8, device="cpu", random_state=0)
TINY = dict(d_model=16, n_heads=2, n_layers=1, K=16, max_epochs=0, device="cpu", random_state=0)


def reference_windows():
    """Windows of three operating regimes (levels jump per step) and windows of one, both with padding and gaps."""
    rng = np.random.default_rng(0)
    regime = rng.integers(0, 3, size=(24, 96))
    X = np.stack([100.0 * regime, -50.0 * regime, 5.0 * regime], axis=1) + rng.normal(size=(24, 3, 96))
    X = X.astype(np.float32)
    X[:5, :, :40] = np.nan
    X[6, 1, 50:60] = np.nan
    plain = rng.normal(size=(24, 3, 96)).astype(np.float32) + np.linspace(0, 4, 24, dtype=np.float32)[:, None, None]
    plain[:5, :, :30] = np.nan
    return {"regimes": X, "plain": plain}


def old_scenario():
    """The embeddings stored in REFERENCE, computed with release 0.2.0's norm values."""
    windows = reference_windows()
    out = {
        f"default_{'regimes' if name == 'regimes' else 'one_regime'}": HEPAPretrainer(device="cpu", random_state=0)
        .fit(X)
        .transform(X)
        for name, X in windows.items()
    }
    for norm in OLD_NORMS:
        for name, X in windows.items():
            out[f"trained_{norm}_{name}"] = HEPAPretrainer(norm=norm, **SMALL).fit(X).transform(X)
    return out


@pytest.fixture(scope="module")
def reference():
    return np.load(REFERENCE)


def test_the_headline_pretrainer_embeds_as_release_0_2_0_did(reference):
    # HEPAPretrainer() is what `hepa demo` fits: its defaults keep 0.2.0's norm="auto" to the bit
    windows = reference_windows()
    defaults = HEPAPretrainer().get_params()
    # window_level="auto" appends the level under norm="revin", as True does
    assert defaults | AS_PARAMETERS["auto"] | {"window_level": "auto"} == defaults
    for name, key in (("regimes", "default_regimes"), ("plain", "default_one_regime")):
        X = windows[name]
        pretrainer = HEPAPretrainer(device="cpu", random_state=0).fit(X)
        assert (pretrainer.regime_centers_ is None) == (name == "plain")
        np.testing.assert_allclose(pretrainer.transform(X), reference[key], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("norm", OLD_NORMS)
def test_each_norm_of_release_0_2_0_is_its_new_parameters(reference, norm):
    for name, X in reference_windows().items():
        E = HEPAPretrainer(**{**SMALL, **AS_PARAMETERS[norm]}).fit(X).transform(X)
        np.testing.assert_allclose(E, reference[f"trained_{norm}_{name}"], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("norm", ["auto", "regime"])
def test_the_deprecated_norms_warn_and_embed_as_their_new_parameters(norm):
    X = reference_windows()["regimes"]
    pretrainer = HEPAPretrainer(norm=norm, **SMALL)
    with pytest.warns(
        FutureWarning, match=rf"norm='{norm}' is deprecated .* removed in 0\.4\.0.*regimes.*window_level"
    ):
        pretrainer.fit(X)
    assert pretrainer.get_params()["norm"] == norm  # fit reads the value, it does not rewrite the parameter
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        replacement = HEPAPretrainer(**{**SMALL, **AS_PARAMETERS[norm]}).fit(X)
    np.testing.assert_array_equal(pretrainer.transform(X), replacement.transform(X))


def test_each_parameter_changes_one_thing():
    X = reference_windows()["regimes"]
    base = HEPAPretrainer(**TINY).fit(X)
    assert base.regime_centers_.shape[1] == 3 and base.transform(X).shape == (24, 16 + 2 * 3)
    # regimes: the standardisation before the network, not the width
    plain = HEPAPretrainer(**TINY, regimes=None).fit(X)
    assert plain.regime_centers_ is None and plain.transform(X).shape == (24, 16 + 2 * 3)
    np.testing.assert_array_equal(plain.standardise_by_regime(X), X)
    # window_level: the width, not the embedding
    narrow = HEPAPretrainer(**TINY, window_level=False).fit(X)
    assert narrow.level_loc_ is None and narrow.transform(X).shape == (24, 16)
    np.testing.assert_array_equal(narrow.transform(X), base.transform(X)[:, :16])
    # norm: the network's normalisation, neither the regimes nor the width
    globally = HEPAPretrainer(**TINY, norm="global").fit(X)
    np.testing.assert_array_equal(globally.regime_centers_, base.regime_centers_)
    np.testing.assert_array_equal(globally.transform(X)[:, 16:], base.transform(X)[:, 16:])
    assert np.any(globally.channel_scale_ != 1) and not np.any(base.channel_scale_ != 1)


@pytest.mark.parametrize("n_regimes", [2, 3])
def test_a_number_of_regimes_is_kept(n_regimes):
    X = reference_windows()["regimes"]
    pretrainer = HEPAPretrainer(**TINY, regimes=n_regimes).fit(X)
    assert pretrainer.regime_centers_.shape == (n_regimes, 3)
    assert pretrainer.regime_loc_.shape == pretrainer.regime_scale_.shape == (n_regimes + 1, 3)


def test_standardise_by_regime_is_what_the_network_reads():
    X = reference_windows()["regimes"]
    pretrainer = HEPAPretrainer(**TINY).fit(X)
    Z = pretrainer.standardise_by_regime(X)
    assert Z.dtype == np.float32 and Z.shape == X.shape
    np.testing.assert_array_equal(np.isnan(Z), np.isnan(X))
    assert np.nanmax(np.abs(np.nanmean(Z, axis=(0, 2)))) < 0.1  # the jumps of 100 between regimes are gone
    # the network reads Z: a pretrainer without regimes fitted on Z embeds Z as this one embeds X
    without = HEPAPretrainer(**TINY, regimes=None).fit(Z)
    np.testing.assert_allclose(without.transform(Z), pretrainer.transform(X), rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="X has 2 channels, but HEPAPretrainer was fitted with 3"):
        pretrainer.standardise_by_regime(X[:, :2])
    with pytest.raises(NotFittedError):
        HEPAPretrainer().standardise_by_regime(X)


def test_the_window_level_is_level_features_standardised_and_named():
    X = reference_windows()["regimes"]
    pretrainer = HEPAPretrainer(**TINY).fit(X)
    level = pretrainer.level_features(pretrainer.standardise_by_regime(X))
    assert level.shape == (24, 2 * 3)
    expected = np.nan_to_num((level - pretrainer.level_loc_) / pretrainer.level_scale_)
    np.testing.assert_allclose(pretrainer.transform(X)[:, 16:], expected, rtol=1e-6, atol=1e-6)
    names = pretrainer.get_feature_names_out().tolist()
    assert names[:2] == ["hepapretrainer0", "hepapretrainer1"] and len(names) == 16 + 6
    assert names[16:] == ["mean_x0", "mean_x1", "mean_x2", "mean30_x0", "mean30_x1", "mean30_x2"]
    narrow = HEPAPretrainer(**TINY, window_level=False).fit(X)
    assert narrow.get_feature_names_out().tolist() == [f"hepapretrainer{i}" for i in range(16)]


@pytest.mark.parametrize(
    "params, match",
    [
        ({"regimes": "yes"}, "regimes"),
        ({"regimes": 0}, "regimes"),
        ({"regimes": True}, "regimes"),
        ({"window_level": "yes"}, "window_level"),
        ({"norm": "regimes"}, "norm"),
    ],
)
def test_bad_input_parameters_are_named(params, match):
    with pytest.raises(ValueError, match=rf"'{match}' parameter of HEPAPretrainer"):
        HEPAPretrainer(**TINY, **params).fit(reference_windows()["plain"])


def test_too_few_complete_steps_for_a_number_of_regimes_warn_with_the_fix():
    X = reference_windows()["regimes"][10:12, :, :12].copy()
    X[:, 0, ::2] = X[:, 1, 1::2] = np.nan  # no step has every channel
    with pytest.warns(RegimeWarning, match=r"regimes=8 .*only 0 time steps.* it needs at least 8.*pass regimes=None"):
        pretrainer = HEPAPretrainer(**{**TINY, "patch_size": 4}, regimes=8).fit(X)
    assert pretrainer.regime_centers_ is None


if __name__ == "__main__":
    np.savez(sys.argv[1], **old_scenario())


@pytest.mark.parametrize("params", [{}, dict(regimes=None), dict(window_level=False), dict(regimes=3)])
@pytest.mark.parametrize("windows", ["regimes", "plain"])
def test_fit_transform_is_fit_then_transform_to_the_bit(params, windows):
    """A pipeline's fit embeds the windows it checked and standardised in fit: the same numbers as transform."""
    X = reference_windows()[windows]
    joined = HEPAPretrainer(**TINY, **params).fit_transform(X)
    fitted = HEPAPretrainer(**TINY, **params).fit(X)
    np.testing.assert_array_equal(joined, fitted.transform(X))
    assert joined.shape == (X.shape[0], fitted._n_features_out)


def test_fit_transform_of_a_subclass_with_its_own_level_is_its_fit_then_transform():
    class SpreadLevel(HEPAPretrainer):
        def level_features(self, X):
            return np.hstack([super().level_features(X), np.nanstd(X, axis=2)])

    X = reference_windows()["regimes"]
    joined = SpreadLevel(**TINY).fit_transform(X)
    np.testing.assert_array_equal(joined, SpreadLevel(**TINY).fit(X).transform(X))
    assert joined.shape == (X.shape[0], TINY["d_model"] + 3 * X.shape[1])


def test_fit_transform_of_pretraining_embeds_with_the_trained_encoder():
    X = reference_windows()["regimes"]
    params = {**SMALL, "max_epochs": 1}
    np.testing.assert_array_equal(
        HEPAPretrainer(**params).fit_transform(X), HEPAPretrainer(**params).fit(X).transform(X)
    )
