"""Train a small policy by imitation with numpy alone, then compare it in abrlab.

The policy is an MLP over Pensieve's observation (48 → 64 → 64 → levels, ReLU); each decision's
label is what robust_mpc would choose there (an expert of the environment). DAgger: the first
round plays the expert, later rounds the policy itself (with the expert now and then), so the
policy learns to recover from its own mistakes; every round adds its labelled decisions to the
data and trains on all of it with Adam on the cross-entropy. At the end the policy is saved as
an `mlp` model and `abrlab compare` runs it beside bba, robust_mpc and pensieve.

It trains on the registry's training set, `train/fcc-hd` (Sabre's 1000 FCC traces, none of them
one of the test traces), and is compared on Pensieve's test traces, `pensieve/test`, with
Pensieve's video: a policy is never evaluated on the traces it learnt from (docs/datasets.md).

    abrlab datasets fetch train/fcc-hd pensieve/test pensieve/video
    python python/examples/imitate.py --minutes 3 --out results/imitate

--train, --test and --video take dataset ids or paths; the abrlab binary comes from $ABRLAB_BIN,
the repository's .build/release or debug build, or PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np

from abrlab.policy import MLPPolicy
from abrlab.vector import ABRVectorEnv

REPOSITORY = Path(__file__).resolve().parents[2]
LADDER = [300, 750, 1200, 1850, 2850, 4300]


class Trainer:
    """The MLP's weights and Adam's moments; `fit` takes gradient steps on labelled decisions."""

    def __init__(self, levels: int, rng: np.random.Generator, hidden: int = 64, rate: float = 1e-3) -> None:
        sizes = [48, hidden, hidden, levels]
        self.weights = [rng.normal(0, np.sqrt(2 / n), (m, n)) for n, m in zip(sizes, sizes[1:])]
        self.biases = [np.zeros(m) for m in sizes[1:]]
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.weights + self.biases]
        self.rate, self.steps = rate, 0

    def policy(self) -> MLPPolicy:
        return MLPPolicy(self.weights, self.biases, "relu")

    def fit(self, observations: np.ndarray, labels: np.ndarray, rng: np.random.Generator, epochs: int = 3, batch: int = 256) -> float:
        inputs = observations.reshape(len(observations), -1).astype(np.float64)
        loss = 0.0
        for _ in range(epochs):
            order = rng.permutation(len(inputs))
            for start in range(0, len(order), batch):
                rows = order[start:start + batch]
                loss = self._step(inputs[rows], labels[rows])
        return loss

    def _step(self, x: np.ndarray, y: np.ndarray) -> float:
        activations = [x]
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            z = activations[-1] @ weight.T + bias
            activations.append(np.maximum(z, 0) if index < len(self.weights) - 1 else z)
        logits = activations[-1] - activations[-1].max(axis=1, keepdims=True)
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        loss = -np.log(probabilities[np.arange(len(y)), y] + 1e-12).mean()
        delta = probabilities
        delta[np.arange(len(y)), y] -= 1
        delta /= len(y)
        gradients_w, gradients_b = [], []
        for index in reversed(range(len(self.weights))):
            gradients_w.insert(0, delta.T @ activations[index])
            gradients_b.insert(0, delta.sum(axis=0))
            if index:
                delta = (delta @ self.weights[index]) * (activations[index] > 0)
        self.steps += 1
        for parameter, gradient, (m, v) in zip(self.weights + self.biases, gradients_w + gradients_b, self.moments):
            m *= 0.9
            m += 0.1 * gradient
            v *= 0.999
            v += 0.001 * gradient**2
            parameter -= self.rate * (m / (1 - 0.9**self.steps)) / (np.sqrt(v / (1 - 0.999**self.steps)) + 1e-8)
        return float(loss)


def abrlab_binary() -> str:
    for candidate in (os.environ.get("ABRLAB_BIN"), REPOSITORY / ".build/release/abrlab", REPOSITORY / ".build/debug/abrlab", shutil.which("abrlab")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    raise SystemExit("imitate: no abrlab binary; build it (swift build -c release) or set ABRLAB_BIN")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--train", default="train/fcc-hd", help="traces to train on: a dataset id or a path (default train/fcc-hd)")
    parser.add_argument("--test", default="pensieve/test", help="traces the comparison runs on (default pensieve/test)")
    parser.add_argument("--video", default="pensieve/video", help="Pensieve's video: a dataset id or a path (default pensieve/video)")
    parser.add_argument("--expert", default="robust_mpc-native", help="the strategy imitated (default robust_mpc-native)")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=REPOSITORY / "results/imitate")
    arguments = parser.parse_args()
    inputs = {"profile": "pensieve", "video": arguments.video, "ladder_kbps": LADDER, "segment_duration_s": 4}
    envs = ABRVectorEnv(num_envs=arguments.num_envs, experts=[arguments.expert], traces=arguments.train, **inputs)
    rng = np.random.default_rng(arguments.seed)
    trainer = Trainer(envs.single_action_space.n, rng)
    observations, labels = [], []
    obs, _ = envs.reset(seed=arguments.seed)
    deadline, round_number = time.monotonic() + 60 * arguments.minutes, 0
    while time.monotonic() < deadline:
        # Round 0 plays the expert; later rounds the policy, with the expert a tenth of the time.
        expert_share = 1.0 if round_number == 0 else 0.1
        policy = trainer.policy()
        matches = decisions = 0
        for _ in range(48 * 4):
            expert = envs.expert(arguments.expert)
            deciding = expert >= 0
            observations.append(obs[deciding])
            labels.append(expert[deciding])
            mine = policy(obs)
            matches += int((mine == expert)[deciding].sum())
            decisions += int(deciding.sum())
            actions = np.where(rng.random(envs.num_envs) < expert_share, np.maximum(expert, 0), mine)
            obs, *_ = envs.step(actions)
        loss = trainer.fit(np.concatenate(observations), np.concatenate(labels), rng)
        print(f"round {round_number}: {sum(map(len, labels)):,} decisions, loss {loss:.3f}, agreement with the expert {matches / max(decisions, 1):.3f}", flush=True)
        round_number += 1
    arguments.out.mkdir(parents=True, exist_ok=True)
    model = arguments.out / "mlp.safetensors"
    trainer.policy().save(model)
    print(f"saved {model}")
    command = [abrlab_binary(), "compare", "--strategies", "mlp", "bba", "robust_mpc", "pensieve",
               "--param", f"mlp.model={model}", "--out", str(arguments.out / "compare"),
               "--profile", "pensieve", "--video", inputs["video"], "--ladder-kbps", ",".join(map(str, LADDER)),
               "--segment-duration-s", "4", "--traces", arguments.test]
    print(" ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=REPOSITORY)


if __name__ == "__main__":
    main()
