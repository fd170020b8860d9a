"""Rewards sum to `abrlab compare`'s qoe_total, session by session, for the same actions."""

from __future__ import annotations

import csv
import subprocess

import gymnasium as gym
import numpy as np
import pytest

import abrlab  # noqa: F401 (registers abrlab/ABR-v0)
from abrlab.vector import ABRVectorEnv
from conftest import REPOSITORY
from policies import BBA_FIRST_LEVEL as FIRST_LEVEL, bba_level


def compare_totals(abrlab_bin: str, options: dict, out, strategies: list[str] | None = None, extra: list[str] = ()) -> dict:
    """qoe_total by trace of `abrlab compare --strategies bba-native` on the same inputs; by
    (strategy, trace) when `strategies` are given; `extra` are more flags for compare."""
    flags = {"profile": "--profile", "video": "--video", "traces": "--traces", "qoe": "--qoe",
             "segment_duration_s": "--segment-duration-s"}
    command = [abrlab_bin, "compare", "--strategies", *(strategies or ["bba-native"]), "--out", str(out), "--segments-format", "none"]
    for key, value in options.items():
        if key == "ladder_kbps":
            command += ["--ladder-kbps", ",".join(str(kbps) for kbps in value)]
        else:
            command += [flags[key], str(value)]
    command += list(extra)
    subprocess.run(command, check=True, capture_output=True, cwd=REPOSITORY)
    with open(out / "sessions.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    if strategies:
        return {(row["strategy"], row["trace"]): float(row["qoe_total"]) for row in rows}
    return {row["trace"]: float(row["qoe_total"]) for row in rows}


def play_bba(env, trace: str) -> float:
    """One episode on `trace` with bba-native's actions; the sum of its rewards."""
    _, info = env.reset(options={"trace": trace})
    top = env.action_space.n - 1
    level, total = FIRST_LEVEL, 0.0
    while True:
        _, reward, terminated, truncated, info = env.step(level)
        total += reward
        assert not truncated
        if terminated:
            assert total == info["qoe_total"]
            return total
        level = bba_level(env.unwrapped.last_info()["buffer_s"], top)


def test_pensieve_test_traces_sum_to_qoe_total(pensieve_inputs, abrlab_bin, tmp_path):
    want = compare_totals(abrlab_bin, pensieve_inputs, tmp_path)
    env = gym.make("abrlab/ABR-v0", **pensieve_inputs)
    assert len(env.unwrapped.trace_names) == len(want) == 142
    for trace in env.unwrapped.trace_names:
        assert play_bba(env, trace) == pytest.approx(want[trace], rel=0, abs=1e-9)


@pytest.mark.parametrize("profile,qoe", [
    ("default", "linear"), ("default", "log"), ("sabre", "log"), ("sabre", "sabre"), ("live", "linear"), ("live", "nqoe"),
    ("twitch-challenge", "nqoe"), ("twitch-challenge", "linear"),
    ("pensieve", "QoE/linear.lua"),
])
def test_repository_traces_sum_to_qoe_total(repo_inputs, abrlab_bin, tmp_path, profile, qoe):
    """Per-segment models on every profile; Sabre's time average, live NQoE and a Lua QoE
    script, paid at the episode's end."""
    options = {**repo_inputs, "profile": profile, "qoe": str(REPOSITORY / qoe) if qoe.endswith(".lua") else qoe}
    want = compare_totals(abrlab_bin, options, tmp_path)
    env = gym.make("abrlab/ABR-v0", **options)
    for trace in env.unwrapped.trace_names:
        assert play_bba(env, trace) == pytest.approx(want[trace], rel=0, abs=1e-9)


def test_vector_env_episodes_sum_to_qoe_total(pensieve_inputs, abrlab_bin, tmp_path):
    """Eight sessions stepped together through every test trace, autoreset included."""
    want = compare_totals(abrlab_bin, pensieve_inputs, tmp_path)
    envs = ABRVectorEnv(num_envs=8, info="full", **pensieve_inputs)
    _, info = envs.reset(seed=3)
    traces = info["trace"].copy()
    totals = np.zeros(8)
    levels = np.full(8, FIRST_LEVEL, dtype=np.int64)
    done: dict[str, float] = {}
    while len(done) < 142 * 2:
        _, rewards, terminated, _, info = envs.step(levels)
        reset = ~info["_segment"]
        traces[reset] = info["trace"][reset]
        totals += rewards
        for index in np.flatnonzero(terminated):
            name = envs.trace_names[traces[index]]
            assert totals[index] == pytest.approx(want[name], rel=0, abs=1e-9)
            done[f"{name}/{len(done)}"] = totals[index]
        totals[terminated | reset] = 0
        buffers = info["buffer_s"]
        levels = np.array([bba_level(b, 5) if not np.isnan(b) else FIRST_LEVEL for b in buffers], dtype=np.int64)
        levels[terminated | reset] = FIRST_LEVEL
    envs.close()


@pytest.mark.parametrize("first_level", [1, 4])
def test_first_level_plays_the_first_segment_as_compare_does(repo_inputs, abrlab_bin, tmp_path, first_level):
    # first_level=N (compare's --first-level N) plays each episode's first segment at level N
    # without a step: reset returns the observation after it, the first step decides the second
    # segment, and the first step's reward carries the first segment's score, so an episode's
    # rewards still sum to compare's qoe_total.
    want = compare_totals(abrlab_bin, repo_inputs, tmp_path, extra=["--first-level", str(first_level)])
    env = gym.make("abrlab/ABR-v0", first_level=first_level, info="full", **repo_inputs)
    top = env.action_space.n - 1
    for trace in env.unwrapped.trace_names:
        observation, info = env.reset(options={"trace": trace})
        # Pensieve's state: row 0 holds the last level's bitrate over the top one's.
        assert observation[0][-1] > 0, "reset played no segment"
        total, steps = 0.0, 0
        level = bba_level(info["buffer_s"], top)
        while True:
            _, reward, terminated, _, info = env.step(level)
            total += reward
            steps += 1
            if terminated:
                break
            level = bba_level(info["buffer_s"], top)
        assert steps == 47, "the first of 48 segments is the setting's, not a step"
        assert total == pytest.approx(want[trace], rel=0, abs=1e-9)
        assert total == pytest.approx(info["qoe_total"], rel=0, abs=1e-9)
