"""Train a PPO policy from scratch with stable-baselines3, then compare it in abrlab on held-out traces.

Training set: Pensieve's own, the 127 traces its agent was trained on (`pensieve/train`: 68 Norway
HSDPA logs and 59 FCC slices, none a test trace). `--train` takes another dataset id or a folder;
`--synthetic N` trains on N generated traces instead (the `3g` preset widened to 0.2–6 Mbps, the
band Pensieve's training traces were chosen in, sharing nothing with the test traces by
construction).

Evaluation: `abrlab compare --strategies mlp pensieve-native robust_mpc-native bba-native genet` on
Pensieve's 142 test traces (`pensieve/test`) with Pensieve's video and profile — traces the
policy never saw. `--first-level N` starts every strategy alike, the policy in training too: each
session's first segment plays at level N (1-based, as segments.csv counts) without asking anyone;
`--first-level 2` is the rules' own start, Pensieve's DEFAULT_QUALITY (750 kbps), so they score as
they do alone. Without it the policy chooses the first segment itself, a start worth about 10 QoE
(docs/python.md).

Learning curve: `--eval-every S` evaluates the policy on the held-out traces after every S seconds
of training (the clock stops while it evaluates) and once at the end, and writes `curve.csv` (the
policy's mean QoE against training seconds and steps, the rules' means beside it as the lines it
is measured against) and `curve.svg` into --out.

Which policy: the best of those played greedily on the training traces every `--select-every`
seconds of training (default 60) and at its end; `--select-every 0` takes the last one. That
choice reads no held-out trace, and its time counts against --seconds; the curve also gives the
kept policy's held-out mean (`mlp_kept`), the one a run would ship at that point.

    pip install torch --index-url https://download.pytorch.org/whl/cpu   # CPU-only; PyPI's is the CUDA build
    pip install './python[sb3]'
    abrlab datasets fetch pensieve/train pensieve/test pensieve/video
    python python/examples/train_ppo.py --seconds 600 --first-level 2 --eval-every 60 --seed 0 --out results/train_ppo

--train, --test and --video take dataset ids or paths; the abrlab binary comes from $ABRLAB_BIN,
the repository's .build/release or debug build, or PATH.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import csv
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[2]
LADDER = [300, 750, 1200, 1850, 2850, 4300]
STRATEGIES = ["mlp", "pensieve-native", "robust_mpc-native", "bba-native", "genet"]


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
    from stable_baselines3.common.logger import Logger

    import abrlab.sb3

    class Deadline(BaseCallback):
        """Stops training after `seconds` of training (time spent evaluating does not count),
        reports progress each rollout, and evaluates the policy at each point of the curve."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.seconds = seconds
            self.started = time.monotonic()
            self.paused = 0.0
            self.next_point = arguments.eval_every if arguments.eval_every > 0 else float("inf")
            self.next_selection = arguments.select_every if arguments.select_every > 0 else float("inf")
            self.kept: Kept | None = None

        def trained_seconds(self) -> float:
            return time.monotonic() - self.started - self.paused

        def _on_step(self) -> bool:
            return self.trained_seconds() < self.seconds

        def _on_rollout_end(self) -> None:
            returns = [episode["r"] for episode in self.model.ep_info_buffer]
            mean = f"{np.mean(returns):.2f}" if returns else "-"
            schedule = ""
            if arguments.anneal_to != 1:
                # The next update's step size and entropy weight, by the share of the budget trained: SB3's own
                # schedules count steps, and a run's steps are not known ahead of a wall-time budget.
                scale = 1 - (1 - arguments.anneal_to) * min(1.0, self.trained_seconds() / self.seconds)
                learning_rate = arguments.learning_rate * scale
                self.model.lr_schedule = lambda _: learning_rate
                self.model.ent_coef = arguments.entropy * scale
                schedule = f", learning rate {learning_rate:.3g}, entropy weight {self.model.ent_coef:.3g}"
            print(f"{self.num_timesteps:>9,} steps, mean episode QoE {mean} (last {len(returns)} episodes){schedule}", flush=True)
            if self.trained_seconds() >= self.next_selection:
                self.select()
                self.next_selection = next_time(self.next_selection, arguments.select_every, self.trained_seconds())
            if self.trained_seconds() >= self.next_point:
                self.evaluate()
                self.next_point = next_time(self.next_point, arguments.eval_every, self.trained_seconds())

        def select(self) -> None:
            """Plays the policy greedily on the training traces and keeps it if it beats the kept one.
            The clock runs: choosing the policy is part of training, and it reads no held-out trace."""
            score = greedy_mean(self.model, inputs, str(traces))
            kept = self.kept is None or score > self.kept.train_qoe
            if kept:
                self.kept = Kept(score, copy.deepcopy(self.model.policy.state_dict()), self.num_timesteps)
            print(f"select: {self.trained_seconds():7.1f} s, {self.num_timesteps:,} steps: training-set mean QoE {score:.3f}"
                  f"{', kept' if kept else ''}", flush=True)

        def evaluate(self) -> None:
            paused = time.monotonic()
            seconds = self.trained_seconds()
            qoe = greedy_mean(self.model, inputs, arguments.test)
            point = [seconds, self.num_timesteps, qoe]
            if self.kept is not None:
                if self.kept.held_out_qoe is None and self.kept.steps == self.num_timesteps:
                    self.kept.held_out_qoe = qoe
                elif self.kept.held_out_qoe is None:
                    with kept_policy(self.model, self.kept):
                        self.kept.held_out_qoe = greedy_mean(self.model, inputs, arguments.test)
                point.append(self.kept.held_out_qoe)
            curve.append(tuple(point))
            kept = "" if self.kept is None else f" (the kept policy, of {self.kept.steps:,} steps: {self.kept.held_out_qoe:.3f})"
            print(f"curve: {seconds:7.1f} s, {self.num_timesteps:,} steps: held-out mean QoE {qoe:.3f}{kept}", flush=True)
            self.paused += time.monotonic() - paused

    curve: list[tuple[float, int, float]] = []
    torch.set_num_threads(arguments.threads)
    envs = abrlab.sb3.vec_env(num_envs=arguments.num_envs, seed=arguments.seed, traces=str(traces), **inputs)
    model = PPO(
        "MlpPolicy", envs, seed=arguments.seed, device="cpu", verbose=0,
        n_steps=arguments.n_steps, batch_size=arguments.batch_size, n_epochs=arguments.epochs,
        learning_rate=arguments.learning_rate, gamma=arguments.gamma, gae_lambda=0.95,
        ent_coef=arguments.entropy, clip_range=0.2,
    )
    # SB3's default logger makes an empty folder in the system's temporary folder at every run; this
    # one writes nothing (the example prints its own progress).
    model.set_logger(Logger(folder=None, output_formats=[]))
    deadline = Deadline(arguments.seconds)
    model.learn(total_timesteps=10**12, callback=deadline)
    if arguments.select_every > 0:
        deadline.select()
    print(f"trained {model.num_timesteps:,} steps in {deadline.trained_seconds():.0f} s", flush=True)
    envs.close()
    if arguments.eval_every > 0:
        deadline.evaluate()
    if deadline.kept is not None:
        model.policy.load_state_dict(deadline.kept.policy)
        print(f"kept the policy of {deadline.kept.steps:,} steps (training-set mean QoE {deadline.kept.train_qoe:.3f})", flush=True)
    return model, curve


