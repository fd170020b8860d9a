"""stable-baselines3 trains on both environments, and a policy it trains leaves for `abrlab compare`
playing exactly its deterministic actions. Skipped where stable-baselines3 (and PyTorch) are not
installed: `pip install "./python[sb3]"`; scripts/test-python installs them when a CPU PyTorch
wheel is reachable."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="PyTorch is not installed (pip install './python[sb3]')")
pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install './python[sb3]')")

import gymnasium as gym  # noqa: E402
import torch  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from torch import nn  # noqa: E402

import abrlab  # noqa: E402,F401
import abrlab.sb3  # noqa: E402
from abrlab import ABREnv  # noqa: E402
from abrlab.policy import from_sb3, from_torch, load_mlp  # noqa: E402
from test_exactness import compare_totals  # noqa: E402

PPO_SETTINGS = {"n_steps": 64, "batch_size": 256, "n_epochs": 2, "seed": 0, "device": "cpu"}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """PPO trained for 20,000 steps on 32 sessions of the native vector environment."""
    from conftest import REPOSITORY

    inputs = {"profile": "pensieve", "video": str(REPOSITORY / "Traces" / "video.json"), "traces": str(REPOSITORY / "Traces" / "default")}
    torch.set_num_threads(1)
    model = PPO("MlpPolicy", abrlab.sb3.vec_env(num_envs=32, seed=0, **inputs), **PPO_SETTINGS)
    model.learn(total_timesteps=20_000)
    assert model.num_timesteps >= 20_000
    return model


def test_ppo_trains_on_the_native_vector_environment(trained):
    episodes = [info["r"] for info in trained.ep_info_buffer]
    assert episodes, "VecMonitor saw no finished episode"
    assert all(np.isfinite(episodes))


def test_ppo_trains_through_make_vec_env(repo_inputs):
    """make_vec_env asks for render_mode="rgb_array", which abrlab/ABR-v0 declares: no warning."""
    import warnings

    torch.set_num_threads(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        envs = make_vec_env("abrlab/ABR-v0", n_envs=4, seed=0, env_kwargs={"profile": "pensieve", **repo_inputs})
    assert [str(warning.message) for warning in caught] == []
    assert envs.render_mode == "rgb_array" and envs.render().ndim == 3
    model = PPO("MlpPolicy", envs, **{**PPO_SETTINGS, "n_steps": 256})
    model.learn(total_timesteps=20_000)
    assert model.num_timesteps >= 20_000


def test_vec_env_resets_on_the_step_an_episode_ends(repo_inputs):
    """Same-step reset: `done` comes with the next episode's first observation (zeros) and the
    ended one's last observation in `terminal_observation`, which a single environment playing
    the same actions on the same trace ends with too."""
    envs = abrlab.sb3.vec_env(num_envs=3, monitor=False, seed=5, profile="pensieve", info="full", **repo_inputs)
    single = ABREnv(profile="pensieve", info="full", **repo_inputs)
    envs.reset()
    assert all(info["trace"] in envs.trace_names for info in envs.reset_infos)
    rng = np.random.default_rng(0)
    played: list[list[int]] = [[] for _ in range(3)]
    ended = 0
    while ended < 6:
        actions = rng.integers(0, envs.action_space.n, 3)
        obs, rewards, dones, infos = envs.step(actions)
        assert rewards.dtype == np.float32 and obs.shape == (3, 6, 8)
        for index in np.flatnonzero(~dones):
            assert infos[index] == {}
            played[index].append(int(actions[index]))
        for index in np.flatnonzero(dones):
            played[index].append(int(actions[index]))
            info = infos[index]
            assert "qoe_total" in info and info["TimeLimit.truncated"] is False
            assert not obs[index].any(), "the next episode starts from the zero state"
            single.reset(options={"trace": info["trace"]})
            for action in played[index]:
                last, _, terminated, _, single_info = single.step(action)
            assert terminated and single_info["qoe_total"] == pytest.approx(info["qoe_total"], rel=0, abs=1e-9)
            np.testing.assert_array_equal(info["terminal_observation"], last)
            # The ended step's info holds the single environment's full record: the same fields,
            # Python floats and the trace's name, equal to the last digit (and the record's
            # other columns, NaN off the live profile).
            shared = {key: info[key] for key in single_info}
            assert shared == single_info and all(type(value) is type(single_info[key]) for key, value in shared.items())
            others = set(info) - set(single_info) - {"terminal_observation", "TimeLimit.truncated"}
            assert others == {"live_latency_s", "playback_rate", "playhead_s", "production_wait_s"}
            assert all(np.isnan(info[key]) for key in others)
            played[index], ended = [], ended + 1
    envs.close()



def test_vec_env_infos_are_lean_by_default_as_abr_envs_are(repo_inputs):
    """Without `info="full"`, an ended session's `infos[i]` holds what a lean `ABREnv` gives at an
    episode's end (`qoe_total`, `trace`) and SB3's two keys, equal to the full adapter's."""
    lean = abrlab.sb3.vec_env(num_envs=3, monitor=False, seed=5, profile="pensieve", **repo_inputs)
    full = abrlab.sb3.vec_env(num_envs=3, monitor=False, seed=5, profile="pensieve", info="full", **repo_inputs)
    lean.reset()
    full.reset()
    rng = np.random.default_rng(1)
    ended = 0
    while ended < 6:
        actions = rng.integers(0, lean.action_space.n, 3)
        lean_step, full_step = lean.step(actions), full.step(actions)
        np.testing.assert_array_equal(lean_step[0], full_step[0])
        np.testing.assert_array_equal(lean_step[2], full_step[2])
        for index, (lean_info, full_info) in enumerate(zip(lean_step[3], full_step[3])):
            if not lean_step[2][index]:
                assert lean_info == {} == full_info
                continue
            assert set(lean_info) == {"qoe_total", "trace", "terminal_observation", "TimeLimit.truncated"}
            np.testing.assert_array_equal(lean_info.pop("terminal_observation"), full_info["terminal_observation"])
            assert lean_info == {key: full_info[key] for key in lean_info}
            ended += 1
    lean.close()
    full.close()

