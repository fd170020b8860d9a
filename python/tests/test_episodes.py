"""Trace order (a seeded shuffle, each trace once per pass) and the vector environment's autoreset."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from abrlab import ABREnv
from abrlab.vector import ABRVectorEnv


def episode_traces(env, episodes: int) -> list[str]:
    traces = []
    for _ in range(episodes):
        _, info = env.reset()
        traces.append(info["trace"])
    return traces


def test_each_trace_plays_once_per_pass_in_a_seeded_order(repo_inputs):
    env = ABREnv(**repo_inputs)
    count = len(env.trace_names)
    env.reset(seed=7)
    first = [env.trace] + episode_traces(env, 2 * count - 1)
    assert sorted(first[:count]) == sorted(env.trace_names) == sorted(first[count:])
    assert first[:count] != first[count:]
    env.reset(seed=7)
    again = [env.trace] + episode_traces(env, 2 * count - 1)
    assert again == first
    env.reset(seed=8)
    other = [env.trace] + episode_traces(env, count - 1)
    assert other != first[:count]


def test_reset_to_a_named_trace_keeps_the_shuffle(repo_inputs):
    env = ABREnv(**repo_inputs)
    _, info = env.reset(seed=1, options={"trace": "3g_2"})
    assert info["trace"] == "3g_2" and info["buffer_s"] == 0


def test_vector_env_autoresets_on_the_next_step(repo_inputs):
    envs = ABRVectorEnv(num_envs=3, segments=4, info="full", **repo_inputs)
    obs, info = envs.reset(seed=11)
    assert obs.shape == (3, 6, 8) and not obs.any()
    actions = np.array([0, 1, 2])
    for _ in range(3):
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not terminated.any() and not truncated.any()
    obs, rewards, terminated, _, info = envs.step(actions)
    assert terminated.all() and obs.any()
    obs, rewards, terminated, _, info = envs.step(actions)
    assert not terminated.any() and not rewards.any() and not obs.any()
    assert not info["_segment"].any() and np.isnan(info["segment"]).all()
    obs, rewards, terminated, _, info = envs.step(actions)
    assert info["_segment"].all() and (info["segment"] == 1).all()


def test_vector_env_matches_single_envs(repo_inputs):
    """Session i of the vector env plays what a single env plays on the same trace."""
    envs = ABRVectorEnv(num_envs=2, observation="dict", **repo_inputs)
    obs, info = envs.reset(seed=2)
    singles = [ABREnv(observation="dict", **repo_inputs) for _ in range(2)]
    for index, single in enumerate(singles):
        single.reset(options={"trace": envs.trace_names[info["trace"][index]]})
    rng = np.random.default_rng(3)
    for _ in range(10):
        actions = rng.integers(0, envs.single_action_space.n, size=2)
        obs, rewards, _, _, info = envs.step(actions)
        for index, single in enumerate(singles):
            single_obs, reward, *_ = single.step(int(actions[index]))
            assert reward == rewards[index]
            for key, value in single_obs.items():
                np.testing.assert_array_equal(value, obs[key][index])


def test_vector_env_is_reproducible_from_its_seed(repo_inputs):
    runs = []
    for _ in range(2):
        envs = ABRVectorEnv(num_envs=4, **repo_inputs)
        envs.reset(seed=5)
        rng = np.random.default_rng(0)
        total = 0.0
        for _ in range(200):
            total += envs.step(rng.integers(0, envs.single_action_space.n, size=4))[1].sum()
        runs.append(total)
    assert runs[0] == runs[1]


def test_traces_take_a_shipped_set_by_name(repo_inputs):
    env = ABREnv(video=repo_inputs["video"], traces="3g")
    assert env.trace_names[0].startswith("3g_")
    by_folder = ABREnv(video=repo_inputs["video"], traces=str(Path(repo_inputs["traces"]).parent / "3g"))
    assert env.trace_names == by_folder.trace_names


def test_make_vec_builds_the_native_vector_env(repo_inputs):
    import gymnasium as gym

    envs = gym.make_vec("abrlab/ABR-v0", num_envs=5, **repo_inputs)
    assert isinstance(envs, ABRVectorEnv) and envs.num_envs == 5
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (5, 6, 8)
