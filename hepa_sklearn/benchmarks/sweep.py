"""C-MAPSS benchmark sweep: HEPA and baselines over subsets, seeds and label fractions, resumable.

Every finished cell (subset, seed, label fraction, method) is appended to a
JSON-lines results file as soon as it ends; a rerun skips the cells already
there, so a long sweep survives interruption. Pretraining runs once per
(subset, seed, pretraining variant) and its fitted pretrainer is cached on
disk (:mod:`hepa_sklearn.benchmarks.cache`), so the label fractions and
finetuning variants reuse one encoder.
"""

import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np
import torch

from ..baselines import GradientBoostingEventPredictor
from ..calibration import SurfaceCalibrator
from ..datasets._cmapss import RUL_CAP, SUBSETS, K
from ..finetune import HEPAFinetuner
from ..metrics import expected_calibration_error, h_auroc, rul_rmse, surface_metrics
from ..surface import expected_time_to_event, make_survival_y
from .cache import read_cached, write_cached
from .protocol import SubsetSplit, default_pipeline, label_units, protocol_event_predictor, protocol_pretrainer
from .results import append_record, command_line, environment, read_results, uninterrupted
from .snapshots import kept_epoch, pretrain_with_snapshots, with_state

__all__ = ["ABLATIONS", "METHODS", "Method", "evaluate", "fit_calibrators", "pretrain", "run_cell", "run_sweep"]

DEFAULT_RESULTS = "cmapss_results.jsonl"


@dataclass(frozen=True)
class Method:
    """One column of the benchmark: how windows are prepared, pretrained and finetuned.

    ``kind`` is ``"hepa"`` (pretrain, then a predictor on frozen embeddings),
    ``"e2e"`` (pretrain, then encoder and head finetuned together),
    ``"gbm"`` (the gradient-boosting baseline on raw windows) or
    ``"default"`` (the plain pipeline with every default,
    :func:`~hepa_sklearn.benchmarks.protocol.default_pipeline`).
    ``pretrain`` and ``finetune`` are extra estimator parameters; methods
    with equal ``regime``, ``untrained`` and ``pretrain`` share one
    pretrained encoder. ``untrained`` keeps the encoder's initial weights
    (same seed, architecture and input statistics, never pretrained).
    """

    kind: str
    regime: bool = False
    untrained: bool = False
    pretrain: dict = field(default_factory=dict)
    finetune: dict = field(default_factory=dict)
    description: str = ""

    def pretrain_key(self):
        return json.dumps({"regime": self.regime, "untrained": self.untrained, **self.pretrain}, sort_keys=True)


