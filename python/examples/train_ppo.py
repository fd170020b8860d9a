"""Train a PPO policy from scratch with stable-baselines3, then compare it in abrlab on held-out traces.

Training set: synthetic traces from `abrlab traces generate` (--train-count of them, seeded from
--train-seed): the `3g` preset (a Markov-modulated link with noise and rare outages) widened to
0.2–6 Mbps, the band Pensieve's own training traces were chosen in, which spans the whole ladder
(0.3–4.3 Mbps). Generated traces share nothing with Pensieve's test traces by construction. Sabre's
FCC set (`train/fcc-hd`), the other held-out set here, does not serve as it is: its traces average
10.7–41.5 Mbps, above the ladder's top, so a policy learns only "always the top level"; scaled into
the ladder's range, their first minute (about 1.3 Mbps before the ramp to 20 Mbps) becomes 0.13
Mbps, under the lowest level, and every rule rebuffers for a minute (pensieve-native's mean QoE on
the first 50 of them is −214). `--train DIR` trains on traces of your own instead.

Evaluation: `abrlab compare --strategies mlp pensieve-native robust_mpc-native bba-native` on
Pensieve's 142 test traces (`pensieve/test`) with Pensieve's video and profile — traces the
policy never saw. The policy chooses the first segment itself (its observation starts at zero),
as `mlp` does in compare; the rules start at their fixed level (1, Pensieve's DEFAULT_QUALITY).

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # CPU-only; PyPI's is the CUDA build
    pip install './python[sb3]'
    abrlab datasets fetch pensieve/test pensieve/video
    python python/examples/train_ppo.py --seconds 300 --seed 0 --out results/train_ppo

--test and --video take dataset ids or paths; the abrlab binary comes from $ABRLAB_BIN,
the repository's .build/release or debug build, or PATH.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[2]
LADDER = [300, 750, 1200, 1850, 2850, 4300]
STRATEGIES = ["mlp", "pensieve-native", "robust_mpc-native", "bba-native"]


def abrlab_binary() -> str:
    for candidate in (os.environ.get("ABRLAB_BIN"), REPOSITORY / ".build/release/abrlab", REPOSITORY / ".build/debug/abrlab", shutil.which("abrlab")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    raise SystemExit("train_ppo: no abrlab binary; build it (swift build -c release --product abrlab) or set ABRLAB_BIN")


def generated_traces(target: Path, count: int, seed: int) -> Path:
    """`count` synthetic traces in Pensieve's format: the 3g preset over 0.2–6 Mbps."""
    if target.exists():
        shutil.rmtree(target)
    command = [abrlab_binary(), "traces", "generate", "--preset", "3g", "--min-kbps", "200", "--max-kbps", "6000",
               "--count", str(count), "--seed", str(seed), "--format", "pensieve", "--out-dir", str(target)]
    print(" ".join(command), flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return target


def train(arguments: argparse.Namespace, traces: Path, inputs: dict):
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback

    import abrlab.sb3

    class Deadline(BaseCallback):
        """Stops training at the wall-clock deadline and reports progress each rollout."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.deadline = time.monotonic() + seconds

        def _on_step(self) -> bool:
            return time.monotonic() < self.deadline

        def _on_rollout_end(self) -> None:
            returns = [episode["r"] for episode in self.model.ep_info_buffer]
            mean = f"{np.mean(returns):.2f}" if returns else "-"
            print(f"{self.num_timesteps:>9,} steps, mean episode QoE {mean} (last {len(returns)} episodes)", flush=True)

    torch.set_num_threads(arguments.threads)
    envs = abrlab.sb3.vec_env(num_envs=arguments.num_envs, seed=arguments.seed, traces=str(traces), **inputs)
    model = PPO(
        "MlpPolicy", envs, seed=arguments.seed, device="cpu", verbose=0,
        n_steps=arguments.n_steps, batch_size=arguments.batch_size, n_epochs=arguments.epochs,
        learning_rate=arguments.learning_rate, gamma=arguments.gamma, gae_lambda=0.95,
        ent_coef=arguments.entropy, clip_range=0.2,
    )
    started = time.monotonic()
    model.learn(total_timesteps=10**12, callback=Deadline(arguments.seconds))
    print(f"trained {model.num_timesteps:,} steps in {time.monotonic() - started:.0f} s", flush=True)
    envs.close()
    return model


def compare(arguments: argparse.Namespace, model_file: Path, inputs: dict) -> dict[str, tuple[float, float]]:
    """Mean total QoE and mean startup delay per strategy of `abrlab compare` on the held-out traces."""
    out = arguments.out / "compare"
    command = [abrlab_binary(), "compare", "--strategies", *STRATEGIES, "--param", f"mlp.model={model_file}",
               "--out", str(out), "--profile", "pensieve", "--video", inputs["video"],
               "--ladder-kbps", ",".join(map(str, LADDER)), "--segment-duration-s", "4", "--traces", arguments.test]
    print(" ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=REPOSITORY, stdout=subprocess.DEVNULL)
    rows: dict[str, list[tuple[float, float]]] = {}
    with open(out / "sessions.csv", newline="") as file:
        for row in csv.DictReader(file):
            rows.setdefault(row["strategy"], []).append((float(row["qoe_total"]), float(row["startup_s"])))
    return {strategy: tuple(np.mean(values, axis=0).tolist()) for strategy, values in rows.items()}


def fixed_start_mean(model_file: Path, inputs: dict, test: str, first_level: int = 1) -> float:
    """The policy's mean QoE on the held-out traces with its first segment at `first_level`, as
    the rules start, played in the environment: how much of its result is its choice of start."""
    from abrlab import ABREnv
    from abrlab.policy import load_mlp

    policy = load_mlp(model_file)
    env = ABREnv(traces=test, **inputs)
    totals = []
    for trace in env.trace_names:
        observation, _ = env.reset(options={"trace": trace})
        level, total, terminated = first_level, 0.0, False
        while not terminated:
            observation, reward, terminated, _, _ = env.step(level)
            total += reward
            level = policy(observation)
        totals.append(total)
    env.close()
    return float(np.mean(totals))


def prepare_out(parser: argparse.ArgumentParser, out: Path) -> None:
    """Makes `out` and checks that a file can be written in it; exits through `parser` if not."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".write-check-"):
            pass
    except OSError as error:
        parser.error(f"--out {out}: cannot write there ({error.strerror or error}); choose a writable folder")


def argument_parser() -> argparse.ArgumentParser:
    """The example's options and their defaults (python/benchmarks/train_profile.py trains with them too)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300, help="training time, wall clock (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-count", type=int, default=1000, help="synthetic training traces to generate (default 1000)")
    parser.add_argument("--train-seed", type=int, default=100_000, help="first seed of the training traces (default 100000)")
    parser.add_argument("--train", type=Path, help="train on this folder of traces instead of generated ones")
    parser.add_argument("--test", default="pensieve/test", help="held-out traces for the comparison (default pensieve/test)")
    parser.add_argument("--video", default="pensieve/video", help="Pensieve's video: a dataset id or a path (default pensieve/video)")
    parser.add_argument("--num-envs", type=int, default=64, help="sessions stepped together (default 64)")
    parser.add_argument("--n-steps", type=int, default=96, help="steps per session per rollout (default 96, two episodes)")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy coefficient (default 0.01)")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads (default 1)")
    parser.add_argument("--out", type=Path, default=REPOSITORY / "results/train_ppo")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = argument_parser()
    arguments = parser.parse_args(argv)
    # The out folder is made and checked before any training: a run must never be lost at its end.
    prepare_out(parser, arguments.out)
    from abrlab.policy import from_sb3

    inputs = {"profile": "pensieve", "video": arguments.video, "ladder_kbps": LADDER, "segment_duration_s": 4}
    traces = arguments.train or generated_traces(arguments.out / "train-traces", arguments.train_count, arguments.train_seed)
    model = train(arguments, traces, inputs)
    model_file = arguments.out / "ppo.safetensors"
    from_sb3(model, model_file)
    print(f"saved {model_file}", flush=True)
    means = compare(arguments, model_file, inputs)
    for strategy in STRATEGIES:
        qoe, startup = means[strategy]
        print(f"{strategy:<18} mean QoE {qoe:8.3f}, startup {startup:5.2f} s")
    # The rules start at level 1; the policy picks its first level. The same policy made to start
    # at level 1 shows how much of its result is that choice.
    print(f"mlp with its first segment at level 1, as the rules start: mean QoE {fixed_start_mean(model_file, inputs, arguments.test):8.3f}")


if __name__ == "__main__":
    main()
