"""The vector environment's `info`: lean by default, as `ABREnv`'s, the full record on request,
and the lean info exactly the full one's `qoe_total` and `trace` on every step."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from abrlab import ABREnv, SettingError
from abrlab.vector import ABRVectorEnv

LEAN_KEYS = ["qoe_total", "_qoe_total", "trace", "_trace"]


def assert_info_equal(lean: dict, full: dict) -> None:
    """`lean` holds the full info's lean fields, equal bit for bit (NaN where masked out)."""
    assert list(lean) == LEAN_KEYS
    for key in LEAN_KEYS:
        np.testing.assert_array_equal(lean[key], full[key], strict=True)


@pytest.mark.parametrize("observation", ["pensieve", "dict"])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_the_lean_info_is_the_full_ones_total_and_trace_at_every_step(repo_inputs, observation, mode):
    """Two environments on the same seed and actions, one lean (the default) and one full, over
    several episodes of every session (8 segments, random levels): the same steps, and each
    lean info (same-step's final_info too) is the full one's lean fields."""
    lean = ABRVectorEnv(num_envs=4, observation=observation, autoreset_mode=mode, segments=8, **repo_inputs)
    full = ABRVectorEnv(num_envs=4, observation=observation, autoreset_mode=mode, segments=8, info="full", **repo_inputs)
    lean.reset(seed=21)
    full.reset(seed=21)
    rng = np.random.default_rng(3)
    totals = 0
    for _ in range(40):
        actions = rng.integers(0, lean.single_action_space.n, 4)
        lean_step, full_step = lean.step(actions), full.step(actions)
        for lean_value, full_value in zip(lean_step[1:4], full_step[1:4]):
            np.testing.assert_array_equal(lean_value, full_value, strict=True)
        lean_info, full_info = lean_step[4], full_step[4]
        if mode == AutoresetMode.SAME_STEP:
            assert (("final_info" in lean_info) == ("final_info" in full_info))
            if "final_info" in lean_info:
                np.testing.assert_array_equal(lean_info.pop("_final_info"), full_info["_final_info"], strict=True)
                np.testing.assert_array_equal(lean_info.pop("_final_obs"), full_info["_final_obs"], strict=True)
                assert len(lean_info.pop("final_obs")) == 4
                final = lean_info.pop("final_info")
                assert_info_equal(final, full_info["final_info"])
                totals += int(final["_qoe_total"].sum())
        else:
            totals += int(lean_info["_qoe_total"].sum())
        assert_info_equal(lean_info, full_info)
    assert totals >= 8, "every session ended episodes with their qoe_total"
    lean.close()
    full.close()


def test_make_vec_takes_abr_envs_info_keyword(repo_inputs):
    """`gymnasium.make_vec("abrlab/ABR-v0", info=...)` takes the keyword `ABREnv` takes: the
    lean info by default, the record with "full"."""
    for info, keys in (("lean", set(LEAN_KEYS)), ("full", None)):
        envs = gym.make_vec("abrlab/ABR-v0", num_envs=2, info=info, **repo_inputs)
        envs.reset(seed=1)
        *_, step_info = envs.step(np.array([1, 2]))
        single = ABREnv(info=info, **repo_inputs)
        single.reset(seed=1)
        _, _, _, _, single_info = single.step(1)
        if keys is None:
            # The full record: every field the single environment's full info holds, and masks.
            assert set(single_info) <= set(step_info) and "_segment" in step_info
        else:
            assert set(step_info) == keys and set(single_info) <= set(step_info)
        envs.close()
        single.close()


def test_an_unknown_info_is_a_setting_error_naming_it(repo_inputs):
    with pytest.raises(SettingError, match=r"^info must be one of lean, full, not 'some'$") as raised:
        ABRVectorEnv(num_envs=2, info="some", **repo_inputs)
    assert raised.value.setting == "info"
