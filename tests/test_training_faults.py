"""Training faults: divergence stops with a clear error, collapse is flagged, an interrupted fit fits nothing."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted
from skorch.callbacks import LRScheduler
from skorch.history import History

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training import TrainingDivergedError
from hepa_sklearn.training._callbacks import CollapseMonitor
from hepa_sklearn.training._criteria import prediction_spread


def embeddings(n=60, d=8, seed=0):
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(n, d)).astype(np.float32)
    return E, make_survival_y(rng.random(n) < 0.7, rng.integers(1, 15, n))


def test_non_finite_loss_names_the_epoch_and_keeps_the_previous_fit(tiny_event_params):
    E, y = embeddings()
    model = HEPAEventPredictor(**tiny_event_params).fit(E, y)
    before = model.predict_proba(E)
    huge = np.full((30, 8), 3e38, dtype=np.float32)  # finite, but overflows inside the network
    with pytest.raises(TrainingDivergedError, match=r"training diverged: the loss is .* at epoch 1, batch"):
        model.fit(huge, y[:30])
    np.testing.assert_array_equal(model.predict_proba(E), before)
    assert model.n_features_in_ == 8


def test_divergence_on_a_fresh_estimator_leaves_it_unfitted(tiny_event_params):
    from sklearn.exceptions import NotFittedError

    _, y = embeddings()
    model = HEPAEventPredictor(**tiny_event_params)
    with pytest.raises(TrainingDivergedError):
        model.fit(np.full((60, 8), 3e38, dtype=np.float32), y)
    with pytest.raises(NotFittedError):
        model.predict_proba(np.zeros((2, 8), np.float32))
    assert not hasattr(model, "n_features_in_")


def test_prediction_spread_is_one_when_spread_and_zero_when_collapsed():
    import torch

    torch.manual_seed(0)
    assert prediction_spread(torch.randn(4096, 32)) == pytest.approx(1.0, abs=0.05)
    assert prediction_spread(torch.ones(64, 32) + 1e-9 * torch.randn(64, 32)) < 1e-6


def test_collapse_monitor_flags_and_warns():
    class Net:
        history = History()

    net = Net()
    monitor = CollapseMonitor()
    net.history.new_epoch()
    net.history.record("train_spread", 0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        monitor.on_epoch_end(net)
    assert net.history[-1, "collapse"] is False
    net.history.new_epoch()
    net.history.record("train_spread", 0.01)
    with pytest.warns(RuntimeWarning, match="representation collapse at epoch 2"):
        monitor.on_epoch_end(net)
    assert net.history[-1, "collapse"] is True
    # later collapsed epochs are flagged in the history without another warning
    net.history.new_epoch()
    net.history.record("train_spread", 0.02)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        monitor.on_epoch_end(net)
    assert net.history[:, "collapse"] == [False, True, True]
    # a new fit warns again
    monitor.on_train_begin(net)
    with pytest.warns(RuntimeWarning, match="once per fit"):
        monitor.on_epoch_end(net)


def test_pretraining_history_records_spread_and_no_collapse(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**dict(tiny_pretrainer_params, max_epochs=2)).fit(windows)
    assert pre.history_[:, "collapse"] == [False, False]
    assert all(0.05 < s < 2 for s in pre.history_[:, "train_spread"])
    assert pre.n_epochs_ == 2


def interrupt_at_epoch(monkeypatch, epoch):
    original = LRScheduler.on_epoch_end

    def on_epoch_end(self, net, **kwargs):
        original(self, net, **kwargs)
        if len(net.history) == epoch:
            raise KeyboardInterrupt

    monkeypatch.setattr(LRScheduler, "on_epoch_end", on_epoch_end)


def test_interrupted_pretraining_raises_and_leaves_the_estimator_unfitted(windows, tiny_pretrainer_params, monkeypatch):
    interrupt_at_epoch(monkeypatch, 2)
    pre = HEPAPretrainer(**dict(tiny_pretrainer_params, max_epochs=5))
    with pytest.raises(KeyboardInterrupt, match=r"interrupted after 2 complete epoch\(s\) of 5; nothing was fitted"):
        pre.fit(windows)
    assert [name for name in vars(pre) if name.endswith("_")] == []
    with pytest.raises(NotFittedError):
        check_is_fitted(pre)


def test_interrupted_refit_keeps_the_previous_fit(tiny_event_params, monkeypatch):
    E, y = embeddings()
    model = HEPAEventPredictor(**dict(tiny_event_params, max_epochs=2, early_stopping=True)).fit(E, y)
    before, net = model.predict_proba(E), model.net_
    interrupt_at_epoch(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt, match=r"interrupted after 3 complete epoch\(s\) of 8"):
        model.set_params(max_epochs=8).fit(E, y)
    assert model.net_ is net and model.n_epochs_ == 2
    np.testing.assert_array_equal(model.predict_proba(E), before)


def test_early_stopping_is_not_an_interruption(tiny_event_params):
    E, y = embeddings()
    model = HEPAEventPredictor(**dict(tiny_event_params, max_epochs=50, early_stopping=True, n_iter_no_change=1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(E, y)
    assert model.n_epochs_ < 50
