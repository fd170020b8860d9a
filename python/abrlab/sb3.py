"""stable-baselines3 over the native vector environment: `pip install torch --index-url
https://download.pytorch.org/whl/cpu` (PyTorch's CPU-only build; PyPI's is the CUDA one, over
1.5 GB), then `pip install './python[sb3]'`.

    from stable_baselines3 import PPO
    import abrlab.sb3
    model = PPO("MlpPolicy", abrlab.sb3.vec_env(num_envs=64, profile="pensieve", video=..., traces=...))

`vec_env` is an SB3 `VecEnv` (wrapped in SB3's `VecMonitor`, so episode returns are logged) whose
step is one native call for every session: `ABRVectorEnv` with Gymnasium's same-step autoreset,
which is SB3's contract — the step that ends a session's episode returns `done` and the next
episode's first observation, the ended one's last in `infos[i]["terminal_observation"]`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

try:
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(
        "abrlab.sb3 needs stable-baselines3 (and PyTorch): pip install torch --index-url https://download.pytorch.org/whl/cpu "
        "(the CPU-only build), then pip install './python[sb3]'"
    ) from error

from .vector import ABRVectorEnv

__all__ = ["ABRSB3VecEnv", "vec_env"]


class ABRSB3VecEnv(VecEnv):
    """`num_envs` abrlab sessions (the keyword arguments of `abrlab/ABR-v0`) as an SB3 `VecEnv`.

    `infos[i]` is empty but on the step that ends session i's episode, when it holds
    `terminal_observation`, `TimeLimit.truncated`, and the ended step's `info` as `ABREnv` gives
    it: `qoe_total` and `trace` by name, and with `info="full"` the row of `segments.csv` too.
    The sessions share one native
    environment, so `get_attr`, `set_attr` and `env_method` reach that `ABRVectorEnv`
    (`envs`), the same object for every index."""

    def __init__(self, num_envs: int = 1, **options: Any) -> None:
        self.envs = ABRVectorEnv(num_envs=num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **options)
        super().__init__(self.envs.num_envs, self.envs.single_observation_space, self.envs.single_action_space)
        self._actions: np.ndarray | None = None

    @property
    def trace_names(self) -> tuple[str, ...]:
        return self.envs.trace_names

    def reset(self):
        """Resets every session; seeds set with `seed(s)` reseed session i's shuffle with `s + i`."""
        seeds = None if any(seed is None for seed in self._seeds) else [int(seed) for seed in self._seeds]
        observations, info = self.envs.reset(seed=seeds)
        self.reset_infos = [{"trace": self.envs.trace_names[index]} for index in info["trace"]]
        self._reset_seeds()
        self._reset_options()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        observations, rewards, terminated, truncated, info = self.envs.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_observations, final_info = info["final_obs"], info["final_info"]
            names = self.envs.trace_names
            for index in np.flatnonzero(dones):
                ended = _session(final_info, index)
                ended["trace"] = names[int(ended["trace"])]
                ended["terminal_observation"] = _row(final_observations, index)
                ended["TimeLimit.truncated"] = bool(truncated[index] and not terminated[index])
                infos[index] = ended
        return observations, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.envs.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        value = getattr(self.envs, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.envs, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        result = getattr(self.envs, method_name)(*method_args, **method_kwargs)
        return [result for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


def _session(batched: dict[str, Any], index: int) -> dict[str, Any]:
    """Session `index`'s values of a batched info dict, the fields its masks mark. A field that
    is a flat numeric array (every record column, the trace) is read with `item`, one call for
    what `value[index].item()` reads in two: this runs for every ended session of a training run."""
    values = {}
    for key, value in batched.items():
        if key[0] == "_":
            continue
        mask = batched.get("_" + key)
        if mask is not None and not mask[index]:
            continue
        if type(value) is np.ndarray and value.ndim == 1 and value.dtype.kind in "fiub":
            values[key] = value.item(index)
        else:
            values[key] = _row(value, index)
    return values


def _row(value: Any, index: int) -> Any:
    if isinstance(value, dict):
        return {key: _row(item, index) for key, item in value.items()}
    row = value[index]
    return row.copy() if isinstance(row, np.ndarray) else row.item() if isinstance(row, np.generic) else row


def vec_env(num_envs: int = 1, *, monitor: bool = True, seed: int | None = None, **options: Any) -> VecEnv:
    """`num_envs` sessions as an SB3 `VecEnv`, in `VecMonitor` unless `monitor=False` (as SB3's
    `make_vec_env` puts each environment in a `Monitor`); `seed` seeds the shuffles at the first
    reset (session i's with `seed + i`). Keyword arguments are `abrlab/ABR-v0`'s."""
    envs: VecEnv = ABRSB3VecEnv(num_envs=num_envs, **options)
    if seed is not None:
        envs.seed(seed)
    return VecMonitor(envs) if monitor else envs

