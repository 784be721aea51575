"""The snapshot study: does a lower held-out pretraining loss give a better event predictor?

One pretraining run per (subset, seed, method) keeps copies of the encoder
at chosen epochs (0 is the untrained encoder). Each copy is scored without
labels on the validation units (the JEPA loss ε at fixed draws, and
representation diagnostics), then finetuned the standard way on all
labelled training windows and scored on the validation and test units.
The paper reports ε and h-AUROC falling and rising together over snapshots
(FD001 Spearman ρ = −0.87); :func:`hepa_bench.report.snapshots.summarise`
computes the same ρ.

The same study runs on the event benchmarks of the registry
(:func:`run_event_snapshots`), with each benchmark's own early-stopped
pretraining and event head; there the encoder's kept weights are one more
snapshot.

Every finished snapshot is appended to a JSON-lines file, and a rerun skips
the ones already there.
"""

import os
import time
from datetime import datetime, timezone

import numpy as np
import torch
from sklearn.linear_model import RidgeCV
from skorch.callbacks import Callback

from hepa_sklearn.cmapss_protocol import CUTS_PER_UNIT, RUL_CAP, SubsetSplit, protocol_event_predictor
from hepa_sklearn.metrics import effective_rank, h_auroc

from .methods.table import METHODS, pretrained_hepa
from .protocols import kept_epoch, protocol_pretrainer, with_state
from .registry import BENCHMARKS
from .report.snapshots import plot_snapshots, summarise
from .results import append_record, command_line, environment, read_results, uninterrupted

__all__ = [
    "EncoderSnapshots",
    "SNAPSHOT_EPOCHS",
    "pretrain_with_snapshots",
    "representation_diagnostics",
    "run_event_snapshots",
    "run_snapshots",
]

DEFAULT_RESULTS = "snapshot_results.jsonl"
#: the fields the study reads of each record of the file it resumes
SNAPSHOT_FIELDS = {
    "subset": str,
    "seed": int,
    "method": str,
    "epoch": int,
    "pretrain_epochs": int,
    "finetune_epochs": int,
}
SNAPSHOT_EPOCHS = (0, 1, 3, 8, 25)  # and the last epoch


class EncoderSnapshots(Callback):
    """Keep a CPU copy of the whole JEPA module's weights after each epoch in ``epochs`` (0: before training)."""

    def __init__(self, epochs):
        self.epochs = epochs

    def initialize(self):
        self.states_ = {}
        return self

    def _keep(self, net, epoch):
        if epoch in self.epochs:
            self.states_[epoch] = {k: v.detach().cpu().clone() for k, v in net.module_.state_dict().items()}

    def on_train_begin(self, net, **kwargs):
        self._keep(net, 0)

    def on_epoch_end(self, net, **kwargs):
        self._keep(net, len(net.history))


def pretrain_with_snapshots(X, *, epochs, pretrain_epochs, device, seed, **params):
    """The protocol's pretrainer fitted on ``X`` and its weights at ``epochs`` (a dict epoch -> state)."""
    snapshots = ("snapshots", EncoderSnapshots(set(epochs) | {pretrain_epochs}))
    pretrainer = protocol_pretrainer(pretrain_epochs, device=device, seed=seed, callbacks=[snapshots], **params)
    pretrainer.fit(X)
    return pretrainer, dict(pretrainer.net_.callbacks_)["snapshots"].states_


def representation_diagnostics(encoder, data, E_train, E_valid, *, held_out, cap, cuts_per_window=None):
    """Label-free and label-based views of one encoder, none of them on test windows.

    ``eps_valid``/``eps_train``: the JEPA loss at fixed draws on the
    ``held_out`` windows (the validation part's) and on the pretraining
    windows ``data.X_pre`` (its terms too; ``cuts_per_window`` pairs per
    window, default the encoder's); ``rank_valid``: effective rank of the
    validation embeddings; ``probe_r2_valid``: R² on validation windows of a
    ridge regression from ``h_t`` to the time to event capped at ``cap``,
    fitted on training windows.
    """
    out = {}
    for part, X in (("valid", held_out), ("train", data.X_pre)):
        terms = encoder.pretraining_loss(X, cuts_per_window=cuts_per_window)
        out[f"eps_{part}"] = terms.pop("loss")
        out.update({f"eps_{part}_{name}": value for name, value in terms.items() if name != "n_pairs"})
    out["rank_valid"] = effective_rank(E_valid.astype(np.float64))
    target = lambda y: np.minimum(y["time"], cap)  # noqa: E731
    probe = RidgeCV(alphas=np.logspace(-3, 3, 13)).fit(E_train, target(data.y_train))
    out["probe_r2_valid"] = float(probe.score(E_valid, target(data.y_valid)))
    return out


