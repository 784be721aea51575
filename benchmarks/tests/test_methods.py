"""The method table: its entries and families, the encoders, heads and surfaces it calls, the plain default pipeline."""

import functools

import numpy as np
import pytest
import torch
from hepa_bench.methods.beside import BESIDE_METHODS
from hepa_bench.methods.designs import DESIGN_METHODS
from hepa_bench.methods.normalisation import NORMALISATION_METHODS
from hepa_bench.methods.table import (
    METHODS,
    PAPER_ABLATIONS,
    Method,
    baselines,
    end_to_end,
    event_head,
    headline_variants,
    pretrained_hepa,
    references,
    supervised_encoder,
    tuned_variants,
    untrained_hepa,
)
from hepa_bench.protocols import default_pipeline, kept_epoch
from hepa_bench.registry import BENCHMARKS
from hepa_bench.runner import _fit_encoder, run_cell
from hepa_bench.snapshots import EncoderSnapshots

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.baselines import MiniRocketEncoder

RETIRED = {
    "hepa-ctxreg": "regularize",
    "hepa-uniform": "horizons",
    "hepa-within": "regularize",
    "hepa-change": "objective",
    "hepa-proj1024": "n_projections",
    "hepa-constlr": "lr_schedule",
}


def test_a_method_needs_an_encoder_or_a_surface_and_an_encoder_a_head():
    with pytest.raises(ValueError, match="needs an encoder or a surface"):
        Method("neither")
    with pytest.raises(ValueError, match="with an encoder and no surface needs a head"):
        Method("no head", encoder=pretrained_hepa, head=None)
    assert Method("retired", retired="gone").encoder is None  # a retired method keeps its name alone
    assert METHODS["hepa"].head is event_head and METHODS["hepa"].encoder is pretrained_hepa
    assert METHODS["hepa-e2e"].surface is end_to_end


def test_the_table_names_each_method_once_with_its_family():
    assert {
        "hepa",
        "hepa-random",
        "hepa-default",
        "hepa-default-rank",
        "mae",
        "patchtst",
        "itransformer",
        "gbm",
    } <= set(METHODS)
    assert {m.family for m in METHODS.values()} == {"hepa", "default", "candidate", "baseline", "reference", "former"}
    # the headline line of each release: 0.1.0's defaults and 0.2.0's (counted in the win tables)
    assert [m for m, spec in METHODS.items() if spec.family == "default"] == ["hepa-default", "hepa-default-auto0"]
    assert [m for m, spec in METHODS.items() if spec.family == "candidate"] == [
        "hepa-default-rank",
        "hepa-default-untrained",
        "hepa-default-regime",
        "hepa-default-regime0",
        "hepa-default-auto0-spread",
        "hepa-default-trend0",
        "hepa-default-auto0-channel",
        "hepa-default-auto0-wd",
        "hepa-default-auto0-knots16",
        "hepa-default-auto0-knots8",
        "hepa-default-auto0-knots12",
        "hepa-default-auto0-knots12-b128",
        "hepa-default-auto0-knots16-h128",
        "hepa-default-auto0-nll",
        "hepa-u64-untrained",
        "hepa-u64-own",
        "hepa-corpus-u64",
        "hepa-corpus-u64-continued",
        "hepa-corpus-u64-sim30",
        "hepa-u128-untrained",
        "hepa-corpus-u128",
        "hepa-corpus-u128-h50",
        "hepa-corpus-u128-half",
        "hepa-u128-l4-untrained",
        "hepa-corpus-u128-l4",
        "hepa-corpus-u128-finetuned",
        "hepa-u128-finetuned",
        "hepa-u256-untrained",
        "hepa-corpus-u256",
        *NORMALISATION_METHODS,
        *BESIDE_METHODS,
        *DESIGN_METHODS,
        "gbm-hazard",
    ]
    # the boosting baselines with the targets of release 0.2.0: records kept, no longer run
    assert {m: spec.retired is not None for m, spec in METHODS.items() if spec.family == "former"} == {
        f"{m}-logtime": True for m in ("gbm", "gbm-select", "gbm-regime", "gbm-last30", "gbm-regime-last30")
    }
    assert {m for m, spec in METHODS.items() if spec.family == "baseline"} == {
        "mae",
        "patchtst",
        "itransformer",
        "gbm",
        "gbm-select",
        "gbm-regime",
        "gbm-last30",
        "gbm-regime-last30",
        "patchtst-revin",
        "itransformer-revin",
        "chronos2",
        "moment",
        "timesfm",
        "moirai",
        "minirocket",
        "minirocket-10k",
        "patchtst-regime",
        "itransformer-regime",
        "gbm-simple",
    }
    # the regime-normalised neural baselines run where operating conditions exist, C-MAPSS alone
    assert METHODS["patchtst-regime"].regime and METHODS["patchtst-regime"].datasets == (
        "FD001",
        "FD002",
        "FD003",
        "FD004",
    )
    assert METHODS["minirocket-10k"].pretrain == {"n_kernels": 9996}
    assert METHODS["gbm-last30"].finetune == {"features": "last"} and METHODS["gbm"].finetune == {}
    assert references(list(METHODS)) == ["elapsed", "position"]
    assert {m for m, spec in METHODS.items() if spec.control} == {
        "hepa-random",
        "hepa-random-regime",
        "hepa-random-e2e",
        "hepa-channel-random",
    }
    assert PAPER_ABLATIONS == ("hepa-vicreg", "hepa-ema", "hepa-linear", "hepa-e2e", "hepa-nll")
    assert tuned_variants(["gbm", "hepa", "hepa-default", "nope", "hepa-channel"]) == ["hepa", "hepa-channel"]
    listed = ["gbm", "hepa", "hepa-random", "hepa-default", "hepa-default-rank", "elapsed", "mae", "hepa-channel"]
    assert headline_variants(listed) == ["hepa", "hepa-default", "hepa-channel"]
    assert baselines(listed) == ["gbm", "mae"]
    # methods with the same encoder, pretraining parameters and normalisation share one fitted encoder
    assert METHODS["hepa"].encoder_key == METHODS["hepa-matched"].encoder_key == METHODS["hepa-nll"].encoder_key
    assert METHODS["hepa"].encoder_key != METHODS["hepa-random"].encoder_key
    assert METHODS["hepa"].encoder_key != METHODS["hepa-regime"].encoder_key
    assert METHODS["gbm"].encoder_key is None


