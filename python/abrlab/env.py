"""`abrlab/ABR-v0`: one streaming session per episode, a decision per step."""

from __future__ import annotations

import ctypes
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _native
from ._core import NativeEnvironment, NotCopyable

OBSERVATION_MODES = ("pensieve", "dict")


def context_space(core: NativeEnvironment) -> spaces.Dict:
    """The `Dict` observation: every scalar field of the context, then the vector fields."""
    fields: dict[str, spaces.Space] = {}
    for name in core.context_scalars:
        low = -1.0 if name == "last_level" else 0.0
        fields[name] = spaces.Box(low=low, high=np.inf, shape=(), dtype=np.float64)
    fields["ladder_bps"] = spaces.Box(low=0.0, high=np.inf, shape=(core.levels,), dtype=np.float64)
    fields["next_sizes_bytes"] = spaces.Box(low=0.0, high=np.inf, shape=(core.levels,), dtype=np.float64)
    fields["throughput_history_bps"] = spaces.Box(low=0.0, high=np.inf, shape=(core.history_length,), dtype=np.float64)
    fields["download_time_history_s"] = spaces.Box(low=0.0, high=np.inf, shape=(core.history_length,), dtype=np.float64)
    return spaces.Dict(fields)


def split_context(core: NativeEnvironment, row: np.ndarray) -> dict[str, np.ndarray]:
    """A context row (a copy the caller owns) as the `Dict` observation."""
    observation = {name: row[index:index + 1].reshape(()) for index, name in enumerate(core.context_scalars)}
    start = len(core.context_scalars)
    levels, history = core.levels, core.history_length
    observation["ladder_bps"] = row[start:start + levels]
    observation["next_sizes_bytes"] = row[start + levels:start + 2 * levels]
    start += 2 * levels
    observation["throughput_history_bps"] = row[start:start + history]
    observation["download_time_history_s"] = row[start + history:start + 2 * history]
    return observation