def next_time(due: float, every: float, now: float) -> float:
    """The first of `due`, `due + every`, … after `now`: a schedule's next time once the one due has run."""
    while due <= now:
        due += every
    return due


@dataclass
class Kept:
    """The policy `--select-every` keeps: its greedy mean QoE on the training traces, its weights,
    the steps it had trained, and its held-out mean once the curve has measured it."""

    train_qoe: float
    policy: dict
    steps: int
    held_out_qoe: float | None = None


@contextlib.contextmanager
def kept_policy(model, kept: Kept):
    """`model` with the kept policy's weights for the block, its own afterwards."""
    current = copy.deepcopy(model.policy.state_dict())
    model.policy.load_state_dict(kept.policy)
    try:
        yield model
    finally:
        model.policy.load_state_dict(current)


def greedy_mean(model, inputs: dict, traces: str) -> float:
    """The SB3 policy's mean QoE on `traces`, played greedily in the environment as compare's
    `mlp` plays it (the same first level when `inputs` sets one). The export it plays goes through
    a temporary file, so no out folder is needed (the profiler trains without one)."""
    from abrlab.policy import from_sb3

    with tempfile.TemporaryDirectory(prefix="train_ppo-") as folder:
        policy = from_sb3(model, Path(folder) / "policy.safetensors")
    return played_mean(policy, inputs, traces)


