"""HEPAFinetuner: end-to-end finetuning of a pretrained encoder with the event head."""

import pickle

import numpy as np
import pytest

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.finetune import HEPAFinetuner
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
