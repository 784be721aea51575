"""The benchmark runner: every dataset of the registry, every method of the table, resumable.

Every finished cell (dataset, seed, label fraction, method) is appended to a
JSON-lines results file as soon as it ends; a rerun skips the cells already
there, and ``max_cells``/``max_minutes`` end a call early, so a long sweep
can be split into calls. Within one call, an encoder is fitted once per
(dataset, seed, encoder) and its embeddings of every part are shared by the
methods and label fractions that use it; an encoder trained with labels
(PatchTST, iTransformer) is fitted once per label fraction instead, and its
records' ``pretrain_*`` fields then time that supervised training.
Everything is chosen on training and validation windows (early stopping,
the gradient-boosting candidate, the F1 and false-alarm thresholds,
calibrators); the test windows are only scored.
"""

import os
import time
from datetime import datetime, timezone

import numpy as np
import torch

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.calibration import SurfaceCalibrator
from hepa_sklearn.datasets._cmapss import RUL_CAP
from hepa_sklearn.metrics import (
    best_f1_threshold,
    event_recall,
    expected_calibration_error,
    f1_at_threshold,
    false_alarm_threshold,
    h_auroc,
    rul_rmse,
    surface_metrics,
)
from hepa_sklearn.surface import expected_time_to_event, make_survival_y

from .methods import METHODS
from .protocols import kept_epoch
from .registry import BENCHMARKS
from .results import append_record, command_line, environment, read_results, uninterrupted

__all__ = ["FALSE_ALARM_RATE", "cell_key", "run_benchmark", "score_surfaces"]

FALSE_ALARM_RATE = 0.05  # share of event-free validation windows allowed to raise an alarm


def score_surfaces(entry, data, P_valid, P_test):
    """Test metrics of one fitted model, every threshold chosen on the validation windows.

    ``h_auroc`` and the other :func:`~hepa_sklearn.metrics.surface_metrics`
    on the test windows (without the RUL error outside C-MAPSS);
    ``valid_h_auroc``; ``f1`` and ``pa_f1`` of ``p(t, Δt=1)`` against the
    condition at the next step, each at the threshold that maximises it on
    the validation windows; ``event_recall`` of alarms ``p(t, Δt=K) >=
    threshold`` with the threshold letting at most 5 % of the event-free
    validation windows raise one.
    """
    result = surface_metrics(data.y_test, P_test, cap=RUL_CAP)
    if not entry.is_cmapss:
        result.pop("rul_rmse")
    result["valid_h_auroc"] = h_auroc(data.y_valid, P_valid)
    known_valid, known_test = ~np.isnan(data.point_valid), ~np.isnan(data.point_test)
    for key, adjusted in (("f1", False), ("pa_f1", True)):
        threshold = best_f1_threshold(
            data.point_valid[known_valid],
            P_valid[known_valid, 0],
            point_adjusted=adjusted,
            groups=data.g_valid[known_valid],
        )
        result[f"{key}_threshold"] = threshold
        result[key] = (
            float("nan")
            if np.isnan(threshold)
            else f1_at_threshold(
                data.point_test[known_test],
                P_test[known_test, 0],
                threshold,
                point_adjusted=adjusted,
                groups=data.g_test[known_test],
            )
        )
    alarm = false_alarm_threshold(data.y_valid, P_valid[:, -1], rate=FALSE_ALARM_RATE, horizon=entry.K)
    result["alarm_threshold"] = alarm
    result["event_recall"] = (
        float("nan")
        if np.isnan(alarm)
        else event_recall(data.y_test, P_test[:, -1], alarm, horizon=entry.K, groups=data.g_test)
    )
    result["false_alarm_rate"] = FALSE_ALARM_RATE
    return result


def cmapss_scores(data, P_valid, P_test, surface):
    """C-MAPSS extras: ECE after isotonic and Platt calibration on the validation units, NASA test-file RMSE."""
    result = {}
    for method in ("isotonic", "sigmoid"):
        try:
            calibrator = SurfaceCalibrator(method=method).fit(P_valid, data.y_valid)
        except ValueError as exc:  # e.g. a surface anti-correlated with the validation labels
            result[f"ece_{method}"], result[f"ece_{method}_error"] = float("nan"), str(exc)
            continue
        result[f"ece_{method}"] = expected_calibration_error(data.y_test, calibrator.predict_proba(P_test))
    X_nasa, rul = data.nasa()
    y_nasa = make_survival_y(np.ones(len(rul), bool), rul)
    result["nasa_rmse"] = rul_rmse(y_nasa, expected_time_to_event(surface(X_nasa)), cap=RUL_CAP)
    return result


