"""Training on two CPU processes (torchrun, gloo on loopback) follows the one-process run with the same global batch.

The test launches this file under ``torchrun``; each process trains a tiny
pretrainer, event predictor and finetuner and writes what they ended with
to a folder, which the test compares with one process trained in the test
itself.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from hepa_sklearn import HEPAEventPredictor, HEPAFinetuner, HEPAPretrainer
from hepa_sklearn.nn.jepa import JEPA
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training._criteria import JEPACriterion
from hepa_sklearn.training._distributed import ProcessWorld, process_world
from hepa_sklearn.training._net import JEPANet

# Two processes sum the gradient in another floating-point order than one
# process does, and run the rows of a batch through matrix products of
# another shape. Measured on CPU after 2 epochs: losses within 2e-7
# relative, outputs within 5e-7 and weights within 7e-6 absolute (the
# largest: query weights of the finetuner's last block, whose small
# gradients AdamW's normalised step magnifies); see docs/user_guide.md.
RTOL, ATOL = 1e-4, 5e-5
# The attention key biases are the exception: their gradient is zero up to
# rounding (softmax ignores a shift shared by every key), and AdamW's
# normalised step turns that rounding into steps of up to about lr; no
# output depends on them. Measured: at most 9e-5 apart, at lr=1e-3.
KEY_BIAS_ATOL = 1e-3
N_PROCESSES = 2


def windows():
    """27 windows with left padding; 2 cuts each: 54 items, of which 5 validate and 49 train in batches of 8.

    The last training batch holds 1 item (one of the two ranks computes no
    row), the validation batch 5 (3 and 2 rows).
    """
    rng = np.random.default_rng(0)
    X = rng.normal(size=(27, 3, 48)).astype("float32")
    X[::4, :, :10] = np.nan
    return X


def pretrainer(**params):
    return HEPAPretrainer(
        **{
            "d_model": 16,
            "n_heads": 2,
            "patch_size": 8,
            "K": 16,
            "dropout": 0.0,
            "norm": "global",
            "cuts_per_window": 2,
            "max_epochs": 2,
            "batch_size": 8,
            "lr": 1e-3,
            "validation_fraction": 0.1,
            "random_state": 0,
            "device": "cpu",
            **params,
        }
    )


def embeddings():
    """60 embeddings, 6 of them validating; 54 train in batches of 8, the last batch 6 rows."""
    rng = np.random.default_rng(1)
    time = rng.integers(1, 15, 60)
    E = (np.log(time)[:, None] + 0.5 * rng.normal(size=(60, 8))).astype("float32")
    return E, make_survival_y(rng.random(60) < 0.8, time)


def event_predictor(**params):
    return HEPAEventPredictor(
        **{
            "K": 10,
            "hidden": 16,
            "max_epochs": 2,
            "batch_size": 8,
            "lr": 1e-2,
            "validation_fraction": 0.1,
            "random_state": 0,
            "device": "cpu",
            **params,
        }
    )


def fitted_state(model, inputs, output):
    """What a fit ended with: per-epoch losses, weights, and the output of ``output`` on ``inputs``."""
    state = {f"weight {name}": tensor.numpy() for name, tensor in model.net_.module_.state_dict().items()}
    state.update({f"history {key}": np.asarray(model.history_[:, key]) for key in ("train_loss", "valid_loss")})
    state["output"] = getattr(model, output)(inputs)
    return state


def window_labels():
    time = np.random.default_rng(2).integers(1, 15, 27)
    return make_survival_y(np.ones(27, bool), time)


def train_all():
    """Pretrainer on windows, event predictor on fixed embeddings, finetuner from the pretrainer: what each ended
    with."""
    X = windows()
    E, y = embeddings()
    pre = pretrainer().fit(X)
    finetuner = HEPAFinetuner(
        pre, K=10, hidden=16, max_epochs=2, batch_size=8, lr=1e-3, random_state=0, device="cpu"
    ).fit(X, window_labels())
    states = {
        "pretrainer": fitted_state(pre, X, "transform"),
        "event": fitted_state(event_predictor().fit(E, y), E, "predict_proba"),
        "finetuner": fitted_state(finetuner, X, "predict_proba"),
    }
    return {f"{model} {key}": value for model, state in states.items() for key, value in state.items()}


def refusals():
    """The messages of the errors a distributed fit gives for an uneven batch and for data differing by rank."""
    E, y = embeddings()
    messages = {}
    try:
        event_predictor(batch_size=7).fit(E, y)
    except ValueError as error:
        messages["uneven batch"] = str(error)
    rank = torch.distributed.get_rank()
    try:
        event_predictor().fit(E[: 50 + rank], y[: 50 + rank])
    except ValueError as error:
        messages["different data"] = str(error)
    try:
        event_predictor(lr=0.01 * (1 + rank)).fit(E, y)
    except ValueError as error:
        messages["different parameters"] = str(error)
    return messages


def run_rank(out):
    """One process of the torchrun launch: train, then write what it ended with as ``rank<r>.npz``."""
    torch.set_num_threads(1)
    torch.distributed.init_process_group("gloo")
    rank = torch.distributed.get_rank()
    state = train_all()
    # with dropout the ranks draw different masks, yet must stay in step with each other
    X = windows()
    with_dropout = fitted_state(pretrainer(dropout=0.2).fit(X), X, "transform")
    state.update({f"dropout pretrainer {k}": v for k, v in with_dropout.items()})
    state.update({f"refusal {k}": np.array(v) for k, v in refusals().items()})
    np.savez(Path(out) / f"rank{rank}.npz", **state)
    torch.distributed.destroy_process_group()


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory):
    """What each of the two torchrun processes ended with, by rank."""
    out = tmp_path_factory.mktemp("ranks")
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        f"--nproc_per_node={N_PROCESSES}",
        "--nnodes=1",
        "--master_addr=127.0.0.1",
        f"--master_port={free_port()}",
        __file__,
        str(out),
    ]
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    return [dict(np.load(out / f"rank{rank}.npz")) for rank in range(N_PROCESSES)]


@pytest.fixture(scope="module")
def one_process():
    return train_all()


def test_every_process_ends_with_the_same_weights_history_and_outputs(two_processes):
    first, second = two_processes
    assert first.keys() == second.keys()
    assert first["dropout pretrainer history train_loss"].shape == (2,)
    for key in first:
        np.testing.assert_array_equal(first[key], second[key], err_msg=key)


def key_bias(key, values):
    """The key part of an attention's packed query/key/value bias (the middle third), or None for other weights."""
    if key.endswith(("qkv.bias", "in_proj_bias")):
        return slice(len(values) // 3, 2 * len(values) // 3)
    return None


def test_two_processes_follow_one_process_with_the_same_global_batch(two_processes, one_process):
    spread = two_processes[0]
    assert {key for key in spread if not key.startswith(("refusal", "dropout"))} == one_process.keys()
    assert sum(key_bias(key, value) is not None for key, value in one_process.items()) == 5
    for key, expected in one_process.items():
        if "history" in key:
            assert expected.shape == (2,)  # both epochs, train and validation
        got = spread[key].copy()
        keys = key_bias(key, expected)
        if keys is not None:
            np.testing.assert_allclose(got[keys], expected[keys], rtol=0, atol=KEY_BIAS_ATOL, err_msg=key)
            got[keys] = expected[keys]
        np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL, err_msg=key)


