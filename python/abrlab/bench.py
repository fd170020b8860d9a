"""Steps per second of the environments: `python -m abrlab.bench`.

One `abrlab/ABR-v0` made with `gymnasium.make` (its wrappers included) stepped with random
actions, and an `ABRVectorEnv` of 64 sessions stepped with random action arrays, on one thread.
With `--baseline-python DIR --baseline-library FILE` (another checkout's `python/` folder and its
built library) it also times one `ABREnv` of each build in alternating rounds, side by side.
Each rate is given per second of wall time and per second of the process's CPU time (what one
core gives when other processes share it).
Then the vector environment on 1 worker thread against 2, side by side, and the scaling.
With `--pensieve-sim DIR` (a checkout of Pensieve's `sim/` folder, run from where its
`env.py` finds its video sizes) it also steps Pensieve's own `env.py` for comparison.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

from . import _options
from .vector import ABRVectorEnv

_PENSIEVE = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "pensieve"


def default_inputs() -> dict:
    """Pensieve's video and test traces when the shared datasets are there, else the repository's."""
    traces = Path(os.environ.get("ABRLAB_DATASETS", _PENSIEVE.parent)) / "pensieve"
    if (traces / "cooked_test_traces").is_dir():
        return {"profile": "pensieve", "video": str(traces / "video_sizes"), "ladder_kbps": [300, 750, 1200, 1850, 2850, 4300],
                "segment_duration_s": 4, "traces": str(traces / "cooked_test_traces")}
    return {"profile": "pensieve", "video": str(_options.repository_file("Traces", "video.json")),
            "traces": str(_options.repository_file("Traces", "default"))}


def bench_single(inputs: dict, seconds: float) -> tuple[int, float, float]:
    env = gym.make("abrlab/ABR-v0", **inputs)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, env.action_space.n, size=1 << 16).tolist()
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for action in actions:
            if env.step(action)[2]:
                env.reset()
        steps += len(actions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed, time.process_time() - cpu


# One `ABREnv` stepped with random actions for a while in a fresh interpreter; prints steps per
# CPU-second, which other processes on the machine disturb less than wall time.
_STEP_LOOP = """
import sys, time
import numpy as np
if {package!r}:
    sys.path.insert(0, {package!r})
from abrlab import ABREnv
env = ABREnv(**{inputs!r})
env.reset(seed=0)
actions = np.random.default_rng(0).integers(0, env.action_space.n, size=1 << 14).tolist()
steps, start, cpu = 0, time.perf_counter(), time.process_time()
while time.perf_counter() - start < {seconds!r}:
    for action in actions:
        if env.step(action)[2]:
            env.reset()
    steps += len(actions)
print(steps / (time.process_time() - cpu))
"""


def _pin_to_one_core() -> None:
    """Runs both builds' rounds on the same core, so neither gets a quieter one."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})


def bench_against(inputs: dict, seconds: float, package: Path, library: Path, rounds: int = 20) -> tuple[float, float, float]:
    """Single-environment steps per CPU-second of this build and of another (`package`, the
    `python/` folder of another checkout, with its built `library`), alternating rounds, each in
    a fresh interpreter pinned to one core: the medians of each and of the per-round ratio (this
    build over the other)."""
    current, other, ratios = [], [], []
    for round_index in range(rounds):
        rates = {}
        order = ("current", "other") if round_index % 2 == 0 else ("other", "current")
        for name in order:
            environment = dict(os.environ)
            code = _STEP_LOOP.format(package=str(package) if name == "other" else "", inputs=inputs, seconds=seconds / rounds)
            if name == "other":
                environment["ABRLAB_LIBRARY"] = str(library)
            result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True,
                                    preexec_fn=_pin_to_one_core)
            rates[name] = float(result.stdout.strip().splitlines()[-1])
        current.append(rates["current"])
        other.append(rates["other"])
        ratios.append(rates["current"] / rates["other"])
    return statistics.median(current), statistics.median(other), statistics.median(ratios)


def bench_vector(inputs: dict, seconds: float, num_envs: int) -> tuple[int, float, float]:
    envs = ABRVectorEnv(num_envs=num_envs, threads=1, **inputs)
    envs.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, envs.single_action_space.n, size=(1024, num_envs))
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for row in actions:
            envs.step(row)
        steps += actions.size
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed, time.process_time() - cpu


