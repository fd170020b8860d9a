"""The benchmark scripts (python/benchmarks/, beside the package, not in it) run: bench.py prints
a rate for each environment, train_profile.py where a training run's time goes."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest
from conftest import REPOSITORY

BENCHMARKS = REPOSITORY / "python" / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import bench  # noqa: E402 (python/benchmarks/bench.py)


def test_bench_prints_steps_per_second(capsys):
    bench.main(["--seconds", "0.05", "--num-envs", "4"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "steps/s" not in line and re.search(r"\d{1,3}(,\d{3})+|\d+\s+\d", line)]
    assert any(line.startswith("abrlab/ABR-v0") for line in rows), out
    assert any(line.startswith("ABRVectorEnv, 4 sessions") for line in rows), out
    assert "not measured (--pensieve-sim DIR)" in out


def test_bench_times_pensieves_env_beside_when_given(tmp_path, capsys):
    """A stand-in for Pensieve's sim/ folder (load_trace.load_trace, env.Environment.get_video_chunk)."""
    (tmp_path / "load_trace.py").write_text(
        "def load_trace(folder):\n    return [[0.0, 1.0]], [[1.0, 2.0]], ['t']\n"
    )
    (tmp_path / "env.py").write_text(
        "class Environment:\n"
        "    def __init__(self, all_cooked_time, all_cooked_bw, random_seed=42):\n        self.n = 0\n"
        "    def get_video_chunk(self, quality):\n        self.n += 1\n        return self.n\n"
    )
    bench.main(["--seconds", "0.05", "--num-envs", "2", "--pensieve-sim", str(tmp_path)])
    out = capsys.readouterr().out
    assert re.search(r"Pensieve sim/env.py, random actions\s+[\d,]+\s+[\d,]+", out), out


def test_bench_times_another_build_beside_this_one(repo_inputs):
    """The baseline comparison runs both builds in alternating rounds; this build against
    itself gives a ratio near 1."""
    from pathlib import Path

    import abrlab
    from abrlab import _native

    package = Path(abrlab.__file__).resolve().parents[1]
    current, other, ratio = bench.bench_against(repo_inputs, 0.4, package, _native.library_path(), rounds=2)
    assert current > 0 and other > 0
    assert 0.2 < ratio < 5
    current, other, ratio = bench.bench_against(repo_inputs, 0.4, package, _native.library_path(), rounds=2,
                                                num_envs=3)
    assert current > 0 and other > 0
    assert 0.2 < ratio < 5
    # This build's own keywords reach this build's environment alone.
    current, other, ratio = bench.bench_against(repo_inputs, 0.4, package, _native.library_path(), rounds=2,
                                                num_envs=3, current_options={"info": "full"})
    assert current > 0 and other > 0 and 0.2 < ratio < 5
    with pytest.raises(subprocess.CalledProcessError) as failed:
        bench.bench_against(repo_inputs, 0.2, package, _native.library_path(), rounds=1, num_envs=3,
                            current_options={"info": "everything"})
    assert "info must be one of lean, full, not 'everything'" in failed.value.stderr


def test_bench_says_how_to_get_pensieve_ppo_when_absent(monkeypatch, capsys):
    monkeypatch.setattr(bench, "pensieve_ppo_installed", lambda: False)
    bench.main(["--seconds", "0.05", "--num-envs", "2"])
    out = capsys.readouterr().out
    assert "pensieve-ppo 3.9.0 ABREnv" in out and "pip install --no-deps pensieve-ppo==3.9.0" in out
    assert "load average at the start:" in out


def test_bench_times_pensieve_ppo_beside_abrlab(pensieve_inputs, capsys):
    """pensieve-ppo's ABREnv on the same dataset, with its torch imports stubbed, and the ratios."""
    if importlib.util.find_spec("pensieve_ppo") is None:
        pytest.skip("pensieve-ppo is not installed (pip install --no-deps pensieve-ppo==3.9.0)")
    bench.main(["--seconds", "0.2", "--num-envs", "4"])
    out = capsys.readouterr().out
    assert re.search(r"pensieve-ppo 3.9.0 ABREnv, random actions\s+[\d,]+\s+[\d,]+", out), out
    assert re.search(r"ABRVectorEnv / pensieve-ppo's ABREnv: [\d,.]+x \(wall\), [\d,.]+x \(CPU\), at load", out), out
    assert re.search(r"abrlab/ABR-v0 against pensieve-ppo's ABREnv side by side, 6 alternating rounds: [\d,]+ and [\d,]+ "
                     r"steps/s \(wall; medians\), ratio [\d,.]+x \(wall\), [\d,.]+x \(CPU\)", out), out


