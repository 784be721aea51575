"""Encoder snapshots, the held-out pretraining loss, user callbacks and the untrained-encoder control."""

import signal

import numpy as np
import pytest
import torch
from skorch.callbacks import Callback

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.benchmarks.protocol import SubsetSplit
from hepa_sklearn.benchmarks.snapshots import (
    EncoderSnapshots,
    effective_rank,
    markdown,
    overview,
    plot_snapshots,
    pretrain_with_snapshots,
    run_snapshots,
    summarise,
    with_state,
)
from hepa_sklearn.benchmarks.sweep import METHODS, Method, pretrain
from hepa_sklearn.benchmarks.results import read_results
from hepa_sklearn.persistence import load, save

TINY = {"d_model": 16, "n_heads": 2, "dim_feedforward": 16, "predictor_hidden": 16, "max_horizon": 16}


def windows(n=24, seed=0):
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.normal(size=(n, 3, 64)), axis=2).astype("float32")


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
    from hepa_sklearn import make_survival_y

    y = make_survival_y(np.ones(40, bool), rng.integers(1, 20, 40))
    model = HEPAEventPredictor(K=10, hidden=16, max_epochs=2, random_state=0,
                               callbacks=[("mine", EpochRecorder())]).fit(E, y)
    assert dict(model.net_.callbacks_)["mine"].epochs_ == [1, 2]


@pytest.mark.parametrize("callbacks, error, match", [
    ([3], TypeError, "skorch callbacks"),
    ([("lr_schedule", EpochRecorder())], ValueError, "'lr_schedule' is already used"),
    ([EpochRecorder(), EpochRecorder()], ValueError, "'EpochRecorder' is already used"),
])
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


def test_pretraining_lowers_the_training_loss_measured_at_fixed_draws():
    X = windows(48)
    pretrainer, states = pretrain_with_snapshots(X, epochs=[0], pretrain_epochs=8, device="cpu", seed=0, **TINY)
    untrained = with_state(pretrainer, states[0])
    assert pretrainer.pretraining_loss(X)["loss"] < untrained.pretraining_loss(X)["loss"]


@pytest.mark.parametrize("regularize", ["context", "both"])
def test_regularizing_the_context_changes_training_and_is_recorded(regularize):
    X = windows()
    base = HEPAPretrainer(**TINY, max_epochs=1, random_state=0).fit(X)
    other = HEPAPretrainer(**TINY, max_epochs=1, random_state=0, regularize=regularize).fit(X)
    assert base.history_[-1, "train_sigreg"] != other.history_[-1, "train_sigreg"]
    assert not np.array_equal(base.transform(X), other.transform(X))


def test_within_window_centring_on_a_hand_computed_batch():
    from hepa_sklearn._training.criteria import centred_within

    values = torch.tensor([[0.0, 1.0], [2.0, 3.0], [10.0, 0.0], [7.0, 7.0], [4.0, 5.0]])
    owner = torch.tensor([0, 0, 2, 3, 0])
    # window 0: rows 0, 1, 4 with mean (2, 3); windows 2 and 3 have one row each and are left out
    expected = torch.tensor([[-2.0, -2.0], [0.0, 0.0], [2.0, 2.0]])
    assert torch.equal(centred_within(values, owner), expected)


def test_regularizing_within_windows_changes_training_and_needs_blocks_of_cuts():
    X = windows()
    params = dict(TINY, max_epochs=1, random_state=0, norm="global", cuts_per_window=8)
    base = HEPAPretrainer(**params).fit(X)
    within = HEPAPretrainer(**params, regularize="within").fit(X)
    assert base.history_[-1, "train_sigreg"] != within.history_[-1, "train_sigreg"]
    assert not np.array_equal(base.transform(X), within.transform(X))
    for bad in ({"batch_layout": "padded"}, {"cuts_per_window": 1}, {"norm": "revin"}):
        with pytest.raises(ValueError, match="regularize='within' needs several cuts of a window"):
            HEPAPretrainer(**{**params, **bad}, regularize="within").fit(X)


