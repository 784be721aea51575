"""The families of the default pipeline taken apart (``hepa-norm-*``) and of the designs beside the embedding
(``hepa-level-*``, ``hepa-spread-*``, ``hepa-beside-*``, ``hepa-views-*``): in the table, apart from the report."""

from pathlib import Path

import numpy as np
from hepa_bench.methods.beside import BESIDE_METHODS, beside, selected_level
from hepa_bench.methods.normalisation import NORMALISATION_METHODS, protocol_pretraining
from hepa_bench.methods.table import METHODS
from hepa_bench.protocols import default_pipeline
from hepa_bench.report.document import render_report

REPOSITORY = Path(__file__).resolve().parents[2]

FAMILIES = {
    "hepa-norm-": [
        "hepa-norm-global",
        "hepa-norm-pre",
        "hepa-norm-global-pre",
        "hepa-norm-global-random",
        "hepa-norm-normalizer",
        "hepa-norm-normalizer-random",
    ],
    "hepa-level-": ["hepa-level-revin", "hepa-level-regime", "hepa-level-regime-revin", "hepa-level-shift"],
    "hepa-spread-": ["hepa-spread-wd", "hepa-spread-small", "hepa-spread-select"],
    "hepa-beside-": ["hepa-beside-multiscale", "hepa-beside-trend"],
    "hepa-views-": ["hepa-views-global", "hepa-views-both"],
}


def test_each_family_is_in_the_method_table_as_candidates_of_the_plain_pipeline():
    for prefix, names in FAMILIES.items():
        assert [name for name in METHODS if name.startswith(prefix)] == names
    new = [name for names in FAMILIES.values() for name in names]
    assert list(NORMALISATION_METHODS) + list(BESIDE_METHODS) == new
    for name in new:
        method = METHODS[name]
        assert method.family == "candidate" and method.retired is None and method.description
        assert method.surface is not None and method.encoder is None
    # the arms behind a RegimeNormalizer read the C-MAPSS windows normalised per operating condition
    assert [name for name in new if METHODS[name].regime] == ["hepa-norm-normalizer", "hepa-norm-normalizer-random"]


def test_the_report_of_the_committed_records_is_the_same_without_the_families():
    table = dict(METHODS)  # the one table every part of the report reads, in its order
    for name in [*NORMALISATION_METHODS, *BESIDE_METHODS]:
        del METHODS[name]
    try:
        benchmarks = REPOSITORY / "benchmarks" / "records"
        text = render_report(
            benchmarks / "cmapss_results.jsonl",
            snapshots=benchmarks / "snapshot_results.jsonl",
            events=benchmarks / "event_results.jsonl",
            simulated=benchmarks / "simulated_results.jsonl",
            causes=benchmarks / "simulated_causes_results.jsonl",
        )
    finally:
        METHODS.clear()
        METHODS.update(table)
    # test_report.py regenerates the same file with the families in the table and their section at the end
    committed = (REPOSITORY / "docs" / "benchmarks.md").read_text()
    before_families = committed.split("\n\n## Method families\n")[0]
    assert text.rstrip("\n") == before_families.rstrip("\n")
    assert text.endswith("\n") == committed.endswith("\n")


def _cell(small_registry, data_home, fraction=1.0):
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    return entry, data, data.train_mask(fraction)[0]


def test_the_summary_sits_beside_the_embeddings_standardised_on_the_training_windows(data_home, small_registry):
    entry, data, mask = _cell(small_registry, data_home)
    channels = data.X_train.shape[1]
    model, info = beside(
        entry, data, mask, epochs=1, device="cpu", seed=0, **METHODS["hepa-level-revin"].surface.keywords
    )
    assert info["n_features"] == 256 + 4 * channels and not info["regimes_found"]
    E = model.embed(data.X_train[mask])
    np.testing.assert_allclose(E[:, 256:].mean(axis=0), 0, atol=1e-6)  # the level, standardised on these windows
    assert model.predict_proba(data.X_valid).shape == (len(data.X_valid), entry.K)
    both, info = beside(
        entry, data, mask, epochs=1, device="cpu", seed=0, **METHODS["hepa-views-both"].surface.keywords
    )
    # the headline line's embedding with its two means per channel, then the global z-score's embedding
    assert info["n_features"] == (256 + 2 * channels) + 256
    headline = default_pipeline(
        entry.K, seed=0, device="cpu", norm="revin", regimes="auto", window_level=True, max_epochs=0
    )
    np.testing.assert_array_equal(
        both.embed(data.X_valid)[:, : 256 + 2 * channels], headline[0].fit(data.X_train[mask]).transform(data.X_valid)
    )


def test_the_selecting_head_keeps_the_fit_of_lower_held_out_loss(data_home, small_registry):
    entry, data, mask = _cell(small_registry, data_home)
    model, info = selected_level(entry, data, mask, epochs=1, device="cpu", seed=0)
    lower = "level" if info["loss_level"] <= info["loss_embedding"] else "embedding"
    assert info["chose"] == lower
    assert len(model.columns) == (256 + 4 * data.X_train.shape[1] if lower == "level" else 256)
    assert model.predict_proba(data.X_valid).shape == (len(data.X_valid), entry.K)


def test_the_protocol_arm_pretrains_on_the_protocols_windows_and_finetunes_on_the_labelled_ones(
    data_home, small_registry
):
    entry, data, mask = _cell(small_registry, data_home, fraction=0.2)
    model, info = protocol_pretraining(entry, data, mask, epochs=1, device="cpu", seed=0, max_epochs=1)
    on_pre = default_pipeline(entry.K, seed=0, device="cpu", max_epochs=1)[0].fit(data.X_pre)
    np.testing.assert_array_equal(model.pretrainer.transform(data.X_valid), on_pre.transform(data.X_valid))
    assert info["pretrain_epochs_run"] == 1 and info["finetune_epochs_run"] == model.predictor.n_epochs_
    head = default_pipeline(entry.K, seed=0, device="cpu")[-1].fit(
        on_pre.transform(data.X_train[mask]), data.y_train[mask]
    )
    np.testing.assert_array_equal(model.predict_proba(data.X_valid), head.predict_proba(on_pre.transform(data.X_valid)))