def _snapshot_record(pretrainer, state, data, *, seed, finetune_epochs, device):
    encoder = with_state(pretrainer, state)
    start = time.perf_counter()
    E_train, E_valid, E_test = (encoder.transform(X) for X in (data.X_train, data.X_valid, data.X_test))
    record = representation_diagnostics(
        encoder, data, E_train, E_valid, held_out=data.X_pre_valid, cap=RUL_CAP, cuts_per_window=CUTS_PER_UNIT
    )
    predictor = protocol_event_predictor(finetune_epochs, device=device, seed=seed).fit(E_train, data.y_train)
    record["valid_h_auroc"] = h_auroc(data.y_valid, predictor.predict_proba(E_valid))
    record["h_auroc"] = h_auroc(data.y_test, predictor.predict_proba(E_test))
    record["cell_s"] = time.perf_counter() - start
    return record


def _keep_record(results, record, *, command, env, log):
    """``record`` with its finishing time, command and environment, appended to ``results``, logged and returned."""
    record = {**record, "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"), "command": command, **env}
    append_record(results, record)
    log(
        f"  epoch {record['epoch']:>3}{' (kept)' if record.get('kept') else ''}: eps_valid "
        f"{record['eps_valid']:.4f}, probe R2 {record['probe_r2_valid']:.3f}, rank {record['rank_valid']:.1f}, "
        f"valid h-AUROC {record['valid_h_auroc']:.4f}, test h-AUROC {record['h_auroc']:.4f}",
        flush=True,
    )
    return record


def cell_key(record):
    return (
        record["subset"],
        record["seed"],
        record["method"],
        record["epoch"],
        record["pretrain_epochs"],
        record["finetune_epochs"],
    )


def _check_study(epochs, pretrain_epochs, methods):
    """The sorted snapshot epochs of a C-MAPSS study, the last included; ValueError for one it cannot run."""
    epochs = sorted({*epochs, pretrain_epochs})
    if any(not 0 <= e <= pretrain_epochs for e in epochs):
        raise ValueError(f"snapshot epochs must lie in [0, {pretrain_epochs}], got {epochs}.")
    unknown = [m for m in methods if m not in METHODS or METHODS[m].encoder is not pretrained_hepa]
    if unknown:
        raise ValueError(f"methods {unknown} have no pretrained encoder to snapshot.")
    return epochs


def _check_event_study(datasets, epochs, registry):
    """ValueError for a dataset or a snapshot epoch the event study cannot run."""
    unknown = [name for name in datasets if name not in registry or registry[name].is_cmapss]
    if unknown:
        raise ValueError(
            f"unknown event benchmarks {unknown}; choose from "
            f"{sorted(n for n, e in registry.items() if not e.is_cmapss)} (C-MAPSS: --subsets)."
        )
    if any(e < 0 for e in epochs):
        raise ValueError(f"snapshot epochs must be >= 0, got {sorted(epochs)}.")


def run_snapshots(
    *,
    subsets,
    seeds,
    methods=("hepa",),
    epochs=SNAPSHOT_EPOCHS,
    pretrain_epochs=50,
    finetune_epochs=30,
    device="auto",
    results=DEFAULT_RESULTS,
    command=None,
    log=print,
):
    """Run every missing (subset, seed, method) of the study; returns the new records.

    Snapshot epochs outside ``[0, pretrain_epochs]``, a method without a
    pretrained encoder or a damaged record of ``results`` raise ValueError
    before any work.
    """
    epochs = _check_study(epochs, pretrain_epochs, methods)
    # snapshots run on the fixed split
    done = {cell_key(r)[:6] for r in read_results(results, SNAPSHOT_FIELDS)}
    env, records = environment(device), []
    for subset in subsets:
        for seed in seeds:
            for name in methods:
                method = METHODS[name]
                missing = [e for e in epochs if (subset, seed, name, e, pretrain_epochs, finetune_epochs) not in done]
                if not missing:
                    continue
                data = SubsetSplit(subset, seed, regime=method.regime)
                start = time.perf_counter()
                with uninterrupted(f"{subset} seed {seed} {name} pretraining", log):
                    pretrainer, states = pretrain_with_snapshots(
                        data.X_pre,
                        epochs=missing,
                        pretrain_epochs=pretrain_epochs,
                        device=device,
                        seed=seed,
                        **method.pretrain,
                    )
                pretrain_s = time.perf_counter() - start
                log(
                    f"{subset} seed {seed} {name}: pretrained {pretrain_epochs} epochs in {pretrain_s:.0f} s",
                    flush=True,
                )
                for epoch in missing:
                    with uninterrupted(f"{subset} seed {seed} {name} epoch {epoch}", log):
                        result = _snapshot_record(
                            pretrainer, states[epoch], data, seed=seed, finetune_epochs=finetune_epochs, device=device
                        )
                    records.append(
                        _keep_record(
                            results,
                            {
                                "subset": subset,
                                "seed": seed,
                                "method": name,
                                "epoch": epoch,
                                "pretrain_epochs": pretrain_epochs,
                                "finetune_epochs": finetune_epochs,
                                "device": device,
                                **result,
                                "pretrain_s": pretrain_s,
                            },
                            command=command,
                            env=env,
                            log=log,
                        )
                    )
    return records


