"""Where a training run's wall time goes: `python python/benchmarks/train_profile.py --seconds 60`
from the repository.

It trains as `python/examples/train_ppo.py` does (the same PPO settings and defaults: 64 sessions
of `abrlab.sb3.vec_env`, Pensieve's video and profile, 1000 generated `3g` traces, one PyTorch
thread) for `--seconds` of wall time, with clocks around the parts of stable-baselines3's loop,
and prints each part's share of the training's wall time:

- the environment: `ABRVectorEnv.step` (the native step of every session and its numpy arrays);
- the SB3 adapter around it: `ABRSB3VecEnv.step_wait` less the environment (the `dones`, the
  per-session `infos` list, the ended sessions' `final_info`);
- the rest of SB3's step: `VecMonitor`'s episode bookkeeping (`step_wait` of the outer VecEnv
  less the adapter);
- the rest of the rollouts: the policy's forward passes, the rollout buffer and SB3's callbacks
  (`collect_rollouts` less the environment's `step_wait` and the greedy plays it calls);
- the updates: `PPO.train` (the gradient steps);
- the greedy plays: `--select-every`'s choice of the policy to keep (inside the rollouts' callback
  and once after `learn`) and `--eval-every`'s curve points;
- the rest: building the environments and the model, `learn`'s own loop, logging.

`--cprofile N` also runs the training under cProfile and prints its N most expensive functions
by their own time (cProfile slows Python code several times over, so its shares are not the clocks').
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "python" / "examples"))
import train_ppo  # noqa: E402 (python/examples/train_ppo.py: its settings, its trace generation, its train())


class Clock:
    """Seconds spent inside a function, counted once however deeply it nests in itself; with
    `inside`, also the seconds of them spent while that clock's function runs."""

    def __init__(self, inside: Clock | None = None) -> None:
        self.seconds = 0.0
        self.seconds_inside = 0.0
        self.calls = 0
        self._depth = 0
        self._inside = inside

    def wrap(self, function):
        @functools.wraps(function)
        def timed(*arguments, **keywords):
            if self._depth:
                return function(*arguments, **keywords)
            self._depth += 1
            start = time.perf_counter()
            try:
                return function(*arguments, **keywords)
            finally:
                elapsed = time.perf_counter() - start
                self.seconds += elapsed
                if self._inside is not None and self._inside._depth:
                    self.seconds_inside += elapsed
                self.calls += 1
                self._depth -= 1

        return timed


def instrument() -> dict[str, Clock]:
    """Clocks around the environment, the adapter, SB3's VecEnv step, the rollouts, the updates and
    the example's greedy plays."""
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor

    import abrlab.sb3
    import abrlab.vector

    places = {"env": (abrlab.vector.ABRVectorEnv, "step"), "adapter": (abrlab.sb3.ABRSB3VecEnv, "step_wait"),
              "vec_step": (VecMonitor, "step_wait"), "rollouts": (PPO, "collect_rollouts"), "train": (PPO, "train")}
    clocks = {}
    for name, (owner, attribute) in places.items():
        clocks[name] = clock = Clock()
        setattr(owner, attribute, clock.wrap(getattr(owner, attribute)))
    # The example calls its module's `greedy_mean` by name, so the module's attribute is the one to wrap.
    clocks["greedy"] = greedy = Clock(inside=clocks["rollouts"])
    train_ppo.greedy_mean = greedy.wrap(train_ppo.greedy_mean)
    return clocks


def report(clocks: dict[str, Clock], wall: float, steps: int) -> None:
    env, adapter, vec_step = clocks["env"].seconds, clocks["adapter"].seconds, clocks["vec_step"].seconds
    rollouts, updates = clocks["rollouts"].seconds, clocks["train"].seconds
    greedy, greedy_in_rollouts = clocks["greedy"].seconds, clocks["greedy"].seconds_inside
    rows = [
        ("environment (ABRVectorEnv.step)", env),
        ("SB3 adapter around it (ABRSB3VecEnv.step_wait)", adapter - env),
        ("VecMonitor (episode bookkeeping)", vec_step - adapter),
        ("rollouts less the VecEnv step (policy forward, buffer, callbacks)", rollouts - vec_step - greedy_in_rollouts),
        ("updates (PPO.train)", updates),
        ("greedy plays (--select-every's choice, --eval-every's points)", greedy),
        ("the rest (setup, learn's loop, logging)", wall - rollouts - updates - (greedy - greedy_in_rollouts)),
    ]
    print(f"trained {steps:,} steps in {wall:.2f} s of wall time ({steps / wall:,.0f} steps/s), "
          f"{clocks['env'].calls:,} vector steps, {clocks['train'].calls} updates; load average {os.getloadavg()[0]:.2f}")
    for name, seconds in rows:
        print(f"  {name:<68} {seconds:8.2f} s  {100 * seconds / wall:5.1f} %")
    if clocks["env"].calls:
        print(f"  per vector step of {steps // max(clocks['env'].calls, 1)} sessions: environment "
              f"{1e6 * env / clocks['env'].calls:.0f} us, adapter {1e6 * (adapter - env) / clocks['env'].calls:.0f} us, "
              f"VecMonitor {1e6 * (vec_step - adapter) / clocks['env'].calls:.0f} us")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="training time, wall clock (default 60)")
    parser.add_argument("--train", type=Path, help="train on this folder of traces (default: 1000 generated, as train_ppo.py)")
    parser.add_argument("--video", default="pensieve/video", help="Pensieve's video: a dataset id or a path")
    parser.add_argument("--cprofile", type=int, default=0, metavar="N", help="also print cProfile's N costliest functions")
    known, rest = parser.parse_known_args(argv)
    # The example's own options and defaults (num_envs, n_steps, batch size, epochs, threads, …);
    # any of them may be given here too.
    arguments = train_ppo.argument_parser().parse_args(rest + ["--seconds", str(known.seconds), "--video", known.video])
    inputs = {"profile": "pensieve", "video": arguments.video, "ladder_kbps": train_ppo.LADDER, "segment_duration_s": 4}
    with tempfile.TemporaryDirectory() as folder:
        traces = known.train or train_ppo.generated_traces(Path(folder) / "train", arguments.synthetic or 1000, arguments.train_seed)
        clocks = instrument()
        profiler = cProfile.Profile() if known.cprofile else None
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        model, _ = train_ppo.train(arguments, traces, inputs)
        if profiler:
            profiler.disable()
        wall = time.perf_counter() - start
    report(clocks, wall, model.num_timesteps)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(known.cprofile)


if __name__ == "__main__":
    main()
