"""Steps per second of the environments: `python python/benchmarks/bench.py` from the repository.

One `abrlab/ABR-v0` made with `gymnasium.make` (its wrappers included) stepped with random
actions, and an `ABRVectorEnv` of 64 sessions stepped with random action arrays, on one thread.
With `--baseline-python DIR --baseline-library FILE` (another checkout's `python/` folder and its
built library) it also times one `ABREnv` of each build in alternating rounds, side by side, and
then an `ABRVectorEnv` of `--num-envs` sessions of each the same way, this build's with its
default lean `info` and again with `info="full"` (the record at every step, as builds before
30 November gave it).
Each rate is given per second of wall time and per second of the process's CPU time (what one
core gives when other processes share it).
When pensieve-ppo 3.9.0 is installed (`pip install --no-deps pensieve-ppo==3.9.0`), its gymnasium
`ABREnv` is timed in the same run, in a fresh interpreter with its torch, tensorboard and
transformers imports stubbed (its environment uses none of them; `pensieve_ppo_loop.py` beside
this file), and the ratios of abrlab's rates to its rate are printed with the load average the
run started at.
Then the vector environment on 1 worker thread against 2, side by side, and the scaling.
With `--pensieve-sim DIR` (a checkout of Pensieve's `sim/` folder, run from where its
`env.py` finds its video sizes) it also steps Pensieve's own `env.py` for comparison.

Pensieve's video and test traces are looked for with `--datasets DIR` (a folder laid out like
the project's `../shared/datasets`), then beside this repository (`../shared/datasets`), then
as the fetched datasets `pensieve/test` and `pensieve/video`; without them the run says so on
stderr and times the repository's own traces, which pensieve-ppo cannot read.

It times the installed package (`pip install ./python`); it is no part of it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import abrlab  # noqa: F401 (registers abrlab/ABR-v0)
from abrlab.vector import ABRVectorEnv

LADDER_KBPS = [300, 750, 1200, 1850, 2850, 4300]
PROGRAM = "python python/benchmarks/bench.py"
# The repository this file lies in, and the shared datasets beside it (../shared/datasets).
REPOSITORY = Path(__file__).resolve().parents[2]
SHARED_DATASETS = REPOSITORY.parent / "shared" / "datasets"
PENSIEVE_PPO_LOOP = Path(__file__).resolve().with_name("pensieve_ppo_loop.py")


def dataset_cache() -> Path:
    """Where `abrlab datasets fetch` installs datasets (docs/datasets.md)."""
    if os.environ.get("ABRLAB_DATASETS"):
        return Path(os.environ["ABRLAB_DATASETS"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "abrlab" / "datasets"


def pensieve_dataset(datasets: Path | None = None) -> tuple[dict[str, Path] | None, list[str]]:
    """Pensieve's video-size folder and test-trace folder, and the places looked in."""
    roots = [datasets] if datasets else []
    roots.append(SHARED_DATASETS)
    looked = []
    for root in roots:
        found = {"video": root / "pensieve" / "video_sizes", "traces": root / "pensieve" / "cooked_test_traces"}
        looked.append(str(found["traces"]))
        if all(path.is_dir() for path in found.values()):
            return found, looked
    cache = dataset_cache()
    found = {"video": cache / "pensieve" / "video", "traces": cache / "pensieve" / "test"}
    looked.append(f"{found['traces']} (abrlab datasets fetch pensieve/test pensieve/video)")
    if all(path.is_dir() for path in found.values()):
        return found, looked
    return None, looked


def default_inputs(datasets: Path | None = None, quiet: bool = False) -> dict:
    """Pensieve's video and test traces when they are found, else (saying so on stderr) the repository's."""
    found, looked = pensieve_dataset(datasets)
    if found is not None:
        return {"profile": "pensieve", "video": str(found["video"]), "ladder_kbps": LADDER_KBPS,
                "segment_duration_s": 4, "traces": str(found["traces"])}
    if not quiet:
        print(f"{PROGRAM}: Pensieve's dataset is not found (looked in " + "; ".join(looked) + "); timing the "
              "repository's Traces/default instead. Point it there with --datasets DIR (a folder holding "
              "pensieve/cooked_test_traces and pensieve/video_sizes), or run: abrlab datasets fetch pensieve/test pensieve/video",
              file=sys.stderr)
    return {"profile": "pensieve", "video": str(REPOSITORY / "Traces" / "video.json"),
            "traces": str(REPOSITORY / "Traces" / "default")}


