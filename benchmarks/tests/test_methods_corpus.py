"""The corpus methods find the encoder that never saw the evaluated dataset's family, and refuse any other."""

import json

import pytest
import torch
from hepa_bench.corpus.files import sha256_file
from hepa_bench.methods.corpus import CORPUS_DESIGNS, corpus_encoder, finetuned_pipeline
from hepa_bench.methods.table import METHODS
from hepa_bench.protocols import PINNED_PRETRAINER
from hepa_bench.registry import BENCHMARKS

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.persistence import save


def _run(folder, *, exclude, epochs=3, max_epochs=3):
    folder.mkdir(parents=True)
    (folder / "pretrainer-epoch0003.pt").write_bytes(b"weights")
    (folder / "optimizer-epoch0003.pt").write_bytes(b"state")
    state = {  # every field hepa-bench corpus pretrain writes
        "manifest_sha256": "0" * 64,
        "exclude": exclude,
        "families": ["vix"],
        "seed": 0,
        "windows_per_piece": None,
        "params": {},
        "epochs": epochs,
        "max_epochs": max_epochs,
        "epoch_losses": [1.5, 1.2, 1.1][:epochs],
        "files": {"pretrainer": "pretrainer-epoch0003.pt", "optimizer": "optimizer-epoch0003.pt"},
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


def test_the_finetuned_design_starts_from_the_corpus_encoder_and_trains_it(
    tmp_path, monkeypatch, data_home, small_registry
):
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    mask = data.train_mask(1.0)[0]
    design = {key: value for key, value in METHODS["hepa-corpus-u128-finetuned"].surface.keywords.items()}
    assert design["window_level"] and design["d_model"] == 128 and design["corpus"]
    # a finished corpus run of the design's architecture, without VIX's family
    source = HEPAPretrainer(**{**PINNED_PRETRAINER, **CORPUS_DESIGNS["u128"], "max_epochs": 0, "random_state": 5})
    source.fit(data.X_pre)
    folder = tmp_path / "u128" / "without-vix"
    _run(folder, exclude=["vix"])
    save(source, folder / "pretrainer-epoch0003.pt")
    monkeypatch.setenv("HEPA_CORPUS_ENCODERS", str(tmp_path))

    model, info = finetuned_pipeline(entry, data, mask, epochs=1, device="cpu", seed=0, **design)
    assert info["corpus_encoder"] == "u128/without-vix/pretrainer-epoch0003.pt"
    assert info["finetune_epochs_run"] == model.n_epochs_ >= 1
    start = source.encoder_.state_dict()
    assert all(torch.equal(start[key], value) for key, value in model.pretrainer.encoder_.state_dict().items())
    tuned = model.net_.module_.encoder.state_dict()
    assert any(not torch.equal(start[key], tuned[key]) for key in start)
    assert model.net_.module_.reads_level and model.predict_proba(data.X_valid).shape == (len(data.X_valid), entry.K)
    # without the corpus: the same finetuning from the encoder's initial weights
    untrained, info = finetuned_pipeline(
        entry, data, mask, epochs=1, device="cpu", seed=0, **METHODS["hepa-u128-finetuned"].surface.keywords
    )
    assert "corpus_encoder" not in info
    initial = untrained.pretrainer.encoder_.state_dict()
    assert any(not torch.equal(start[key], initial[key]) for key in start)