METHODS = {
    "hepa": Method("hepa", description="HEPA pred-FT, global z-score (the paper's protocol)"),
    "hepa-random": Method(
        "hepa", untrained=True,
        description="control: the hepa encoder at its initial weights (never pretrained), finetuned as hepa",
    ),
    "hepa-random-regime": Method(
        "hepa", regime=True, untrained=True,
        description="control: the hepa-regime encoder at its initial weights, finetuned as hepa-regime",
    ),
    "hepa-random-e2e": Method(
        "e2e", untrained=True,
        description="control: hepa-e2e from the encoder's initial weights (end-to-end training, no pretraining)",
    ),
    "hepa-ctxreg": Method(
        "hepa", pretrain={"regularize": "both"},
        description="variant: SIGReg on the context representations h_t as well as on the predictions",
    ),
    "hepa-uniform": Method(
        "hepa", pretrain={"horizons": "uniform"},
        description="variant: pretraining horizons Δt uniform on 1..150 instead of log-uniform",
    ),
    "hepa-packed": Method(
        "hepa", pretrain={"batch_layout": "packed"},
        description="hepa pretrained with the packed batch layout (cuts of a unit share a context pass)",
    ),
    "hepa-sigreg-high": Method(
        "hepa", pretrain={"batch_layout": "packed", "sigreg_weight": 1.0},
        description="variant: hepa-packed, SIGReg weight α = 1 (the loss (1 - α)·L1 + α·SIGReg is SIGReg alone)",
    ),
    "hepa-sigreg-low": Method(
        "hepa", pretrain={"batch_layout": "packed", "sigreg_weight": 0.01},
        description="variant: hepa-packed with SIGReg weight α = 0.01 instead of 0.1 (SIGReg:L1 about 1:99, not 1:9)",
    ),
    "hepa-sigreg-mid": Method(
        "hepa", pretrain={"batch_layout": "packed", "sigreg_weight": 0.5},
        description="variant: hepa-packed with SIGReg weight α = 0.5 (SIGReg:L1 1:1, nine times the paper's 1:9)",
    ),
    "hepa-revin": Method(
        "hepa", pretrain={"batch_layout": "packed", "norm": "revin"},
        description="variant: hepa-packed normalising each context by its own statistics (RevIN) instead of the "
                    "global z-score, which removes the absolute degradation level",
    ),
    "hepa-rankstop": Method(
        "hepa", pretrain={"batch_layout": "packed", "early_stopping": True, "early_stopping_score": "rank",
                          "validation_fraction": 0.2},
        description="variant: hepa-packed stopped by the label-free rank rule: a fifth of the pretraining units "
                    "held out, the weights of the epoch whose held-out embeddings have the highest effective rank",
    ),
    "hepa-within": Method(
        "hepa", pretrain={"batch_layout": "packed", "regularize": "within"},
        description="variant: hepa-packed with SIGReg also on h_t centred within each unit's cuts, so that the "
                    "representation keeps moving along a unit instead of coding which unit it is",
    ),
    "hepa-change": Method(
        "hepa", pretrain={"batch_layout": "packed", "objective": "change"},
        description="variant: hepa-packed predicting the change of the representation, h* - h_t, instead of h*, "
                    "so that what stays constant along a unit cancels out of the target",
    ),
    "hepa-proj1024": Method(
        "hepa", pretrain={"batch_layout": "packed", "n_projections": 1024},
        description="variant: hepa-packed with 1024 SIGReg projections instead of 256",
    ),
    "hepa-lowlr": Method(
        "hepa", pretrain={"batch_layout": "packed", "lr": 3e-5},
        description="variant: hepa-packed with pretraining learning rate 3e-5 (a tenth of 3e-4)",
    ),
    "hepa-constlr": Method(
        "hepa", pretrain={"batch_layout": "packed", "lr_schedule": "constant"},
        description="variant: hepa-packed with a constant pretraining learning rate instead of cosine annealing",
    ),
    "hepa-regime": Method(
        "hepa", regime=True,
        description="HEPA pred-FT on per-operating-condition z-scores (RegimeNormalizer)",
    ),
    "hepa-regime-nll": Method(
        "hepa", regime=True, finetune={"loss": "nll"},
        description="hepa-regime finetuned with the discrete-time survival likelihood instead of BCE",
    ),
    "hepa-vicreg": Method(
        "hepa", pretrain={"regularizer": "vicreg"},
        description="ablation: VICReg-style variance + covariance instead of SIGReg",
    ),
    "hepa-ema": Method("hepa", pretrain={"target": "ema"}, description="ablation: EMA target encoder"),
    "hepa-linear": Method("hepa", finetune={"head": "linear"}, description="ablation: linear probe on h_t"),
    "hepa-e2e": Method("e2e", description="ablation: end-to-end finetuning of encoder and head"),
    "hepa-nll": Method(
        "hepa", finetune={"loss": "nll"}, description="ablation: discrete-time survival likelihood instead of BCE"
    ),
    "hepa-default": Method(
        "default", description="the plain pipeline make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150)) with "
                               "every other default, fitted on the labelled training windows alone",
    ),
    "hepa-default-rank": Method(
        "default", pretrain={"early_stopping_score": "rank"},
        description="candidate default: hepa-default with HEPAPretrainer(early_stopping_score=\"rank\"), "
                    "pretraining stopped on the effective rank of the held-out windows' embeddings",
    ),
    "gbm": Method("gbm", description="HistGradientBoostingRegressor on summary features of the last 30 steps"),
    "gbm-regime": Method("gbm", regime=True, description="the same baseline on per-operating-condition z-scores"),
}


# the paper's ablations (§4.4), compared with "hepa" on FD001 and FD003
ABLATIONS = ("hepa-vicreg", "hepa-ema", "hepa-linear", "hepa-e2e", "hepa-nll")


def pretrain(data, method, *, pretrain_epochs, device, seed, cache_dir=None):
    """Fitted pretrainer and its training seconds, read from the cache when there."""
    config = {
        "subset": data.subset, "seed": seed, "regime": method.regime, "pretrain_epochs": pretrain_epochs,
        "device": device, "params": method.pretrain,
    }
    if method.untrained:
        start = time.perf_counter()
        pretrainer, states = pretrain_with_snapshots(
            data.X_pre, epochs=[0], pretrain_epochs=1, device=device, seed=seed, **method.pretrain
        )
        return with_state(pretrainer, states[0]), time.perf_counter() - start
    name = f"pretrainer_{data.subset}_seed{seed}_{'regime' if method.regime else 'global'}_e{pretrain_epochs}"
    cached = read_cached(cache_dir, name, config) if cache_dir else None
    if cached is not None:
        return cached
    start = time.perf_counter()
    with uninterrupted():  # a fit that caught a Ctrl-C ended early: neither cache nor use the weights
        pretrainer = protocol_pretrainer(pretrain_epochs, device=device, seed=seed, **method.pretrain).fit(data.X_pre)
    seconds = time.perf_counter() - start
    if cache_dir:
        write_cached(cache_dir, name, config, pretrainer, seconds)
    return pretrainer, seconds


