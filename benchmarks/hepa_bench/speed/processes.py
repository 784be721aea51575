"""Child processes timed from outside: exit code, wall and CPU seconds, peak RSS, output.

The speed benchmark runs every measured protocol run in a child process of
its own, so that its CPU time and peak resident size are the child's alone
(read by ``os.wait4``), and pins it to chosen cores before it starts.
"""

import functools
import json
import os
import shlex
import subprocess
import tempfile
import time

__all__ = ["Child", "check_exit", "child_result", "thread_env", "timed_child"]


class Child:
    """A child process started on construction, its output kept in temporary files.

    ``cores`` pins the child to those CPU cores (set in the child before it
    executes ``argv``, so every thread it starts inherits the mask).
    """

    def __init__(self, argv, *, env=None, cores=None, cwd=None):
        self.argv = [str(arg) for arg in argv]
        self.stdout = tempfile.TemporaryFile("w+")
        self.stderr = tempfile.TemporaryFile("w+")
        pin = None if cores is None else functools.partial(os.sched_setaffinity, 0, tuple(cores))
        self.start = time.perf_counter()
        self.process = subprocess.Popen(
            self.argv, stdout=self.stdout, stderr=self.stderr, env=env, cwd=cwd, preexec_fn=pin
        )

    def wait(self):
        """Wait for the exit: exit code, wall and CPU seconds, peak RSS, stdout and stderr."""
        _, status, usage = os.wait4(self.process.pid, 0)
        wall = time.perf_counter() - self.start
        self.process.returncode = os.waitstatus_to_exitcode(status)
        output = {}
        for name, handle in (("stdout", self.stdout), ("stderr", self.stderr)):
            handle.seek(0)
            output[name] = handle.read()
            handle.close()
        return {
            "argv": self.argv,
            "returncode": self.process.returncode,
            "wall_s": wall,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024,  # Linux reports KiB
            **output,
        }


def check_exit(what, finished, tail_lines=20):
    """Raise ``RuntimeError`` with the end of the child's output if it failed."""
    if finished["returncode"]:
        tail = (finished["stderr"].strip() or finished["stdout"].strip()).splitlines()[-tail_lines:]
        raise RuntimeError(
            f"{what} failed with exit code {finished['returncode']}: {shlex.join(finished['argv'])}\n" + "\n".join(tail)
        )


def child_result(finished):
    """The JSON result a run of this package printed last, with its wall, CPU time and peak RSS."""
    check_exit("benchmark run", finished)
    lines = finished["stdout"].strip().splitlines()
    try:
        result = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError) as exc:
        raise RuntimeError(
            f"benchmark run {shlex.join(finished['argv'])} printed no JSON result line; its output ended "
            f"with {lines[-1:]!r}"
        ) from exc
    result.update({key: finished[key] for key in ("wall_s", "cpu_s", "peak_rss_mb")})
    return result


def timed_child(argv, **child):
    """Run ``argv`` in a child process; its JSON result plus wall, CPU time and peak RSS."""
    return child_result(Child(argv, **child).wait())


def thread_env(threads, **extra):
    """This environment with the OpenMP and MKL pools set to ``threads`` and ``extra`` added."""
    env = dict(os.environ)
    if threads:
        env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    env.update(extra)
    return env