def test_the_change_objective_compares_predictions_with_target_minus_context():
    from hepa_sklearn._training.criteria import JEPACriterion

    predicted = torch.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
    target = torch.tensor([[2.0, 1.0], [1.0, 1.0], [0.0, 5.0]])
    context = torch.tensor([[1.0, 1.0], [1.0, 0.0], [-1.0, 2.0]])
    weight = torch.ones(3)
    change = JEPACriterion(alpha=0.0, objective="change")
    plain = JEPACriterion(alpha=0.0)
    # target - context = (1, 0), (0, 1), (1, 3): the first two point where the predictions do
    unit = 1 / np.sqrt(10)
    expected = (0 + 0 + abs(np.sqrt(0.5) - unit) + abs(np.sqrt(0.5) - 3 * unit)) / 6
    assert float(change((predicted, target, weight, context, torch.arange(3)))) == pytest.approx(expected, rel=1e-6)
    assert float(plain((predicted, target, weight, context, torch.arange(3)))) != pytest.approx(expected, rel=1e-3)


def test_predicting_the_change_trains_a_different_encoder():
    X = windows()
    base = HEPAPretrainer(**TINY, max_epochs=1, random_state=0).fit(X)
    change = HEPAPretrainer(**TINY, max_epochs=1, random_state=0, objective="change").fit(X)
    assert base.history_[-1, "train_l1"] != change.history_[-1, "train_l1"]
    assert not np.array_equal(base.transform(X), change.transform(X))
    with pytest.raises(ValueError, match="objective"):
        HEPAPretrainer(**TINY, objective="delta").fit(X)


def test_snapshots_hold_the_weights_of_their_epoch():
    X = windows()
    pretrainer, states = pretrain_with_snapshots(X, epochs=[0, 1], pretrain_epochs=2, device="cpu", seed=0, **TINY)
    assert sorted(states) == [0, 1, 2]
    final = pretrainer.net_.module_.state_dict()
    assert all(torch.equal(states[2][k], final[k]) for k in final)
    assert not all(torch.equal(states[0][k], states[1][k]) for k in final)
    # epoch 1 of a 2-epoch run equals a 1-epoch run only up to the LR schedule, so compare the start instead
    copy = with_state(pretrainer, states[0])
    assert copy is not pretrainer
    np.testing.assert_array_equal(pretrainer.transform(X), pretrainer.transform(X))
    assert not np.array_equal(copy.transform(X), pretrainer.transform(X))


def test_snapshot_callback_ignores_epochs_not_asked_for():
    callback = EncoderSnapshots({3}).initialize()
    assert callback.states_ == {}


def test_effective_rank_hand_cases():
    rng = np.random.default_rng(0)
    line = np.outer(rng.normal(size=200), np.ones(4))
    assert effective_rank(line) == pytest.approx(1.0, abs=1e-6)
    square = np.array([[1.0, 0], [-1, 0], [0, 1], [0, -1]])
    assert effective_rank(square) == pytest.approx(2.0)


def test_untrained_method_keeps_the_initial_weights():
    data = SubsetSplit("FD001", 0, regime=False)
    small = {**TINY, "max_horizon": 150}
    untrained, _ = pretrain(data, Method("hepa", untrained=True, pretrain=small), pretrain_epochs=3,
                            device="cpu", seed=0)
    _, states = pretrain_with_snapshots(data.X_pre, epochs=[0], pretrain_epochs=1, device="cpu", seed=0, **small)
    state = untrained.net_.module_.state_dict()
    assert all(torch.equal(state[k], states[0][k]) for k in state)
    assert METHODS["hepa-random"].untrained and not METHODS["hepa"].untrained
    assert METHODS["hepa-random"].pretrain_key() != METHODS["hepa"].pretrain_key()


def test_run_snapshots_writes_resumable_records_and_summarises(tmp_path, monkeypatch):
    from hepa_sklearn.benchmarks import sweep

    monkeypatch.setitem(sweep.METHODS, "tiny", Method("hepa", pretrain={**TINY, "max_horizon": 150}))
    results = tmp_path / "snap.jsonl"
    kwargs = dict(subsets=["FD001"], seeds=[0], methods=["tiny"], epochs=[0], pretrain_epochs=1,
                  finetune_epochs=1, device="cpu", results=str(results), log=lambda *a, **k: None)
    records = run_snapshots(**kwargs)
    assert [r["epoch"] for r in records] == [0, 1]
    for r in records:
        assert 0 <= r["h_auroc"] <= 1 and 0 <= r["valid_h_auroc"] <= 1
        assert r["eps_valid"] > 0 and r["rank_valid"] >= 1 and r["probe_r2_valid"] <= 1
    assert run_snapshots(**kwargs) == []  # resumed: nothing left
    assert len(read_results(results)) == 2
    rows = summarise(read_results(results))
    assert [row["seed"] for row in rows] == [0, "all"]
    with pytest.raises(ValueError, match="snapshot epochs must lie in"):
        run_snapshots(**{**kwargs, "epochs": [5]})
    with pytest.raises(ValueError, match="no pretrained encoder"):
        run_snapshots(**{**kwargs, "methods": ["gbm"]})
    pytest.importorskip("matplotlib")
    assert plot_snapshots(read_results(results), tmp_path / "snap.png").exists()


