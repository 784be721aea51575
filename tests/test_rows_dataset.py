"""The batches of the package's nets: numeric arrays fetched a batch at a time, equal to skorch's row-by-row batches."""

import warnings

import numpy as np
import pytest
import torch
from skorch.dataset import Dataset as SkorchDataset
from torch.utils.data import DataLoader, Subset, default_collate

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.training._net import HEPANet
from hepa_sklearn.training._sampling import RowBatch, RowsDataset, collate_rows


def skorch_batch(X, y, indices):
    """The batch skorch's own dataset and torch's default collate give for ``indices``."""
    dataset = SkorchDataset(X, y)
    return default_collate([dataset[i] for i in indices])


@pytest.mark.parametrize(
    "X, y",
    [
        (np.arange(60, dtype=np.float32).reshape(10, 6), np.arange(40, dtype=np.float32).reshape(10, 2, 2)),
        (np.arange(60, dtype=np.float64).reshape(10, 2, 3), np.arange(10, dtype=np.int64)),
        (np.arange(30, dtype=np.float32).reshape(10, 3), None),
        (torch.arange(30.0).reshape(10, 3), torch.ones(10, 4, dtype=torch.bool)),
    ],
)
def test_a_batch_is_what_skorch_and_stacking_give(X, y):
    indices = [7, 0, 3, 3, 9]
    got = collate_rows(RowsDataset(X, y).__getitems__(indices))
    expected = skorch_batch(X, y, indices)
    assert len(got) == len(expected) == 2
    for a, b in zip(got, expected, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_the_data_loader_takes_the_batch_in_one_indexing_operation_through_a_subset():
    X = np.arange(40, dtype=np.float32).reshape(20, 2)
    part = Subset(RowsDataset(X, np.arange(20.0)), np.arange(5, 15))
    batches = list(DataLoader(part, batch_size=4, collate_fn=collate_rows))
    assert [b[0].shape[0] for b in batches] == [4, 4, 2]
    np.testing.assert_array_equal(torch.cat([b[0] for b in batches]).numpy(), X[5:15])
    np.testing.assert_array_equal(torch.cat([b[1] for b in batches]).numpy(), np.arange(5.0, 15.0))


def test_items_one_at_a_time_and_other_batches_collate_as_torch_does():
    dataset = RowsDataset(np.eye(3, dtype=np.float32))
    x, placeholder = dataset[1]
    np.testing.assert_array_equal(x.numpy(), [0, 1, 0])
    assert placeholder.shape == (1,) and float(placeholder) == 0.0
    listed = collate_rows([dataset[0], dataset[2]])
    assert isinstance(listed, list) and listed[0].shape == (2, 3)
    assert not isinstance(listed, RowBatch)


def test_a_read_only_array_is_read_without_a_warning_and_left_alone():
    X = np.ones((4, 2), dtype=np.float32)
    X.flags.writeable = False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dataset = RowsDataset(X)
    dataset.X += 1
    np.testing.assert_array_equal(X, 1)


def test_writable_arrays_are_shared_not_copied():
    X = np.zeros((4, 2), dtype=np.float32)
    assert RowsDataset(X).X.data_ptr() == X.ctypes.data


@pytest.mark.parametrize(
    "X, y",
    [
        ({"a": np.zeros((4, 2))}, np.zeros(4)),  # a dict of inputs
        (np.array([["a"], ["b"]], dtype=object), None),  # not numeric
        (np.zeros((4, 2)), np.zeros(3)),  # lengths differ: skorch's dataset names the error
        (np.float32(1.0), None),  # no rows
    ],
)
def test_other_inputs_go_to_skorchs_dataset(X, y):
    assert not RowsDataset.accepts(X, y)


def test_the_net_reads_numeric_arrays_as_rows_and_a_configured_dataset_as_configured():
    net = HEPANet(torch.nn.Linear, criterion=torch.nn.MSELoss, module__in_features=2, module__out_features=1)
    assert isinstance(net.get_dataset(np.zeros((3, 2), dtype=np.float32), np.zeros(3)), RowsDataset)
    assert type(net.get_dataset({"x": np.zeros((3, 2))}, np.zeros(3))) is SkorchDataset
    net.set_params(dataset__length=3)
    assert type(net.get_dataset(np.zeros((3, 2), dtype=np.float32), np.zeros(3))) is SkorchDataset


class RowByRowDataset(SkorchDataset):
    """skorch's own dataset under another name: the net then fetches items one at a time, as before."""


def test_the_event_head_trains_to_the_same_bits_as_on_skorchs_row_by_row_batches():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(120, 6)).astype(np.float32)
    y = np.rec.fromarrays([rng.random(120) < 0.6, rng.integers(1, 20, 120).astype(float)], names="event,time")
    params = dict(K=12, hidden=16, max_epochs=3, batch_size=16, random_state=0)
    fast = HEPAEventPredictor(**params).fit(E, y)
    slow = HEPAEventPredictor(**params)
    original = slow._build_net

    def build(*args, **kwargs):
        net = original(*args, **kwargs)
        net.set_params(dataset=RowByRowDataset)
        return net

    slow._build_net = build
    slow.fit(E, y)
    assert type(slow.net_.get_dataset(E, None)) is RowByRowDataset
    np.testing.assert_array_equal(fast.predict_proba(E), slow.predict_proba(E))
    assert [row["train_loss"] for row in fast.history_] == [row["train_loss"] for row in slow.history_]
