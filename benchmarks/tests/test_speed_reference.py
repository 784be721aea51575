"""The speed benchmark beside the authors' implementation, against a stand-in checkout: pinning, pairs, paths."""

import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import torch
from hepa_bench.speed import protocol as speed
from hepa_bench.speed import reference as speed_reference
from hepa_bench.speed.reference import (
    REFERENCE_COMMIT,
    _core_plan,
    _pair_ratios,
    check_reference,
    compare_with_reference,
    portable_paths,
    prepare_reference_data,
    reference_table,
    summarize_pairs,
)

# --- side by side with the authors' implementation, against a stand-in checkout ---


def _meet(me, other):
    """Stand-in code that, with FAKE_MEET set, waits for the other side's run of the same number.

    Two runs started side by side are then both running at once however the
    machine schedules them.
    """
    return f'''
meet = os.environ.get("FAKE_MEET")
if meet:
    run = sum(name.startswith("{me}-") for name in os.listdir(meet)) + 1
    Path(meet, f"{me}-{{run}}").touch()
    deadline = time.time() + 60
    while not Path(meet, f"{other}-{{run}}").exists() and time.time() < deadline:
        time.sleep(0.01)
'''


# Stand-in for the reference's scripts/train.py: the same command line and
# metrics file, a little CPU work, and a JSON line saying what it was given.
FAKE_TRAIN = (
    """
import argparse, json, os, sys, time
from pathlib import Path

parser = argparse.ArgumentParser()
for flag in ("--dataset", "--out"):
    parser.add_argument(flag, required=True)
for flag in ("--seed", "--pre-epochs", "--ft-epochs"):
    parser.add_argument(flag, type=int, required=True)
args = parser.parse_args()
start = time.time()
"""
    + _meet("reference", "ours")
    + """if os.environ.get("FAKE_REFERENCE") == "fail":
    sys.stderr.write("Traceback (most recent call last):\\nFileNotFoundError: stand-in failure\\n")
    sys.exit(3)
data = Path(os.environ["HEPA_DATA_DIR"]) / "CMAPSS"
end = time.process_time() + 0.3
while time.process_time() < end:
    pass
seen = {
    "argv": sys.argv[1:], "cwd": os.getcwd(), "cores": sorted(os.sched_getaffinity(0)),
    "env": {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "PYTHONPATH",
                                            "PYTHONDONTWRITEBYTECODE", "CUDA_VISIBLE_DEVICES")},
    "data": sorted(p.name for p in data.iterdir()), "start": start, "end": time.time(),
}
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps({"reference": seen}) + "\\n")
if os.environ.get("FAKE_REFERENCE") != "no metrics":
    Path(args.out, f"{args.dataset}_s{args.seed}_metrics.json").write_text(json.dumps({"h_auroc": 0.75}))
"""
)

# Stand-in for this package's child run: CPU work, then the JSON result line.
FAKE_OURS = (
    """
import json, os, sys, time
from pathlib import Path
start = time.time()
"""
    + _meet("ours", "reference")
    + """end = time.process_time() + 0.3
while time.process_time() < end:
    pass
seen = {"argv": sys.argv[1:], "cores": sorted(os.sched_getaffinity(0)), "start": start, "end": time.time(),
        "env": {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}}
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(json.dumps({"hepa_sklearn": seen}) + "\\n")
print("progress")
print(json.dumps({"h_auroc": 0.5}))
"""
)


