"""The pretraining corpus: the training windows of every benchmark of the registry, one shard per dataset.

Only rows that the harness's split puts in a training part go in: for the
C-MAPSS subsets the training units of the protocol's seeded unit split
(:class:`hepa_sklearn.cmapss_protocol.SubsetSplit`), for the event benchmarks the
windows ending in the ``"train"`` part, and in the ``"normal"`` part where
the dataset has one (an attack-free year, an event-free training file),
both as the entry's loader cuts them (its split table, its scaling from
training or normal rows). No window reaches into a validation or test
part: the training part comes first in time or is a unit of its own.
Retired registry entries (:attr:`~hepa_bench.entry.BenchmarkEntry.retired`)
and datasets missing from the data home are left out and listed in the
manifest.

The split is the fixed one (seed 0 of a rolling origin); a later seed of
the rolling origin tests on an earlier stretch, which this corpus may
hold, so the leave-one-family-out runs (:func:`corpus_windows`) are what
keeps an evaluated dataset out of its own encoder's pretraining.

A shard is ``<family>/<dataset>.npz`` with ``X`` (n, C, T) float32 (NaN:
missing or left padding), ``unit`` (str) and ``end`` (the row of the unit,
counted from 0, at which each window ends). The four C-MAPSS subsets are
the one family ``"cmapss"``; every other dataset is a family of its own,
named after its loader (``"ettm1"``, ``"beijing"``...), and simulated
fleets (:func:`hepa_sklearn.datasets.make_fleet`) are the family
``"simulated"``. Every shard is z-scored per channel: by the loader for the
event benchmarks, by the training units' rows for C-MAPSS, by its own
windows for the simulated fleets. ``manifest.json`` lists every shard
(family, dataset, windows, channels, window length, stride, parts, units
and row spans, the scaling's ``offset`` and ``scale``, the SHA-256 of the
file), the command and the versions.
"""

import math
import os
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from hepa_sklearn.cmapss_protocol import SubsetSplit
from hepa_sklearn.datasets import CMAPSS_SENSORS, get_data_home, load_cmapss, make_fleet
from hepa_sklearn.windows import make_windows

from ..data import window_ends
from ..registry import BENCHMARKS
from .files import atomic_write, json_kind, read_json_object, require_fields, sha256_file, writable_folder, write_json

__all__ = [
    "CMAPSS_FAMILY",
    "MANIFEST",
    "SIMULATED_FAMILY",
    "build_corpus",
    "corpus_families",
    "corpus_windows",
    "family_of",
    "pad_channels",
    "read_manifest",
    "registry_families",
    "resolve_families",
]

FORMAT = 1
MANIFEST = "manifest.json"
# the fields that reading a corpus needs, of the manifest and of each of its shards
MANIFEST_FIELDS = ("format", "created", "n_windows", "shards")
SHARD_FIELDS = tuple("file family dataset n_windows n_channels window_length stride units sha256".split())
CMAPSS_FAMILY = "cmapss"
SIMULATED_FAMILY = "simulated"
# the simulated fleets' windows where no --window / --stride is given (make_fleet's own context length); each
# window ends after 32 steps of its unit at least, so that it holds a (cut, horizon) pair at the default patch size
FLEET_WINDOW, FLEET_STRIDE, FLEET_UNITS, FLEET_MIN_HISTORY = 128, 16, 100, 32


def family_of(entry):
    """The family of a registry entry: ``"cmapss"`` for the C-MAPSS subsets, else its loader's name."""
    return CMAPSS_FAMILY if entry.is_cmapss else entry.spec.name


def registry_families(registry=None):
    """``{family: [registry names]}`` of every entry of ``registry`` (default the harness's), retired ones too."""
    families = {}
    for name, entry in (BENCHMARKS if registry is None else registry).items():
        families.setdefault(family_of(entry), []).append(name)
    return families


def _zscore(X, loc, scale):
    """``X`` z-scored per channel (a constant channel keeps scale 1), and the statistics as manifest fields."""
    scale = np.where(scale > 0, scale, 1.0)
    fields = {"offset": [float(v) for v in loc], "scale": [float(v) for v in scale]}
    return ((X - loc[None, :, None]) / scale[None, :, None]).astype(np.float32), fields


def _spans(units, ends, window):
    """``[{unit, start, stop}]``: the rows each unit's windows read, from the first window's first row."""
    spans = []
    for unit in dict.fromkeys(units.tolist()):
        mine = ends[units == unit]
        spans.append({"unit": unit, "start": int(max(0, mine.min() - window + 1)), "stop": int(mine.max() + 1)})
    return spans


