"""The event benchmark runner: every dataset of the registry, methods from one table, resumable.

Every finished cell (dataset, seed, label fraction, method) is appended to a
JSON-lines results file as soon as it ends; a rerun skips the cells already
there, and ``max_cells``/``max_minutes`` end a call early, so a long sweep
can be split into calls. Within one call, an encoder is fitted once per
(dataset, seed, encoder) and its embeddings of every part are shared by the
methods and label fractions that use it; an encoder trained with labels
(PatchTST, iTransformer) is fitted once per label fraction instead, and its
records' ``pretrain_*`` fields then time that supervised training. Everything is chosen on training
and validation windows (early stopping, the gradient-boosting candidate,
the F1 and false-alarm thresholds); the test windows are only scored.
"""

import copy
import functools
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Optional

import numpy as np
import torch

from ..baselines import GradientBoostingEventPredictor
from ..baselines._boosting import SEARCH_GRID
from ..datasets._cmapss import RUL_CAP
from ..metrics import (
    best_f1_threshold, event_recall, f1_at_threshold, false_alarm_threshold, h_auroc, surface_metrics,
)
from .protocol import default_pipeline as plain_pipeline
from .registry import BENCHMARKS, PATIENCE
from .results import append_record, command_line, environment, read_results, uninterrupted
from .snapshots import EncoderSnapshots, kept_epoch

__all__ = ["EVENT_METHODS", "EventMethod", "FALSE_ALARM_RATE", "run_events", "score_surfaces"]

DEFAULT_RESULTS = "event_results.jsonl"
FALSE_ALARM_RATE = 0.05  # share of event-free validation windows allowed to raise an alarm


# -- encoders: fit(entry, data, *, epochs, device, seed) -> fitted transformer ---------------

def pretrained_hepa(entry, data, *, epochs, device, seed):
    """HEPA pretrained on the entry's pretraining windows with its protocol."""
    return entry.make_pretrainer(epochs, device=device, seed=seed).fit(data.X_pre)


def untrained_hepa(entry, data, *, epochs, device, seed, **params):
    """The same encoder at its initial weights (same seed, architecture and input statistics, never trained).

    One epoch runs so that the fitted estimator holds the statistics of
    ``norm="global"``; its weights are then reset to those before training.
    ``params`` override the entry's pretrainer parameters.
    """
    snapshots = ("snapshots", EncoderSnapshots({0}))
    pretrainer = entry.make_pretrainer(1, device=device, seed=seed, callbacks=[snapshots], **params).fit(data.X_pre)
    initial = dict(pretrainer.net_.callbacks_)["snapshots"].states_[0]
    untrained = copy.deepcopy(pretrainer)
    untrained.net_.module_.load_state_dict(initial)
    return untrained


def pretrained_hepa_channels(entry, data, *, epochs, device, seed):
    """HEPA with one token stream per channel (``tokens="channel"``), otherwise the entry's protocol."""
    return entry.make_pretrainer(epochs, device=device, seed=seed, tokens="channel").fit(data.X_pre)


def untrained_hepa_channels(entry, data, *, epochs, device, seed):
    """The channel-token encoder at its initial weights: the control of ``hepa-channel``."""
    return untrained_hepa(entry, data, epochs=epochs, device=device, seed=seed, tokens="channel")


def pretrained_mae(entry, data, *, epochs, device, seed):
    """The MAE baseline: the same causal encoder pretrained by masked-patch reconstruction.

    It sees the entry's pretraining windows with the same normalisation and
    stop rule as HEPA. On C-MAPSS, where HEPA draws 40 cuts from each
    unit's window per epoch, each window is repeated 40 times per epoch
    (each repeat gets its own mask), so both see as many samples.
    """
    from ..baselines import MAEPretrainer
    from ..datasets._cmapss import CUTS_PER_UNIT

    template = entry.make_pretrainer(epochs, device=device, seed=seed)
    mae = MAEPretrainer(
        norm=template.norm, max_epochs=epochs, early_stopping=template.early_stopping,
        n_iter_no_change=template.n_iter_no_change, device=device, random_state=seed,
    )
    X = np.repeat(data.X_pre, CUTS_PER_UNIT, axis=0) if entry.is_cmapss else data.X_pre
    return mae.fit(X)


