"""The library names its layouts, and Python finds every field by name."""

from __future__ import annotations

import numpy as np

from abrlab import ABREnv
from abrlab.vector import ABRVectorEnv


def test_the_dict_observation_is_the_context_the_library_lays_out(repo_inputs):
    env = ABREnv(observation="dict", **repo_inputs)
    core = env.core
    assert sorted(env.observation_space.spaces) == sorted(name for name, *_ in core.context_fields)
    assert env.observation_space["last_level"].low == -1 and env.observation_space["buffer_s"].low == 0
    assert env.observation_space["ladder_bps"].shape == (core.levels,)
    np.testing.assert_array_equal(env.reset(seed=0)[0]["ladder_bps"], core.ladder_kbps * 1000)
    ends = [offset + int(np.prod(shape)) for _, offset, shape, _ in core.context_fields]
    assert ends[-1] == core.context_length and all(
        offset == end for (_, offset, _, _), end in zip(core.context_fields[1:], ends))


def test_info_holds_the_record_columns_by_name(repo_inputs):
    env = ABREnv(segments=3, info="full", **repo_inputs)
    env.reset(seed=0)
    total = 0.0
    for step in range(3):
        _, reward, terminated, _, info = env.step(2)
        total += reward
        assert set(env.core.info_fields) <= set(info) <= set(env.core.record_fields) | {"trace"}
        assert info["level"] == 3 and info["segment"] == step + 1
    assert terminated and info["qoe_total"] == total
    assert "live_latency_s" not in info


def test_a_live_profile_fills_its_columns_at_every_step(repo_inputs):
    env = ABREnv(profile="live", segments=3, info="full", **repo_inputs)
    env.reset(seed=0)
    info = env.step(0)[4]
    assert {"live_latency_s", "playback_rate", "playhead_s", "production_wait_s"} <= set(info)


def test_the_vector_env_reads_the_same_names(repo_inputs):
    envs = ABRVectorEnv(num_envs=2, observation="dict", info="full", **repo_inputs)
    obs, _ = envs.reset(seed=0)
    assert obs["ladder_bps"].shape == (2, envs.core.levels) and obs["buffer_s"].shape == (2,)
    info = envs.step(np.zeros(2, dtype=np.int64))[4]
    assert set(envs.core.record_fields) <= set(info)
    assert all("_" + name in info for name in envs.core.record_fields)


def test_the_docs_name_every_context_field(repo_inputs):
    from conftest import REPOSITORY

    docs = (REPOSITORY / "docs" / "python.md").read_text()
    section = docs[docs.index('### Observation `"dict"`'):docs.index("### Reward")]
    for name, *_ in ABREnv(**repo_inputs).core.context_fields:
        assert f"`{name}`" in section, name
