"""The CPU clock of the experiments' in-process measurements (``benchmarks/experiments/``)."""

import time


def cpu_clock(task):
    """CPU seconds this process spends in ``task()``."""
    start = time.process_time()
    task()
    return time.process_time() - start