def _supervised_encoder(estimator_class, entry, data, mask, *, epochs, device, seed):
    """Train ``estimator_class`` end to end on the labelled windows of ``mask``, stopped as the entry says, then freeze it.

    Fitted through :meth:`~hepa_sklearn.benchmarks.registry.BenchmarkEntry.fit_head`
    like a head: early-stopped on the validation windows, or on C-MAPSS the
    protocol's fixed finetuning epochs. Only labelled training windows and
    validation windows are seen.
    """
    encoder = estimator_class(K=entry.K, max_epochs=epochs, early_stopping=entry.finetune_stop != "fixed",
                              validation_fraction=0.5, n_iter_no_change=PATIENCE, device=device, random_state=seed)
    return entry.fit_head(encoder, data.X_train[mask], data.y_train[mask], data.X_valid, data.y_valid)


def supervised_patchtst(entry, data, mask, *, epochs, device, seed):
    """PatchTST (Nie et al. 2023) trained with the cell's labels, then frozen (:class:`PatchTSTEncoder`)."""
    from ..baselines import PatchTSTEncoder

    return _supervised_encoder(PatchTSTEncoder, entry, data, mask, epochs=epochs, device=device, seed=seed)


def supervised_itransformer(entry, data, mask, *, epochs, device, seed):
    """iTransformer (Liu et al. 2024) trained with the cell's labels, then frozen (:class:`ITransformerEncoder`)."""
    from ..baselines import ITransformerEncoder

    return _supervised_encoder(ITransformerEncoder, entry, data, mask, epochs=epochs, device=device, seed=seed)


# -- heads and surface models ------------------------------------------------------------------

def event_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed):
    """HEPAEventPredictor on frozen embeddings, stopped as the entry's protocol says."""
    head = entry.make_event_predictor(epochs, device=device, seed=seed)
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


def matched_head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device, seed):
    """The paper's common baseline head (:class:`MatchedHeadPredictor`) on frozen embeddings, stopped as the entry says.

    Its learned horizon table has the paper's 256 rows, or K rows where K
    is larger.
    """
    from ..baselines import MatchedHeadPredictor

    fixed = entry.finetune_stop == "fixed"
    head = MatchedHeadPredictor(
        K=entry.K, horizon_rows=None if entry.K > 256 else 256, max_epochs=epochs, early_stopping=not fixed,
        validation_fraction=0.5, device=device, random_state=seed,
    )
    return entry.fit_head(head, E_train, y_train, E_valid, y_valid)


def gradient_boosting(entry, X_train, y_train, g_train, X_valid, y_valid, *, seed):
    """GradientBoostingEventPredictor on the raw windows.

    C-MAPSS: as in ``hepa benchmark cmapss`` (its own out-of-fold search on
    the training units). Elsewhere: each candidate of its search grid is
    fitted on the training windows and the one with the best validation
    h-AUROC is kept (the first among equals); ``info`` names it.
    """
    if entry.is_cmapss:
        model = GradientBoostingEventPredictor(K=entry.K, random_state=seed).fit(X_train, y_train, groups=g_train)
        return model, {}
    best, best_score, best_index = None, -np.inf, 0
    for index, params in enumerate(SEARCH_GRID):
        model = GradientBoostingEventPredictor(K=entry.K, search=None, random_state=seed, **params)
        model.fit(X_train, y_train, groups=g_train)
        score = h_auroc(y_valid, model.predict_proba(X_valid))
        if best is None or (np.isfinite(score) and score > best_score):
            best, best_score, best_index = model, score if np.isfinite(score) else -np.inf, index
    return best, {"gbm_candidate": best_index, "gbm_params": best.best_params_}