class _Encoded:
    """A fitted encoder with its embeddings of every part, and the wall and CPU seconds of fitting and embedding."""

    def __init__(self, encoder, data, fit_s, fit_cpu_s):
        start, cpu = time.perf_counter(), time.process_time()
        self.encoder = encoder
        self.E_train, self.E_valid, self.E_test = (
            encoder.transform(X) for X in (data.X_train, data.X_valid, data.X_test)
        )
        self.embed_s, self.embed_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        self.fit_s, self.fit_cpu_s = fit_s, fit_cpu_s
        self.n_epochs = getattr(encoder, "n_epochs_", None)
        # the epoch whose weights an early-stopping rule kept; None where the epochs were fixed or none ran
        stopped = getattr(encoder, "early_stopping", False) and self.n_epochs
        self.kept_epoch = kept_epoch(encoder) if stopped else None
        # ε: the pretrained JEPA's prediction error on the validation windows (one cut each), as the paper's bound reads it
        self.epsilon = None
        if isinstance(encoder, HEPAPretrainer) and self.n_epochs:
            try:
                self.epsilon = encoder.pretraining_loss(data.X_valid, cuts_per_window=1, seed=0)["l1"]
            except ValueError:  # no validation window holds two usable (cut, horizon) pairs
                pass


def _fit_encoder(method, entry, data, fraction, *, pre_epochs, ft_epochs, device, seed):
    """``method``'s encoder fitted and timed, with its embeddings of every part."""
    start, cpu = time.perf_counter(), time.process_time()
    if method.supervised:
        encoder = method.encoder(entry, data, data.train_mask(fraction)[0], epochs=ft_epochs, device=device, seed=seed)
    else:
        encoder = method.encoder(entry, data, epochs=pre_epochs, device=device, seed=seed, **method.pretrain)
    return _Encoded(encoder, data, time.perf_counter() - start, time.process_time() - cpu)


def score_validation(entry, data, P_valid):
    """The metrics of :func:`~hepa_sklearn.metrics.surface_metrics` on the validation windows, each named ``valid_*``.

    What a validation-only cell records: nothing is computed on test windows.
    """
    result = surface_metrics(data.y_valid, P_valid, cap=RUL_CAP)
    if not entry.is_cmapss:
        result.pop("rul_rmse")
    return {f"valid_{name}": value for name, value in result.items()}


def run_cell(entry, data, method, fraction, *, seed, finetune_epochs, device, encoded=None, validation_only=False):
    """Fit one method on the labelled windows of ``fraction`` and score it (see :func:`score_surfaces`).

    ``validation_only`` scores the validation windows alone
    (:func:`score_validation`) and never predicts a test window.
    """
    mask, n_blocks = data.train_mask(fraction)
    info = {
        "n_label_blocks": int(n_blocks),
        "n_train_windows": int(mask.sum()),
        "n_valid_windows": len(data.X_valid),
        "n_test_windows": len(data.X_test),
        "n_pretrain_windows": len(data.X_pre),
    }
    if encoded is not None:
        info.update(
            pretrain_s=encoded.fit_s,
            pretrain_cpu_s=encoded.fit_cpu_s,
            embed_s=encoded.embed_s,
            embed_cpu_s=encoded.embed_cpu_s,
            pretrain_epochs_run=encoded.n_epochs,
        )
        if encoded.kept_epoch is not None:
            info["pretrain_epoch_kept"] = encoded.kept_epoch
        if encoded.epsilon is not None:
            info["valid_jepa_l1"] = encoded.epsilon
    else:
        info.update(pretrain_s=0.0, pretrain_cpu_s=0.0, embed_s=0.0, embed_cpu_s=0.0)
    start, cpu = time.perf_counter(), time.process_time()
    if method.surface is not None:
        model, extra = method.surface(
            entry,
            data,
            mask,
            epochs=finetune_epochs,
            device=device,
            seed=seed,
            encoder=None if encoded is None else encoded.encoder,
            **method.finetune,
        )
        fit_s, fit_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        info.update(extra)
        surface = model.predict_proba
        start = time.perf_counter()
        P_valid = surface(data.X_valid)
        P_test = None if validation_only else surface(data.X_test)
    else:
        head = method.head(
            entry,
            encoded.E_train[mask],
            data.y_train[mask],
            encoded.E_valid,
            data.y_valid,
            epochs=finetune_epochs,
            device=device,
            seed=seed,
            **method.finetune,
        )
        fit_s, fit_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        info["finetune_epochs_run"] = getattr(head, "n_epochs_", None)
        surface = lambda X: head.predict_proba(encoded.encoder.transform(X))  # noqa: E731
        start = time.perf_counter()
        P_valid = head.predict_proba(encoded.E_valid)
        P_test = None if validation_only else head.predict_proba(encoded.E_test)
    info["predict_s"] = time.perf_counter() - start
    if validation_only:
        return {
            **info,
            **score_validation(entry, data, P_valid),
            "fit_s": fit_s,
            "cpu_s": fit_cpu_s,
            "scope": "validation",
        }
    result = {**info, **score_surfaces(entry, data, P_valid, P_test), "fit_s": fit_s, "cpu_s": fit_cpu_s}
    if entry.is_cmapss:
        result.update(cmapss_scores(data, P_valid, P_test, surface))
    return result


