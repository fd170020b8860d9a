"""Engine failures by subject (issue 52 item 4): a setting, an input, a strategy, a limit, each an
exception class of its own that subclasses what was raised before, with the library's JSON
detail; and a wrong setting is the same message from `abrlab compare` and from Python."""

from __future__ import annotations

import subprocess

import gymnasium as gym
import numpy as np
import pytest

import abrlab
from abrlab import ABREnv, InputError, InputNotFoundError, LimitError, SettingError, StrategyError
from abrlab.vector import ABRVectorEnv
from conftest import REPOSITORY


def test_the_classes_subclass_what_was_raised_before():
    assert issubclass(SettingError, ValueError) and issubclass(InputError, ValueError)
    assert issubclass(InputNotFoundError, InputError) and issubclass(InputNotFoundError, FileNotFoundError)
    assert issubclass(StrategyError, RuntimeError) and issubclass(LimitError, RuntimeError)
    assert {"SettingError", "InputError", "InputNotFoundError", "StrategyError", "LimitError"} <= set(abrlab.__all__)


@pytest.mark.parametrize("options,keyword", [
    ({"first_level": 9}, "first_level"),
    ({"max_buffer_s": -1}, "max_buffer_s"),
    ({"profile": "nope"}, "profile"),
    ({"segments": 0}, "segments"),
])
def test_a_bad_setting_is_a_setting_error_naming_it(repo_inputs, options, keyword):
    with pytest.raises(SettingError) as raised:
        ABREnv(**repo_inputs, **options)
    assert raised.value.setting == keyword and keyword in raised.value.settings
    assert raised.value.detail["subject"] == "setting"
    assert str(raised.value).startswith(f"{keyword}: ")


def test_a_value_python_refuses_is_a_setting_error_too(repo_inputs):
    with pytest.raises(SettingError, match="max_buffer_s: takes a number, not 'twelve'") as raised:
        ABREnv(**repo_inputs, max_buffer_s="twelve")
    assert raised.value.setting == "max_buffer_s"
    with pytest.raises(SettingError) as raised:
        ABRVectorEnv(num_envs=0, **repo_inputs)
    assert raised.value.setting == "num_envs"
    with pytest.raises(TypeError):  # an unknown keyword stays a TypeError
        ABREnv(**repo_inputs, max_buffer=3)


@pytest.mark.parametrize("options,flag", [
    ({"first_level": 9, "segments": 3}, "--first-level"),
    ({"max_buffer_s": -1, "segments": 3}, "--max-buffer-s"),
    ({"segments": 0}, "--segments"),
    ({"bandwidth_multiplier": -1, "segments": 3}, "--bandwidth-multiplier"),
    ({"profile": "nope"}, "--profile"),
])
def test_a_wrong_setting_is_the_same_message_from_compare_and_python(repo_inputs, abrlab_bin, tmp_path, options, flag):
    """compare names the setting by its flag, Python by its keyword; the rest is the same text."""
    keyword = flag[2:].replace("-", "_")
    with pytest.raises(SettingError) as raised:
        ABREnv(**repo_inputs, **options)
    command = [abrlab_bin, "compare", "--strategies", "bba", "--video", repo_inputs["video"], "--traces", repo_inputs["traces"],
               "--out", str(tmp_path / "out")]
    for key, value in options.items():
        command += ["--" + key.replace("_", "-"), str(value)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPOSITORY, timeout=120)
    assert result.returncode != 0
    cli = result.stderr.strip().splitlines()[-1]
    assert cli.startswith(f"abrlab: {flag}: "), cli
    assert cli.removeprefix("abrlab: ").replace(flag, keyword, 1) == str(raised.value)


def test_a_malformed_input_is_an_input_error_naming_its_file(repo_inputs, tmp_path):
    bad = tmp_path / "broken.csv"
    bad.write_text("end_s,bandwidth_bps,latency_s\n1,1000000,0.1\n2,lots,0.1\n")
    with pytest.raises(InputError) as raised:
        ABREnv(**{**repo_inputs, "traces": str(bad)})
    assert not isinstance(raised.value, FileNotFoundError)
    assert raised.value.file == str(bad) and raised.value.line == 3, raised.value.detail
    assert str(raised.value).startswith(f"{bad}:3: ")


@pytest.mark.parametrize("key", ["video", "traces", "qoe"])
def test_a_missing_input_is_an_input_error_and_file_not_found(repo_inputs, tmp_path, key):
    missing = tmp_path / ("missing.lua" if key == "qoe" else "missing")
    with pytest.raises(InputNotFoundError) as raised:
        ABREnv(**{**repo_inputs, key: str(missing)})
    assert isinstance(raised.value, FileNotFoundError) and isinstance(raised.value, ValueError)
    assert raised.value.file == str(missing) and raised.value.detail["missing"] is True


FAILING_EXPERT = """local M = { name = "failing" }
function M.choose(ctx)
  error("no decision here")
end
return M
"""


def test_an_expert_that_errors_is_a_strategy_error(repo_inputs, tmp_path):
    script = tmp_path / "failing.lua"
    script.write_text(FAILING_EXPERT)
    env = ABREnv(experts=[str(script)], segments=3, **repo_inputs)
    env.reset(seed=0)
    with pytest.raises(StrategyError, match="no decision here") as raised:
        env.experts()
    error = raised.value
    assert isinstance(error, RuntimeError)
    assert error.strategy == "failing" and error.trace == env.trace
    assert error.file == str(script) and error.line == 3, error.detail
    # The session itself goes on: the caller plays it.
    env.step(0)
    envs = ABRVectorEnv(num_envs=2, experts=[str(script)], segments=3, **repo_inputs)
    envs.reset(seed=0)
    with pytest.raises(StrategyError):
        envs.expert_actions()


def test_a_session_past_its_limit_is_a_limit_error(repo_inputs, tmp_path):
    """One bit a second cannot deliver a segment within the profile's limits."""
    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "slow.csv").write_text("end_s,bandwidth_bps,latency_s\n1,1,0.01\n")
    env = gym.make("abrlab/ABR-v0", video=repo_inputs["video"], traces=str(folder), segments=2)
    env.reset(seed=0)
    with pytest.raises(LimitError) as raised:
        env.step(0)
    assert isinstance(raised.value, RuntimeError)
    assert raised.value.trace == "slow" and raised.value.limit in ("time", "steps"), raised.value.detail
    assert str(raised.value).startswith("slow: the session ")
    envs = ABRVectorEnv(num_envs=2, video=repo_inputs["video"], traces=str(folder), segments=2)
    envs.reset(seed=0)
    with pytest.raises(LimitError):
        envs.step(np.zeros(2, dtype=np.int64))


def test_other_emulation_failures_stay_runtime_errors_with_a_detail(repo_inputs):
    env = ABREnv(qoe=str(REPOSITORY / "QoE" / "vmaf.lua"), segments=1, **repo_inputs)
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="VMAF") as raised:
        env.step(0)
    assert type(raised.value) is RuntimeError
    assert raised.value.detail["subject"] == "emulation" and raised.value.detail["cause"] == "qoe"
