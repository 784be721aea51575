"""BATADAL: why the headline line ranks below chance on the test part, measured on the harness's own windows.

The summary's BATADAL row gives the headline line (``hepa-default-auto0-knots12``:
``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=200))`` with the current defaults) a test h-AUROC
of 0.233 over five seeds. This script reads the windows as the harness does
(``BENCHMARKS["BATADAL"].load(seed)``: the fixed 60/10/30 split of dataset04, every label) and prints:

1. the split and the labels: rows, labelled onsets, windows and positive windows per part; every window's
   ``(event, time)`` recomputed from the csv's ``ATT_FLAG`` and from the 60/10/30 cuts with their 48-hour
   gaps, and compared with the harness's; the attack periods published with the competition (Taormina et
   al. 2018) against ``ATT_FLAG``; the constant and binary channels; the windows' visible age, all that the
   two reference scores (``elapsed``, ``position``) read;
2. the headline cell through the harness's method table (seed 0): h-AUROC on the training, validation and
   test windows, per horizon on the test windows, and whether operating regimes were found;
3. controls on the same windows: the pipeline without the window level, the same event head fitted on
   each block of the pretrainer's output alone, both pipelines on seeds 0-4, boosting (``gbm``) and the
   reference scores;
4. why: the univariate AUROC at Δt = 200 of each window-level column on each part; how slowly the
   whole-window means move; the share of training positives among the 10 training windows nearest to each
   validation and test window, in each block's space; the headline's mean risk at Δt = 200 over the
   stretches of the test part, and where each stretch's nearest training windows lie in time;
5. the labels: both pipelines refitted and scored with the events at the onsets of the published attack
   periods instead of ``ATT_FLAG``'s.

With ``HEPA_DATA_HOME`` naming the folder that holds ``BATADAL/`` (about 2 CPU minutes)::

    OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 python benchmarks/experiments/batadal_diagnosis/batadal_diagnosis.py
"""

import dataclasses
import os
import time

import numpy as np
import pandas as pd
import torch
from hepa_bench.methods.table import METHODS
from hepa_bench.registry import BENCHMARKS
from sklearn.base import clone
from sklearn.metrics import roc_auc_score

from hepa_sklearn.baselines import window_age
from hepa_sklearn.datasets import get_data_home, load_batadal
from hepa_sklearn.metrics import h_auroc, per_horizon_auroc
from hepa_sklearn.surface import label_surface, make_survival_y

HEADLINE = "hepa-default-auto0-knots12"
EVENT_FILE = "BATADAL_dataset04.csv.gz"  # dataset04 in the data home, as the loader reads it
PARTS = ("train", "valid", "test")
SEEDS = (0, 1, 2, 3, 4)
NEIGHBOURS = 10
# The attacks of dataset04 as published with the competition (first and last hour of each, day/month/year).
PUBLISHED_ATTACKS = (
    ("13/09/2016 23", "16/09/2016 00"),
    ("26/09/2016 11", "27/09/2016 10"),
    ("09/10/2016 09", "11/10/2016 20"),
    ("29/10/2016 19", "02/11/2016 16"),
    ("26/11/2016 17", "29/11/2016 04"),
    ("06/12/2016 07", "10/12/2016 04"),
    ("14/12/2016 15", "19/12/2016 04"),
)


def section(title):
    print(f"\n== {title}")


def raw_rows():
    """dataset04 read from its csv alone: ``(dates, attack flag)``, one row per hour."""
    raw = pd.read_csv(os.path.join(get_data_home(), "BATADAL", EVENT_FILE))
    raw.columns = raw.columns.str.strip()
    return pd.to_datetime(raw["DATETIME"], format="%d/%m/%y %H"), raw["ATT_FLAG"].to_numpy() == 1


def published_rows(dates):
    """``[(first row, last row)]`` of each published attack period."""
    return [
        tuple(int(np.flatnonzero(dates == pd.to_datetime(t, format="%d/%m/%Y %H"))[0]) for t in period)
        for period in PUBLISHED_ATTACKS
    ]


def onsets_of(flag):
    """Rows where a run of True starts (a run under way at row 0 is not one)."""
    return [int(i) + 1 for i in np.flatnonzero(flag[1:] & ~flag[:-1])]