def cell_key(record):
    """A record's cell; records of the former C-MAPSS sweep name their dataset ``subset``.

    A validation-only record (``"scope": "validation"``) is a cell of its
    own: it never stands for the scored cell of the same settings.
    """
    return (
        record.get("dataset", record.get("subset")),
        record["seed"],
        float(record["fraction"]),
        record["method"],
        record["pretrain_epochs"],
        record["finetune_epochs"],
        record.get("split", "fixed"),
        record.get("scope", "test"),
    )


def cell_split(split, seed):
    """The split a cell runs on: seed 0 of the rolling origin is the fixed split, recorded as such."""
    return split if seed else "fixed"


def _check(datasets, methods, fractions, table, registry, split="fixed"):
    unknown = [name for name in datasets if name not in registry]
    if unknown:
        raise ValueError(f"unknown datasets {unknown}; choose from {list(registry)}.")
    if split not in ("fixed", "rolling"):
        raise ValueError(f"split must be 'fixed' or 'rolling', got {split!r}.")
    if split == "rolling":
        fixed = [name for name in datasets if registry[name].origin_step is None]
        if fixed:
            raise ValueError(
                f"{fixed} have no rolling origin (their seeds draw the split, or a shift would leave a "
                f"part without an event); run them with --split fixed."
            )
    unknown = [m for m in methods if m not in table]
    if unknown:
        raise ValueError(f"unknown methods {unknown}; choose from {sorted(table)}.")
    retired = [f"{m} ({table[m].retired})" for m in methods if table[m].retired]
    if retired:
        raise ValueError(f"retired methods cannot run: {'; '.join(retired)}.")
    retired = [f"{name} ({registry[name].retired})" for name in datasets if registry[name].retired]
    if retired:
        raise ValueError(f"retired datasets cannot run: {'; '.join(retired)}.")
    if any(not 0 < f <= 1 for f in fractions):
        raise ValueError(f"label fractions must lie in (0, 1], got {list(fractions)}.")


