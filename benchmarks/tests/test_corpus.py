"""The pretraining corpus: training windows only, shards and manifest, leave-one-family-out selection, the CLI.

The disjointness test runs for every registry entry: C-MAPSS reads the
subsets the library ships, VIX the synthetic series of the ``data_home``
fixture, and the other datasets the real data home ($HEPA_DATA_HOME) when
it holds them (skipped otherwise). The splits it checks against are the
harness's own: :class:`hepa_sklearn.cmapss_protocol.SubsetSplit`, as
:meth:`~hepa_bench.entry.BenchmarkEntry.load` uses it, and each entry's
loader's table of parts.
"""

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from hepa_bench.cli import main
from hepa_bench.corpus.files import REPOSITORY, sha256_file
from hepa_bench.corpus.shards import (
    build_corpus,
    corpus_windows,
    family_of,
    pad_channels,
    read_manifest,
    registry_families,
    resolve_families,
)
from hepa_bench.registry import BENCHMARKS

from hepa_sklearn.cmapss_protocol import SubsetSplit

QUIET = {"log": lambda message: None}


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory, data_home):
    """C-MAPSS (64-step windows, stride 64), the synthetic VIX and a quarter of simulated windows."""
    folder = tmp_path_factory.mktemp("corpus")
    return build_corpus(
        folder,
        families=["cmapss", "vix"],
        data_home=data_home,
        window=64,
        stride=64,
        simulated_share=0.25,
        command="hepa-bench corpus build",
        **QUIET,
    )


def test_families_of_the_registry():
    families = registry_families()
    assert families["cmapss"] == ["FD001", "FD002", "FD003", "FD004"]
    assert all(len(names) == 1 for family, names in families.items() if family != "cmapss")
    assert family_of(BENCHMARKS["ETTm1"]) == "ettm1"
    assert resolve_families(["fd003", "VIX", "cmapss"], families) == ["cmapss", "vix"]
    with pytest.raises(ValueError, match="unknown families"):
        resolve_families(["nope"], families)


def test_shards_and_manifest(small_corpus):
    manifest = read_manifest(small_corpus["root"])
    assert manifest["families"] == {
        "cmapss": ["FD001", "FD002", "FD003", "FD004"],
        "vix": ["VIX"],
        "simulated": ["make_fleet"],
    }
    assert manifest["command"] == "hepa-bench corpus build" and manifest["n_windows"] == sum(
        shard["n_windows"] for shard in manifest["shards"]
    )
    for shard in manifest["shards"]:
        path = f"{manifest['root']}/{shard['file']}"
        assert shard["file"] == f"{shard['family']}/{shard['dataset']}.npz"
        assert sha256_file(path) == shard["sha256"]
        with np.load(path, allow_pickle=False) as stored:
            X, units, ends = stored["X"], stored["unit"], stored["end"]
        assert X.dtype == np.float32 and X.shape == (shard["n_windows"], shard["n_channels"], 64)
        assert len(units) == len(ends) == len(X) and list(dict.fromkeys(units.tolist())) == shard["units"]
        assert len(shard["channel_names"]) == len(shard["offset"]) == len(shard["scale"]) == shard["n_channels"]
        assert not np.isinf(X).any() and (~np.isnan(X)).any(axis=(1, 2)).all()
        for span in shard["spans"]:
            mine = ends[units == span["unit"]]
            assert span["stop"] == mine.max() + 1 and span["start"] == max(0, mine.min() - 63)
    # the simulated windows are a quarter of the corpus
    simulated = manifest["shards"][-1]
    assert simulated["family"] == "simulated" and simulated["n_windows"] == pytest.approx(
        manifest["n_windows"] / 4, abs=1
    )


def test_retired_and_missing_datasets_are_left_out(tmp_path, data_home):
    manifest = build_corpus(tmp_path / "c", families=["tep", "smap", "vix"], data_home=data_home, **QUIET)
    assert [shard["dataset"] for shard in manifest["shards"]] == ["VIX"]
    reasons = {item["dataset"]: item["reason"] for item in manifest["skipped"]}
    assert reasons["TEP"] == f"retired: {BENCHMARKS['TEP'].retired}" and reasons["SMAP"].startswith("no data in")


@pytest.mark.parametrize("share", [0.0, 0.5])
def test_a_data_home_without_the_families_writes_nothing(tmp_path, share):
    """No family with data: refused before anything is written; the next build needs no --overwrite."""
    output, home = tmp_path / "c", str(tmp_path)
    with pytest.raises(ValueError, match=r"none of the families \['smap', 'tep'\] has data.*SMAP: no data"):
        build_corpus(output, families=["tep", "smap"], data_home=home, simulated_share=share, **QUIET)
    assert not output.exists()
    args = ["corpus", "build", "--output", str(output), "--families", "smap", "--data-home", home]
    with pytest.raises(SystemExit, match=r"^hepa-bench corpus build: none of the families \['smap'\] has"):
        main(args)
    assert not output.exists()


