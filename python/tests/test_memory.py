"""A vector environment too large for the process is refused, never a dead interpreter: past
`MAX_NUM_ENVS` sessions a ValueError naming `num_envs`; within it, sessions the process cannot hold
(under an address-space limit here) a MemoryError, from the constructor or from `reset`. Each
probe runs in its own interpreter, so a crash fails its test instead of the whole suite."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

resource = pytest.importorskip("resource", reason="the resource module (RLIMIT_AS) is POSIX-only")

PRELUDE = """
import resource
import numpy as np
import gymnasium as gym
import abrlab
from abrlab.vector import ABRVectorEnv, MAX_NUM_ENVS
inputs = {inputs!r}

def address_space():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()

def limit_to(extra):
    \"\"\"Lets the process grow by `extra` bytes of address space, no more.\"\"\"
    limit = address_space() + extra
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
"""


def run_probe(repo_inputs: dict, body: str) -> str:
    code = PRELUDE.format(inputs=repo_inputs) + textwrap.dedent(body)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"exit {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr[-2000:]}"
    return result.stdout


needs_proc = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the address space from /proc/self/statm (Linux)")


def test_num_envs_past_the_bound_is_a_value_error_naming_it(repo_inputs):
    out = run_probe(repo_inputs, """
        assert MAX_NUM_ENVS == 65536
        for make in (lambda n: ABRVectorEnv(num_envs=n, **inputs), lambda n: gym.make_vec("abrlab/ABR-v0", num_envs=n, **inputs)):
            for n in (10**6, 65537, 2**40):
                try:
                    make(n)
                except ValueError as error:
                    print("raised:", error)
        try:
            ABRVectorEnv(num_envs=2, threads=10**6, **inputs)
        except ValueError as error:
            print("raised:", error)
    """)
    assert out.count("raised: num_envs must be an integer from 1 to 65536, not ") == 6, out
    assert "not 1000000\n" in out and "not 1099511627776\n" in out
    assert "raised: threads must be an integer from 1 to 1024, not 1000000" in out


@needs_proc
def test_sessions_the_process_cannot_hold_are_a_memory_error(repo_inputs):
    """Under 512 MB of address space to spare, 65,536 sessions (about 1.3 GB) are refused with a
    MemoryError before anything is allocated (they killed the interpreter at reset), and an
    environment that fits still works in the same process."""
    out = run_probe(repo_inputs, """
        limit_to(512 << 20)
        try:
            ABRVectorEnv(num_envs=MAX_NUM_ENVS, **inputs).reset(seed=0)
        except MemoryError as error:
            print("raised:", error)
        envs = ABRVectorEnv(num_envs=1000, **inputs)
        envs.reset(seed=0)
        for _ in range(60):
            envs.step(np.ones(1000, dtype=np.int64))
        print("a thousand sessions played")
    """)
    assert re.search(r"raised: 65536 sessions need about [0-9.]+ GB of memory, which this process cannot allocate now", out), out
    assert "a thousand sessions played" in out


@needs_proc
def test_a_reset_that_would_not_fit_is_a_memory_error(repo_inputs):
    """Sessions are allocated at reset: two environments that each fit when made but not together
    make the second reset a MemoryError, and the first goes on."""
    out = run_probe(repo_inputs, """
        limit_to(512 << 20)
        first = ABRVectorEnv(num_envs=15000, **inputs)
        second = ABRVectorEnv(num_envs=15000, **inputs)
        first.reset(seed=0)
        try:
            second.reset(seed=0)
        except MemoryError as error:
            print("raised:", error)
        first.step(np.zeros(15000, dtype=np.int64))
        print("the first goes on")
    """)
    assert "raised: 15000 sessions need about" in out and "which this process cannot allocate now" in out, out
    assert "the first goes on" in out
