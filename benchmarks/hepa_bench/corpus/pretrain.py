"""Resumable pretraining of one HEPA encoder on a corpus (:mod:`hepa_bench.corpus.shards`), with families left
out.

One :class:`~hepa_sklearn.HEPAPretrainer` reads every shard. With
``tokens="univariate"`` (the default here) its weights do not depend on the
number of channels, so each shard's windows enter as they are; with
``max_channels`` each piece of a shard wider than that reads a subset of
that many of its channels, drawn per piece, which keeps wide shards from
dominating the compute. With ``tokens="channel"`` the channel width is the
widest shard's, and the windows of narrower shards get channels that are
all NaN appended (:func:`~hepa_bench.corpus.shards.pad_channels`), which a
channel-token encoder leaves out of each patch's average, so the padding
adds compute but no input; ``tokens="patch"`` would read the padding as
input and is refused. The pretrainer is built and initialised as
``fit`` would build it (:meth:`~hepa_sklearn.HEPAPretrainer.initialize`),
then its net trains with ``net_.partial_fit`` on pieces of at most
``windows_per_piece`` windows of one shard (each piece the dataset that
:meth:`~hepa_sklearn.HEPAPretrainer.training_data` makes of it), one
skorch epoch per piece. A corpus epoch passes over every window once: each
shard's windows in a seeded order cut into pieces, the pieces of all
shards in a seeded order. The cosine learning-rate schedule runs over all
pieces of all ``max_epochs`` corpus epochs.

With ``window_share`` below 1 the run reads a smaller corpus: of each
shard, a share of its windows drawn once from the seed and the shard's
dataset (:func:`kept_windows`), the same in every epoch.

Every ``chunk_epochs`` corpus epochs the state is saved in the checkpoint
folder: the pretrainer by :func:`hepa_sklearn.persistence.save`, the
optimiser's state by ``torch.save``, both written under new names first,
then ``state.json`` naming them replaces the previous one in one rename,
so a kill at any moment leaves the last complete checkpoint in place. A
later call with the same corpus, families and parameters resumes from it.
Before each piece torch's generator and the cut sampler's stream are
seeded from (seed, epoch, piece), so a resumed run trains exactly as an
uninterrupted one on the same machine and device.
"""

import math
import warnings
import zlib
from pathlib import Path

import numpy as np
import torch

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.persistence import load, save

from .files import one_line, read_json_object, sha256_file, writable_folder, write_json
from .shards import MANIFEST, corpus_families, corpus_windows, pad_channels, read_manifest, resolve_families

__all__ = ["DEFAULTS", "STATE", "epoch_pieces", "kept_windows", "piece_channels", "pretrain_corpus", "read_state"]

STATE = "state.json"
# the fields of state.json that resuming reads: the run's identity (max_channels and window_share
# may be absent), the epochs done, their losses and the checkpoint's files
STATE_FIELDS = (
    "manifest_sha256",
    "families",
    "exclude",
    "max_epochs",
    "seed",
    "windows_per_piece",
    "params",
    "epochs",
    "epoch_losses",
    "files",
)
# the encoder of every corpus run unless the caller says otherwise: univariate tokens read any shard as it is;
# per-window RevIN, as the event benchmarks; no regimes or window level (they are statistics of one dataset)
DEFAULTS = {"tokens": "univariate", "norm": "revin", "regimes": None, "window_level": False}
FIXED = {"early_stopping": False}  # a corpus run trains its epochs; it holds nothing out


def _seed(*words):
    return int(np.random.SeedSequence([int(w) for w in words]).generate_state(1)[0])


def epoch_pieces(sizes, epoch, seed, windows_per_piece):
    """``[(shard index, window indices)]`` of corpus epoch ``epoch``: every window of every shard once.

    Each shard's windows in a permutation drawn from ``(seed, epoch)`` are
    cut into ``ceil(n / windows_per_piece)`` near-equal pieces (indices
    sorted within a piece); the pieces of all shards then come in a second
    permutation from the same generator.
    """
    rng = np.random.default_rng([seed, epoch])
    pieces = []
    for shard, n in enumerate(sizes):
        order = rng.permutation(n)
        pieces += [(shard, np.sort(part)) for part in np.array_split(order, math.ceil(n / windows_per_piece))]
    return [pieces[i] for i in rng.permutation(len(pieces))]