def timed_steps(env, actions: list, seconds: float) -> tuple[int, float, float]:
    """Steps `env` through `actions` (again and again, resetting where an episode ends) for
    `seconds`: the steps, the wall time and the process's CPU time. Every single environment is
    timed by this one loop, so the rates compare."""
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        for action in actions:
            if env.step(action)[2]:
                env.reset()
        steps += len(actions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, elapsed, time.process_time() - cpu


def bench_single(inputs: dict, seconds: float) -> tuple[int, float, float]:
    env = gym.make("abrlab/ABR-v0", **inputs)
    env.reset(seed=0)
    return timed_steps(env, np.random.default_rng(0).integers(0, env.action_space.n, size=1 << 16).tolist(), seconds)


# One `ABREnv` (or, with `num_envs`, an `ABRVectorEnv` on its default of one thread) stepped
# with random actions for a while in a fresh interpreter; prints steps per CPU-second, which
# other processes on the machine disturb less than wall time.
_STEP_LOOP = """
import sys, time
import numpy as np
if {package!r}:
    sys.path.insert(0, {package!r})
if {python_step!r}:
    import abrlab.env
    abrlab.env.Stepper = None
rng = np.random.default_rng(0)
if {num_envs!r}:
    from abrlab.vector import ABRVectorEnv
    env = ABRVectorEnv(num_envs={num_envs!r}, **{inputs!r})
    rows = rng.integers(0, env.single_action_space.n, size=(256, {num_envs!r}))
    def play():
        for row in rows:
            env.step(row)
        return rows.size
else:
    from abrlab import ABREnv
    env = ABREnv(**{inputs!r})
    actions = rng.integers(0, env.action_space.n, size=1 << 14).tolist()
    def play():
        for action in actions:
            if env.step(action)[2]:
                env.reset()
        return len(actions)
env.reset(seed=0)
steps, start, cpu = 0, time.perf_counter(), time.process_time()
while time.perf_counter() - start < {seconds!r}:
    steps += play()
print(steps / (time.process_time() - cpu))
"""


def _pin_to_one_core() -> None:
    """Runs both builds' rounds on the same core, so neither gets a quieter one."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})


def bench_against(inputs: dict, seconds: float, package: Path, library: Path, rounds: int = 20,
                  num_envs: int | None = None, current_options: dict | None = None) -> tuple[float, float, float]:
    """Steps per CPU-second of one `ABREnv` (or of an `ABRVectorEnv` of `num_envs`) in this
    build and in another (`package`, the `python/` folder of another checkout, with its built
    `library`), alternating rounds, each in a fresh interpreter pinned to one core: the medians
    of each and of the per-round ratio (this build over the other). `current_options` are this
    build's keywords beside the inputs (ones the other build may not know)."""
    current, other, ratios = [], [], []
    for round_index in range(rounds):
        rates = {}
        order = ("current", "other") if round_index % 2 == 0 else ("other", "current")
        for name in order:
            environment = dict(os.environ)
            options = {**inputs, **(current_options or {})} if name == "current" else inputs
            code = _STEP_LOOP.format(package=str(package) if name == "other" else "", inputs=options,
                                     seconds=seconds / rounds, num_envs=num_envs, python_step=False)
            if name == "other":
                environment["ABRLAB_LIBRARY"] = str(library)
            result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True,
                                    preexec_fn=_pin_to_one_core)
            rates[name] = float(result.stdout.strip().splitlines()[-1])
        current.append(rates["current"])
        other.append(rates["other"])
        ratios.append(rates["current"] / rates["other"])
    return statistics.median(current), statistics.median(other), statistics.median(ratios)


def bench_steppings(inputs: dict, seconds: float, rounds: int = 10) -> tuple[float, float, float]:
    """Steps per CPU-second of one `ABREnv` stepping in C (`abrlab._stepper`) and of one stepping
    in Python (as without the extension), alternating rounds, each in a fresh interpreter pinned
    to one core: the medians of each and of the per-round ratio (C over Python)."""
    rates: dict[bool, list[float]] = {False: [], True: []}
    ratios = []
    for round_index in range(rounds):
        for python_step in (False, True) if round_index % 2 == 0 else (True, False):
            code = _STEP_LOOP.format(package="", inputs=inputs, seconds=seconds / rounds, num_envs=None, python_step=python_step)
            result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                    preexec_fn=_pin_to_one_core)
            rates[python_step].append(float(result.stdout.strip().splitlines()[-1]))
        ratios.append(rates[False][-1] / rates[True][-1])
    return statistics.median(rates[False]), statistics.median(rates[True]), statistics.median(ratios)