def bench_vector_threads(inputs: dict, seconds: float, num_envs: int, rounds: int = 6) -> None:
    """Prints the vector environment's steps per second of wall time on 1 worker thread and on
    2 (at most the cores), side by side in alternating rounds, and the scaling between them."""
    threads = (1, min(2, num_envs, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
    actions = np.random.default_rng(0).integers(0, 6, size=(256, num_envs))
    rates: dict[int, list[float]] = {count: [] for count in threads}
    for round_index in range(rounds):
        for count in threads if round_index % 2 == 0 else threads[::-1]:
            envs = ABRVectorEnv(num_envs=num_envs, threads=count, **inputs)
            envs.reset(seed=0)
            steps, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / rounds:
                for row in actions:
                    envs.step(row)
                steps += actions.size
            rates[count].append(steps / (time.perf_counter() - start))
            envs.close()
    one, more = (statistics.median(rates[count]) for count in threads)
    print(f"ABRVectorEnv, {num_envs} sessions, threads {threads[0]} against {threads[1]}: {one:,.0f} and {more:,.0f} steps/s "
          f"(wall; medians of {rounds} alternating rounds): {threads[1]} threads give {more / one:.2f}x")


def bench_pensieve(sim: Path, inputs: dict, seconds: float) -> tuple[int, float, float]:
    """Pensieve's `sim/env.py` Environment over the same traces, random actions."""
    sys.path.insert(0, str(sim))
    load_trace = importlib.import_module("load_trace")
    spec = importlib.util.spec_from_file_location("pensieve_env", sim / "env.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    times, bandwidths, _ = load_trace.load_trace(inputs["traces"].rstrip("/") + "/")
    environment = module.Environment(all_cooked_time=times, all_cooked_bw=bandwidths)
    actions = np.random.default_rng(0).integers(0, 6, size=1 << 14).tolist()
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for action in actions:
            environment.get_video_chunk(action)
        steps += len(actions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed, time.process_time() - cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m abrlab.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--num-envs", type=int, default=64, help="sessions of the vector environment (default 64)")
    parser.add_argument("--pensieve-sim", type=Path, help="Pensieve's sim/ folder, to time its env.py beside abrlab")
    parser.add_argument("--baseline-python", type=Path,
                        help="the python/ folder of another abrlab checkout, to time its single environment beside this one")
    parser.add_argument("--baseline-library", type=Path, help="that checkout's built libABRLabC (with --baseline-python)")
    arguments = parser.parse_args(argv)
    inputs = default_inputs()
    print(f"inputs: profile {inputs['profile']}, video {inputs['video']}, traces {inputs['traces']}")
    rows = [("abrlab/ABR-v0 (gym.make), random actions", *bench_single(inputs, arguments.seconds)),
            (f"ABRVectorEnv, {arguments.num_envs} sessions", *bench_vector(inputs, arguments.seconds, arguments.num_envs))]
    if arguments.pensieve_sim:
        rows.append(("Pensieve sim/env.py, random actions", *bench_pensieve(arguments.pensieve_sim, inputs, arguments.seconds)))
    else:
        rows.append(("Pensieve sim/env.py", 0, 0.0, 0.0))
    width = max(len(row[0]) for row in rows)
    print(f"{'':<{width}}  {'steps/s (wall)':>16}  {'steps/s (CPU)':>16}")
    for name, steps, elapsed, cpu in rows:
        rates = f"{steps / elapsed:>16,.0f}  {steps / cpu:>16,.0f}" if steps else "  not measured (--pensieve-sim DIR)"
        print(f"{name:<{width}}  {rates}")
    bench_vector_threads(inputs, arguments.seconds, arguments.num_envs)
    if arguments.baseline_python:
        if not arguments.baseline_library:
            parser.error("--baseline-python needs --baseline-library")
        current, other, ratio = bench_against(inputs, arguments.seconds * 4, arguments.baseline_python, arguments.baseline_library)
        print(f"ABREnv.step, this build {current:,.0f} steps per CPU-second, the baseline {other:,.0f} "
              f"(medians of 20 alternating rounds, each in its own interpreter on one core): ratio {ratio:.3f}")


if __name__ == "__main__":
    main()