def test_cmapss_defaults_are_the_protocol_pretraining_windows(tmp_path):
    """Default window and stride: one whole-history window per training unit, as the protocol's ``X_pre``."""
    manifest = build_corpus(tmp_path / "c", families=["FD001"], **QUIET)
    (shard, X), *others = corpus_windows(manifest)
    assert shard["dataset"] == "FD001" and [s["dataset"] for s, _ in others] == ["FD002", "FD003", "FD004"]
    split = SubsetSplit("FD001", 0, regime=False, defer_windows=True)
    order = np.argsort(split.split.train)  # X_pre follows the seeded permutation, the shard the unit ids
    raw = X * np.array(shard["scale"])[None, :, None] + np.array(shard["offset"])[None, :, None]
    np.testing.assert_allclose(raw, split.X_pre[order], rtol=1e-5, atol=1e-3)


@pytest.fixture(scope="module")
def family_corpus(tmp_path_factory):
    """``family_corpus(name, data_home)``: the default corpus of ``name``'s family, built once per family."""
    built = {}

    def build(name, home):
        family = family_of(BENCHMARKS[name])
        if family not in built:
            folder = tmp_path_factory.mktemp(family)
            built[family] = build_corpus(folder, families=[family], data_home=home, **QUIET)
        return built[family]

    return build


def _data_home(entry, synthetic):
    if entry.name == "VIX":
        return synthetic
    if entry.is_cmapss:
        return None
    if not entry.available():
        pytest.skip(f"{entry.name}: no data in the data home")
    return None


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_corpus_holds_no_validation_or_test_rows(name, family_corpus, data_home):
    entry = BENCHMARKS[name]
    home = _data_home(entry, data_home)
    if entry.retired:  # a retired dataset is left out, and a corpus of nothing is refused before any file
        with pytest.raises(
            ValueError, match=rf"none of the families .* has data to build a corpus from \({name}: retired"
        ):
            family_corpus(name, home)
        return
    manifest = family_corpus(name, home)
    shards = [shard for shard in manifest["shards"] if shard["dataset"] == name]
    (shard,) = shards
    with np.load(f"{manifest['root']}/{shard['file']}", allow_pickle=False) as stored:
        X, units, ends = stored["X"], stored["unit"], stored["end"]
    if entry.is_cmapss:
        split = SubsetSplit(entry.loader_params["subset"], 0, regime=False, defer_windows=True).split
        assert set(units.astype(int)) == set(split.train.tolist())
        assert not set(units.astype(int)) & (set(split.valid.tolist()) | set(split.test.tolist()))
        return
    # the loader's table of parts: what every part of entry.load(0) is cut from
    table = entry.loader(
        data_home=home, split="valid", context_length=entry.context_length, stride=10**6, min_history=entry.min_history
    ).splits
    first_row = np.maximum(ends - X.shape[2] + 1, 0)
    for unit, part, start, stop in table[["unit", "split", "start", "stop"]].itertuples(index=False):
        mine = units == str(unit)
        if part in ("valid", "test"):
            assert not np.any(mine & (first_row < stop) & (ends >= start)), f"{name}: {unit} {part} rows in the corpus"
        elif part in shard["parts"]:  # every training window of the part is in the corpus
            assert mine.any()
    held = set(table.loc[table["split"].isin(["valid", "test"]), "unit"].astype(str))
    only_held = held - set(table.loc[table["split"].isin(["train", "normal"]), "unit"].astype(str))
    assert not only_held & set(units.tolist())


def test_corpus_windows_leave_one_family_out(small_corpus, tmp_path):
    every = [(shard["dataset"], X.shape) for shard, X in corpus_windows(small_corpus)]
    assert [name for name, _ in every] == ["FD001", "FD002", "FD003", "FD004", "VIX", "make_fleet"]
    for exclude in (["cmapss"], ["FD002"], ["Cmapss", "fd004"]):  # the C-MAPSS subsets leave together
        kept = [shard["dataset"] for shard, _ in corpus_windows(small_corpus, exclude_families=exclude)]
        assert kept == ["VIX", "make_fleet"]
    kept = [shard["family"] for shard, _ in corpus_windows(small_corpus["root"], exclude_families=["vix", "simulated"])]
    assert kept == ["cmapss"] * 4
    with pytest.raises(ValueError, match="unknown families"):
        list(corpus_windows(small_corpus, exclude_families=["weather"]))  # not in this corpus
    shard, X = next(corpus_windows(small_corpus, exclude_families=["cmapss"], verify=True))
    with np.load(f"{small_corpus['root']}/{shard['file']}") as stored:
        np.testing.assert_array_equal(X, stored["X"])


def test_a_changed_shard_fails_verification(tmp_path, data_home):
    manifest = build_corpus(tmp_path / "c", families=["vix"], data_home=data_home, window=64, stride=64, **QUIET)
    path = tmp_path / "c" / manifest["shards"][0]["file"]
    with np.load(path) as stored:
        parts = dict(stored)
    parts["X"][0, 0, -1] += 1.0
    np.savez(path, **parts)
    assert len(list(corpus_windows(manifest))) == 1
    with pytest.raises(ValueError, match="SHA-256"):
        list(corpus_windows(manifest, verify=True))


