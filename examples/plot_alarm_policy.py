"""
From a surface to a maintenance alarm policy
============================================

A surface ``p(t, Δt)`` says how likely a failure is within ``Δt`` cycles of
cycle ``t``. A maintenance team needs a yes/no decision instead: *take this
engine out of service now?* This example turns the surface into that
decision on the C-MAPSS FD001 turbofan engines (shipped with the package):

- the team needs the alarm at least ``LEAD = 10`` cycles before a failure to
  act on it, and would rather not pull an engine that has more than
  ``HORIZON = 30`` cycles left;
- so the policy watches one column of the surface, ``p(t, 30)``, and raises
  the alarm at the first cycle where it reaches a threshold ``τ``;
- a low ``τ`` pulls engines early (premature alarms, useful life thrown
  away), a high ``τ`` misses failures. The threshold is chosen on
  calibration engines and then checked on test engines that played no part
  in any choice.

The models are tiny and train for a few epochs so that the example runs in
seconds; the figures show the method, not its best scores.
"""

# %%
# Engines for training, calibration and test
# -------------------------------------------
# Every engine of the FD001 training set runs until it fails, so the label
# of each window is its remaining useful life (RUL). Sixty engines train the
# models (a window every 4 cycles), ten calibrate the surface and choose the
# threshold, thirty test the policy (a window at every cycle, as the policy
# would see them).
import numpy as np

from hepa_sklearn.datasets import load_cmapss

K = 60  # horizons 1..60 cycles
HORIZON = 30  # the column of the surface the policy watches
LEAD = 10  # cycles the team needs between alarm and failure

train = load_cmapss("FD001", context_length=64, stride=4, min_history=32)
scored = load_cmapss("FD001", context_length=64, stride=1, min_history=32)
engines = np.random.default_rng(0).permutation(np.unique(train.groups))
fit_engines, calibration_engines, test_engines = engines[:60], engines[60:70], engines[70:]


def windows_of(data, chosen):
    keep = np.isin(data.groups, chosen)
    return data.X[keep], data.y[keep], data.groups[keep]


X_fit, y_fit, _ = windows_of(train, fit_engines)
X_cal, y_cal, groups_cal = windows_of(scored, calibration_engines)
X_test, y_test, groups_test = windows_of(scored, test_engines)
print(f"{len(X_fit)} training, {len(X_cal)} calibration and {len(X_test)} test windows")

# %%
# The surface
# -----------
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, SurfaceCalibrator, h_auroc

pipe = make_pipeline(
    HEPAPretrainer(d_model=16, n_heads=2, n_layers=1, patch_size=8, K=32, norm="global", max_epochs=3, random_state=0),
    HEPAEventPredictor(K=K, hidden=16, lr=3e-3, max_epochs=10, random_state=0),
).fit(X_fit, y_fit)
P_cal = pipe.predict_proba(X_cal)
P_test = pipe.predict_proba(X_test)
print(f"h-AUROC on the test engines: {h_auroc(y_test, P_test):.3f}")

# %%
# How well does ``p(t, 30)`` rank, and can it be read as a probability?
# ---------------------------------------------------------------------
# The per-horizon AUROC tells whether the watched column separates engines
# that fail within 30 cycles from the others. A threshold on a probability
# is only meaningful if the probability is calibrated: the event predictor
# up-weights the rare positive cells in training (``pos_weight="auto"``),
# which inflates its probabilities. :class:`~hepa_sklearn.SurfaceCalibrator`
# learns one non-decreasing map on the calibration engines; the reliability
# diagrams of the test engines show the column before and after.
import matplotlib.pyplot as plt

from hepa_sklearn.plotting import HorizonAUROCDisplay, SurfaceReliabilityDisplay

auroc = HorizonAUROCDisplay.from_predictions(y_test, {"HEPA": P_test})
auroc.ax_.axvline(HORIZON, color="grey", linestyle=":")

calibrator = SurfaceCalibrator(method="isotonic").fit(P_cal, y_cal)
Q_cal = calibrator.predict_proba(P_cal)
Q_test = calibrator.predict_proba(P_test)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.5))
SurfaceReliabilityDisplay.from_predictions(y_test, P_test, horizons=[HORIZON], ax=left, name="as predicted")
SurfaceReliabilityDisplay.from_predictions(y_test, Q_test, horizons=[HORIZON], ax=right, name="calibrated")
fig.tight_layout()

# %%
# False alarms against missed events, window by window
# ----------------------------------------------------
# At the level of single windows the trade-off is the ROC curve of the
# column: a window whose engine fails within 30 cycles and stays below ``τ``
# is a missed event; a window with more than 30 cycles left and above ``τ``
# is a false alarm. :func:`~hepa_sklearn.surface.label_surface` gives the label of
# every (window, horizon) cell.
from hepa_sklearn.surface import label_surface

thresholds = np.linspace(0.0, 1.0, 101)


