"""Simulated fleets of several failure modes as competing risks: each cause's h-AUROC beside the oracle's.

The rows of :mod:`hepa_bench.simulated.rows` with more than one failure mode
(:data:`ROWS`), cut as there (the same seeds, units, windows and label
fractions), with labels that carry the cause of each failure: mode ``m`` is
cause ``m + 1`` (``make_fleet``'s ``cause``). Each method is fitted on the
labelled training windows with their causes and predicts every cause's
cumulative incidence of the test windows
(``predict_cumulative_incidence``); each cause's h-AUROC is scored against
that cause's events (:func:`hepa_sklearn.metrics.cause_h_auroc`), and the
fleet's exact per-mode incidences (``oracle_by_mode``) are the ceiling.
The floor is the age alone: the elapsed-time surface split by the
training events' mix of causes. ``python -m hepa_bench.simulated.causes``
runs the cells missing from the results file.
"""

import argparse
import dataclasses
import time
from datetime import datetime, timezone

import numpy as np
import torch

from hepa_sklearn import ElapsedTimeEventPredictor
from hepa_sklearn.causes import any_event_y, check_cause_y, cumulative_incidence
from hepa_sklearn.metrics import cause_calibration_error, cause_h_auroc, h_auroc
from hepa_sklearn.surface import make_survival_y

from ..methods.surfaces import gradient_boosting
from ..methods.table import METHODS
from ..results import append_record, command_line, environment, read_results
from .rows import PRESETS, SIMULATED, load_fleet

__all__ = ["CAUSE_METHODS", "ROWS", "load_fleet_causes", "main", "run_causes"]

#: The simulated rows with several failure modes.
ROWS = [name for name, preset in PRESETS.items() if preset.get("n_modes", 1) > 1]
PROG = "python -m hepa_bench.simulated.causes"
RESULTS = "simulated_causes_results.jsonl"


def load_fleet_causes(**params):
    """:func:`~hepa_bench.simulated.rows.load_fleet`'s part with ``y`` carrying each failure's cause
    (mode + 1)."""
    part = load_fleet(**params)
    part.y = make_survival_y(part.y["event"], part.y["time"], cause=part.cause)
    return part


def _entry(name):
    return dataclasses.replace(SIMULATED[name], loader=load_fleet_causes)


def headline(entry, data, mask, *, epochs, device, seed):
    """The headline line (``hepa-default-auto0``'s pipeline) fitted on labels with causes: its incidences."""
    pipe, info = METHODS["hepa-default-auto0"].surface(entry, data, mask, epochs=epochs, device=device, seed=seed)
    return (lambda X: pipe[-1].predict_cumulative_incidence(pipe[:-1].transform(X))), info


def boosting(entry, data, mask, *, epochs, device, seed):
    """``gbm`` (its candidate chosen on the validation windows) with its classifier of the cause."""
    model, info = gradient_boosting(entry, data, mask, epochs=epochs, device=device, seed=seed)
    return model.predict_cumulative_incidence, info


def elapsed(entry, data, mask, *, epochs, device, seed):
    """The floor: the elapsed-time surface, split among the causes by the training events' mix."""
    y = data.y_train[mask]
    model = ElapsedTimeEventPredictor(K=entry.K).fit(data.X_train[mask], any_event_y(y))
    cause = check_cause_y(y)
    within = cause[(cause > 0) & (y["time"] <= entry.K)]
    mix = np.bincount(within - 1, minlength=int(cause.max())) / within.size  # the causes up to the largest in y
    return (lambda X: cumulative_incidence(model.predict_proba(X), np.tile(mix, (len(X), 1)))), {}


def oracle(entry, data, mask, *, epochs, device, seed):
    """The ceiling: the fleet's exact incidence of each mode (nothing is learned)."""
    params = {
        "context_length": entry.context_length,
        "min_history": entry.min_history,
        "random_state": seed,
        **entry.loader_params,
    }
    parts = [load_fleet(split="test", stride=entry.eval_stride, **params)]

    def lookup(X):
        for part in parts:
            if part.X.shape == X.shape and np.array_equal(part.X, X, equal_nan=True):
                return part.oracle_by_mode
        raise ValueError("the oracle knows only the test windows of its fleet.")

    return lookup, {}


