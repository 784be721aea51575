"""User callbacks of the estimators, the held-out pretraining loss and rank, and the weights rank stopping keeps."""

import numpy as np
import pytest
import torch
from skorch.callbacks import Callback

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn._stats import effective_rank
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import make_survival_y

TINY = {"d_model": 16, "n_heads": 2, "K": 16}


def windows(n=24, seed=0):
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.normal(size=(n, 3, 64)), axis=2).astype("float32")


class WeightCopies(Callback):
    """A CPU copy of the module's weights after each epoch."""

    def initialize(self):
        self.states_ = {}
        return self

    def on_epoch_end(self, net, **kwargs):
        self.states_[len(net.history)] = {k: v.detach().cpu().clone() for k, v in net.module_.state_dict().items()}


class EpochRecorder(Callback):
    def initialize(self):
        self.epochs_ = []
        return self

    def on_epoch_end(self, net, **kwargs):
        self.epochs_.append(len(net.history))


def test_user_callbacks_run_on_copies_and_do_not_change_training():
    X = windows()
    recorder = EpochRecorder()
    fitted = HEPAPretrainer(**TINY, max_epochs=2, random_state=0, callbacks=[recorder]).fit(X)
    plain = HEPAPretrainer(**TINY, max_epochs=2, random_state=0).fit(X)
    assert dict(fitted.net_.callbacks_)["EpochRecorder"].epochs_ == [1, 2]
    assert not hasattr(recorder, "epochs_")  # the object passed in is never initialised or changed
    np.testing.assert_array_equal(fitted.transform(X), plain.transform(X))


def test_callbacks_on_the_event_predictor_and_named_pairs():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(40, 8)).astype("float32")
    y = make_survival_y(np.ones(40, bool), rng.integers(1, 20, 40))
    model = HEPAEventPredictor(
        K=10, hidden=16, max_epochs=2, random_state=0, callbacks=[("mine", EpochRecorder())]
    ).fit(E, y)
    assert dict(model.net_.callbacks_)["mine"].epochs_ == [1, 2]


@pytest.mark.parametrize(
    "callbacks, error, match",
    [
        ([3], TypeError, "skorch callbacks"),
        ([("early_stopping", EpochRecorder())], ValueError, "'early_stopping' is already used"),
        ([EpochRecorder(), EpochRecorder()], ValueError, "'EpochRecorder' is already used"),
    ],
)
def test_bad_callbacks(callbacks, error, match):
    with pytest.raises(error, match=match):
        HEPAPretrainer(**TINY, max_epochs=1, callbacks=callbacks).fit(windows())


def test_callbacks_are_not_saved(tmp_path):
    fitted = HEPAPretrainer(**TINY, max_epochs=1, random_state=0, callbacks=[EpochRecorder()]).fit(windows())
    save(fitted, tmp_path / "p.pt")
    assert load(tmp_path / "p.pt").callbacks is None


def test_pretraining_loss_is_reproducible_and_score_is_its_negative():
    X = windows()
    fitted = HEPAPretrainer(**TINY, max_epochs=2, random_state=0).fit(X)
    first, second = fitted.pretraining_loss(X), fitted.pretraining_loss(X)
    assert first == second
    assert set(first) == {"loss", "l1", "sigreg", "n_pairs"}
    assert first["n_pairs"] == 24  # one usable pair per window
    assert first["loss"] == pytest.approx(0.9 * first["l1"] + 0.1 * first["sigreg"], rel=1e-5)
    assert fitted.score(X) == -first["loss"]
    assert fitted.pretraining_loss(X, cuts_per_window=3)["n_pairs"] == 72
    assert fitted.pretraining_loss(X, seed=1) != first
    with pytest.raises(ValueError, match="cuts_per_window must be an int >= 1"):
        fitted.pretraining_loss(X, cuts_per_window=0)


def test_effective_rank_hand_cases():
    rng = np.random.default_rng(0)
    line = np.outer(rng.normal(size=200), np.ones(4))
    assert effective_rank(line) == pytest.approx(1.0, abs=1e-6)
    square = np.array([[1.0, 0], [-1, 0], [0, 1], [0, -1]])
    assert effective_rank(square) == pytest.approx(2.0)


def test_rank_stopping_keeps_the_weights_of_the_epoch_with_the_highest_held_out_rank():
    X = windows(40)
    by_loss = HEPAPretrainer(**TINY, max_epochs=3, random_state=0).fit(X)
    ranks = by_loss.history_[:, "valid_rank"]
    assert len(ranks) == 3 and all(1.0 <= r <= 4.0 for r in ranks)  # 4 held-out windows
    by_rank = HEPAPretrainer(
        **TINY, max_epochs=3, random_state=0, validation_metric="rank", callbacks=[("copies", WeightCopies())]
    ).fit(X)
    np.testing.assert_allclose(by_rank.history_[:, "valid_rank"], ranks)  # same run, other monitor
    states = dict(by_rank.net_.callbacks_)["copies"].states_
    kept = by_rank.net_.module_.state_dict()
    best = int(np.argmax(ranks)) + 1
    assert all(torch.equal(kept[k].cpu(), states[best][k]) for k in kept)
    with pytest.raises(ValueError, match="validation_metric"):
        HEPAPretrainer(**TINY, max_epochs=1, validation_metric="spread").fit(X)
