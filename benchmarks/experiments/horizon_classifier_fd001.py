"""HorizonClassifier at H = 30 on C-MAPSS FD001: the binary-label fit and the full-label fit beside the plain surface.

Three fits of the headline pipeline ``make_pipeline(HEPAPretrainer(),
HEPAEventPredictor(K=150))`` with ``random_state=0`` on ``load_cmapss("FD001")``
(every training engine), each scored on NASA's test engines
(``load_cmapss("FD001", split="test", stride=4)``) at the horizon H = 30:

- the plain surface estimator, fitted on ``(event, time)``: its per-horizon
  AUROC at 30;
- ``HorizonClassifier(pipe, horizon=30)`` fitted on the binary labels at 30
  alone: ROC AUC of ``predict_proba(X)[:, 1]``;
- the same classifier given the full labels as ``survival_y`` (the metadata
  that scikit-learn's routing passes): ROC AUC.

Test windows censored before 30 (unknown label) are left out of every
score, as ``per_horizon_auroc`` leaves them out. One torch thread; CPU
seconds per fit from ``time.process_time``::

    OMP_NUM_THREADS=1 python benchmarks/experiments/horizon_classifier_fd001.py
"""

import time

import torch
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, HorizonClassifier, label_at_horizon, per_horizon_auroc
from hepa_sklearn.datasets import load_cmapss

HORIZON = 30
SEED = 0


def headline():
    return make_pipeline(HEPAPretrainer(random_state=SEED), HEPAEventPredictor(K=150, random_state=SEED))


def timed(fit):
    start = time.process_time()
    fitted = fit()
    return fitted, time.process_time() - start


def main():
    torch.set_num_threads(1)
    train, test = load_cmapss("FD001"), load_cmapss("FD001", split="test", stride=4)
    labels, known = label_at_horizon(train.y, HORIZON)
    test_labels, test_known = label_at_horizon(test.y, HORIZON)
    print(
        f"train: {train.X.shape[0]} windows, {int(known.sum())} with a known label at {HORIZON} "
        f"({labels[known].mean():.3f} positive); test: {test.X.shape[0]} windows, {int(test_known.sum())} known "
        f"({test_labels[test_known].mean():.3f} positive)"
    )

    plain, seconds = timed(lambda: headline().fit(train.X, train.y))
    auroc = per_horizon_auroc(test.y, plain.predict_proba(test.X), horizons=[HORIZON])[0]
    print(
        f"plain surface estimator, (event, time) labels: per-horizon AUROC at {HORIZON} = {auroc:.4f} "
        f"({seconds:.0f} CPU s)"
    )

    X_known, y_known = train.X[known], labels[known]
    fits = [("binary labels at 30", {}), ("full labels as survival_y", {"survival_y": train.y[known]})]
    for name, fit_params in fits:
        clf, seconds = timed(
            lambda fit_params=fit_params: HorizonClassifier(headline(), horizon=HORIZON).fit(
                X_known, y_known, **fit_params
            )
        )
        score = clf.predict_proba(test.X[test_known])[:, 1]
        surface_auroc = per_horizon_auroc(test.y, clf.estimator_.predict_proba(test.X), horizons=[HORIZON])[0]
        print(
            f"HorizonClassifier, {name}: ROC AUC at {HORIZON} = {roc_auc_score(test_labels[test_known], score):.4f} "
            f"(its surface's per-horizon AUROC {surface_auroc:.4f}; {seconds:.0f} CPU s)"
        )


if __name__ == "__main__":
    main()