def swallowed_ctrl_c():
    """A Ctrl-C caught the way skorch's fit catches one."""
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        pass


def test_snapshots_cut_short_by_ctrl_c_are_not_recorded_and_the_study_resumes(tmp_path, monkeypatch):
    from hepa_sklearn.benchmarks import snapshots, sweep

    monkeypatch.setitem(sweep.METHODS, "tiny", Method("hepa", pretrain={**TINY, "max_horizon": 150}))
    results = tmp_path / "snap.jsonl"
    kwargs = dict(subsets=["FD001"], seeds=[0], methods=["tiny"], epochs=[0], pretrain_epochs=1,
                  finetune_epochs=1, device="cpu", results=str(results), log=lambda *a, **k: None)
    original, calls = snapshots._snapshot_record, []
    before = signal.getsignal(signal.SIGINT)  # SIG_IGN where pytest was started in the background by a script

    def second_cut_short(*args, **kwargs):
        calls.append(1)
        record = original(*args, **kwargs)
        if len(calls) == 2:
            swallowed_ctrl_c()
        return record

    monkeypatch.setattr(snapshots, "_snapshot_record", second_cut_short)
    with pytest.raises(KeyboardInterrupt):
        run_snapshots(**kwargs)
    assert [r["epoch"] for r in read_results(results)] == [0]  # the snapshot scored before the Ctrl-C stays

    class CutShort(EncoderSnapshots):  # the pretraining itself catches the Ctrl-C and ends early
        def on_epoch_end(self, net, **kwargs):
            super().on_epoch_end(net, **kwargs)
            swallowed_ctrl_c()

    monkeypatch.setattr(snapshots, "EncoderSnapshots", CutShort)
    with pytest.raises(KeyboardInterrupt):
        run_snapshots(**kwargs)
    assert len(calls) == 2 and len(read_results(results)) == 1  # nothing scored from that encoder
    monkeypatch.setattr(snapshots, "EncoderSnapshots", EncoderSnapshots)
    assert [r["epoch"] for r in run_snapshots(**kwargs)] == [1]
    assert signal.getsignal(signal.SIGINT) is before  # the study's own handler is gone again


def test_summarise_spearman_hand_case():
    records = [{"subset": "S", "method": "m", "seed": 0, "epoch": e, "eps_valid": x, "h_auroc": y}
               for e, x, y in [(0, 3.0, 0.5), (1, 2.0, 0.6), (2, 1.0, 0.7), (3, 0.5, 0.65)]]
    rows = summarise(records)
    assert rows[0]["rho"] == pytest.approx(-0.8)
    assert rows[0]["n"] == 4


def test_held_out_rank_is_recorded_and_can_drive_early_stopping():
    X = windows(40)
    by_loss = HEPAPretrainer(**TINY, max_epochs=3, random_state=0).fit(X)
    ranks = by_loss.history_[:, "valid_rank"]
    assert len(ranks) == 3 and all(1.0 <= r <= 4.0 for r in ranks)  # 4 held-out windows
    snapshots = ("snapshots", EncoderSnapshots({1, 2, 3}))
    by_rank = HEPAPretrainer(**TINY, max_epochs=3, random_state=0, early_stopping_score="rank",
                             callbacks=[snapshots]).fit(X)
    np.testing.assert_allclose(by_rank.history_[:, "valid_rank"], ranks)  # same run, other monitor
    # the weights kept are those of the epoch with the highest held-out rank
    states = dict(by_rank.net_.callbacks_)["snapshots"].states_
    kept = by_rank.net_.module_.state_dict()
    best = int(np.argmax(ranks)) + 1
    assert all(torch.equal(kept[k].cpu(), states[best][k]) for k in kept)
    assert HEPAPretrainer(early_stopping_score="rank").early_stopping_score == "rank"
    with pytest.raises(ValueError, match="early_stopping_score"):
        HEPAPretrainer(**TINY, max_epochs=1, early_stopping_score="spread").fit(X)
    assert "valid_rank" not in HEPAPretrainer(**TINY, max_epochs=1, early_stopping=False).fit(X).history_[-1]