def default_pipeline(entry, X_train, y_train, g_train, X_valid, y_valid, *, seed, **pretrainer_params):
    """What a user fits first: ``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K))`` with every other default.

    Fitted on the cell's labelled training windows alone (the pretrainer
    sees those windows, not the protocol's pretraining set), with the
    estimators' own early stopping on the last tenth of them; only
    ``random_state`` is set, so that the cell is reproducible
    (``pretrainer_params`` change the pretrainer's defaults: a candidate
    default). The validation windows are not used. ``info`` records the
    epochs each step ran and the pretraining epoch whose weights were kept.
    """
    pipe = plain_pipeline(entry.K, seed=seed, **pretrainer_params).fit(X_train, y_train)
    return pipe, {"pretrain_epochs_run": pipe[0].n_epochs_, "pretrain_epoch_kept": kept_epoch(pipe[0]),
                  "finetune_epochs_run": pipe[-1].n_epochs_}


@dataclass(frozen=True)
class EventMethod:
    """One column of the event benchmark.

    A method either embeds windows with a frozen ``encoder`` and fits a
    ``head`` on the embeddings, or fits a ``surface`` model on the windows
    themselves. Methods with the same ``encoder_key`` share one fitted
    encoder (and its embeddings) per dataset and seed. To add a baseline,
    add one entry to :data:`EVENT_METHODS`: an encoder (an MAE pretrainer,
    PatchTST or iTransformer trained and then frozen, anything with
    ``fit``/``transform``) with the default head, or a surface estimator.

    Attributes
    ----------
    description : str
    encoder : callable or None
        ``encoder(entry, data, *, epochs, device, seed)``: a fitted object
        whose ``transform(X)`` gives embeddings (n, d); ``epochs`` are the
        pretraining epochs.
    encoder_key : str or None
        Methods with equal keys share the fitted encoder.
    head : callable
        ``head(entry, E_train, y_train, E_valid, y_valid, *, epochs, device,
        seed)``: a fitted estimator with ``predict_proba(E)``; ``epochs``
        are the finetuning epochs.
    surface : callable or None
        ``surface(entry, X_train, y_train, g_train, X_valid, y_valid, *,
        seed)``: ``(fitted estimator with predict_proba(X), info dict)``.
    supervised : bool
        The encoder learns from labels: it is called as ``encoder(entry,
        data, mask, *, epochs, device, seed)`` with the cell's labelled
        training windows ``mask`` and the finetuning epochs, and is fitted
        once per label fraction (shared only by methods of the same key
        and fraction).
    """

    description: str
    encoder: Optional[Callable] = None
    encoder_key: Optional[str] = None
    head: Callable = event_head
    surface: Optional[Callable] = None
    supervised: bool = False

    def __post_init__(self):
        if (self.encoder is None) == (self.surface is None):
            raise ValueError("an EventMethod needs exactly one of encoder and surface.")
        if self.supervised and self.encoder is None:
            raise ValueError("a supervised EventMethod needs an encoder.")


