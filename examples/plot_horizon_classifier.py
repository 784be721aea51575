"""
A drop-in for a binary maintenance pipeline, with alarms tuned by cost
======================================================================

Most maintenance pipelines ask one binary question: *will this engine fail
within H cycles?* A random forest on summary features answers it with
``predict_proba(X)[:, 1]``, scored with ``roc_auc`` on folds of whole
engines. :class:`~hepa_sklearn.HorizonClassifier` makes a surface
estimator answer the same question from the surface's column ``H``, so it
takes the forest's place in that code unchanged. Then the alarm threshold
is tuned with ``TunedThresholdClassifierCV`` for the usual trade-off: the
cost of a missed failure against the cost of a false alarm, or a budget of
alarms.

The models are tiny and train for a few epochs so that the example runs
while the documentation builds; the scores show the method, not its best.
"""

# %%
# Windows and the binary label at H = 30
# --------------------------------------
# :func:`~hepa_sklearn.classifier.label_at_horizon` turns ``(event, time)`` into the
# label "failure within 30 cycles". A window censored before 30 cycles has
# no such label; it is dropped, as the per-horizon AUROC leaves it out.
# Seventy engines are for development (cross-validation and tuning), thirty
# for the final check.
import numpy as np

from hepa_sklearn.classifier import label_at_horizon
from hepa_sklearn.datasets import load_cmapss

H = 30
data = load_cmapss("FD001", context_length=64, stride=4, min_history=32)
labels, known = label_at_horizon(data.y, H)
X, y, groups, y_full = data.X[known], labels[known], data.groups[known], data.y[known]
engines = np.random.default_rng(0).permutation(np.unique(groups))
dev = np.isin(groups, engines[:70])
test = ~dev
print(f"{dev.sum()} development windows, {test.sum()} test windows; {y.mean():.1%} fail within {H} cycles")

# %%
# The pipeline as it is: a random forest on summary features
# ----------------------------------------------------------
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GroupKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from hepa_sklearn.baselines import summary_features

forest = make_pipeline(FunctionTransformer(summary_features), RandomForestClassifier(n_estimators=100, random_state=0))
scores = cross_val_score(forest, X[dev], y[dev], groups=groups[dev], cv=GroupKFold(3), scoring="roc_auc")
print(f"random forest: ROC AUC {scores.mean():.3f} over 3 folds of engines")

# %%
# The swap: a surface estimator seen at H
# ---------------------------------------
# The same ``cross_val_score`` line with ``HorizonClassifier`` in the
# forest's place. The pretrainer learns from windows alone; here it is
# pretrained once on the development engines and frozen, so the folds only
# train the event predictor (no label reaches the pretrainer).
from sklearn.frozen import FrozenEstimator

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, HorizonClassifier

pretrainer = HEPAPretrainer(
    d_model=16, n_heads=2, n_layers=1, patch_size=8, K=32, norm="global", max_epochs=3, random_state=0
).fit(X[dev])
surface = make_pipeline(FrozenEstimator(pretrainer), HEPAEventPredictor(K=60, hidden=32, max_epochs=20, random_state=0))
hepa = HorizonClassifier(surface, horizon=H)
scores = cross_val_score(hepa, X[dev], y[dev], groups=groups[dev], cv=GroupKFold(3), scoring="roc_auc")
print(f"HEPA at H={H}, binary labels: ROC AUC {scores.mean():.3f}")

# %%
# The full labels, through metadata routing
# -----------------------------------------
# A binary label says little about the other horizons: a failure within 30
# cycles fixes nothing about the first 29. The full ``(event, time)``
# labels say when each failure came; passed as ``survival_y`` through
# scikit-learn's metadata routing, they reach every fold's fit, split with
# its windows.
import sklearn

