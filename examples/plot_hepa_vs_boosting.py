"""
HEPA against gradient boosting on held-out engines
==================================================

The first model a scikit-learn user tries on windows like these is gradient
boosting on a few summary statistics.
:class:`~hepa_sklearn.GradientBoostingEventPredictor` is that model with the
same surface contract as HEPA: ``predict_proba`` returns ``p(t, Δt)`` for
``Δt = 1..K``, so the same metrics and displays apply to both.

This example fits both on the C-MAPSS FD001 engines, twice: once with every
training engine labelled, once with the labels of only five of them. The
pretrainer learns from the windows of all training engines either way (it
needs no labels); that is where a pretrained encoder can help. Both are
scored on engines held out from every fit, horizon by horizon, with
:class:`~hepa_sklearn.plotting.HorizonAUROCDisplay`.

The HEPA models here are tiny and train for a few epochs, and each setting
runs once: the numbers show how to compare, not which method wins. The
:doc:`../benchmarks` page has the comparison with full training budgets,
over several seeds and with significance tests.
"""

# %%
# Data: engines split before anything is fitted
# ----------------------------------------------
import numpy as np

from hepa_sklearn.datasets import load_cmapss

K = 60
data = load_cmapss("FD001", context_length=64, stride=4, min_history=32)
engines = np.random.default_rng(1).permutation(np.unique(data.groups))
train_engines, test_engines = engines[:70], engines[70:]
labelled_engines = train_engines[:5]

train = np.isin(data.groups, train_engines)
test = np.isin(data.groups, test_engines)
few = np.isin(data.groups, labelled_engines)
X_train, y_train = data.X[train], data.y[train]
X_test, y_test = data.X[test], data.y[test]
print(f"{train.sum()} training windows ({few.sum()} of them labelled in the scarce setting), {test.sum()} test windows")

# %%
# Pretrain once, without labels
# -----------------------------
# The event predictors then train on the frozen embeddings, which are
# computed once.
from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer

pretrainer = HEPAPretrainer(
    d_model=16, n_heads=2, n_layers=1, patch_size=8, K=32, norm="global", max_epochs=3, random_state=0
).fit(data.X[train])
E_all, E_test = pretrainer.transform(data.X), pretrainer.transform(X_test)

# %%
# Fit both models with all labels and with five labelled engines
# --------------------------------------------------------------
from hepa_sklearn import GradientBoostingEventPredictor, h_auroc


def hepa_head():
    return HEPAEventPredictor(K=K, hidden=16, lr=3e-3, max_epochs=10, random_state=0)


def boosting():
    return GradientBoostingEventPredictor(K=K, max_iter=50, random_state=0)


surfaces = {}
for setting, rows in [("all labels", train), ("5 labelled engines", few)]:
    surfaces[setting] = {
        "HEPA": hepa_head().fit(E_all[rows], data.y[rows]).predict_proba(E_test),
        "gradient boosting": boosting().fit(data.X[rows], data.y[rows]).predict_proba(X_test),
    }
    for name, proba in surfaces[setting].items():
        print(f"{setting:>20} | {name:<17} | h-AUROC on test engines {h_auroc(y_test, proba):.3f}")

# %%
# Horizon by horizon
# ------------------
# The h-AUROC is the mean of these curves. The dashed line (right axis) is
# the share of test windows whose engine fails within ``Δt`` cycles: short
# horizons have few positives, so their AUROC is the noisiest.
import matplotlib.pyplot as plt

from hepa_sklearn.plotting import HorizonAUROCDisplay

fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
for ax, (setting, proba) in zip(axes, surfaces.items(), strict=True):
    display = HorizonAUROCDisplay.from_predictions(y_test, proba, ax=ax)
    ax.set_title(setting)
    ax.set_ylim(0.5, 1.0)
    ax.set_xlabel("horizon Δt (cycles)")
fig.tight_layout()

# %%
# More than ranking
# -----------------
# :func:`~hepa_sklearn.metrics.surface_metrics` collects the other
# measures of a surface: pooled AUROC and AUPRC over all known cells,
# calibration (ECE, Brier score) and the error of the expected time to
# failure. That prediction stops at ``K = 60`` cycles, so the true remaining
# life is capped there too (``cap=K``).
import pandas as pd

from hepa_sklearn.metrics import surface_metrics

columns = ["h_auroc", "pooled_auroc", "pooled_auprc", "ece", "brier", "rul_rmse"]
table = pd.DataFrame(
    {
        (setting, name): {key: surface_metrics(y_test, proba, cap=K)[key] for key in columns}
        for setting, models in surfaces.items()
        for name, proba in models.items()
    }
).T
print(table.round(3).to_string())
