"""One native environment: the library's handle, its sizes and names."""

from __future__ import annotations

import ctypes
import threading
import weakref
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from . import _native, _options
from ._errors import setting_error

try:
    # The C step's lock, which it takes without Python calls; threading's where it is not built.
    from ._stepper import Lock
except ImportError:
    Lock = threading.Lock

# Gymnasium's autoreset modes by the library's names.
_AUTORESET_MODES = {"next-step": AutoresetMode.NEXT_STEP, "same-step": AutoresetMode.SAME_STEP, "disabled": AutoresetMode.DISABLED}


def check_render_mode(render_mode: Any, modes: list[str]) -> None:
    """A render mode the environment declares (`metadata["render_modes"]`), or None; any other
    is a TypeError, the error Gymnasium's callers (SB3's `make_vec_env`) take as "not supported"
    and retry without one."""
    if render_mode is not None and render_mode not in modes:
        supported = f"one of {', '.join(map(repr, modes))} or None" if modes else "None (it does not render)"
        raise TypeError(f"render_mode must be {supported}, not {render_mode!r}; `abrlab replay` draws whole sessions")


def render_frame(state: np.ndarray, max_buffer_s: float) -> np.ndarray:
    """The Pensieve state's last 8 segments as an RGB frame (128 × 192, uint8), the newest on the
    right: a blue bar per segment, its bitrate as a share of the ladder's top, and an orange mark
    at the buffer after its download, as a share of the maximum buffer (60 s where it has none)."""
    height, width = 128, 192
    frame = np.full((height, width, 3), 255, dtype=np.uint8)
    columns = state.shape[1]
    step = width // columns
    scale = max_buffer_s if max_buffer_s > 0 else 60.0
    for column in range(columns):
        share = float(state[0, column])
        if share <= 0:
            continue  # no segment delivered there yet
        left, right = column * step + 4, (column + 1) * step - 4
        bar = max(1, round(min(share, 1.0) * (height - 4)))
        frame[height - bar:, left:right] = (31, 119, 180)
        buffer = min(max(float(state[1, column]) * 10 / scale, 0.0), 1.0)
        y = height - 2 - round(buffer * (height - 4))
        frame[y - 1:y + 2, left - 3:right + 3] = (255, 127, 14)
    return frame


class NotCopyable:
    """Pickling or copying raises a TypeError that says why: the object holds native sessions.
    The environments say it themselves, before pickle reaches their ctypes buffers."""

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise TypeError(
            "abrlab environments hold native sessions and cannot be pickled or copied; build an environment in "
            "each worker (make it inside the function a process or thread runs, as SubprocVecEnv's env_fns do)"
        )


