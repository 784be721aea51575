"""Parameters renamed in 0.3.0, one meaning per name: each former name still works, with a FutureWarning.

HEPAPretrainer's ``max_horizon`` is ``K`` (the horizons Δt = 1..K, as the
event predictor's ``K``), ``sigreg_weight`` is ``regularizer_weight`` (it
weights VICReg too) and ``target`` is ``target_weights``; its
``early_stopping`` is a bool, and what it watches is ``validation_metric``.
A former name gives the fit of its new name, both given raise, and files
and pickles written before the renaming load under the new names.
"""

import copy
import pickle
import re
import warnings

import numpy as np
import pytest
import torch
from sklearn.base import clone

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn._persistence_format import content_digest
from hepa_sklearn.finetune import HEPAFinetuner
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import make_survival_y

TINY = dict(d_model=16, n_heads=2, n_layers=1, max_epochs=2, batch_size=16, random_state=0)
TINY["validation_fraction"] = 0.25

# (former name, its value, current name): the value is another than the current name's default
RENAMED = [
    ("max_horizon", 24, "K"),  # the horizons Δt = 1..K, as the event predictor's K
    ("sigreg_weight", 0.3, "regularizer_weight"),  # it weights VICReg too
    ("target", "ema", "target_weights"),  # the target path's weights, not y
]


def windows(n=32, seed=0):
    return np.random.default_rng(seed).normal(size=(n, 3, 48)).astype("float32")


def assert_same_fit(a, b, X):
    np.testing.assert_array_equal(a.transform(X), b.transform(X))
    assert a.history_[:, "train_loss"] == b.history_[:, "train_loss"]
    theirs = b.net_.module_.state_dict()
    assert list(a.net_.module_.state_dict()) == list(theirs)
    for name, tensor in a.net_.module_.state_dict().items():
        assert torch.equal(tensor, theirs[name]), name


@pytest.mark.parametrize("former, value, current", RENAMED)
def test_a_former_name_fits_as_its_current_name_with_a_future_warning(former, value, current):
    X = windows()
    message = f"{former} was renamed {current} in 0.3.0 and will be removed in 0.5.0: pass {current}="
    with pytest.warns(FutureWarning, match=re.escape(message + repr(value))):
        old = HEPAPretrainer(**TINY, **{former: value}).fit(X)
    new = HEPAPretrainer(**TINY, **{current: value}).fit(X)
    assert_same_fit(old, new, X)
    assert getattr(old, former) == value and old._parameter(current) == value


@pytest.mark.parametrize("former, value, current", RENAMED)
def test_a_former_name_beside_its_current_name_raises(former, value, current):
    other = {"K": 32, "regularizer_weight": 0.5, "target_weights": "ema"}[current]
    pretrainer = HEPAPretrainer(**TINY, **{former: value, current: other})
    both = f"{former}=.* and {current}=.* were both given: {former} was renamed"
    with pytest.raises(ValueError, match=both):
        pretrainer.fit(windows())


@pytest.mark.parametrize("metric", ["loss", "rank"])
def test_early_stopping_naming_what_it_watches_is_validation_metric_with_a_future_warning(metric):
    X = windows()
    with pytest.warns(FutureWarning, match=f"pass early_stopping=True, validation_metric='{metric}' instead"):
        old = HEPAPretrainer(**TINY, early_stopping=metric).fit(X)
    new = HEPAPretrainer(**TINY, validation_metric=metric).fit(X)
    assert dict(old.net_.callbacks_)["early_stopping"].monitor == f"valid_{metric}"
    assert_same_fit(old, new, X)


def test_early_stopping_and_validation_metric_naming_two_metrics_raise():
    with pytest.raises(ValueError, match="early_stopping='loss' and validation_metric='rank' name two"):
        HEPAPretrainer(**TINY, early_stopping="loss", validation_metric="rank").fit(windows())
    with pytest.warns(FutureWarning):  # the same metric twice says one thing
        HEPAPretrainer(**TINY, early_stopping="rank", validation_metric="rank").fit(windows())