@pytest.mark.parametrize(
    "name, param, value",
    [("hepa-sigreg-high", "sigreg_weight", 1.0), ("hepa-sigreg-low", "sigreg_weight", 0.01),
     ("hepa-proj1024", "n_projections", 1024), ("hepa-lowlr", "lr", 3e-5),
     ("hepa-constlr", "lr_schedule", "constant")],
)
def test_hypothesis_methods_change_one_parameter_of_the_packed_layout(name, param, value):
    spec = METHODS[name]
    assert spec.kind == "hepa" and not spec.regime and not spec.untrained and spec.finetune == {}
    assert {k: v for k, v in spec.pretrain.items() if k != param} == METHODS["hepa-packed"].pretrain
    assert spec.pretrain_key() != METHODS["hepa-packed"].pretrain_key()
    pretrainer, _ = pretrain_with_snapshots(windows(), epochs=[1], pretrain_epochs=1, device="cpu", seed=0,
                                            **{**TINY, **spec.pretrain})
    assert pretrainer.get_params()[param] == value and pretrainer.batch_layout == "packed"
    criterion, optimizer = pretrainer.net_.criterion_, pretrainer.net_.optimizer_
    assert criterion.alpha == (value if param == "sigreg_weight" else 0.1)
    assert criterion.regulariser.n_projections == (value if param == "n_projections" else 256)
    group = optimizer.param_groups[0]
    assert group.get("initial_lr", group["lr"]) == (value if param == "lr" else 3e-4)
    assert ("initial_lr" in group) == (param != "lr_schedule")  # set by the cosine schedule only
    terms = pretrainer.pretraining_loss(windows(8, seed=1))
    alpha = criterion.alpha  # the objective is (1 - alpha) * L1 + alpha * SIGReg
    assert terms["loss"] == pytest.approx((1 - alpha) * terms["l1"] + alpha * terms["sigreg"], rel=1e-5)


@pytest.mark.parametrize("schedule", ["cosine", "constant"])
def test_pretraining_lr_schedule(schedule):
    X = windows()
    pretrainer = HEPAPretrainer(**TINY, max_epochs=2, lr=1e-3, lr_schedule=schedule, early_stopping=False,
                                random_state=0).fit(X)
    lr = pretrainer.net_.optimizer_.param_groups[0]["lr"]
    # cosine annealing over max_epochs = 2 reaches 0 after the last epoch; constant never moves
    assert lr == (pytest.approx(0.0, abs=1e-12) if schedule == "cosine" else 1e-3)
    assert ("lr_schedule" in dict(pretrainer.net_.callbacks_)) == (schedule == "cosine")
    with pytest.raises(ValueError, match="lr_schedule"):
        HEPAPretrainer(**TINY, max_epochs=1, lr_schedule="linear").fit(X)


def test_overview_pairs_epoch_zero_with_each_seeds_last_snapshot():
    rows = [(0, 0, 3.0, 0.70), (0, 1, 2.0, 0.60), (0, 9, 1.0, 0.50),  # seed 0: ρ = +1, falls by 0.2
            (1, 0, 3.0, 0.60), (1, 5, 2.0, 0.65), (1, 7, 1.0, 0.80),  # seed 1: ρ = -1, rises by 0.2
            (2, 1, 2.5, 0.90), (2, 4, 1.5, 0.95), (2, 6, 1.0, 0.97)]  # ρ = -1; no epoch 0: not paired
    records = [{"subset": "S", "method": "m", "seed": s, "epoch": e, "eps_valid": x, "h_auroc": y}
               for s, e, x, y in rows]
    (row,) = overview(records)
    assert (row["seeds"], row["n"], row["negative"], row["paired"], row["last_higher"]) == (3, 9, 2, 2, 1)
    assert row["first"] == pytest.approx(0.65) and row["last"] == pytest.approx(0.65)
    assert row["rho"] == pytest.approx(summarise(records)[-1]["rho"])
    assert "| S | `m` | 3 | 9 |" in "\n".join(markdown([dict(r, rank_valid=1.0, probe_r2_valid=0.0, valid_h_auroc=0.5)
                                                       for r in records]))


def test_plot_snapshots_wraps_panels_four_to_a_row(tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    records = [{"subset": f"S{k}", "method": "m", "seed": 0, "epoch": e, "eps_valid": 2.0 - e, "h_auroc": 0.5 + e / 10}
               for k in range(5) for e in (0, 1)]
    height, width = imread(plot_snapshots(records, tmp_path / "grid.png")).shape[:2]
    assert (width, height) == (4 * 540, 2 * 480)  # 4.5 x 4 inches a panel at 120 dpi
