"""The C step (abrlab._stepper) against the Python one it replaces: the same values, the same
`info`, lean and full (keys in the same order), the same errors; and gym.make's environment
without wrappers."""

from __future__ import annotations

import gc
import os
import threading
import weakref

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ClosedEnvironmentError, ResetNeeded

import abrlab
import abrlab.env as env_module

needs_stepper = pytest.mark.skipif(env_module.Stepper is None, reason="abrlab._stepper is not built (no C compiler or Python headers at install)")


def test_stepper_built_where_required():
    if os.environ.get("ABRLAB_REQUIRE_STEPPER") == "1":
        assert env_module.Stepper is not None, "the install did not build abrlab._stepper"


def python_stepping(inputs: dict, monkeypatch, **keywords) -> abrlab.ABREnv:
    """An environment that steps in Python, as one does without the extension."""
    with monkeypatch.context() as patch:
        patch.setattr(env_module, "Stepper", None)
        return abrlab.ABREnv(**inputs, **keywords)


@needs_stepper
@pytest.mark.parametrize("info", ["lean", "full"])
def test_c_step_equals_python_step(repo_inputs, monkeypatch, info):
    fast, slow = abrlab.ABREnv(info=info, **repo_inputs), python_stepping(repo_inputs, monkeypatch, info=info)
    assert isinstance(fast.step, env_module.Stepper) and not isinstance(slow.step, env_module.Stepper)
    for env in (fast, slow):
        env.reset(seed=5)
    rng = np.random.default_rng(3)
    kinds = [int, np.int64, lambda level: np.array(level, dtype=np.int32), lambda level: np.array([level])]
    episodes = 0
    for index in range(600):
        action = kinds[index % len(kinds)](int(rng.integers(0, fast.action_space.n)))
        got, want = fast.step(action), slow.step(action)
        assert got[0].dtype == want[0].dtype and got[0].shape == want[0].shape and np.array_equal(got[0], want[0])
        # The observation is the step's own array, as `state.copy()` makes it.
        assert got[0].flags.c_contiguous and got[0].flags.writeable and got[0].flags.owndata
        assert not np.shares_memory(got[0], fast._state)
        assert got[1:4] == want[1:4] and all(type(a) is type(b) for a, b in zip(got[1:4], want[1:4]))
        assert list(got[4].items()) == list(want[4].items())
        assert list(fast.last_info().items()) == list(slow.last_info().items())
        if got[2] or got[3]:
            episodes += 1
            # Alternately the shuffle's next trace and one asked for by name: C's reset and Python's.
            options = {"trace": fast.trace_names[episodes % len(fast.trace_names)]} if episodes % 2 else None
            (fast_observation, fast_info), (slow_observation, slow_info) = fast.reset(options=options), slow.reset(options=options)
            assert np.array_equal(fast_observation, slow_observation) and fast_observation.flags.owndata
            assert list(fast_info.items()) == list(slow_info.items()) and fast.trace == slow.trace == fast_info["trace"]
            assert fast.step.trace == fast.trace
            assert list(fast.last_info().items()) == list(slow.last_info().items())
    assert episodes >= 5


@needs_stepper
def test_c_reset_refuses_as_python_does(repo_inputs, monkeypatch):
    fast, slow = abrlab.ABREnv(**repo_inputs), python_stepping(repo_inputs, monkeypatch)
    for env in (fast, slow):
        env.reset(seed=0)
        env.close()
    with pytest.raises(ClosedEnvironmentError) as python_error:
        slow.reset()
    with pytest.raises(ClosedEnvironmentError) as c_error:
        fast.reset()
    assert str(c_error.value) == str(python_error.value)
    assert not fast.core.lock.locked()


@needs_stepper
@pytest.mark.parametrize("action", [-1, 6, 1 << 70, True, 1.0, "1", np.array([1, 2]), None, np.int64(-1), np.int32(6),
                                    np.uint64(1 << 63), np.uint64(2**64 - 1), np.array(2**64 - 1, dtype=np.uint64),
                                    np.bool_(True), np.float64(1.0)])
def test_c_step_refuses_as_python_does(repo_inputs, monkeypatch, action):
    fast, slow = abrlab.ABREnv(**repo_inputs), python_stepping(repo_inputs, monkeypatch)
    for env in (fast, slow):
        env.reset(seed=0)
    with pytest.raises(ValueError) as python_error:
        slow.step(action)
    with pytest.raises(ValueError) as c_error:
        fast.step(action)
    assert str(c_error.value) == str(python_error.value)
    # A refused step changes nothing.
    assert list(fast.step(1)[4].items()) == list(slow.step(1)[4].items())


