"""Peak memory of transform + predict_proba against the number of windows, default-size models.

The models (HEPAPretrainer and HEPAEventPredictor at their default sizes,
d_model 256 and K 150) are fitted for one epoch on 64 random windows and
saved once; every measurement then runs in a fresh child process, which
loads them and embeds and scores ``n`` random windows of C-MAPSS shape
(14 channels x 512 steps) kept in a float32 file under the temporary
directory (200,000 windows are 5,469 MB; MB is 2**20 bytes throughout).
Two ways of feeding the windows:

- ``whole``: ``transform`` on the whole file opened as a ``np.memmap``, then
  ``predict_proba`` on all embeddings. The pages of the file the child reads
  count in its RSS, so the whole input is part of the peak.
- ``chunks``: windows read from the file ``--chunk`` at a time into ordinary
  arrays, each chunk embedded and scored, results written into the (n, d)
  and (n, K) outputs; only one chunk of input is in memory at a time.

Per row: the input held in memory at once (14 x 512 float32 per window), the
outputs (embeddings (n, 256) float32 plus the surface (n, 150) float64), the
child's RSS after imports and model loading (base), its peak RSS (from
``os.wait4``), and the peak minus base, input and outputs: the working
memory, which should not grow with ``n``.

Linux starts a child's peak RSS at its parent's RSS when the child is
spawned, so this parent imports nothing heavy (fitting the models and
writing the windows run in a child too) and every child also reports its
own high-water mark (``VmHWM``); the two agree to within the parent's few MB.

Usage::

    OMP_NUM_THREADS=1 hepa-bench memory --sizes 20000 200000 > benchmarks/outputs/memory_cpu.txt

(``hepa-bench memory`` replaces itself with ``python`` running this file, so the
parent holds no torch.)
"""

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

N_CHANNELS, N_STEPS = 14, 512  # C-MAPSS: 14 informative sensors, contexts up to 512 cycles
MB = 2**20
# a child whose heap and anonymous memory outgrow this raises MemoryError instead of
# pushing a shared machine (23 GB here) into the kernel's out-of-memory killer
DATA_LIMIT = 16 * 2**30