def run_benchmark(
    *,
    datasets,
    seeds,
    fractions,
    methods,
    pretrain_epochs=None,
    finetune_epochs=None,
    device="auto",
    results,
    data_home=None,
    max_cells=None,
    max_minutes=None,
    command=None,
    methods_table=None,
    registry=None,
    split="fixed",
    validation_only=False,
    log=print,
):
    """Run every missing cell, appending each finished one to ``results``; returns the new records.

    ``validation_only`` fits as usual but scores the validation windows
    alone (:func:`score_validation`), for screens that must not see a test
    unit; its records carry ``"scope": "validation"`` and no test figure.

    ``split="rolling"`` makes the seed vary the data on the datasets with a
    fixed split in time (:class:`~hepa_bench.data.RollingOrigin`); such
    records carry ``"split": "rolling"``, except seed 0's, which is the fixed
    split itself.

    ``pretrain_epochs``/``finetune_epochs`` of None take each entry's own
    (C-MAPSS 50/30 fixed, elsewhere at most 100/50 with early stopping);
    cells run with other epochs are other cells. The call ends before
    starting a cell once ``max_cells`` cells have run, or once ``max_minutes``
    have passed unless the cell reads an encoder this call has already
    fitted (the other label fractions of a fitted encoder finish with it
    rather than costing a second fit in the next call). ``methods_table``
    replaces :data:`~hepa_bench.methods.METHODS` and ``registry``
    :data:`~hepa_bench.registry.BENCHMARKS` (for smaller variants of the protocol).
    """
    table = METHODS if methods_table is None else methods_table
    registry = BENCHMARKS if registry is None else registry
    scope = "validation" if validation_only else "test"
    _check(datasets, methods, fractions, table, registry, split)
    previous = read_results(results)
    other = [r for r in previous if r.get("scope", "test") != scope]
    if other:
        raise ValueError(
            f"{results} holds {len(other)} records of {'scored' if validation_only else 'validation-only'} cells; "
            f"keep validation-only records (--validation-only) and scored ones in separate results files, so that "
            f"the report never reads a screen."
        )
    done = {cell_key(r) for r in previous}

    def epochs(entry):
        return (
            entry.pretrain_epochs if pretrain_epochs is None else pretrain_epochs,
            entry.finetune_epochs if finetune_epochs is None else finetune_epochs,
        )

    # methods sharing windows and an encoder run one after another
    order = sorted(methods, key=lambda m: (table[m].regime, str(table[m].encoder_key), methods.index(m)))
    todo = [
        (name, seed, float(fraction), method)
        for name in datasets
        for seed in seeds
        for method in order
        for fraction in fractions
        if (name, seed, float(fraction), method, *epochs(registry[name]), cell_split(split, seed), scope) not in done
    ]
    log(f"{len(todo)} cells to run, {len(done)} already in {results}")
    env = environment(device)
    records, start = [], time.perf_counter()
    data, encoders = {}, {}
    for i, (name, seed, fraction, method_name) in enumerate(todo):
        if max_cells is not None and i >= max_cells:
            log(f"stopping after {max_cells} cells; {len(todo) - i} left")
            break
        entry, method = registry[name], table[method_name]
        data_key = (name, seed, method.regime, cell_split(split, seed))
        key = (method.encoder_key, fraction) if method.supervised else method.encoder_key
        fitted = data_key in data and method.encoder is not None and key in encoders
        if max_minutes is not None and time.perf_counter() - start > 60 * max_minutes and not fitted:
            log(f"stopping after {max_minutes} minutes; {len(todo) - i} left")
            break
        pre_epochs, ft_epochs = epochs(entry)
        if data_key not in data:  # one dataset in memory
            data, encoders = (
                {data_key: entry.load(seed, data_home=data_home, regime=method.regime, split=cell_split(split, seed))},
                {},
            )
        cell_data = data[data_key]
        with uninterrupted(f"{name} seed {seed} {method_name} labels {fraction:g}", log):
            if method.encoder is not None and key not in encoders:
                encoders[key] = _fit_encoder(
                    method,
                    entry,
                    cell_data,
                    fraction,
                    pre_epochs=pre_epochs,
                    ft_epochs=ft_epochs,
                    device=device,
                    seed=seed,
                )
            cell_start = time.perf_counter()
            result = run_cell(
                entry,
                cell_data,
                method,
                fraction,
                seed=seed,
                finetune_epochs=ft_epochs,
                device=device,
                encoded=encoders.get(key) if method.encoder is not None else None,
                validation_only=validation_only,
            )
        record = {
            "dataset": name,
            "seed": seed,
            "fraction": fraction,
            "method": method_name,
            "pretrain_epochs": pre_epochs,
            "finetune_epochs": ft_epochs,
            "device": device,
            "K": entry.K,
            **({"split": "rolling"} if cell_split(split, seed) == "rolling" else {}),
            **result,
            "cell_s": time.perf_counter() - cell_start,
            "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": command,
            **env,
        }
        append_record(results, record)
        records.append(record)
        if validation_only:
            log(
                f"[{i + 1}/{len(todo)}] {name} seed {seed} {method_name} labels {fraction:g}: validation h-AUROC "
                f"{record['valid_h_auroc']:.4f} | {(time.perf_counter() - start) / 60:.1f} min",
                flush=True,
            )
            continue
        log(
            f"[{i + 1}/{len(todo)}] {name} seed {seed} {method_name} labels {fraction:g}: "
            f"h-AUROC {record['h_auroc']:.4f} (valid {record['valid_h_auroc']:.4f}), F1 {record['f1']:.3f}, "
            f"PA-F1 {record['pa_f1']:.3f}, event recall {record['event_recall']:.3f} "
            f"| {(time.perf_counter() - start) / 60:.1f} min",
            flush=True,
        )
    return records