def cmapss_shard(entry, *, seed, window, stride):
    """The windows of the training units of ``entry``'s C-MAPSS subset under the protocol's ``seed`` split."""
    subset = entry.loader_params["subset"]
    frame = load_cmapss(subset, stride=entry.pretrain_stride).frame
    split = SubsetSplit(subset, seed, regime=False, frame=frame, defer_windows=True).split
    rows = frame[frame["unit"].isin(split.train)]
    X, _, groups, index = make_windows(
        rows,
        feature_cols=list(CMAPSS_SENSORS),
        event_col="failure",
        unit_col="unit",
        time_col="cycle",
        context_length=window or entry.context_length,
        stride=stride or entry.pretrain_stride,
        min_history=1,
        return_index=True,
    )
    values = rows[list(CMAPSS_SENSORS)].to_numpy(dtype=np.float64)
    X, statistics = _zscore(X, np.nanmean(values, axis=0), np.nanstd(values, axis=0))
    info = {
        "parts": ["train"],
        "split": f"the training units of the C-MAPSS protocol's unit split (60/10/30) of seed {seed}",
        "scaling": "z-score per channel from the training units' rows",
        "min_history": 1,
        "channel_names": list(CMAPSS_SENSORS),
        **statistics,
    }
    return X, np.asarray(groups).astype(str), index["step"].to_numpy(np.int64), info


def event_shard(entry, *, data_home, seed, window, stride):
    """The windows of ``entry``'s training part (and normal part, where it has one), as its loader cuts them.

    Where the seed draws the split (``seeded_split``), the loader gets
    ``random_state=seed`` as :meth:`~hepa_bench.entry.BenchmarkEntry.load` gives it.
    """
    parts = [part for part in ("normal", "train") if part in entry.spec.parts]
    length, stride = window or entry.context_length, stride or entry.pretrain_stride
    params = {**entry.loader_params, **({"random_state": seed} if entry.seeded_split else {})}
    X_parts, unit_parts, end_parts = [], [], []
    for part in parts:
        bunch = entry.loader(
            data_home=data_home,
            split=part,
            context_length=length,
            stride=stride,
            min_history=entry.min_history,
            **params,
        )
        ends = window_ends(bunch.splits, part, stride, entry.min_history)
        units = np.array([unit for unit, _, _ in ends]).astype(str)
        if len(ends) != len(bunch.X) or not np.array_equal(units, np.asarray(bunch.groups).astype(str)):
            raise RuntimeError(f"{entry.name}: the {part} windows do not match their window ends.")
        X_parts.append(bunch.X)
        unit_parts.append(units)
        end_parts.append(np.array([end for _, end, _ in ends], dtype=np.int64))
    info = {
        "parts": parts,
        "split": f"the loader's unit split of seed {seed}"
        if entry.seeded_split
        else "the loader's fixed split (the runner's --split fixed, seed 0 of --split rolling)",
        "scaling": f"the loader's: per-channel statistics of the {entry.spec.scaling_part} rows",
        "min_history": entry.min_history,
        "channel_names": list(bunch.feature_names),
        "offset": bunch.offset.tolist(),
        "scale": bunch.scale.tolist(),
    }
    return np.concatenate(X_parts), np.concatenate(unit_parts), np.concatenate(end_parts), info


def simulated_shard(n_windows, *, seed, window, stride):
    """``n_windows`` windows of simulated fleets of 100 units, a seeded draw of the windows of enough fleets."""
    length, stride = window or FLEET_WINDOW, stride or FLEET_STRIDE
    X_parts, unit_parts, end_parts, fleet = [], [], [], 0
    while sum(len(part) for part in X_parts) < n_windows:
        bunch = make_fleet(
            FLEET_UNITS,
            context_length=length,
            stride=stride,
            min_history=FLEET_MIN_HISTORY,
            random_state=seed * 1000 + fleet,
        )
        X_parts.append(bunch.X)
        unit_parts.append(np.array([f"fleet{fleet}-{unit}" for unit in bunch.index["unit"]]))
        end_parts.append(bunch.index["step"].to_numpy(np.int64))
        fleet += 1
    keep = np.sort(np.random.default_rng(seed).permutation(sum(map(len, X_parts)))[:n_windows])
    X = np.concatenate(X_parts)[keep]
    X, statistics = _zscore(X, np.nanmean(X, axis=(0, 2)), np.nanstd(X, axis=(0, 2)))
    info = {
        "parts": ["simulated"],
        "split": f"make_fleet(100 units, random_state=1000 * {seed} + fleet) for {fleet} fleet(s), a seeded subset",
        "scaling": "z-score per channel from the shard's own windows",
        "min_history": FLEET_MIN_HISTORY,
        "channel_names": list(bunch.feature_names),
        **statistics,
    }
    return X, np.concatenate(unit_parts)[keep], np.concatenate(end_parts)[keep], info