def test_retired_methods_name_the_option_that_was_removed():
    retired = {name: spec.retired for name, spec in METHODS.items() if spec.retired and spec.family != "former"}
    assert set(retired) == set(RETIRED)
    for name, option in RETIRED.items():
        assert f"no longer have {option}" in retired[name]
        assert METHODS[name].encoder is None and METHODS[name].surface is None


def windows(n=24, seed=0):
    return np.cumsum(np.random.default_rng(seed).normal(size=(n, 3, 64)), axis=2).astype("float32")


@pytest.mark.parametrize(
    "name, param, value",
    [
        ("hepa-sigreg-high", "regularizer_weight", 1.0),
        ("hepa-sigreg-low", "regularizer_weight", 0.01),
        ("hepa-sigreg-mid", "regularizer_weight", 0.5),
        ("hepa-lowlr", "lr", 3e-5),
        ("hepa-revin", "norm", "revin"),
    ],
)
def test_hypothesis_methods_change_one_parameter_of_the_packed_layout(name, param, value, tiny):
    spec = METHODS[name]
    assert spec.family == "hepa" and not spec.regime and spec.finetune == {} and spec.encoder is pretrained_hepa
    assert {k: v for k, v in spec.pretrain.items() if k != param} == METHODS["hepa-packed"].pretrain
    assert spec.encoder_key != METHODS["hepa-packed"].encoder_key
    pretrainer = BENCHMARKS["FD001"].make_pretrainer(1, device="cpu", seed=0, K=16, **tiny["encoder"], **spec.pretrain)
    assert type(pretrainer) is HEPAPretrainer  # the packed layout is the library's estimator
    assert pretrainer.get_params()[param] == value and pretrainer.max_epochs == 1
    assert (pretrainer.norm, pretrainer.early_stopping) == ("revin" if param == "norm" else "global", False)
    pretrainer.fit(windows())
    group = pretrainer.net_.optimizer_.param_groups[0]
    assert group.get("initial_lr", group["lr"]) == (value if param == "lr" else 3e-4)
    terms = pretrainer.pretraining_loss(windows(8, seed=1))
    alpha = pretrainer.regularizer_weight  # the objective is (1 - alpha) * L1 + alpha * SIGReg
    assert terms["loss"] == pytest.approx((1 - alpha) * terms["l1"] + alpha * terms["sigreg"], rel=1e-5)