def _git(path, *args):
    return subprocess.run(
        ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


@pytest.fixture
def fake_reference(tmp_path, monkeypatch):
    """A git checkout holding the stand-in scripts/train.py, and its commit."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    path = tmp_path / "reference"
    (path / "scripts").mkdir(parents=True)
    (path / "scripts" / "train.py").write_text(FAKE_TRAIN)
    _git(path, "init", "-q")
    _git(path, "add", ".")
    _git(path, "commit", "-qm", "stand-in")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "seen.jsonl"))
    return path, _git(path, "rev-parse", "HEAD")


@pytest.fixture
def fake_ours(tmp_path):
    script = tmp_path / "ours.py"
    script.write_text(FAKE_OURS)
    return [sys.executable, str(script)]


def _seen(tmp_path):
    lines = (tmp_path / "seen.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_check_reference_refuses_another_commit_or_no_checkout(fake_reference, tmp_path):
    path, commit = fake_reference
    with pytest.raises(ValueError, match=f"at commit {commit}, not {REFERENCE_COMMIT}.*commit-check off"):
        check_reference(path)
    with pytest.raises(ValueError, match="commit-check off"):
        speed.main(["--reference", str(path), "--repeats", "1"])
    assert check_reference(path, None) == {
        "path": str(path.resolve()),
        "commit": commit,
        "modified": False,
        "expected_commit": None,
    }
    assert check_reference(path, commit)["commit"] == commit
    copy = tmp_path / "copy"
    shutil.copytree(path / "scripts", copy / "scripts")
    with pytest.raises(ValueError, match="not the top level of a git checkout"):
        check_reference(copy)
    assert check_reference(copy, None)["commit"] is None
    with pytest.raises(ValueError, match="no scripts/train.py"):
        check_reference(tmp_path)
    with pytest.raises(ValueError, match="'cpu' or 'cuda'"):
        speed.main(["--reference", str(path), "--device", "mps", "--reference-commit-check", "off"])
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="where torch sees a CUDA device"):
            speed.main(["--reference", str(path), "--device", "cuda", "--reference-commit-check", "off"])


def test_prepare_reference_data_writes_the_embedded_fd001_uncompressed(tmp_path):
    from hepa_sklearn.datasets import cmapss_file

    assert prepare_reference_data(tmp_path / "data") == tmp_path / "data"
    folder = tmp_path / "data" / "CMAPSS"
    assert sorted(p.name for p in folder.iterdir()) == ["RUL_FD001.txt", "test_FD001.txt", "train_FD001.txt"]
    for split in ("train", "test"):
        packed = cmapss_file(f"{split}_FD001.txt.gz").read_bytes()
        assert (folder / f"{split}_FD001.txt").read_bytes() == gzip.decompress(packed)
    train = (folder / "train_FD001.txt").read_text().splitlines()
    assert len(train[0].split()) == 26
    assert len({line.split()[0] for line in train}) == 100
    assert len((folder / "RUL_FD001.txt").read_text().split()) == 100


def test_core_plan_gives_disjoint_cores_side_by_side_and_shared_cores_in_turn():
    assert _core_plan(1, True, {3, 1, 2}) == ([1], [2])
    assert _core_plan(2, True, {0, 1, 2, 3}) == ([0, 1], [2, 3])
    assert _core_plan(1, False, {0, 1}) == ([0], [0])
    with pytest.raises(ValueError, match="needs 4 cores.*--sequential"):
        _core_plan(2, True, {0, 1})
    with pytest.raises(ValueError, match="needs 2 cores.*lower --threads"):
        _core_plan(2, False, {0})


def test_summarize_pairs_takes_ratios_within_each_measured_pair():
    def pair(ours, reference):
        sides = {
            side: {"wall_s": w, "cpu_s": c, "peak_rss_mb": m, "h_auroc": h}
            for side, (w, c, m, h) in (("hepa_sklearn", ours), ("reference", reference))
        }
        return {**sides, "ratios": _pair_ratios(sides["hepa_sklearn"], sides["reference"])}

    runs = [
        pair((10, 10, 100, 0.9), (20, 20, 50, 0.8)),
        pair((20, 10, 100, 0.9), (20, 40, 50, 0.8)),
        pair((40, 20, 100, 0.9), (20, 20, 50, 0.8)),
    ]
    assert runs[1]["ratios"] == {"wall_s": 1.0, "cpu_s": 4.0, "peak_rss_mb": 0.5}
    medians, ratios = summarize_pairs(runs)
    assert medians["hepa_sklearn"] == {"wall_s": 20, "cpu_s": 10, "peak_rss_mb": 100, "h_auroc": 0.9}
    assert medians["reference"] == {"wall_s": 20, "cpu_s": 20, "peak_rss_mb": 50, "h_auroc": 0.8}
    # the median of the ratios in each pair (2, 1, 0.5 and 2, 4, 1), not a ratio of medians
    assert ratios == {"wall_s": 1.0, "cpu_s": 2.0, "peak_rss_mb": 0.5}


def test_compare_with_reference_runs_both_side_by_side_pinned_with_the_same_threads(
    fake_reference, fake_ours, tmp_path, monkeypatch
):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("side by side needs two usable cores")
    path, commit = fake_reference
    (tmp_path / "meet").mkdir()
    monkeypatch.setenv("FAKE_MEET", str(tmp_path / "meet"))
    messages = []
    results = compare_with_reference(
        path,
        fake_ours,
        seed=3,
        pretrain_epochs=2,
        finetune_epochs=1,
        threads=1,
        repeats=2,
        side_by_side=True,
        expected_commit=commit,
        log=messages.append,
    )
    seen = _seen(tmp_path)
    ours = [entry["hepa_sklearn"] for entry in seen if "hepa_sklearn" in entry]
    theirs = [entry["reference"] for entry in seen if "reference" in entry]
    assert len(ours) == len(theirs) == 2 and len(messages) == 2
    for i, (mine, reference, run) in enumerate(zip(ours, theirs, results["runs"], strict=True)):
        out = reference["argv"][-1]
        assert reference["argv"] == [
            "--dataset",
            "FD001",
            "--seed",
            "3",
            "--pre-epochs",
            "2",
            "--ft-epochs",
            "1",
            "--out",
            out,
        ]
        assert Path(out).name == f"reference_run{i + 1}" and reference["cwd"] == out
        assert reference["env"] == {
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "PYTHONPATH": str(path),
            "PYTHONDONTWRITEBYTECODE": "1",
            "CUDA_VISIBLE_DEVICES": "",
        }
        assert mine["env"] == {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        assert reference["data"] == ["RUL_FD001.txt", "test_FD001.txt", "train_FD001.txt"]
        # each on its own core, both running at once
        assert len(mine["cores"]) == len(reference["cores"]) == 1 and mine["cores"] != reference["cores"]
        assert run["hepa_sklearn"]["cores"] == mine["cores"] and run["reference"]["cores"] == reference["cores"]
        assert max(mine["start"], reference["start"]) < min(mine["end"], reference["end"])
        assert run["hepa_sklearn"]["h_auroc"] == 0.5 and run["reference"]["h_auroc"] == 0.75
        for side in ("hepa_sklearn", "reference"):
            assert run[side]["cpu_s"] >= 0.3 and run[side]["wall_s"] >= 0.3 and run[side]["peak_rss_mb"] > 1
        assert run["ratios"] == {
            key: run["reference"][key] / run["hepa_sklearn"][key] for key in ("wall_s", "cpu_s", "peak_rss_mb")
        }
    # the core sets swap between repeats
    assert ours[0]["cores"] == theirs[1]["cores"] and ours[1]["cores"] == theirs[0]["cores"]
    assert results["ratio"] == summarize_pairs(results["runs"])[1]
    assert results["mode"] == "side by side" and results["threads"] == 1
    assert results["reference"]["commit"] == commit and results["reference"]["modified"] is False
    assert run["reference"]["argv"][1] == str(path / "scripts" / "train.py")
    assert run["hepa_sklearn"]["argv"] == fake_ours
    assert "42" in results["note"]
    assert _git(path, "status", "--porcelain", "--ignored") == ""
    table = reference_table(results)
    assert table[5].startswith("| hepa_sklearn ") and table[6].startswith(f"| reference ({commit[:7]}) | ")
    assert table[6].endswith("| 0.7500 |") and table[7].endswith("| not paired |")
    assert table[9] == results["note"]
    # the stand-ins stay below the floor this process sets
    assert results["rss_floor_mb"] > 1 and "upper bound" in table[-1]
    json.dumps(results)


def test_compare_with_reference_in_turn_shares_the_cores(fake_reference, fake_ours, tmp_path):
    path, commit = fake_reference
    results = compare_with_reference(
        path, fake_ours, repeats=1, side_by_side=False, expected_commit=commit, log=lambda message: None
    )
    mine, reference = (entry[side] for entry, side in zip(_seen(tmp_path), ("hepa_sklearn", "reference"), strict=True))
    assert mine["cores"] == reference["cores"] == [min(os.sched_getaffinity(0))]
    assert mine["end"] <= reference["start"]
    assert results["mode"] == "sequential"


def test_compare_with_reference_times_each_variant_against_the_pairs_reference_run(fake_reference, fake_ours, tmp_path):
    path, commit = fake_reference
    variants = {"cheaper": [*fake_ours, "--cheaper"], "cheapest": [*fake_ours, "--cheapest"]}
    results = compare_with_reference(
        path, fake_ours, repeats=2, side_by_side=False, expected_commit=commit, variants=variants, log=lambda m: None
    )
    seen = _seen(tmp_path)
    # each pair: this package's main run, then its variants in the order given, on its cores; then the reference
    assert [next(iter(entry)) for entry in seen] == ["hepa_sklearn"] * 3 + ["reference"] + ["hepa_sklearn"] * 3 + [
        "reference"
    ]
    assert [entry["hepa_sklearn"]["argv"] for entry in seen[:3]] == [[], ["--cheaper"], ["--cheapest"]]
    for run in results["runs"]:
        assert list(run["variants"]) == ["cheaper", "cheapest"]
        for label, variant in run["variants"].items():
            assert variant["argv"] == variants[label] and variant["h_auroc"] == 0.5
            assert variant["ratios"] == {
                key: run["reference"][key] / variant[key] for key in ("wall_s", "cpu_s", "peak_rss_mb")
            }
    summary = results["variants"]["cheapest"]
    assert summary["ratio"]["cpu_s"] == pytest.approx(
        statistics.median(run["variants"]["cheapest"]["ratios"]["cpu_s"] for run in results["runs"])
    )
    assert summary["median"]["wall_s"] == statistics.median(
        run["variants"]["cheapest"]["wall_s"] for run in results["runs"]
    )
    table = reference_table(results)
    assert table[8].startswith("| hepa_sklearn, cheaper | ") and table[8].endswith("| 0.5000 |")
    assert table[9].startswith("| reference / hepa_sklearn, cheaper | ") and table[11].endswith("| not paired |")
    json.dumps(results)


def test_speed_command_passes_the_protocol_options_to_each_configuration(fake_reference, tmp_path, monkeypatch):
    path, _ = fake_reference
    given = {}

    def recorded(reference, our_argv, **settings):
        given.update(our_argv=our_argv, **settings)
        raise SystemExit(0)

    monkeypatch.setattr(speed_reference, "compare_with_reference", recorded)
    with pytest.raises(SystemExit):
        speed.main(
            ["--reference", str(path), "--horizon-knots", "12", "--also", "paper", "cuts_per_unit=30,horizon_knots=12"]
        )
    assert given["our_argv"][-4:] == ["--horizon-knots", "12", "--threads", "1"]
    assert list(given["variants"]) == ["paper", "cuts_per_unit=30, horizon_knots=12"]
    assert given["variants"]["paper"][-2:] == ["--threads", "1"] and "--horizon-knots" not in given["variants"]["paper"]
    assert given["variants"]["cuts_per_unit=30, horizon_knots=12"][-6:] == [
        "--cuts-per-unit",
        "30",
        "--horizon-knots",
        "12",
        "--threads",
        "1",
    ]


@pytest.mark.parametrize("text", ["fast", "horizon_knots=", "horizon_knots=twelve", "cuts=30", "paper,horizon_knots=3"])
def test_speed_command_refuses_unknown_protocol_options(text, capsys):
    with pytest.raises(SystemExit) as exit_info:
        speed.main(["--reference", "nowhere", "--also", text])
    assert exit_info.value.code == 2
    assert "expected 'paper' or name=integer pairs of ['cuts_per_unit', 'horizon_knots']" in capsys.readouterr().err


@pytest.mark.parametrize(
    "mode, message",
    [
        ("fail", r"reference implementation failed with exit code 3: .*train\.py[^\n]*\n.*stand-in failure"),
        ("no metrics", r"exited normally but its metrics file .*FD001_s0_metrics\.json has no readable h_auroc"),
    ],
)
def test_compare_with_reference_reports_a_failed_reference_run(fake_reference, fake_ours, monkeypatch, mode, message):
    path, commit = fake_reference
    monkeypatch.setenv("FAKE_REFERENCE", mode)
    with pytest.raises(RuntimeError, match=re.compile(message, re.S)):
        compare_with_reference(
            path, fake_ours, repeats=1, side_by_side=False, expected_commit=commit, log=lambda message: None
        )


def test_benchmark_speed_reference_command_writes_the_results(fake_reference, fake_ours, tmp_path, monkeypatch, capsys):
    path, _ = fake_reference
    given = {}

    def with_fake_ours(reference, our_argv, **settings):
        given.update(our_argv=our_argv, **settings)
        return compare_with_reference(reference, fake_ours, **settings)

    monkeypatch.setattr(speed_reference, "compare_with_reference", with_fake_ours)
    output = tmp_path / "results.json"
    speed.main(
        [
            "--reference",
            str(path),
            "--reference-commit-check",
            "off",
            "--sequential",
            "--repeats",
            "1",
            "--seed",
            "2",
            "--pretrain-epochs",
            "1",
            "--finetune-epochs",
            "1",
            "--output",
            str(output),
        ]
    )
    assert given["our_argv"][1:4] == ["-m", "hepa_bench.speed", "--one-run"]
    assert given["our_argv"][-2:] == ["--threads", "1"]
    assert given["expected_commit"] is None and given["side_by_side"] is False and given["seed"] == 2
    results = json.loads(output.read_text())
    assert {
        "command",
        "python",
        "machine",
        "torch",
        "threads",
        "mode",
        "pinning",
        "hepa_sklearn",
        "reference",
        "environment",
        "runs",
        "median",
        "ratio",
        "note",
    } <= set(results)
    assert results["protocol"] == {
        "dataset": "FD001",
        "seed": 2,
        "pretrain_epochs": 1,
        "finetune_epochs": 1,
        "repeats": 1,
    }
    printed = capsys.readouterr().out
    assert "| reference / hepa_sklearn |" in printed and str(output) in printed
    # no path of this machine: the checkout is named as given, the interpreter and the work folder generically
    for run in results["runs"]:
        assert run["hepa_sklearn"].pop("argv")[0] == "python"  # the rest is the stand-in script in tmp_path
    text = json.dumps(results)
    assert str(tmp_path) not in text and sys.executable not in text and tempfile.gettempdir() + "/" not in text
    assert results["python"] == "python" and results["reference"]["path"] == path.name
    assert results["environment"]["reference"]["PYTHONPATH"] == path.name
    assert results["environment"]["reference"]["HEPA_DATA_DIR"] == "TMPDIR/hepa-reference/data"
    argv = results["runs"][0]["reference"]["argv"]
    assert argv[:2] == ["python", f"{path.name}/scripts/train.py"]
    assert argv[-1] == "TMPDIR/hepa-reference/reference_run1"
    assert not results["command"].startswith("/")


def test_portable_paths_keeps_a_relative_reference_as_given(tmp_path):
    checkout = tmp_path / "refs" / "HEPA"
    checkout.mkdir(parents=True)
    work = Path(tempfile.gettempdir()) / "hepa-reference-abc_12"
    results = {
        "reference": {"path": str(checkout)},
        "python": sys.executable,
        "runs": [
            {"argv": [sys.executable, str(checkout / "scripts" / "train.py"), "--out", str(work / "reference_run1")]}
        ],
        "count": 3,
        "other": str(checkout) + "-copy",
    }
    given = portable_paths(results, "refs/HEPA", cwd=tmp_path)
    assert given == {
        "reference": {"path": "refs/HEPA"},
        "python": "python",
        "runs": [{"argv": ["python", "refs/HEPA/scripts/train.py", "--out", "TMPDIR/hepa-reference/reference_run1"]}],
        "count": 3,
        "other": str(checkout) + "-copy",
    }
    assert results["python"] == sys.executable  # the input is left alone
    # outside the working folder only the checkout's own name is kept
    assert portable_paths(results, checkout, cwd=tmp_path / "elsewhere")["reference"]["path"] == "HEPA"


def test_reference_pretraining_pairs_the_seeds_and_tests_the_difference():
    import importlib.util

    from scipy import stats

    path = Path(__file__).parents[1] / "experiments" / "reference_pretraining" / "reference_pretraining.py"
    spec = importlib.util.spec_from_file_location("reference_pretraining", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runs = [
        {"seed": s, "pretrain_epochs": e, "h_auroc": h}
        for s, e, h in (
            (0, 0, 0.90),
            (0, 50, 0.92),
            (1, 0, 0.91),
            (1, 50, 0.90),
            (2, 0, 0.93),
            (2, 50, 0.95),
            (3, 50, 0.99),
        )
    ]
    lines = module.summarize({"runs": runs})
    assert "| 0 | 0.9000 | 0.9200 | +0.0200 |" in lines
    assert "| mean | 0.9133 | 0.9233 | +0.0100 |" in lines  # seed 3 has no untrained run: left out
    p = stats.ttest_rel([0.92, 0.90, 0.95], [0.90, 0.91, 0.93]).pvalue
    assert f"p = {p:.3f}" in lines[-1]
