"""The Swift library (target ABRLabC) loaded with ctypes at its first use, and its errors as Python exceptions."""

from __future__ import annotations

import ctypes
import json
import os
import threading
from pathlib import Path

from gymnasium.error import ClosedEnvironmentError

from ._errors import InputError, InputNotFoundError, LimitError, SettingError, StepBeforeReset, StrategyError

ABI_VERSION = 5
_LIBRARY_NAME = "libABRLabC.dylib" if os.uname().sysname == "Darwin" else "libABRLabC.so"
_ERROR_CAPACITY = 4096

_p = ctypes.c_void_p
_i32 = ctypes.c_int32
_size = ctypes.c_ssize_t


def library_path() -> Path:
    """The library the package loads: $ABRLAB_LIBRARY when set, else the one built at install."""
    override = os.environ.get("ABRLAB_LIBRARY")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent / _LIBRARY_NAME


def _home() -> None:
    """Strategy ids of the shipped scripts and pensieve-native's model are found under
    ABRLAB_HOME: the repository the package was built from, unless the caller set it. Set when
    the library is first loaded (the library reads it once), never by `import abrlab`."""
    from ._build_info import REPOSITORY
    source = REPOSITORY or str(Path(__file__).resolve().parents[2])
    if "ABRLAB_HOME" not in os.environ and (Path(source) / "Strategies").is_dir():
        os.environ["ABRLAB_HOME"] = source


def _load() -> ctypes.CDLL:
    path = library_path()
    if not path.is_file():
        raise ImportError(
            f"abrlab's Swift library is missing at {path}; reinstall the package (pip install ./python builds it "
            "with the Swift toolchain) or point ABRLAB_LIBRARY at a built libABRLabC"
        )
    _home()
    lib = ctypes.CDLL(str(path))
    lib.abrlab_abi_version.restype = _i32
    lib.abrlab_abi_version.argtypes = []
    if lib.abrlab_abi_version() != ABI_VERSION:
        raise ImportError(f"{path} speaks ABI {lib.abrlab_abi_version()}, this package {ABI_VERSION}; reinstall the package")
    signatures = {
        "abrlab_env_create": (_i32, [ctypes.c_char_p, _i32, _i32, ctypes.POINTER(_p), _p, _size]),
        "abrlab_env_close": (None, [_p]),
        "abrlab_env_destroy": (None, [_p]),
        "abrlab_env_seed": (_i32, [_p, _i32, ctypes.c_uint64, _p, _size]),
        "abrlab_env_layouts": (_size, [_p, _p, _size]),
        "abrlab_env_reset": (_i32, [_p, _p, _p, _size]),
        "abrlab_env_step": (_i32, [_p, _p, _p, _size]),
        "abrlab_env_experts": (_i32, [_p, _p, _p, _size]),
        "abrlab_settings_json": (ctypes.c_char_p, []),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


_loading = threading.Lock()


def __getattr__(name: str):
    """`LIB`, the library, loaded at its first use (an environment made, the settings table
    read), not when the package is imported; then a plain module attribute."""
    if name != "LIB":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _loading:
        if "LIB" not in globals():
            globals()["LIB"] = _load()
    return globals()["LIB"]


class ErrorBuffer:
    """A buffer the library writes an error into: its message, a NUL, its JSON detail, a NUL."""

    def __init__(self) -> None:
        self.buffer = ctypes.create_string_buffer(_ERROR_CAPACITY)
        self.address = ctypes.addressof(self.buffer)
        self.capacity = _ERROR_CAPACITY

    def detail(self) -> dict:
        """The JSON detail after the message: {"subject": ..., ...}, or {} where none fit."""
        raw = self.buffer.raw
        end = raw.find(b"\0")
        if end < 0 or end + 1 >= len(raw):
            return {}
        text = raw[end + 1:raw.find(b"\0", end + 1)]
        try:
            detail = json.loads(text.decode("utf-8", "surrogateescape")) if text else {}
        except ValueError:
            return {}
        return detail if isinstance(detail, dict) else {}

    def raise_for(self, code: int) -> None:
        """Raises the exception of a non-zero code, by the error's subject (EnvError.Subject):
        1 a call's argument, ValueError; 2 an input, InputError (InputNotFoundError where the
        file is missing); 3 the emulation, RuntimeError; 4 ClosedEnvironmentError; 5
        StepBeforeReset; 6 MemoryError (the library checks before it allocates: a failed
        allocation would stop the process); 7 SettingError; 8 StrategyError; 9 LimitError."""
        if code == 0:
            return
        message = self.buffer.value.decode("utf-8", "replace")
        detailed = _DETAILED.get(code)
        if detailed is not None:
            detail = self.detail()
            if detailed is InputError and detail.get("missing"):
                detailed = InputNotFoundError
            raise detailed.with_detail(message, detail)
        if code == 1:
            raise ValueError(message)
        if code == 4:
            raise ClosedEnvironmentError(message)
        if code == 5:
            raise StepBeforeReset(message)
        if code == 6:
            raise MemoryError(message)
        error = RuntimeError(message)
        error.detail = self.detail()
        raise error


# The codes whose exceptions carry the detail.
_DETAILED = {2: InputError, 7: SettingError, 8: StrategyError, 9: LimitError}


def layouts(handle: int) -> dict:
    """What the library tells by name (its `EnvLayouts`): the observation's fields, the record's
    columns and which of them `info` holds, the call's words, the ladder, traces and experts."""
    needed = LIB.abrlab_env_layouts(handle, None, 0)
    buffer = ctypes.create_string_buffer(needed)
    LIB.abrlab_env_layouts(handle, buffer, needed)
    return json.loads(buffer.value.decode("utf-8", "surrogateescape"))