EVENT_METHODS = {
    "hepa": EventMethod(
        "HEPA: pretrain HEPAPretrainer (the entry's protocol), then HEPAEventPredictor on frozen embeddings",
        encoder=pretrained_hepa, encoder_key="hepa",
    ),
    "hepa-random": EventMethod(
        "control: the hepa encoder at its initial weights (never pretrained), finetuned as hepa",
        encoder=untrained_hepa, encoder_key="hepa-random",
    ),
    "hepa-matched": EventMethod(
        "the hepa encoder with the paper's common baseline head (MatchedHeadPredictor) instead of pred-FT",
        encoder=pretrained_hepa, encoder_key="hepa", head=matched_head,
    ),
    "hepa-channel": EventMethod(
        "HEPA with one token stream per channel (tokens='channel'), pred-FT head",
        encoder=pretrained_hepa_channels, encoder_key="hepa-channel",
    ),
    "hepa-channel-random": EventMethod(
        "control: the hepa-channel encoder at its initial weights (never pretrained), finetuned as hepa-channel",
        encoder=untrained_hepa_channels, encoder_key="hepa-channel-random",
    ),
    "mae": EventMethod(
        "MAE baseline: the same causal encoder pretrained by masked-patch reconstruction, matched head",
        encoder=pretrained_mae, encoder_key="mae", head=matched_head,
    ),
    "patchtst": EventMethod(
        "PatchTST baseline: channel-independent patches, bidirectional attention, trained end to end with the "
        "cell's labels, then frozen; matched head",
        encoder=supervised_patchtst, encoder_key="patchtst", head=matched_head, supervised=True,
    ),
    "itransformer": EventMethod(
        "iTransformer baseline: one token per variate, attention across variates, trained end to end with the "
        "cell's labels, then frozen; matched head",
        encoder=supervised_itransformer, encoder_key="itransformer", head=matched_head, supervised=True,
    ),
    "hepa-default": EventMethod(
        "the plain pipeline make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=K)) with every other default, "
        "fitted on the labelled training windows alone",
        surface=default_pipeline,
    ),
    "hepa-default-rank": EventMethod(
        "candidate default: hepa-default with HEPAPretrainer(early_stopping_score=\"rank\"), pretraining stopped "
        "on the effective rank of the held-out windows' embeddings",
        surface=functools.partial(default_pipeline, early_stopping_score="rank"),
    ),
    "gbm": EventMethod(
        "GradientBoostingEventPredictor on summary features of the last 30 steps of the same windows",
        surface=gradient_boosting,
    ),
}


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
        threshold = best_f1_threshold(data.point_valid[known_valid], P_valid[known_valid, 0],
                                      point_adjusted=adjusted, groups=data.g_valid[known_valid])
        result[f"{key}_threshold"] = threshold
        result[key] = (float("nan") if np.isnan(threshold) else
                       f1_at_threshold(data.point_test[known_test], P_test[known_test, 0], threshold,
                                       point_adjusted=adjusted, groups=data.g_test[known_test]))
    alarm = false_alarm_threshold(data.y_valid, P_valid[:, -1], rate=FALSE_ALARM_RATE, horizon=entry.K)
    result["alarm_threshold"] = alarm
    result["event_recall"] = (float("nan") if np.isnan(alarm) else
                              event_recall(data.y_test, P_test[:, -1], alarm, horizon=entry.K, groups=data.g_test))
    result["false_alarm_rate"] = FALSE_ALARM_RATE
    return result


class _Encoded:
    """A fitted encoder with its embeddings of every part, and the wall and CPU seconds of fitting and embedding."""

    def __init__(self, encoder, data, fit_s, fit_cpu_s):
        start, cpu = time.perf_counter(), time.process_time()
        self.E_train, self.E_valid, self.E_test = (encoder.transform(X) for X in
                                                   (data.X_train, data.X_valid, data.X_test))
        self.embed_s, self.embed_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        self.fit_s, self.fit_cpu_s = fit_s, fit_cpu_s
        self.n_epochs = getattr(encoder, "n_epochs_", None)


def _fit_encoder(method, entry, data, fraction, *, pre_epochs, ft_epochs, device, seed):
    """``method``'s encoder fitted and timed, with its embeddings of every part.

    A supervised encoder trains on the labelled windows of ``fraction`` (so it
    serves that fraction alone); any other on the unlabelled windows.
    """
    start, cpu = time.perf_counter(), time.process_time()
    if method.supervised:
        encoder = method.encoder(entry, data, data.train_mask(fraction)[0], epochs=ft_epochs, device=device,
                                 seed=seed)
    else:
        encoder = method.encoder(entry, data, epochs=pre_epochs, device=device, seed=seed)
    return _Encoded(encoder, data, time.perf_counter() - start, time.process_time() - cpu)


