"""Gymnasium's conventions: the vector environment's autoreset modes, `max_episode_steps`
truncating, and `render_mode` as callers such as SB3's `make_vec_env` expect."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode

from abrlab import ABREnv, StepBeforeReset
from abrlab.vector import ABRVectorEnv

SEGMENTS = 4


def play(mode, steps, observation="pensieve", **extra):
    """`steps` steps of 3 sessions, each playing one constant level, in autoreset `mode`."""
    envs = ABRVectorEnv(num_envs=3, observation=observation, autoreset_mode=mode, segments=SEGMENTS, info="full", **extra)
    envs.reset(seed=4)
    actions = np.array([0, 1, 2])
    return envs, [envs.step(actions) for _ in range(steps)]


@pytest.mark.parametrize("observation", ["pensieve", "dict"])
def test_same_step_returns_the_next_episodes_first_observation_and_the_final_one_in_info(repo_inputs, observation):
    """Same-step step s is next-step step s + (episodes ended before it): at an episode's end it
    returns what next-step returns a step later (the next episode's first observation), and the
    final observation and info go into `final_obs` and `final_info` as Gymnasium documents."""
    _, nexts = play("next-step", 15, observation, **repo_inputs)
    envs, sames = play(AutoresetMode.SAME_STEP, 12, observation, **repo_inputs)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP == envs.autoreset_mode

    def same(a, b):
        if isinstance(a, dict):
            assert a.keys() == b.keys()
            for key in a:
                np.testing.assert_array_equal(a[key], b[key])
        else:
            np.testing.assert_array_equal(a, b)

    for step, (obs, rewards, terminated, truncated, info) in enumerate(sames, start=1):
        mapped = step + (step - 1) // SEGMENTS - 1
        next_obs, next_rewards, next_terminated, _, next_info = nexts[mapped]
        np.testing.assert_array_equal(rewards, next_rewards)
        np.testing.assert_array_equal(terminated, next_terminated)
        assert not truncated.any()
        if step % SEGMENTS:
            same(obs, next_obs)
            assert "final_obs" not in info and info["_segment"].all()
            np.testing.assert_array_equal(info["segment"], next_info["segment"])
            continue
        assert terminated.all()
        restarted = nexts[mapped + 1]
        same(obs, restarted[0])
        np.testing.assert_array_equal(info["trace"], restarted[4]["trace"])
        assert info["_final_obs"].all() and info["_final_info"].all()
        assert info["final_obs"].dtype == object and info["final_obs"].shape == (3,)
        for index in range(3):
            final = info["final_obs"][index]
            if observation == "dict":
                same(final, {key: value[index] for key, value in next_obs.items()})
            else:
                same(final, next_obs[index])
        final_info = info["final_info"]
        assert (final_info["segment"] == SEGMENTS).all() and final_info["_segment"].all()
        np.testing.assert_array_equal(final_info["qoe_total"], next_info["qoe_total"])
        np.testing.assert_array_equal(final_info["trace"], next_info["trace"])
        # The ended step's info is final_info's: the top level masks it out.
        assert not info["_segment"].any() and not info["_qoe_total"].any()


def test_disabled_autoreset_refuses_an_ended_session_until_a_masked_reset(repo_inputs):
    envs, steps = play("disabled", SEGMENTS, **repo_inputs)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    obs, _, terminated, _, _ = steps[-1]
    assert terminated.all()
    with pytest.raises(StepBeforeReset, match="session 0: the episode has ended"):
        envs.step(np.zeros(3, dtype=np.int64))
    mask = np.array([False, True, False])
    again, info = envs.reset(options={"reset_mask": mask})
    assert not again[1].any() and info["_trace"].tolist() == [False, True, False]
    np.testing.assert_array_equal(again[[0, 2]], obs[[0, 2]])
    with pytest.raises(StepBeforeReset, match="session 0"):
        envs.step(np.zeros(3, dtype=np.int64))
    envs.reset(options={"reset_mask": ~mask})
    _, _, terminated, _, info = envs.step(np.zeros(3, dtype=np.int64))
    assert not terminated.any() and (info["segment"] == 1).all()


@pytest.mark.parametrize("mode", ["same-step", "disabled"])
def test_a_step_before_the_first_reset_is_reset_needed_in_both_environments(repo_inputs, mode):
    """The library's own code for a step outside an episode: Gymnasium's ResetNeeded, still a
    ValueError, from the vector environment as from ABREnv; nothing moves."""
    envs = ABRVectorEnv(num_envs=2, autoreset_mode=mode, segments=SEGMENTS, info="full", **repo_inputs)
    with pytest.raises(StepBeforeReset, match="session 0: step before reset") as refused:
        envs.step(np.zeros(2, dtype=np.int64))
    assert isinstance(refused.value, ResetNeeded) and isinstance(refused.value, ValueError)
    envs.reset(seed=1)
    _, _, _, _, info = envs.step(np.zeros(2, dtype=np.int64))
    assert (info["segment"] == 1).all()
    env = ABREnv(segments=SEGMENTS, **repo_inputs)
    with pytest.raises(StepBeforeReset, match="step before reset"):
        env.step(0)
    env.reset(seed=1)
    for _ in range(SEGMENTS):
        env.step(0)
    with pytest.raises(StepBeforeReset, match="the episode has ended"):
        env.step(0)


@pytest.mark.parametrize("mask, error, message", [
    ([True, False, True], TypeError, "must be a numpy array"),
    (np.array([True, False]), ValueError, "must have shape"),
    (np.array([1, 0, 1]), TypeError, "dtype=np.bool_"),
    (np.zeros(3, dtype=np.bool_), ValueError, "at least one True"),
])
def test_a_bad_reset_mask_is_refused_as_gymnasium_refuses_it(repo_inputs, mask, error, message):
    envs = ABRVectorEnv(num_envs=3, autoreset_mode="disabled", **repo_inputs)
    envs.reset(seed=0)
    with pytest.raises(error, match=message):
        envs.reset(options={"reset_mask": mask})


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, "SameStep", "same-step", "disabled"])
def test_make_vec_takes_the_autoreset_mode_and_max_episode_steps(repo_inputs, mode):
    envs = gym.make_vec("abrlab/ABR-v0", num_envs=2, autoreset_mode=mode, max_episode_steps=3, info="full", **repo_inputs)
    envs.reset(seed=0)
    for _ in range(2):
        _, _, terminated, truncated, _ = envs.step(np.ones(2, dtype=np.int64))
        assert not truncated.any()
    _, _, terminated, truncated, info = envs.step(np.ones(2, dtype=np.int64))
    assert truncated.all() and not terminated.any()
    if envs.autoreset_mode == AutoresetMode.SAME_STEP:
        assert info["_final_obs"].all() and (info["final_info"]["segment"] == 3).all()


def test_an_unknown_autoreset_mode_names_the_modes(repo_inputs):
    with pytest.raises(ValueError, match="next-step, same-step, disabled"):
        ABRVectorEnv(num_envs=2, autoreset_mode="sometimes", **repo_inputs)


def test_max_episode_steps_truncates_the_episode(repo_inputs):
    env = ABREnv(max_episode_steps=2, segments=5, **repo_inputs)
    env.reset(seed=0)
    assert env.step(1)[2:4] == (False, False)
    assert env.step(1)[2:4] == (False, True)
    with pytest.raises(ValueError, match="ended"):
        env.step(1)
    env.reset()
    assert env.step(1)[3] is False
    # A limit past the session's end never truncates: the episode terminates.
    env = ABREnv(max_episode_steps=5, segments=5, **repo_inputs)
    env.reset(seed=0)
    ends = [env.step(1)[2:4] for _ in range(5)]
    assert ends[-1] == (True, False) and not any(truncated for _, truncated in ends)


@pytest.mark.parametrize("steps", [0, -1, 1.5, True, "3"])
def test_a_bad_max_episode_steps_is_a_value_error(repo_inputs, steps):
    with pytest.raises(ValueError, match="max_episode_steps"):
        ABREnv(max_episode_steps=steps, **repo_inputs)


@pytest.mark.parametrize("observation", ["pensieve", "dict"])
def test_rgb_array_is_declared_and_renders_the_last_segments(repo_inputs, observation):
    """SB3's make_vec_env asks for render_mode="rgb_array": declared, so Gymnasium makes the
    environment without its "not in the possible render_modes" warning, and `render()` draws a
    bar per delivered segment, taller for a higher level."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make("abrlab/ABR-v0", render_mode="rgb_array", observation=observation, **repo_inputs)
    assert [str(warning.message) for warning in caught] == []
    assert env.render_mode == "rgb_array" and "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=0)
    blank = env.render()
    assert blank.shape == (128, 192, 3) and blank.dtype == np.uint8 and (blank == 255).all()
    for level in (0, 5):
        env.step(level)
    frame = env.render()
    blue = (frame == (31, 119, 180)).all(axis=2)
    low, high = blue[:, 144:168].sum(), blue[:, 168:].sum()
    assert 0 < low < high, (low, high)
    assert not blue[:, :144].any()
    assert len(vars(env)) < 30, sorted(vars(env))


def test_other_render_modes_are_a_type_error(repo_inputs):
    """A mode an environment does not declare is the TypeError on which callers retry without one."""
    with pytest.raises(TypeError, match=r"^render_mode must be one of 'rgb_array' or None, not 'human'"):
        ABREnv(render_mode="human", **repo_inputs)
    with pytest.raises(TypeError, match=r"^render_mode must be None \(it does not render\), not 'rgb_array'"):
        ABRVectorEnv(num_envs=2, render_mode="rgb_array", **repo_inputs)
    env = gym.make("abrlab/ABR-v0", render_mode=None, **repo_inputs)
    assert env.render_mode is None and env.render() is None


def test_abr_env_keeps_under_thirty_attributes(repo_inputs):
    """CPython stops sharing an instance's keys past 30 attributes, and every attribute read slows."""
    env = ABREnv(**repo_inputs)
    env.reset(seed=0)
    env.step(1)
    assert len(vars(env)) < 30, sorted(vars(env))
