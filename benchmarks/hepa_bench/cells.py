"""One cell of the benchmark: a method fitted on the labelled windows of one label fraction, then scored.

:func:`run_cell` fits the method's head on the shared embeddings of an
:class:`Encoded` encoder, or its surface model on the windows, and scores
it: on the test windows, every threshold chosen on the validation windows
(:func:`score_surfaces`, and :func:`cmapss_scores` on C-MAPSS), or on the
validation windows alone (:func:`score_validation`). The runner
(:mod:`hepa_bench.runner`) chooses the cells, shares the encoders and
writes the records.
"""

import time

import numpy as np

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.calibration import SurfaceCalibrator
from hepa_sklearn.cmapss_protocol import RUL_CAP
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

from .protocols import kept_epoch

__all__ = ["FALSE_ALARM_RATE", "Encoded", "cmapss_scores", "run_cell", "score_surfaces", "score_validation"]

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


class Encoded:
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
        # ε: the pretrained JEPA's prediction error on the validation windows (one cut each), as the paper's
        # bound reads it
        self.epsilon = None
        if isinstance(encoder, HEPAPretrainer) and self.n_epochs:
            try:
                self.epsilon = encoder.pretraining_loss(data.X_valid, cuts_per_window=1, seed=0)["l1"]
            except ValueError:  # no validation window holds two usable (cut, horizon) pairs
                pass


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