def run_cell(entry, data, method, fraction, *, seed, finetune_epochs, device, encoded=None):
    """Fit one method on the labelled windows of ``fraction`` and score it (see :func:`score_surfaces`)."""
    mask, n_blocks = data.train_mask(fraction)
    info = {"n_label_blocks": int(n_blocks), "n_train_windows": int(mask.sum()),
            "n_valid_windows": len(data.X_valid), "n_test_windows": len(data.X_test),
            "n_pretrain_windows": len(data.X_pre)}
    start, cpu = time.perf_counter(), time.process_time()
    if method.surface is not None:
        model, extra = method.surface(entry, data.X_train[mask], data.y_train[mask], data.g_train[mask],
                                      data.X_valid, data.y_valid, seed=seed)
        fit_s, fit_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        start = time.perf_counter()
        P_valid, P_test = model.predict_proba(data.X_valid), model.predict_proba(data.X_test)
        info.update(extra, pretrain_s=0.0, pretrain_cpu_s=0.0, embed_s=0.0, embed_cpu_s=0.0)
    else:
        head = method.head(entry, encoded.E_train[mask], data.y_train[mask], encoded.E_valid, data.y_valid,
                           epochs=finetune_epochs, device=device, seed=seed)
        fit_s, fit_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        start = time.perf_counter()
        P_valid, P_test = head.predict_proba(encoded.E_valid), head.predict_proba(encoded.E_test)
        info.update(pretrain_s=encoded.fit_s, pretrain_cpu_s=encoded.fit_cpu_s, embed_s=encoded.embed_s,
                    embed_cpu_s=encoded.embed_cpu_s,
                    pretrain_epochs_run=encoded.n_epochs, finetune_epochs_run=getattr(head, "n_epochs_", None))
    info["predict_s"] = time.perf_counter() - start
    return {**info, **score_surfaces(entry, data, P_valid, P_test), "fit_s": fit_s, "cpu_s": fit_cpu_s}


def cell_key(record):
    return (record["dataset"], record["seed"], float(record["fraction"]), record["method"],
            record["pretrain_epochs"], record["finetune_epochs"])


def _check(datasets, methods, fractions, methods_table, registry):
    unknown = [name for name in datasets if name not in registry]
    if unknown:
        raise ValueError(f"unknown datasets {unknown}; choose from {list(registry)}.")
    unknown = [m for m in methods if m not in methods_table]
    if unknown:
        raise ValueError(f"unknown methods {unknown}; choose from {sorted(methods_table)}.")
    if any(not 0 < f <= 1 for f in fractions):
        raise ValueError(f"label fractions must lie in (0, 1], got {list(fractions)}.")