def test_a_global_batch_not_divisible_by_the_processes_is_refused(two_processes):
    message = str(two_processes[0]["refusal uneven batch"])
    assert "batch_size=7 is the global batch size" in message and "batch_size=8" in message


def test_processes_given_different_data_or_parameters_are_refused_on_every_rank(two_processes):
    for rank in two_processes:
        assert "[[50.0, " in str(rank["refusal different data"])
        assert "[51.0, " in str(rank["refusal different data"])
        assert "then batch_size, max_epochs, lr, weight_decay" in str(rank["refusal different parameters"])


def test_without_a_process_group_every_estimator_trains_alone():
    assert not torch.distributed.is_initialized() and process_world() is None
    E, y = embeddings()
    model = event_predictor().fit(E, y)
    assert "scores_across_ranks" not in dict(model.net_.callbacks_)
    assert "distributed" not in model.get_params()


def test_a_process_group_of_one_process_trains_alone_as_without_a_group():
    E, y = embeddings()
    alone = event_predictor().fit(E, y)
    torch.distributed.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0, world_size=1)
    try:
        assert process_world() is None
        grouped = event_predictor().fit(E, y)
    finally:
        torch.distributed.destroy_process_group()
    assert "scores_across_ranks" not in dict(grouped.net_.callbacks_)
    np.testing.assert_array_equal(grouped.predict_proba(E), alone.predict_proba(E))


@given(n_rows=st.integers(0, 200), size=st.integers(1, 9))
def test_the_ranks_rows_tile_a_batch_in_order_and_differ_by_at_most_one(n_rows, size):
    rows = [ProcessWorld(rank, size, "gloo").rows(n_rows) for rank in range(size)]
    assert rows[0][0] == 0 and rows[-1][1] == n_rows
    assert all(stop == next_start for (_, stop), (next_start, _) in zip(rows, rows[1:], strict=False))
    lengths = [stop - start for start, stop in rows]
    assert max(lengths) - min(lengths) <= 1 and lengths == sorted(lengths, reverse=True)


@given(windows_of_items=st.lists(st.integers(0, 5), min_size=1, max_size=30), data=st.data())
def test_a_shard_points_each_item_at_the_first_item_of_its_window_inside_the_shard(windows_of_items, data):
    window = torch.tensor(windows_of_items)
    owner = (window[:, None] == window[None, :]).int().argmax(dim=1)  # as the CutSampler collates it
    start = data.draw(st.integers(0, len(window) - 1))
    stop = data.draw(st.integers(start + 1, len(window)))
    batch = {"x": torch.arange(len(window)), "owner": owner}
    part = JEPANet(JEPA, criterion=JEPACriterion).shard_inputs(batch, start, stop)
    assert part["x"].tolist() == list(range(start, stop))
    for item, local in enumerate(part["owner"].tolist()):
        same = [i for i in range(stop - start) if windows_of_items[start + i] == windows_of_items[start + item]]
        assert local == same[0]


if __name__ == "__main__":
    run_rank(sys.argv[1])