def played_mean(policy, inputs: dict, test: str, first_level: int | None = None) -> float:
    """`policy`'s mean total QoE over the held-out traces, played in the environment; its first
    decision made `first_level` (0-based) when given."""
    from abrlab import ABREnv

    env = ABREnv(traces=test, **inputs)
    totals = []
    for trace in env.trace_names:
        observation, _ = env.reset(options={"trace": trace})
        level = first_level if first_level is not None else policy(observation)
        total, terminated = 0.0, False
        while not terminated:
            observation, reward, terminated, _, _ = env.step(level)
            total += reward
            level = policy(observation)
        totals.append(total)
    env.close()
    return float(np.mean(totals))


def write_curve(out: Path, curve: list[tuple], means: dict[str, tuple[float, float]]) -> None:
    """`curve.csv`: the policy's held-out mean QoE at each point (and, with `--select-every`, the
    kept policy's as `mlp_kept`), the rules' means beside it (the lines it is measured against);
    `curve.svg` draws them."""
    rules = [strategy for strategy in STRATEGIES if strategy != "mlp"]
    selecting = any(len(point) > 3 for point in curve)
    with open(out / "curve.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["train_seconds", "steps", "mlp", *(["mlp_kept"] if selecting else []), *rules])
        for seconds, steps, qoe, *kept in curve:
            kept_cells = [f"{kept[0]:.3f}" if kept else ""] if selecting else []
            writer.writerow([f"{seconds:.1f}", steps, f"{qoe:.3f}", *kept_cells, *(f"{means[rule][0]:.3f}" for rule in rules)])
    (out / "curve.svg").write_text(curve_svg(curve, {rule: means[rule][0] for rule in rules}))


def curve_svg(curve: list[tuple[float, int, float]], lines: dict[str, float]) -> str:
    """The learning curve as a plain SVG (no plotting library needed): held-out mean QoE against
    training seconds, each rule a horizontal line."""
    width, height, margin = 640, 400, 56
    xs = [point[0] for point in curve] or [0.0]
    ys = [value for point in curve for value in point[2:]] + list(lines.values())
    x_max = max(max(xs), 1.0)
    y_min, y_max = min(ys), max(ys)
    if y_max - y_min < 1:
        y_min, y_max = y_min - 0.5, y_max + 0.5

    def x(value: float) -> float:
        return margin + (width - 2 * margin) * value / x_max

    def y(value: float) -> float:
        return height - margin - (height - 2 * margin) * (value - y_min) / (y_max - y_min)

    colours = ["#d62728", "#2ca02c", "#9467bd", "#8c564b", "#7f7f7f"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<line x1="{margin}" y1="{height - margin}" x2="{width - margin}" y2="{height - margin}" stroke="black"/>',
             f'<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{height - margin}" stroke="black"/>',
             f'<text x="{width / 2}" y="{height - 16}" text-anchor="middle">training wall time (s)</text>',
             f'<text x="16" y="{height / 2}" transform="rotate(-90 16 {height / 2})" text-anchor="middle">held-out mean QoE</text>',
             f'<text x="{margin}" y="{height - margin + 16}" text-anchor="middle">0</text>',
             f'<text x="{width - margin}" y="{height - margin + 16}" text-anchor="middle">{x_max:.0f}</text>',
             f'<text x="{margin - 6}" y="{y(y_min) + 4:.1f}" text-anchor="end">{y_min:.1f}</text>',
             f'<text x="{margin - 6}" y="{y(y_max) + 4:.1f}" text-anchor="end">{y_max:.1f}</text>']
    for index, (rule, value) in enumerate(lines.items()):
        colour = colours[index % len(colours)]
        parts.append(f'<line x1="{margin}" y1="{y(value):.1f}" x2="{width - margin}" y2="{y(value):.1f}" stroke="{colour}" stroke-dasharray="6 4"/>')
        parts.append(f'<text x="{width - margin + 4}" y="{y(value) + 4:.1f}" fill="{colour}">{rule}</text>')
    points = " ".join(f"{x(point[0]):.1f},{y(point[2]):.1f}" for point in curve)
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
    kept = " ".join(f"{x(point[0]):.1f},{y(point[3]):.1f}" for point in curve if len(point) > 3)
    if kept:
        parts.append(f'<polyline points="{kept}" fill="none" stroke="#ff7f0e" stroke-width="2"/>')
        parts.append(f'<text x="{margin + 8}" y="{margin + 8}" fill="#ff7f0e">mlp, the policy kept on the training traces</text>')
    parts.append(f'<text x="{margin + 8}" y="{margin - 8}" fill="#1f77b4">mlp (PPO)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def compare(arguments: argparse.Namespace, model_file: Path, inputs: dict) -> dict[str, tuple[float, float]]:
    """Mean total QoE and mean startup delay per strategy of `abrlab compare` on the held-out traces."""
    out = arguments.out / "compare"
    command = [abrlab_binary(), "compare", "--strategies", *STRATEGIES, "--param", f"mlp.model={model_file}",
               "--out", str(out), "--profile", "pensieve", "--video", inputs["video"],
               "--ladder-kbps", ",".join(map(str, LADDER)), "--segment-duration-s", "4", "--traces", arguments.test]
    if arguments.first_level is not None:
        command += ["--first-level", str(arguments.first_level)]
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
    from abrlab.policy import load_mlp

    return played_mean(load_mlp(model_file), inputs, test, first_level)


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
    parser.add_argument("--train", default="pensieve/train", help="training traces: a dataset id or a folder (default pensieve/train)")
    parser.add_argument("--synthetic", type=int, metavar="N", help="train on N generated traces instead of --train")
    parser.add_argument("--train-seed", type=int, default=100_000, help="first seed of the generated traces (default 100000)")
    parser.add_argument("--first-level", type=int, metavar="N", help="every session's first segment at level N (1-based), in training and for every strategy compared")
    parser.add_argument("--eval-every", type=float, default=0, metavar="S", help="evaluate on the held-out traces every S seconds of training and write curve.csv and curve.svg (default 0: only at the end, no curve)")
    parser.add_argument("--test", default="pensieve/test", help="held-out traces for the comparison (default pensieve/test)")
    parser.add_argument("--video", default="pensieve/video", help="Pensieve's video: a dataset id or a path (default pensieve/video)")
    parser.add_argument("--num-envs", type=int, default=64, help="sessions stepped together (default 64)")
    parser.add_argument("--n-steps", type=int, default=96, help="steps per session per rollout (default 96, two episodes)")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=2.5e-4, help="Adam's step size (default 2.5e-4)")
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--entropy", type=float, default=0.05, help="entropy coefficient (default 0.05: at 0.01 every seed settled near 21)")
    parser.add_argument("--anneal-to", type=float, default=1.0, metavar="F", help="decay the learning rate and the entropy weight linearly over --seconds of training to F times their start (default 1: constant)")
    parser.add_argument("--select-every", type=float, default=60, metavar="S", help="every S seconds of training, and at its end, play the policy greedily on the training traces (time that counts against --seconds) and keep the best; the kept policy is exported and compared (default 60; 0: the last policy)")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads (default 1)")
    parser.add_argument("--out", type=Path, default=REPOSITORY / "results/train_ppo")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = argument_parser()
    arguments = parser.parse_args(argv)
    if not 0 <= arguments.anneal_to <= 1:
        parser.error(f"--anneal-to {arguments.anneal_to}: give a fraction from 0 to 1")
    if arguments.select_every < 0:
        parser.error(f"--select-every {arguments.select_every}: give seconds, 0 or more")
    # The out folder is made and checked before any training: a run must never be lost at its end.
    prepare_out(parser, arguments.out)
    from abrlab.policy import from_sb3

    inputs = {"profile": "pensieve", "video": arguments.video, "ladder_kbps": LADDER, "segment_duration_s": 4}
    if arguments.first_level is not None:
        inputs["first_level"] = arguments.first_level
    if arguments.synthetic is not None:
        traces = generated_traces(arguments.out / "train-traces", arguments.synthetic, arguments.train_seed)
    else:
        traces = arguments.train
    model, curve = train(arguments, traces, inputs)
    model_file = arguments.out / "ppo.safetensors"
    from_sb3(model, model_file)
    print(f"saved {model_file}", flush=True)
    means = compare(arguments, model_file, inputs)
    for strategy in STRATEGIES:
        qoe, startup = means[strategy]
        print(f"{strategy:<18} mean QoE {qoe:8.3f}, startup {startup:5.2f} s")
    if curve:
        write_curve(arguments.out, curve, means)
        print(f"wrote {arguments.out / 'curve.csv'} and {arguments.out / 'curve.svg'}", flush=True)
    if arguments.first_level is None:
        # The rules start at level 1; the policy picks its first level. The same policy made to
        # start at level 1 shows how much of its result is that choice.
        print(f"mlp with its first segment at level 1, as the rules start: mean QoE {fixed_start_mean(model_file, inputs, arguments.test):8.3f}")


if __name__ == "__main__":
    main()
