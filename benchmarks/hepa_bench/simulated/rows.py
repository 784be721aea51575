"""The simulated rows of the harness: each seed a new fleet, with the oracle and age-only oracle as references.

Five rows of :func:`hepa_sklearn.datasets.make_fleet` (:data:`PRESETS`):
``sim-default``, one failure mode at the generator's defaults (six
regimes, noise 0.15); ``sim-hard``, more noise, fewer informative sensors
among more that carry nothing, slower degradation; ``sim-modes``, three
failure modes; ``sim-two-modes``, two (run as competing risks by
:mod:`hepa_bench.simulated.causes`); ``sim-spread``, a wide spread of
degradation rates and a steep hazard, so that the oracle stands well above
the age-only surface (0.26 h-AUROC on its test units where the first three
rows have 0.04 to 0.08), in a fleet of 2,000 units drawn evenly from their
prior so that both references vary by less than 0.01 between seeds
(``benchmarks/experiments/simulated_presets/simulated_presets.py``). Seed ``s`` draws the
fleet with ``random_state=s``, so seeds vary the data, not only the model.
Of its units (exchangeable draws; 100, or :data:`UNITS` of the row) the
first 60 % train, the next 10 % validate and the last 30 % test, the
proportions of the C-MAPSS protocol; a label fraction keeps whole units
(one label block per unit). The settings below were fixed before any
method was scored on them.

The rows live in :data:`SIMULATED`, beside the registry's
:data:`~hepa_bench.registry.BENCHMARKS`, and two references beside the
method table: ``oracle`` (the exact surface given the hidden damage and
rates, the ceiling of the row) and ``age-oracle`` (the exact surface given
the unit's age alone), which run on these rows only. ``hepa-bench run``
takes both (:data:`~hepa_bench.runner.RUN_DATASETS`,
:data:`~hepa_bench.runner.RUN_METHODS`), so every method of the table runs
on the rows: ``hepa-bench run --datasets sim-default sim-hard sim-modes
--methods gbm oracle ...``; ``python -m hepa_bench.simulated`` is that
command with these rows and references as its defaults.
"""

from functools import lru_cache, partial

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from hepa_sklearn.datasets import make_fleet

from ..methods.parts import Method
from ..registry import BenchmarkEntry

__all__ = [
    "CONTEXT_LENGTH",
    "K",
    "N_UNITS",
    "ORACLES",
    "PARTS",
    "PRESETS",
    "SIMULATED",
    "UNITS",
    "load_fleet",
    "oracle_surface",
    "row_parts",
]

K = 50  # the generator's default: half the median life
CONTEXT_LENGTH = 128  # the generator's default: most lives fit in one window, so age is visible to every method
N_UNITS = 100  # units of a row's fleet, unless UNITS says otherwise
PARTS = {"train": range(0, 60), "valid": range(60, 70), "test": range(70, 100)}  # the C-MAPSS protocol's 60/10/30
STRIDE = 4  # about 25 windows per unit of 100 steps: ~1,500 training windows with all labels, ~150 with 10 %

#: The fleet settings of each row (make_fleet's parameters; the rest at their defaults).
PRESETS = {
    "sim-default": {},
    # noise x 2.7 (0.4: a reading's noise 40 % of its lifetime range), 4 informative sensors among 8 that
    # carry nothing, and degradation 25 % slower (median life about 125 steps)
    "sim-hard": {"noise": 0.4, "n_informative": 4, "n_uninformative": 8, "degradation_rate": 0.006},
    # three competing modes, three informative sensors each (every mode gets three of the four shapes)
    "sim-modes": {"n_modes": 3, "n_informative": 9},
    # two competing modes, four informative sensors each (every mode gets each of the four shapes)
    "sim-two-modes": {"n_modes": 2, "n_informative": 8},
    # rates spread e**0.5 instead of e**0.3 (lives about 50 to 250 steps, 5th to 95th percentile), a
    # hazard 2.5 times as steep (a unit of known damage and rate fails within a few steps of its median),
    # every unit run to failure, units drawn evenly from their prior: the oracle 0.26 h-AUROC above the
    # age-only surface on the test units, each reference within 0.005 across seeds 0-4
    # (benchmarks/experiments/simulated_presets/simulated_presets.txt)
    "sim-spread": {"rate_spread": 0.5, "hazard_growth": 20.0, "censoring": 0.0, "unit_sampling": "even"},
}
#: Units of the rows whose fleet is not N_UNITS: sim-spread's references need 600 test units to vary by
#: less than 0.01 h-AUROC between seeds (about 0.01 with 300); the parts keep the proportions of PARTS.
UNITS = {"sim-spread": 2000}
_TEXT = {
    "sim-default": "one failure mode at make_fleet's defaults (6 regimes, noise 0.15, 8 informative and 4 empty "
    "sensors)",
    "sim-hard": "one failure mode, noise 0.4, 4 informative sensors among 8 empty ones, degradation rate 0.006 "
    "instead of 0.008",
    "sim-modes": "three competing failure modes, 9 informative sensors (3 per mode) and 4 empty ones",
    "sim-two-modes": "two competing failure modes, 8 informative sensors (4 per mode) and 4 empty ones",
    "sim-spread": "one failure mode, degradation rates spread e**0.5 (instead of e**0.3) between units, "
    "a hazard growth of 20 (instead of 8), no censoring, units drawn evenly from their prior "
    "(unit_sampling='even')",
}