def bench_single_against_pensieve_ppo(inputs: dict, seconds: float, rounds: int) -> tuple[float, float, float, float]:
    """One `abrlab/ABR-v0` (here) and pensieve-ppo's `ABREnv` (in its own interpreter) timed by the
    same loop in alternating rounds of `seconds / rounds` each: the medians of abrlab's rate, of
    pensieve-ppo's (wall time), and of the per-round ratios abrlab over pensieve-ppo, in wall
    time and in CPU time."""
    mine, theirs, wall_ratios, cpu_ratios = [], [], [], []
    for round_index in range(rounds):
        timed = {}
        for name in ("abrlab", "pensieve-ppo") if round_index % 2 == 0 else ("pensieve-ppo", "abrlab"):
            measure = bench_single if name == "abrlab" else bench_pensieve_ppo
            timed[name] = measure(inputs, seconds / rounds)
        (steps, elapsed, cpu), (other_steps, other_elapsed, other_cpu) = timed["abrlab"], timed["pensieve-ppo"]
        mine.append(steps / elapsed)
        theirs.append(other_steps / other_elapsed)
        wall_ratios.append(mine[-1] / theirs[-1])
        cpu_ratios.append((steps / cpu) / (other_steps / other_cpu))
    return (statistics.median(mine), statistics.median(theirs), statistics.median(wall_ratios),
            statistics.median(cpu_ratios))


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


def pensieve_ppo_installed() -> bool:
    return importlib.util.find_spec("pensieve_ppo") is not None