def kept_windows(n, share, seed, dataset):
    """Sorted indices of the ``ceil(share * n)`` windows (at least one) that ``window_share`` keeps.

    Drawn without replacement from ``(seed, dataset)``, so a shard keeps the
    same windows whichever families the run leaves out; all ``n`` at share 1.
    """
    if share >= 1:
        return np.arange(n)
    rng = np.random.default_rng([seed, zlib.crc32(dataset.encode())])
    return np.sort(rng.choice(n, max(1, math.ceil(share * n)), replace=False))


def _damaged(folder):
    """What to do about a damaged checkpoint in ``folder``: the end of every message that names one."""
    return (
        f"the checkpoint is damaged: move {folder} aside (or delete it) to start the run over, "
        "or name another --checkpoint-dir."
    )


def read_state(checkpoint_dir):
    """The ``state.json`` of a checkpoint folder, or None when it has none.

    ValueError naming the file when it is damaged: not JSON, not an object,
    a field missing, or ``epochs``, ``epoch_losses`` or ``files`` not as
    :func:`pretrain_corpus` writes them.
    """
    path = Path(checkpoint_dir) / STATE
    if not path.is_file():
        return None
    remedy = _damaged(checkpoint_dir)
    state = read_json_object(path, STATE_FIELDS, remedy)
    files, epochs, losses = state["files"], state["epochs"], state["epoch_losses"]
    names = [files.get(key) for key in ("pretrainer", "optimizer")] if isinstance(files, dict) else [None]
    if not all(isinstance(name, str) and name and Path(name).name == name for name in names):
        raise ValueError(
            f"{path}: the field 'files' must name the 'pretrainer' and 'optimizer' files of the "
            f"checkpoint, in its folder, got {files!r}; {remedy}"
        )
    if not isinstance(epochs, int) or isinstance(epochs, bool) or epochs < 0:
        raise ValueError(f"{path}: the field 'epochs' must be a whole number >= 0, got {epochs!r}; {remedy}")
    if not (isinstance(losses, list) and len(losses) == epochs and all(_is_number(loss) for loss in losses)):
        raise ValueError(
            f"{path}: the field 'epoch_losses' must be a list of the {epochs} finished epochs' losses, got "
            f"{losses!r}; {remedy}"
        )
    return state


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _identity(manifest, included, excluded, max_epochs, seed, windows_per_piece, max_channels, params, share):
    """What a resumed run must share with the run it continues (``window_share`` only where it is below 1)."""
    return {
        **({"window_share": share} if share < 1 else {}),
        "max_channels": max_channels,
        "manifest_sha256": sha256_file(Path(manifest["root"]) / MANIFEST),
        "families": included,
        "exclude": excluded,
        "max_epochs": max_epochs,
        "seed": seed,
        "windows_per_piece": windows_per_piece,
        "params": params,
    }


def _save(folder, pretrainer, identity, epochs, losses, shards, log):
    """Write the checkpoint after ``epochs`` corpus epochs; ``state.json`` last, then drop the older files."""
    names = {"pretrainer": f"pretrainer-epoch{epochs:04d}.pt", "optimizer": f"optimizer-epoch{epochs:04d}.pt"}
    save(pretrainer, folder / names["pretrainer"])
    partial = folder / f".{names['optimizer']}.partial"
    torch.save(pretrainer.net_.optimizer_.state_dict(), partial)
    partial.replace(folder / names["optimizer"])
    state = {**identity, "epochs": epochs, "skorch_epochs": len(pretrainer.history_), "epoch_losses": losses}
    write_json(folder / STATE, {**state, "shards": shards, "files": names})
    for path in folder.glob("*-epoch*.pt"):
        if path.name not in names.values():
            path.unlink()
    log(f"checkpoint after corpus epoch {epochs}: {folder / names['pretrainer']}")


