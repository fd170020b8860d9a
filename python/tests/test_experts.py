"""Experts: any abrlab strategy, native or Lua, following the session; played, they are the
strategy itself, to compare's last digit."""

from __future__ import annotations

import numpy as np
import pytest

from abrlab import ABREnv
from abrlab.vector import ABRVectorEnv
from conftest import REPOSITORY
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


GENET = REPOSITORY.parent / "shared" / "datasets" / "genet"


def test_genet_is_an_expert_and_plays_as_its_harness(pensieve_inputs, abrlab_bin, tmp_path):
    """Genet's agent, a native id like pensieve-native, under its harness's recipe (rebuffer
    penalty 10, lowest first level): as an expert it follows `abrlab compare` to the last digit,
    argmax and sampled, its default model being Genet's simulation model in the shared datasets."""
    if not GENET.is_dir():
        pytest.skip(f"Genet's dataset is absent ({GENET}); see ../shared/datasets/README.md")
    inputs = {**pensieve_inputs, "qoe": "linear"}
    for action in ("sampled", "argmax"):
        params = {"genet.first_level": 1, "genet.action": action}
        out = tmp_path / action
        want = compare_totals(abrlab_bin, inputs, out, strategies=["genet"], extra=[
            "--rebuffer-penalty", "10", *(f for key, value in params.items() for f in ("--param", f"{key}={value}"))])
        env = ABREnv(experts=["genet"], params=params, rebuffer_penalty=10, **inputs)
        assert env.expert_ids == ("genet",)
        for trace in env.trace_names[:12]:
            env.reset(options={"trace": trace})
            total, terminated = 0.0, False
            while not terminated:
                _, reward, terminated, _, _ = env.step(env.expert("genet"))
                total += reward
            assert total == pytest.approx(want["genet", trace], rel=0, abs=1e-9), (action, trace)


def test_a_model_of_another_layout_raises(pensieve_inputs):
    with pytest.raises(ValueError, match="does not fit the genet layout: actor/Conv1D/W"):
        ABREnv(experts=["genet"], params={"genet.model": str(REPOSITORY / "Strategies" / "models" / "pensieve.safetensors")},
               **pensieve_inputs)
