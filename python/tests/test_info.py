"""A step's `info`: lean by default (the trace, and qoe_total on the step that ends an episode),
the full record with `info="full"` or from `last_info()`; the same values either way, in both
steppings (the C step and the Python one) and both observations."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ClosedEnvironmentError, ResetNeeded

import abrlab
import abrlab.env as env_module

STEPPINGS = ["c", "python"]


def make(inputs: dict, monkeypatch, stepping: str, **keywords) -> abrlab.ABREnv:
    if stepping == "c":
        if env_module.Stepper is None:
            pytest.skip("abrlab._stepper is not built (no C compiler or Python headers at install)")
        env = abrlab.ABREnv(**inputs, **keywords)
        assert isinstance(env.step, env_module.Stepper) == (keywords.get("observation", "pensieve") == "pensieve")
        return env
    with monkeypatch.context() as patch:
        patch.setattr(env_module, "Stepper", None)
        return abrlab.ABREnv(**inputs, **keywords)


def lean_part(full: dict) -> list:
    """What the lean info holds of a full one: qoe_total where it is there at an episode's end, and the trace."""
    return [(key, value) for key, value in full.items() if key in ("qoe_total", "trace")]


@pytest.mark.parametrize("stepping", STEPPINGS)
@pytest.mark.parametrize("observation", ["pensieve", "dict"])
@pytest.mark.parametrize("profile", ["pensieve", "sabre", "live"])
def test_lean_info_is_the_full_ones_trace_and_total_and_last_info_is_the_full_one(repo_inputs, monkeypatch, stepping,
                                                                                   observation, profile):
    """A lean environment and a full one play the same actions: equal observations and rewards,
    the lean info is the full one's trace (and qoe_total at the end), and the lean environment's
    last_info() is the full one's info, keys in the same order."""
    lean = make(repo_inputs, monkeypatch, stepping, observation=observation, profile=profile)
    full = make(repo_inputs, monkeypatch, stepping, observation=observation, profile=profile, info="full")
    for env in (lean, full):
        env.reset(seed=3)
    rng = np.random.default_rng(1)
    episodes, steps, total = 0, 0, 0.0
    while episodes < 3:
        action = int(rng.integers(0, lean.action_space.n))
        got, want = lean.step(action), full.step(action)
        steps += 1
        total += want[1]
        if observation == "pensieve":
            assert np.array_equal(got[0], want[0])
        else:
            assert all(np.array_equal(got[0][key], want[0][key]) for key in want[0])
        assert got[1:4] == want[1:4]
        assert "segment" in want[4] and "buffer_s" in want[4]
        assert list(got[4].items()) == lean_part(want[4])
        assert list(lean.last_info().items()) == list(want[4].items())
        assert list(full.last_info().items()) == list(want[4].items())
        if got[2] or got[3]:
            assert got[4]["qoe_total"] == pytest.approx(total, rel=0, abs=1e-9)
            episodes, total = episodes + 1, 0.0
            (lean_start, lean_info), (full_start, full_info) = lean.reset(), full.reset()
            assert lean_info == full_info and lean.last_info() == full.last_info() == full_info
            if observation == "pensieve":
                assert np.array_equal(lean_start, full_start)
        else:
            assert list(got[4]) == ["trace"] and got[4]["trace"] == lean.trace
    assert steps > 3 * 2


@pytest.mark.parametrize("stepping", STEPPINGS)
def test_a_truncated_episode_ends_with_the_full_infos_keys(repo_inputs, monkeypatch, stepping):
    """At max_episode_steps the episode ends truncated; the lean info still holds what the full
    one holds of qoe_total (nothing where the session's score is not known yet) and the trace."""
    lean = make(repo_inputs, monkeypatch, stepping, max_episode_steps=4)
    full = make(repo_inputs, monkeypatch, stepping, max_episode_steps=4, info="full")
    for env in (lean, full):
        env.reset(seed=0)
    for _ in range(4):
        got, want = lean.step(2), full.step(2)
    assert got[3] and want[3] and not got[2]
    assert list(got[4].items()) == lean_part(want[4])
    assert list(lean.last_info().items()) == list(want[4].items())


@pytest.mark.parametrize("stepping", STEPPINGS)
def test_last_info_before_a_step_after_close_and_as_a_copy(repo_inputs, monkeypatch, stepping):
    env = make(repo_inputs, monkeypatch, stepping)
    with pytest.raises(ResetNeeded, match="reset"):
        env.last_info()
    _, reset_info = env.reset(seed=2)
    # Before the episode's first step: the reset's info.
    assert env.last_info() == reset_info == {"trace": env.trace, "buffer_s": 0.0}
    env.step(1)
    read = env.last_info()
    assert read["segment"] == 1 and read["level"] == 2 and read["trace"] == env.trace
    read["segment"] = -5.0
    assert env.last_info()["segment"] == 1, "each call is a new dict"
    # A second episode: its reset forgets the first episode's last step.
    while not env.step(0)[2]:
        pass
    assert "qoe_total" in env.last_info()
    _, reset_info = env.reset()
    assert env.last_info() == reset_info
    env.close()
    with pytest.raises(ClosedEnvironmentError):
        env.last_info()


def test_the_info_keyword_is_checked_and_reaches_gym_make(repo_inputs):
    with pytest.raises(abrlab.SettingError, match="info must be one of lean, full, not 'every'") as error:
        abrlab.ABREnv(info="every", **repo_inputs)
    assert error.value.setting == "info"
    made = gym.make("abrlab/ABR-v0", info="full", **repo_inputs)
    made.reset(seed=0)
    assert list(made.step(0)[4]) == [*made.unwrapped.core.info_fields, "qoe", "trace"]
    lean = gym.make("abrlab/ABR-v0", **repo_inputs)
    lean.reset(seed=0)
    assert list(lean.step(0)[4]) == ["trace"]
