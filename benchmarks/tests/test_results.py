"""Results files and what a record stores about its run: torn lines, portable commands, CPU kernels, Ctrl-C."""

import json
import os
import signal
import subprocess
import sys

import pytest
import torch
from hepa_bench.results import append_record, command_line, environment, noting_interrupts, read_results


def test_records_are_appended_and_a_torn_last_line_is_ignored(tmp_path):
    path = tmp_path / "out" / "results.jsonl"
    assert read_results(path) == []  # an absent file has none
    record = {
        "dataset": "FD001",
        "seed": 0,
        "fraction": 1.0,
        "method": "hepa",
        "pretrain_epochs": 1,
        "finetune_epochs": 1,
    }
    append_record(path, record)
    with open(path, "a") as handle:
        handle.write('{"dataset": "FD0')
    assert read_results(path) == [record]


def test_a_stored_command_names_no_folder_of_the_machine(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    outside = str(tmp_path / "elsewhere" / "data")
    command = command_line(
        [
            "run",
            "--datasets",
            "TEP",
            "--data-home",
            outside,
            "--results",
            str(work / "out" / "r.jsonl"),
            f"--snapshots={tmp_path / 'c'}",
        ]
    )
    assert command == (
        "OMP_NUM_THREADS=1 hepa-bench run --datasets TEP --data-home $HEPA_DATA_HOME "
        "--results out/r.jsonl --snapshots=c"
    )
    assert str(tmp_path) not in command
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert command_line(["report", "--output", "docs/b.md"]) == "hepa-bench report --output docs/b.md"


def test_records_name_the_cpu_kernels_they_ran_on():
    # seeded fits recompute exactly only under the same kernels, so a record says which ran
    env = environment()
    assert env["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert "accelerator" not in env and set(env["versions"]) >= {"hepa_sklearn", "torch", "numpy"}
    json.dumps(env)
    code = "from hepa_bench.results import environment; print(environment()['cpu_capability'])"
    child = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    out = subprocess.run([sys.executable, "-c", code], env=child, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "DEFAULT"


def test_noting_interrupts_sees_a_ctrl_c_that_a_fit_swallowed_and_restores_the_handler(swallowed_ctrl_c):
    before = signal.getsignal(signal.SIGINT)
    with noting_interrupts() as caught:
        swallowed_ctrl_c()
    assert caught == [signal.SIGINT] and signal.getsignal(signal.SIGINT) is before
    with noting_interrupts() as caught:
        pass
    assert caught == [] and signal.getsignal(signal.SIGINT) is before


@pytest.mark.parametrize("interrupted", [False, True])
def test_uninterrupted_stops_the_run_after_a_swallowed_ctrl_c(interrupted, swallowed_ctrl_c):
    from hepa_bench.results import uninterrupted

    logged = []
    if not interrupted:
        with uninterrupted("a cell", lambda message, **kw: logged.append(message)):
            pass
        assert logged == []
        return
    with pytest.raises(KeyboardInterrupt):
        with uninterrupted("a cell", lambda message, **kw: logged.append(message)):
            swallowed_ctrl_c()
    assert logged == ["interrupted during a cell; it is not recorded"]