def run_events(*, datasets, seeds, fractions, methods, pretrain_epochs=None, finetune_epochs=None, device="auto",
               results=DEFAULT_RESULTS, data_home=None, max_cells=None, max_minutes=None, command=None,
               methods_table=None, registry=None, log=print):
    """Run every missing cell, appending each finished one to ``results``; returns the new records.

    ``pretrain_epochs``/``finetune_epochs`` of None take each entry's own
    (C-MAPSS 50/30 fixed, elsewhere at most 100/50 with early stopping);
    cells run with other epochs are other cells. The call ends before
    starting a cell once ``max_cells`` cells have run, or once ``max_minutes``
    have passed unless the cell reads an encoder this call has already
    fitted (the other label fractions of a pretrained encoder finish with
    it rather than costing a second pretraining in the next call). ``methods_table`` replaces :data:`EVENT_METHODS` and
    ``registry`` :data:`~hepa_sklearn.benchmarks.registry.BENCHMARKS` (for
    smaller variants of the protocol).
    """
    table = EVENT_METHODS if methods_table is None else methods_table
    registry = BENCHMARKS if registry is None else registry
    _check(datasets, methods, fractions, table, registry)
    done = {cell_key(r) for r in read_results(results) if "dataset" in r}

    def epochs(entry):
        return (entry.pretrain_epochs if pretrain_epochs is None else pretrain_epochs,
                entry.finetune_epochs if finetune_epochs is None else finetune_epochs)

    todo = [(name, seed, float(fraction), method)
            for name in datasets for seed in seeds for method in methods for fraction in fractions
            if (name, seed, float(fraction), method, *epochs(registry[name])) not in done]
    log(f"{len(todo)} cells to run, {len(done)} already in {results}")
    env = environment(device)
    records, start = [], time.perf_counter()
    data, encoders = {}, {}
    for i, (name, seed, fraction, method_name) in enumerate(todo):
        if max_cells is not None and i >= max_cells:
            log(f"stopping after {max_cells} cells; {len(todo) - i} left")
            break
        entry, method = registry[name], table[method_name]
        key = (method.encoder_key, fraction) if method.supervised else method.encoder_key
        fitted = (name, seed) in data and method.encoder is not None and key in encoders
        if max_minutes is not None and time.perf_counter() - start > 60 * max_minutes and not fitted:
            log(f"stopping after {max_minutes} minutes; {len(todo) - i} left")
            break
        pre_epochs, ft_epochs = epochs(entry)
        if (name, seed) not in data:
            data = {(name, seed): entry.load(seed, data_home=data_home)}  # one dataset in memory
            encoders = {}
        cell_data = data[(name, seed)]
        with uninterrupted(f"{name} seed {seed} {method_name} labels {fraction:g}", log):
            if method.encoder is not None and key not in encoders:
                encoders[key] = _fit_encoder(method, entry, cell_data, fraction, pre_epochs=pre_epochs,
                                             ft_epochs=ft_epochs, device=device, seed=seed)
            cell_start = time.perf_counter()
            result = run_cell(entry, cell_data, method, fraction, seed=seed, finetune_epochs=ft_epochs, device=device,
                              encoded=encoders[key] if method.encoder is not None else None)
        record = {
            "dataset": name, "seed": seed, "fraction": fraction, "method": method_name,
            "pretrain_epochs": pre_epochs, "finetune_epochs": ft_epochs, "device": device, "K": entry.K,
            **result, "cell_s": time.perf_counter() - cell_start,
            "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": command, **env,
        }
        append_record(results, record)
        records.append(record)
        log(f"[{i + 1}/{len(todo)}] {name} seed {seed} {method_name} labels {fraction:g}: "
            f"h-AUROC {record['h_auroc']:.4f} (valid {record['valid_h_auroc']:.4f}), F1 {record['f1']:.3f}, "
            f"PA-F1 {record['pa_f1']:.3f}, event recall {record['event_recall']:.3f} "
            f"| {(time.perf_counter() - start) / 60:.1f} min", flush=True)
    return records


def add_arguments(parser):
    parser.add_argument("--datasets", nargs="+", default=list(BENCHMARKS), metavar="NAME",
                        help=f"registry names: {', '.join(BENCHMARKS)}")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--label-fractions", nargs="+", type=float, default=[1.0, 0.1])
    parser.add_argument("--methods", nargs="+", default=["hepa", "gbm"], metavar="METHOD",
                        help=f"from: {', '.join(EVENT_METHODS)}")
    parser.add_argument("--pretrain-epochs", type=int, default=None,
                        help="pretraining epochs (most epochs under early stopping); default: each dataset's own")
    parser.add_argument("--finetune-epochs", type=int, default=None,
                        help="finetuning epochs (most epochs under early stopping); default: each dataset's own")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--data-home", default=None, help="folder of the datasets (default: $HEPA_DATA_HOME)")
    parser.add_argument("--results", default=DEFAULT_RESULTS, help="JSON-lines file, appended cell by cell")
    parser.add_argument("--max-cells", type=int, default=None, help="stop after this many cells")
    parser.add_argument("--max-minutes", type=float, default=None,
                        help="start no new cell after this many minutes")


def run(args):
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        run_events(
            datasets=args.datasets, seeds=args.seeds, fractions=args.label_fractions, methods=args.methods,
            pretrain_epochs=args.pretrain_epochs, finetune_epochs=args.finetune_epochs, device=args.device,
            results=args.results, data_home=args.data_home, max_cells=args.max_cells, max_minutes=args.max_minutes,
            command=command_line(), log=lambda message, **kw: print(message, flush=True),
        )
    except (ValueError, FileNotFoundError) as exc:  # an unknown name, or a dataset not in the data home
        raise SystemExit(f"hepa benchmark events: {exc}") from None