def write_shard(root, family, dataset, X, units, ends, info, *, stride):
    """Write one shard's ``.npz`` under ``root`` atomically; its manifest entry."""
    relative = f"{family}/{dataset}.npz"
    X = np.ascontiguousarray(X, dtype=np.float32)
    atomic_write(Path(root) / relative, lambda handle: np.savez(handle, X=X, unit=units.astype(str), end=ends))
    return {
        "file": relative,
        "family": family,
        "dataset": dataset,
        "n_windows": int(X.shape[0]),
        "n_channels": int(X.shape[1]),
        "window_length": int(X.shape[2]),
        "stride": int(stride),
        **info,
        "units": list(dict.fromkeys(units.tolist())),
        "spans": _spans(units, ends, X.shape[2]),
        "sha256": sha256_file(Path(root) / relative),
    }


def resolve_families(names, known):
    """The families named by ``names``: family names, or registry names standing for their family.

    ``known`` maps each family to its datasets; a C-MAPSS subset names the
    whole ``"cmapss"`` family (the subsets leave together). Matching ignores
    case; an unknown name raises ValueError listing the families.
    """
    lookup = {family.lower(): family for family in known}
    lookup.update({dataset.lower(): family for family, datasets in known.items() for dataset in datasets})
    unknown = [name for name in names if name.lower() not in lookup]
    if unknown:
        raise ValueError(f"unknown families {unknown}; choose from {sorted(known)} (or a dataset of one).")
    return sorted({lookup[name.lower()] for name in names})


def build_corpus(
    output,
    *,
    families=None,
    registry=None,
    data_home=None,
    seed=0,
    window=None,
    stride=None,
    simulated_share=0.0,
    command=None,
    versions=None,
    log=print,
):
    """Write the corpus of the training windows of ``families`` (default all) into ``output``; its manifest.

    ``window``/``stride`` replace every dataset's own window length and
    pretraining stride (the registry's; None keeps them). ``seed`` is that of
    the seeded unit splits (C-MAPSS). ``simulated_share`` in [0, 1) adds
    simulated windows making up that share of the corpus. ``manifest.json``
    is written last, so a folder with a manifest holds every shard it lists.
    When none of ``families`` has data in ``data_home`` (each retired or
    missing), or ``output`` or a folder above it is a file, ValueError is
    raised before anything is written.
    """
    registry = BENCHMARKS if registry is None else registry
    known = registry_families(registry)
    chosen = resolve_families(families or list(known), known)
    if not 0 <= simulated_share < 1:
        raise ValueError(f"simulated_share must lie in [0, 1), got {simulated_share}.")
    root = writable_folder(output, "the corpus folder")
    reasons = {}
    for family in chosen:
        for name in known[family]:
            entry = registry[name]
            reason = f"retired: {entry.retired}" if entry.retired else None
            if reason is None and not entry.available(data_home):
                reason = f"no data in {os.path.join(get_data_home(data_home), entry.directory)}"
            reasons[name] = reason
    if all(reason is not None for reason in reasons.values()):  # refused before anything is written
        listed = "; ".join(f"{name}: {reason}" for name, reason in reasons.items())
        raise ValueError(
            f"none of the families {chosen} has data to build a corpus from ({listed}); point --data-home "
            "(data_home, $HEPA_DATA_HOME) at the folder of the datasets, or name families that it holds."
        )
    shards, skipped = [], []
    for family in chosen:
        for name in known[family]:
            entry, reason = registry[name], reasons[name]
            if reason is not None:
                skipped.append({"family": family, "dataset": name, "reason": reason})
                log(f"{name}: left out ({reason[:80]})")
                continue
            if entry.is_cmapss:
                X, units, ends, info = cmapss_shard(entry, seed=seed, window=window, stride=stride)
            else:
                X, units, ends, info = event_shard(entry, data_home=data_home, seed=seed, window=window, stride=stride)
            step = stride or entry.pretrain_stride
            shards.append(write_shard(root, family, name, X, units, ends, info, stride=step))
            log(f"{name}: {X.shape[0]} windows of {X.shape[1]} channels x {X.shape[2]} steps ({family})")
    n_real = sum(shard["n_windows"] for shard in shards)
    if simulated_share > 0:
        n_sim = max(1, math.ceil(simulated_share / (1 - simulated_share) * n_real - 1e-9))
        X, units, ends, info = simulated_shard(n_sim, seed=seed, window=window, stride=stride)
        shards.append(
            write_shard(root, SIMULATED_FAMILY, "make_fleet", X, units, ends, info, stride=stride or FLEET_STRIDE)
        )
        log(f"simulated: {X.shape[0]} windows of {X.shape[1]} channels x {X.shape[2]} steps")
    manifest = {
        "format": FORMAT,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command,
        "versions": versions,
        "seed": seed,
        "window": window,
        "stride": stride,
        "simulated_share": simulated_share,
        "families": {family: [s["dataset"] for s in shards if s["family"] == family] for family in chosen},
        "skipped": skipped,
        "n_windows": sum(shard["n_windows"] for shard in shards),
        "shards": shards,
    }
    if simulated_share > 0:
        manifest["families"][SIMULATED_FAMILY] = ["make_fleet"]
    write_json(root / MANIFEST, manifest)
    return {**manifest, "root": str(root)}


