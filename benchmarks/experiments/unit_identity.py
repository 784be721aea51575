"""Does pretraining turn h_t into a code of *which engine* rather than *how worn*?

A diagnosis for the erosion of the snapshot study (user guide, "Does
pretraining pay?"). The JEPA target of a cut is the pooled representation
of the next Δt steps of the same unit. What is cheapest to predict about
that interval is what does not change along the unit: its own offsets and
noise level. Spread across units, such a code also satisfies SIGReg, which
only asks the batch of predictions to look Gaussian. If pretraining drifts
there, the share of embedding variance that lies *between* units grows and
the part that moves *within* a unit, where the wear is, shrinks.

For the reference protocol's encoder (C-MAPSS, one seed) at epochs 0, 1, 8
and 50, on the stride-4 windows of the validation units (no labels used
for the first two columns, no test units anywhere), this prints:

- ``between``: the share of the embeddings' total variance carried by the
  unit means, Σ_u n_u ||m_u - m||² / Σ_i ||h_i - m||²;
- ``within R²``: R² on validation windows of a ridge regression from the
  within-unit centred embedding to the within-unit centred capped time to
  event, fitted on the training windows: how much of the wear signal the
  within-unit motion of h_t carries;
- ``valid h-AUROC``: the standard event predictor on the validation units.

Usage: OMP_NUM_THREADS=1 python benchmarks/experiments/unit_identity.py --seed 0 [--method hepa-packed]

Its printed output also holds the ``hepa-within`` runs, a method whose
estimator option has since been removed (it is retired in the method table).
"""

import json

import numpy as np
from _common import cmapss_split, subset_seed_parser
from hepa_bench.methods import METHODS
from hepa_bench.protocols import with_state
from hepa_bench.snapshots import pretrain_with_snapshots
from sklearn.linear_model import RidgeCV

from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.protocol import RUL_CAP, TRAIN_STRIDE, protocol_event_predictor


def between_unit_share(E, groups):
    """Share of the total variance of ``E`` (n, d) carried by the means of ``groups``."""
    centred = E - E.mean(axis=0)
    total = (centred**2).sum()
    between = sum(
        np.count_nonzero(groups == g) * (centred[groups == g].mean(axis=0) ** 2).sum() for g in np.unique(groups)
    )
    return float(between / total)


def centred_within(values, groups):
    """``values`` minus the mean of their group."""
    out = np.asarray(values, dtype=float).copy()
    for g in np.unique(groups):
        out[groups == g] -= out[groups == g].mean(axis=0)
    return out


def _pretraining(name):
    method = METHODS[name]
    if method.retired:
        raise SystemExit(f"{name} is retired: {method.retired}.")
    return method.pretrain


def main(argv=None):
    parser = subset_seed_parser(__doc__)
    parser.add_argument("--method", default="hepa", help="a pretraining variant of the method table (not retired)")
    args = parser.parse_args(argv)
    data = cmapss_split(args)
    _, _, g_valid = data.unit_windows(data.split.valid, stride=TRAIN_STRIDE)
    pretrainer, states = pretrain_with_snapshots(
        data.X_pre, epochs=[0, 1, 8], pretrain_epochs=50, device="cpu", seed=args.seed, **_pretraining(args.method)
    )
    rul_train, rul_valid = (np.minimum(y["time"], RUL_CAP) for y in (data.y_train, data.y_valid))
    for epoch in (0, 1, 8, 50):
        encoder = with_state(pretrainer, states[epoch])
        E_train, E_valid = encoder.transform(data.X_train), encoder.transform(data.X_valid)
        probe = RidgeCV(alphas=np.logspace(-3, 3, 13)).fit(
            centred_within(E_train, data.g_train), centred_within(rul_train, data.g_train)
        )
        predictor = protocol_event_predictor(30, device="cpu", seed=args.seed).fit(E_train, data.y_train)
        record = {
            "subset": args.subset,
            "seed": args.seed,
            "method": args.method,
            "epoch": epoch,
            "between": between_unit_share(E_valid, g_valid),
            "within_r2": float(probe.score(centred_within(E_valid, g_valid), centred_within(rul_valid, g_valid))),
            "valid_h_auroc": h_auroc(data.y_valid, predictor.predict_proba(E_valid)),
        }
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