def _resume(folder, state, identity, device):
    """The pretrainer and finished epochs of ``state``; ValueError when it belongs to another run."""
    # window_share is in the identity only below 1, so a state without it is a run that read every window
    differ = sorted(key for key in {*identity, "window_share"} if state.get(key) != identity.get(key))
    if differ:
        raise ValueError(
            f"{folder} holds a checkpoint of another run (it differs in {differ}); name another --checkpoint-dir, "
            "or run with that run's corpus, families and parameters."
        )
    remedy = _damaged(folder)
    paths = {key: folder / name for key, name in state["files"].items() if key in ("pretrainer", "optimizer")}
    for path in paths.values():
        if not path.is_file():
            raise ValueError(f"{path} is missing, though {folder / STATE} names it; {remedy}")
    try:
        pretrainer = load(paths["pretrainer"], device=device)
    except ValueError as error:  # persistence's own message names the file and what is wrong with it
        raise ValueError(f"{one_line(error).rstrip('.')}; {remedy}") from None
    where = next(pretrainer.net_.module_.parameters()).device  # "auto" resolved as the library resolves it
    try:
        optimizer = torch.load(paths["optimizer"], map_location=where, weights_only=True)
        pretrainer.net_.optimizer_.load_state_dict(optimizer)
    except Exception as error:  # torch's errors on a cut or overwritten file vary: each means a damaged file
        raise ValueError(
            f"{paths['optimizer']} cannot be read as the optimiser state of {paths['pretrainer'].name} "
            f"({type(error).__name__}: the file is cut short, overwritten or of another run); {remedy}"
        ) from None
    return pretrainer, state["epochs"], list(state["epoch_losses"])


def piece_channels(n_channels, max_channels, seed, epoch, piece):
    """The channels a piece of a shard of ``n_channels`` reads: all, or ``max_channels`` of them drawn per piece."""
    if max_channels is None or n_channels <= max_channels:
        return np.arange(n_channels)
    return np.sort(np.random.default_rng([seed, epoch, piece, 1]).choice(n_channels, max_channels, replace=False))


def _piece_windows(X, params, n_channels, max_channels, seed, epoch, piece):
    """The windows of one piece as the net reads them: a channel subset (univariate) or padded (channel tokens)."""
    if params["tokens"] == "univariate":
        return X[:, piece_channels(X.shape[1], max_channels, seed, epoch, piece)]
    return pad_channels(X, n_channels)


def _train_epoch(pretrainer, shards, epoch, seed, windows_per_piece, n_channels, max_channels, params):
    """One corpus epoch; the mean training loss over its windows.

    Each piece is one ``partial_fit``, whose collapse monitor would warn on
    every collapsed piece; the epoch warns once instead, with the pieces
    that collapsed and the lowest spread.
    """
    net, total, weight, collapsed = pretrainer.net_, 0.0, 0, []
    sizes = [len(X) for _, X in shards]
    pieces = epoch_pieces(sizes, epoch, seed, windows_per_piece)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="representation collapse", category=RuntimeWarning)
        for i, (shard, index) in enumerate(pieces):
            torch.manual_seed(_seed(seed, epoch, i))
            sampler = net.iterator_train__collate_fn
            if hasattr(sampler, "rng"):  # the cut draws continue one stream: start it from (seed, epoch, piece)
                sampler.rng = np.random.default_rng([seed, epoch, i])
            X = _piece_windows(shards[shard][1][index], params, n_channels, max_channels, seed, epoch, i)
            data, _ = pretrainer.training_data(X)
            net.partial_fit(data, epochs=1)
            total += float(net.history[-1, "train_loss"]) * len(index)
            weight += len(index)
            if net.history[-1].get("collapse"):
                collapsed.append((i, float(net.history[-1, "train_spread"])))
    if collapsed:
        first, lowest = collapsed[0][0], min(spread for _, spread in collapsed)
        warnings.warn(
            f"representation collapse in corpus epoch {epoch + 1}: {len(collapsed)} of {len(pieces)} pieces "
            f"collapsed, the first at piece {first + 1}, the predictions' spread down to {lowest:.3g} (about 1 "
            "when healthy). Raise --regularizer-weight or lower --lr.",
            RuntimeWarning,
            stacklevel=2,
        )
    return total / weight