class NativeEnvironment(NotCopyable):
    """An environment of `slots` sessions in the Swift library, freed with this object, stepped
    on `threads` worker threads of the library's (1: on the calling thread).

    ctypes releases the GIL around a native call (not ABREnv's step): the library serialises the calls on one
    environment with a lock of its own, and after `close` answers every call with
    `ClosedEnvironmentError` instead of using the freed sessions (the handle itself is freed with
    this object). `lock` keeps a call and the reading of the buffers it wrote together, so a
    thread never reads what another thread's step wrote."""

    def __init__(self, options: dict[str, Any], slots: int, threads: int = 1) -> None:
        self.lock = Lock()
        self.errors = _native.ErrorBuffer()
        handle = ctypes.c_void_p()
        code = _native.LIB.abrlab_env_create(_options.encode(options), slots, threads, ctypes.byref(handle), self.errors.address, self.errors.capacity)
        self.errors.raise_for(code)
        self.handle = handle.value
        self._finalizer = weakref.finalize(self, _native.LIB.abrlab_env_destroy, self.handle)
        layouts = _native.layouts(self.handle)
        self.ladder_kbps = np.array(layouts["ladder_kbps"], dtype=np.float64)
        self.levels = len(self.ladder_kbps)
        self.segment_duration_s = float(layouts["segment_duration_s"])
        self.trace_names = tuple(layouts["traces"])
        self.trace_count = len(self.trace_names)
        self.trace_indices = {name: index for index, name in enumerate(self.trace_names)}
        self.qoe_model = layouts["qoe_model"]
        self.expert_ids = tuple(layouts["experts"])
        self.expert_index = {expert: index for index, expert in enumerate(self.expert_ids)}
        observation = layouts["observation"]
        self.state_shape = tuple(observation["state"]["shape"])
        # The context's fields: (name, offset, shape, lowest value), in the row's order.
        self.context_fields = tuple((field["name"], field["offset"], tuple(field["shape"]), field["low"])
                                    for field in observation["context"])
        self.context_length = observation["context_length"]
        self.context_offsets = {name: offset for name, offset, _, _ in self.context_fields}
        self.record_fields = tuple(layouts["record"])
        self.record_index = {name: index for index, name in enumerate(self.record_fields)}
        # info's fields: those every step fills, and those it holds only when known (never as NaN).
        self.info_fields = tuple(layouts["info"]["always"])
        self.info_when_known = tuple(layouts["info"]["when_known"])
        self.call_fields = {name: index for index, name in enumerate(layouts["call"])}
        self.autoreset_modes = {name: index for index, name in enumerate(layouts["autoreset_modes"])}
        # ABREnv's render mode and the Pensieve state its frames draw (None: it does not render).
        self.render_mode: str | None = None
        self.frame_state: np.ndarray | None = None
        # Set by close: what is read from Python's buffers alone (ABREnv.last_info) refuses then too.
        self.closed = False

    def call(self, **fields: Any) -> np.ndarray:
        """The words of a reset or step call: each field a buffer (its address) or a number,
        by the names the library gives; fields not named are 0 (no buffer)."""
        words = np.zeros(len(self.call_fields), dtype=np.int64)
        for name, value in fields.items():
            words[self.call_fields[name]] = value.ctypes.data if isinstance(value, np.ndarray) else int(value or 0)
        return words

    def autoreset(self, mode: Any) -> tuple[int, AutoresetMode]:
        """The library's index of an autoreset mode, and the mode as Gymnasium's enum: the enum,
        its value ("SameStep") or the library's name ("same-step")."""
        text = mode.value if isinstance(mode, AutoresetMode) else mode
        for name, gymnasium_mode in _AUTORESET_MODES.items():
            if text in (name, gymnasium_mode.value) and name in self.autoreset_modes:
                return self.autoreset_modes[name], gymnasium_mode
        raise setting_error("autoreset_mode", f"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of "
                                              f"{', '.join(self.autoreset_modes)}, not {mode!r}")

    def trace_index(self, name: Any) -> int:
        """The index of a trace named by its name (as sessions.csv writes it) or its index."""
        if isinstance(name, str):
            if name not in self.trace_indices:
                raise ValueError(f"no trace named {name!r}; the environment's traces are {', '.join(self.trace_names[:5])}"
                                 + (", …" if self.trace_count > 5 else ""))
            return self.trace_indices[name]
        if isinstance(name, bool) or not hasattr(name, "__index__"):
            raise ValueError(f"options['trace'] must be a trace name or index, not {name!r}")
        index = int(name.__index__())
        if not 0 <= index < self.trace_count:
            raise ValueError(f"trace index {index} is outside 0 to {self.trace_count - 1}")
        return index

    def expert_levels(self, slots: int) -> np.ndarray:
        """What every expert would choose now, a row per session (−1 for a session waiting for its reset)."""
        levels = np.full((slots, len(self.expert_ids)), -1, dtype=np.int64)
        if self.expert_ids:
            with self.lock:
                self.errors.raise_for(_native.LIB.abrlab_env_experts(self.handle, levels.ctypes.data, self.errors.address, self.errors.capacity))
        return levels

    def expert_column(self, strategy_id: str) -> int:
        if strategy_id not in self.expert_index:
            named = ", ".join(self.expert_ids) or "none"
            raise ValueError(f"{strategy_id!r} is not an expert of this environment (experts: {named}); name it in experts=[...]")
        return self.expert_index[strategy_id]

    def check_max_episode_steps(self, steps: Any) -> int:
        """`max_episode_steps` as the call's word: a positive integer, or 0 for None (no limit)."""
        if steps is None:
            return 0
        if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
            raise setting_error("max_episode_steps", f"max_episode_steps must be a positive integer or None, not {steps!r}")
        return int(steps)

    def close(self) -> None:
        """Frees the native sessions once a call another thread is making returns. Closing twice is harmless."""
        _native.LIB.abrlab_env_close(self.handle)
        self.closed = True

