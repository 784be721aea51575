"""HEPAFinetuner: end-to-end finetuning of a pretrained encoder with the event head."""

import pickle

import numpy as np
import pytest
import torch

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn._persistence_format import content_digest
from hepa_sklearn.finetune import HEPAFinetuner
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import make_survival_y


@pytest.fixture(scope="module")
def pretrained():
    from tests.conftest import TINY_PRETRAINER

    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3, 48)).astype(np.float32)
    X[::5, :, :10] = np.nan
    y = make_survival_y(rng.random(40) < 0.8, rng.integers(1, 12, 40))
    return HEPAPretrainer(**TINY_PRETRAINER).fit(X), X, y


FINETUNE = dict(K=10, hidden=16, max_epochs=2, batch_size=16, random_state=0)


def test_surface_shape_range_monotone(pretrained):
    pre, X, y = pretrained
    model = HEPAFinetuner(pre, **FINETUNE).fit(X, y)
    P = model.predict_proba(X)
    assert P.shape == (40, 10) and P.dtype == np.float64
    assert np.all((P >= 0) & (P <= 1)) and np.all(np.diff(P, axis=1) >= 0)
    np.testing.assert_allclose(model.predict(X), 1 + (1 - P[:, :-1]).sum(axis=1))
    assert np.isfinite(model.score(X, y))


def test_encoder_trains_but_the_pretrainer_is_untouched(pretrained):
    pre, X, y = pretrained
    before = [p.detach().clone() for p in pre.encoder_.parameters()]
    model = HEPAFinetuner(pre, **FINETUNE).fit(X, y)
    assert all((a == b).all() for a, b in zip(before, pre.encoder_.parameters(), strict=True))
    tuned = list(model.net_.module_.encoder.parameters())
    assert any((a != b).any() for a, b in zip(before, tuned, strict=True))


def test_reproducible_and_picklable(pretrained):
    pre, X, y = pretrained
    a = HEPAFinetuner(pre, **FINETUNE).fit(X, y)
    b = HEPAFinetuner(pre, **FINETUNE).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(a)).predict_proba(X), a.predict_proba(X))


def test_unfitted_pretrainer_is_an_error(pretrained):
    _, X, y = pretrained
    with pytest.raises(ValueError, match="fitted HEPAPretrainer"):
        HEPAFinetuner(HEPAPretrainer(), **FINETUNE).fit(X, y)


def test_channel_count_must_match_the_pretrainer(pretrained):
    pre, X, y = pretrained
    with pytest.raises(ValueError, match="2 channels but the pretrainer was fitted on 3"):
        HEPAFinetuner(pre, **FINETUNE).fit(X[:, :2], y)


def test_labels_without_events_are_an_error(pretrained):
    pre, X, _ = pretrained
    y = make_survival_y(np.zeros(40, bool), np.full(40, 50))
    with pytest.raises(ValueError, match="nothing to learn from"):
        HEPAFinetuner(pre, **FINETUNE).fit(X, y)


# -- the window level and the horizon knots -------------------------------------------------------------------------


def test_head_reads_the_window_level_the_pretrainer_appends(pretrained):
    pre, X, y = pretrained
    model = HEPAFinetuner(pre, **FINETUNE).fit(X, y)
    module = model.net_.module_
    assert module.reads_level
    # the level is the pretrainer's transform's last 2 * n_channels columns, computed in the network
    level = module.level(torch.from_numpy(pre.standardise_by_regime(X))).numpy()
    np.testing.assert_allclose(level, pre.transform(X)[:, pre.d_model :], atol=1e-5)
    assert module.event.predictor.input.in_features == pre.d_model + 2 * X.shape[1] + 1  # state, level, horizon


def test_without_the_window_level_the_head_reads_the_state_alone(pretrained):
    pre, X, y = pretrained
    model = HEPAFinetuner(pre, **FINETUNE, window_level=False).fit(X, y)
    assert not model.net_.module_.reads_level
    assert model.net_.module_.event.predictor.input.in_features == pre.d_model + 1
    plain = HEPAPretrainer(**{**pre.get_params(), "window_level": False}).fit(X)
    assert not HEPAFinetuner(plain, **FINETUNE).fit(X, y).net_.module_.reads_level


def test_a_pretrainer_with_its_own_level_features_is_refused_unless_the_level_is_off(pretrained):
    pre, X, y = pretrained

    class SpreadPretrainer(HEPAPretrainer):
        def level_features(self, X):
            return np.hstack([super().level_features(X), np.nanstd(X, axis=2)])

    spread = SpreadPretrainer(**pre.get_params()).fit(X)
    with pytest.raises(ValueError, match="this SpreadPretrainer.s level_features gives another one; pass"):
        HEPAFinetuner(spread, **FINETUNE).fit(X, y)
    assert HEPAFinetuner(spread, **FINETUNE, window_level=False).fit(X, y).predict_proba(X).shape == (40, 10)


@pytest.mark.parametrize("knots", [None, 4])
def test_horizon_knots_set_where_the_head_runs(pretrained, knots):
    pre, X, y = pretrained
    event = HEPAFinetuner(pre, **FINETUNE, horizon_knots=knots).fit(X, y).net_.module_.event
    assert len(event.horizons) == (10 if knots is None else knots)
    assert (event.interpolation is None) == (knots is None)


def test_a_file_saved_before_the_level_and_the_knots_loads_as_it_was_fitted(pretrained, tmp_path):
    pre, X, y = pretrained
    model = HEPAFinetuner(pre, **FINETUNE, horizon_knots=None, window_level=False).fit(X, y)
    path = tmp_path / "finetuner.pt"
    save(model, path)
    content = torch.load(path, weights_only=True)
    for name in ("horizon_knots", "window_level"):  # as a file of release 0.2 holds them: not at all
        del content["params"][name]
    torch.save({**content, "digest": content_digest(content)}, path)
    loaded = load(path)
    assert (loaded.horizon_knots, loaded.window_level) == (None, False)
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
