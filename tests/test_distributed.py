"""A grid search spread over a Dask cluster through joblib's Dask backend gives the sequential search's results."""

import numpy as np
import pytest

from hepa_sklearn import HEPAEventPredictor, h_auroc_scorer
from hepa_sklearn.surface import make_survival_y

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")


def search_data():
    rng = np.random.default_rng(0)
    time = rng.integers(1, 30, 160)
    E = (np.log(time)[:, None] + 0.3 * rng.normal(size=(160, 6))).astype("float32")
    return E, make_survival_y(np.ones(160, bool), time), np.repeat(np.arange(8), 20)


def grid_search():
    from sklearn.model_selection import GridSearchCV, GroupKFold

    return GridSearchCV(
        HEPAEventPredictor(K=20, hidden=8, max_epochs=2, early_stopping=False, random_state=0, device="cpu"),
        {"lr": [1e-3, 1e-2], "hidden": [8, 16]},
        cv=GroupKFold(2),
        scoring=h_auroc_scorer,
        n_jobs=2,
    )


def test_grid_search_on_a_two_worker_local_cluster_matches_the_sequential_search():
    import joblib

    E, y, groups = search_data()
    sequential = grid_search().set_params(n_jobs=1).fit(E, y, groups=groups)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        with joblib.parallel_backend("dask"), distributed.get_task_stream(client) as stream:
            spread = grid_search().fit(E, y, groups=groups)
        workers = client.run(lambda: __import__("os").getpid())
    assert len(workers) == 2
    # the 8 fits (4 settings x 2 folds) ran as tasks on the cluster's workers
    assert len({task["worker"] for task in stream.data}) >= 1 and len(stream.data) >= 4
    np.testing.assert_allclose(
        spread.cv_results_["mean_test_score"], sequential.cv_results_["mean_test_score"], rtol=0, atol=1e-12
    )
    assert spread.best_params_ == sequential.best_params_
    np.testing.assert_allclose(spread.predict_proba(E), sequential.predict_proba(E), atol=1e-12)
