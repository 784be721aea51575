"""Results files under faults: appends killed at random points, a torn last line, two processes appending at once.

The children really run ``append_record`` and are really killed
(SIGKILL); the file is then read back as a resumed sweep reads it.
"""

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hepa_bench.results import append_record, read_results

REPOSITORY = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs fcntl and POSIX signals")


def child(code, tmp_path, *argv):
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(code))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPOSITORY), str(REPOSITORY / "benchmarks")]),
        "OMP_NUM_THREADS": "1",
    }
    return subprocess.Popen(
        [sys.executable, str(script), *map(str, argv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )


def lines_of(path):
    """The file's lines (bytes), the last one without its newline if it has none."""
    return path.read_bytes().split(b"\n")


def test_a_torn_last_line_is_skipped_and_the_next_record_starts_on_a_new_line(tmp_path):
    path = tmp_path / "results.jsonl"
    append_record(path, {"cell": 0})
    with open(path, "ab") as handle:
        handle.write(b'{"cell": 1, "h_auroc": 0.9')  # a record cut short by a kill
    assert read_results(path) == [{"cell": 0}]
    append_record(path, {"cell": 1})
    assert read_results(path) == [{"cell": 0}, {"cell": 1}]
    assert lines_of(path) == [b'{"cell": 0}', b'{"cell": 1, "h_auroc": 0.9', b'{"cell": 1}', b""]
    # a record whole but for its newline is a record, and the next one is not glued to it
    with open(path, "ab") as handle:
        handle.write(b'{"cell": 2}')
    append_record(path, {"cell": 3})
    assert [record["cell"] for record in read_results(path)] == [0, 1, 2, 3]


def test_lines_that_are_no_record_are_skipped(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_bytes(b'{"cell": 0}\n[1, 2]\n"text"\n\xff\xfe\n\n{"cell": 1}\n')
    assert read_results(path) == [{"cell": 0}, {"cell": 1}]


SWEEP = """
import sys
import time
from hepa_bench.results import append_record, read_results

path, n_cells, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
done = {record["cell"] for record in read_results(path)}  # as the runner resumes: skip what is recorded
print("ready", flush=True)
for cell in range(n_cells):
    if cell not in done:
        time.sleep(0.001)  # the cell's work
        append_record(path, {"cell": cell, "payload": "x" * size})
print("finished", flush=True)
"""


def test_a_sweep_killed_at_random_points_resumes_without_lost_or_repeated_cells(tmp_path):
    path, n_cells, size = tmp_path / "results.jsonl", 3000, 20_000
    rng = random.Random()
    for _ in range(4):
        sweep = child(SWEEP, tmp_path, path, n_cells, size)
        assert sweep.stdout.readline() == "ready\n", sweep.stderr.read()[-3000:]
        time.sleep(rng.uniform(0.0, 1.0))
        os.kill(sweep.pid, signal.SIGKILL)
        sweep.communicate(timeout=60)
        lines = lines_of(path) if path.exists() else [b""]
        # every line but the last is a whole record; the last is empty or cut short by the kill
        for line in lines[:-1]:
            if line:  # an empty line only follows a torn one
                json.loads(line)
    sweep = child(SWEEP, tmp_path, path, n_cells, size)
    out, err = sweep.communicate(timeout=300)
    assert "finished" in out, err[-3000:]
    cells = [record["cell"] for record in read_results(path)]
    assert sorted(cells) == list(range(n_cells))  # none lost, none twice
    for line in lines_of(path)[:-1]:
        try:
            record = json.loads(line)
        except ValueError:
            assert not line.endswith(b"}")  # a torn piece, never a record glued to another
            continue
        assert set(record) == {"cell", "payload"} and len(record["payload"]) == size


WRITER = """
import os, sys, time
from hepa_bench.results import append_record

path, name, go = sys.argv[1], sys.argv[2], sys.argv[3]
print("ready", flush=True)
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(500):
    append_record(path, {"writer": name, "i": i, "payload": name * (1 + (i * 7919) % 20000)})
"""


def test_two_processes_appending_500_records_each_leave_1000_whole_lines(tmp_path):
    path, go = tmp_path / "results.jsonl", tmp_path / "go"
    writers = [child(WRITER, tmp_path, path, name, go) for name in ("a", "b")]
    for writer in writers:
        assert writer.stdout.readline() == "ready\n", writer.stderr.read()[-3000:]
    go.touch()
    for writer in writers:
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err[-3000:]
    lines = lines_of(path)
    assert lines[-1] == b"" and len(lines) == 1001
    records = [json.loads(line) for line in lines[:-1]]  # every line whole: none torn, none interleaved
    for name in ("a", "b"):
        mine = [record for record in records if record["writer"] == name]
        assert [record["i"] for record in mine] == list(range(500))
        assert all(record["payload"] == name * (1 + (record["i"] * 7919) % 20000) for record in mine)
    assert read_results(path) == records


FIELDS = {("dataset", "subset"): str, "seed": int, "fraction": (int, float), "method": str}


@pytest.mark.parametrize(
    "line, problem",
    [
        ('{"dataset": "X", "fraction": 1.0, "method": "m"}', r"no field 'seed'"),
        ('{"seed": 0, "fraction": 1.0, "method": "m"}', r"no field 'dataset' or 'subset'"),
        ('{"dataset": "X", "seed": 0, "fraction": "x", "method": "m"}',
         r"field 'fraction' is \"x\", not a number"),
        ('{"dataset": "X", "seed": 0, "fraction": NaN, "method": "m"}',
         r"field 'fraction' is NaN, not a finite"),
        ('{"dataset": "X", "seed": true, "fraction": 1.0, "method": "m"}',
         r"field 'seed' is true, not an integer"),
        ("[1, 2]", r"a JSON array, not an object"),
        ('"text"', r"a JSON string, not an object"),
    ],
)  # fmt: skip
def test_a_damaged_record_is_named_by_file_line_and_field_or_skipped_with_a_warning(tmp_path, line, problem):
    path = tmp_path / "results.jsonl"
    good = '{"subset": "X", "seed": 0, "fraction": 1, "method": "m"}'
    path.write_text(f"{good}\n{{torn\n{line}\n")
    with pytest.raises(ValueError, match=rf"^{path}, line 3: {problem}"):
        read_results(path, FIELDS)
    with pytest.warns(UserWarning, match=rf"^{path}, line 3: skipped, {problem}"):
        assert read_results(path, FIELDS, damaged="warn") == [json.loads(good)]
    assert read_results(path) == [json.loads(good)] + ([json.loads(line)] if line.startswith("{") else [])
