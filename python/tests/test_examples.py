"""The training example runs end to end — generated traces, PPO, export, compare — in a short
smoke run, so it cannot rot. Skipped where stable-baselines3 (and PyTorch) are not installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPOSITORY

EXAMPLE = REPOSITORY / "python" / "examples" / "train_ppo.py"


def test_train_ppo_smoke_run(pensieve_inputs, abrlab_bin, tmp_path):
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install './python[sb3]')")
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install './python[sb3]')")
    # A dozen of the test traces keep the comparison short under a debug build of abrlab.
    test = tmp_path / "test-traces"
    test.mkdir()
    for trace in sorted(Path(pensieve_inputs["traces"]).iterdir())[:12]:
        shutil.copy(trace, test / trace.name)
    command = [sys.executable, str(EXAMPLE), "--seconds", "10", "--train-count", "20", "--num-envs", "8",
               "--video", pensieve_inputs["video"], "--test", str(test), "--out", str(tmp_path / "out")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "ABRLAB_BIN": abrlab_bin})
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert len(list((tmp_path / "out" / "train-traces").iterdir())) == 20
    assert (tmp_path / "out" / "ppo.safetensors").is_file()
    assert (tmp_path / "out" / "compare" / "sessions.csv").read_text().count("\nmlp,") == 12
    for strategy in ("mlp", "pensieve-native", "robust_mpc-native", "bba-native"):
        assert re.search(rf"^{re.escape(strategy)}\s+mean QoE\s+-?\d+\.\d{{3}}, startup\s+\d+\.\d\d s$", out, re.MULTILINE), out
    assert re.search(r"^mlp with its first segment at level 1, as the rules start: mean QoE\s+-?\d+\.\d{3}$", out, re.MULTILINE), out
    assert re.search(r"trained [\d,]+ steps in \d+ s", out), out