def test_the_defaults_and_the_current_names_fit_without_a_warning():
    X = windows()
    y = make_survival_y(np.ones(len(X), bool), 1 + np.arange(len(X)) % 9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        HEPAPretrainer().fit(X)
        pretrainer = HEPAPretrainer(
            **TINY, K=24, regularizer_weight=0.3, target_weights="ema", validation_metric="rank"
        ).fit(X)
        HEPAEventPredictor(K=10, hidden=16, max_epochs=1).fit(pretrainer.transform(X), y)
        HEPAFinetuner(pretrainer, K=10, hidden=16, max_epochs=1).fit(X, y)
        clone(pretrainer).fit_transform(X)


def test_the_former_names_are_kept_out_of_sight():
    params = HEPAPretrainer().get_params()
    assert [params[former] for former, _, _ in RENAMED] == ["deprecated"] * 3
    with pytest.raises(ValueError, match="'max_horizon' parameter of HEPAPretrainer must be an int"):
        HEPAPretrainer(max_horizon=0).fit(windows())


# -- files and pickles written before the renaming --------------------------------------------------------


def as_written_by_0_2_0(params):
    """HEPAPretrainer's parameters as release 0.2.0 named them."""
    params = {key: value for key, value in params.items() if value != "deprecated"}
    for former, _, current in RENAMED:
        params[former] = params.pop(current)
    params["early_stopping"] = params.pop("validation_metric")
    return params


@pytest.fixture(scope="module")
def fitted():
    """A pretrainer fitted with every renamed parameter off its default, and its windows."""
    X = windows()
    params = dict(K=24, regularizer_weight=0.3, target_weights="ema", validation_metric="rank")
    return HEPAPretrainer(**TINY, **params).fit(X), X


def test_a_file_of_0_2_0_loads_under_the_current_names(fitted, tmp_path):
    pretrainer, X = fitted
    path = tmp_path / "pretrainer.pt"
    save(pretrainer, path)
    content = torch.load(path, weights_only=True)
    assert "max_horizon" not in content["params"] and content["params"]["K"] == 24
    content["params"] = as_written_by_0_2_0(content["params"])
    torch.save({**content, "digest": content_digest(content)}, path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = load(path)
        np.testing.assert_array_equal(loaded.transform(X), pretrainer.transform(X))
        assert loaded.get_params() == {**pretrainer.get_params(), "device": "cpu"}  # load's device
        clone(loaded).fit(X)  # refits under the current names, without a warning


def test_a_file_of_a_former_name_given_is_saved_under_the_current_name(tmp_path):
    X = windows()
    with pytest.warns(FutureWarning):
        pretrainer = HEPAPretrainer(**TINY, max_horizon=24, early_stopping="rank").fit(X)
    save(pretrainer, tmp_path / "pretrainer.pt")
    params = torch.load(tmp_path / "pretrainer.pt", weights_only=True)["params"]
    assert (params["K"], params["early_stopping"], params["validation_metric"]) == (24, True, "rank")
    assert "max_horizon" not in params
    np.testing.assert_array_equal(load(tmp_path / "pretrainer.pt").transform(X), pretrainer.transform(X))


def pickled_as_by_0_2_0(pretrainer):
    """The bytes that pickling ``pretrainer`` under release 0.2.0's names gave: every renamed attribute."""
    old = copy.deepcopy(pretrainer)
    state = vars(old)
    for former, _, current in RENAMED:
        state[former] = state.pop(current)
    state["early_stopping"] = state.pop("validation_metric")
    net = old.net_
    vars(net.module_)["target"] = vars(net.module_).pop("target_weights")
    vars(net.criterion_)["alpha"] = vars(net.criterion_).pop("regularizer_weight")
    for sampler in (net.iterator_train__collate_fn, net.iterator_valid__collate_fn):
        vars(sampler)["max_horizon"] = vars(sampler).pop("K")
    return pickle.dumps(old)


def test_a_pickle_of_0_2_0_unpickles_under_the_current_names_and_trains_on(fitted):
    pretrainer, X = fitted
    restored = pickle.loads(pickled_as_by_0_2_0(pretrainer))
    assert restored.get_params() == pretrainer.get_params()
    np.testing.assert_array_equal(restored.transform(X), pretrainer.transform(X))
    net = restored.net_
    assert (net.module_.target_weights, net.criterion_.regularizer_weight) == ("ema", 0.3)
    assert net.iterator_train__collate_fn.K == net.iterator_valid__collate_fn.K == 24
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        restored.net_.partial_fit(restored.training_data(X)[0])  # the unpickled net trains on
        clone(restored).fit(X)


def test_an_event_model_pickled_with_former_names_predicts_as_before():
    X = np.random.default_rng(0).normal(size=(40, 8)).astype("float32")
    y = make_survival_y(np.ones(40, bool), 1 + np.arange(40) % 9)
    for head in ("mlp", "linear"):
        model = HEPAEventPredictor(K=10, hidden=16, max_epochs=1, head=head, loss="nll", random_state=0)
        model.fit(X, y)
        old = copy.deepcopy(model)
        vars(old.net_.module_)["kind"] = head  # 0.2.0's EventModel stored its head as kind
        vars(old.net_.criterion_)["kind"] = vars(old.net_.criterion_).pop("loss")
        restored = pickle.loads(pickle.dumps(old))
        np.testing.assert_array_equal(restored.predict_proba(X), model.predict_proba(X))
        assert restored.net_.criterion_.loss == "nll"
        assert restored.net_.module_.linear_probe == (head == "linear")


# -- norm="regime" and window_level: no silent override ----------------------------------------------------


def test_window_level_auto_appends_the_level_with_every_norm_but_regime():
    X = windows()
    for norm in ("revin", "global", "none"):
        auto = HEPAPretrainer(**TINY, norm=norm).fit(X)
        on = HEPAPretrainer(**TINY, norm=norm, window_level=True).fit(X)
        assert auto.window_level == "auto" and auto.transform(X).shape == (len(X), 16 + 6)
        np.testing.assert_array_equal(auto.transform(X), on.transform(X))
    with pytest.warns(FutureWarning, match="norm='regime' is deprecated"):
        regime = HEPAPretrainer(**TINY, norm="regime").fit(X)
    assert regime.level_loc_ is None and regime.transform(X).shape == (len(X), 16)


def test_window_level_true_beside_norm_regime_raises_instead_of_being_dropped():
    with pytest.raises(ValueError, match='window_level=True contradicts norm="regime"'):
        HEPAPretrainer(**TINY, norm="regime", window_level=True).fit(windows())


def test_a_0_2_0_file_of_norm_regime_with_window_level_true_loads_and_refits_as_it_was_fitted(tmp_path):
    X = windows()
    with pytest.warns(FutureWarning):
        regime = HEPAPretrainer(**TINY, norm="regime").fit(X)
    save(regime, tmp_path / "regime.pt")
    content = torch.load(tmp_path / "regime.pt", weights_only=True)
    content["params"] = {**as_written_by_0_2_0(content["params"]), "window_level": True}  # 0.2.0's default
    torch.save({**content, "digest": content_digest(content)}, tmp_path / "regime.pt")
    loaded = load(tmp_path / "regime.pt")
    assert loaded.window_level == "auto"
    with pytest.warns(FutureWarning, match="norm='regime'"):
        refitted = clone(loaded).fit(X)
    np.testing.assert_array_equal(refitted.transform(X), regime.transform(X))
