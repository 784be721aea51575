"""``hepa protocol`` with every stage timed in CPU seconds of the process instead of wall seconds.

Runs ``hepa_sklearn.cli.main(["protocol", ...])`` unchanged except that the
protocol's stage clock (``time.perf_counter`` in ``hepa_sklearn.cmapss_protocol``)
reads ``time.process_time``, so the printed stage times are CPU seconds;
the last line adds the whole process's CPU seconds (user + system, from
``getrusage``, imports included) and peak RSS. Arguments after the script
name go to ``hepa protocol``, for example::

    OMP_NUM_THREADS=1 taskset -c 0 python benchmarks/experiments/demo_cpu/demo_cpu.py --threads 1

To time another checkout of the library, put it first on ``PYTHONPATH``.
"""

import resource
import sys
import time
import types

import hepa_sklearn
import hepa_sklearn.cmapss_protocol
from hepa_sklearn.cli import main

if __name__ == "__main__":
    hepa_sklearn.cmapss_protocol.time = types.SimpleNamespace(perf_counter=time.process_time)
    print(f"library: {hepa_sklearn.__file__}", flush=True)
    code = main(["protocol", *sys.argv[1:]])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"process CPU s {usage.ru_utime + usage.ru_stime:.1f}, peak RSS {usage.ru_maxrss / 1024:.0f} MB")
    sys.exit(code)
