"""The registry of the benchmarks: each dataset's data, protocol and the paper's Table 1 figures.

Every dataset of the paper's Table 1 is one :class:`~hepa_bench.entry.BenchmarkEntry`
in :data:`BENCHMARKS`, keyed by the name the runner and the report use; the
four C-MAPSS subsets are entries with the paper's reference protocol. An
entry says which loader reads the data and with which parameters, the
number of horizons ``K``, the window length, the strides of the pretraining,
finetuning and evaluation windows, how the pretrainer normalises, when
finetuning stops, which part pretrains, and the paper's figures. Adding a
dataset is one loader in :mod:`hepa_sklearn.datasets` (with its defaults in
:func:`hepa_sklearn.datasets.get_event_dataset`) and one entry here.
Label budgets are described in :mod:`hepa_bench.data`.
"""

from hepa_sklearn.cmapss_protocol import CONTEXT_LENGTH as CMAPSS_CONTEXT
from hepa_sklearn.cmapss_protocol import MIN_HISTORY as CMAPSS_MIN_HISTORY
from hepa_sklearn.cmapss_protocol import TEST_STRIDE as CMAPSS_TEST_STRIDE
from hepa_sklearn.cmapss_protocol import TRAIN_STRIDE as CMAPSS_TRAIN_STRIDE
from hepa_sklearn.cmapss_protocol import K as CMAPSS_K
from hepa_sklearn.datasets import get_event_dataset

from .entry import LABEL_BLOCKS, PATIENCE, BenchmarkEntry

__all__ = ["BENCHMARKS", "LABEL_BLOCKS", "PAPER_COLUMNS", "PATIENCE", "BenchmarkEntry", "get_benchmark"]

# Percent of the rows each seed removes from the end of a fixed split under the rolling origin.
ORIGIN_STEP = 5

# Table 1 of the paper: the methods it reports, in its column order, and their seeds
PAPER_COLUMNS = {
    "chronos2": ("Chronos-2", 3),
    "patchtst": ("PatchTST", 5),
    "itransformer": ("iTransformer", 5),
    "mae": ("MAE", 5),
    "hepa": ("HEPA", 5),
}


def _paper(*rows):
    """``{column: {1.0: (mean, std), 0.1: (mean, std)}}`` from one (100 %, 10 %) pair per Table 1 column."""
    table = {}
    for column, row in zip(PAPER_COLUMNS, rows, strict=False):  # no rows: a dataset outside Table 1
        if row is not None:
            table[column] = {1.0: row[0], 0.1: row[1]}
    return table


_CMAPSS_TEXT = (
    "C-MAPSS {subset}: the paper's reference protocol (hepa_sklearn.cmapss_protocol, the authors' reference "
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
    dataset,
    own,
    paper,
    *,
    pretrain_part="train",
    seeded_split=False,
    retired=None,
    origin_step=ORIGIN_STEP,
    **strides,
):
    """The entry of the event benchmark whose loader is ``load_<dataset>``, with the dataset's defaults."""
    defaults = get_event_dataset(dataset)
    stride = defaults.stride
    settings = {**dict(pretrain_stride=stride, finetune_stride=stride, eval_stride=stride), **strides}
    text = own + " " + _EVENT_TEXT.format(pretrain=pretrain_part, pre_epochs=100, ft_epochs=50)
    return BenchmarkEntry(
        name=name,
        description=text,
        K=defaults.K,
        context_length=defaults.context_length,
        min_history=defaults.min_history,
        norm="revin",
        finetune_stop="validation",
        pretrain_part=pretrain_part,
        pretrain_epochs=100,
        finetune_epochs=50,
        loader=defaults.loader,
        seeded_split=seeded_split,
        directory=defaults.directory,
        paper=paper,
        retired=retired,
        spec=defaults.spec,
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
        "smap",
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
        "psm",
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
        "mba",
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
        "batadal",
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
        "tep",
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
        "ettm1",
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
        "weather",
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
        "beijing",
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
        "vix",
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
        "chbmit",
        "CHB-MIT scalp EEG of patient chb01, the paper's negative control (h-AUROC 0.497 there, outside its Table "
        "1): 18 derivations averaged to 16 Hz, each file a unit, the files split 60/10/30 by a permutation drawn "
        "from the seed (seizure files and the others apart). Context 256 steps (16 s), stride 256 (the loader's).",
        _paper(),
        seeded_split=True,
    ),
    "GECCO": _events(
        "GECCO",
        "gecco",
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