def test_the_rank_stopped_variant_holds_out_a_fifth_of_the_units():
    pretrainer = BENCHMARKS["FD001"].make_pretrainer(3, device="cpu", seed=0, **METHODS["hepa-rankstop"].pretrain)
    assert (pretrainer.validation_metric, pretrainer.validation_fraction) == ("rank", 0.2)
    assert type(pretrainer) is HEPAPretrainer


@pytest.mark.parametrize("tokens", ["patch", "channel"])
def test_the_untrained_controls_keep_their_initial_weights_and_statistics(tokens, data_home, small_registry, tiny):
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    params = {**tiny["encoder"], "tokens": tokens}
    untrained = untrained_hepa(entry, data, epochs=3, device="cpu", seed=0, **params)
    assert untrained.tokens == tokens and untrained.n_epochs_ == 0
    snapshots = ("snapshots", EncoderSnapshots({0}))
    trained = entry.make_pretrainer(1, device="cpu", seed=0, callbacks=[snapshots], **params).fit(data.X_pre)
    # the input statistics of a trained encoder and the weights its training started from
    np.testing.assert_array_equal(untrained.channel_loc_, trained.channel_loc_)
    start = dict(trained.net_.callbacks_)["snapshots"].states_[0]
    state = untrained.net_.module_.state_dict()
    assert all(torch.equal(state[k].cpu(), start[k]) for k in state)
    X = data.X_pre[:8]
    assert not np.allclose(untrained.transform(X), trained.transform(X))
    again = untrained_hepa(entry, data, epochs=3, device="cpu", seed=0, **params)
    np.testing.assert_array_equal(untrained.transform(X), again.transform(X))
    assert METHODS[f"hepa{'-channel' if tokens == 'channel' else ''}-random"].encoder is untrained_hepa


def test_baselines_and_variants_run_through_the_runner(run_small):
    methods = ["mae", "hepa-matched", "hepa-channel", "hepa-random-e2e", "gbm"]
    records = run_small(methods=methods, fractions=[1.0], methods_table=METHODS)
    assert sorted(r["method"] for r in records) == sorted(methods)
    for record in records:
        assert 0 <= record["h_auroc"] <= 1 and record["n_train_windows"] > 0
    gbm = next(r for r in records if r["method"] == "gbm")
    # the boosting candidate with the best validation h-AUROC, named in the record
    assert 0 <= gbm["gbm_candidate"] < 4 and isinstance(gbm["gbm_params"], dict)
    e2e = next(r for r in records if r["method"] == "hepa-random-e2e")
    assert e2e["pretrain_epochs_run"] == 0  # end-to-end training from the initial weights


def test_the_minirocket_baseline_is_fitted_on_the_pretraining_windows_under_the_event_head(
    run_small, data_home, small_registry
):
    pytest.importorskip("aeon", reason="the minirocket method needs the 'minirocket' extra (aeon)")
    method = METHODS["minirocket"]
    assert method.family == "baseline" and method.head is event_head and method.surface is None
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    encoder = method.encoder(entry, data, epochs=3, device="cpu", seed=0)
    assert type(encoder) is MiniRocketEncoder and encoder.random_state == 0
    E = encoder.transform(data.X_pre)  # standardised by the pretraining windows' own statistics
    np.testing.assert_allclose(E.mean(axis=0), 0, atol=1e-4)
    np.testing.assert_array_equal(E, method.encoder(entry, data, epochs=3, device="cpu", seed=0).transform(data.X_pre))
    # the head is the event predictor with its defaults, as hepa's
    head = method.head(
        entry,
        encoder.transform(data.X_train),
        data.y_train,
        encoder.transform(data.X_valid),
        data.y_valid,
        epochs=1,
        device="cpu",
        seed=0,
    )
    defaults = HEPAEventPredictor().get_params()
    assert type(head) is HEPAEventPredictor and (head.hidden, head.lr) == (defaults["hidden"], defaults["lr"])
    records = run_small(methods=["minirocket"], fractions=[1.0, 0.2], methods_table=METHODS)
    assert [(r["method"], r["fraction"]) for r in records] == [("minirocket", 1.0), ("minirocket", 0.2)]
    for record in records:
        assert 0 <= record["h_auroc"] <= 1 and record["n_pretrain_windows"] == len(data.X_pre)