def row_parts(preset):
    """``{part: units}`` of a row: :data:`PARTS` for 100 units, the same proportions (60/10/30) for more."""
    n = UNITS.get(preset, N_UNITS)
    train, valid = 6 * n // 10, 7 * n // 10
    return {"train": range(0, train), "valid": range(train, valid), "test": range(valid, n)}


@lru_cache(maxsize=1)
def _fleet(preset, seed, stride):
    """The fleet of ``preset`` under ``seed``, windows cut with ``stride``, cached for the parts of one seed.

    The stride only thins the windows: every window and surface is the
    one of the same unit and step at stride 1.
    """
    n_units = UNITS.get(preset, N_UNITS)
    params = {"K": K, "context_length": CONTEXT_LENGTH, "stride": stride, "random_state": seed}
    return make_fleet(n_units, **params, **PRESETS[preset])


def load_fleet(
    *,
    data_home=None,
    split,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=1,
    random_state=0,
    preset="sim-default",
):
    """One part of seed ``random_state``'s fleet, with the fields a registry loader returns, both oracles and the
    causes.

    The windows are those :func:`~hepa_sklearn.make_windows` cuts with
    ``stride`` and ``min_history`` from the part's units (:func:`row_parts`;
    taken from the fleet's windows at ``stride``, which count back from each
    unit's last step as make_windows does). ``data_home`` is unused
    (nothing is read).
    """
    if context_length != CONTEXT_LENGTH:
        raise ValueError(f"the simulated rows are cut with context_length={CONTEXT_LENGTH}, got {context_length}.")
    fleet = _fleet(preset, random_state, stride)
    units = list(row_parts(preset)[split])
    steps, unit_of = fleet.index["step"].to_numpy(), fleet.index["unit"].to_numpy()
    last = fleet.frame.groupby("unit")["step"].max().to_numpy()
    keep = np.isin(unit_of, units) & (steps >= min_history - 1)
    frame = fleet.frame[fleet.frame["unit"].isin(units)].reset_index(drop=True)
    frame["label"] = frame["failure"]
    splits = pd.DataFrame({"unit": units, "split": split, "start": 0, "stop": last[units] + 1})
    return Bunch(
        X=fleet.X[keep],
        y=fleet.y[keep],
        groups=fleet.groups[keep],
        frame=frame,
        splits=splits,
        oracle=fleet.oracle[keep],
        age_oracle=fleet.age_oracle[keep],
        feature_names=fleet.feature_names,
        cause=fleet.cause[keep],
        oracle_by_mode=fleet.oracle_by_mode[keep],
    )


def _units_text(name):
    """The fleet's units and parts as the entry's description says them."""
    parts = row_parts(name)
    spans = ", ".join(
        f"{units.start}-{units.stop - 1} {verb}"
        for units, verb in zip(parts.values(), ("train", "validate", "test"), strict=True)
    )
    return f"{UNITS.get(name, N_UNITS)} units (make_fleet, random_state=s), units {spans}"


def _entry(name):
    return BenchmarkEntry(
        name=name,
        description=f"Simulated fleet, {_TEXT[name]}: seed s draws a new fleet of {_units_text(name)}; "
        "K = 50, windows of 128 steps "
        "from the first step on, stride 4; a label fraction keeps whole units. Pretraining on the "
        "training windows, up to 100 epochs; finetuning up to 50 epochs, early-stopped (patience 10) "
        "on the validation windows.",
        K=K,
        context_length=CONTEXT_LENGTH,
        pretrain_stride=STRIDE,
        finetune_stride=STRIDE,
        eval_stride=STRIDE,
        min_history=1,
        norm="global",
        finetune_stop="validation",
        pretrain_part="train",
        pretrain_epochs=100,
        finetune_epochs=50,
        loader=load_fleet,
        loader_params={"preset": name},
        seeded_split=True,
        label_blocks=1,
    )


#: The simulated rows, as registry entries.
SIMULATED = {name: _entry(name) for name in PRESETS}


class _Lookup:
    """``predict_proba(X)``: the stored surface of the stored windows equal to ``X``; refuses any other windows."""

    def __init__(self, pairs):
        self.pairs = pairs

    def predict_proba(self, X):
        for windows, surface in self.pairs:
            if windows.shape == X.shape and np.array_equal(windows, X, equal_nan=True):
                return surface
        raise ValueError("the oracle knows only the validation and test windows of its fleet.")


def oracle_surface(entry, data, mask, *, epochs, device, seed, encoder=None, field="oracle"):
    """The fleet's ``field`` surface (``"oracle"`` or ``"age_oracle"``) of the validation and test windows.

    Nothing is learned: the seed's fleet is drawn again (equal seeds give
    equal fleets) and its surfaces are read for the windows of the cell.
    """
    params = {
        "context_length": entry.context_length,
        "min_history": entry.min_history,
        "random_state": seed,
        **entry.loader_params,
    }
    parts = [
        entry.loader(split=part, stride=stride, **params)
        for part, stride in (("valid", entry.finetune_stride), ("test", entry.eval_stride))
    ]
    return _Lookup([(part.X, getattr(part, field)) for part in parts]), {}


#: The references only a simulated row has.
ORACLES = {
    "oracle": Method(
        "reference: the exact surface given the unit's hidden damage and degradation rates, the "
        "ceiling of any model of the sensors",
        family="reference",
        surface=oracle_surface,
        datasets=tuple(PRESETS),
    ),
    "age-oracle": Method(
        "reference: the exact surface given the unit's age alone (over the fleet's prior of damage and rates)",
        family="reference",
        surface=partial(oracle_surface, field="age_oracle"),
        datasets=tuple(PRESETS),
    ),
}