def test_the_exported_policy_plays_the_same_actions_in_compare(trained, pensieve_inputs, abrlab_bin, tmp_path):
    """Every decision on Pensieve's 142 test traces: the file's network chooses what
    `predict(deterministic=True)` chooses, and compare's totals are the environment's."""
    path = tmp_path / "ppo.safetensors"
    exported = from_sb3(trained, path)
    assert exported.activation == "tanh" and [w.shape for w in exported.weights] == [(64, 48), (64, 64), (6, 64)]
    want = compare_totals(abrlab_bin, pensieve_inputs, tmp_path / "out", strategies=["mlp", "--param", f"mlp.model={path}"])
    env = ABREnv(experts=["mlp"], params={"mlp.model": str(path)}, **pensieve_inputs)
    decisions = 0
    for trace in env.trace_names:
        obs, _ = env.reset(options={"trace": trace})
        total, terminated = 0.0, False
        while not terminated:
            action, _ = trained.predict(obs, deterministic=True)
            assert env.expert("mlp") == int(action), f"{trace}, decision {decisions}"
            obs, reward, terminated, _, _ = env.step(int(action))
            total, decisions = total + reward, decisions + 1
        assert total == pytest.approx(want["mlp", trace], rel=0, abs=1e-9)
    assert len(env.trace_names) == 142 and decisions == 142 * 48


