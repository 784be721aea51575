"""
A distributed hyperparameter search with Dask
=============================================

The estimators are plain scikit-learn estimators, so
:class:`~sklearn.model_selection.GridSearchCV` searches them, and joblib's
Dask backend spreads its fits over the workers of a Dask cluster. Here the
cluster is a :class:`~dask.distributed.LocalCluster` of two worker processes
with one thread each; pointing the :class:`~dask.distributed.Client` at a
real cluster's scheduler instead is the only change for a search that does
not fit on one machine.

The search tunes the event predictor on top of a pretrainer fitted once:
wrapped in :class:`~sklearn.frozen.FrozenEstimator`, the pretrainer is
neither cloned empty nor refitted in each fold, so every fit of the search
trains the predictor only. Folds are made of whole engines
(:class:`~sklearn.model_selection.GroupKFold`), so no engine has windows on
both sides of a split.

Dask is an optional dependency: ``pip install 'hepa-sklearn[distributed]'``.
Without it, this example says so and runs the same search on joblib's
default backend.
"""

# %%
# Data and a pretrainer fitted once
# ---------------------------------
import numpy as np

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.datasets import load_cmapss

K = 60
data = load_cmapss("FD001", context_length=64, stride=8, min_history=32)
engines = np.random.default_rng(2).permutation(np.unique(data.groups))
dev = np.isin(data.groups, engines[:75])
test = ~dev
X_dev, y_dev, groups_dev = data.X[dev], data.y[dev], data.groups[dev]
print(f"{dev.sum()} development windows from 75 engines, {test.sum()} test windows from 25 engines")

pretrainer = HEPAPretrainer(
    d_model=16, n_heads=2, n_layers=1, patch_size=8, K=32, norm="global", max_epochs=3, random_state=0
).fit(X_dev)

# %%
# The search
# ----------
# Four settings of the predictor, three engine folds: twelve fits, then one
# refit of the best setting on all development engines.
from sklearn.frozen import FrozenEstimator
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline

from hepa_sklearn import h_auroc_scorer

search = GridSearchCV(
    make_pipeline(FrozenEstimator(pretrainer), HEPAEventPredictor(K=K, hidden=16, max_epochs=4, random_state=0)),
    param_grid={"hepaeventpredictor__hidden": [16, 32], "hepaeventpredictor__lr": [1e-3, 3e-3]},
    cv=GroupKFold(n_splits=3),
    scoring=h_auroc_scorer,
)

# %%
# On a Dask cluster
# -----------------
# Inside ``joblib.parallel_backend("dask")`` the search hands its fits to the
# client's workers (``n_jobs`` left at its default uses all of them). The
# workers start with ``OMP_NUM_THREADS=1`` (Dask's default for worker
# processes), so each fit runs on one torch thread.
import logging

import joblib

try:
    import dask
    from dask.distributed import Client, LocalCluster
except ImportError:
    LocalCluster = None

if LocalCluster is None:
    print(
        "dask.distributed is not installed, so this search runs on joblib's default "
        "backend in this process; install it with pip install 'hepa-sklearn[distributed]'."
    )
    search.fit(X_dev, y_dev, groups=groups_dev)
else:
    with (
        # a worker busy with a fit on a loaded machine can leave its connection
        # silent for longer than Dask's default of 30 s; this keeps it in the cluster
        dask.config.set({"distributed.comm.timeouts.tcp": "300s"}),
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster) as client,
    ):
        workers = client.scheduler_info()["workers"]
        print(f"Dask cluster: {len(workers)} workers, {sum(w['nthreads'] for w in workers.values())} threads in all")
        with joblib.parallel_backend("dask"):
            search.fit(X_dev, y_dev, groups=groups_dev)
print(f"search done: {len(search.cv_results_['params'])} settings x 3 folds, then one refit of the best setting")

# %%
# Results
# -------
import pandas as pd

results = pd.DataFrame(search.cv_results_)[
    [
        "param_hepaeventpredictor__hidden",
        "param_hepaeventpredictor__lr",
        "mean_test_score",
        "std_test_score",
        "rank_test_score",
    ]
]
print(results.to_string(index=False))
print("best:", search.best_params_)
print(f"h-AUROC of the refitted best pipeline on the 25 test engines: {search.score(data.X[test], data.y[test]):.3f}")

# %%
# The mean h-AUROC over the folds, setting by setting.
import matplotlib.pyplot as plt

scores = results.pivot(
    index="param_hepaeventpredictor__hidden", columns="param_hepaeventpredictor__lr", values="mean_test_score"
)
fig, ax = plt.subplots(figsize=(5, 4))
image = ax.imshow(scores.to_numpy(dtype=float), cmap="viridis")
ax.set_xticks(range(scores.shape[1]), [f"{lr:g}" for lr in scores.columns])
ax.set_yticks(range(scores.shape[0]), [str(h) for h in scores.index])
ax.set_xlabel("lr")
ax.set_ylabel("hidden")
for (i, j), value in np.ndenumerate(scores.to_numpy(dtype=float)):
    ax.text(j, i, f"{value:.3f}", ha="center", va="center", color="white")
fig.colorbar(image, ax=ax, label="mean h-AUROC over 3 engine folds")
ax.set_title("grid search on a Dask cluster")
plt.show()
