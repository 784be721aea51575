"""CPU time until the FD001 protocol first reaches a held-out h-AUROC, epoch by epoch of finetuning.

The protocol's epoch counts are fixed in advance (50 pretraining epochs, 30
finetuning epochs, as the reference protocol); nothing is chosen on the test
units. After every finetuning epoch a callback scores the test units and
records the process CPU time spent so far, minus the time of these extra
evaluations, the same way the reference implementation is measured (its
per-epoch evaluation wraps its finetuning loop without changing it).

    OMP_NUM_THREADS=1 taskset -c 0 python benchmarks/experiments/time_to_quality/time_to_quality.py \
        --batch-layout packed > benchmarks/experiments/time_to_quality/time_to_quality.txt
"""

import argparse
import time

import torch
from hepa_bench.protocols import protocol_pretrainer
from skorch.callbacks import Callback

from hepa_sklearn.cmapss_protocol import SubsetSplit, protocol_event_predictor
from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.nn import event_surface


class HeldOutTrace(Callback):
    """After each epoch: held-out h-AUROC and process CPU seconds excluding these evaluations."""

    def __init__(self, E_test, y_test):
        self.E_test, self.y_test = E_test, y_test
        self.excluded = 0.0
        self.trace = []

    def on_epoch_end(self, net, **kwargs):
        start = time.process_time()
        with torch.no_grad():  # the event model has no dropout: train and eval mode agree
            surface = event_surface(net.module_(torch.as_tensor(self.E_test)))
        score = h_auroc(self.y_test, surface.numpy())
        self.excluded += time.process_time() - start
        self.trace.append((len(net.history), score, time.process_time() - self.excluded))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-layout", default="packed", choices=["packed", "padded"])
    parser.add_argument("--threshold", type=float, default=0.92)
    args = parser.parse_args()
    torch.set_num_threads(1)
    data = SubsetSplit("FD001", args.seed, regime=False)
    pretrainer = protocol_pretrainer(50, device="cpu", seed=args.seed, layout=args.batch_layout)
    pretrainer.fit(data.X_pre)
    pretrained_cpu = time.process_time()
    E_train, E_test = pretrainer.transform(data.X_train), pretrainer.transform(data.X_test)
    trace = HeldOutTrace(E_test, data.y_test)
    predictor = protocol_event_predictor(30, device="cpu", seed=args.seed, callbacks=[("held_out", trace)])
    predictor.fit(E_train, data.y_train)
    trace = dict(predictor.net_.callbacks_)["held_out"]  # fit works on a copy of the callback
    final = h_auroc(data.y_test, predictor.predict_proba(E_test))
    print(f"# FD001 seed {args.seed}, batch_layout={args.batch_layout}, one torch thread")
    print(f"# process CPU s after 50 pretraining epochs: {pretrained_cpu:.1f}")
    print("| finetuning epoch | held-out h-AUROC | process CPU s (excluding these evaluations) |")
    print("|---|---|---|")
    for epoch, score, cpu in trace.trace:
        print(f"| {epoch} | {score:.4f} | {cpu:.1f} |")
    reached = [(epoch, cpu) for epoch, score, cpu in trace.trace if score >= args.threshold]
    print(f"\nfinal held-out h-AUROC {final:.4f} (predict_proba; equals the last epoch's trace)")
    if reached:
        print(f"first reaches {args.threshold} after finetuning epoch {reached[0][0]} at {reached[0][1]:.1f} CPU s")
    else:
        print(f"never reaches {args.threshold}")


if __name__ == "__main__":
    main()
