"""The C-MAPSS rows on NASA's own test engines: every training engine learns, every window of the truncated test
engines is scored.

The protocol's rows (``FD001`` ...) split the run-to-failure training
engines 60/10/30 and score only windows with at least 128 cycles of
history. These rows answer what a user of ``load_cmapss`` sees instead:
the training engines are split 90/10 by the seed's permutation into
training and validation units, every window from an engine's first cycle
on is kept (``min_history=1``; stride 4), and the test part is NASA's
separate test file, its engines cut short before failure, labelled from the
RUL file, every window at stride 1, at every age. Seeds vary the training
and validation units and the models; the test windows never change.

:data:`NASA_ROWS` holds one entry per subset (``FD001-NASA`` ...), beside
the registry's :data:`~hepa_bench.registry.BENCHMARKS`; ``hepa-bench run``
takes them (:data:`~hepa_bench.runner.RUN_DATASETS`). Everything else is
the protocol's: K = 150, contexts of 512 cycles, the pretraining windows
(one whole history per training unit) and the label fractions (the first
``ceil(f n)`` training units).
"""

from dataclasses import replace

from ..registry import BENCHMARKS
from .split import CONDITIONS, MIN_HISTORY, TEST_STRIDE, NasaSplit

__all__ = ["NASA_ROWS", "NasaSplit"]

_TEXT = (
    "C-MAPSS {subset} on NASA's test engines: the training engines split 90/10 by the seed into training and "
    "validation units, windows at every age (at least 1 cycle of history, stride 4); the test part is NASA's "
    "truncated test engines, labelled from the RUL file, every window (stride 1, every age). The protocol's "
    "K, contexts, pretraining windows, epochs and label fractions otherwise."
)

#: one row per subset, named ``<subset>-NASA``
NASA_ROWS = {
    f"{subset}-NASA": replace(
        BENCHMARKS[subset],
        name=f"{subset}-NASA",
        description=_TEXT.format(subset=subset),
        min_history=MIN_HISTORY,
        eval_stride=TEST_STRIDE,
        loader_params={"subset": subset, "test": "nasa"},
        paper={},
    )
    for subset in CONDITIONS
}
