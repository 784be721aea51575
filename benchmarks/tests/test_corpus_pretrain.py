"""Resumable pretraining on a corpus: chunks and checkpoints, a resumed run equal to an uninterrupted one."""

import json
import re
import shutil
import warnings

import numpy as np
import pytest
import torch
from hepa_bench.cli import main
from hepa_bench.corpus.files import REPOSITORY
from hepa_bench.corpus.pretrain import epoch_pieces, kept_windows, piece_channels, pretrain_corpus, read_state
from hepa_bench.corpus.shards import build_corpus
from skorch.callbacks import Callback

from hepa_sklearn.persistence import load

TINY = ["--d-model", "16", "--n-heads", "2", "--n-layers", "1", "--K", "16", "--batch-size", "32"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, data_home):
    """The synthetic VIX (4 channels) and as many simulated windows (12 channels), 64 steps, stride 16."""
    folder = tmp_path_factory.mktemp("corpus")
    build_corpus(
        folder,
        families=["vix"],
        data_home=data_home,
        window=64,
        stride=16,
        simulated_share=0.5,
        log=lambda message: None,
    )
    return str(folder)


def _pretrain(corpus, checkpoints, *extra):
    args = ["corpus", "pretrain", "--corpus", corpus, "--checkpoint-dir", str(checkpoints), "--max-epochs", "3"]
    return main([*args, "--windows-per-piece", "40", "--threads", "1", *TINY, *extra])


def _weights(checkpoints):
    state = read_state(checkpoints)
    return state, load(checkpoints / state["files"]["pretrainer"]).net_.module_.state_dict()


def test_epoch_pieces_cover_every_window_once():
    pieces = epoch_pieces([5, 12], epoch=3, seed=0, windows_per_piece=4)
    assert len(pieces) == 2 + 3 and all(len(index) <= 4 for _, index in pieces)
    for shard, n in enumerate([5, 12]):
        seen = np.concatenate([index for s, index in pieces if s == shard])
        assert sorted(seen.tolist()) == list(range(n))

    def listed(epoch):
        return [(shard, index.tolist()) for shard, index in epoch_pieces([5, 12], epoch, 0, 4)]

    assert listed(3) == [(shard, index.tolist()) for shard, index in pieces] and listed(4) != listed(3)


