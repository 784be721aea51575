"""
How far from the ceiling? A fleet whose hazard is known
=======================================================

On real data no one knows how well the best possible model would do, so a
score of 0.85 may be close to the ceiling or far from it.
:func:`~hepa_sklearn.datasets.make_fleet` simulates run-to-failure units
whose hazard is known: each unit's hidden damage grows at a rate of its own,
the failure strikes at random with a hazard that grows with the damage, and
twelve sensors read the damage through different shapes, shifted by six
operating regimes and noise (four sensors carry nothing). Next to the
windows it returns ``oracle``, the exact probability of a failure within
``k`` steps given the hidden damage and rate: no model of the sensors can do
better on average, so its score is the ceiling. ``age_oracle`` is the same
probability given the unit's age alone, the floor a model of the sensors
should clear.

This example fits the headline line,
``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=50))``, on 60 units
of a fleet, scores it against both oracles on 30 held-out units, and plots
its surface beside the oracle's for one of them. The fleet is one draw and
the fit runs once: the numbers show how to measure the distance to the
ceiling, not what the method reaches on average (the benchmarks' simulated
rows run five fleets).
"""

# %%
# A fleet, split by unit
# ----------------------
import numpy as np

from hepa_sklearn.datasets import make_fleet

fleet = make_fleet(90, stride=4, random_state=0)
train = fleet.groups < 60
test = ~train
print(f"{train.sum()} training windows, {test.sum()} test windows, K = {fleet.oracle.shape[1]}")
print(fleet.sensors.T)

# %%
# The headline line
# -----------------
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer

K = fleet.oracle.shape[1]
pipe = make_pipeline(HEPAPretrainer(random_state=0), HEPAEventPredictor(K=K, random_state=0))
pipe.fit(fleet.X[train], fleet.y[train])
P = pipe.predict_proba(fleet.X[test])

# %%
# Between the floor and the ceiling
# ---------------------------------
# The share of the gap from the age-only oracle to the oracle that the
# model closes is the distance to the ceiling in one number. The oracle is
# the best forecast in expectation; on 30 units a model can match its
# ranking (h-AUROC) by chance, which is why the benchmarks average five
# fleets. The Brier score (lower is better) also weighs calibration.
from hepa_sklearn.metrics import brier_decomposition, h_auroc

y_test = fleet.y[test]
scores = {}
for name, surface in (("age oracle", fleet.age_oracle[test]), ("headline line", P), ("oracle", fleet.oracle[test])):
    scores[name] = h_auroc(y_test, surface)
    print(f"{name:>14}: h-AUROC {scores[name]:.3f}, Brier {brier_decomposition(y_test, surface)['brier']:.4f}")
share = (scores["headline line"] - scores["age oracle"]) / (scores["oracle"] - scores["age oracle"])
print(f"share of the gap from the age oracle to the oracle: {share:.2f}")

# %%
# One unit's surface beside the oracle's
# --------------------------------------
# Each panel is the probability of a failure within k steps (colour) at
# every window end of one held-out unit that ran to failure.
import matplotlib.pyplot as plt

observed = fleet.units.index[fleet.units["event"] & (fleet.units.index >= 60)]
unit = observed[0]
rows = fleet.groups[test] == unit
steps = fleet.index["step"].to_numpy()[test][rows]
failure = fleet.units.loc[unit, "failure_step"]
fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True, layout="constrained")
for ax, surface, title in ((axes[0], P[rows], "headline line"), (axes[1], fleet.oracle[test][rows], "oracle")):
    image = ax.imshow(
        surface.T,
        origin="lower",
        aspect="auto",
        vmin=0,
        vmax=1,
        cmap="viridis",
        extent=(steps[0], steps[-1], 0.5, K + 0.5),
    )
    ax.plot(steps, np.clip(failure - steps, 0, K), color="white", lw=1, ls="--", label="steps to the failure")
    ax.set(title=title, xlabel="step (window end)")
axes[0].set_ylabel("horizon k")
axes[1].legend(loc="upper right", fontsize="small")
fig.colorbar(image, ax=axes, label="P(failure within k steps)")
plt.show()
