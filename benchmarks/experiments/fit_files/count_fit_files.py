"""How many of the package's files a small default fit passes through, and which.

``make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150))`` (every other
parameter at its default, ``random_state=0``) is fitted on the first
``--windows`` training windows of the embedded C-MAPSS FD001 data
(``load_cmapss("FD001")``). The package and the data are loaded before the
fit; during the fit a profile function (``sys.setprofile``, also set for new
threads) records the file of every Python function called. The files under
the ``hepa_sklearn`` package directory are counted and listed, each with the
number of its distinct functions that ran::

    OMP_NUM_THREADS=1 python benchmarks/experiments/fit_files/count_fit_files.py

A figure to watch, not a limit: it says how many places one reads to follow
a first fit.
"""

import argparse
import sys
import threading
from collections import defaultdict
from pathlib import Path

from sklearn.pipeline import make_pipeline

import hepa_sklearn
from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.datasets import load_cmapss

PACKAGE = Path(hepa_sklearn.__file__).resolve().parent


def fit_files(pipe, X, y):
    """The package files whose functions ``pipe.fit(X, y)`` calls: ``{relative path: set of function names}``."""
    called = defaultdict(set)

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            called[code.co_filename].add((code.co_firstlineno, code.co_name))

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        pipe.fit(X, y)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    files = {}
    for filename, functions in called.items():
        path = Path(filename).resolve()
        if path.is_relative_to(PACKAGE):
            files[path.relative_to(PACKAGE.parent).as_posix()] = {name for _, name in functions}
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=400, help="training windows fitted on (default 400)")
    args = parser.parse_args()
    data = load_cmapss("FD001")
    X, y = data.X[: args.windows], data.y[: args.windows]
    pipe = make_pipeline(HEPAPretrainer(random_state=0), HEPAEventPredictor(K=150, random_state=0))
    files = fit_files(pipe, X, y)
    print(
        f"make_pipeline(HEPAPretrainer(), HEPAEventPredictor(K=150)).fit on {len(X)} FD001 training windows "
        f"passes through {len(files)} files of hepa_sklearn:"
    )
    for name in sorted(files):
        count = len(files[name])
        print(f"  {name} ({count} function{'' if count == 1 else 's'})")


if __name__ == "__main__":
    main()
