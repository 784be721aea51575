"""The registry of the benchmarks: each dataset's data, protocol and the paper's Table 1 figures.

Every dataset of the paper's Table 1 is one :class:`BenchmarkEntry` in
:data:`BENCHMARKS`, keyed by the name the runner and the report use; the
four C-MAPSS subsets are entries with the paper's reference protocol. An
entry says which loader reads the data and with which parameters, the
number of horizons ``K``, the window length, the strides of the pretraining,
finetuning and evaluation windows, how the pretrainer normalises, when
finetuning stops, which part pretrains, and the paper's figures. Adding a
dataset is one loader in :mod:`hepa_sklearn.datasets` and one entry here.
Label budgets are described in :mod:`hepa_bench.data`.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hepa_sklearn.datasets import (
    _batadal,
    _beijing,
    _chbmit,
    _ettm1,
    _gecco,
    _mba,
    _psm,
    _smap,
    _tep,
    _vix,
    _weather,
    load_batadal,
    load_beijing,
    load_chbmit,
    load_cmapss,
    load_ettm1,
    load_gecco,
    load_mba,
    load_psm,
    load_smap,
    load_tep,
    load_vix,
    load_weather,
)
from hepa_sklearn.datasets._cmapss import CONTEXT_LENGTH as CMAPSS_CONTEXT
from hepa_sklearn.datasets._cmapss import MIN_HISTORY as CMAPSS_MIN_HISTORY
from hepa_sklearn.datasets._cmapss import TEST_STRIDE as CMAPSS_TEST_STRIDE
from hepa_sklearn.datasets._cmapss import TRAIN_STRIDE as CMAPSS_TRAIN_STRIDE
from hepa_sklearn.datasets._cmapss import K as CMAPSS_K
from hepa_sklearn.datasets._home import get_data_home
from hepa_sklearn.event_predictor import HEPAEventPredictor
from hepa_sklearn.pretrainer import HEPAPretrainer
from hepa_sklearn.protocol import SubsetSplit, label_units, protocol_event_predictor, unit_windows

from .data import EventData, block_rule, first_step_labels, point_labels, rolling_loader, unit_blocks

# Percent of the rows each seed removes from the end of a fixed split under the rolling origin.
ORIGIN_STEP = 5
from .protocols import protocol_pretrainer

__all__ = ["BENCHMARKS", "PAPER_COLUMNS", "PATIENCE", "BenchmarkEntry", "get_benchmark"]

# Table 1 of the paper: the methods it reports, in its column order, and their seeds
PAPER_COLUMNS = {
    "chronos2": ("Chronos-2", 3),
    "patchtst": ("PatchTST", 5),
    "itransformer": ("iTransformer", 5),
    "mae": ("MAE", 5),
    "hepa": ("HEPA", 5),
}
PATIENCE = 10  # early-stopping patience of pretraining and finetuning (paper, hyperparameter table)
LABEL_BLOCKS = 20  # blocks per unit of the label budgets: 10 % labels are 2 of a single series' 20


def _paper(*rows):
    """``{column: {1.0: (mean, std), 0.1: (mean, std)}}`` from one (100 %, 10 %) pair per Table 1 column."""
    table = {}
    for column, row in zip(PAPER_COLUMNS, rows):
        if row is not None:
            table[column] = {1.0: row[0], 0.1: row[1]}
    return table


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
        C-MAPSS protocol (:class:`hepa_sklearn.protocol.SubsetSplit`)
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
        with the columns of :data:`PAPER_COLUMNS` it reports.
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
                "max_horizon": self.K,
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
        split = SubsetSplit(self.loader_params["subset"], seed, regime=regime)
        # the split keeps the windows but not the groups of its validation and test units
        frame = load_cmapss(self.loader_params["subset"], stride=CMAPSS_CONTEXT).frame
        _, _, g_valid = unit_windows(frame, split.split.valid, stride=CMAPSS_TRAIN_STRIDE)
        _, _, g_test = unit_windows(frame, split.split.test, stride=CMAPSS_TEST_STRIDE)
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


_CMAPSS_TEXT = (
    "C-MAPSS {subset}: the paper's reference protocol (hepa_sklearn.protocol, the authors' reference "
    "implementation's), so its h-AUROC is comparable with theirs: training units split 60/10/30 "
    "by a seeded permutation; one whole-history window per training unit pretrains (40 cuts per "
    "epoch, global z-score, no RevIN, fixed epochs); finetuning windows of up to 512 cycles with at "
    "least 128 of history, stride 4 (train, validation) and 1 (test); K = 150; the event predictor "
    "runs a fixed number of epochs. A label fraction keeps the first ceil(f n) training units."
)
_EVENT_TEXT = (
    "Pretraining: windows of the {pretrain} part, per-window RevIN, up to {pre_epochs} epochs with "
    "early stopping (patience 10) on the JEPA loss of its last 10 % of windows. Finetuning: the "
    "event predictor on frozen embeddings, up to {ft_epochs} epochs, early-stopped (patience 10) on "
    "the loss of the validation part's windows."
)


def _cmapss(subset, paper):
    return BenchmarkEntry(
        name=subset,
        description=_CMAPSS_TEXT.format(subset=subset),
        K=CMAPSS_K,
        context_length=CMAPSS_CONTEXT,
        pretrain_stride=CMAPSS_CONTEXT,
        finetune_stride=CMAPSS_TRAIN_STRIDE,
        eval_stride=CMAPSS_TEST_STRIDE,
        min_history=CMAPSS_MIN_HISTORY,
        norm="global",
        finetune_stop="fixed",
        pretrain_part="train",
        pretrain_epochs=50,
        finetune_epochs=30,
        loader_params={"subset": subset},
        seeded_split=True,
        paper=paper,
    )


def _events(
    name,
    module,
    loader,
    own,
    paper,
    *,
    pretrain_part="train",
    seeded_split=False,
    retired=None,
    origin_step=ORIGIN_STEP,
    **strides,
):
    stride = module.STRIDE
    settings = {**dict(pretrain_stride=stride, finetune_stride=stride, eval_stride=stride), **strides}
    text = own + " " + _EVENT_TEXT.format(pretrain=pretrain_part, pre_epochs=100, ft_epochs=50)
    return BenchmarkEntry(
        name=name,
        description=text,
        K=module.K,
        context_length=module.CONTEXT_LENGTH,
        min_history=module.MIN_HISTORY,
        norm="revin",
        finetune_stop="validation",
        pretrain_part=pretrain_part,
        pretrain_epochs=100,
        finetune_epochs=50,
        loader=loader,
        seeded_split=seeded_split,
        directory=module.DIRECTORY,
        paper=paper,
        retired=retired,
        spec=module.SPEC,
        origin_step=None if seeded_split else origin_step,
        **settings,
    )


# Why the TEP task is retired; the user guide's "The event benchmarks" says the same.
TEP_RETIRED = (
    "every faulty run switches its fault on at sample 160, so a window's time to the onset is its position in the "
    "run (the position-only score reaches 0.998); before the onset the process is fault-free, and nothing in its "
    "sensor values can announce a switch thrown from outside, so with the position hidden no task is left to learn"
)

# Paper Table 1, h-AUROC mean and std over seeds, (100 % labels, 10 % labels) per column
# in the order Chronos-2, PatchTST, iTransformer, MAE, HEPA; None where the paper has no figure.
BENCHMARKS = {
    "FD001": _cmapss(
        "FD001",
        _paper(
            ((0.66, 0.00), (0.66, 0.00)),
            ((0.80, 0.04), (0.69, 0.08)),
            ((0.70, 0.05), (0.59, 0.04)),
            ((0.69, 0.02), (0.63, 0.12)),
            ((0.81, 0.03), (0.78, 0.07)),
        ),
    ),
    "FD002": _cmapss(
        "FD002",
        _paper(
            ((0.45, 0.01), (0.46, 0.02)),
            ((0.44, 0.03), (0.48, 0.08)),
            ((0.43, 0.03), (0.50, 0.08)),
            ((0.56, 0.01), (0.52, 0.01)),
            ((0.57, 0.01), (0.55, 0.01)),
        ),
    ),
    "FD003": _cmapss(
        "FD003",
        _paper(
            ((0.73, 0.00), (0.67, 0.00)),
            ((0.79, 0.01), (0.77, 0.03)),
            ((0.76, 0.01), (0.64, 0.06)),
            ((0.78, 0.02), (0.78, 0.03)),
            ((0.84, 0.01), (0.84, 0.01)),
        ),
    ),
    "FD004": _cmapss(
        "FD004",
        _paper(
            None,
            ((0.52, 0.03), (0.51, 0.04)),
            ((0.45, 0.02), (0.49, 0.04)),
            ((0.57, 0.02), (0.52, 0.04)),
            ((0.63, 0.02), (0.55, 0.03)),
        ),
    ),
    "SMAP": _events(
        "SMAP",
        _smap,
        load_smap,
        "SMAP telemetry (telemanom layout): each channel's training file is event-free and pretrains; "
        "its test file is split in time. Context 100 steps (DATASETS.md); strides are the loader's.",
        _paper(
            ((0.54, 0.02), (0.51, 0.01)),
            ((0.49, 0.03), (0.46, 0.05)),
            ((0.47, 0.05), (0.52, 0.07)),
            ((0.64, 0.04), (0.50, 0.15)),
            ((0.59, 0.05), (0.49, 0.08)),
        ),
        pretrain_part="normal",
    ),
    "PSM": _events(
        "PSM",
        _psm,
        load_psm,
        "PSM server metrics: the unlabelled training file is the normal part and pretrains; the "
        "labelled test file is split in time. Context 100 steps (DATASETS.md); strides are the loader's.",
        _paper(
            ((0.48, 0.01), (0.51, 0.01)),
            ((0.55, 0.02), (0.43, 0.03)),
            ((0.52, 0.03), (0.53, 0.01)),
            ((0.56, 0.02), (0.52, 0.02)),
            ((0.57, 0.02), (0.48, 0.04)),
        ),
        pretrain_part="normal",
    ),
    "MBA": _events(
        "MBA",
        _mba,
        load_mba,
        "MBA ECG record, one series split in time; context 100 samples (DATASETS.md), stride 1 for "
        "every part (the loader's).",
        _paper(
            ((0.53, 0.10), (0.50, 0.07)),
            ((0.68, 0.07), (0.65, 0.08)),
            ((0.84, 0.03), (0.31, 0.05)),
            ((0.73, 0.03), (0.53, 0.04)),
            ((0.75, 0.03), (0.55, 0.15)),
        ),
    ),
    "BATADAL": _events(
        "BATADAL",
        _batadal,
        load_batadal,
        "BATADAL water SCADA: the attack-free year (dataset03) is the normal part and pretrains; "
        "dataset04 is split 60/10/30 in time. Context 512 hours, stride 4 (the loader's). Its "
        "training, validation and test parts hold 2, 1 and 2 attack onsets, so scores vary widely; no "
        "rolling origin (removing the last 5 % of rows already leaves the validation part without an onset).",
        _paper(
            ((0.56, 0.01), (0.55, 0.04)),
            ((0.66, 0.03), (0.37, 0.04)),
            ((0.46, 0.13), (0.54, 0.08)),
            ((0.60, 0.04), (0.61, 0.08)),
            ((0.57, 0.03), (0.54, 0.06)),
        ),
        pretrain_part="normal",
        origin_step=None,
    ),
    "TEP": _events(
        "TEP",
        _tep,
        load_tep,
        "Tennessee Eastman: the fault-free run d00 is the normal part and pretrains; the 22 test runs "
        "are split 60/10/30 by a permutation drawn from the seed (as C-MAPSS units). K = 150; context "
        "512 samples with windows ending from 16 samples of history on; stride 16 (the loader's).",
        _paper(
            None,
            ((0.99, 0.02), (1.00, 0.00)),
            ((0.93, 0.02), (0.94, 0.05)),
            ((0.96, 0.02), (0.99, 0.00)),
            ((1.00, 0.00), (1.00, 0.00)),
        ),
        pretrain_part="normal",
        seeded_split=True,
        retired=TEP_RETIRED,
    ),
    "ETTm1": _events(
        "ETTm1",
        _ettm1,
        load_ettm1,
        "ETTm1 oil-temperature spikes, one series split 60/20/20 in time with gaps of 200 rows; "
        "context 512 steps, stride 16 for every part (the loader's).",
        _paper(
            ((0.74, 0.01), (0.68, 0.02)),
            ((0.53, 0.03), (0.50, 0.03)),
            ((0.79, 0.03), (0.61, 0.02)),
            ((0.87, 0.00), (0.77, 0.02)),
            ((0.81, 0.00), (0.73, 0.01)),
        ),
    ),
    "Weather": _events(
        "Weather",
        _weather,
        load_weather,
        "Jena weather heat spikes, one series split 70/15/15 in time with gaps of 200 rows; context "
        "512 steps, stride 16 for every part (the loader's).",
        _paper(
            ((0.72, 0.02), (0.71, 0.02)),
            ((0.64, 0.08), (0.67, 0.03)),
            ((0.83, 0.04), (0.85, 0.01)),
            ((0.88, 0.02), (0.83, 0.02)),
            ((0.89, 0.01), (0.83, 0.02)),
        ),
    ),
    "Beijing": _events(
        "Beijing",
        _beijing,
        load_beijing,
        "Beijing air quality, twelve stations (units) each split 70/15/15 in time with gaps of 24 "
        "hours; context 512 hours, stride 64 for pretraining and finetuning (the loader's) and 16 for "
        "the test part (about 3,900 test windows).",
        _paper(
            ((0.53, 0.00), (0.49, 0.00)),
            ((0.81, 0.01), (0.65, 0.08)),
            ((0.75, 0.02), (0.73, 0.02)),
            ((0.81, 0.01), (0.77, 0.01)),
            ((0.81, 0.01), (0.78, 0.02)),
        ),
        eval_stride=16,
    ),
    "VIX": _events(
        "VIX",
        _vix,
        load_vix,
        "Daily VIX, crossings of 25 from below, one series split 60/10/30 in time; context 512 days, "
        "stride 1 for every part (the loader's).",
        _paper(
            ((0.40, 0.04), (0.38, 0.04)),
            ((0.48, 0.11), (0.57, 0.13)),
            ((0.40, 0.14), (0.48, 0.05)),
            ((0.57, 0.03), (0.55, 0.03)),
            ((0.57, 0.01), (0.55, 0.01)),
        ),
    ),
    "CHBMIT": _events(
        "CHBMIT",
        _chbmit,
        load_chbmit,
        "CHB-MIT scalp EEG of patient chb01, the paper's negative control (h-AUROC 0.497 there, outside its Table "
        "1): 18 derivations averaged to 16 Hz, each file a unit, the files split 60/10/30 by a permutation drawn "
        "from the seed (seizure files and the others apart). Context 256 steps (16 s), stride 256 (the loader's).",
        _paper(),
        seeded_split=True,
    ),
    "GECCO": _events(
        "GECCO",
        _gecco,
        load_gecco,
        "GECCO 2018 drinking-water quality, one series split at 60 % and 70 % in time with gaps of 200 "
        "rows; context 512 minutes (DATASETS.md), stride 16 for every part (the loader's).",
        _paper(
            ((0.74, 0.02), (0.80, 0.03)),
            ((0.65, 0.07), (0.52, 0.11)),
            ((0.64, 0.15), (0.50, 0.13)),
            ((0.81, 0.04), (0.55, 0.11)),
            ((0.88, 0.06), (0.39, 0.13)),
        ),
    ),
}


def get_benchmark(name):
    """The registry entry ``name``; ValueError listing the registered names otherwise."""
    if name not in BENCHMARKS:
        raise ValueError(f"unknown dataset {name!r}; choose from {list(BENCHMARKS)}.")
    return BENCHMARKS[name]