def _event_snapshot_record(entry, encoder, data, *, seed, device):
    """Diagnostics and h-AUROC of one encoder on an event benchmark, its head fitted on every labelled window."""
    start = time.perf_counter()
    E_train, E_valid, E_test = (encoder.transform(X) for X in (data.X_train, data.X_valid, data.X_test))
    # the time to event is capped at the horizon
    record = representation_diagnostics(encoder, data, E_train, E_valid, held_out=data.X_valid, cap=entry.K)
    head = entry.make_event_predictor(entry.finetune_epochs, device=device, seed=seed)
    head = entry.fit_head(head, E_train, data.y_train, E_valid, data.y_valid)
    record["valid_h_auroc"] = h_auroc(data.y_valid, head.predict_proba(E_valid))
    record["h_auroc"] = h_auroc(data.y_test, head.predict_proba(E_test))
    record["cell_s"] = time.perf_counter() - start
    return record


def run_event_snapshots(
    *,
    datasets,
    seeds,
    epochs=SNAPSHOT_EPOCHS,
    device="auto",
    results=DEFAULT_RESULTS,
    data_home=None,
    command=None,
    registry=None,
    log=print,
):
    """The snapshot study on event benchmarks; returns the new records.

    Each (dataset, seed) is pretrained once as the benchmark's ``hepa``
    method is (the entry's pretrainer, early-stopped on its held-out
    windows), keeping the weights at each of ``epochs`` that the run
    reaches. Those copies and the kept weights (``"kept": True``; the
    encoder the ``hepa`` cells read) are each scored: ``eps_valid`` is the
    JEPA loss on the validation windows at fixed draws, and the entry's
    event head is fitted on all labelled training windows and stopped on
    the validation windows, as in the ``hepa`` cell with all labels.
    Records use ``subset`` for the dataset's name, so the summaries of
    :mod:`hepa_bench.report.snapshots` read them as they read C-MAPSS ones; their
    ``pretrain_epochs`` is the entry's epoch limit.
    """
    registry = BENCHMARKS if registry is None else registry
    _check_event_study(datasets, epochs, registry)
    previous = [r for r in read_results(results, SNAPSHOT_FIELDS) if r["method"] == "hepa"]
    done = {(r["subset"], r["seed"], r["epoch"]) for r in previous}
    finished = {(r["subset"], r["seed"]) for r in previous if r.get("kept")}  # the kept weights come last
    env, records = environment(device), []
    for name in datasets:
        entry = registry[name]
        for seed in seeds:
            if (name, seed) in finished:
                continue
            data = entry.load(seed, data_home=data_home)
            start = time.perf_counter()
            snapshots = ("snapshots", EncoderSnapshots(set(epochs)))
            pretrainer = entry.make_pretrainer(entry.pretrain_epochs, device=device, seed=seed, callbacks=[snapshots])
            with uninterrupted(f"{name} seed {seed} pretraining", log):  # cut short, it would misplace the kept epoch
                pretrainer.fit(data.X_pre)
            pretrain_s = time.perf_counter() - start
            states = dict(pretrainer.net_.callbacks_)["snapshots"].states_
            kept = kept_epoch(pretrainer)
            log(
                f"{name} seed {seed}: pretrained {pretrainer.n_epochs_} epochs in {pretrain_s:.0f} s, "
                f"weights of epoch {kept} kept",
                flush=True,
            )
            for epoch in sorted(set(states) | {kept}):
                if (name, seed, epoch) in done:
                    continue
                encoder = pretrainer if epoch == kept else with_state(pretrainer, states[epoch])
                with uninterrupted(f"{name} seed {seed} epoch {epoch}", log):
                    result = _event_snapshot_record(entry, encoder, data, seed=seed, device=device)
                records.append(
                    _keep_record(
                        results,
                        {
                            "subset": name,
                            "seed": seed,
                            "method": "hepa",
                            "epoch": epoch,
                            "kept": epoch == kept,
                            "pretrain_epochs": entry.pretrain_epochs,
                            "finetune_epochs": entry.finetune_epochs,
                            "epochs_run": pretrainer.n_epochs_,
                            "device": device,
                            **result,
                            "pretrain_s": pretrain_s,
                        },
                        command=command,
                        env=env,
                        log=log,
                    )
                )
    return records