def fit_calibrators(P_valid, y_valid):
    """Isotonic and Platt calibrators fitted on the validation units' surface; the error text where one cannot fit."""
    calibrators = {}
    for method in ("isotonic", "sigmoid"):
        try:
            calibrators[method] = SurfaceCalibrator(method=method).fit(P_valid, y_valid)
        except ValueError as exc:  # e.g. a surface anti-correlated with the validation labels
            calibrators[method] = str(exc)
    return calibrators


def evaluate(model_surface, data, fraction_fit_seconds):
    """All metrics of one fitted model: test units, validation units, calibration, NASA test split."""
    start = time.perf_counter()
    P_test = model_surface(data.X_test)
    predict_s = time.perf_counter() - start
    P_valid = model_surface(data.X_valid)
    X_nasa, rul_nasa = data.nasa
    P_nasa = model_surface(X_nasa)
    result = surface_metrics(data.y_test, P_test, cap=RUL_CAP)
    result["valid_h_auroc"] = h_auroc(data.y_valid, P_valid)
    for method, calibrator in fit_calibrators(P_valid, data.y_valid).items():
        if isinstance(calibrator, str):
            result[f"ece_{method}"] = float("nan")
            result[f"ece_{method}_error"] = calibrator
        else:
            result[f"ece_{method}"] = expected_calibration_error(data.y_test, calibrator.predict_proba(P_test))
    y_nasa = make_survival_y(np.ones(len(rul_nasa), bool), rul_nasa)
    result["nasa_rmse"] = rul_rmse(y_nasa, expected_time_to_event(P_nasa), cap=RUL_CAP)
    result["fit_s"] = fraction_fit_seconds
    result["predict_s"] = predict_s
    return result


def run_cell(data, method, fraction, *, seed, pretrain_epochs, finetune_epochs, device, cache_dir,
             pretrained=None):
    """Fit one method on the first units of ``fraction`` of the training list and evaluate it."""
    mask = data.train_mask(fraction)
    X_train, y_train = data.X_train[mask], data.y_train[mask]
    info = {"n_label_units": len(label_units(data.split.train, fraction)), "n_train_windows": int(mask.sum())}
    if method.kind == "gbm":
        start = time.perf_counter()
        model = GradientBoostingEventPredictor(K=K, random_state=seed, **method.finetune).fit(
            X_train, y_train, groups=data.g_train[mask])
        result = evaluate(model.predict_proba, data, time.perf_counter() - start)
        return {**info, **result, "pretrain_s": 0.0}
    if method.kind == "default":
        start = time.perf_counter()
        # fitted on the labelled training windows alone: the protocol's pretraining set and the validation
        # units are not used
        pipe = default_pipeline(K, seed=seed, device=device, **method.pretrain).fit(X_train, y_train)
        result = evaluate(pipe.predict_proba, data, time.perf_counter() - start)
        return {**info, **result, "pretrain_s": 0.0, "pretrain_epochs_run": pipe[0].n_epochs_,
                "pretrain_epoch_kept": kept_epoch(pipe[0]), "finetune_epochs_run": pipe[-1].n_epochs_}

    pretrainer, pretrain_s = pretrained if pretrained else pretrain(
        data, method, pretrain_epochs=pretrain_epochs, device=device, seed=seed, cache_dir=cache_dir
    )
    if pretrainer.early_stopping:  # a label-free stopping rule chose the pretraining epoch
        info.update(pretrain_epochs_run=pretrainer.n_epochs_, pretrain_epoch_kept=kept_epoch(pretrainer))
    start = time.perf_counter()
    if method.kind == "e2e":
        model = HEPAFinetuner(
            pretrainer, K=K, max_epochs=finetune_epochs, early_stopping=False, device=device, random_state=seed,
            **method.finetune,
        ).fit(X_train, y_train)
        result = evaluate(model.predict_proba, data, time.perf_counter() - start)
        return {**info, **result, "pretrain_s": pretrain_s}
    predictor = protocol_event_predictor(finetune_epochs, device=device, seed=seed, **method.finetune)
    predictor.fit(pretrainer.transform(X_train), y_train)
    fit_s = time.perf_counter() - start
    result = evaluate(lambda X: predictor.predict_proba(pretrainer.transform(X)), data, fit_s)
    return {**info, **result, "pretrain_s": pretrain_s}


