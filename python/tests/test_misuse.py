"""Misuse that used to kill the interpreter: a closed environment, one environment stepped from
several threads, pickling and copying. Each probe runs in its own interpreter, so a crash fails
its test instead of the whole suite."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PRELUDE = """
import copy, pickle, threading
import gymnasium as gym
import numpy as np
from gymnasium.error import ClosedEnvironmentError
import abrlab
from abrlab import ABREnv
from abrlab.vector import ABRVectorEnv
inputs = {inputs!r}
"""


def run_probe(repo_inputs: dict, body: str) -> str:
    """Runs `body` in a fresh interpreter; fails on any exit but 0 (a signal, an abort) and
    returns what it printed."""
    code = PRELUDE.format(inputs=repo_inputs) + textwrap.dedent(body)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"exit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr[-2000:]}"
    return result.stdout


@pytest.mark.parametrize("call", ["step(0)", "reset()", "reset(seed=1)", "unwrapped.expert('bba')", "unwrapped.experts()"])
def test_a_closed_environment_raises_instead_of_using_the_freed_session(repo_inputs, call):
    out = run_probe(repo_inputs, f"""
        env = gym.make("abrlab/ABR-v0", experts=["bba"], **inputs)
        env.reset(seed=0)
        env.step(0)
        env.close()
        env.close()  # twice is harmless
        try:
            env.{call}
        except ClosedEnvironmentError as error:
            print("raised:", error)
    """)
    assert "raised: the abrlab environment is closed" in out


@pytest.mark.parametrize("call", ["step(np.zeros(3, dtype=np.int64))", "reset()", "expert_actions()", "expert('bba')"])
def test_a_closed_vector_environment_raises(repo_inputs, call):
    out = run_probe(repo_inputs, f"""
        envs = ABRVectorEnv(num_envs=3, experts=["bba"], **inputs)
        envs.reset(seed=0)
        envs.close()
        try:
            envs.{call}
        except ClosedEnvironmentError as error:
            print("raised:", error)
    """)
    assert "raised: the abrlab environment is closed" in out


def test_one_environment_stepped_from_four_threads_plays_one_consistent_session(repo_inputs):
    """Steps are taken one at a time: the rewards the threads collect add up to the session's
    total, as the same actions played on one thread give, in every round."""
    out = run_probe(repo_inputs, """
        def episode_alone(trace):
            env = ABREnv(**inputs)
            env.reset(options={"trace": trace})
            total, steps, terminated = 0.0, 0, False
            while not terminated:
                _, reward, terminated, _, _ = env.step(1)
                total += reward
                steps += 1
            return total, steps

        env = ABREnv(**inputs)
        trace = env.trace_names[0]
        expected = episode_alone(trace)
        for round in range(5):
            env.reset(options={"trace": trace})
            collected = [[] for _ in range(4)]
            def play(rewards):
                while True:
                    try:
                        rewards.append(env.step(1)[1])
                    except ValueError:
                        return  # the episode has ended
            threads = [threading.Thread(target=play, args=(rewards,)) for rewards in collected]
            for thread in threads: thread.start()
            for thread in threads: thread.join()
            rewards = [reward for rewards in collected for reward in rewards]
            assert len(rewards) == expected[1], (len(rewards), expected)
            assert abs(sum(rewards) - expected[0]) < 1e-9 * max(1, abs(expected[0])), (sum(rewards), expected)
        # The vector environment too: threads stepping it never corrupt it.
        envs = ABRVectorEnv(num_envs=4, **inputs)
        envs.reset(seed=0)
        def step_vector():
            for _ in range(300):
                envs.step(np.ones(4, dtype=np.int64))
        threads = [threading.Thread(target=step_vector) for _ in range(4)]
        for thread in threads: thread.start()
        for thread in threads: thread.join()
        print("consistent")
    """)
    assert "consistent" in out


@pytest.mark.parametrize("make", [
    'gym.make("abrlab/ABR-v0", **inputs)', "ABREnv(**inputs)", "ABRVectorEnv(num_envs=2, **inputs)",
])
@pytest.mark.parametrize("copier", ["pickle.dumps", "copy.deepcopy"])
def test_pickling_or_copying_an_environment_says_to_build_one_per_worker(repo_inputs, make, copier):
    out = run_probe(repo_inputs, f"""
        env = {make}
        try:
            {copier}(env)
        except TypeError as error:
            print("raised:", error)
    """)
    assert "raised: abrlab environments hold native sessions and cannot be pickled or copied; build an environment in each worker" in out


def test_an_integer_past_64_bits_names_its_keyword(repo_inputs):
    from abrlab import ABREnv

    with pytest.raises(ValueError, match=r"^segments: takes an integer from -2\^63 to 2\^63 - 1"):
        ABREnv(**repo_inputs, segments=2**70)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no named pipes on this platform")
@pytest.mark.parametrize("make,given", [
    ("ABREnv(video=fifo, traces=inputs['traces'])", "video"),
    ("ABRVectorEnv(num_envs=2, video=fifo, traces=inputs['traces'])", "video"),
    ("ABREnv(video=inputs['video'], traces=fifo)", "trace"),
])
def test_a_fifo_given_as_an_input_is_refused_at_once(repo_inputs, tmp_path, make, given):
    """A named pipe nobody writes to blocked the environment forever (open and read wait for a
    writer): it is an exception within seconds, saying the file is not a regular one."""
    import os

    fifo = tmp_path / f"{given}.fifo"
    os.mkfifo(fifo)
    code = PRELUDE.format(inputs=repo_inputs) + textwrap.dedent(f"""
        fifo = {str(fifo)!r}
        try:
            {make}
        except Exception as error:
            print("raised:", type(error).__name__, error)
    """)
    try:
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a FIFO given as the {given} hung the environment for 60 s")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "raised:" in result.stdout and str(fifo) in result.stdout, result.stdout
    assert "FIFO" in result.stdout or "not a regular file" in result.stdout, result.stdout