def test_pad_channels():
    X = np.ones((2, 3, 5), dtype=np.float32)
    padded = pad_channels(X, 5)
    assert padded.shape == (2, 5, 5) and np.isnan(padded[:, 3:]).all() and (padded[:, :3] == 1).all()
    assert pad_channels(X, 3) is X
    with pytest.raises(ValueError, match="cannot be padded"):
        pad_channels(X, 2)


def test_build_and_info_commands(tmp_path, data_home, capsys):
    output = tmp_path / "corpus"
    args = ["corpus", "build", "--output", str(output), "--families", "vix", "--data-home", data_home]
    assert main([*args, "--window", "64", "--stride", "32", "--simulated-share", "0.5"]) == 0
    manifest = json.loads((output / "manifest.json").read_text())
    assert [s["family"] for s in manifest["shards"]] == ["vix", "simulated"]
    assert manifest["window"] == 64 and manifest["stride"] == 32 and manifest["versions"]["hepa_sklearn"]
    assert "corpus build" in manifest["command"]
    capsys.readouterr()
    assert main(["corpus", "info", str(output), "--verify"]) == 0
    printed = capsys.readouterr().out
    assert "windows per family: vix" in printed and "match their SHA-256" in printed
    with pytest.raises(SystemExit, match="already holds a corpus"):
        main(args)
    with pytest.raises(SystemExit, match="inside the repository"):
        main(["corpus", "build", "--output", str(REPOSITORY / "corpus"), "--families", "vix"])
    with pytest.raises(SystemExit, match="unknown families"):
        main(["corpus", "build", "--output", str(tmp_path / "other"), "--families", "nope"])
    with pytest.raises(SystemExit, match="no corpus manifest"):
        main(["corpus", "info", str(tmp_path / "none")])


MINIMAL_SHARD = {
    "file": "vix/VIX.npz",
    "family": "vix",
    "dataset": "VIX",
    "n_windows": 3,
    "n_channels": 4,
    "window_length": 64,
    "stride": 16,
    "units": ["VIX"],
    "sha256": "0" * 64,
}
MINIMAL_MANIFEST = {"format": 1, "created": "2026-01-01T00:00:00", "n_windows": 3, "shards": [MINIMAL_SHARD]}


def _without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


@pytest.mark.parametrize(
    "text, found",
    [
        ('{"format": 1, "shards": [', r"is not valid JSON \(.*line 1"),
        ("", "is not valid JSON"),
        (b"\xff\xfe\x00garbage", "is not valid JSON"),
        ("[1, 2]", "holds a JSON array, not an object"),
        ("null", "holds a JSON null, not an object"),
        (json.dumps(_without(MINIMAL_MANIFEST, "shards")), r"lacks the field\(s\) \['shards'\]"),
        (json.dumps(_without(MINIMAL_MANIFEST, "created")), r"lacks the field\(s\) \['created'\]"),
        (json.dumps({**MINIMAL_MANIFEST, "shards": {"a": 1}}), "field 'shards' must be a list"),
        (json.dumps({**MINIMAL_MANIFEST, "shards": [7]}), "shard 1 must be an object"),
        (
            json.dumps({**MINIMAL_MANIFEST, "shards": [_without(MINIMAL_SHARD, "n_channels")]}),
            r"shard 1 lacks the field\(s\) \['n_channels'\]",
        ),
        (json.dumps({**MINIMAL_MANIFEST, "skipped": [{"dataset": "SMAP"}]}), r"skipped entry 1 lacks"),
    ],
)
def test_info_on_a_damaged_manifest_names_the_file(tmp_path, text, found):
    path = tmp_path / "manifest.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    for where in (tmp_path, path):
        with pytest.raises(SystemExit) as raised:
            main(["corpus", "info", str(where)])
        message = str(raised.value.code)
        assert message.startswith(f"hepa-bench corpus info: {path}") and "\n" not in message
        assert re.search(found, message), message
        assert "corpus build --overwrite" in message


def test_info_of_a_minimal_manifest(tmp_path, capsys):
    (tmp_path / "manifest.json").write_text(json.dumps(MINIMAL_MANIFEST))
    assert main(["corpus", "info", str(tmp_path)]) == 0
    assert "windows per family: vix 3" in capsys.readouterr().out


def test_a_damaged_manifest_ends_the_command_with_one_line_and_a_nonzero_status(tmp_path):
    (tmp_path / "manifest.json").write_text("[]")
    done = subprocess.run(
        [sys.executable, "-m", "hepa_bench", "corpus", "info", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "manifest.json holds a JSON array" in done.stderr


def test_a_file_where_a_folder_is_expected_is_named(tmp_path, data_home):
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    for output in (afile, afile / "corpus"):
        args = ["corpus", "build", "--output", str(output), "--families", "vix", "--data-home", data_home]
        expected = rf"^hepa-bench corpus build: the corpus folder {output} .*{afile} is a file"
        with pytest.raises(SystemExit, match=expected):
            main([*args, "--window", "64", "--stride", "64"])
        with pytest.raises(ValueError, match=rf"{afile} is a file, not a folder"):
            build_corpus(output, families=["vix"], data_home=data_home, window=64, stride=64, **QUIET)
    assert afile.read_text() == "keep me"