@pytest.mark.parametrize("method", ["patchtst", "itransformer"])
def test_supervised_baselines_on_cmapss_train_the_protocols_fixed_epochs(method, fd001):
    # C-MAPSS finetunes for fixed epochs (no early stopping): the supervised baselines follow the same rule
    entry, data = BENCHMARKS["FD001"], fd001
    mask, n_units = data.train_mask(0.01)
    assert n_units == 1 and set(data.g_train[mask]) == {data.g_train[0]}  # the first unit of the seed's list
    build, estimator = METHODS[method].encoder.func, METHODS[method].encoder.args[0]
    assert build is supervised_encoder
    small = functools.partial(estimator, d_model=16, n_heads=2, n_layers=1, hidden=16)
    encoder = build(small, entry, data, mask, epochs=2, device="cpu", seed=0)
    assert type(encoder) is estimator and encoder.early_stopping is False and encoder.n_epochs_ == 2
    assert encoder.K == entry.K == 150
    assert encoder.transform(data.X_valid[:3]).shape == (3, encoder.d_model)


# the defaults of release 0.1.0 that 0.2.0 changed (its norm="revin" is regimes=None, window_level=False today)
OLD_DEFAULTS = {"regimes": None, "window_level": False, "max_epochs": 100}


@pytest.mark.parametrize(
    "method, changed",
    [
        ("hepa-default", OLD_DEFAULTS),
        ("hepa-default-rank", {**OLD_DEFAULTS, "validation_metric": "rank"}),
        ("hepa-default-auto0", {"window_level": True}),  # pinned; the default "auto" appends the level alike
    ],
)
def test_default_pipeline_cell_is_the_plain_pipeline_fitted_on_the_labelled_windows_alone(
    method, changed, data_home, small_registry, monkeypatch
):
    from hepa_bench import protocols

    fitted = []

    def keeping(*args, **kwargs):
        fitted.append(default_pipeline(*args, **kwargs))
        return fitted[-1]

    monkeypatch.setattr(protocols, "default_pipeline", keeping)
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    cell = run_cell(entry, data, METHODS[method], 0.2, seed=0, finetune_epochs=1, device="cpu")
    (pipe,) = fitted
    mask, _ = data.train_mask(0.2)
    # every parameter at today's default but the seed and device (and K for the predictor), the
    # 0.1.0 defaults for hepa-default, and a candidate default's one change
    assert pipe[0].get_params() == HEPAPretrainer(random_state=0, device="cpu", **changed).get_params()
    # the predictor at the pinned defaults of 0.2.0 (every horizon: horizon_knots=None), today's otherwise
    assert (
        pipe[-1].get_params()
        == HEPAEventPredictor(K=entry.K, random_state=0, device="cpu", horizon_knots=None).get_params()
    )
    # fitted on the labelled windows alone; the protocol's epoch counts do not apply: the defaults' early
    # stopping decides
    assert pipe[0].n_features_in_ == data.X_train.shape[1] and cell["n_train_windows"] == mask.sum()
    assert cell["pretrain_epochs_run"] == pipe[0].n_epochs_ and cell["finetune_epochs_run"] == pipe[-1].n_epochs_
    assert min(1, pipe[0].n_epochs_) <= cell["pretrain_epoch_kept"] == kept_epoch(pipe[0]) <= pipe[0].n_epochs_
    assert cell["pretrain_s"] == 0.0  # no encoder of the method's own: the pipeline's fit is the cell's
    assert cell["h_auroc"] == pytest.approx(h_auroc(data.y_test, pipe.predict_proba(data.X_test)), abs=1e-12)


