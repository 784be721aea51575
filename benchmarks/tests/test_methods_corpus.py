"""The corpus methods find the encoder that never saw the evaluated dataset's family, and refuse any other."""

import json

import pytest
from hepa_bench.corpus_files import sha256_file
from hepa_bench.methods import METHODS
from hepa_bench.methods_corpus import CORPUS_DESIGNS, corpus_encoder
from hepa_bench.registry import BENCHMARKS


def _run(folder, *, exclude, epochs=3, max_epochs=3):
    folder.mkdir(parents=True)
    (folder / "pretrainer-epoch0003.pt").write_bytes(b"weights")
    state = {
        "exclude": exclude,
        "families": ["vix"],
        "epochs": epochs,
        "max_epochs": max_epochs,
        "epoch_losses": [1.5, 1.2, 1.1][:epochs],
        "files": {"pretrainer": "pretrainer-epoch0003.pt"},
    }
    (folder / "state.json").write_text(json.dumps(state))


def test_the_encoder_without_the_family_is_found_with_its_provenance(tmp_path, monkeypatch):
    monkeypatch.setenv("HEPA_CORPUS_ENCODERS", str(tmp_path))
    _run(tmp_path / "u64" / "without-cmapss", exclude=["cmapss"])
    path, provenance = corpus_encoder("u64", BENCHMARKS["FD003"])
    assert path == tmp_path / "u64" / "without-cmapss" / "pretrainer-epoch0003.pt"
    assert provenance["corpus_encoder_sha256"] == sha256_file(path)
    assert provenance["corpus_encoder"] == "u64/without-cmapss/pretrainer-epoch0003.pt"
    assert provenance["corpus_epochs"] == 3 and provenance["corpus_final_loss"] == 1.1


def test_an_encoder_that_saw_the_family_or_is_unfinished_or_absent_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HEPA_CORPUS_ENCODERS", str(tmp_path))
    _run(tmp_path / "u64" / "without-cmapss", exclude=[])
    with pytest.raises(ValueError, match="pretrained with 'cmapss' in its corpus"):
        corpus_encoder("u64", BENCHMARKS["FD001"])
    _run(tmp_path / "u128" / "without-cmapss", exclude=["cmapss"], epochs=2)
    with pytest.raises(ValueError, match="has done 2 of 3 epochs"):
        corpus_encoder("u128", BENCHMARKS["FD001"])
    with pytest.raises(FileNotFoundError, match="hepa-bench corpus pretrain --exclude vix"):
        corpus_encoder("u64", BENCHMARKS["VIX"])


def test_each_corpus_method_names_a_design_with_univariate_tokens():
    assert all(design["tokens"] == "univariate" for design in CORPUS_DESIGNS.values())
    surfaces = [METHODS[name].surface for name in METHODS if "corpus-" in name]
    assert surfaces and all(surface.keywords["design"] in CORPUS_DESIGNS for surface in surfaces)
