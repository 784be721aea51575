"""Child processes timed from outside: a failed run names its command and the end of its output."""

import sys

import pytest
from hepa_bench.speed.processes import timed_child


def test_timed_child_reports_a_failed_run():
    with pytest.raises(RuntimeError, match="benchmark run failed with exit code 1: .*\n.*broken"):
        timed_child([sys.executable, "-c", "import sys; sys.exit('broken')"])
