"""`ABRVectorEnv`: `num_envs` sessions stepped in one native call."""

from __future__ import annotations

import ctypes
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _native
from ._core import NativeEnvironment, NotCopyable
from .env import OBSERVATION_MODES, context_space, split_context


class ABRVectorEnv(NotCopyable, gym.vector.VectorEnv):
    """`num_envs` abrlab sessions with the keyword arguments of `abrlab/ABR-v0`, stepped in one
    call of the Swift library on numpy arrays, with Gymnasium's next-step autoreset: the step
    after a session's episode ends resets it to the next trace of its shuffle (its action is
    ignored, its reward 0). Session i's shuffle is seeded with `seed + i`."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, observation: str = "pensieve", **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        if observation not in OBSERVATION_MODES:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATION_MODES)}, not {observation!r}")
        self.num_envs = int(num_envs)
        self.core = NativeEnvironment(options, self.num_envs)
        self.observation_mode = observation
        core = self.core
        self.single_action_space = spaces.Discrete(core.levels)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, core.levels))
        pensieve = observation == "pensieve"
        self.single_observation_space = (
            spaces.Box(low=0.0, high=np.inf, shape=(core.state_rows, core.state_columns), dtype=np.float32)
            if pensieve else context_space(core)
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n = self.num_envs
        self._state = np.zeros((n, core.state_rows, core.state_columns), dtype=np.float32)
        self._context = np.zeros((n, core.context_length), dtype=np.float64)
        self._records = np.zeros((n, core.record_length), dtype=np.float64)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=np.uint8)
        self._resets = np.zeros(n, dtype=np.uint8)
        self._traces = np.zeros(n, dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._state_address = self._state.ctypes.data if pensieve else None
        self._context_address = None if pensieve else self._context.ctypes.data
        self._errors = core.errors
        self._seeded = False
        self._fields = core.record_fields
        # Fields every stepped session fills share one mask; qoe and qoe_total get their own.
        self._masks = ["_" + name for name in core.record_fields[:-2]]
        self._all = np.ones(n, dtype=np.bool_)
        self._shape = (n,)
        self._step_all = _native.LIB.abrlab_env_step_all
        self._step_arguments = (
            core.handle, self._actions.ctypes.data, self._state_address, self._context_address, self._rewards.ctypes.data,
            self._terminated.ctypes.data, self._resets.ctypes.data, self._records.ctypes.data, self._traces.ctypes.data,
            self._errors.address, self._errors.capacity,
        )

    @property
    def trace_names(self) -> tuple[str, ...]:
        return self.core.trace_names

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        """Resets every session to the next trace of its shuffle; `seed` (an int, or one per
        session) reseeds the shuffles."""
        if options:
            raise ValueError("ABRVectorEnv.reset takes no options; each session takes its traces from its own shuffle")
        with self.core.lock:
            return self._reset_locked(seed)

    def _reset_locked(self, seed):
        if seed is not None or not self._seeded:
            if seed is None:
                seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> 1)
            seeds = [seed + index for index in range(self.num_envs)] if isinstance(seed, (int, np.integer)) else list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset needs one seed or {self.num_envs} seeds, not {len(seeds)}")
            for index, value in enumerate(seeds):
                code = _native.LIB.abrlab_env_seed(self.core.handle, index, int(value), self._errors.address, self._errors.capacity)
                self._errors.raise_for(code)
            self._seeded = True
        code = _native.LIB.abrlab_env_reset_all(
            self.core.handle, self._state_address, self._context_address, self._traces.ctypes.data,
            self._errors.address, self._errors.capacity,
        )
        self._errors.raise_for(code)
        return self._observations(), {"trace": self._traces.copy()}

    def step(self, actions):
        """One decision of every session; safe from several threads (the library takes one call
        at a time), a `ClosedEnvironmentError` once closed."""
        if not (type(actions) is np.ndarray and actions.shape == self._shape and actions.dtype.kind in "iu"):
            actions = self._check(actions)
        with self.core.lock:
            # Unsigned values past int64's range wrap to negatives, which the library refuses as out of range.
            np.copyto(self._actions, actions, casting="unsafe")
            code = self._step_all(*self._step_arguments)
            if code:
                self._errors.raise_for(code)
            records = self._records.T.copy()
            stepped = self._resets == 0
            observations, rewards = self._observations(), self._rewards.copy()
            terminated, traces = self._terminated.view(np.bool_).copy(), self._traces.copy()
        info: dict[str, Any] = dict(zip(self._fields, records))
        info.update(dict.fromkeys(self._masks, stepped))
        # Whole-session models score at the end, and qoe_total comes at the end: masked where unknown.
        info["_qoe"] = records[-2] == records[-2]
        info["_qoe_total"] = records[-1] == records[-1]
        info["trace"] = traces
        info["_trace"] = self._all
        return observations, rewards, terminated, self._truncated.copy(), info

    def _check(self, actions) -> np.ndarray:
        """The actions as int64 levels, refused with a ValueError unless they are `num_envs`
        integers (any integer dtype); ranges are checked by the library before any session moves."""
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        if not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integer levels, not {actions.dtype}")
        return actions

    def _observations(self):
        if self._state_address is not None:
            return self._state.copy()
        rows = self._context.copy()
        split = [split_context(self.core, row) for row in rows]
        return {name: np.stack([observation[name] for observation in split]) for name in split[0]}

    @property
    def expert_ids(self) -> tuple[str, ...]:
        return self.core.expert_ids

    def expert_actions(self) -> np.ndarray:
        """Every expert's level at each session's decision: shape (num_envs, experts), −1 where
        the session waits for its autoreset."""
        return self.core.expert_levels(self.num_envs)

    def expert(self, strategy_id: str) -> np.ndarray:
        """Expert `strategy_id`'s level at each session's decision (−1 where it waits for its autoreset)."""
        return self.expert_actions()[:, self.core.expert_column(strategy_id)]

    def close_extras(self, **kwargs: Any) -> None:
        self.core.close()
