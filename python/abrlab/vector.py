"""`ABRVectorEnv`: `num_envs` sessions stepped in one native call, with Gymnasium's autoreset modes."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _native
from ._errors import setting_error
from ._core import NativeEnvironment, NotCopyable, check_render_mode
from .env import INFO_MODES, OBSERVATION_MODES, context_space, split_context

# The library's bounds (EnvMemory): past them it refuses the environment. Within them, one the
# process cannot hold is a MemoryError, raised before the library allocates it.
MAX_NUM_ENVS = 65_536
MAX_THREADS = 1_024
# Integer dtypes whose every value an int64 holds, copied to the library's buffer as they are.
_WITHIN_INT64 = frozenset(np.dtype(kind) for kind in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32))


class ABRVectorEnv(NotCopyable, gym.vector.VectorEnv):
    """`num_envs` abrlab sessions with the keyword arguments of `abrlab/ABR-v0`, stepped in one
    call of the Swift library on numpy arrays. Session i's shuffle is seeded with `seed + i`.

    `autoreset_mode` is Gymnasium's (`gymnasium.vector.AutoresetMode` or its value, or
    "next-step", "same-step", "disabled"):
    - next-step (the default): the step after a session's episode ends resets it to the next
      trace of its shuffle (its action ignored, its reward 0, its `info` fields masked out);
    - same-step: the step that ends an episode resets the session at once and returns the next
      episode's first observation; the ended one's last observation is `info["final_obs"]`
      and its `info` is `info["final_info"]` (masks `_final_obs`, `_final_info`);
    - disabled: a session whose episode ended must be reset before it steps again, with
      `reset(options={"reset_mask": mask})` (a bool array, True for the sessions to reset).
    `max_episode_steps` truncates an episode at that many steps (`truncated` True). `info`, as
    `ABREnv`'s: "lean" (the default) gives a step's `info` the trace and, for the sessions whose
    episode the step ended, `qoe_total`; "full" the step's whole record, each field masked to the
    sessions it holds for (the lean info is those fields of it). A step runs
    the sessions on `threads` threads of the library (default 1: on 2 cores, 2 threads measured
    1.02-1.05x one at best; docs/python.md), the GIL released, each session always on the same
    one; the results do not depend on how many.

    `num_envs` is at most `MAX_NUM_ENVS` (65,536) and `threads` at most `MAX_THREADS` (1,024);
    sessions the process cannot hold (about 20 kB each on a 48-segment video) are a MemoryError
    from the constructor or `reset`, checked before the library allocates them."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, observation: str = "pensieve",
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, max_episode_steps: int | None = None,
                 render_mode: None = None, threads: int | None = None, info: str = "lean", **options: Any) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or not 1 <= num_envs <= MAX_NUM_ENVS:
            raise setting_error("num_envs", f"num_envs must be an integer from 1 to {MAX_NUM_ENVS}, not {num_envs!r}")
        if observation not in OBSERVATION_MODES:
            raise setting_error("observation", f"observation must be one of {', '.join(OBSERVATION_MODES)}, not {observation!r}")
        if info not in INFO_MODES:
            raise setting_error("info", f"info must be one of {', '.join(INFO_MODES)}, not {info!r}")
        self.num_envs = int(num_envs)
        if threads is None:
            threads = 1
        elif isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= MAX_THREADS:
            raise setting_error("threads", f"threads must be an integer from 1 to {MAX_THREADS}, not {threads!r}")
        self.threads = int(threads)
        self.core = core = NativeEnvironment(options, self.num_envs, self.threads)
        mode, self.autoreset_mode = core.autoreset(autoreset_mode)
        limit = core.check_max_episode_steps(max_episode_steps)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.max_episode_steps = max_episode_steps
        self.render_mode = None
        self.observation_mode = observation
        self.single_action_space = spaces.Discrete(core.levels)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, core.levels))
        pensieve = observation == "pensieve"
        self.single_observation_space = (
            spaces.Box(low=0.0, high=np.inf, shape=core.state_shape, dtype=np.float32)
            if pensieve else context_space(core)
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n = self.num_envs
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        self._state = np.zeros((n, *core.state_shape), dtype=np.float32) if pensieve else None
        self._context = None if pensieve else np.zeros((n, core.context_length), dtype=np.float64)
        self._final_state = np.zeros_like(self._state) if pensieve and same_step else None
        self._final_context = np.zeros_like(self._context) if not pensieve and same_step else None
        self._records = np.zeros((n, len(core.record_fields)), dtype=np.float64)
        self._rewards = np.zeros(n, dtype=np.float64)
        # The library writes these flags as bytes of 0 or 1, which numpy's bool holds as they are.
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._resets = np.zeros(n, dtype=np.bool_)
        self._traces = np.zeros(n, dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._reset_mask = np.zeros(n, dtype=np.uint8)
        self._errors = core.errors
        self._seeded = False
        self._fields = core.record_fields
        # Fields every stepped session fills share one mask; qoe and qoe_total get their own.
        self._masks = ["_" + name for name in core.record_fields if name not in core.info_when_known]
        self._known = tuple(("_" + name, name) for name in core.info_when_known)
        # Full: the record's columns as rows; lean: its qoe_total column alone.
        self._full = info == "full"
        self._total = core.record_index["qoe_total"]
        # Shared by every step's info, so read-only.
        self._all = np.ones(n, dtype=np.bool_)
        self._all.flags.writeable = False
        self._all_shown = dict.fromkeys(self._masks, self._all)
        self._no_resets = bytes(n)
        self._shape = (n,)
        self._step_all = _native.LIB.abrlab_env_step
        self._reset_call = core.call(state=self._state, context=self._context, traces=self._traces)
        self._masked_reset_call = core.call(state=self._state, context=self._context, traces=self._traces,
                                            reset_mask=self._reset_mask)
        self._step_call = core.call(
            autoreset=mode, max_episode_steps=limit, actions=self._actions, state=self._state, context=self._context,
            rewards=self._rewards, terminated=self._terminated, truncated=self._truncated, resets=self._resets,
            records=self._records, traces=self._traces, final_state=self._final_state, final_context=self._final_context,
        )
        self._step_arguments = (core.handle, self._step_call.ctypes.data, self._errors.address, self._errors.capacity)

    @property
    def trace_names(self) -> tuple[str, ...]:
        return self.core.trace_names

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        """Resets every session to the next trace of its shuffle, or only those
        `options["reset_mask"]` marks (a bool array of `num_envs`; the others go on as they
        were); `seed` (an int, or one per session) reseeds the shuffles of those it resets."""
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset option {sorted(options)[0]!r}; ABRVectorEnv.reset takes only 'reset_mask' "
                             "(each session takes its traces from its own shuffle)")
        if mask is not None:
            mask = self._check_mask(mask)
        with self.core.lock:
            return self._reset_locked(seed, mask)

    def _check_mask(self, mask) -> np.ndarray:
        """Gymnasium's checks of `options["reset_mask"]`."""
        if not isinstance(mask, np.ndarray):
            raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
        if mask.shape != self._shape:
            raise ValueError(f"`options['reset_mask']` must have shape `({self.num_envs},)`, got {mask.shape}")
        if mask.dtype != np.bool_:
            raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
        if not mask.any():
            raise ValueError(f"`options['reset_mask']` must contain a boolean array with at least one True value, got reset_mask={mask}")
        return mask

    def _reset_locked(self, seed, mask):
        resetting = self._all if mask is None else mask
        if seed is not None or not self._seeded:
            if seed is None:
                seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> 1)
            seeds = [seed + index for index in range(self.num_envs)] if isinstance(seed, (int, np.integer)) else list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset needs one seed or {self.num_envs} seeds, not {len(seeds)}")
            for index, value in enumerate(seeds):
                if resetting[index] and value is not None:
                    code = _native.LIB.abrlab_env_seed(self.core.handle, index, int(value), self._errors.address, self._errors.capacity)
                    self._errors.raise_for(code)
            self._seeded = True
        if mask is None:
            call = self._reset_call
        else:
            np.copyto(self._reset_mask, mask)
            call = self._masked_reset_call
        code = _native.LIB.abrlab_env_reset(self.core.handle, call.ctypes.data, self._errors.address, self._errors.capacity)
        self._errors.raise_for(code)
        return self._observations(), {"trace": self._traces.copy(), "_trace": resetting.copy()}

    def step(self, actions):
        """One decision of every session; safe from several threads (the library takes one call
        at a time), a `ClosedEnvironmentError` once closed."""
        if not (type(actions) is np.ndarray and actions.shape == self._shape and actions.dtype in _WITHIN_INT64):
            actions = self._check(actions)
        with self.core.lock:
            np.copyto(self._actions, actions, casting="unsafe")
            previous = self._traces.copy() if self._final_state is not None or self._final_context is not None else None
            code = self._step_all(*self._step_arguments)
            if code:
                self._errors.raise_for(code)
            records = self._records.T.copy() if self._full else self._records[:, self._total].copy()
            # Next-step: a session reset by this step did not step; same-step: an ended one's info is final_info's.
            resets = self._resets.copy() if self._resets.tobytes() != self._no_resets else None
            observations, rewards = self._observations(), self._rewards.copy()
            terminated, truncated = self._terminated.copy(), self._truncated.copy()
            traces = self._traces.copy()
            final = self._final(resets, records, previous) if previous is not None and resets is not None else None
        shown = None if resets is None else ~resets
        info = self._record_info(records, shown) if self._full else self._lean_info(records, shown)
        info["trace"] = traces
        info["_trace"] = self._all
        if final is not None:
            info.update(final)
        return observations, rewards, terminated, truncated, info

    def _record_info(self, records: np.ndarray, shown: np.ndarray | None) -> dict[str, Any]:
        """The record's columns (a row per field) as `info` fields, masked to the sessions `shown`
        marks (None: every one); whole-session models score at the end, and qoe_total comes at the
        end: those are masked where unknown too."""
        info: dict[str, Any] = dict(zip(self._fields, records))
        info.update(self._all_shown if shown is None else dict.fromkeys(self._masks, shown))
        for mask, name in self._known:
            column = info[name]
            info[mask] = column == column if shown is None else (column == column) & shown
        return info

    @staticmethod
    def _lean_info(totals: np.ndarray, shown: np.ndarray | None) -> dict[str, Any]:
        """The lean `info`: the full one's `qoe_total` and its mask (known at an episode's end)."""
        known = totals == totals
        return {"qoe_total": totals, "_qoe_total": known if shown is None else known & shown}

    def _final(self, ended: np.ndarray, records: np.ndarray, traces: np.ndarray) -> dict[str, Any]:
        """Same-step's `final_obs` and `final_info` for the sessions whose episode this step ended."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        if self._final_state is not None:
            for index in np.flatnonzero(ended):
                final_obs[index] = self._final_state[index].copy()
        else:
            for index in np.flatnonzero(ended):
                final_obs[index] = split_context(self.core, self._final_context[index].copy())
        final_info = self._record_info(records, ended) if self._full else self._lean_info(records, ended)
        final_info["trace"] = traces
        final_info["_trace"] = ended
        return {"final_obs": final_obs, "_final_obs": ended, "final_info": final_info, "_final_info": ended}

    def _check(self, actions) -> np.ndarray:
        """The actions as int64 levels, refused with a ValueError unless they are `num_envs`
        integers (any integer dtype); ranges are checked by the library before any session moves."""
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        if not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integer levels, not {actions.dtype}")
        if actions.dtype not in _WITHIN_INT64 and (actions > np.iinfo(np.int64).max).any():
            # uint64 past int64's range would wrap to a negative level in the library's buffer:
            # the first level out of range is named here, as given.
            wrong = np.flatnonzero(actions >= self.single_action_space.n)
            if wrong.size:
                index = int(wrong[0])
                raise ValueError(f"action {int(actions[index])} of environment {index} is outside the ladder: "
                                 f"levels are 0 to {self.single_action_space.n - 1}")
        return actions

    def _observations(self):
        if self._state is not None:
            return self._state.copy()
        return split_context(self.core, self._context.copy())

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