def test_resumed_run_equals_an_uninterrupted_one(corpus, tmp_path, capsys):
    resumed, straight = tmp_path / "resumed", tmp_path / "straight"
    assert _pretrain(corpus, resumed, "--chunk-epochs", "1", "--max-chunks", "2") == 0
    state = read_state(resumed)
    assert state["epochs"] == 2 and len(state["epoch_losses"]) == 2
    assert sorted(p.name for p in resumed.glob("*.pt")) == ["optimizer-epoch0002.pt", "pretrainer-epoch0002.pt"]
    assert _pretrain(corpus, resumed, "--chunk-epochs", "1") == 0  # resumes: the remaining chunk
    assert "resuming after corpus epoch 2 of 3" in capsys.readouterr().out
    assert _pretrain(corpus, straight, "--chunk-epochs", "3") == 0  # one chunk, no checkpoint between epochs
    (state, weights), (other, other_weights) = _weights(resumed), _weights(straight)
    assert state["epochs"] == other["epochs"] == 3
    # every window once per epoch, in pieces of at most 40: 2 shards of 26 and 26 windows -> 1 piece each
    pieces = sum(-(-shard["n_windows"] // 40) for shard in state["shards"])
    assert state["skorch_epochs"] == other["skorch_epochs"] == 3 * pieces
    assert load(resumed / state["files"]["pretrainer"]).n_epochs_ == 3 * pieces
    assert state["epoch_losses"] == other["epoch_losses"]
    assert weights.keys() == other_weights.keys()
    assert all(torch.equal(weights[key], other_weights[key]) for key in weights)
    assert _pretrain(corpus, resumed) == 0  # nothing left: the checkpoint stays as it was
    assert read_state(resumed)["epoch_losses"] == state["epoch_losses"]


def test_families_left_out_and_the_encoder_reads_every_shard(corpus, tmp_path):
    pretrainer, state = pretrain_corpus(
        corpus,
        checkpoint_dir=tmp_path / "ckpt",
        exclude=["simulated"],
        max_epochs=1,
        windows_per_piece=40,
        d_model=16,
        n_heads=2,
        n_layers=1,
        K=16,
        log=lambda message: None,
    )
    assert state["families"] == ["vix"] and state["exclude"] == ["simulated"]
    assert [shard["dataset"] for shard in state["shards"]] == ["VIX"] and pretrainer.n_features_in_ == 4
    assert pretrainer.get_params()["tokens"] == "univariate" and pretrainer.get_params()["norm"] == "revin"
    X = np.random.default_rng(0).normal(size=(3, 4, 64)).astype(np.float32)
    assert pretrainer.transform(X).shape == (3, 16)
    full, state = pretrain_corpus(
        corpus, checkpoint_dir=tmp_path / "all", max_epochs=1, d_model=16, n_heads=2, log=lambda message: None
    )
    assert state["families"] == ["simulated", "vix"]
    # built on the first shard's windows; univariate weights fit any count
    assert full.n_features_in_ == state["shards"][0]["n_channels"]


def test_channel_tokens_pad_every_shard_to_the_widest(corpus, tmp_path):
    padded, _ = pretrain_corpus(
        corpus, checkpoint_dir=tmp_path / "pad", max_epochs=1, tokens="channel", d_model=16, n_heads=2, log=print
    )
    assert padded.n_features_in_ == 12 and padded.encoder_.channel_embedding.shape == (12, 16)


def test_max_channels_draws_a_sorted_subset_per_piece():
    drawn = [piece_channels(12, 5, seed=0, epoch=0, piece=p).tolist() for p in range(4)]
    assert all(len(c) == 5 and c == sorted(set(c)) and max(c) < 12 for c in drawn)
    assert len({tuple(c) for c in drawn}) > 1  # pieces differ
    assert drawn[2] == piece_channels(12, 5, seed=0, epoch=0, piece=2).tolist()  # and repeat
    assert piece_channels(4, 5, 0, 0, 0).tolist() == [0, 1, 2, 3]  # narrower shards read every channel
    assert piece_channels(12, None, 0, 0, 0).tolist() == list(range(12))


def test_max_channels_bounds_what_a_piece_reads(corpus, tmp_path, monkeypatch):
    seen = []
    original = pretrain_corpus.__globals__["_piece_windows"]

    def recording(X, *args):
        out = original(X, *args)
        seen.append(out.shape[1])
        return out

    monkeypatch.setitem(pretrain_corpus.__globals__, "_piece_windows", recording)
    _, state = pretrain_corpus(
        corpus, checkpoint_dir=tmp_path / "cap", max_epochs=1, max_channels=3, d_model=16, n_heads=2, log=print
    )
    assert state["max_channels"] == 3 and max(seen) == 3


def test_refusals(corpus, tmp_path):
    checkpoints = tmp_path / "ckpt"
    assert _pretrain(corpus, checkpoints, "--max-chunks", "1") == 0
    with pytest.raises(SystemExit, match="another run"):
        _pretrain(corpus, checkpoints, "--lr", "0.01")
    with pytest.raises(SystemExit, match="another run"):
        _pretrain(corpus, checkpoints, "--exclude", "simulated")
    with pytest.raises(SystemExit, match="inside the repository"):
        _pretrain(corpus, REPOSITORY / "checkpoints")
    with pytest.raises(SystemExit, match="leaves no shard"):
        _pretrain(corpus, tmp_path / "none", "--exclude", "vix", "simulated")
    with pytest.raises(ValueError, match="set by the corpus driver"):
        pretrain_corpus(corpus, checkpoint_dir=tmp_path / "x", random_state=1)
    with pytest.raises(ValueError, match="max_channels needs tokens='univariate'"):
        pretrain_corpus(corpus, checkpoint_dir=tmp_path / "x", tokens="channel", max_channels=2)
    with pytest.raises(ValueError, match="tokens='patch' would read the channels padded with NaN"):
        pretrain_corpus(corpus, checkpoint_dir=tmp_path / "x", tokens="patch")
    with pytest.raises(SystemExit, match="max_channels must be an integer >= 1"):
        _pretrain(corpus, tmp_path / "x", "--max-channels", "0")
    with pytest.raises(SystemExit, match="max_chunks must be an integer >= 1"):
        _pretrain(corpus, tmp_path / "x", "--max-chunks", "0")


def test_a_window_share_keeps_the_same_windows_of_each_shard(corpus, tmp_path, monkeypatch):
    kept = kept_windows(10, 0.25, seed=0, dataset="VIX")
    assert kept.tolist() == sorted(set(kept.tolist())) and len(kept) == 3 and kept.max() < 10
    assert kept.tolist() == kept_windows(10, 0.25, 0, "VIX").tolist() != kept_windows(10, 0.25, 0, "MBA").tolist()
    assert kept_windows(7, 1.0, 0, "VIX").tolist() == list(range(7)) and len(kept_windows(3, 0.01, 0, "VIX")) == 1
    seen = []
    original = pretrain_corpus.__globals__["_piece_windows"]

    def recording(X, *args):
        seen.append(X.copy())
        return original(X, *args)

    monkeypatch.setitem(pretrain_corpus.__globals__, "_piece_windows", recording)
    run = dict(exclude=["simulated"], max_epochs=2, d_model=16, n_heads=2, log=lambda message: None)
    _, state = pretrain_corpus(corpus, checkpoint_dir=tmp_path / "half", window_share=0.5, **run)
    (shard,) = state["shards"]
    assert state["window_share"] == 0.5 and shard["n_read"] == -(-shard["n_windows"] // 2)
    epochs = [np.concatenate(seen[1 : len(seen) // 2 + 1]), np.concatenate(seen[len(seen) // 2 + 1 :])]
    assert [len(X) for X in epochs] == [shard["n_read"]] * 2
    # the same windows in both epochs, in another order
    first, second = (np.unique(X.reshape(len(X), -1), axis=0) for X in epochs)
    np.testing.assert_array_equal(first, second)
    for share in (0.25, 1.0):  # the share is part of the run: another share, or none, does not resume it
        with pytest.raises(ValueError, match=r"another run \(it differs in \['window_share'\]\)"):
            pretrain_corpus(corpus, checkpoint_dir=tmp_path / "half", window_share=share, **run)
    with pytest.raises(SystemExit, match=r"window_share must be a number in \(0, 1\], got 0.0"):
        _pretrain(corpus, tmp_path / "x", "--window-share", "0")


class Collapsing(Callback):
    """Marks every epoch collapsed and warns as the collapse monitor does at the end of a collapsed fit."""

    def on_epoch_end(self, net, **kwargs):
        net.history.record("collapse", True)
        warnings.warn(
            "representation collapse at epoch 1: the predictions' spread is 0.01", RuntimeWarning, stacklevel=2
        )


def test_a_collapse_is_reported_once_per_corpus_epoch(corpus, tmp_path):
    """Every piece is one partial_fit; its collapse warning gives way to one per corpus epoch."""
    tiny = dict(d_model=16, n_heads=2, n_layers=1, K=16, batch_size=32)
    with pytest.warns(RuntimeWarning, match="representation collapse") as caught:
        pretrain_corpus(
            corpus,
            checkpoint_dir=tmp_path / "collapsed",
            max_epochs=2,
            windows_per_piece=40,
            callbacks=[Collapsing()],
            log=lambda message: None,
            **tiny,
        )
    messages = [str(w.message) for w in caught if "representation collapse" in str(w.message)]
    assert len(messages) == 2, messages  # two corpus epochs of several pieces each, one warning per epoch
    for epoch, message in enumerate(messages, start=1):
        assert message.startswith(f"representation collapse in corpus epoch {epoch}: ")
        n_collapsed, n_pieces = re.search(r": (\d+) of (\d+) pieces collapsed", message).groups()
        assert n_collapsed == n_pieces and int(n_pieces) > 1


@pytest.fixture(scope="module")
def one_checkpoint(corpus, tmp_path_factory):
    """A checkpoint folder after the first of three corpus epochs."""
    folder = tmp_path_factory.mktemp("one_checkpoint")
    assert _pretrain(corpus, folder, "--max-chunks", "1") == 0
    return folder


def _cut(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _garbage(path):
    path.write_bytes(b"\x00garbage" * 40)


def _state_without(field):
    def damage(folder):
        state = json.loads((folder / "state.json").read_text())
        del state[field]
        (folder / "state.json").write_text(json.dumps(state))

    return damage


def _state_with(field, value):
    def damage(folder):
        state = json.loads((folder / "state.json").read_text())
        state[field] = value
        (folder / "state.json").write_text(json.dumps(state))

    return damage


@pytest.mark.parametrize(
    "damage, file, found",
    [
        (lambda f: _cut(f / "optimizer-epoch0001.pt"), "optimizer-epoch0001.pt", "cannot be read as the"),
        (lambda f: _garbage(f / "optimizer-epoch0001.pt"), "optimizer-epoch0001.pt", "cannot be read as"),
        (lambda f: _garbage(f / "pretrainer-epoch0001.pt"), "pretrainer-epoch0001.pt", ""),
        (lambda f: (f / "optimizer-epoch0001.pt").unlink(), "optimizer-epoch0001.pt", "is missing"),
        (lambda f: _cut(f / "state.json"), "state.json", "is not valid JSON"),
        (lambda f: _garbage(f / "state.json"), "state.json", "is not valid JSON"),
        (lambda f: (f / "state.json").write_text("[3]"), "state.json", "holds a JSON array, not an object"),
        (_state_without("files"), "state.json", r"lacks the field\(s\) \['files'\]"),
        (_state_without("epochs"), "state.json", r"lacks the field\(s\) \['epochs'\]"),
        (_state_without("seed"), "state.json", r"lacks the field\(s\) \['seed'\]"),
        (_state_with("files", {"pretrainer": "../elsewhere.pt"}), "state.json", "'files' must name"),
        (_state_with("epochs", "one"), "state.json", "'epochs' must be"),
        (_state_with("epoch_losses", 0.5), "state.json", "'epoch_losses' must be"),
    ],
)
def test_a_damaged_checkpoint_is_named_and_left_alone(corpus, one_checkpoint, tmp_path, damage, file, found):
    folder = tmp_path / "checkpoints"
    shutil.copytree(one_checkpoint, folder)
    damage(folder)
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    with pytest.raises(SystemExit) as raised:
        _pretrain(corpus, folder)
    message = str(raised.value.code)
    assert message.startswith("hepa-bench corpus pretrain: ") and "\n" not in message, message
    assert str(folder / file) in message and re.search(found, message), message
    assert "checkpoint" in message and "--checkpoint-dir" in message, message
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before  # nothing written or removed


def test_a_file_given_as_a_folder_is_named(corpus, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    for checkpoints in (afile, afile / "checkpoints"):
        expected = rf"^hepa-bench corpus pretrain: the checkpoint folder {checkpoints} .*{afile} is a file"
        with pytest.raises(SystemExit, match=expected):
            _pretrain(corpus, checkpoints)
    with pytest.raises(SystemExit, match=rf"^hepa-bench corpus pretrain: {afile} is not valid JSON"):
        main(["corpus", "pretrain", "--corpus", str(afile), "--checkpoint-dir", str(tmp_path / "ckpt")])
    assert afile.read_text() == "keep me" and not (tmp_path / "ckpt").exists()
