"""Gymnasium's own checker, for both observation modes, and the spaces the observations live in."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import abrlab  # noqa: F401 (registers abrlab/ABR-v0)


@pytest.mark.parametrize("info", ["lean", "full"])
@pytest.mark.parametrize("observation", ["pensieve", "dict"])
def test_check_env_passes(repo_inputs, observation, info):
    env = gym.make("abrlab/ABR-v0", observation=observation, info=info, **repo_inputs)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("profile", ["default", "pensieve", "sabre", "live"])
def test_observations_stay_in_their_space_for_a_whole_episode(repo_inputs, profile):
    for observation in ["pensieve", "dict"]:
        env = gym.make("abrlab/ABR-v0", observation=observation, profile=profile, **repo_inputs)
        obs, _ = env.reset(seed=5)
        assert env.observation_space.contains(obs)
        rng = np.random.default_rng(0)
        terminated, steps = False, 0
        while not terminated:
            obs, reward, terminated, truncated, info = env.step(int(rng.integers(env.action_space.n)))
            assert env.observation_space.contains(obs), (profile, observation, steps)
            assert np.isfinite(reward) and not truncated
            steps += 1
        assert steps >= 1
        env.close()


def test_pensieve_state_follows_pensieve_normalisations(pensieve_inputs):
    """Row by row, the newest column of the state after a step, as Pensieve's rl_test builds it."""
    env = gym.make("abrlab/ABR-v0", info="full", **pensieve_inputs)
    obs, _ = env.reset(options={"trace": "norway_bus_1"})
    assert obs.shape == (6, 8) and obs.dtype == np.float32 and not obs.any()
    ladder = env.unwrapped.ladder_kbps
    for step in range(48):
        level = step % 6
        obs, _, terminated, _, info = env.step(level)
        assert obs[0, -1] == np.float32(ladder[level] / ladder.max())
        assert obs[1, -1] == np.float32(info["buffer_after_s"] / 10)
        assert obs[2, -1] == np.float32(info["size_bytes"] / (info["download_time_s"] * 1000) / 1000)
        assert obs[3, -1] == np.float32(info["download_time_s"] * 1000 / 1000 / 10)
        assert obs[5, -1] == np.float32(min(48 - (step + 1), 48) / 48)
        assert info["buffer_s"] == info["buffer_after_s"]
        assert terminated == (step == 47)


def test_dict_observation_is_the_context_in_si_units(repo_inputs):
    env = gym.make("abrlab/ABR-v0", observation="dict", profile="sabre", info="full", **repo_inputs)
    obs, info = env.reset(seed=1)
    assert float(obs["last_level"]) == -1 and float(obs["segment_index"]) == 0
    np.testing.assert_array_equal(obs["ladder_bps"], env.unwrapped.ladder_kbps * 1000)
    obs, _, _, _, info = env.step(2)
    assert float(obs["last_level"]) == 2 and float(obs["segment_index"]) == 1
    assert float(obs["buffer_s"]) == info["buffer_s"]
    assert obs["throughput_history_bps"][-1] == pytest.approx(info["throughput_kbps"] * 1000)
    assert obs["download_time_history_s"][-1] == info["download_time_s"]
    assert float(obs["segments_left"]) == float(obs["segment_count"]) - 1
