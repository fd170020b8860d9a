"""`abrlab/ABR-v0`: one streaming session per episode, a decision per step."""

from __future__ import annotations

import ctypes
import functools
import operator
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ClosedEnvironmentError

from . import _native
from ._errors import StepBeforeReset, setting_error
from ._core import NativeEnvironment, NotCopyable, check_render_mode, render_frame

try:
    from ._stepper import Stepper
except ImportError:  # built without a C compiler or Python's headers: ABREnv steps in Python
    Stepper = None

OBSERVATION_MODES = ("pensieve", "dict")
# What a step's info holds: "lean" (the trace, and qoe_total at the episode's end) or "full" (the record).
INFO_MODES = ("lean", "full")


class InfoRecord:
    """A step's `info` read from the record the library wrote (the environment's lock held).
    Full: the fields every step fills, picked by name, then qoe and qoe_total where known (never
    as NaN, so equal steps give equal infos), then the trace. Lean: the trace, after qoe_total
    on the step that ends an episode where it is known — the same keys and values as the full
    info's, in the same order."""

    __slots__ = ("record", "always", "pick", "known", "total", "segment")

    def __init__(self, core: NativeEnvironment, record: np.ndarray) -> None:
        self.record = record
        self.always = core.info_fields
        columns = [core.record_index[name] for name in core.info_fields]
        # The record's first columns (as the library lays it out) zip without a pick.
        self.pick = None if columns == list(range(len(columns))) else operator.itemgetter(*columns)
        self.known = tuple((name, core.record_index[name]) for name in core.info_when_known)
        self.total = core.record_index["qoe_total"]
        self.segment = core.record_index["segment"]

    def full(self, trace: str) -> dict[str, Any]:
        values = self.record.tolist()
        info = dict(zip(self.always, self.pick(values) if self.pick else values))
        for name, index in self.known:
            value = values[index]
            if value == value:
                info[name] = value
        info["trace"] = trace
        return info

    def ended(self, trace: str) -> dict[str, Any]:
        total = self.record.item(self.total)
        return {"qoe_total": total, "trace": trace} if total == total else {"trace": trace}

    def stepped(self) -> bool:
        """Whether the record holds a step of this episode (reset fills it with NaN)."""
        segment = self.record.item(self.segment)
        return segment == segment


def context_space(core: NativeEnvironment) -> spaces.Dict:
    """The `Dict` observation: every field of the context, as the library lays it out."""
    return spaces.Dict({name: spaces.Box(low=low, high=np.inf, shape=shape, dtype=np.float64)
                        for name, _, shape, low in core.context_fields})