def part_bounds(n_rows, cuts=(60, 70), gap=48):
    """``{part: (start, stop)}`` of the chronological split, computed from its rule alone."""
    first, second = (n_rows * c // 100 for c in cuts)
    return {"train": (0, first), "valid": (first + gap, second), "test": (second + gap, n_rows)}


def window_labels(start, stop, onsets, stride, min_history):
    """``(ends, y)`` of the windows ending in rows ``start..stop-1``: the next onset inside the part, else
    censored at the part's last row."""
    ends = np.arange(stop - 1, max(start, min_history - 1) - 1, -stride)[::-1]
    events, times = [], []
    for end in ends:
        later = [o for o in onsets if end < o < stop]
        events.append(bool(later))
        times.append(later[0] - end if later else stop - 1 - end)
    return ends, make_survival_y(events, times)


def positives(y, K):
    """Windows whose event comes within ``K`` steps (the cell Δt = K)."""
    labels, known = label_surface(y, K)
    return labels[:, -1].astype(bool), known[:, -1]


def scores(predict, data):
    """h-AUROC of ``predict`` on the training, validation and test windows of ``data``."""
    return [h_auroc(getattr(data, f"y_{p}"), predict(getattr(data, f"X_{p}"))) for p in PARTS]


def show(label, values, cpu=None):
    text = "  ".join(f"{p} {v:.3f}" for p, v in zip(PARTS, values, strict=True))
    print(f"  {label:<50} {text}" + ("" if cpu is None else f"  ({cpu:.1f} CPU s)"))


def fit_surface(name, entry, data, seed, **params):
    """The harness's cell: the method's surface fitted on every training window, and its CPU seconds."""
    method = METHODS[name]
    cpu = time.process_time()
    model, _ = method.surface(
        entry,
        data,
        np.ones(len(data.X_train), dtype=bool),
        epochs=entry.finetune_epochs,
        device="cpu",
        seed=seed,
        encoder=None,
        **{**method.finetune, **params},
    )
    return model, time.process_time() - cpu


def split_and_labels(entry, data, bunch, dates, flag):
    section("1. split, labels, channels")
    flag_onsets = onsets_of(flag)
    table = bunch.splits.set_index(["unit", "split"])
    bounds = part_bounds(len(flag))
    for part in PARTS:
        start, stop = bounds[part]
        row = table.loc[("dataset04", part)]
        same_split = (int(row["start"]), int(row["stop"])) == (start, stop)
        stride = entry.eval_stride if part == "test" else entry.finetune_stride
        ends, y = window_labels(start, stop, flag_onsets, stride, entry.min_history)
        harness = getattr(data, f"y_{part}")
        same = np.array_equal(y["event"], harness["event"]) and np.array_equal(y["time"], harness["time"])
        pos, known = positives(harness, entry.K)
        inside = [o for o in flag_onsets if start <= o < stop]
        print(
            f"  {part:5}: rows {start}-{stop - 1} ({dates[start]:%d %b} to {dates[stop - 1]:%d %b}), "
            f"split as the rule: {same_split}; labelled onsets {inside}; {len(ends)} windows"
        )
        print(
            f"         {pos.sum()} with the onset within {entry.K} h, {(~known).sum()} censored before "
            f"{entry.K} h; (event, time) recomputed from the csv equal the harness's: {same}"
        )
    print(f"  ATT_FLAG: {flag.sum()} attack hours in {len(flag_onsets)} runs; the published attack periods:")
    periods = zip(PUBLISHED_ATTACKS, published_rows(dates), strict=True)
    for number, ((first, last), (a, b)) in enumerate(periods, 1):
        part = next((p for p, (s, e) in bounds.items() if s <= a < e), "gap")
        labelled = np.flatnonzero(flag[a : b + 1])
        onset = f"first labelled hour {labelled[0]} h after its start" if labelled.size else "never labelled"
        print(
            f"    attack {number}: rows {a}-{b} ({first} to {last}, {b - a + 1} h) in {part}: "
            f"{labelled.size} h labelled, {onset}"
        )
    features = bunch.feature_names
    values = bunch.frame[features]
    constant = [c for c in features if values[c].nunique() == 1]
    binary = [c for c in features if values[c].nunique() == 2]
    index = [features.index(c) for c in constant]
    largest = max(float(np.abs(getattr(data, f"X_{p}")[:, index]).max()) for p in PARTS)
    print(
        f"  constant over both files ({len(constant)}): {', '.join(constant)}; "
        f"largest |value| in the windows: {largest:g}"
    )
    print(f"  two-valued ({len(binary)}): {', '.join(binary)}")
    ages = np.unique(np.concatenate([window_age(getattr(data, f"X_{p}")) for p in PARTS]))
    print(f"  visible age of every window, all parts: {ages.tolist()} (one unit, windows never padded)")


def headline(entry, data):
    section(f"2. the headline cell ({HEADLINE}, seed 0, every label)")
    model, cpu = fit_surface(HEADLINE, entry, data, 0)
    show(HEADLINE, scores(model.predict_proba, data), cpu)
    pretrainer = model[0]
    found = "none (one regime)" if pretrainer.regime_centers_ is None else len(pretrainer.regime_centers_)
    print(
        f"  regimes standardised by: {found}; columns passed to the head: {pretrainer.d_model} embedding + "
        f"{pretrainer.level_loc_.size} window level"
    )
    horizons = (1, 5, 10, 20, 50, 100, 150, 200)
    auroc = per_horizon_auroc(data.y_test, model.predict_proba(data.X_test))
    print("  test AUROC per horizon: " + ", ".join(f"{k} h {auroc[k - 1]:.3f}" for k in horizons))
    return model


def controls(entry, data, model):
    section("3. controls on the same windows")
    fitted, cpu = fit_surface(HEADLINE, entry, data, 0, window_level=False)
    show("window_level=False (seed 0)", scores(fitted.predict_proba, data), cpu)
    pretrainer, d = model[0], model[0].d_model
    n = data.X_train.shape[1]
    E = {p: pretrainer.transform(getattr(data, f"X_{p}")) for p in PARTS}
    blocks = {
        "embedding": slice(0, d),
        "window level (both spans)": slice(d, d + 2 * n),
        "whole-window means": slice(d, d + n),
        "last-30-step means": slice(d + n, d + 2 * n),
    }
    for label, columns in blocks.items():
        cpu = time.process_time()
        head = clone(model[-1]).fit(E["train"][:, columns], data.y_train)
        values = [h_auroc(getattr(data, f"y_{p}"), head.predict_proba(E[p][:, columns])) for p in PARTS]
        show(f"the same head on {label} alone", values, time.process_time() - cpu)
    for label, params in (("headline", {}), ("window_level=False", {"window_level": False})):
        test = []
        for seed in SEEDS:
            fitted, _ = fit_surface(HEADLINE, entry, data, seed, **params)
            test.append(h_auroc(data.y_test, fitted.predict_proba(data.X_test)))
        print(
            f"  {label:<50} test, seeds {SEEDS[0]}-{SEEDS[-1]}: {', '.join(f'{v:.3f}' for v in test)} "
            f"(mean {np.mean(test):.3f})"
        )
    for name in ("gbm", "elapsed", "position"):
        fitted, cpu = fit_surface(name, entry, data, 0)
        show(name, scores(fitted.predict_proba, data), cpu)
    return E, blocks


def why(entry, data, model, E, blocks, dates, features):
    section("4. why: the window level on each part")
    d, n, K = model[0].d_model, len(features), entry.K
    names = [f"mean_{c}" for c in features] + [f"mean30_{c}" for c in features]
    level = {p: E[p][:, d : d + 2 * n] for p in PARTS}
    labels = {p: positives(getattr(data, f"y_{p}"), K) for p in PARTS}
    varying = np.flatnonzero(level["train"].std(axis=0) > 0)
    auroc = {
        p: np.array([roc_auc_score(labels[p][0][labels[p][1]], level[p][labels[p][1], j]) for j in varying])
        for p in PARTS
    }
    strong = np.abs(auroc["train"] - 0.5) > 0.15
    kept = np.sign(auroc["train"] - 0.5) == np.sign(auroc["test"] - 0.5)
    print(
        f"  univariate AUROC at Δt = {K} of the {varying.size} varying window-level columns: correlation "
        f"between parts, train-valid {np.corrcoef(auroc['train'], auroc['valid'])[0, 1]:.3f}, train-test "
        f"{np.corrcoef(auroc['train'], auroc['test'])[0, 1]:.3f}; {strong.sum()} columns beyond "
        f"0.5 ± 0.15 on train, {(strong & kept).sum()} of them on the same side of 0.5 on test"
    )
    for j in np.argsort(-np.abs(auroc["train"] - 0.5))[:6]:
        print(
            f"    {names[varying[j]]:<14} train {auroc['train'][j]:.3f}  valid {auroc['valid'][j]:.3f}  "
            f"test {auroc['test'][j]:.3f}"
        )
    for label, columns in (("whole-window means", slice(0, n)), ("last-30-step means", slice(n, 2 * n))):
        x = level["train"][:, columns]
        x = x[:, x.std(axis=0) > 0]
        lag = np.median([np.corrcoef(x[:-1, j], x[1:, j])[0, 1] for j in range(x.shape[1])])
        print(f"  {label}: median correlation between consecutive training windows (4 h apart) {lag:.3f}")
    start, stop = part_bounds(len(dates))["train"]
    print(
        f"  the training part: {stop - start} h, {(stop - start) / entry.context_length:.1f} non-overlapping "
        f"contexts of {entry.context_length} h, its {labels['train'][0].sum()} positive windows two runs "
        "(the 200 h before each of its 2 onsets)"
    )
    bounds = part_bounds(len(dates))
    ends = {p: window_labels(*bounds[p], [], entry.finetune_stride, entry.min_history)[0] for p in PARTS}
    train_pos = labels["train"][0]
    print(f"  the {NEIGHBOURS} training windows nearest to each window (Euclidean, in each block's columns):")
    for label, columns in blocks.items():
        for p in ("valid", "test"):
            dist = ((E[p][:, None, columns] - E["train"][None, :, columns]) ** 2).sum(axis=-1)
            near = np.argsort(dist, axis=1)[:, :NEIGHBOURS]
            share = train_pos[near].mean(axis=1)
            pos, known = labels[p]
            print(
                f"    {label:<26} {p:5}: share of training positives {share[known & pos].mean():.3f} "
                f"(positive windows), {share[known & ~pos].mean():.3f} (negative); "
                f"its AUROC {roc_auc_score(pos[known], share[known]):.3f}"
            )
    stretches(entry, data, model, E, blocks["whole-window means"], dates, ends, labels)


def stretches(entry, data, model, E, columns, dates, ends, labels):
    """The headline's risk at Δt = K over the stretches of the test part, and the training windows nearest
    to each stretch in the whole-window means."""
    K = entry.K
    risk = {p: model.predict_proba(getattr(data, f"X_{p}"))[:, K - 1] for p in ("train", "test")}
    periods = published_rows(dates)
    end = ends["test"]
    attack = np.zeros(len(end), dtype=bool)
    for a, b in periods:
        attack |= (end >= a) & (end <= b)
    pos, _ = labels["test"]
    dist = ((E["test"][:, None, columns] - E["train"][None, :, columns]) ** 2).sum(axis=-1)
    nearest = ends["train"][dist.argmin(axis=1)]
    rows = {
        "onset within 200 h, before attack 5": pos & ~attack & (end < periods[4][0]),
        "onset within 200 h, after attack 5": pos & ~attack & (end > periods[4][1]),
        "inside a published attack period": attack,
        "no onset in the next 200 h, before attack 5": ~pos & ~attack & (end < periods[4][0]),
        "no onset in the next 200 h, after attack 6": ~pos & ~attack & (end > periods[5][1]),
    }
    print(
        f"  the headline's risk at Δt = {K} on the test windows, by stretch, and where the nearest training "
        "window (whole-window means) ends (10th-90th percentile):"
    )
    for label, chosen in rows.items():
        first, last = dates[np.quantile(nearest[chosen], [0.1, 0.9], method="nearest")]
        when = dates[end[chosen]]
        print(
            f"    {label:<43} {chosen.sum():3d} windows ({when.min():%d %b}-{when.max():%d %b}): risk "
            f"{risk['test'][chosen].mean():.3f}; nearest training window {first:%d %b}-{last:%d %b}"
        )
    train_end = dates[ends["train"]]
    train_pos, _ = labels["train"]
    print(f"  the headline's risk at Δt = {K} on training windows, for comparison:")
    for label, chosen in (
        ("onset within 200 h (its 2 runs)", train_pos),
        ("the first, ending in July", (train_end.dt.month == 7).to_numpy()),
        ("ending 12 Oct-16 Oct (after attack 3)", (train_end >= pd.Timestamp("2016-10-12")).to_numpy()),
    ):
        print(f"    {label:<43} {chosen.sum():3d} windows: risk {risk['train'][chosen].mean():.3f}")


def published_labels(entry, data, dates):
    section("5. the events at the onsets of the published attack periods instead of ATT_FLAG's")
    onsets = [a for a, _ in published_rows(dates)]
    bounds = part_bounds(len(dates))
    relabelled = {}
    for part in PARTS:
        stride = entry.eval_stride if part == "test" else entry.finetune_stride
        relabelled[f"y_{part}"] = window_labels(*bounds[part], onsets, stride, entry.min_history)[1]
        inside = [o for o in onsets if bounds[part][0] <= o < bounds[part][1]]
        pos, _ = positives(relabelled[f"y_{part}"], entry.K)
        print(f"  {part:5}: onsets {inside}, {pos.sum()} windows with one within {entry.K} h")
    published = dataclasses.replace(data, **relabelled)
    for label, params in (("headline", {}), ("window_level=False", {"window_level": False})):
        fitted, cpu = fit_surface(HEADLINE, entry, published, 0, **params)
        show(label, scores(fitted.predict_proba, published), cpu)


def main():
    torch.set_num_threads(1)
    start = time.process_time()
    entry = BENCHMARKS["BATADAL"]
    data = entry.load(0)
    bunch = load_batadal(split="test")
    dates, flag = raw_rows()
    split_and_labels(entry, data, bunch, dates, flag)
    model = headline(entry, data)
    E, blocks = controls(entry, data, model)
    why(entry, data, model, E, blocks, dates, bunch.feature_names)
    published_labels(entry, data, dates)
    print(f"\nCPU seconds in all: {time.process_time() - start:.0f}")


if __name__ == "__main__":
    main()
