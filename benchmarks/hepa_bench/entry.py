"""One event benchmark of the registry: its data, its protocol, and how it loads and builds its estimators.

A :class:`BenchmarkEntry` says which loader reads the data and with which
parameters, the number of horizons, the window length and strides, how the
pretrainer normalises, when finetuning stops and which part pretrains; it
loads the windows of every part under one seed (:meth:`BenchmarkEntry.load`)
and builds the protocol's unfitted estimators. The entries themselves are
the table of :mod:`hepa_bench.registry`.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.cmapss_protocol import (
    CONTEXT_LENGTH,
    TEST_STRIDE,
    TRAIN_STRIDE,
    SubsetSplit,
    label_units,
    protocol_event_predictor,
    unit_windows,
)
from hepa_sklearn.datasets import get_data_home, load_cmapss

from .data import EventData, block_rule, first_step_labels, point_labels, rolling_loader, unit_blocks
from .nasa.split import NasaSplit
from .protocols import protocol_pretrainer

__all__ = ["LABEL_BLOCKS", "PATIENCE", "BenchmarkEntry"]

PATIENCE = 10  # early-stopping patience of pretraining and finetuning (paper, hyperparameter table)
LABEL_BLOCKS = 20  # blocks per unit of the label budgets: 10 % labels are 2 of a single series' 20


@dataclass(frozen=True)
class BenchmarkEntry:
    """One event benchmark: its data, its protocol and the paper's figures.

    Attributes
    ----------
    name : str
        Name in the runner, the results and the report.
    description : str
        What the benchmark is and every choice the paper leaves open.
    K : int
        Horizons ``1..K`` of the surface (paper §3.3: 150 for C-MAPSS and
        TEP, 200 otherwise).
    context_length : int
        Steps per window.
    pretrain_stride, finetune_stride, eval_stride : int
        Steps between consecutive windows of the pretraining part, of the
        training and validation parts, and of the test part.
    min_history : int
        Least steps of a window's own unit before its end.
    norm : {"global", "revin"}
        The pretrainer's normalisation: a global per-channel z-score learned
        in ``fit`` (C-MAPSS, where RevIN erases the degradation level) or
        per-window RevIN; the protocols' pretrainers look for no regimes
        and append no window level (``regimes=None, window_level=False``).
    finetune_stop : {"fixed", "validation"}
        ``"fixed"``: the event predictor runs all its epochs (C-MAPSS);
        ``"validation"``: early stopping on the loss of the validation
        part's windows, patience 10.
    pretrain_part : {"train", "normal"}
        The part whose windows pretrain the encoder: the event-free
        ``"normal"`` part where the dataset has one, else the training
        part (C-MAPSS: one window of whole history per training unit).
    pretrain_epochs, finetune_epochs : int
        Epochs (the most epochs under early stopping) when the runner is
        given none.
    loader : callable or None
        The dataset's ``load_*`` function; None for C-MAPSS, which the
        C-MAPSS protocol (:class:`hepa_sklearn.cmapss_protocol.SubsetSplit`)
        splits by seeded unit permutation.
    loader_params : dict
        Extra loader parameters (the C-MAPSS subset).
    seeded_split : bool
        The seed also draws the unit split (C-MAPSS, TEP); otherwise the
        split is the dataset's fixed chronological one and the seed changes
        only model initialisation, sampling and label blocks.
    directory : str or None
        Sub-directory of the data home that holds the files (None: shipped).
    label_blocks : int
        Blocks per unit of the label budget (not used by C-MAPSS).
    paper : dict
        Table 1 of the paper: ``{column: {1.0: (mean, std), 0.1: (mean, std)}}``
        with the columns of :data:`~hepa_bench.registry.PAPER_COLUMNS` it
        reports.
    retired : str or None
        Why the dataset's task no longer runs; its records stay as data, and
        the report leaves its rows out of every win count.
    spec : EventDataset or None
        The dataset's spec (:mod:`hepa_sklearn.datasets`), which the rolling
        origin re-splits.
    origin_step : int or None
        Percent of each labelled unit's rows that each seed removes from the
        end under the rolling origin (:class:`~hepa_bench.data.RollingOrigin`);
        None where the dataset has none (its seeds draw the split, or a shift
        would leave a part without an event).
    """

    name: str
    description: str
    K: int
    context_length: int
    pretrain_stride: int
    finetune_stride: int
    eval_stride: int
    min_history: int
    norm: str
    finetune_stop: str
    pretrain_part: str
    pretrain_epochs: int
    finetune_epochs: int
    loader: Callable | None = None
    loader_params: dict = field(default_factory=dict)
    seeded_split: bool = False
    directory: str | None = None
    label_blocks: int = LABEL_BLOCKS
    paper: dict = field(default_factory=dict)
    retired: str | None = None
    spec: object | None = None
    origin_step: int | None = None

    @property
    def is_cmapss(self):
        return self.loader is None

    def available(self, data_home=None):
        """Whether the data can be read: shipped, or the data home holds a non-empty ``directory``."""
        if self.directory is None:
            return True
        folder = os.path.join(get_data_home(data_home), self.directory)
        return os.path.isdir(folder) and bool(os.listdir(folder))

    def make_pretrainer(self, epochs, *, device, seed, layout=None, **params):
        """The unfitted pretrainer of the protocol; ``params`` override.

        ``layout`` is the batch layout: C-MAPSS defaults to ``"padded"``,
        the layout of its published records
        (:func:`~hepa_bench.protocols.protocol_pretrainer`); the other
        datasets have only the library's ``"packed"``.
        """
        if self.is_cmapss:
            return protocol_pretrainer(epochs, device=device, seed=seed, layout=layout or "padded", **params)
        if layout not in (None, "packed"):
            raise ValueError(f"{self.name} is pretrained with the packed batch layout only, got {layout!r}.")
        return HEPAPretrainer(
            **{
                "norm": self.norm,
                "regimes": None,
                "window_level": False,
                "K": self.K,
                "max_epochs": epochs,
                "early_stopping": True,
                "n_iter_no_change": PATIENCE,
                "device": device,
                "random_state": seed,
                **params,
            }
        )

    def make_event_predictor(self, epochs, *, device, seed, **params):
        """The unfitted event predictor of the protocol; fit it with :meth:`fit_head`."""
        if self.finetune_stop == "fixed":
            return protocol_event_predictor(epochs, device=device, seed=seed, **params)
        return HEPAEventPredictor(
            **{
                "K": self.K,
                "horizon_knots": None,  # the paper's head: every horizon
                "max_epochs": epochs,
                "early_stopping": True,
                "n_iter_no_change": PATIENCE,
                # fit_head passes the validation part as the second of two groups: a half of the groups is it
                "validation_fraction": 0.5,
                "device": device,
                "random_state": seed,
                **params,
            }
        )

    def fit_head(self, head, E_train, y_train, E_valid, y_valid):
        """Fit ``head`` on training embeddings; with ``finetune_stop="validation"`` it stops on the validation part.

        The validation windows are appended to the training ones as a
        second group, so that the estimator's early stopping, which holds
        out the last ``validation_fraction`` (here 0.5) of the groups,
        holds out exactly them.
        """
        if self.finetune_stop == "fixed":
            return head.fit(E_train, y_train)
        groups = np.repeat(["train", "valid"], [len(E_train), len(E_valid)])
        return head.fit(np.concatenate([E_train, E_valid]), np.concatenate([y_train, y_valid]), groups=groups)

    def load(self, seed, data_home=None, *, regime=False, split="fixed"):
        """The :class:`~hepa_bench.data.EventData` of this benchmark under ``seed``.

        ``regime``: the windows normalised per operating condition
        (C-MAPSS only, :class:`~hepa_sklearn.preprocessing.RegimeNormalizer`
        with the setting channels kept). ``split="rolling"``: seed ``s``
        re-splits the first ``100 - s * origin_step`` percent of the rows
        (:class:`~hepa_bench.data.RollingOrigin`; seed 0 is the fixed split).
        """
        if split not in ("fixed", "rolling"):
            raise ValueError(f"split must be 'fixed' or 'rolling', got {split!r}.")
        if split == "rolling" and self.origin_step is None:
            raise ValueError(
                f"{self.name} has no rolling origin: "
                + (
                    "its seeds already draw the split."
                    if self.seeded_split
                    else "a shift of its split would leave a part without an event."
                )
            )
        if self.is_cmapss:
            return self._load_cmapss(seed, regime)
        if regime:
            raise ValueError(f"{self.name} has no operating settings to normalise by; regime methods run on C-MAPSS.")
        params = dict(self.loader_params)
        if self.seeded_split:
            params["random_state"] = seed
        loader = self.loader
        if split == "rolling" and seed:
            loader = rolling_loader(self.spec, seed * self.origin_step)

        def part(name, stride):
            return loader(
                data_home=data_home,
                split=name,
                context_length=self.context_length,
                stride=stride,
                min_history=self.min_history,
                **params,
            )

        pre = part(self.pretrain_part, self.pretrain_stride)
        train = part("train", self.finetune_stride)
        valid = part("valid", self.finetune_stride)
        test = part("test", self.eval_stride)
        blocks = unit_blocks(train.groups, self.label_blocks)
        return EventData(
            X_pre=pre.X,
            X_train=train.X,
            y_train=train.y,
            g_train=train.groups,
            X_valid=valid.X,
            y_valid=valid.y,
            g_valid=valid.groups,
            X_test=test.X,
            y_test=test.y,
            g_test=test.groups,
            point_valid=point_labels(valid, "valid", self.finetune_stride, self.min_history),
            point_test=point_labels(test, "test", self.eval_stride, self.min_history),
            blocks=blocks,
            label_rule=block_rule(blocks, train.y, self.K, seed),
        )

    def _load_cmapss(self, seed, regime):
        if self.loader_params.get("test") == "nasa":  # the rows on NASA's test engines (hepa_bench.nasa.rows)
            split = NasaSplit(self.loader_params["subset"], seed, regime=regime)
            g_valid, g_test = split.g_valid, split.g_test
        else:
            split = SubsetSplit(self.loader_params["subset"], seed, regime=regime)
            # the split keeps the windows but not the groups of its validation and test units
            frame = load_cmapss(self.loader_params["subset"], stride=CONTEXT_LENGTH).frame
            _, _, g_valid = unit_windows(frame, split.split.valid, stride=TRAIN_STRIDE)
            _, _, g_test = unit_windows(frame, split.split.test, stride=TEST_STRIDE)
        units = split.split.train

        def rule(fraction):
            return split.train_mask(fraction), len(label_units(units, fraction))

        return EventData(
            X_pre=split.X_pre,
            X_train=split.X_train,
            y_train=split.y_train,
            g_train=split.g_train,
            X_valid=split.X_valid,
            y_valid=split.y_valid,
            g_valid=g_valid,
            X_test=split.X_test,
            y_test=split.y_test,
            g_test=g_test,
            point_valid=first_step_labels(split.y_valid),
            point_test=first_step_labels(split.y_test),
            blocks=np.searchsorted(np.sort(units), split.g_train),
            label_rule=rule,
            nasa=lambda: split.nasa,
        )