def test_bench_times_the_c_step_against_the_python_step(repo_inputs):
    """The same environment stepping in C and in Python, side by side in fresh interpreters: the
    Python one is made without the extension, so the two rates are two different steps."""
    from abrlab.env import Stepper

    if Stepper is None:
        pytest.skip("abrlab._stepper is not built (no C compiler or Python headers at install)")
    fast, slow, ratio = bench.bench_steppings(repo_inputs, 0.4, rounds=2)
    assert fast > 0 and slow > 0 and 0.2 < ratio < 20
    loop = bench._STEP_LOOP.format(package="", inputs=repo_inputs, seconds=0.01, num_envs=None, python_step=True)
    probe = loop.replace("print(steps / (time.process_time() - cpu))", "print(type(env.step).__name__)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split()[-1] == "method"


@pytest.fixture
def no_shared_datasets(monkeypatch, tmp_path):
    """The bench as if in a repository with no ../shared/datasets beside it."""
    monkeypatch.setattr(bench, "SHARED_DATASETS", tmp_path / "no-shared-datasets")


def test_bench_says_loudly_when_the_dataset_is_not_found(tmp_path, monkeypatch, capsys, no_shared_datasets):
    monkeypatch.setenv("ABRLAB_DATASETS", str(tmp_path / "cache"))
    inputs = bench.default_inputs(tmp_path / "nothing")
    err = capsys.readouterr().err
    assert "Pensieve's dataset is not found" in err and "--datasets DIR" in err and "abrlab datasets fetch pensieve/test" in err
    assert str(tmp_path / "nothing") in err and inputs["traces"].endswith("default")


def test_bench_finds_fetched_datasets(tmp_path, monkeypatch, no_shared_datasets):
    for folder in ("pensieve/test", "pensieve/video"):
        (tmp_path / "cache" / folder).mkdir(parents=True)
    monkeypatch.setenv("ABRLAB_DATASETS", str(tmp_path / "cache"))
    inputs = bench.default_inputs()
    assert inputs["traces"] == str(tmp_path / "cache" / "pensieve" / "test")
    assert inputs["video"] == str(tmp_path / "cache" / "pensieve" / "video")



def test_the_bench_is_no_part_of_the_package_and_runs_from_the_repository():
    """Run as a program from the repository root, on the installed package."""
    assert importlib.util.find_spec("abrlab.bench") is None
    result = subprocess.run([sys.executable, str(BENCHMARKS / "bench.py"), "--seconds", "0.05", "--num-envs", "2"],
                            cwd=REPOSITORY, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "ABRVectorEnv, 2 sessions" in result.stdout, result.stdout


def test_train_profile_reports_where_the_training_time_goes(pensieve_inputs, abrlab_bin, tmp_path):
    """python/benchmarks/train_profile.py trains as the example does, briefly, and splits the
    wall time into parts that add up to it (each printed to the hundredth of a second)."""
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install './python[sb3]')")
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install './python[sb3]')")
    import shutil
    from pathlib import Path

    train = tmp_path / "train"
    train.mkdir()
    for trace in sorted(Path(pensieve_inputs["traces"]).iterdir())[:4]:
        shutil.copy(trace, train / trace.name)
    command = [sys.executable, str(BENCHMARKS / "train_profile.py"), "--seconds", "3", "--train", str(train),
               "--video", pensieve_inputs["video"], "--num-envs", "4", "--cprofile", "3"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "ABRLAB_BIN": abrlab_bin})
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    summary = re.search(r"trained ([\d,]+) steps in ([\d.]+) s of wall time .* ([\d,]+) vector steps, (\d+) updates", out)
    assert summary, out
    steps, vector_steps = int(summary[1].replace(",", "")), int(summary[3].replace(",", ""))
    assert steps == 4 * vector_steps and int(summary[4]) >= 1
    parts = dict(re.findall(r"^  (\S.*?)\s+(-?[\d.]+) s\s+-?[\d.]+ %$", out, re.MULTILINE))
    assert len(parts) == 7 and float(parts["environment (ABRVectorEnv.step)"]) > 0 and float(parts["updates (PPO.train)"]) > 0, out
    # The choice at the end of training plays the policy at least once.
    assert float(parts["greedy plays (--select-every's choice, --eval-every's points)"]) > 0, out
    # Eight figures each rounded to 0.005 s at most: the parts and the wall time.
    assert sum(map(float, parts.values())) == pytest.approx(float(summary[2]), abs=8 * 0.005 + 1e-9)
    assert re.search(r"per vector step of 4 sessions: environment \d+ us", out) and "tottime" in out, out