def pretrain_corpus(
    corpus,
    *,
    checkpoint_dir,
    exclude=(),
    chunk_epochs=1,
    max_epochs=10,
    max_chunks=None,
    seed=0,
    device="cpu",
    windows_per_piece=1024,
    max_channels=None,
    window_share=1.0,
    log=print,
    **params,
):
    """Pretrain on ``corpus`` without the families ``exclude`` until ``max_epochs`` corpus epochs; resumable.

    ``params`` are :class:`~hepa_sklearn.HEPAPretrainer` parameters over
    :data:`DEFAULTS` (``max_epochs``, ``early_stopping``, ``random_state``
    and ``device`` are the driver's). A checkpoint is saved every
    ``chunk_epochs`` epochs; ``max_chunks`` ends the call after that many
    chunks. ``max_channels`` (univariate tokens only) caps the channels
    each piece reads (:func:`piece_channels`). ``window_share`` in (0, 1]
    keeps that share of each shard's windows (:func:`kept_windows`).
    Started again with the same corpus, ``exclude``, ``max_epochs``,
    ``seed``, ``windows_per_piece``, ``max_channels``, ``window_share``
    and ``params``, it resumes from the last
    checkpoint (``chunk_epochs`` and ``device`` may change).

    Returns
    -------
    pretrainer : HEPAPretrainer
        The pretrainer after the last epoch of this call.
    state : dict
        The checkpoint's ``state.json``: ``epochs`` done, the mean training
        loss of each (``epoch_losses``), the shards read, the run's identity.
    """
    counts = {"chunk_epochs": chunk_epochs, "max_epochs": max_epochs, "windows_per_piece": windows_per_piece}
    if max_chunks is not None:
        counts["max_chunks"] = max_chunks
    if max_channels is not None:
        counts["max_channels"] = max_channels
    for name, value in counts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")
    is_number = isinstance(window_share, (int, float)) and not isinstance(window_share, bool)
    if not is_number or not 0 < window_share <= 1:
        raise ValueError(f"window_share must be a number in (0, 1], got {window_share!r}.")
    clash = sorted(set(params) & {"max_epochs", "early_stopping", "random_state", "device"})
    if clash:
        raise ValueError(f"{clash} are set by the corpus driver; use its own arguments.")
    manifest = read_manifest(corpus)
    known = corpus_families(manifest)
    excluded = resolve_families(list(exclude), known) if exclude else []
    included = sorted(set(known) - set(excluded))
    if not included:
        raise ValueError(f"excluding {excluded} leaves no shard of the corpus {manifest['root']}.")
    folder = writable_folder(checkpoint_dir, "the checkpoint folder")
    folder.mkdir(parents=True, exist_ok=True)
    shards = [
        (shard, X[kept_windows(len(X), window_share, seed, shard["dataset"])])
        for shard, X in corpus_windows(manifest, excluded, verify=True)
    ]
    n_channels = max(X.shape[1] for _, X in shards)
    n_pieces = sum(math.ceil(len(X) / windows_per_piece) for _, X in shards)
    params = {**DEFAULTS, **params}
    if params["tokens"] == "patch":
        raise ValueError("tokens='patch' would read the channels padded with NaN as input; use 'univariate'.")
    if max_channels is not None and params["tokens"] != "univariate":
        raise ValueError(
            f"max_channels needs tokens='univariate' (channels without identity), not {params['tokens']!r}."
        )
    # every parameter as the estimator resolves it, so that a default given or omitted is the same run
    resolved = HEPAPretrainer(**params).get_params()
    resolved = {k: v for k, v in resolved.items() if k not in (*FIXED, "max_epochs", "random_state", "device")}
    resolved = {k: v for k, v in resolved.items() if k not in ("callbacks", "verbose") and v != "deprecated"}
    identity = _identity(
        manifest, included, excluded, max_epochs, seed, windows_per_piece, max_channels, resolved, window_share
    )
    listed = [
        {**{key: s[key] for key in ("family", "dataset", "n_windows", "n_channels", "sha256")}, "n_read": len(X)}
        for s, X in shards
    ]
    state = read_state(folder)
    if state is not None:
        pretrainer, done, losses = _resume(folder, state, identity, device)
        log(f"resuming after corpus epoch {done} of {max_epochs} from {folder}")
    else:
        pretrainer = HEPAPretrainer(
            **params, **FIXED, max_epochs=max_epochs * n_pieces, random_state=seed, device=device
        )
        first = shards[0][1]
        pretrainer.initialize(
            _piece_windows(first[: min(len(first), 64)], params, n_channels, max_channels, seed, 0, 0)
        )
        done, losses = 0, []
        log(f"{len(shards)} shards of {included}, {n_channels} channels, {n_pieces} pieces per epoch")
    chunks = 0
    while done < max_epochs and (max_chunks is None or chunks < max_chunks):
        stop = min(done + chunk_epochs, max_epochs)
        for epoch in range(done, stop):
            losses.append(
                _train_epoch(pretrainer, shards, epoch, seed, windows_per_piece, n_channels, max_channels, params)
            )
            log(f"corpus epoch {epoch + 1}/{max_epochs}: training loss {losses[-1]:.4f}")
        done, chunks = stop, chunks + 1
        pretrainer.n_epochs_ = len(pretrainer.history_)
        _save(folder, pretrainer, identity, done, losses, listed, log)
    return pretrainer, read_state(folder)