def read_manifest(folder):
    """The manifest of the corpus in ``folder`` (or the path of its ``manifest.json``), with ``root`` added.

    ValueError naming the file when it is not a manifest this harness reads:
    not JSON, not an object, another format, or a field missing (of the
    manifest, of a shard or of a dataset left out).
    """
    path = Path(folder)
    if path.is_dir():
        path = path / MANIFEST
    if not path.is_file():
        raise FileNotFoundError(f"no corpus manifest at {path}; build one with `hepa-bench corpus build`.")
    remedy = (
        "name the folder of a corpus that `hepa-bench corpus build` wrote, or rebuild a damaged one with "
        "`hepa-bench corpus build --overwrite`."
    )
    manifest = read_json_object(path, ("format",), remedy)
    if manifest["format"] != FORMAT:
        raise ValueError(f"{path} has format {manifest['format']!r}; this harness reads format {FORMAT}.")
    require_fields(manifest, MANIFEST_FIELDS, str(path), remedy)
    for field in ("shards", "skipped"):
        if not isinstance(manifest.get(field, []), list):
            kind = json_kind(manifest[field])
            raise ValueError(f"{path}: the field {field!r} must be a list, got a JSON {kind}; {remedy}")
    for i, shard in enumerate(manifest["shards"], start=1):
        require_fields(shard, SHARD_FIELDS, f"{path}: shard {i}", remedy)
    for i, item in enumerate(manifest.get("skipped", []), start=1):
        require_fields(item, ("family", "dataset", "reason"), f"{path}: skipped entry {i}", remedy)
    return {**manifest, "root": str(path.parent)}


def corpus_families(manifest):
    """``{family: [datasets]}`` of the shards of ``manifest``."""
    families = {}
    for shard in manifest["shards"]:
        families.setdefault(shard["family"], []).append(shard["dataset"])
    return families


def corpus_windows(manifest, exclude_families=(), *, verify=False):
    """Yield ``(shard, X)`` for every shard of ``manifest`` outside ``exclude_families``, in manifest order.

    ``manifest`` is a loaded manifest (:func:`read_manifest`) or a corpus
    folder. ``exclude_families`` names families, or datasets standing for
    their family, so that naming one C-MAPSS subset leaves all four out;
    an unknown name raises ValueError. ``verify`` checks each shard's
    SHA-256 against the manifest before reading it. ``shard`` is the
    manifest's entry; ``X`` the (n, C, T) float32 windows.
    """
    if not isinstance(manifest, dict):
        manifest = read_manifest(manifest)
    excluded = set(resolve_families(list(exclude_families), corpus_families(manifest))) if exclude_families else set()
    for shard in manifest["shards"]:
        if shard["family"] in excluded:
            continue
        path = Path(manifest["root"]) / shard["file"]
        if verify and sha256_file(path) != shard["sha256"]:
            raise ValueError(f"{path} does not match the SHA-256 of the manifest; rebuild the corpus.")
        with np.load(path, allow_pickle=False) as stored:
            yield shard, stored["X"]


def pad_channels(X, n_channels):
    """Windows ``X`` (n, C, T) widened to ``n_channels`` channels by appending channels that are all NaN."""
    if X.shape[1] > n_channels:
        raise ValueError(f"windows of {X.shape[1]} channels cannot be padded to {n_channels}.")
    if X.shape[1] == n_channels:
        return X
    out = np.full((X.shape[0], n_channels, X.shape[2]), np.nan, dtype=np.float32)
    out[:, : X.shape[1]] = X
    return out