def window_rates(p, y):
    labels, known = label_surface(y, K)
    positive = known[:, HORIZON - 1] & (labels[:, HORIZON - 1] == 1)
    negative = known[:, HORIZON - 1] & (labels[:, HORIZON - 1] == 0)
    column = p[:, HORIZON - 1]
    false_alarm = np.array([np.mean(column[negative] >= t) for t in thresholds])
    missed = np.array([np.mean(column[positive] < t) for t in thresholds])
    return false_alarm, missed


false_alarm, missed = window_rates(Q_test, y_test)
fig, ax = plt.subplots(figsize=(5, 4.5))
ax.plot(false_alarm, missed, marker=".")
ax.set_xlabel("false alarm rate (windows with > 30 cycles left)")
ax.set_ylabel("missed event rate (windows failing within 30 cycles)")
ax.set_title("test engines, calibrated p(t, 30)")
plt.show()

# %%
# The policy, engine by engine
# ----------------------------
# What the team pays for is the first alarm of each engine. With the RUL
# ``r`` at that alarm, the engine is a *missed failure* when ``r < LEAD``
# (or no alarm comes), a *premature alarm* when ``r > HORIZON``, and a
# timely one otherwise. The threshold is the one with the fewest missed
# failures plus premature alarms on the calibration engines (a missed
# failure weighs as much as a premature alarm here; a real team would put
# its own costs in). Ten engines make a coarse choice: each step of the
# curves below is one engine.


def first_alarm_rul(p, y, groups, threshold):
    """RUL of each engine when ``p(t, HORIZON)`` first reaches ``threshold`` (NaN: never)."""
    rul = []
    for engine in np.unique(groups):
        rows = np.flatnonzero(groups == engine)  # oldest window first
        alarms = rows[p[rows, HORIZON - 1] >= threshold]
        rul.append(y["time"][alarms[0]] if alarms.size else np.nan)
    return np.array(rul)


def outcomes(p, y, groups):
    rows = []
    for threshold in thresholds:
        rul = first_alarm_rul(p, y, groups, threshold)
        missed_failures = int(np.sum(~(rul >= LEAD)))  # NaN (no alarm) counts as missed
        premature = int(np.sum(rul > HORIZON))
        median_rul = np.nanmedian(rul) if np.isfinite(rul).any() else np.nan
        rows.append((threshold, missed_failures, premature, median_rul))
    return np.array(rows)


calibration_outcomes = outcomes(Q_cal, y_cal, groups_cal)
best = np.argmin(calibration_outcomes[:, 1] + calibration_outcomes[:, 2])
tau = thresholds[best]

fig, ax = plt.subplots(figsize=(6, 4.5))
ax.plot(thresholds, calibration_outcomes[:, 1], label="missed failures")
ax.plot(thresholds, calibration_outcomes[:, 2], label="premature alarms")
ax.axvline(tau, color="grey", linestyle=":", label=f"chosen τ = {tau:.2f}")
ax.set_xlabel("threshold τ on calibrated p(t, 30)")
ax.set_ylabel(f"engines (of {len(calibration_engines)} calibration engines)")
ax.legend()

test_outcomes = outcomes(Q_test, y_test, groups_test)
_, missed_failures, premature, median_rul = test_outcomes[best]
print(f"threshold chosen on the calibration engines: τ = {tau:.2f}")
print(
    f"on the {len(test_engines)} test engines: {int(missed_failures)} missed failures, "
    f"{int(premature)} premature alarms, {len(test_engines) - int(missed_failures) - int(premature)} "
    f"timely alarms; median RUL at the alarm {median_rul:.0f} cycles"
)

# %%
# One test engine
# ---------------
# The calibrated surface of one test engine, the watched horizon (dotted)
# and the cycle at which the policy raises its alarm (solid black).
from hepa_sklearn.plotting import EventSurfaceDisplay

engine = test_engines[0]
rows = groups_test == engine
end_cycle = scored.frame.groupby("unit")["cycle"].max().loc[groups_test].to_numpy() - y_test["time"]
display = EventSurfaceDisplay.from_predictions(
    y_test,
    Q_test,
    groups=groups_test,
    unit=engine,
    times=end_cycle,
    name=f"engine {engine}: calibrated P(failure within Δt)",
)
display.ax_.axhline(HORIZON, color="white", linestyle=":")
display.ax_.set_xlabel("cycle")
display.ax_.set_ylabel("horizon Δt (cycles)")
alarm_rows = np.flatnonzero(rows & (Q_test[:, HORIZON - 1] >= tau))
if alarm_rows.size:
    display.ax_.axvline(end_cycle[alarm_rows[0]], color="black", linewidth=2)
    print(
        f"engine {engine}: alarm at cycle {end_cycle[alarm_rows[0]]:.0f}, "
        f"{y_test['time'][alarm_rows[0]]:.0f} cycles before its failure"
    )
else:
    print(f"engine {engine}: no alarm")
