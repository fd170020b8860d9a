"""One native environment: the library's handle, its sizes and names."""

from __future__ import annotations

import ctypes
import threading
import weakref
from typing import Any

import numpy as np

from . import _native, _options

class NotCopyable:
    """Pickling or copying raises a TypeError that says why: the object holds native sessions.
    The environments say it themselves, before pickle reaches their ctypes buffers."""

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise TypeError(
            "abrlab environments hold native sessions and cannot be pickled or copied; build an environment in "
            "each worker (make it inside the function a process or thread runs, as SubprocVecEnv's env_fns do)"
        )


class NativeEnvironment(NotCopyable):
    """An environment of `slots` sessions in the Swift library, freed with this object.

    ctypes releases the GIL around a native call: the library serialises the calls on one
    environment with a lock of its own, and after `close` answers every call with
    `ClosedEnvironmentError` instead of using the freed sessions (the handle itself is freed with
    this object). `lock` keeps a call and the reading of the buffers it wrote together, so a
    thread never reads what another thread's step wrote."""

    def __init__(self, options: dict[str, Any], slots: int) -> None:
        self.lock = threading.Lock()
        self.errors = _native.ErrorBuffer()
        handle = ctypes.c_void_p()
        code = _native.LIB.abrlab_env_create(_options.encode(options), slots, ctypes.byref(handle), self.errors.address, self.errors.capacity)
        self.errors.raise_for(code)
        self.handle = handle.value
        self._finalizer = weakref.finalize(self, _native.LIB.abrlab_env_destroy, self.handle)
        sizes = np.zeros(10, dtype=np.int64)
        _native.LIB.abrlab_env_sizes(self.handle, sizes.ctypes.data)
        (self.levels, self.trace_count, self.state_rows, self.state_columns, self.context_length, self.record_length,
         self.history_length, scalar_count, self.record_always_set, expert_count) = (int(size) for size in sizes)
        self.context_scalars = tuple(_native.names(self.handle, 0).split(","))
        assert len(self.context_scalars) == scalar_count
        self.record_fields = tuple(_native.names(self.handle, 1).split(","))
        self.trace_names = tuple(_native.names(self.handle, 2).split("\n"))
        self.qoe_model = _native.names(self.handle, 3)
        self.expert_ids = tuple(_native.names(self.handle, 4).split("\n")) if expert_count else ()
        self.expert_index = {expert: index for index, expert in enumerate(self.expert_ids)}
        ladder = np.zeros(self.levels + 1, dtype=np.float64)
        _native.LIB.abrlab_env_ladder(self.handle, ladder.ctypes.data)
        self.ladder_kbps = ladder[:-1].copy()
        self.segment_duration_s = float(ladder[-1])
        self.trace_indices = {name: index for index, name in enumerate(self.trace_names)}

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

    def close(self) -> None:
        """Frees the native sessions once a call another thread is making returns. Closing twice is harmless."""
        _native.LIB.abrlab_env_close(self.handle)

