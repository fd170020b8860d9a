"""Experts: any abrlab strategy, native or Lua, following the session; played, they are the
strategy itself, to compare's last digit."""

from __future__ import annotations

import numpy as np
import pytest

from abrlab import ABREnv
from abrlab.vector import ABRVectorEnv
from test_exactness import compare_totals

EXPERTS = ["bba", "robust_mpc", "pensieve-native", "bba-native"]


def test_playing_an_expert_is_playing_the_strategy(pensieve_inputs, abrlab_bin, tmp_path):
    want = compare_totals(abrlab_bin, pensieve_inputs, tmp_path, strategies=EXPERTS)
    env = ABREnv(experts=EXPERTS, **pensieve_inputs)
    assert env.expert_ids == tuple(EXPERTS)
    for expert in EXPERTS:
        for trace in env.trace_names:
            env.reset(options={"trace": trace})
            total, terminated = 0.0, False
            while not terminated:
                _, reward, terminated, _, _ = env.step(env.expert(expert))
                total += reward
            assert total == pytest.approx(want[expert, trace], rel=0, abs=1e-9), (expert, trace)


def test_experts_answer_while_another_policy_plays(repo_inputs):
    env = ABREnv(experts=["bba-native", "throughput"], params={"bba-native.reservoir_s": 2}, **repo_inputs)
    env.reset(seed=0)
    seen = set()
    for _ in range(30):
        choices = env.experts()
        assert set(choices) == {"bba-native", "throughput"}
        assert all(0 <= level < env.action_space.n for level in choices.values())
        seen.add(tuple(choices.values()))
        if env.step(0)[2]:
            break
    assert len(seen) > 1


def test_vector_env_gives_every_session_its_experts(repo_inputs):
    envs = ABRVectorEnv(num_envs=3, segments=3, experts=["bba-native", "robust_mpc"], **repo_inputs)
    envs.reset(seed=1)
    for _ in range(3):
        actions = envs.expert_actions()
        assert actions.shape == (3, 2) and (actions >= 0).all()
        envs.step(envs.expert("robust_mpc"))
    assert (envs.expert_actions() == -1).all()  # every session waits for its autoreset


@pytest.mark.parametrize("options,error,message", [
    ({"experts": ["no_such_strategy"]}, ValueError, "no_such_strategy"),
    ({"experts": ["bba"], "params": {"robust_mpc.horizon": 3}}, ValueError, "robust_mpc"),
    ({"experts": ["robust_mpc"], "params": {"robust_mpc.horizon": "3,4"}}, ValueError, "sweeps"),
    ({"params": {"bba.reservoir_s": 3}}, ValueError, "experts"),
])
def test_bad_experts_raise(repo_inputs, options, error, message):
    with pytest.raises(error, match=message):
        ABREnv(**repo_inputs, **options)


def test_an_expert_not_named_raises(repo_inputs):
    env = ABREnv(experts=["bba-native"], **repo_inputs)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not an expert"):
        env.expert("bba")
