"""The training example runs end to end — generated traces, PPO, export, compare — in a short
smoke run, so it cannot rot. Skipped where stable-baselines3 (and PyTorch) are not installed."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPOSITORY

EXAMPLE = REPOSITORY / "python" / "examples" / "train_ppo.py"


def first_traces(pensieve_inputs: dict, folder: Path, count: int) -> Path:
    """The first `count` of Pensieve's test traces, copied into `folder`."""
    folder.mkdir()
    for trace in sorted(Path(pensieve_inputs["traces"]).iterdir())[:count]:
        shutil.copy(trace, folder / trace.name)
    return folder


def run_example(arguments: list[str], pensieve_inputs: dict, abrlab_bin: str) -> str:
    """Runs the example with SB3 (skipping without it) on Pensieve's video; its stdout."""
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install './python[sb3]')")
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install './python[sb3]')")
    command = [sys.executable, str(EXAMPLE), *arguments, "--video", pensieve_inputs["video"]]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "ABRLAB_BIN": abrlab_bin})
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_train_ppo_smoke_run(pensieve_inputs, abrlab_bin, tmp_path):
    # A dozen of the test traces keep the comparison short under a debug build of abrlab.
    test = first_traces(pensieve_inputs, tmp_path / "test-traces", 12)
    out = run_example(["--seconds", "10", "--synthetic", "20", "--num-envs", "8", "--test", str(test), "--out", str(tmp_path / "out")],
                      pensieve_inputs, abrlab_bin)
    assert len(list((tmp_path / "out" / "train-traces").iterdir())) == 20
    assert (tmp_path / "out" / "ppo.safetensors").is_file()
    assert (tmp_path / "out" / "compare" / "sessions.csv").read_text().count("\nmlp,") == 12
    for strategy in ("mlp", "pensieve-native", "robust_mpc-native", "bba-native", "genet"):
        assert re.search(rf"^{re.escape(strategy)}\s+mean QoE\s+-?\d+\.\d{{3}}, startup\s+\d+\.\d\d s$", out, re.MULTILINE), out
    assert re.search(r"^mlp with its first segment at level 1, as the rules start: mean QoE\s+-?\d+\.\d{3}$", out, re.MULTILINE), out
    assert re.search(r"trained [\d,]+ steps in \d+ s", out), out


def test_train_ppo_with_its_own_traces_saves_into_a_new_out_folder(pensieve_inputs, abrlab_bin, tmp_path):
    # --train DIR with --out NEW: the out folder is made before training (it was made only where
    # the example generated traces, so the run died exporting after its whole budget).
    train = first_traces(pensieve_inputs, tmp_path / "train", 4)
    out = tmp_path / "new" / "nested"
    run_example(["--seconds", "3", "--num-envs", "4", "--train", str(train), "--test", str(train), "--out", str(out)],
                pensieve_inputs, abrlab_bin)
    assert (out / "ppo.safetensors").is_file()