def add_arguments(parser):
    parser.add_argument(
        "--datasets",
        nargs="+",
        default=list(BENCHMARKS),
        metavar="NAME",
        help=f"registry names: {', '.join(BENCHMARKS)}",
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--label-fractions", nargs="+", type=float, default=[1.0, 0.1])
    parser.add_argument(
        "--methods",
        nargs="+",
        default=["hepa", "gbm"],
        metavar="METHOD",
        help=f"from: {', '.join(m for m, spec in METHODS.items() if not spec.retired)}",
    )
    parser.add_argument(
        "--pretrain-epochs",
        type=int,
        default=None,
        help="pretraining epochs (most epochs under early stopping); default: each dataset's own",
    )
    parser.add_argument(
        "--finetune-epochs",
        type=int,
        default=None,
        help="finetuning epochs (most epochs under early stopping); default: each dataset's own",
    )
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--data-home", default=None, help="folder of the datasets (default: $HEPA_DATA_HOME)")
    parser.add_argument("--results", default="results.jsonl", help="JSON-lines file, appended cell by cell")
    parser.add_argument("--max-cells", type=int, default=None, help="stop after this many cells")
    parser.add_argument("--max-minutes", type=float, default=None, help="start no new cell after this many minutes")
    parser.add_argument(
        "--split",
        choices=["fixed", "rolling"],
        default="fixed",
        help="rolling: on datasets split at fixed times, seed s re-splits the first 100 - 5 s "
        "percent of the rows (seed 0 is the fixed split)",
    )
    parser.add_argument(
        "--validation-only",
        action="store_true",
        help="score the validation windows alone, never a test window (for screens); the records "
        'carry "scope": "validation"',
    )


def check_options(args):
    """SystemExit naming the option of the first value ``hepa-bench run`` could not run or record, before any work."""
    least = {
        "--seeds": (args.seeds, 0),
        "--pretrain-epochs": ([args.pretrain_epochs], 0),
        "--finetune-epochs": ([args.finetune_epochs], 1),
        "--threads": ([args.threads], 0),
        "--max-cells": ([args.max_cells], 1),
    }
    for option, (values, low) in least.items():
        bad = [v for v in values if v is not None and not low <= v < 2**32]
        if bad:
            raise SystemExit(f"hepa-bench run: {option} must be integers from {low} to 2**32 - 1, got {bad}.")
    bad = [f for f in args.label_fractions if not 0 < f <= 1]  # NaN fails the comparison too
    if bad:
        raise SystemExit(f"hepa-bench run: --label-fractions must lie in (0, 1], got {bad}.")
    if args.max_minutes is not None and not 0 < args.max_minutes < float("inf"):
        raise SystemExit(f"hepa-bench run: --max-minutes must be a positive number, got {args.max_minutes}.")
    for option, values in (
        ("--datasets", args.datasets),
        ("--seeds", args.seeds),
        ("--methods", args.methods),
        ("--label-fractions", args.label_fractions),
    ):
        repeated = sorted({v for v in values if values.count(v) > 1}, key=str)
        if repeated:
            raise SystemExit(f"hepa-bench run: {option} names {repeated} more than once; name each once.")
    if args.device != "auto":
        try:
            torch.device(args.device)
        except (RuntimeError, ValueError):
            raise SystemExit(
                f"hepa-bench run: --device must be 'auto' or a torch device such as 'cpu' or 'cuda:0', "
                f"got {args.device!r}."
            ) from None
    if os.path.isdir(args.results):
        raise SystemExit(f"hepa-bench run: --results names the folder {args.results}; name a JSON-lines file.")


def run(args):
    check_options(args)
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        run_benchmark(
            datasets=args.datasets,
            seeds=args.seeds,
            fractions=args.label_fractions,
            methods=args.methods,
            pretrain_epochs=args.pretrain_epochs,
            finetune_epochs=args.finetune_epochs,
            device=args.device,
            results=args.results,
            data_home=args.data_home,
            max_cells=args.max_cells,
            max_minutes=args.max_minutes,
            command=command_line(),
            split=args.split,
            validation_only=args.validation_only,
            log=lambda message, **kw: print(message, flush=True),
        )
    except (ValueError, FileNotFoundError) as exc:  # an unknown name, or a dataset not in the data home
        raise SystemExit(f"hepa-bench run: {exc}") from None