def test_gbm_select_lets_the_validation_windows_choose_the_features_too(data_home, small_registry, fd001):
    from hepa_bench.methods.table import gradient_boosting

    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    mask = np.ones(len(data.y_train), bool)
    chosen, info = gradient_boosting(entry, data, mask, epochs=1, device="cpu", seed=0, choose_features=True)
    plain, plain_info = gradient_boosting(entry, data, mask, epochs=1, device="cpu", seed=0)
    last, last_info = gradient_boosting(entry, data, mask, epochs=1, device="cpu", seed=0, features="last")
    assert plain_info["gbm_features"] == "multiscale" and last_info["gbm_features"] == "last"
    assert 0 <= info["gbm_candidate"] < 8 and info["gbm_features"] in ("multiscale", "last")
    scores = {
        name: h_auroc(data.y_valid, model.predict_proba(data.X_valid))
        for name, model in (("select", chosen), ("multiscale", plain), ("last", last))
    }
    assert scores["select"] == max(scores.values())  # the best of both searches on the validation windows
    with pytest.raises(ValueError, match="event datasets"):
        gradient_boosting(
            BENCHMARKS["FD001"],
            fd001,
            np.ones(len(fd001.y_train), bool),
            epochs=1,
            device="cpu",
            seed=0,
            choose_features=True,
        )


def test_the_trend_level_pretrainer_changes_the_level_alone():
    from hepa_bench.protocols import TrendLevelPretrainer

    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 3, 48)).astype(np.float32)
    small = dict(d_model=16, n_heads=2, n_layers=1, max_epochs=0, random_state=0, device="cpu")
    trend, default = TrendLevelPretrainer(**small).fit(X).transform(X), HEPAPretrainer(**small).fit(X).transform(X)
    assert trend.shape == (12, 16 + 8 * 3)  # mean and slope per channel over four spans
    np.testing.assert_array_equal(trend[:, :16], default[:, :16])
    assert TrendLevelPretrainer(**small, window_level=False).fit(X).transform(X).shape == (12, 16)


def test_the_spread_level_pretrainer_adds_the_standard_deviations_to_the_level():
    from hepa_bench.protocols import SpreadLevelPretrainer

    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 3, 48)).astype(np.float32)
    small = dict(d_model=16, n_heads=2, n_layers=1, max_epochs=0, random_state=0, device="cpu")
    spread, default = SpreadLevelPretrainer(**small).fit(X).transform(X), HEPAPretrainer(**small).fit(X).transform(X)
    assert spread.shape == (12, 16 + 4 * 3)  # mean and standard deviation per channel over two spans
    np.testing.assert_array_equal(spread[:, :16], default[:, :16])
    # the means are the default level's columns, in the order of the spans
    np.testing.assert_allclose(spread[:, [16, 17, 18, 22, 23, 24]], default[:, 16:], rtol=1e-6)


def test_the_foundation_baselines_load_their_weights_from_the_model_home(
    data_home, small_registry, tmp_path, monkeypatch
):
    import pathlib
    import sys

    from hepa_bench.methods.foundation import model_home

    monkeypatch.delenv("HEPA_MODEL_HOME", raising=False)
    monkeypatch.setenv("HEPA_DATA_HOME", str(data_home))
    assert model_home() == pathlib.Path(data_home) / "models"  # the data home's models/ by default
    monkeypatch.setenv("HEPA_MODEL_HOME", str(tmp_path))
    assert model_home() == tmp_path
    assert {"chronos2", "moment", "timesfm", "moirai"} <= set(baselines(list(METHODS)))
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    method = METHODS["moment"]
    with pytest.raises(FileNotFoundError, match="AutonLab/MOMENT-1-large"):  # no folder: what to fetch
        _fit_encoder(method, entry, data, 1.0, pre_epochs=1, ft_epochs=1, device="cpu", seed=0)
    pytest.importorskip("transformers")
    pytest.importorskip("safetensors")
    sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "tests"))
    from test_foundation import write_moment_checkpoint  # a tiny MOMENT in the released layout

    write_moment_checkpoint(tmp_path / "MOMENT-1-large")
    encoded = _fit_encoder(method, entry, data, 1.0, pre_epochs=1, ft_epochs=1, device="cpu", seed=0)
    cell = run_cell(entry, data, method, 1.0, seed=0, finetune_epochs=1, device="cpu", encoded=encoded)
    assert 0 <= cell["h_auroc"] <= 1 and encoded.E_train.shape[1] == 16  # the tiny model's width