@needs_stepper
def test_c_step_takes_one_action_and_no_keywords(repo_inputs):
    env = abrlab.ABREnv(**repo_inputs)
    env.reset(seed=0)
    for call in (lambda: env.step(), lambda: env.step(1, 2), lambda: env.step(action=1), lambda: env.step(1, extra=2)):
        with pytest.raises(TypeError, match="step\\(\\) takes the action only"):
            call()
    assert env.step(1)[0].shape == env.observation_space.shape


@pytest.mark.parametrize("stepping", ["c", "python"])
def test_order_and_closing(repo_inputs, monkeypatch, stepping):
    env = abrlab.ABREnv(**repo_inputs) if stepping == "c" else python_stepping(repo_inputs, monkeypatch)
    with pytest.raises(ResetNeeded, match="step before reset"):
        env.step(0)
    env.reset(seed=0)
    env.step(0)
    env.close()
    with pytest.raises(ClosedEnvironmentError):
        env.step(0)


def test_the_environment_and_its_library_are_freed(repo_inputs):
    env = abrlab.ABREnv(**repo_inputs)
    env.reset(seed=0)
    env.step(0)
    gone, finalizer = weakref.ref(env), env.core._finalizer
    del env
    gc.collect()
    assert gone() is None and not finalizer.alive


@pytest.mark.parametrize("stepping", ["c", "python"])
def test_steps_from_several_threads_stay_whole(repo_inputs, monkeypatch, stepping):
    """Each thread's step returns one step's values, the observation and info of the same step:
    either step holds the lock from the library's step to the reading of its buffers (the full
    info shows the step's bitrate beside the observation's). (The threads share one episode: a
    step after another thread ended it is refused, and the thread resets.)"""
    if stepping == "c" and env_module.Stepper is None:
        pytest.skip("abrlab._stepper is not built (no C compiler or Python headers at install)")
    env = (abrlab.ABREnv(info="full", **repo_inputs) if stepping == "c"
           else python_stepping(repo_inputs, monkeypatch, info="full"))
    env.reset(seed=0)
    top_kbps = float(env.ladder_kbps.max())
    mismatches: list[str] = []
    checked = []

    def run() -> None:
        for index in range(300):
            try:
                observation, _, terminated, truncated, info = env.step(index % 3)
            except ValueError as error:
                assert "reset" in str(error)
                env.reset()
                continue
            checked.append(1)
            if not np.isclose(observation[0, -1] * top_kbps, info["bitrate_kbps"], rtol=1e-6):
                mismatches.append(repr(info))
            if terminated or truncated:
                env.reset()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not mismatches and len(checked) > 600


def test_gym_make_gives_the_environment_itself(repo_inputs):
    made = gym.make("abrlab/ABR-v0", **repo_inputs)
    assert type(made) is abrlab.ABREnv
    with pytest.raises(ResetNeeded):
        made.step(0)
    checked = gym.make("abrlab/ABR-v0", disable_env_checker=False, **repo_inputs)
    assert "PassiveEnvChecker" in str(checked)
    checked.reset(seed=0)
    checked.step(0)


@needs_stepper
def test_the_environment_lock_excludes_and_refuses_an_unheld_release(repo_inputs):
    from abrlab._stepper import Lock

    env = abrlab.ABREnv(**repo_inputs)
    assert type(env.core.lock) is Lock
    lock = Lock()
    with pytest.raises(RuntimeError, match="release unlocked lock"):
        lock.release()
    with lock:
        assert lock.locked()
    assert not lock.locked() and lock.acquire() is True and lock.locked()
    lock.release()
    # Threads adding under the lock lose no update; the one holding it makes the others wait.
    total = [0]

    def add() -> None:
        for _ in range(20_000):
            with lock:
                value = total[0]
                total[0] = value + 1

    threads = [threading.Thread(target=add) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert total[0] == 80_000
    # A step waits for a lock another thread holds.
    env.reset(seed=0)
    stepped = threading.Event()
    with env.core.lock:
        worker = threading.Thread(target=lambda: (env.step(1), stepped.set()))
        worker.start()
        assert not stepped.wait(0.2)
    worker.join(5)
    assert stepped.is_set()
