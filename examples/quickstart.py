"""
The README's Quickstart
=======================

Fit on C-MAPSS FD001's training engines, score NASA's held-out test engines.

Run with ``python examples/quickstart.py``; it prints the held-out h-AUROC
and the wall time.
"""

import time

from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.datasets import load_cmapss

start = time.perf_counter()
train = load_cmapss("FD001")  # 100 run-to-failure engines, windows every 4 cycles
test = load_cmapss("FD001", split="test", stride=4)  # 100 other engines, cut short, true RUL known
# the defaults: an encoder never pretrained, windows standardised per operating regime where the
# data has regimes, then per window, with each channel's level passed on beside the embedding
pipe = make_pipeline(HEPAPretrainer(random_state=0), HEPAEventPredictor(K=150, random_state=0))
pipe.fit(train.X, train.y)
surface = pipe.predict_proba(test.X)  # (n_windows, 150), non-decreasing along each row
print(
    f"held-out h-AUROC {h_auroc(test.y, surface):.3f} "
    f"({len(train.X)} training and {len(test.X)} test windows, {time.perf_counter() - start:.0f} s)"
)
