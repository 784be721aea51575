"""The plain pipeline with the 0.1.0 defaults taken apart on C-MAPSS: its normalisation, its pretraining set, its
pretraining.

``hepa-default`` (RevIN, pretrained on the labelled training windows) scores
near chance on FD002 and FD004, where the protocol's recipe does not. It
differs from the protocol in its normalisation (each window by its own
statistics, not one global z-score) and in what it pretrains on (the
labelled windows, not one window of up to 512 cycles per training unit).
Each entry of :data:`NORMALISATION_METHODS` changes it in one or two named
ways; ``hepa-default`` itself, ``hepa-default-untrained`` (its encoder
never pretrained) and ``hepa-default-rank`` (pretraining stopped on the
held-out embeddings' effective rank) complete the comparison. Every
entry keeps the estimators' own early stopping on the last tenth of the
windows each is fitted on; the validation units are not used for fitting.
"""

import functools

from ..protocols import default_pipeline, kept_epoch, plain_pipeline
from .parts import Method

__all__ = ["NORMALISATION_METHODS", "protocol_pretraining"]


class _Fitted:
    """``predict_proba(X)``: a fitted pretrainer's embedding, then a fitted event predictor's surface."""

    def __init__(self, pretrainer, predictor):
        self.pretrainer, self.predictor = pretrainer, predictor

    def predict_proba(self, X):
        return self.predictor.predict_proba(self.pretrainer.transform(X))


def protocol_pretraining(entry, data, mask, *, epochs, device, seed, encoder=None, **params):
    """The plain pipeline of ``hepa-default`` with ``params`` changed, its pretrainer fitted on the protocol's
    pretraining windows (``data.X_pre``), its event predictor on the labelled windows' embeddings."""
    pretrainer, predictor = default_pipeline(entry.K, seed=seed, device=device, **params)
    pretrainer.fit(data.X_pre)
    predictor.fit(pretrainer.transform(data.X_train[mask]), data.y_train[mask])
    info = {
        "pretrain_epochs_run": pretrainer.n_epochs_,
        "pretrain_epoch_kept": kept_epoch(pretrainer),
        "finetune_epochs_run": predictor.n_epochs_,
    }
    return _Fitted(pretrainer, predictor), info


def _apart(description, surface=plain_pipeline, regime=False, **params):
    return Method(description, family="candidate", surface=functools.partial(surface, **params), regime=regime)


NORMALISATION_METHODS = {
    "hepa-norm-global": _apart(
        'hepa-default with HEPAPretrainer(norm="global"): one z-score fitted on the labelled windows instead of RevIN',
        norm="global",
    ),
    "hepa-norm-pre": _apart(
        "hepa-default with its pretrainer fitted on the protocol's pretraining windows (one window of up to 512 "
        "cycles per training unit), its event predictor on the labelled windows' embeddings",
        protocol_pretraining,
    ),
    "hepa-norm-global-pre": _apart(
        "hepa-norm-pre with the global z-score: both changes", protocol_pretraining, norm="global"
    ),
    "hepa-norm-global-random": _apart(
        "hepa-norm-global with its encoder never pretrained (max_epochs=0; input statistics from the labelled "
        "windows): the control for the arms pretrained on the few pretraining windows",
        norm="global",
        max_epochs=0,
    ),
    "hepa-norm-normalizer": _apart(
        "hepa-default behind a RegimeNormalizer fitted on the training units' pretraining windows, as the user guide "
        "advises for data with operating conditions (C-MAPSS)",
        regime=True,
    ),
    "hepa-norm-normalizer-random": _apart(
        "hepa-norm-normalizer with its encoder never pretrained (max_epochs=0)", regime=True, max_epochs=0
    ),
}