sklearn.set_config(enable_metadata_routing=True)
hepa_full = HorizonClassifier(surface, horizon=H).set_fit_request(survival_y=True)
scores = cross_val_score(
    hepa_full,
    X[dev],
    y[dev],
    cv=GroupKFold(3),
    scoring="roc_auc",
    params={"groups": groups[dev], "survival_y": y_full[dev]},
)
print(f"HEPA at H={H}, full labels: ROC AUC {scores.mean():.3f}")

# %%
# Alarms tuned by cost
# --------------------
# Say a missed failure costs ten times a false alarm. The scorer from
# :func:`~hepa_sklearn.metrics.make_alarm_cost_scorer` is the mean cost per
# window, and ``TunedThresholdClassifierCV`` picks the threshold of least
# cost on folds of whole engines, then refits on all development engines.
from sklearn.model_selection import TunedThresholdClassifierCV

from hepa_sklearn.metrics import make_alarm_budget_scorer, make_alarm_cost_scorer

by_cost = TunedThresholdClassifierCV(
    hepa_full,
    scoring=make_alarm_cost_scorer(missed_failure_cost=10, false_alarm_cost=1),
    cv=GroupKFold(3),
    thresholds=100,
    store_cv_results=True,
).fit(X[dev], y[dev], groups=groups[dev], survival_y=y_full[dev])
print(f"least-cost threshold: {by_cost.best_threshold_:.3f}")

# %%
# Or a budget: at most three alarms per engine every 100 cycles. The
# windows are 4 cycles apart, so each stands for 4 cycles of its engine,
# and every window that alarms counts (an engine near failure alarms at
# each of its windows). The scorer from
# :func:`~hepa_sklearn.metrics.make_alarm_budget_scorer` is the share of
# failure windows caught while the alarms keep to the budget.
by_budget = TunedThresholdClassifierCV(
    hepa_full,
    scoring=make_alarm_budget_scorer(alarms=3, per_steps=100, steps_per_window=4),
    cv=GroupKFold(3),
    thresholds=100,
).fit(X[dev], y[dev], groups=groups[dev], survival_y=y_full[dev])
print(f"threshold within the budget: {by_budget.best_threshold_:.3f}")

# %%
# Both on the test engines, with scikit-learn's reports
# -----------------------------------------------------
from sklearn.metrics import classification_report

from hepa_sklearn.metrics import alarm_cost

for name, tuned in [("least cost", by_cost), ("alarm budget", by_budget)]:
    alarms = tuned.predict(X[test])
    cost = alarm_cost(y[test], alarms, missed_failure_cost=10, false_alarm_cost=1)
    rate = alarms.mean() * 100 / 4
    print(f"{name}: cost per window {cost:.3f}, {rate:.2f} alarms per engine per 100 cycles")
    print(classification_report(y[test], alarms, target_names=["no failure", f"failure within {H}"]))

# %%
# The cost against the threshold on the development folds, and the
# precision-recall curve on the test engines:
import matplotlib.pyplot as plt
from sklearn.metrics import PrecisionRecallDisplay

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.plot(by_cost.cv_results_["thresholds"], -by_cost.cv_results_["scores"])
left.axvline(by_cost.best_threshold_, color="black", linestyle=":", label="least cost")
left.set(xlabel=f"threshold on p(t, {H})", ylabel="cost per window (miss = 10, false alarm = 1)")
left.legend()
PrecisionRecallDisplay.from_estimator(by_cost.estimator_, X[test], y[test], ax=right, name=f"HEPA at H={H}")
fig.tight_layout()
sklearn.set_config(enable_metadata_routing=False)

# %%
# The threshold helpers that came before
# --------------------------------------
# :func:`~hepa_sklearn.metrics.false_alarm_threshold` (the lowest threshold
# at which at most a given share of event-free windows alarm) and
# :func:`~hepa_sklearn.metrics.best_f1_threshold` (the threshold of best F1)
# pick a threshold on one validation set for a fixed criterion, from a
# surface column and ``(event, time)`` labels. They stay for those
# criteria; a trade-off in costs or an alarm budget, cross-validated on
# engines, is the job of ``TunedThresholdClassifierCV`` as above.
