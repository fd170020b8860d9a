"""The vector environment's sessions step on worker threads in the library: the results are the
same whatever the thread count."""

from __future__ import annotations

import numpy as np
import pytest

from abrlab.vector import ABRVectorEnv


def play(repo_inputs, threads, mode, experts, observation="pensieve", sessions=13):
    envs = ABRVectorEnv(num_envs=sessions, threads=threads, autoreset_mode=mode, observation=observation, segments=6,
                        **({"experts": experts} if experts else {}), **repo_inputs)
    envs.reset(seed=3)
    rng = np.random.default_rng(1)
    steps = []
    for _ in range(40):
        obs, rewards, terminated, truncated, info = envs.step(rng.integers(0, envs.single_action_space.n, size=sessions))
        steps.append((obs, rewards, terminated, truncated, {key: value for key, value in info.items()
                                                             if key not in ("final_obs", "final_info")},
                      envs.expert_actions()))
    return steps


@pytest.mark.parametrize("mode", ["next-step", "same-step"])
@pytest.mark.parametrize("experts", [[], ["bba"]], ids=["sessions-move", "lua-expert-pinned"])
def test_the_results_do_not_depend_on_the_thread_count(repo_inputs, mode, experts):
    """With and without a Lua expert (whose shares are all workers', the caller's thread joining
    only without one), more threads give what one thread gives."""
    one = play(repo_inputs, 1, mode, experts)
    for threads in (2, 3, 16):
        for expected, got in zip(one, play(repo_inputs, threads, mode, experts)):
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


def test_a_forked_child_steps_an_environment_its_parent_made(repo_inputs):
    """The worker threads do not survive a fork: the child steps on its own thread, never waits."""
    import os
    import time

    envs = ABRVectorEnv(num_envs=4, threads=2, **repo_inputs)
    envs.reset(seed=0)
    pid = os.fork()
    if pid == 0:
        try:
            for _ in range(3):
                envs.step(np.ones(4, dtype=np.int64))
            os._exit(0)
        except BaseException:
            os._exit(1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    raise AssertionError("the forked child hung stepping the environment")