def cell_key(record):
    return (record["subset"], record["seed"], float(record["fraction"]), record["method"],
            record["pretrain_epochs"], record["finetune_epochs"])


def run_sweep(*, subsets, seeds, fractions, methods, pretrain_epochs=50, finetune_epochs=30, device="auto",
              results=DEFAULT_RESULTS, cache_dir=None, command=None, log=print):
    """Run every missing cell, appending each finished one to ``results``; returns the new records."""
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown methods {unknown}; choose from {sorted(METHODS)}.")
    unknown = [s for s in subsets if s not in SUBSETS]
    if unknown:
        raise ValueError(f"unknown subsets {unknown}; choose from {list(SUBSETS)}.")
    if any(not 0 < f <= 1 for f in fractions):
        raise ValueError(f"label fractions must lie in (0, 1], got {list(fractions)}.")
    done = {cell_key(r) for r in read_results(results)}
    # methods sharing windows and a pretrained encoder run one after another
    order = sorted(methods, key=lambda m: (METHODS[m].regime, METHODS[m].pretrain_key(), m))
    todo = [
        (subset, seed, float(fraction), name)
        for subset in subsets for seed in seeds for name in order for fraction in fractions
        if (subset, seed, float(fraction), name, pretrain_epochs, finetune_epochs) not in done
    ]
    log(f"{len(todo)} cells to run, {len(done)} already in {results}")
    env = environment(device)
    records, start = [], time.perf_counter()
    data, pretrained = {}, {}
    for i, (subset, seed, fraction, name) in enumerate(todo):
        method = METHODS[name]
        data_key = (subset, seed, method.regime)
        if data_key not in data:
            data = {data_key: SubsetSplit(subset, seed, regime=method.regime)}  # one subset in memory
        pre_key = (subset, seed, method.pretrain_key())
        if method.kind in ("hepa", "e2e") and pre_key not in pretrained:
            pretrained = {pre_key: pretrain(data[data_key], method, pretrain_epochs=pretrain_epochs,
                                            device=device, seed=seed, cache_dir=cache_dir)}
        cell_start = time.perf_counter()
        with uninterrupted(f"{subset} seed {seed} {name} labels {fraction:g}", log):
            result = run_cell(
                data[data_key], method, fraction, seed=seed, pretrain_epochs=pretrain_epochs,
                finetune_epochs=finetune_epochs, device=device, cache_dir=cache_dir,
                pretrained=pretrained.get(pre_key),
            )
        record = {
            "subset": subset, "seed": seed, "fraction": fraction, "method": name,
            "pretrain_epochs": pretrain_epochs, "finetune_epochs": finetune_epochs, "device": device,
            **result, "cell_s": time.perf_counter() - cell_start,
            "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": command, **env,
        }
        append_record(results, record)
        records.append(record)
        elapsed = time.perf_counter() - start
        eta = elapsed / (i + 1) * (len(todo) - i - 1)
        log(f"[{i + 1}/{len(todo)}] {subset} seed {seed} {name} labels {fraction:g}: "
            f"h-AUROC {record['h_auroc']:.4f}, ECE {record['ece']:.3f}, NASA RMSE {record['nasa_rmse']:.1f} "
            f"| elapsed {elapsed / 60:.1f} min, ETA {eta / 60:.1f} min", flush=True)
    return records


def add_arguments(parser):
    parser.add_argument("--subsets", nargs="+", default=list(SUBSETS), choices=SUBSETS)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--label-fractions", nargs="+", type=float, default=[1.0, 0.1, 0.05, 0.02, 0.01])
    parser.add_argument("--methods", nargs="+", default=["hepa", "gbm"], choices=sorted(METHODS))
    parser.add_argument("--pretrain-epochs", type=int, default=50)
    parser.add_argument("--finetune-epochs", type=int, default=30)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--results", default=DEFAULT_RESULTS, help="JSON-lines file, appended cell by cell")
    parser.add_argument("--cache-dir", default=None,
                        help="where fitted pretrainers are kept between runs (default: cache/ beside the results)")


def run(args):
    if args.cache_dir is None:
        args.cache_dir = os.path.join(os.path.dirname(args.results) or ".", "cache")
    if args.threads:
        torch.set_num_threads(args.threads)
    run_sweep(
        subsets=args.subsets, seeds=args.seeds, fractions=args.label_fractions, methods=args.methods,
        pretrain_epochs=args.pretrain_epochs, finetune_epochs=args.finetune_epochs, device=args.device,
        results=args.results, cache_dir=args.cache_dir, command=command_line(),
        log=lambda message, **kw: print(message, flush=True),
    )