def test_the_predictor_init_variant_starts_from_the_pretrained_predictor(data_home, small_registry):
    from hepa_bench.protocols import predictor_init

    assert METHODS["hepa-init"].encoder is pretrained_hepa and METHODS["hepa-init"].surface is predictor_init
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    encoder = pretrained_hepa(entry, data, epochs=1, device="cpu", seed=0, d_model=16, n_heads=2, n_layers=1)
    mask, _ = data.train_mask(1.0)
    model, info = predictor_init(entry, data, mask, epochs=1, device="cpu", seed=0, encoder=encoder, hidden=16)
    # started from the pretrainer (init_from): the head reads Δt on the pretrainer's horizon scale
    assert model.head.horizon_scale_ == encoder.K and info["finetune_epochs_run"] == model.head.n_epochs_
    P = model.predict_proba(data.X_test)
    assert P.shape == (len(data.X_test), entry.K) and (np.diff(P, axis=1) >= -1e-7).all()


def test_the_frozen_multi_horizon_probe_reads_the_predictor_at_16_horizons(data_home, small_registry):
    from hepa_bench.protocols import PROBE_HORIZONS, PredictorFeatures, multi_horizon_probe

    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    encoder = pretrained_hepa(entry, data, epochs=1, device="cpu", seed=0, d_model=16, n_heads=2, n_layers=1)
    features = PredictorFeatures(encoder)
    X = data.X_valid[:5]
    F = features.transform(X)
    assert F.shape == (5, PROBE_HORIZONS * 16) and features.horizons[-1] == encoder.K
    # block k is the predictor at horizon k * K / 16, one window at a time
    h = torch.as_tensor(encoder.transform(X[:1]))
    with torch.no_grad():
        at_third = encoder.predictor_(h, torch.tensor([3 * encoder.K / PROBE_HORIZONS])).numpy()
    np.testing.assert_allclose(F[0, 2 * 16 : 3 * 16], at_third[0], rtol=1e-5, atol=1e-6)
    mask, _ = data.train_mask(1.0)
    model, info = multi_horizon_probe(entry, data, mask, epochs=1, device="cpu", seed=0, encoder=encoder)
    assert model.head.head == "linear" and -1 <= info["cross_horizon_cosine"] <= 1
    assert model.predict_proba(data.X_test).shape == (len(data.X_test), entry.K)


def test_the_twenty_line_boosting_model_reads_four_features_of_the_last_30_steps_and_the_observed_events():
    from hepa_bench.methods.simple_boosting import SimpleBoosting, last_steps_features

    from hepa_sklearn.surface import make_survival_y

    # one channel ramping 0..39 with the first 5 steps padded: the features of the last 30 steps by hand
    window = np.arange(40, dtype=float)
    window[:5] = np.nan
    features = last_steps_features(window[None, None, :])
    np.testing.assert_allclose(features, [[39.0, 34.5, 24.5, 1.0]])
    # a window younger than 30 steps: its padded steps count as 0
    young = np.full(40, np.nan)
    young[-2:] = [4.0, 6.0]
    # slope: sum of (value x centred step) over sum of squared centred steps, 141 / 2247.5
    np.testing.assert_allclose(last_steps_features(young[None, None, :]), [[6.0, 1.0, 10.0 / 30, 141 / 2247.5]])

    rng = np.random.default_rng(0)
    n = 200
    time = rng.uniform(1, 100, n)
    X = (time[:, None, None] * np.ones((n, 2, 40)) + rng.normal(0, 1, (n, 2, 40))).astype(np.float32)
    event = rng.uniform(size=n) < 0.7
    y = make_survival_y(event, time)
    model = SimpleBoosting(K=20, random_state=0).fit(X, y)
    surface = model.predict_proba(X)
    assert surface.shape == (n, 20) and np.all(np.diff(surface, axis=1) >= 0)
    assert np.all((surface >= 0) & (surface <= 1))
    # every horizon ranks the windows as the negative predicted log time does: shortest predicted time first
    order = np.argsort(model.predict(X), kind="stable")
    for k in (0, 10, 19):
        assert np.all(np.diff(surface[order, k]) <= 1e-12)
    # censored windows take no part: their times changed, the model is the same
    moved = make_survival_y(event, np.where(event, time, 1.0))
    again = SimpleBoosting(K=20, random_state=0).fit(X, moved)
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    with pytest.raises(ValueError, match="observed event"):
        SimpleBoosting(K=20).fit(X, make_survival_y(np.zeros(n, bool), time))
