"""The vector environment's sessions step on worker threads in the library: the results are the
same whatever the thread count."""

from __future__ import annotations

import numpy as np
import pytest

from abrlab.vector import ABRVectorEnv


def play(repo_inputs, threads, mode, observation="pensieve"):
    envs = ABRVectorEnv(num_envs=7, threads=threads, autoreset_mode=mode, observation=observation, segments=6,
                        experts=["bba"], **repo_inputs)
    envs.reset(seed=3)
    rng = np.random.default_rng(1)
    steps = []
    for _ in range(40):
        obs, rewards, terminated, truncated, info = envs.step(rng.integers(0, envs.single_action_space.n, size=7))
        steps.append((obs, rewards, terminated, truncated, {key: value for key, value in info.items()
                                                             if key not in ("final_obs", "final_info")},
                      envs.expert_actions()))
    return steps


@pytest.mark.parametrize("mode", ["next-step", "same-step"])
def test_the_results_do_not_depend_on_the_thread_count(repo_inputs, mode):
    one = play(repo_inputs, 1, mode)
    for threads in (2, 3, 16):
        for expected, got in zip(one, play(repo_inputs, threads, mode)):
            for a, b in zip(expected[:4], got[:4]):
                np.testing.assert_array_equal(a, b)
            assert expected[4].keys() == got[4].keys()
            for key in expected[4]:
                np.testing.assert_array_equal(expected[4][key], got[4][key])
            np.testing.assert_array_equal(expected[5], got[5])


def test_the_default_is_the_cores_at_most_num_envs(repo_inputs):
    assert ABRVectorEnv(num_envs=1, **repo_inputs).threads == 1
    assert 1 <= ABRVectorEnv(num_envs=64, **repo_inputs).threads <= 64


@pytest.mark.parametrize("threads", [0, -2, 1.5, True])
def test_a_bad_thread_count_is_a_value_error(repo_inputs, threads):
    with pytest.raises(ValueError, match="threads"):
        ABRVectorEnv(num_envs=2, threads=threads, **repo_inputs)
