"""What the method table is made of: the :class:`Method` record, and the encoders and heads its entries call.

An encoder embeds windows (``transform``) once fitted; a head is fitted on
the embeddings. The callables that fit a surface model on raw windows are
in :mod:`hepa_bench.methods.surfaces`; the entries of the table are in
:mod:`hepa_bench.methods.table`.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.baselines import MAEPretrainer, MatchedHeadPredictor, MiniRocketEncoder
from hepa_sklearn.cmapss_protocol import CUTS_PER_UNIT

from ..registry import PATIENCE

__all__ = [
    "Method",
    "event_head",
    "headline_head",
    "matched_head",
    "minirocket_features",
    "pretrained_hepa",
    "pretrained_mae",
    "supervised_encoder",
    "untrained_hepa",
]


# -- encoders: encoder(entry, data, *, epochs, device, seed, **pretrain) -> fitted transformer -----------------


def pretrained_hepa(entry, data, *, epochs, device, seed, **params):
    """HEPAPretrainer fitted on the entry's pretraining windows with its protocol; ``params`` override."""
    return entry.make_pretrainer(epochs, device=device, seed=seed, **params).fit(data.X_pre)


def untrained_hepa(entry, data, *, epochs, device, seed, **params):
    """The same encoder never trained (``max_epochs=0``): the entry's input statistics, its initial weights."""
    return entry.make_pretrainer(0, device=device, seed=seed, **params).fit(data.X_pre)


def pretrained_mae(entry, data, *, epochs, device, seed):
    """The MAE baseline: the same causal encoder pretrained by masked-patch reconstruction.

    It sees the entry's pretraining windows with the same normalisation and
    stop rule as HEPA. On C-MAPSS, where HEPA draws 40 cuts from each
    unit's window per epoch, each window is repeated 40 times per epoch
    (each repeat gets its own mask), so both see as many samples.
    """
    template = entry.make_pretrainer(epochs, device=device, seed=seed)
    mae = MAEPretrainer(
        norm=template.norm,
        max_epochs=epochs,
        early_stopping=template.early_stopping,
        n_iter_no_change=template.n_iter_no_change,
        device=device,
        random_state=seed,
    )
    return mae.fit(np.repeat(data.X_pre, CUTS_PER_UNIT, axis=0) if entry.is_cmapss else data.X_pre)


def minirocket_features(entry, data, *, epochs, device, seed, **params):
    """MiniRocketEncoder fitted on the entry's pretraining windows: nothing is trained (``epochs``, ``device``
    unused); ``params`` go to the encoder (``n_kernels``)."""
    return MiniRocketEncoder(random_state=seed, **params).fit(data.X_pre)


def supervised_encoder(estimator_class, entry, data, mask, *, epochs, device, seed, norm=None):
    """``estimator_class`` trained end to end on the labelled windows of ``mask``, stopped as the entry says, then
    frozen.

    Its normalisation is ``norm``, by default the entry's, HEPA's (C-MAPSS:
    the global z-score, which keeps the degradation level; elsewhere RevIN).

    Fitted through :meth:`~hepa_bench.registry.BenchmarkEntry.fit_head` like
    a head: early-stopped on the validation windows, or on C-MAPSS the
    protocol's fixed finetuning epochs.
    """
    encoder = estimator_class(
        K=entry.K,
        norm=norm or entry.norm,
        max_epochs=epochs,
        early_stopping=entry.finetune_stop != "fixed",
        validation_fraction=0.5,
        n_iter_no_change=PATIENCE,
        device=device,
        random_state=seed,
    )
    return entry.fit_head(encoder, data.X_train[mask], data.y_train[mask], data.X_valid, data.y_valid)


# -- heads: head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed, **finetune) ----------------


def event_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed, **params):
    """HEPAEventPredictor on frozen embeddings, stopped as the entry's protocol says."""
    head = entry.make_event_predictor(epochs, device=device, seed=seed, **params)
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


