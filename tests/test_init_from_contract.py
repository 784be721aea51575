"""``init_from`` has one contract wherever it appears: HEPAPretrainer and HEPAEventPredictor alike.

It takes a fitted HEPAPretrainer, one in a ``FrozenEstimator`` or the path of
one written by ``hepa_sklearn.persistence.save``; both estimators document it
in the same sentence and refuse the same bad inputs with the same errors.
"""

import re

import numpy as np
import pytest
import torch
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.preprocessing import StandardScaler

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.persistence import save
from hepa_sklearn.surface import make_survival_y

# h_t alone (no window level), as the event predictor's init_from needs
PRETRAINER = dict(d_model=16, n_heads=2, n_layers=1, K=16, regimes=None, window_level=False, random_state=0)
EVENT = dict(K=10, hidden=16, max_epochs=1, lr=1e-12, random_state=0)
SENTENCE = (
    "Start from a fitted pretrainer's weights: the pretrainer, one in a ``sklearn.frozen.FrozenEstimator`` "
    "(which ``sklearn.clone`` leaves fitted, as grid searches need), or the path of one written by "
    ":func:`hepa_sklearn.persistence.save`."
)
ESTIMATORS = ["pretrainer", "event predictor"]
UNFITTED = "init_from must be a fitted HEPAPretrainer; this one is not fitted."


@pytest.fixture(scope="module")
def data():
    X = np.random.default_rng(0).normal(size=(24, 3, 48)).astype("float32")
    source = HEPAPretrainer(**PRETRAINER, max_epochs=1).fit(X)
    y = make_survival_y(np.ones(len(X), bool), 1 + np.arange(len(X)) % 9)
    return X, y, source


def fit_from(which, init_from, data):
    """The estimator ``which`` fitted with ``init_from``, and the weights it started from its source."""
    X, y, source = data
    if which == "pretrainer":
        model = HEPAPretrainer(**PRETRAINER, init_from=init_from).fit(X)  # max_epochs=0: the source's weights
        return model, model.net_.module_.encoder.state_dict()
    model = HEPAEventPredictor(**EVENT, init_from=init_from).fit(source.transform(X), y)
    return model, model.net_.module_.predictor.state_dict()


def source_weights(which, source):
    module = source.net_.module_
    return (module.encoder if which == "pretrainer" else module.predictor).state_dict()


def docstring_entry(cls):
    entry = cls.__doc__.split("    init_from : ", 1)[1]
    entry = entry.split("\n    n_causes", 1)[0].split("\n    max_epochs", 1)[0]  # the next parameter
    return " ".join(entry.split())


@pytest.mark.parametrize("which", ESTIMATORS)
@pytest.mark.parametrize("form", ["fitted", "frozen", "path", "str", "cloned frozen", "cloned path"])
def test_every_form_starts_from_the_same_weights(which, form, data, tmp_path):
    X, y, source = data
    path = tmp_path / "source.pt"
    save(source, path)
    given = {
        "fitted": source,
        "frozen": FrozenEstimator(source),
        "path": path,
        "str": str(path),
        "cloned frozen": clone(FrozenEstimator(source)),
        "cloned path": path,
    }[form]
    if form.startswith("cloned"):
        owner = HEPAPretrainer if which == "pretrainer" else HEPAEventPredictor
        given = clone(owner(init_from=given)).init_from
    _, started = fit_from(which, given, data)
    expected = source_weights(which, source)
    for name, tensor in expected.items():
        if name.rsplit(".", 1)[-1] in ("channel_loc", "channel_scale"):  # this data's statistics
            continue
        torch.testing.assert_close(started[name], tensor, rtol=0, atol=1e-6 if which != "pretrainer" else 0)


def test_both_docstrings_state_the_same_contract():
    pretrainer, event = docstring_entry(HEPAPretrainer), docstring_entry(HEPAEventPredictor)
    for entry in (pretrainer, event):
        assert entry.startswith("HEPAPretrainer, FrozenEstimator, str, path-like or None, default=None")
        assert SENTENCE in entry
        assert "Not stored by :func:`~hepa_sklearn.persistence.save` (the fitted weights hold it)." in entry


def bad_inputs(data, tmp_path):
    other = tmp_path / "scaler.pt"
    pytest.importorskip("skops")
    save(StandardScaler().fit(np.ones((3, 2))), other)
    return [
        (3, TypeError, "init_from must be None, a fitted HEPAPretrainer (or one in a FrozenEstimator) or"),
        (HEPAPretrainer(**PRETRAINER), NotFittedError, UNFITTED),
        (clone(data[2]), NotFittedError, UNFITTED),
        (FrozenEstimator(HEPAPretrainer()), NotFittedError, UNFITTED),
        (FrozenEstimator(StandardScaler().fit(np.ones((3, 2)))), TypeError, "got FrozenEstimator"),
        (str(other), ValueError, f"init_from={str(other)!r} holds a StandardScaler, not a HEPAPretrainer."),
        (tmp_path / "absent.pt", FileNotFoundError, "absent.pt"),
    ]


def test_the_same_bad_input_raises_the_same_error_in_both(data, tmp_path):
    for given, error, message in bad_inputs(data, tmp_path):
        raised = []
        for which in ESTIMATORS:
            with pytest.raises(error, match=re.escape(message)) as info:
                fit_from(which, given, data)
            raised.append((type(info.value), str(info.value)))
        assert raised[0] == raised[1], given


def test_each_estimator_then_checks_what_it_reads_from_the_source(data):
    X, y, source = data
    with pytest.raises(ValueError, match=r"another architecture: K=16 \(here 32\)"):
        HEPAPretrainer(**{**PRETRAINER, "K": 32}, init_from=source).fit(X)
    with pytest.raises(ValueError, match="init_from needs head='mlp'"):
        model = HEPAEventPredictor(**EVENT, head="linear", init_from=FrozenEstimator(source))
        model.fit(source.transform(X), y)
