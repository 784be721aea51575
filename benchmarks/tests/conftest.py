"""Shared fixtures of the harness tests: tiny models, a synthetic VIX in a data home, small registry entries.

Nothing here needs the real benchmark data: the VIX loader reads a series
made below (a level crossing 25 from below every 90 days or so), and the
C-MAPSS entries read the subsets the library ships.
"""

import dataclasses
import signal

import numpy as np
import pandas as pd
import pytest
import torch
from hepa_bench.methods.table import Method, event_head, pretrained_hepa
from hepa_bench.registry import BENCHMARKS
from hepa_bench.runner import run_benchmark

# tiny models gain nothing from intra-op threads, and on a busy machine spinning workers slow them down
torch.set_num_threads(1)

# small enough that a fit takes well under a second
TINY_ENCODER = {"d_model": 16, "n_heads": 2, "n_layers": 1, "batch_size": 64}
TINY_HEAD = {"hidden": 16, "batch_size": 64}
N_DAYS = 1500


def tiny_encoder(entry, data, *, epochs, device, seed, **params):
    """The ``hepa`` encoder with a tiny model."""
    return pretrained_hepa(entry, data, epochs=epochs, device=device, seed=seed, **TINY_ENCODER, **params)


def tiny_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed, **params):
    """The ``hepa`` head with a tiny hidden layer."""
    return event_head(
        entry, E_train, y_train, E_valid, y_valid, epochs=epochs, device=device, seed=seed, **TINY_HEAD, **params
    )


def tiny_gbm(entry, data, mask, *, epochs, device, seed, encoder=None):
    """Gradient boosting with five trees and no search."""
    from hepa_sklearn.baselines import GradientBoostingEventPredictor

    model = GradientBoostingEventPredictor(K=entry.K, max_iter=5, search=None, random_state=seed)
    return model.fit(data.X_train[mask], data.y_train[mask]), {}


TINY_METHODS = {
    "hepa": Method("tiny hepa", encoder=tiny_encoder, head=tiny_head),
    "hepa-head2": Method("the same encoder, another head", encoder=tiny_encoder, head=tiny_head),
    "gbm": Method("tiny gbm", family="baseline", surface=tiny_gbm),
}


@pytest.fixture(scope="session")
def tiny():
    """The tiny settings and methods above, for tests and fixtures of any scope."""
    return {
        "encoder": dict(TINY_ENCODER),
        "head": dict(TINY_HEAD),
        "methods": dict(TINY_METHODS),
        "encoder_fn": tiny_encoder,
        "head_fn": tiny_head,
    }


@pytest.fixture(scope="session")
def data_home(tmp_path_factory):
    """A data home holding a synthetic ``VIX/VIX_History.csv.gz`` of 1,500 trading days."""
    home = tmp_path_factory.mktemp("data_home")
    (home / "VIX").mkdir()
    rng = np.random.default_rng(0)
    days = np.arange(N_DAYS)
    close = 22.0 + 6.0 * np.sin(2 * np.pi * days / 90) + rng.normal(scale=1.0, size=N_DAYS)
    spread = np.abs(rng.normal(scale=0.5, size=N_DAYS))
    dates = pd.bdate_range("2000-01-03", periods=N_DAYS).strftime("%m/%d/%Y")
    frame = pd.DataFrame(
        {
            "DATE": dates,
            "OPEN": close + rng.normal(scale=0.3, size=N_DAYS),
            "HIGH": close + spread,
            "LOW": close - spread,
            "CLOSE": close,
        }
    )
    frame.to_csv(home / "VIX" / "VIX_History.csv.gz", index=False)
    return str(home)


@pytest.fixture(scope="session")
def small_registry():
    """The VIX entry with 64-day windows and 5 label blocks: a few dozen windows per part."""
    small = dataclasses.replace(
        BENCHMARKS["VIX"],
        context_length=64,
        min_history=64,
        pretrain_stride=64,
        finetune_stride=16,
        eval_stride=16,
        label_blocks=5,
    )
    return {"VIX": small}


@pytest.fixture(scope="session")
def fd001():
    """The windows of the FD001 entry under seed 0 (the C-MAPSS protocol's split)."""
    return BENCHMARKS["FD001"].load(0)


@pytest.fixture
def run_small(tmp_path, data_home, small_registry):
    """``run_small(**overrides)``: :func:`run_benchmark` of the tiny methods on the small VIX entry.

    Seed 0, label fractions 1 and 0.2, one epoch each, results in
    ``tmp_path / "results.jsonl"``; any argument can be overridden.
    """

    def run(**overrides):
        params = dict(
            datasets=["VIX"],
            seeds=[0],
            fractions=[1.0, 0.2],
            methods=["hepa", "hepa-head2", "gbm"],
            pretrain_epochs=1,
            finetune_epochs=1,
            device="cpu",
            results=str(tmp_path / "results.jsonl"),
            data_home=data_home,
            methods_table=TINY_METHODS,
            registry=small_registry,
            log=lambda *a, **k: None,
        )
        return run_benchmark(**{**params, **overrides})

    return run


@pytest.fixture(scope="session")
def swallowed_ctrl_c():
    """A function raising a Ctrl-C and catching it the way skorch's fit does (training ends, no error)."""

    def swallow():
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass

    return swallow


# Five seeds whose scores spread far more than any method difference: Welch's
# test between two methods 0.02 apart sees p = 0.76, the differences per seed
# are what carry the signal.
BASE = np.array([0.80, 0.90, 0.70, 0.85, 0.95])
# paired t p: 0.0048, 0.0452 and 0.0474 (scipy.stats.ttest_rel, computed once);
# Holm over the three: 3 x 0.0048 = 0.0144, 2 x 0.0452 = 0.0905, then
# max(0.0905, 0.0474) = 0.0905: only the first stays below 0.05.
CLEAR = np.array([0.02, 0.03, 0.01, 0.025, 0.015])
BORDERLINE = np.array([0.05, 0.01, 0.02, 0.005, 0.03])
BORDERLINE_OTHER_WAY = np.array([0.03, 0.01, 0.02, 0.0, 0.04])


def cmapss_record(subset, seed, method, h_auroc, fraction=1.0, **extra):
    """A C-MAPSS record as the former sweep stored it (its dataset under ``subset``), with ``extra`` fields."""
    return {
        "subset": subset,
        "seed": seed,
        "fraction": fraction,
        "method": method,
        "pretrain_epochs": 50,
        "finetune_epochs": 30,
        "h_auroc": float(h_auroc),
        "n_label_units": 60,
        "pretrain_s": 0.0,
        "fit_s": 1.0,
        "predict_s": 0.1,
        "cell_s": 1.0,
        "versions": {"torch": "2"},
        "machine": "x86_64, 2 CPU cores",
        "torch_threads": 1,
        "device": "cpu",
        "command": "hepa-bench run",
        **extra,
    }


@pytest.fixture(scope="session")
def hand_made_records():
    """``hand_made_records()``: hepa against gbm on FD001-FD003 over 5 seeds; hepa ahead on FD001 after Holm."""

    def make():
        hepa_over_gbm = {"FD001": CLEAR, "FD002": BORDERLINE, "FD003": -BORDERLINE_OTHER_WAY}
        records = []
        for subset, difference in hepa_over_gbm.items():
            for seed in range(5):
                records.append(cmapss_record(subset, seed, "hepa", BASE[seed] + difference[seed]))
                records.append(cmapss_record(subset, seed, "gbm", BASE[seed]))
        return records

    return make


@pytest.fixture(scope="session")
def make_record():
    """The :func:`cmapss_record` builder, for tests."""
    return cmapss_record
