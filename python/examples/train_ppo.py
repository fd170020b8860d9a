"""Train a PPO policy from scratch with stable-baselines3, then compare it in abrlab on held-out traces.

Training set: Sabre's 1000 FCC broadband traces (`train/fcc-hd`, `hd_fs`), none of them one of
Pensieve's test traces and from another measurement campaign (docs/datasets.md), with every
bandwidth scaled by --fcc-scale (default 0.1). As measured they average 10.7–41.5 Mbps, far
above the top of Pensieve's ladder (4.3 Mbps): a policy trained on them learns only "always the
top level". Scaled by 0.1 they span 1.1–4.2 Mbps, the range the ladder was built for and the
one Pensieve's own FCC training traces were chosen in (0.2–6 Mbps), while keeping the measured
traces' variability. The scaled copies are written under --out; nothing in the repository or
the dataset changes. `--train DIR` trains on traces of your own instead (e.g. from
`abrlab traces generate --preset 3g --format pensieve`).

Evaluation: `abrlab compare --strategies mlp pensieve-native robust_mpc-native bba-native` on
Pensieve's 142 test traces (`pensieve/test`) with Pensieve's video and profile — traces the
policy never saw. The policy chooses the first segment itself (its observation starts at zero),
as `mlp` does in compare; the rules start at their fixed level (1, Pensieve's DEFAULT_QUALITY).

    pip install "./python[sb3]"
    abrlab datasets fetch train/fcc-hd pensieve/test pensieve/video
    python python/examples/train_ppo.py --seconds 480 --seed 0 --out results/train_ppo

--fcc, --test and --video take dataset ids or paths; the abrlab binary comes from $ABRLAB_BIN,
the repository's .build/release or debug build, or PATH.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
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


def dataset_folder(value: str) -> Path:
    """A folder as given, or the installed folder of a dataset id (`abrlab datasets path ID`)."""
    if Path(value).is_dir():
        return Path(value)
    result = subprocess.run([abrlab_binary(), "datasets", "path", value], capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"train_ppo: {value}: {result.stderr.strip() or 'not a folder or a dataset id'}")
    return Path(result.stdout.strip())


def scaled_fcc(source: Path, target: Path, scale: float, limit: int | None) -> Path:
    """Sabre's JSON traces (`duration_ms`, `bandwidth_kbps`) as Pensieve traces (time_s, Mbps) times `scale`."""
    files = sorted(source.glob("*.json"))[:limit]
    if not files:
        raise SystemExit(f"train_ppo: no Sabre traces (*.json) in {source}")
    target.mkdir(parents=True, exist_ok=True)
    for file in files:
        time_s, lines = 0.0, []
        for period in json.loads(file.read_text()):
            lines.append(f"{time_s:.3f}\t{period['bandwidth_kbps'] * scale / 1000:.6f}")
            time_s += period["duration_ms"] / 1000
        (target / file.stem).write_text("\n".join(lines) + "\n")
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


def compare(arguments: argparse.Namespace, model_file: Path, inputs: dict) -> dict[str, float]:
    """Mean total QoE per strategy of `abrlab compare` on the held-out traces."""
    out = arguments.out / "compare"
    command = [abrlab_binary(), "compare", "--strategies", *STRATEGIES, "--param", f"mlp.model={model_file}",
               "--out", str(out), "--segments", "none", "--profile", "pensieve", "--video", inputs["video"],
               "--ladder-kbps", ",".join(map(str, LADDER)), "--segment-duration-s", "4", "--traces", arguments.test]
    print(" ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=REPOSITORY, stdout=subprocess.DEVNULL)
    totals: dict[str, list[float]] = {}
    with open(out / "sessions.csv", newline="") as file:
        for row in csv.DictReader(file):
            totals.setdefault(row["strategy"], []).append(float(row["qoe_total"]))
    return {strategy: float(np.mean(values)) for strategy, values in totals.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=480, help="training time, wall clock (default 480)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fcc", default="train/fcc-hd", help="Sabre's FCC traces: a dataset id or a folder (default train/fcc-hd)")
    parser.add_argument("--fcc-scale", type=float, default=0.1, help="factor on the FCC traces' bandwidth (default 0.1)")
    parser.add_argument("--fcc-limit", type=int, help="train on the first N FCC traces only (a smoke run)")
    parser.add_argument("--train", type=Path, help="train on this folder of traces instead of the scaled FCC traces")
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
    arguments = parser.parse_args(argv)
    from abrlab.policy import from_sb3

    inputs = {"profile": "pensieve", "video": arguments.video, "ladder_kbps": LADDER, "segment_duration_s": 4}
    traces = arguments.train or scaled_fcc(dataset_folder(arguments.fcc), arguments.out / "train-traces", arguments.fcc_scale,
                                           arguments.fcc_limit)
    model = train(arguments, traces, inputs)
    model_file = arguments.out / "ppo.safetensors"
    from_sb3(model, model_file)
    print(f"saved {model_file}", flush=True)
    means = compare(arguments, model_file, inputs)
    for strategy in STRATEGIES:
        print(f"{strategy:<18} mean QoE {means[strategy]:8.3f}")


if __name__ == "__main__":
    main()