def split_context(core: NativeEnvironment, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Context rows (a copy the caller owns: one row, or one per session) as the `Dict`
    observation, each field a view of them."""
    lead = rows.shape[:-1]
    return {name: rows[..., offset:offset + int(np.prod(shape))].reshape(lead + shape)
            for name, offset, shape, _ in core.context_fields}


class _KeywordsDoc(type):
    """ABREnv's metaclass: the class's docstring ends with every keyword of the library's
    settings table, read when first asked (`help(abrlab.ABREnv)`), not when the module loads."""

    @property
    def __doc__(cls) -> str:
        from . import _options

        text = cls.__dict__.get("__doc__") or ""
        try:
            return text + _options.keywords_doc()
        except ImportError:  # the library is not there: the docstring alone
            return text


def function_address(function) -> int:
    """A library function's address, as the C step is given it."""
    return ctypes.cast(function, ctypes.c_void_p).value


def bound_call(function: int, core: NativeEnvironment, call: int):
    """The library's step or reset at `function` on `call`, called as the C step calls it: the GIL
    held (about a microsecond; a release and re-acquire cost more than that here) and its arguments
    made once as ctypes objects (ctypes' conversions of four ints took a quarter of the Python step)."""
    return functools.partial(ctypes.PYFUNCTYPE(ctypes.c_int32)(function), ctypes.c_void_p(core.handle), ctypes.c_void_p(call),
                             ctypes.c_void_p(core.errors.address), ctypes.c_ssize_t(core.errors.capacity))


class ABREnv(NotCopyable, gym.Env, metaclass=_KeywordsDoc):
    """An abrlab session as a Gymnasium environment: the action is the next segment's level
    (0-based), the reward the QoE model's score of that segment, an episode one session over
    one trace. Keyword arguments are `abrlab compare`'s options (see docs/python.md), plus
    `observation` ("pensieve", the default, or "dict"), `max_episode_steps` (an episode
    that reaches it ends truncated) and `info` ("lean", the default: a step's info holds the
    trace, and qoe_total on the step that ends an episode; "full": the step's whole record, which
    `last_info()` also reads after a lean step). With `render_mode="rgb_array"`, `render()` draws the last 8
    segments' bitrates and buffers as a frame (what SB3's `make_vec_env` asks for)."""

    # A frame per decision; a video recorder plays them at 4 a second.
    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, observation: str = "pensieve", render_mode: str | None = None, max_episode_steps: int | None = None,
                 info: str = "lean", **options: Any) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        if observation not in OBSERVATION_MODES:
            raise setting_error("observation", f"observation must be one of {', '.join(OBSERVATION_MODES)}, not {observation!r}")
        if info not in INFO_MODES:
            raise setting_error("info", f"info must be one of {', '.join(INFO_MODES)}, not {info!r}")
        self.core = core = NativeEnvironment(options, 1)
        # Kept on the core: past 29 attributes an instance's step slows (docs/python.md).
        core.render_mode = render_mode
        limit = core.check_max_episode_steps(max_episode_steps)
        self.max_episode_steps = max_episode_steps
        self.observation_mode = observation
        self.action_space = spaces.Discrete(core.levels)
        self.observation_space = (
            spaces.Box(low=0.0, high=np.inf, shape=core.state_shape, dtype=np.float32)
            if observation == "pensieve" else context_space(core)
        )
        pensieve = observation == "pensieve"
        self._state = np.zeros(core.state_shape, dtype=np.float32) if pensieve else None
        # The step's observation: a copy of the state, or the context as the Dict.
        self._observe = self._state.copy if pensieve else self._observation
        # The state a frame draws: the observation's, or with `dict` one the library fills for it.
        core.frame_state = self._state if pensieve or render_mode is None else np.zeros(core.state_shape, dtype=np.float32)
        self._context = np.zeros(core.context_length, dtype=np.float64)
        self._record = np.zeros(len(core.record_fields), dtype=np.float64)
        # The step's scalars in ctypes arrays, whose items read as Python numbers.
        self._action = (ctypes.c_int64 * 1)()
        self._reward = (ctypes.c_double * 1)()
        self._flags = (ctypes.c_uint8 * 3)()
        # terminated and truncated as one word, 0 when the step ended nothing.
        self._ends = ctypes.c_uint16.from_buffer(self._flags)
        # The trace reset writes, then the one it is asked for (−1: the shuffle's next).
        self._trace = np.zeros(2, dtype=np.int64)
        flags = ctypes.addressof(self._flags)
        # Reset writes the context in both modes, for info["buffer_s"]; step only when it is the observation.
        core.reset_call = core.call(state=core.frame_state, context=self._context, traces=self._trace,
                                    reset_traces=self._trace.ctypes.data + 8)
        self._step_call = core.call(
            autoreset=core.autoreset("disabled")[0], max_episode_steps=limit, actions=ctypes.addressof(self._action),
            state=core.frame_state, context=None if pensieve else self._context, rewards=ctypes.addressof(self._reward),
            terminated=flags, truncated=flags + 1, resets=flags + 2, records=self._record,
        )
        # The library's step and reset, and their calls' addresses, read once (`ndarray.ctypes` costs a
        # microsecond a time): the Python step and reset and the C ones call them.
        step_function, step_call = function_address(_native.LIB.abrlab_env_step), self._step_call.ctypes.data
        reset_function, reset_call = function_address(_native.LIB.abrlab_env_reset), core.reset_call.ctypes.data
        self._step = bound_call(step_function, core, step_call)
        self._reset = bound_call(reset_function, core, reset_call)
        self._errors = core.errors
        # Bound once: a `with` statement costs twice as much per step. Instances keep under 30
        # attributes, past which CPython stops sharing their keys and every `self._x` slows.
        self._acquire = core.lock.acquire
        self._release = core.lock.release
        self._info = InfoRecord(core, self._record)
        # The full record in every step's info (info="full"), or the lean info (None).
        self._full = self._info.full if info == "full" else None
        self._seeded = False
        self.trace = None
        # The pensieve observation's step in one C call when the extension is built (the same
        # step: tests/test_stepper.py); it shadows the method below, which stays the reference.
        self._fast = None if Stepper is None or not pensieve else Stepper(
            step=step_function, handle=core.handle, call=step_call, errors=core.errors.address, capacity=core.errors.capacity,
            action=ctypes.addressof(self._action), reward=ctypes.addressof(self._reward), flags=flags,
            record=self._record.ctypes.data, state=self._state, lock=core.lock, level=self._level,
            raise_for=self._errors.raise_for, always=[(name, core.record_index[name]) for name in core.info_fields],
            when_known=self._info.known,
            integers=(np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64),
            full=info == "full", total=self._info.total,
            reset=reset_function, reset_call=reset_call,
            traces=self._trace.ctypes.data, trace_names=core.trace_names, context=self._context.ctypes.data,
            buffer_offset=core.context_offsets["buffer_s"], record_length=len(self._record),
        )
        if self._fast is not None:
            self.step = self._fast

    @property
    def trace_names(self) -> tuple[str, ...]:
        """The traces, sorted by name, as `abrlab compare` orders them."""
        return self.core.trace_names

    @property
    def ladder_kbps(self) -> np.ndarray:
        return self.core.ladder_kbps.copy()

    @property
    def render_mode(self) -> str | None:
        """"rgb_array" or None, as given."""
        return self.core.render_mode

    def render(self) -> np.ndarray | None:
        """With `render_mode="rgb_array"`, the last 8 segments as an RGB frame (128 × 192): a
        blue bar per segment, its bitrate as a share of the ladder's top, an orange mark at the
        buffer after its download as a share of the maximum buffer; newest on the right. None
        without a render mode."""
        core = self.core
        if core.render_mode is None:
            return None
        with core.lock:
            return render_frame(core.frame_state, float(self._context[core.context_offsets["max_buffer_s"]]))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Starts an episode: on `options["trace"]` (a name or index) when given, else on the
        next trace of a seeded shuffle (each trace once per pass)."""
        super().reset(seed=seed)
        trace = -1
        if options:
            unknown = sorted(set(options) - {"trace"})
            if unknown:
                raise ValueError(f"unknown reset option {unknown[0]!r}; the only one is 'trace'")
            if "trace" in options:
                trace = self.core.trace_index(options["trace"])
        if self._fast is not None and seed is None and self._seeded:
            # The part below, in one C call (the same reset: tests/test_stepper.py).
            observation, info = self._fast.reset(trace)
            self.trace = info["trace"]
            return observation, info
        errors = self._errors
        with self.core.lock:
            if seed is not None or not self._seeded:
                shuffle_seed = int(self.np_random.integers(0, 2**63))
                errors.raise_for(_native.LIB.abrlab_env_seed(self.core.handle, 0, shuffle_seed, errors.address, errors.capacity))
                self._seeded = True
            self._trace[1] = trace
            code = self._reset()
            if code:
                errors.raise_for(code)
            # No step of this episode yet: last_info() answers with the reset's info.
            self._record.fill(np.nan)
            self.trace = self.core.trace_names[int(self._trace[0])]
            if self._fast is not None:
                self._fast.trace = self.trace
            return self._observation(), {"trace": self.trace, "buffer_s": float(self._context[self.core.context_offsets["buffer_s"]])}

    def step(self, action):
        """One decision; safe from several threads (one step at a time: an environment per
        thread is what runs in parallel), a `ClosedEnvironmentError` once closed. Its `info` is
        lean unless the environment was made with `info="full"`: `last_info()` reads the full one."""
        # A plain int goes straight to the library, which checks its range.
        if type(action) is not int or not -1 << 63 <= action < 1 << 63:
            action = self._level(action)
        self._acquire()
        try:
            self._action[0] = action
            code = self._step()
            if code:
                self._errors.raise_for(code)
            observation, reward = self._observe(), self._reward[0]
            if self._ends.value:
                flags = self._flags
                terminated, truncated = flags[0] == 1, flags[1] == 1
            else:  # the flags read as one word: most steps end nothing
                terminated = truncated = False
            if self._full is not None:
                info = self._full(self.trace)
            elif terminated or truncated:
                info = self._info.ended(self.trace)
            else:
                info = {"trace": self.trace}
        finally:
            self._release()
        return observation, reward, terminated, truncated, info

    def last_info(self) -> dict[str, Any]:
        """The full `info` of the last step (what a step returns with `info="full"`: the row of
        `segments.csv`, `buffer_s`, `qoe` and `qoe_total` where known, `trace`), a new dict each
        call; before the episode's first step, the reset's info (`trace`, `buffer_s`)."""
        with self.core.lock:
            if self.core.closed:
                raise ClosedEnvironmentError("the environment is closed")
            if self.trace is None:
                raise StepBeforeReset("no step to read: call reset() first")
            if self._info.stepped():
                return self._info.full(self.trace)
            return {"trace": self.trace, "buffer_s": float(self._context[self.core.context_offsets["buffer_s"]])}

    def _observation(self):
        if self._state is not None:
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
