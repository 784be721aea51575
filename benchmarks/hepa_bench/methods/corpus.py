"""The headline line started from an encoder pretrained on the corpus without the evaluated dataset's family.

The encoders come from ``hepa-bench corpus pretrain`` runs, one per design
and family left out, in the folder named by the environment variable
``HEPA_CORPUS_ENCODERS`` (default: ``corpus-encoders`` beside the data
home), laid out as ``<folder>/<design>/without-<family>/``: the checkpoint
folder of a run with ``--exclude <family>``. A cell refuses an encoder whose
run did not exclude the dataset's family or has not finished its epochs, and
records the encoder file's SHA-256 and the run's epochs and loss.

Each design is listed with the pretrainer parameters its runs used, since
``init_from`` needs the same architecture: :data:`CORPUS_DESIGNS`.
"""

import functools
import os
from pathlib import Path

from hepa_sklearn import HEPAFinetuner, HEPAPretrainer
from hepa_sklearn.datasets import get_data_home

from ..corpus.files import sha256_file
from ..corpus.pretrain import read_state
from ..corpus.shards import family_of
from ..protocols import PINNED_PREDICTOR, PINNED_PRETRAINER, plain_pipeline
from .parts import Method

__all__ = [
    "CORPUS_DESIGNS",
    "CORPUS_METHODS",
    "PINNED_FINETUNER",
    "corpus_encoder",
    "encoders_home",
    "finetuned_pipeline",
]

# the headline line's defaults around the encoder: untrained unless said, regimes found, RevIN, the level beside,
# the event head at 12 horizon knots (the 0.3.0 defaults)
HEADLINE = {"norm": "revin", "regimes": "auto", "window_level": True, "max_epochs": 0}
KNOTS = {"horizon_knots": 12}
# design -> the architecture of its corpus runs (`hepa-bench corpus pretrain --d-model ... --tokens univariate`)
CORPUS_DESIGNS = {
    "u64": {"tokens": "univariate", "d_model": 64, "n_heads": 4, "n_layers": 2, "patch_size": 16},
    "u128": {"tokens": "univariate", "d_model": 128, "n_heads": 4, "n_layers": 2, "patch_size": 16},
    "u256": {"tokens": "univariate", "d_model": 256, "n_heads": 4, "n_layers": 2, "patch_size": 16},
    # u64 on the corpus with simulated fleets as 30 % of its windows (`corpus build --simulated-share 0.3`)
    "u64-sim30": {"tokens": "univariate", "d_model": 64, "n_heads": 4, "n_layers": 2, "patch_size": 16},
    # u128 with four layers instead of two
    "u128-l4": {"tokens": "univariate", "d_model": 128, "n_heads": 4, "n_layers": 4, "patch_size": 16},
    # u128 on a seeded half of each shard's windows for 20 corpus epochs, as many steps as u128's 10
    # (`corpus pretrain --window-share 0.5 --max-epochs 20`): the corpus's size halved, its training length kept
    "u128-half": {"tokens": "univariate", "d_model": 128, "n_heads": 4, "n_layers": 2, "patch_size": 16},
    # u128 pretrained with JEPA horizons drawn from 1..50 instead of 1..150 (`corpus pretrain --K 50`)
    "u128-h50": {"tokens": "univariate", "d_model": 128, "n_heads": 4, "n_layers": 2, "patch_size": 16, "K": 50},
}


def encoders_home():
    """The folder of the corpus encoders: ``$HEPA_CORPUS_ENCODERS``, else ``corpus-encoders`` beside the data home."""
    given = os.environ.get("HEPA_CORPUS_ENCODERS")
    return Path(given) if given else Path(get_data_home()).parent / "corpus-encoders"


def corpus_encoder(design, entry):
    """``(path, provenance)`` of the finished corpus encoder of ``design`` that never saw ``entry``'s family."""
    family = family_of(entry)
    folder = encoders_home() / design / f"without-{family}"
    state = read_state(folder)
    if state is None:
        raise FileNotFoundError(
            f"no corpus encoder for design {design!r} without {family!r} in {folder}: run `hepa-bench corpus "
            f"pretrain --exclude {family} --checkpoint-dir {folder}` with the design's parameters first."
        )
    if family not in state["exclude"]:
        raise ValueError(f"the corpus encoder in {folder} was pretrained with {family!r} in its corpus.")
    if state["epochs"] < state["max_epochs"]:
        raise ValueError(f"the corpus run in {folder} has done {state['epochs']} of {state['max_epochs']} epochs.")
    path = folder / state["files"]["pretrainer"]
    provenance = {
        "corpus_encoder": f"{design}/without-{family}/{path.name}",
        "corpus_encoder_sha256": sha256_file(path),
        "corpus_epochs": state["epochs"],
        "corpus_final_loss": state["epoch_losses"][-1],
        "corpus_families": state["families"],
    }
    return path, provenance


def corpus_pipeline(entry, data, mask, *, epochs, device, seed, design, **params):
    """The headline line whose pretrainer starts from ``design``'s corpus encoder (``init_from``)."""
    path, provenance = corpus_encoder(design, entry)
    pipe, info = plain_pipeline(
        entry, data, mask, epochs=epochs, device=device, seed=seed, init_from=str(path), **params
    )
    return pipe, {**info, **provenance}