def test_from_torch_writes_the_network_it_is_given(tmp_path):
    torch.manual_seed(0)
    network = nn.Sequential(nn.Flatten(), nn.Linear(48, 32), nn.ReLU(), nn.Sequential(nn.Linear(32, 16), nn.ReLU()), nn.Linear(16, 6))
    policy = from_torch(network, tmp_path / "net.safetensors")
    observations = np.random.default_rng(0).random((200, 6, 8), dtype=np.float32)
    with torch.no_grad():
        logits = network(torch.from_numpy(observations)).numpy()
    np.testing.assert_allclose(policy.logits(observations), logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(policy(observations), logits.argmax(axis=1))
    assert load_mlp(tmp_path / "net.safetensors").activation == "relu"


def test_the_file_is_plain_safetensors(tmp_path):
    """What abrlab writes, the safetensors package reads (where it is installed)."""
    numpy_reader = pytest.importorskip("safetensors.numpy", reason="the safetensors package is not installed")
    network = nn.Sequential(nn.Linear(48, 8), nn.Tanh(), nn.Linear(8, 6))
    from_torch(network, tmp_path / "net.safetensors")
    tensors = numpy_reader.load_file(str(tmp_path / "net.safetensors"))
    assert sorted(tensors) == ["layers.0.bias", "layers.0.weight", "layers.1.bias", "layers.1.weight"]
    np.testing.assert_array_equal(tensors["layers.0.weight"], network[0].weight.detach().numpy())


@pytest.mark.parametrize("network,message", [
    (nn.Sequential(nn.Linear(48, 8), nn.Sigmoid(), nn.Linear(8, 6)), "found Sigmoid"),
    (nn.Sequential(nn.Linear(48, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 6)), "mixes activations"),
    (nn.Sequential(nn.Linear(48, 6), nn.ReLU()), "ends with an activation"),
    (nn.Sequential(nn.Linear(48, 8), nn.Linear(8, 6)), "found Linear where nn.ReLU"),
    (nn.Sequential(nn.Linear(40, 6)), "expected"),
    (nn.Sequential(nn.Sequential(), nn.Flatten()), "has no nn.Linear layer"),
])
def test_from_torch_refuses_other_networks(tmp_path, network, message):
    with pytest.raises(ValueError, match=message):
        from_torch(network, tmp_path / "bad.safetensors")
    assert not (tmp_path / "bad.safetensors").exists()


@pytest.mark.parametrize("net_arch", [[], {"pi": [], "vf": [16]}])
def test_from_sb3_exports_a_policy_without_hidden_layers(tmp_path, repo_inputs, net_arch):
    """`net_arch=[]` leaves `policy_net` an empty Sequential: the actor is `action_net` alone,
    one linear layer, which `mlp` plays as SB3 predicts (it was refused, "found Sequential")."""
    envs = abrlab.sb3.vec_env(num_envs=4, seed=0, profile="pensieve", **repo_inputs)
    model = PPO("MlpPolicy", envs, policy_kwargs={"net_arch": net_arch}, **{**PPO_SETTINGS, "batch_size": 64})
    model.learn(total_timesteps=512)
    policy = from_sb3(model, tmp_path / "linear.safetensors")
    assert [weight.shape for weight in policy.weights] == [(6, 48)]
    observations = np.random.default_rng(0).random((300, 6, 8), dtype=np.float32) * 2
    np.testing.assert_array_equal(policy(observations), model.predict(observations, deterministic=True)[0])
    env = ABREnv(experts=["mlp"], params={"mlp.model": str(tmp_path / "linear.safetensors")}, profile="pensieve", **repo_inputs)
    obs, _ = env.reset(seed=0)
    terminated = False
    while not terminated:
        action, _ = model.predict(obs, deterministic=True)
        assert env.expert("mlp") == int(action)
        obs, _, terminated, _, _ = env.step(int(action))


def test_from_sb3_refuses_what_mlp_cannot_play(tmp_path, repo_inputs):
    dict_env = gym.wrappers.FlattenObservation(ABREnv(observation="dict", profile="pensieve", **repo_inputs))
    model = PPO("MlpPolicy", dict_env, n_steps=64, batch_size=64, device="cpu")
    with pytest.raises(ValueError, match="pensieve observation"):
        from_sb3(model, tmp_path / "dict.safetensors")