#: The methods of the cause rows: ``method(entry, data, mask, ...) -> (incidence(X), info)``.
CAUSE_METHODS = {"oracle": oracle, "elapsed": elapsed, "hepa-default-auto0": headline, "gbm": boosting}


def score_incidence(y_test, incidence, n_causes):
    """Any-event and per-cause test metrics of incidences (n, n_causes, K).

    A model learns the causes up to the largest in its training labels; on
    a few labelled units the last mode may not have failed among them, and
    the model then knows nothing of it: its incidence is 0 (padded here to
    the row's ``n_causes``), which ranks no window above another.
    """
    fitted = incidence.shape[1]
    incidence = np.concatenate([incidence, np.zeros((len(incidence), n_causes - fitted, incidence.shape[2]))], axis=1)
    return {
        "h_auroc": h_auroc(any_event_y(y_test), incidence.sum(axis=1)),
        "n_causes_fitted": int(fitted),
        "cause_h_auroc": cause_h_auroc(y_test, incidence).tolist(),
        "cause_ece": cause_calibration_error(y_test, incidence).tolist(),
        "n_causes": int(incidence.shape[1]),
        "test_events_by_cause": np.bincount(check_cause_y(y_test), minlength=incidence.shape[1] + 1)[1:].tolist(),
    }


def run_causes(*, rows, seeds, fractions, methods, device="cpu", results=RESULTS, command=None, log=print):
    """Run every cell of ``rows`` x ``seeds`` x ``fractions`` x ``methods`` missing from ``results``; returns the new
    records."""
    done = {(r["dataset"], r["seed"], float(r["fraction"]), r["method"]) for r in read_results(results)}
    env, records = environment(device), []
    for name in rows:
        entry = _entry(name)
        for seed in seeds:
            todo = [(f, m) for f in fractions for m in methods if (name, seed, float(f), m) not in done]
            if not todo:
                continue
            data = entry.load(seed)
            for fraction, method in todo:
                mask, n_blocks = data.train_mask(fraction)
                start = time.perf_counter()
                incidence, info = CAUSE_METHODS[method](
                    entry, data, mask, epochs=entry.finetune_epochs, device=device, seed=seed
                )
                fit_s = time.perf_counter() - start
                record = {
                    "dataset": name,
                    "seed": seed,
                    "fraction": float(fraction),
                    "method": method,
                    "K": entry.K,
                    "n_label_blocks": int(n_blocks),
                    "n_train_windows": int(mask.sum()),
                    "n_test_windows": len(data.X_test),
                    **info,
                    **score_incidence(data.y_test, incidence(data.X_test), PRESETS[name]["n_modes"]),
                    "fit_s": fit_s,
                    "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    "command": command,
                    **env,
                }
                append_record(results, record)
                records.append(record)
                log(
                    f"{name} seed {seed} {method} labels {fraction:g}: h-AUROC {record['h_auroc']:.4f}, per cause "
                    f"{', '.join(f'{s:.4f}' for s in record['cause_h_auroc'])} ({fit_s:.0f} s)"
                )
    return records


def main(argv=None):
    """``python -m hepa_bench.simulated.causes``: the competing-risks cells of the multi-mode simulated
    rows."""
    parser = argparse.ArgumentParser(prog=PROG, description=main.__doc__)
    parser.add_argument("--rows", nargs="+", default=ROWS, choices=ROWS)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--label-fractions", nargs="+", type=float, default=[1.0, 0.1])
    parser.add_argument("--methods", nargs="+", default=list(CAUSE_METHODS), choices=list(CAUSE_METHODS))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--results", default=RESULTS, help="JSON-lines file, appended cell by cell")
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    run_causes(
        rows=args.rows,
        seeds=args.seeds,
        fractions=args.label_fractions,
        methods=args.methods,
        device=args.device,
        results=args.results,
        command=command_line(argv).replace("hepa-bench", PROG, 1),
        log=lambda message: print(message, flush=True),
    )


if __name__ == "__main__":
    main()