def test_train_ppo_refuses_an_out_folder_it_cannot_write_before_training(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    command = [sys.executable, str(EXAMPLE), "--seconds", "600", "--out", str(blocked / "out")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert f"--out {blocked / 'out'}: cannot write there" in result.stderr, result.stderr


def test_train_ppo_learning_curve_from_one_start(pensieve_inputs, abrlab_bin, tmp_path):
    # Pensieve's training traces (a few), every strategy from level 2 (the rules' own start), the held-out mean QoE
    # every 2 s of training: the curve's points, the rules' lines, and the figure.
    train = Path(pensieve_inputs["traces"]).parent / "cooked_traces"
    if not train.is_dir():
        pytest.skip(f"{train} is not there (Pensieve's training traces, ../shared/datasets/pensieve)")
    train_subset = tmp_path / "train"
    train_subset.mkdir()
    for trace in sorted(train.iterdir())[:6]:
        shutil.copy(trace, train_subset / trace.name)
    test = first_traces(pensieve_inputs, tmp_path / "test-traces", 6)
    out_folder = tmp_path / "out"
    out = run_example(["--seconds", "5", "--eval-every", "2", "--first-level", "2", "--num-envs", "4", "--train", str(train_subset),
                       "--test", str(test), "--out", str(out_folder)], pensieve_inputs, abrlab_bin)
    rows = (out_folder / "curve.csv").read_text().splitlines()
    # mlp_kept: the policy kept on the training traces (--select-every's default, 60 s: here the end's choice only).
    assert rows[0] == "train_seconds,steps,mlp,mlp_kept,pensieve-native,robust_mpc-native,bba-native,genet"
    points = [row.split(",") for row in rows[1:]]
    assert len(points) >= 2, rows
    seconds = [float(point[0]) for point in points]
    steps = [int(point[1]) for point in points]
    assert seconds == sorted(seconds) and steps == sorted(steps) and steps[-1] > 0
    # The last point's kept policy is the one compared, played in the environment from level 2: the
    # mean compare gives it from the same start. Only the end chose (60 s > 5 s), so earlier points keep none.
    sessions = list(csv.DictReader(open(out_folder / "compare" / "sessions.csv")))
    compared = [float(row["qoe_total"]) for row in sessions if row["strategy"] == "mlp"]
    assert abs(float(points[-1][3]) - sum(compared) / len(compared)) < 1e-3
    assert all(point[3] == "" for point in points[:-1])
    for index, rule in enumerate(("pensieve-native", "robust_mpc-native", "bba-native", "genet")):
        totals = [float(row["qoe_total"]) for row in sessions if row["strategy"] == rule]
        assert all(abs(float(point[4 + index]) - sum(totals) / len(totals)) < 1e-3 for point in points)
    # Every strategy started at level 2 (1-based, as segments.csv counts).
    segments = list(csv.DictReader(open(out_folder / "compare" / "segments.csv")))
    assert {row["level"] for row in segments if row["segment"] == "1"} == {"2"}
    assert (out_folder / "curve.svg").read_text().startswith("<svg")
    assert "mlp with its first segment at level 1" not in out


def test_train_ppo_anneals_the_step_and_the_entropy_weight_over_its_budget(pensieve_inputs, abrlab_bin, tmp_path):
    train = first_traces(pensieve_inputs, tmp_path / "train", 4)
    out = run_example(["--seconds", "4", "--num-envs", "4", "--n-steps", "48", "--batch-size", "96", "--anneal-to", "0.1",
                       "--train", str(train), "--test", str(train), "--out", str(tmp_path / "out")], pensieve_inputs, abrlab_bin)
    weights = [float(value) for value in re.findall(r"entropy weight ([\d.e-]+)", out)]
    rates = [float(value) for value in re.findall(r"learning rate ([\d.e-]+)", out)]
    assert len(weights) >= 2 and len(rates) == len(weights), out
    assert weights == sorted(weights, reverse=True) and weights[-1] < weights[0], weights
    assert all(0.05 * 0.1 - 1e-9 <= weight <= 0.05 for weight in weights), weights
    assert all(abs(rate / 2.5e-4 - weight / 0.05) < 1e-2 for rate, weight in zip(rates, weights)), (rates, weights)


def test_train_ppo_refuses_an_anneal_fraction_outside_zero_to_one(tmp_path):
    result = subprocess.run([sys.executable, str(EXAMPLE), "--anneal-to", "1.5", "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--anneal-to 1.5: give a fraction from 0 to 1" in result.stderr, result.stderr


def test_train_ppo_keeps_the_policy_that_plays_best_on_the_training_traces(pensieve_inputs, abrlab_bin, tmp_path):
    # The choice reads only training traces; the policy exported and compared is the kept one, and the
    # curve gives the kept policy's held-out mean beside the last one's.
    train = first_traces(pensieve_inputs, tmp_path / "train", 4)
    test = first_traces(pensieve_inputs, tmp_path / "test-traces", 5)
    out_folder = tmp_path / "out"
    out = run_example(["--seconds", "6", "--eval-every", "2", "--select-every", "1", "--first-level", "2", "--num-envs", "4",
                       "--n-steps", "48", "--batch-size", "96", "--train", str(train), "--test", str(test), "--out", str(out_folder)],
                      pensieve_inputs, abrlab_bin)
    selections = re.findall(r"select: +[\d.]+ s, ([\d,]+) steps: training-set mean QoE (-?[\d.]+)(, kept)?", out)
    assert len(selections) >= 3, out
    best = max(selections, key=lambda selection: float(selection[1]))
    first_best = next(selection for selection in selections if selection[1] == best[1])
    assert first_best[2] == ", kept", selections
    kept = re.search(r"kept the policy of ([\d,]+) steps \(training-set mean QoE (-?[\d.]+)\)", out)
    assert kept and kept.group(1) == first_best[0] and kept.group(2) == best[1], out
    rows = list(csv.DictReader(open(out_folder / "curve.csv")))
    assert rows and all(row["mlp_kept"] for row in rows), rows
    # compare's mlp is the kept policy: its mean is the last point's mlp_kept, played from the same start.
    sessions = list(csv.DictReader(open(out_folder / "compare" / "sessions.csv")))
    compared = [float(row["qoe_total"]) for row in sessions if row["strategy"] == "mlp"]
    assert abs(float(rows[-1]["mlp_kept"]) - sum(compared) / len(compared)) < 1e-3
    # Played greedily on the training traces, the exported policy scores what its selection said.
    from abrlab.policy import load_mlp

    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import train_ppo
    finally:
        sys.path.remove(str(EXAMPLE.parent))
    inputs = {"profile": "pensieve", "video": pensieve_inputs["video"], "ladder_kbps": train_ppo.LADDER, "segment_duration_s": 4,
              "first_level": 2}
    assert abs(train_ppo.played_mean(load_mlp(out_folder / "ppo.safetensors"), inputs, str(train)) - float(best[1])) < 1e-3


def test_train_ppo_refuses_negative_selection_seconds(tmp_path):
    result = subprocess.run([sys.executable, str(EXAMPLE), "--select-every", "-1", "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--select-every -1.0: give seconds, 0 or more" in result.stderr, result.stderr
