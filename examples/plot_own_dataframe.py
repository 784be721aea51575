"""
From your own long DataFrame to an event surface
================================================

A fleet of pumps logs three sensors every hour and, now and then, a failure;
after each failure the pump is repaired and runs on. This example starts
from such a log in long format (one row per pump and hour), as it would come
out of a database, and goes all the way to the probability surface
``p(t, Δt)``: the probability that a pump fails within ``Δt`` hours of hour
``t``, for every ``Δt = 1..K``.

The steps are the ones for any data set:

1. :func:`~hepa_sklearn.windows.make_windows` cuts each pump's history into windows
   and labels each window with the hours to the next failure;
2. a pipeline of :class:`~hepa_sklearn.HEPAPretrainer` and
   :class:`~hepa_sklearn.HEPAEventPredictor` learns from the windows of some
   pumps;
3. ``predict_proba`` gives the surface of the pumps held out, which
   :func:`~hepa_sklearn.h_auroc` scores and
   :class:`~hepa_sklearn.plotting.EventSurfaceDisplay` draws.

The models are tiny and train for a few epochs so that the example runs in
seconds; real data deserve wider models and more epochs.
"""

# %%
# A long DataFrame
# ----------------
# Each pump wears by a random amount every hour and fails when its wear
# reaches 1; a repair resets the wear. Vibration grows with the square of
# the wear and temperature grows linearly on top of a daily cycle, while the
# pressure hardly depends on it. The vibration sensor drops out now and then:
# those readings are NaN, and they stay NaN in the windows (the encoder
# treats them as missing).
import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
rows = []
for pump in range(16):
    wear_rate = rng.uniform(0.006, 0.012)  # mean wear per hour: a failure every 80-170 hours
    wear = 0.0
    for hour in range(int(rng.integers(450, 650))):
        wear += rng.gamma(2.0, wear_rate / 2.0)
        failure = wear >= 1.0
        rows.append(
            {
                "pump": f"P{pump:02d}",
                "hour": hour,
                "vibration": 1.0 + 3.0 * wear**2 + rng.normal(0.0, 0.15),
                "temperature": 60.0 + 6.0 * wear + 2.0 * np.sin(2 * np.pi * hour / 24) + rng.normal(0.0, 0.5),
                "pressure": 3.0 - 0.1 * wear + rng.normal(0.0, 0.05),
                "failure": failure,
            }
        )
        if failure:
            wear = 0.0
log = pd.DataFrame(rows)
log.loc[rng.random(len(log)) < 0.02, "vibration"] = np.nan
print(log.head())
print(f"{len(log)} rows, {log['pump'].nunique()} pumps, {int(log['failure'].sum())} failures")

# %%
# Windows and labels
# ------------------
# Each window holds the 64 hours up to its end ``t``; a window with less
# history is padded with NaN on the left. Its label ``y`` is the number of
# hours from ``t`` to the next failure (``event=True``) or, after a pump's
# last failure, to the end of its log (``event=False``: censored, the pump
# is only known to have survived that long). ``groups`` is the pump of each
# window. Twelve pumps train the models, with a window every 4 hours; the
# other four are scored at every hour.
from hepa_sklearn.windows import make_windows

features = ["vibration", "temperature", "pressure"]
pumps = log["pump"].unique()
train_log = log[log["pump"].isin(pumps[:12])]
test_log = log[log["pump"].isin(pumps[12:])]

window = dict(
    feature_cols=features, event_col="failure", unit_col="pump", time_col="hour", context_length=64, min_history=16
)
X_train, y_train, groups_train = make_windows(train_log, stride=4, **window)
X_test, y_test, groups_test = make_windows(test_log, stride=1, **window)
print("X_train", X_train.shape, "X_test", X_test.shape)
print("first labels:", y_train[:3])

# %%
# Pretrain, finetune, predict
# ---------------------------
# The pretrainer learns from the windows alone (it ignores ``y``); the event
# predictor then learns the surface for horizons 1..48 hours on top of the
# frozen embeddings; it is cheap to train, so it gets more epochs. ``norm="global"`` keeps the absolute sensor levels,
# which carry the wear.
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc

K = 48
pipe = make_pipeline(
    HEPAPretrainer(d_model=16, n_heads=2, n_layers=1, patch_size=8, K=32, norm="global", max_epochs=3, random_state=0),
    HEPAEventPredictor(K=K, hidden=16, lr=3e-3, max_epochs=10, random_state=0),
)
pipe.fit(X_train, y_train)
surface = pipe.predict_proba(X_test)
print("surface", surface.shape, "rows non-decreasing:", bool(np.all(np.diff(surface, axis=1) >= 0)))
print(f"h-AUROC on the held-out pumps: {h_auroc(y_test, surface):.3f}")

# %%
# The surface of one pump
# -----------------------
# Time runs left to right, the horizon ``Δt`` bottom to top; the colour is
# ``p(t, Δt)``. Failures are where the bright region reaches the bottom of
# the plot. With ``stride=1`` the windows of a pump end at each of its hours
# from ``min_history - 1`` on, which gives every window its time.
import matplotlib.pyplot as plt

from hepa_sklearn.plotting import EventSurfaceDisplay

window_end = np.concatenate(
    [part["hour"].to_numpy()[window["min_history"] - 1 :] for _, part in test_log.groupby("pump", sort=False)]
)
pump = pumps[12]
display = EventSurfaceDisplay.from_predictions(
    y_test, surface, groups=groups_test, unit=pump, times=window_end, name=f"pump {pump}: P(failure within Δt hours)"
)
display.ax_.set_xlabel("hour")
display.ax_.set_ylabel("horizon Δt (hours)")
plt.show()
