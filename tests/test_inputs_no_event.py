"""A surface estimator given y without an event within K steps says so: every one refuses it with the same message.

Every cell of the surface such y labels is negative (or unknown), so there is
nothing to learn the probability of an event from; a fit that went on would
return a constant surface (0 or 0.5 at every horizon) without a word.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn import (
    ElapsedTimeEventPredictor,
    GradientBoostingEventPredictor,
    HEPAEventPredictor,
    HEPAFinetuner,
    HEPAPretrainer,
)
from hepa_sklearn.baselines import ITransformerEncoder, MatchedHeadPredictor, PatchTSTEncoder
from hepa_sklearn.surface import check_survival_y, make_survival_y
from tests.conftest import TINY_PRETRAINER

K = 10
RNG = np.random.default_rng(0)
X = RNG.normal(size=(24, 3, 32)).astype(np.float32)
E = RNG.normal(size=(24, 8)).astype(np.float32)
NO_EVENT = r"y has no event within K=10 steps of any window .*nothing to learn from"
TINY_NET = dict(K=K, max_epochs=1, batch_size=16, random_state=0)
TINY_ENCODER = dict(d_model=16, n_heads=2, n_layers=1, patch_size=8)

# (name, estimator factory, input); every surface estimator of the package
ESTIMATORS = [
    ("elapsed", lambda: ElapsedTimeEventPredictor(K=K), X),
    ("boosting", lambda: GradientBoostingEventPredictor(K=K), X),
    ("event_predictor", lambda: HEPAEventPredictor(hidden=16, **TINY_NET), E),
    ("matched_head", lambda: MatchedHeadPredictor(hidden=16, **TINY_NET), E),
    (
        "finetuner",
        lambda: HEPAFinetuner(
            pretrainer=HEPAPretrainer(**{**TINY_PRETRAINER, "max_epochs": 0}).fit(X), hidden=16, **TINY_NET
        ),
        X,
    ),
    ("patchtst", lambda: PatchTSTEncoder(hidden=16, **TINY_ENCODER, **TINY_NET), X),
    ("itransformer", lambda: ITransformerEncoder(hidden=16, d_model=16, n_heads=2, n_layers=1, **TINY_NET), X),
]


def censored(n, time=50.0):
    return make_survival_y(np.zeros(n, bool), np.full(n, time))


@pytest.mark.parametrize("name, build, inputs", ESTIMATORS, ids=[name for name, _, _ in ESTIMATORS])
def test_every_surface_estimator_refuses_y_without_an_event(name, build, inputs):
    with pytest.raises(ValueError, match=NO_EVENT):
        build().fit(inputs, censored(len(inputs)))


@pytest.mark.parametrize("name, build, inputs", ESTIMATORS, ids=[name for name, _, _ in ESTIMATORS])
def test_every_surface_estimator_refuses_events_only_beyond_k(name, build, inputs):
    y = make_survival_y(np.ones(len(inputs), bool), np.full(len(inputs), K + 5.0))
    with pytest.raises(ValueError, match=NO_EVENT):
        build().fit(inputs, y)


def test_one_event_within_k_is_enough_for_the_elapsed_time_baseline():
    event = np.zeros(len(X), bool)
    event[3] = True
    time = np.where(event, 4.0, 50.0)
    P = ElapsedTimeEventPredictor(K=K).fit(X, make_survival_y(event, time)).predict_proba(X)
    assert P.shape == (len(X), K) and P.max() > 0


@settings(max_examples=50, deadline=None)
@given(event=st.lists(st.booleans(), min_size=1, max_size=30), data=st.data(), K_=st.integers(1, 20))
def test_events_within_refuses_exactly_when_no_event_falls_within_k(event, data, K_):
    time = data.draw(st.lists(st.floats(0, 40), min_size=len(event), max_size=len(event)))
    y = make_survival_y(event, time)
    within = any(e and t <= K_ for e, t in zip(event, time, strict=True))
    if within:
        check_survival_y(y, events_within=K_)
    else:
        with pytest.raises(ValueError, match=f"no event within K={K_} steps"):
            check_survival_y(y, events_within=K_)
