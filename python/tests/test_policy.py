"""A policy leaves Python as an MLP file that `abrlab compare` plays as the `mlp` strategy,
choosing what the policy chooses in the environment."""

from __future__ import annotations

import numpy as np
import pytest

from abrlab import ABREnv
from abrlab.policy import MLPPolicy, load_mlp, save_mlp
from test_exactness import compare_totals


def random_policy(path, levels: int, activation: str = "relu", seed: int = 0) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    shapes = [(32, 48), (16, 32), (levels, 16)]
    save_mlp(path, [rng.normal(0, 0.5, shape) for shape in shapes], [rng.normal(0, 0.1, shape[0]) for shape in shapes], activation)
    return load_mlp(path)


@pytest.mark.parametrize("activation", ["relu", "tanh"])
def test_compare_plays_the_policy_the_environment_plays(pensieve_inputs, abrlab_bin, tmp_path, activation):
    model = tmp_path / "policy.safetensors"
    policy = random_policy(model, 6, activation)
    want = compare_totals(abrlab_bin, pensieve_inputs, tmp_path / "out", strategies=["mlp", "--param", f"mlp.model={model}"])
    env = ABREnv(experts=["mlp"], params={"mlp.model": str(model)}, **pensieve_inputs)
    for trace in env.trace_names[:40]:
        obs, _ = env.reset(options={"trace": trace})
        total, terminated = 0.0, False
        while not terminated:
            level = policy(obs)
            assert env.expert("mlp") == level
            obs, reward, terminated, _, _ = env.step(level)
            total += reward
        assert total == pytest.approx(want["mlp", trace], rel=0, abs=1e-9)


def test_saved_policies_read_back(tmp_path):
    policy = random_policy(tmp_path / "p.safetensors", 4, "tanh")
    again = load_mlp(tmp_path / "p.safetensors")
    observations = np.random.default_rng(1).random((10, 6, 8), dtype=np.float32)
    np.testing.assert_array_equal(policy(observations), again(observations))
    assert again.activation == "tanh" and [w.shape for w in again.weights] == [(32, 48), (16, 32), (4, 16)]


def test_files_of_another_layout_are_refused(tmp_path, repo_inputs):
    actor = tmp_path / "actor.safetensors"
    save_mlp(actor, [np.zeros((6, 48))], [np.zeros(6)])
    data = actor.read_bytes().replace(b"layers.0.weight", b"actor/Dense/W00")
    actor.write_bytes(data)
    with pytest.raises(ValueError, match="not an abrlab MLP"):
        load_mlp(actor)
    with pytest.raises(ValueError, match="not an abrlab MLP"):
        ABREnv(experts=["mlp"], params={"mlp.model": str(actor)}, **repo_inputs)
    with pytest.raises(ValueError, match="expected"):
        save_mlp(tmp_path / "bad.safetensors", [np.zeros((6, 47))], [np.zeros(6)])
    with pytest.raises(ValueError, match="mlp needs a model"):
        ABREnv(experts=["mlp"], **repo_inputs)


def test_a_model_for_another_ladder_is_refused(tmp_path, repo_inputs):
    random_policy(tmp_path / "four.safetensors", 4)
    assert ABREnv(**repo_inputs).action_space.n != 4
    with pytest.raises(ValueError, match="4 outputs"):
        ABREnv(experts=["mlp"], params={"mlp.model": str(tmp_path / "four.safetensors")}, **repo_inputs)


def test_abrlab_sb3_without_stable_baselines3_says_how_to_install_it():
    """Where stable-baselines3 is missing, `import abrlab.sb3` says which extra brings it."""
    import subprocess
    import sys

    code = "import sys; sys.modules['stable_baselines3'] = None; import abrlab.sb3"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert ("ImportError: abrlab.sb3 needs stable-baselines3 (and PyTorch): pip install torch --index-url "
            "https://download.pytorch.org/whl/cpu (the CPU-only build), then pip install './python[sb3]'") in result.stderr
