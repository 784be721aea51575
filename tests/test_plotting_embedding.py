"""EmbeddingPCADisplay: the embeddings' principal components coloured by time to event (the paper's Fig. 3b)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats
from sklearn.decomposition import PCA

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.plotting import EmbeddingPCADisplay
from hepa_sklearn.surface import make_survival_y


def test_pc1_share_and_spearman_are_those_of_the_observed_events(plt):
    rng = np.random.default_rng(0)
    time = np.arange(1.0, 31.0)
    E = np.column_stack([-2.0 * time, rng.normal(size=30), rng.normal(size=30)])
    event = np.ones(30, bool)
    event[::5] = False  # six censored windows
    E[~event, 0] = rng.normal(size=6) * 40  # their PC1 says nothing about their time: they must not count
    display = EmbeddingPCADisplay.from_embeddings(E, make_survival_y(event, time), name="FD001")
    pca = PCA(n_components=2).fit(E)
    assert_allclose(display.explained_variance_ratio, pca.explained_variance_ratio_)
    assert_allclose(np.abs(display.components), np.abs(pca.transform(E)))
    expected = stats.spearmanr(pca.transform(E)[event, 0], time[event]).statistic
    assert display.spearman_rho == pytest.approx(expected) and abs(display.spearman_rho) > 0.99
    assert len(display.scatter_.get_offsets()) == 24 and len(display.censored_.get_offsets()) == 6
    assert display.ax_.get_title() == "FD001" and "PC1" in display.ax_.get_xlabel()
    assert f"{display.spearman_rho:.2f}" in display.scatter_.get_label()


def test_rho_is_nan_without_two_observed_events(plt):
    E = np.random.default_rng(1).normal(size=(5, 3))
    display = EmbeddingPCADisplay.from_embeddings(E, make_survival_y([True] + [False] * 4, [1, 2, 3, 4, 5]))
    assert np.isnan(display.spearman_rho) and display.censored_ is not None


def test_from_estimator_embeds_the_windows_first(plt):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(20, 2, 32)).astype(np.float32)
    pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=0, K=8, random_state=0).fit(X)
    y = make_survival_y(np.ones(20, bool), np.arange(1, 21))
    display = EmbeddingPCADisplay.from_estimator(pre, X, y)
    assert display.components.shape == (20, 2)
    reference = EmbeddingPCADisplay.from_embeddings(pre.transform(X), y)
    assert_allclose(display.explained_variance_ratio, reference.explained_variance_ratio)


@pytest.mark.parametrize(
    "E, y, match",
    [
        (np.zeros((4, 1)), make_survival_y(np.ones(4, bool), [1, 2, 3, 4]), "at least 2 columns"),
        (np.zeros((4, 3)), make_survival_y(np.ones(3, bool), [1, 2, 3]), "4 rows but y has 3"),
        (np.full((4, 3), np.nan), make_survival_y(np.ones(4, bool), [1, 2, 3, 4]), "NaN or infinite"),
        (np.zeros((2, 3)), make_survival_y(np.ones(2, bool), [1, 2]), "at least 3 windows"),
    ],
)
def test_bad_embeddings_are_refused_with_the_reason(E, y, match):
    with pytest.raises(ValueError, match=match):
        EmbeddingPCADisplay.from_embeddings(E, y)


def test_an_encoder_without_transform_is_refused():
    with pytest.raises(TypeError, match="has no transform"):
        EmbeddingPCADisplay.from_estimator(object(), np.zeros((3, 1, 8)), make_survival_y([True] * 3, [1, 2, 3]))


def test_groups_give_the_spearman_rho_within_each_unit(plt):
    # two units whose PC1 falls with time inside each, while pooled the units overlap the other way round
    time = np.array([1.0, 2, 3, 4, 1, 2, 3, 4])
    groups = np.array(["a"] * 4 + ["b"] * 4)
    pc = np.array([4.0, 3, 2, 1, 14, 13, 12, 11])
    E = np.column_stack([pc, np.zeros(8) + np.arange(8) * 1e-3])
    y = make_survival_y([True] * 7 + [False], time)
    display = EmbeddingPCADisplay.from_embeddings(E, y, groups=groups)
    sign = np.sign(display.components[0, 0] - display.components[1, 0])  # PC1's orientation
    assert_allclose(display.unit_spearman_rho * sign, [-1.0, -1.0])  # unit b: its three observed events
    assert EmbeddingPCADisplay.from_embeddings(E, y).unit_spearman_rho is None
    with pytest.raises(ValueError, match="one unit per window"):
        EmbeddingPCADisplay.from_embeddings(E, y, groups=groups[:3])