def headline_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed):
    """The headline line's head: ``HEPAEventPredictor(K=K)`` with its defaults, fitted on the training embeddings
    alone with its own early stopping, as the plain pipeline fits it (``epochs`` and the validation part unused)."""
    return HEPAEventPredictor(K=entry.K, device=device, random_state=seed).fit(E_train, y_train)


def matched_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed):
    """The paper's common baseline head (:class:`MatchedHeadPredictor`), stopped as the entry says.

    Its learned horizon table has the paper's 256 rows, or K rows where K
    is larger.
    """
    head = MatchedHeadPredictor(
        K=entry.K,
        horizon_rows=None if entry.K > 256 else 256,
        max_epochs=epochs,
        early_stopping=entry.finetune_stop != "fixed",
        validation_fraction=0.5,
        device=device,
        random_state=seed,
    )
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


@dataclass(frozen=True)
class Method:
    """One column of the benchmark.

    Attributes
    ----------
    description : str
    family : {"hepa", "default", "candidate", "baseline", "reference", "former"}
        ``"hepa"``: a HEPA recipe a user would tune (pretrained or untrained
        encoder, any head); ``"default"``: the plain pipeline with the
        defaults of a release (0.1.0 and 0.2.0); ``"candidate"``: the plain pipeline with a candidate
        default; ``"baseline"``: another method; ``"reference"``: a
        reference point that learns nothing from the sensor values (the
        unit's age, the window's position), shown beside every row and
        compared only with the row's best method; ``"former"``: a retired
        form of a baseline, whose records stay as data and count in no
        comparison.
    encoder : callable or None
        ``encoder(entry, data, *, epochs, device, seed, **pretrain)``: a
        fitted object whose ``transform(X)`` gives embeddings; ``epochs``
        are the pretraining epochs. A ``supervised`` encoder is called as
        ``encoder(entry, data, mask, *, epochs, device, seed)`` with the
        cell's labelled windows and the finetuning epochs, once per label
        fraction.
    head : callable or None
        ``head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device,
        seed, **finetune)``: a fitted estimator with ``predict_proba(E)``.
    surface : callable or None
        ``surface(entry, data, mask, *, epochs, device, seed, encoder,
        **finetune)``: ``(fitted estimator with predict_proba(X), info)``;
        ``encoder`` is the method's fitted encoder, if it has one.
    pretrain, finetune : dict
        Parameters passed to the encoder and to the head or surface.
        Methods with equal encoder, ``pretrain`` and ``regime`` share one
        fitted encoder (and its embeddings) per dataset and seed.
    regime : bool
        The windows are normalised per operating condition
        (:class:`~hepa_sklearn.preprocessing.RegimeNormalizer`; C-MAPSS).
    ablation : bool
        One of the paper's ablations (§4.4), tabled against ``hepa``.
    retired : str or None
        Why the method no longer runs (the option it needs was removed from
        the estimators); its records stay in the results as data.
    datasets : tuple of str or None
        The only datasets the method runs on (the simulated rows' oracles,
        which read a fleet's hidden state); None: every dataset.
    """

    description: str
    family: str = "hepa"
    encoder: Callable | None = None
    head: Callable | None = event_head
    surface: Callable | None = None
    pretrain: dict = field(default_factory=dict)
    finetune: dict = field(default_factory=dict)
    supervised: bool = False
    regime: bool = False
    ablation: bool = False
    retired: str | None = None
    datasets: tuple | None = None

    def __post_init__(self):
        if self.retired is None and self.encoder is None and self.surface is None:
            raise ValueError("a Method needs an encoder or a surface.")
        if self.surface is None and self.encoder is not None and self.head is None:
            raise ValueError("a Method with an encoder and no surface needs a head.")

    @property
    def control(self):
        """An untrained-encoder control: the recipe's encoder never trained (``max_epochs=0``)."""
        return self.encoder is untrained_hepa

    @property
    def encoder_key(self):
        """Methods with equal keys share one fitted encoder."""
        if self.encoder is None:
            return None
        return (
            getattr(self.encoder, "__name__", repr(self.encoder)),
            tuple(sorted(self.pretrain.items())),
            self.regime,
        )