# HEPAFinetuner's defaults, pinned so that a cell is reproducible: the pinned event head's settings,
# with the finetuner's own where they differ (the head at 12 horizon knots reading the window level
# beside the encoder's state, 30 epochs at a lower learning rate), stopped by its own early stopping
# on the last tenth of the windows
PINNED_FINETUNER = {
    **{name: value for name, value in PINNED_PREDICTOR.items() if name not in ("init_from", "n_causes")},
    "horizon_knots": 12,
    "window_level": True,
    "max_epochs": 30,
    "lr": 3e-4,
}


def finetuned_pipeline(entry, data, mask, *, epochs, device, seed, design, corpus, encoder=None, **params):
    """``design``'s encoder (from the corpus with ``corpus``, else untrained) finetuned with the event head.

    The pretrainer is fitted on the cell's labelled training windows with
    ``params`` (``max_epochs=0``: it learns the regimes and the window
    level's statistics and keeps its start weights); then HEPAFinetuner
    (:data:`PINNED_FINETUNER`) trains the encoder and the head together on
    the same windows. The validation windows are not used.
    """
    X, y = data.X_train[mask], data.y_train[mask]
    provenance, start = {}, {}
    if corpus:
        path, provenance = corpus_encoder(design, entry)
        start = {"init_from": str(path)}
    pretrainer = HEPAPretrainer(**{**PINNED_PRETRAINER, "random_state": seed, "device": device, **params, **start})
    model = HEPAFinetuner(pretrainer.fit(X), **PINNED_FINETUNER, K=entry.K, random_state=seed, device=device)
    model.fit(X, y)
    return model, {**provenance, "finetune_epochs_run": model.n_epochs_}


def _params(design, **changes):
    """The headline line's parameters around ``design``'s architecture, with ``changes``."""
    return {**HEADLINE, **CORPUS_DESIGNS[design], "predictor": KNOTS, **changes}


def _own(design, description, **changes):
    """The headline line with ``design``'s architecture, its encoder fitted on the cell's windows alone."""
    return Method(
        description, family="candidate", surface=functools.partial(plain_pipeline, **_params(design, **changes))
    )


def _corpus(design, description, **changes):
    params = _params(design, **changes)
    return Method(description, family="candidate", surface=functools.partial(corpus_pipeline, design=design, **params))


def _finetuned(design, description, corpus):
    params = {key: value for key, value in _params(design).items() if key != "predictor"}
    surface = functools.partial(finetuned_pipeline, design=design, corpus=corpus, **params)
    return Method(description, family="candidate", surface=surface)


CORPUS_METHODS = {
    "hepa-u64-untrained": _own(
        "u64",
        "the headline line (0.3.0 defaults) with the corpus designs' encoder, univariate channel tokens of width 64, "
        "never pretrained: what the corpus encoder is measured against, the architecture alone",
    ),
    "hepa-u64-own": _own(
        "u64",
        "hepa-u64-untrained pretrained by JEPA on the cell's own training windows alone (max_epochs=20, early "
        "stopping on the last tenth): the dataset's own pretraining, to set beside the corpus's",
        max_epochs=20,
    ),
    "hepa-corpus-u64": _corpus(
        "u64",
        "the headline line (0.3.0 defaults) with the u64 encoder pretrained by JEPA on the corpus without the "
        "dataset's family, frozen (init_from, max_epochs=0)",
    ),
    "hepa-corpus-u64-continued": _corpus(
        "u64",
        "hepa-corpus-u64 with pretraining continued on the cell's training windows (max_epochs=20, early stopping "
        "on the last tenth)",
        max_epochs=20,
    ),
    "hepa-corpus-u64-sim30": _corpus(
        "u64-sim30",
        "hepa-corpus-u64 with the encoder pretrained on the corpus whose windows are 30 % simulated fleets "
        "(make_fleet), without the dataset's family",
    ),
    "hepa-u128-untrained": _own(
        "u128", "hepa-u64-untrained at width 128: the architecture of the corpus design u128, never pretrained"
    ),
    "hepa-corpus-u128": _corpus(
        "u128", "hepa-corpus-u64 with the u128 encoder (width 128) pretrained on the corpus without the family"
    ),
    "hepa-corpus-u128-h50": _corpus(
        "u128-h50", "hepa-corpus-u128 with the encoder pretrained on JEPA horizons 1..50 instead of 1..150 (K=50)"
    ),
    "hepa-corpus-u128-half": _corpus(
        "u128-half", "hepa-corpus-u128 with the encoder pretrained on half the corpus's windows for twice the epochs"
    ),
    "hepa-u128-l4-untrained": _own(
        "u128-l4",
        "hepa-u128-untrained with four layers: the architecture of the corpus design u128-l4, never pretrained",
    ),
    "hepa-corpus-u128-l4": _corpus(
        "u128-l4", "hepa-corpus-u128 with the encoder four layers deep instead of two, pretrained on the corpus"
    ),
    "hepa-corpus-u128-finetuned": _finetuned(
        "u128",
        "hepa-corpus-u128 with the encoder finetuned together with the event head (HEPAFinetuner, the window level "
        "beside the state) instead of frozen",
        corpus=True,
    ),
    "hepa-u128-finetuned": _finetuned(
        "u128",
        "hepa-corpus-u128-finetuned from the encoder's initial weights: the same finetuning without the corpus",
        corpus=False,
    ),
    "hepa-u256-untrained": _own(
        "u256", "hepa-u64-untrained at width 256: the architecture of the corpus design u256, never pretrained"
    ),
    "hepa-corpus-u256": _corpus(
        "u256", "hepa-corpus-u64 with the u256 encoder (width 256) pretrained on the corpus without the family"
    ),
}