def add_arguments(parser):

    parser.add_argument("--subsets", nargs="+", default=["FD001", "FD003"])
    parser.add_argument(
        "--datasets",
        nargs="+",
        default=None,
        metavar="DATASET",
        help="event benchmarks (TEP, ETTm1, ...) to study instead of the C-MAPSS subsets, each "
        "with its own early-stopped pretraining and event head",
    )
    parser.add_argument("--data-home", default=None, help="folder of the datasets (default: $HEPA_DATA_HOME)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument(
        "--methods",
        nargs="+",
        default=["hepa"],
        choices=sorted(m for m, spec in METHODS.items() if spec.encoder is pretrained_hepa),
    )
    parser.add_argument(
        "--epochs",
        nargs="+",
        type=int,
        default=list(SNAPSHOT_EPOCHS),
        help="snapshot epochs besides the last (0: the untrained encoder)",
    )
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--results", default=DEFAULT_RESULTS, help="JSON-lines file, appended snapshot by snapshot")
    parser.add_argument("--figure", default=None, help="PNG of held-out ε against test h-AUROC (needs matplotlib)")


def run(args):
    if os.path.isdir(args.results):  # refused before any work, as `hepa-bench run` refuses it
        raise SystemExit(f"hepa-bench snapshots: --results is the folder {args.results}; name a .jsonl file.")
    if args.threads < 0:
        raise SystemExit(f"hepa-bench snapshots: --threads must be an integer from 0, got {args.threads}.")
    bad = [seed for seed in args.seeds if not 0 <= seed < 2**32]  # a random_state's range
    if bad:
        raise SystemExit(f"hepa-bench snapshots: --seeds must be integers from 0 to 2**32 - 1, got {bad}.")
    try:  # a bad name or epoch, or a damaged record of the file resumed: one line, before any work
        if args.datasets:
            _check_event_study(args.datasets, args.epochs, BENCHMARKS)
        else:
            _check_study(args.epochs, args.pretrain_epochs, args.methods)
        read_results(args.results, SNAPSHOT_FIELDS)
    except ValueError as exc:
        raise SystemExit(f"hepa-bench snapshots: {exc}") from None
    if args.threads:
        torch.set_num_threads(args.threads)
    log = lambda message, **kw: print(message, flush=True)  # noqa: E731
    if args.datasets:
        run_event_snapshots(
            datasets=args.datasets,
            seeds=args.seeds,
            epochs=args.epochs,
            device=args.device,
            results=args.results,
            data_home=args.data_home,
            command=command_line(),
            log=log,
        )
        records = [r for r in read_results(args.results) if r["subset"] in args.datasets]
    else:
        run_snapshots(
            subsets=args.subsets,
            seeds=args.seeds,
            methods=args.methods,
            epochs=args.epochs,
            pretrain_epochs=args.pretrain_epochs,
            finetune_epochs=args.finetune_epochs,
            device=args.device,
            results=args.results,
            command=command_line(),
            log=log,
        )
        records = [
            r
            for r in read_results(args.results)
            if r["pretrain_epochs"] == args.pretrain_epochs and r["finetune_epochs"] == args.finetune_epochs
        ]
    for row in summarise(records):
        print(
            f"{row['subset']} {row['method']} seed {row['seed']}: Spearman rho(eps_valid, h-AUROC) = "
            f"{row['rho']:+.2f} (p {row['p']:.3f}, {row['n']} snapshots)"
        )
    if args.figure:
        print(f"figure: {plot_snapshots(records, args.figure)}")