class ABREnv(NotCopyable, gym.Env):
    """An abrlab session as a Gymnasium environment: the action is the next segment's level
    (0-based), the reward the QoE model's score of that segment, an episode one session over
    one trace. Keyword arguments are `abrlab compare`'s options (see docs/python.md), plus
    `observation` ("pensieve", the default, or "dict")."""

    metadata = {"render_modes": []}

    def __init__(self, observation: str = "pensieve", render_mode: None = None, **options: Any) -> None:
        if observation not in OBSERVATION_MODES:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATION_MODES)}, not {observation!r}")
        if render_mode is not None:
            raise ValueError("abrlab environments do not render; use `abrlab replay` on the results")
        self.core = NativeEnvironment(options, 1)
        self.observation_mode = observation
        self.action_space = spaces.Discrete(self.core.levels)
        self.observation_space = (
            spaces.Box(low=0.0, high=np.inf, shape=(self.core.state_rows, self.core.state_columns), dtype=np.float32)
            if observation == "pensieve" else context_space(self.core)
        )
        self._state = np.zeros((self.core.state_rows, self.core.state_columns), dtype=np.float32)
        self._context = np.zeros(self.core.context_length, dtype=np.float64)
        self._record = np.zeros(self.core.record_length, dtype=np.float64)
        self._reward = ctypes.c_double()
        self._terminated = ctypes.c_uint8()
        self._trace = ctypes.c_int64()
        pensieve = observation == "pensieve"
        self._state_address = self._state.ctypes.data if pensieve else None
        # Reset writes the context in both modes, for info["buffer_s"]; step only when it is the observation.
        self._context_address = self._context.ctypes.data
        self._step_context_address = None if pensieve else self._context_address
        self._buffer_index = self.core.context_scalars.index("buffer_s")
        self._record_address = self._record.ctypes.data
        self._reward_address = ctypes.addressof(self._reward)
        self._terminated_address = ctypes.addressof(self._terminated)
        self._trace_address = ctypes.addressof(self._trace)
        self._step = _native.LIB.abrlab_env_step
        self._errors = self.core.errors
        self._handle = self.core.handle
        # Bound once: a `with` statement costs twice as much per step. Instances keep under 30
        # attributes, past which CPython stops sharing their keys and every `self._x` slows.
        self._acquire = self.core.lock.acquire
        self._release = self.core.lock.release
        # Fields every step fills; qoe and qoe_total join info when known (never as NaN, so
        # equal steps give equal infos).
        self._always = self.core.record_fields[:self.core.record_always_set]
        self._seeded = False

    @property
    def trace_names(self) -> tuple[str, ...]:
        """The traces, sorted by name, as `abrlab compare` orders them."""
        return self.core.trace_names

    @property
    def ladder_kbps(self) -> np.ndarray:
        return self.core.ladder_kbps.copy()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Starts an episode: on `options["trace"]` (a name or index) when given, else on the
        next trace of a seeded shuffle (each trace once per pass)."""
        super().reset(seed=seed)
        options = options or {}
        unknown = sorted(set(options) - {"trace"})
        if unknown:
            raise ValueError(f"unknown reset option {unknown[0]!r}; the only one is 'trace'")
        trace = self.core.trace_index(options["trace"]) if "trace" in options else -1
        with self.core.lock:
            if seed is not None or not self._seeded:
                shuffle_seed = int(self.np_random.integers(0, 2**63))
                self._errors.raise_for(_native.LIB.abrlab_env_seed(self._handle, 0, shuffle_seed, self._errors.address, self._errors.capacity))
                self._seeded = True
            code = _native.LIB.abrlab_env_reset(
                self._handle, 0, trace, self._state_address, self._context_address, self._trace_address,
                self._errors.address, self._errors.capacity,
            )
            self._errors.raise_for(code)
            self.trace = self.core.trace_names[self._trace.value]
            return self._observation(), {"trace": self.trace, "buffer_s": float(self._context[self._buffer_index])}

    def step(self, action):
        """One decision; safe from several threads (one step at a time: an environment per
        thread is what runs in parallel), a `ClosedEnvironmentError` once closed."""
        level = self._level(action)
        self._acquire()
        try:
            code = self._step(
                self._handle, 0, level, self._state_address, self._step_context_address, self._reward_address,
                self._terminated_address, self._record_address, self._errors.address, self._errors.capacity,
            )
            if code:
                self._errors.raise_for(code)
            values = self._record.tolist()
            observation, reward, terminated = self._observation(), self._reward.value, bool(self._terminated.value)
        finally:
            self._release()
        info = dict(zip(self._always, values))
        qoe, qoe_total = values[-2], values[-1]
        if qoe == qoe:
            info["qoe"] = qoe
        if qoe_total == qoe_total:
            info["qoe_total"] = qoe_total
        info["trace"] = self.trace
        return observation, reward, terminated, False, info

    def _observation(self):
        if self._state_address is not None:
            return self._state.copy()
        return split_context(self.core, self._context.copy())

    def _level(self, action) -> int:
        """The action as a level, refused with a ValueError unless it is one integer in range."""
        if type(action) is int:
            level = action
        elif isinstance(action, np.integer):
            level = int(action)
        elif isinstance(action, np.ndarray) and action.shape in ((), (1,)) and np.issubdtype(action.dtype, np.integer):
            level = int(action.reshape(()))
        else:
            raise ValueError(f"the action must be one integer level from 0 to {self.core.levels - 1}, not {action!r}")
        if not 0 <= level < self.core.levels:
            raise ValueError(f"action {level} is outside the ladder: levels are 0 to {self.core.levels - 1}")
        return level

    @property
    def expert_ids(self) -> tuple[str, ...]:
        """The strategies following the session as experts (the `experts` keyword, resolved to ids)."""
        return self.core.expert_ids

    def expert(self, strategy_id: str) -> int:
        """The level (0-based) expert `strategy_id` would choose at this decision, having heard
        the whole episode as if it played it; for imitation learning and in-loop baselines."""
        column = self.core.expert_column(strategy_id)
        level = int(self.core.expert_levels(1)[0, column])
        if level < 0:
            raise ValueError("no decision is waiting: call reset() first")
        return level

    def experts(self) -> dict[str, int]:
        """Every expert's level at this decision, by id."""
        return dict(zip(self.core.expert_ids, self.core.expert_levels(1)[0].tolist()))

    def close(self) -> None:
        self.core.close()
        super().close()
