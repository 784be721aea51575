"""Processes that die: a save killed at random points leaves a whole file, an interrupted fit leaves nothing fitted.

Each test runs the work in a child process and really kills or interrupts
it (SIGKILL at random times, SIGINT, SIGTERM), then checks what is left.
"""

import json
import os
import random
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from hepa_sklearn.persistence import load

REPOSITORY = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends POSIX signals")

# two event models of different weights, and the embeddings both take (the child builds the same)
MODELS = """
import numpy as np
from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.surface import make_survival_y

rng = np.random.default_rng(0)
E = rng.normal(size=(64, 128)).astype("float32")
y = make_survival_y(rng.random(64) < 0.7, rng.integers(1, 8, 64))
models = [HEPAEventPredictor(K=8, hidden=512, max_epochs=1, batch_size=64, early_stopping=False,
                             random_state=seed).fit(E, y) for seed in (0, 1)]
"""


def start(code, tmp_path):
    """A child process running ``code`` (after the imports of the package), with pipes for its output."""
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(code))
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY), "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path
    )


def wait_for(child, prefix, timeout=120):
    """The first line of the child's output starting with ``prefix``; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([child.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = child.stdout.readline()
        if not line:
            pytest.fail(f"the child ended before printing {prefix!r}: {child.stderr.read()[-3000:]}")
        if line.startswith(prefix):
            return line
    child.kill()
    pytest.fail(f"the child printed no {prefix!r} within {timeout} s")


def finish(child, timeout=120):
    """The child's remaining output once it has ended."""
    out, err = child.communicate(timeout=timeout)
    return out, err


def test_a_save_killed_at_random_points_leaves_the_previous_or_the_new_file(tmp_path):
    code = (
        MODELS
        + """
import sys
from hepa_sklearn.persistence import save

save(models[0], "first.pt")
save(models[1], "second.pt")
print("ready", flush=True)
for i in range(10**9):  # save one model, then the other, over the same file, until killed
    save(models[i % 2], "model.pt")
    if i == 0:
        print("saved", flush=True)
"""
    )
    rng = random.Random()
    E = np.random.default_rng(0).normal(size=(64, 128)).astype("float32")
    kills_mid_save = 0
    for _ in range(4):
        child = start(code, tmp_path)
        wait_for(child, "ready")
        wait_for(child, "saved")
        time.sleep(rng.uniform(0.0, 0.4))
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=60)
        child.stdout.close()
        child.stderr.close()
        leftovers = list(tmp_path.glob(".model.pt.*.part"))
        kills_mid_save += bool(leftovers)
        references = [load(tmp_path / name).predict_proba(E) for name in ("first.pt", "second.pt")]
        surface = load(tmp_path / "model.pt").predict_proba(E)
        assert any(np.array_equal(surface, reference) for reference in references)
        for leftover in leftovers:  # what a killed save leaves beside the file is never read
            leftover.unlink()
    # the loop spends nearly all its time inside save, so kills land in the middle of one
    assert kills_mid_save >= 1


FIT = """
import json, signal, sys
import numpy as np
from skorch.callbacks import Callback
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted
from hepa_sklearn import HEPAPretrainer


class Tell(Callback):
    def on_epoch_end(self, net, **kwargs):
        print("epoch", len(net.history), flush=True)


# A process started in the background inherits SIGINT ignored; Ctrl-C's default handler makes
# this test independent of how the suite was started.
signal.signal(signal.SIGINT, signal.default_int_handler)
if sys.argv[1:] == ["term"]:
    def stop(signum, frame):
        sys.exit(143)

    signal.signal(signal.SIGTERM, stop)
X = np.random.default_rng(0).normal(size=(64, 2, 48)).astype("float32")
model = HEPAPretrainer(d_model=16, n_heads=2, n_layers=1, K=16, max_epochs=100000, batch_size=16,
                       early_stopping=False, random_state=0, callbacks=[Tell()])
try:
    model.fit(X)
    outcome = {"raised": None}
except (KeyboardInterrupt, SystemExit) as exc:
    outcome = {"raised": type(exc).__name__, "message": str(exc)}
try:
    check_is_fitted(model)
    outcome["fitted"] = True
except NotFittedError:
    outcome["fitted"] = False
outcome["attributes"] = sorted(name for name in vars(model) if name.endswith("_"))
print("outcome", json.dumps(outcome), flush=True)
"""


def interrupted_fit(tmp_path, signum, argv=(), attempts=3):
    """The outcome the child reports after ``signum`` reaches it during fit.

    A child that ends without reporting (once in CI, with nothing on stderr:
    a kill from outside, such as the memory killer's) is started again, up to
    ``attempts`` times; the failure then names each exit status.
    """
    code_path = tmp_path / "fit.py"
    code_path.write_text(FIT)
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY), "OMP_NUM_THREADS": "1"}
    silent = []
    for _ in range(attempts):
        child = subprocess.Popen(
            [sys.executable, str(code_path), *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        wait_for(child, "epoch")
        time.sleep(random.uniform(0.0, 0.3))
        os.kill(child.pid, signum)
        out, err = finish(child)
        lines = [line for line in out.splitlines() if line.startswith("outcome ")]
        if lines:
            return json.loads(lines[0][len("outcome ") :])
        silent.append(f"exit status {child.returncode}, stdout ends {out[-300:]!r}, stderr ends {err[-3000:]!r}")
    pytest.fail("the child never reported its outcome: " + "; ".join(silent))


def test_ctrl_c_during_fit_raises_and_leaves_the_estimator_unfitted(tmp_path):
    outcome = interrupted_fit(tmp_path, signal.SIGINT)
    assert outcome["raised"] == "KeyboardInterrupt"
    assert "HEPAPretrainer.fit was interrupted after" in outcome["message"]
    assert "nothing was fitted" in outcome["message"]
    assert outcome["fitted"] is False and outcome["attributes"] == []


def test_sigterm_during_fit_under_a_handler_leaves_the_estimator_unfitted(tmp_path):
    outcome = interrupted_fit(tmp_path, signal.SIGTERM, ["term"])
    assert outcome["raised"] == "SystemExit"
    assert outcome["fitted"] is False and outcome["attributes"] == []
