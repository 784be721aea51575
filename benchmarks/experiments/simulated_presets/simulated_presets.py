"""The room above the floor on each simulated row: the oracle's and the age-only surface's test h-AUROC.

For every row of :data:`hepa_bench.simulated.rows.PRESETS` and seeds 0-4,
the test part exactly as the harness scores it (``load_fleet(split="test")``
at the row's evaluation stride, the row's test units), scored by
:func:`hepa_sklearn.metrics.h_auroc` as the runner scores the ``oracle``
and ``age-oracle`` references: the oracle's h-AUROC, the age-only
surface's, and their difference. Per row, the mean, minimum and maximum of
each over the seeds, and the spread of each reference (maximum less
minimum). Nothing is learned; the command, from the repository root::

    OMP_NUM_THREADS=1 python benchmarks/experiments/simulated_presets/simulated_presets.py \
        > benchmarks/experiments/simulated_presets/simulated_presets.txt

``--presets`` and ``--seeds`` take other rows and seeds.
"""

import argparse

import numpy as np
from hepa_bench.simulated.rows import N_UNITS, PRESETS, SIMULATED, UNITS, load_fleet, row_parts

from hepa_sklearn.metrics import h_auroc

SUMMARY = ("difference mean", "difference min", "difference max", "oracle max - min", "age-oracle max - min")


def scores(preset, seed):
    """``(oracle, age-oracle, difference, test units, test windows)`` of a row's test part under ``seed``."""
    entry = SIMULATED[preset]
    params = {"stride": entry.eval_stride, "min_history": entry.min_history, "random_state": seed}
    test = load_fleet(split="test", **params, **entry.loader_params)
    oracle, age = h_auroc(test.y, test.oracle), h_auroc(test.y, test.age_oracle)
    return oracle, age, oracle - age, len(np.unique(test.groups)), len(test.y)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    args = parser.parse_args(argv)
    print("Test h-AUROC of the oracle and of the age-only surface on the harness's test windows of each")
    print("simulated row (load_fleet(split='test'), the row's evaluation stride), per seed;")
    print("difference = oracle - age-oracle.")
    print()
    summary = []
    for preset in args.presets:
        units = row_parts(preset)["test"]
        print(f"## {preset}: {UNITS.get(preset, N_UNITS)} units, test units {units.start}-{units.stop - 1}")
        print("| seed | oracle | age-oracle | difference | test units | test windows |")
        print("|---|---|---|---|---|---|")
        rows = []
        for seed in args.seeds:
            oracle, age, difference, n_units, n_windows = scores(preset, seed)
            rows.append((oracle, age, difference))
            print(f"| {seed} | {oracle:.4f} | {age:.4f} | {difference:.4f} | {n_units} | {n_windows} |")
        values = np.array(rows)
        for name, reduce in (("mean", np.mean), ("min", np.min), ("max", np.max)):
            print(f"| {name} | " + " | ".join(f"{v:.4f}" for v in reduce(values, axis=0)) + " | | |")
        print()
        summary.append((preset, values))
    print("## Summary over the seeds")
    print("| row | " + " | ".join(SUMMARY) + " |")
    print("|---|---|---|---|---|---|")
    for preset, values in summary:
        spread = np.ptp(values, axis=0)
        difference = values[:, 2]
        print(
            f"| {preset} | {difference.mean():.4f} | {difference.min():.4f} | {difference.max():.4f} | "
            f"{spread[0]:.4f} | {spread[1]:.4f} |"
        )


if __name__ == "__main__":
    main()