def bench_pensieve_ppo(inputs: dict, seconds: float) -> tuple[int, float, float]:
    """pensieve-ppo's `ABREnv` on the same video and traces, random levels, in its own interpreter."""
    settings = {"traces": inputs["traces"].rstrip("/") + "/", "video": str(Path(inputs["video"]) / "video_size_"),
                "ladder": list(inputs["ladder_kbps"]), "seconds": seconds}
    result = subprocess.run([sys.executable, str(PENSIEVE_PPO_LOOP), json.dumps(settings)], capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError("pensieve-ppo's ABREnv failed: " + (result.stderr.strip().splitlines() or ["no output"])[-1])
    steps, elapsed, cpu = result.stdout.split()[-3:]
    return int(steps), float(elapsed), float(cpu)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog=PROGRAM, description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--num-envs", type=int, default=64, help="sessions of the vector environment (default 64)")
    parser.add_argument("--rounds", type=int, default=6,
                        help="alternating rounds of the side-by-side comparisons (default 6; each takes --seconds in all)")
    parser.add_argument("--pensieve-sim", type=Path, help="Pensieve's sim/ folder, to time its env.py beside abrlab")
    parser.add_argument("--datasets", type=Path,
                        help="a folder holding pensieve/cooked_test_traces and pensieve/video_sizes (as ../shared/datasets)")
    parser.add_argument("--baseline-python", type=Path,
                        help="the python/ folder of another abrlab checkout, to time its single environment beside this one")
    parser.add_argument("--baseline-library", type=Path, help="that checkout's built libABRLabC (with --baseline-python)")
    arguments = parser.parse_args(argv)
    inputs = default_inputs(arguments.datasets)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"inputs: profile {inputs['profile']}, video {inputs['video']}, traces {inputs['traces']}")
    print(f"load average at the start: {load:.2f} on {os.cpu_count()} cores")
    from abrlab.env import Stepper
    print("ABREnv.step: " + ("in C (abrlab._stepper)" if Stepper is not None
                             else "in Python (abrlab._stepper is not built: no C compiler or Python headers at install)"))
    rows = [("abrlab/ABR-v0 (gym.make), random actions", *bench_single(inputs, arguments.seconds)),
            (f"ABRVectorEnv, {arguments.num_envs} sessions", *bench_vector(inputs, arguments.seconds, arguments.num_envs))]
    reference = None
    if not pensieve_ppo_installed():
        rows.append(("pensieve-ppo 3.9.0 ABREnv", 0, 0.0, 0.0, "  not measured (pip install --no-deps pensieve-ppo==3.9.0)"))
    elif "ladder_kbps" not in inputs:
        rows.append(("pensieve-ppo 3.9.0 ABREnv", 0, 0.0, 0.0, "  not measured (it needs Pensieve's dataset: --datasets DIR)"))
    else:
        reference = ("pensieve-ppo 3.9.0 ABREnv, random actions", *bench_pensieve_ppo(inputs, arguments.seconds))
        rows.append(reference)
    if arguments.pensieve_sim:
        rows.append(("Pensieve sim/env.py, random actions", *bench_pensieve(arguments.pensieve_sim, inputs, arguments.seconds)))
    else:
        rows.append(("Pensieve sim/env.py", 0, 0.0, 0.0, "  not measured (--pensieve-sim DIR)"))
    width = max(len(row[0]) for row in rows)
    print(f"{'':<{width}}  {'steps/s (wall)':>16}  {'steps/s (CPU)':>16}")
    for name, steps, elapsed, cpu, *why in rows:
        rates = f"{steps / elapsed:>16,.0f}  {steps / cpu:>16,.0f}" if steps else why[0]
        print(f"{name:<{width}}  {rates}")
    if reference is not None:
        _, steps, elapsed, cpu = reference
        for name, mine, mine_elapsed, mine_cpu in rows[:2]:
            print(f"{name.split(',')[0]} / pensieve-ppo's ABREnv: {mine / mine_elapsed / (steps / elapsed):,.1f}x (wall), "
                  f"{mine / mine_cpu / (steps / cpu):,.1f}x (CPU), at load {load:.2f}")
        mine, theirs, wall_ratio, cpu_ratio = bench_single_against_pensieve_ppo(inputs, arguments.seconds, arguments.rounds)
        print(f"abrlab/ABR-v0 against pensieve-ppo's ABREnv side by side, {arguments.rounds} alternating rounds: "
              f"{mine:,.0f} and {theirs:,.0f} steps/s (wall; medians), ratio {wall_ratio:,.1f}x (wall), {cpu_ratio:,.1f}x (CPU) "
              f"(medians of the rounds' ratios), at load {os.getloadavg()[0]:.2f}")
    if Stepper is not None:
        fast, slow, ratio = bench_steppings(inputs, arguments.seconds * 2, arguments.rounds)
        print(f"ABREnv.step in C against in Python, {arguments.rounds} alternating rounds each in its own interpreter on "
              f"one core: {fast:,.0f} and {slow:,.0f} steps per CPU-second (medians): the C step gives {ratio:.2f}x")
    bench_vector_threads(inputs, arguments.seconds, arguments.num_envs)
    if arguments.baseline_python:
        if not arguments.baseline_library:
            parser.error("--baseline-python needs --baseline-library")
        current, other, ratio = bench_against(inputs, arguments.seconds * 4, arguments.baseline_python, arguments.baseline_library)
        print(f"ABREnv.step, this build {current:,.0f} steps per CPU-second, the baseline {other:,.0f} "
              f"(medians of 20 alternating rounds, each in its own interpreter on one core): ratio {ratio:.3f}")
        current, other, ratio = bench_against(inputs, arguments.seconds * 4, arguments.baseline_python, arguments.baseline_library,
                                              num_envs=arguments.num_envs)
        print(f"ABRVectorEnv.step, {arguments.num_envs} sessions on one thread, this build {current:,.0f} steps per CPU-second, "
              f"the baseline {other:,.0f} (medians of 20 alternating rounds, as above): ratio {ratio:.3f}")
        # The same with this build's full record in every step's info, which builds before 30 November always gave.
        current, other, ratio = bench_against(inputs, arguments.seconds * 4, arguments.baseline_python, arguments.baseline_library,
                                              num_envs=arguments.num_envs, current_options={"info": "full"})
        print(f"ABRVectorEnv.step with info=\"full\" in this build, {arguments.num_envs} sessions, this build {current:,.0f} "
              f"steps per CPU-second, the baseline {other:,.0f} (as above): ratio {ratio:.3f}")


if __name__ == "__main__":
    main()