def high_water_mb():
    """Peak RSS of this process (VmHWM; file-backed pages of a memmap count too)."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def prepare(directory, n, chunk):
    """Child: fit default-size models for one epoch on 64 random windows and save them;
    write ``n`` random windows (n, 14, 512) float32 to ``directory / "windows.f32"``."""
    # numpy, torch and the package are imported in the children only, to keep the parent small
    import numpy as np
    import torch

    from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
    from hepa_sklearn.persistence import save
    from hepa_sklearn.surface import make_survival_y

    rng = np.random.default_rng(0)
    X = rng.standard_normal((64, N_CHANNELS, N_STEPS), dtype=np.float32)
    y = make_survival_y(rng.random(64) < 0.8, rng.integers(1, 200, 64))
    settings = dict(max_epochs=1, early_stopping=False, random_state=0, device="cpu")
    pretrainer = HEPAPretrainer(**settings).fit(X)
    save(pretrainer, directory / "pretrainer.pt")
    save(HEPAEventPredictor(K=150, **settings).fit(pretrainer.transform(X), y), directory / "event.pt")
    level = rng.normal(scale=10.0, size=(1, N_CHANNELS, 1)).astype(np.float32)
    with open(directory / "windows.f32", "wb") as file:
        for start in range(0, n, chunk):
            part = rng.standard_normal((min(chunk, n - start), N_CHANNELS, N_STEPS), dtype=np.float32)
            (part + level).tofile(file)
    print(
        json.dumps(
            {
                "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores, Python "
                f"{platform.python_version()}, numpy {np.__version__}, torch {torch.__version__}, "
                f"{torch.get_num_threads()} torch thread(s)"
            }
        )
    )


def measure(directory, mode, n, chunk):
    """Child: load the models, embed and score ``n`` windows of the file; one JSON line."""
    import warnings

    import numpy as np

    from hepa_sklearn.persistence import load

    pretrainer, event = load(directory / "pretrainer.pt"), load(directory / "event.pt")
    base_mb = high_water_mb()
    start = time.perf_counter()
    if mode == "whole":
        # read-only, so the mapping does not count against DATA_LIMIT; nothing writes to it
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
        X = np.memmap(directory / "windows.f32", dtype=np.float32, mode="r", shape=(n, N_CHANNELS, N_STEPS))
        E = pretrainer.transform(X)
        P = event.predict_proba(E)
    else:
        E = np.empty((n, pretrainer.d_model), dtype=np.float32)
        P = np.empty((n, event.K), dtype=np.float64)
        with open(directory / "windows.f32", "rb") as file:
            for begin in range(0, n, chunk):
                count = min(chunk, n - begin)
                X = np.fromfile(file, dtype=np.float32, count=count * N_CHANNELS * N_STEPS)
                E[begin : begin + count] = pretrainer.transform(X.reshape(count, N_CHANNELS, N_STEPS))
                P[begin : begin + count] = event.predict_proba(E[begin : begin + count])
    seconds = time.perf_counter() - start
    assert P.shape == (n, event.K) and np.isfinite(P).all()
    print(
        json.dumps(
            {
                "base_mb": base_mb,
                "own_peak_mb": high_water_mb(),
                "seconds": seconds,
                "output_bytes": E.nbytes + P.nbytes,
            }
        )
    )


def run_child(*args, limit=None):
    """Run this script with ``args`` in a child; its last stdout line as JSON (None when it failed
    or printed nothing) and its peak RSS in MB."""
    set_limit = (lambda: resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))) if limit else None
    child = subprocess.Popen(
        [sys.executable, __file__, *map(str, args)], stdout=subprocess.PIPE, text=True, preexec_fn=set_limit
    )
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    lines = output.strip().splitlines()
    result = json.loads(lines[-1]) if child.returncode == 0 and lines else None
    return result, usage.ru_maxrss / 1024  # Linux reports KiB


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--prepare"]:
        return prepare(Path(argv[1]), int(argv[2]), int(argv[3]))
    if argv[:1] == ["--measure"]:
        return measure(Path(argv[1]), argv[2], int(argv[3]), int(argv[4]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--modes", nargs="+", choices=["whole", "chunks"], default=["whole", "chunks"])
    parser.add_argument("--chunk", type=int, default=4096, help="windows per chunk in the chunks mode")
    args = parser.parse_args(argv)

    print(
        f"# OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')} hepa-bench memory " + " ".join(argv),
        flush=True,
    )
    directory = Path(tempfile.mkdtemp(prefix="hepa_memory_"))
    try:
        prepared, _ = run_child("--prepare", directory, max(args.sizes), args.chunk)
        if prepared is None:
            raise RuntimeError("preparing the models and windows failed")
        print(f"# {prepared['machine']}", flush=True)
        header = (
            "mode",
            "n_windows",
            "input held MB",
            "output MB",
            "base MB",
            "peak RSS MB",
            "own VmHWM MB",
            "peak - input - output MB",
            "peak - base - input - output MB",
            "seconds",
        )
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header), flush=True)
        for mode in args.modes:
            for n in args.sizes:
                result, peak = run_child("--measure", directory, mode, n, args.chunk, limit=DATA_LIMIT)
                held = n if mode == "whole" else min(n, args.chunk)
                input_mb = held * N_CHANNELS * N_STEPS * 4 / MB
                if result is None:
                    row = (mode, n, input_mb, "failed (MemoryError above the data limit?)", peak)
                else:
                    output_mb, base = result["output_bytes"] / MB, result["base_mb"]
                    row = (
                        mode,
                        n,
                        input_mb,
                        output_mb,
                        base,
                        peak,
                        result["own_peak_mb"],
                        peak - input_mb - output_mb,
                        peak - base - input_mb - output_mb,
                        result["seconds"],
                    )
                print("| " + " | ".join(f"{v:.0f}" if isinstance(v, float) else str(v) for v in row) + " |", flush=True)
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
