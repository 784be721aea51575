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
calibrators); the test windows are only scored. How one cell is fitted
and scored is in :mod:`hepa_bench.cells`.

The runner's datasets are the registry's and the simulated rows
(:data:`RUN_DATASETS`), its methods the method table's and the simulated
rows' two oracles (:data:`RUN_METHODS`), which run on those rows alone.
"""

import os
import time
from datetime import datetime, timezone

import torch

from .cells import FALSE_ALARM_RATE, Encoded, run_cell, score_surfaces
from .methods.table import METHODS
from .nasa.rows import NASA_ROWS
from .registry import BENCHMARKS
from .results import RUN_FIELDS, append_record, command_line, environment, read_results, uninterrupted
from .simulated.rows import ORACLES, SIMULATED

__all__ = ["FALSE_ALARM_RATE", "RUN_DATASETS", "RUN_METHODS", "cell_key", "run_benchmark", "run_cell", "score_surfaces"]

#: What ``hepa-bench run`` runs: the registry's datasets, the C-MAPSS rows on NASA's test engines and the simulated
#: rows, whose seeds each draw a new fleet.
RUN_DATASETS = {**BENCHMARKS, **NASA_ROWS, **SIMULATED}
#: The method table and the simulated rows' references (the exact surfaces given the hidden state or the age).
RUN_METHODS = {**METHODS, **ORACLES}


def _fit_encoder(method, entry, data, fraction, *, pre_epochs, ft_epochs, device, seed):
    """``method``'s encoder fitted and timed, with its embeddings of every part."""
    start, cpu = time.perf_counter(), time.process_time()
    if method.supervised:
        encoder = method.encoder(entry, data, data.train_mask(fraction)[0], epochs=ft_epochs, device=device, seed=seed)
    else:
        encoder = method.encoder(entry, data, epochs=pre_epochs, device=device, seed=seed, **method.pretrain)
    return Encoded(encoder, data, time.perf_counter() - start, time.process_time() - cpu)


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
    bound = [
        f"{m} runs on {list(table[m].datasets)} only, not on {[n for n in datasets if n not in table[m].datasets]}"
        for m in methods
        if table[m].datasets is not None and not set(datasets) <= set(table[m].datasets)
    ]
    if bound:
        raise ValueError("; ".join(bound) + ".")
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
    replaces :data:`RUN_METHODS` and ``registry`` :data:`RUN_DATASETS` (for
    smaller variants of the protocol).
    """
    table = RUN_METHODS if methods_table is None else methods_table
    registry = RUN_DATASETS if registry is None else registry
    scope = "validation" if validation_only else "test"
    _check(datasets, methods, fractions, table, registry, split)
    previous = read_results(results, RUN_FIELDS)  # a damaged record: ValueError naming its line
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
        help=f"registry names: {', '.join(BENCHMARKS)} (the default); on NASA's test engines: "
        f"{', '.join(NASA_ROWS)}; simulated rows, each seed a new fleet: {', '.join(SIMULATED)}",
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--label-fractions", nargs="+", type=float, default=[1.0, 0.1])
    parser.add_argument(
        "--methods",
        nargs="+",
        default=["hepa", "gbm"],
        metavar="METHOD",
        help=f"from: {', '.join(m for m, spec in RUN_METHODS.items() if not spec.retired)} (oracle and age-oracle: "
        "the simulated rows only)",
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


def run(args, *, prog="hepa-bench run", command=None):
    """Run the cells of the parsed options ``args``; ``command`` (default: this process's) is stored in the records.

    An unknown or refused name, or a dataset missing from the data home,
    ends the run with SystemExit before any cell, its message led by ``prog``.
    """
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
            command=command_line() if command is None else command,
            split=args.split,
            validation_only=args.validation_only,
            log=lambda message, **kw: print(message, flush=True),
        )
    except (ValueError, FileNotFoundError) as exc:  # an unknown name, or a dataset not in the data home
        raise SystemExit(f"{prog}: {exc}") from None
