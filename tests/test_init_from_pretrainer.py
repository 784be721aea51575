"""HEPAPretrainer(init_from=...) and tokens="univariate": one encoder's weights for windows of any channel count."""

import pickle
import re

import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.persistence import load, save

TINY = {"d_model": 16, "n_heads": 2, "K": 16, "regimes": None, "window_level": False}
UNIVARIATE = {**TINY, "tokens": "univariate"}


def windows(n_channels, seed=0, n=24, length=64):
    return np.random.default_rng(seed).normal(size=(n, n_channels, length)).astype("float32")


@pytest.fixture(scope="module")
def source():
    return HEPAPretrainer(**UNIVARIATE, max_epochs=1, random_state=0).fit(windows(3))


def weights(pretrainer):
    state = pretrainer.net_.module_.state_dict()
    return {key: value for key, value in state.items() if not key.endswith(("channel_loc", "channel_scale"))}


def test_univariate_tokens_have_no_channel_weights_and_ignore_channel_order():
    pre = HEPAPretrainer(**UNIVARIATE, random_state=0).fit(windows(4))
    assert not any("channel_embedding" in key for key in pre.net_.module_.state_dict())
    X = windows(4, seed=1)
    np.testing.assert_allclose(pre.transform(X[:, ::-1]), pre.transform(X), atol=1e-5)
    with_identity = HEPAPretrainer(**TINY, tokens="channel", random_state=0).fit(windows(4))
    assert not np.allclose(with_identity.transform(X[:, ::-1]), with_identity.transform(X), atol=1e-5)


def test_the_source_weights_reach_a_net_for_another_channel_count(source):
    target = HEPAPretrainer(**UNIVARIATE, init_from=source, random_state=7).fit(windows(5))
    theirs, ours = weights(source), weights(target)
    assert theirs.keys() == ours.keys()
    assert all(torch.equal(theirs[key], ours[key]) for key in theirs)
    assert target.net_.module_.encoder.channel_loc.shape == (5,)  # this data's statistics, not copied
    untouched = HEPAPretrainer(**UNIVARIATE, random_state=7).fit(windows(5))
    assert not np.allclose(untouched.transform(windows(5)), target.transform(windows(5)))


def test_on_the_same_channels_the_embedding_is_the_sources(source):
    X = windows(3, seed=2)
    target = HEPAPretrainer(**UNIVARIATE, init_from=source, random_state=3).fit(X)
    np.testing.assert_array_equal(target.transform(X), source.transform(X))


def test_a_saved_file_a_frozen_estimator_and_the_estimator_start_alike(source, tmp_path):
    path = tmp_path / "source.pt"
    save(source, path)
    X = windows(2, seed=4)
    given = HEPAPretrainer(**UNIVARIATE, init_from=source).fit(X).transform(X)
    from_file = HEPAPretrainer(**UNIVARIATE, init_from=str(path)).fit(X).transform(X)
    from_clone = clone(HEPAPretrainer(**UNIVARIATE, init_from=FrozenEstimator(source))).fit(X).transform(X)
    np.testing.assert_array_equal(from_file, given)
    np.testing.assert_array_equal(from_clone, given)


def test_pretraining_continues_from_the_source(source):
    X = windows(3, seed=5)
    continued = HEPAPretrainer(**UNIVARIATE, init_from=source, max_epochs=1, random_state=0).fit(X)
    assert continued.n_epochs_ == 1
    assert not np.allclose(continued.transform(X), source.transform(X))


def test_saving_drops_init_from_and_keeps_the_weights(source, tmp_path):
    X = windows(5, seed=6)
    target = HEPAPretrainer(**UNIVARIATE, init_from=source).fit(X)
    save(target, tmp_path / "target.pt")
    loaded = load(tmp_path / "target.pt")
    assert loaded.init_from is None
    np.testing.assert_array_equal(loaded.transform(X), target.transform(X))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(target)).transform(X), target.transform(X))


@pytest.mark.parametrize(
    ("change", "named"), [({"d_model": 32}, "d_model=16 (here 32)"), ({"tokens": "channel"}, "tokens='univariate'")]
)
def test_another_architecture_is_refused_by_name(source, change, named):
    with pytest.raises(ValueError, match=f"another architecture: {re.escape(named)}"):
        HEPAPretrainer(**{**UNIVARIATE, **change}, init_from=source).fit(windows(3))


def test_channel_weights_of_another_channel_count_are_refused():
    source = HEPAPretrainer(**TINY, tokens="channel", random_state=0).fit(windows(3))
    with pytest.raises(ValueError, match=r"shapes differ: encoder.channel_embedding \(3, 16\) \(here \(5, 16\)\)"):
        HEPAPretrainer(**TINY, tokens="channel", init_from=source).fit(windows(5))


def test_what_is_not_a_fitted_pretrainer_is_refused(tmp_path):
    with pytest.raises(TypeError, match="init_from must be None, a fitted HEPAPretrainer"):
        HEPAPretrainer(**UNIVARIATE, init_from=3).fit(windows(3))
    with pytest.raises(NotFittedError, match="init_from must be a fitted HEPAPretrainer"):
        HEPAPretrainer(**UNIVARIATE, init_from=HEPAPretrainer(**UNIVARIATE)).fit(windows(3))
    with pytest.raises(FileNotFoundError):
        HEPAPretrainer(**UNIVARIATE, init_from=tmp_path / "absent.pt").fit(windows(3))
