"""Bad input raises a Python exception with a clear message; the interpreter never crashes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import abrlab  # noqa: F401 (registers abrlab/ABR-v0)
from abrlab import ABREnv
from abrlab.vector import ABRVectorEnv


@pytest.mark.parametrize("action", [-1, 99, 2.0, float("nan"), "1", None, np.array([1, 2]), np.float32(1)])
def test_bad_actions_raise_value_error(repo_inputs, action):
    env = ABREnv(**repo_inputs)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    env.step(0)  # the session is unchanged and goes on


def test_integer_actions_of_any_kind_are_accepted(repo_inputs):
    env = ABREnv(**repo_inputs)
    env.reset(seed=0)
    for action in [1, np.int64(1), np.int32(2), np.array(0), np.array([3], dtype=np.uint8)]:
        env.step(action)


def test_stepping_outside_an_episode_raises(repo_inputs):
    env = ABREnv(**repo_inputs, segments=2)
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    env.step(0)
    assert env.step(0)[2]
    with pytest.raises(ValueError, match="ended"):
        env.step(0)


@pytest.mark.parametrize("key", ["video", "traces"])
def test_missing_files_raise_file_not_found(repo_inputs, key, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such"):
        ABREnv(**{**repo_inputs, key: str(tmp_path / "missing")})


@pytest.mark.parametrize("options,message", [
    ({"profile": "nope"}, "profile: 'nope' is not one of default, pensieve"),
    ({"qoe": "nope"}, "qoe: unknown QoE model"),
    ({"segments": 0}, "segments"),
    ({"max_buffer_s": float("nan")}, "max_buffer_s"),
    ({"max_buffer_s": -1}, "max_buffer_s"),
    ({"ladder_kbps": "300"}, "ladder_kbps"),
    ({"ladder_kbps": [300, -1]}, "ladder_kbps"),
    ({"no_abandon": True}, r"no_abandon: works on profiles with a segment buffer \(sabre\) only"),
    ({"target_latency_s": 2.0}, "target_latency_s: works on the live profiles only"),
    ({"rebuffer_penalty": -1}, "rebuffer_penalty"),
    ({"qoe": "nqoe"}, "nqoe"),
    ({"estimator": "kalman"}, "estimator"),
    ({"observation": "pixels"}, "observation"),
])
def test_bad_options_raise_value_error(repo_inputs, options, message):
    with pytest.raises(ValueError, match=message):
        ABREnv(**{**repo_inputs, **options})


def test_unknown_keyword_raises_type_error(repo_inputs):
    with pytest.raises(TypeError, match="unknown option 'max_buffer'"):
        ABREnv(**repo_inputs, max_buffer=3)


def test_a_trace_file_that_is_not_a_trace_names_the_file(repo_inputs, tmp_path):
    bad = tmp_path / "broken.csv"
    bad.write_text("not,a\ntrace,at all\n")
    with pytest.raises(ValueError, match="broken.csv"):
        ABREnv(**{**repo_inputs, "traces": str(bad)})


def test_unknown_trace_in_reset_raises(repo_inputs):
    env = ABREnv(**repo_inputs)
    with pytest.raises(ValueError, match="no trace named"):
        env.reset(options={"trace": "nope"})
    with pytest.raises(ValueError, match="outside"):
        env.reset(options={"trace": 1000})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"traces": "3g_1"})


@pytest.mark.parametrize("actions,message", [
    (np.zeros(3, dtype=np.int64), "shape"),
    (np.zeros((4, 1), dtype=np.int64), "shape"),
    (np.zeros(4, dtype=np.float64), "integer"),
    (np.array([0, 1, np.nan, 2]), "integer"),
    (np.array([0, 1, 99, 2]), "outside the ladder"),
    (np.array([0, -1, 0, 2]), "outside the ladder"),
])
def test_vector_env_refuses_bad_actions_without_moving(repo_inputs, actions, message):
    envs = ABRVectorEnv(num_envs=4, **repo_inputs)
    envs.reset(seed=0)
    first, *_ = envs.step(np.ones(4, dtype=np.int64))
    with pytest.raises(ValueError, match=message):
        envs.step(actions)
    again = ABRVectorEnv(num_envs=4, **repo_inputs)
    again.reset(seed=0)
    second, *_ = again.step(np.ones(4, dtype=np.int64))
    np.testing.assert_array_equal(first, second)
    # The refused step moved no session: both go on identically.
    np.testing.assert_array_equal(envs.step(np.zeros(4, dtype=np.int64))[0], again.step(np.zeros(4, dtype=np.int64))[0])


@pytest.mark.parametrize("dtype", [np.uint64, np.int64])
def test_an_out_of_range_action_is_named_as_given(repo_inputs, dtype):
    """A uint64 past int64's range is named as given, not as the negative it wraps to, and no
    session moves; in-range uint64 actions step as any integer does."""
    envs = ABRVectorEnv(num_envs=3, **repo_inputs)
    envs.reset(seed=0)
    value = np.iinfo(dtype).max
    with pytest.raises(ValueError, match=rf"^action {value} of environment 1 is outside the ladder: levels are 0 to 5$"):
        envs.step(np.array([0, value, 1], dtype=dtype))
    with pytest.raises(ValueError, match=r"^action 99 of environment 0 is outside"):
        envs.step(np.array([99, value, 1], dtype=dtype))
    stepped, *_ = envs.step(np.array([1, 2, 3], dtype=dtype))
    again = ABRVectorEnv(num_envs=3, **repo_inputs)
    again.reset(seed=0)
    np.testing.assert_array_equal(stepped, again.step(np.array([1, 2, 3], dtype=np.int64))[0])


@pytest.mark.parametrize("action", [np.uint64(2**64 - 1), 2**64 - 1, np.array([2**64 - 1], dtype=np.uint64), np.uint64(2**63)])
def test_one_environment_names_a_huge_action_as_given(repo_inputs, action):
    env = ABREnv(**repo_inputs)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=rf"^action {int(np.asarray(action).reshape(()))} is outside the ladder: levels are 0 to 5$"):
        env.step(action)
    env.step(0)


def test_gym_make_passes_keywords(repo_inputs):
    env = gym.make("abrlab/ABR-v0", profile="sabre", max_buffer_s=12, **repo_inputs)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (6, 8)
    with pytest.raises(ValueError, match="no_abandon"):
        gym.make("abrlab/ABR-v0", no_abandon=True, **repo_inputs)


def test_a_qoe_script_that_fails_raises_runtime_error_at_the_end(repo_inputs):
    """QoE/vmaf.lua needs VMAF scores the shipped video lacks: the episode's last step says so."""
    from conftest import REPOSITORY

    env = ABREnv(qoe=str(REPOSITORY / "QoE" / "vmaf.lua"), segments=3, **repo_inputs)
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    with pytest.raises(RuntimeError, match="VMAF"):
        env.step(0)
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset(seed=0)
