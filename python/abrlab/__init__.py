"""abrlab from Python: Gymnasium environments on abrlab's Swift emulation engine.

`gymnasium.make("abrlab/ABR-v0", profile="pensieve", video=..., traces=...)` is one session per
episode; `abrlab.vector.ABRVectorEnv(num_envs=N, ...)`, which `gymnasium.make_vec` builds, steps
N sessions in one native call.
See docs/python.md in the repository.

Importing the package loads no native library and changes no environment variable: it registers
the environments by their entry points' names (Gymnasium's convention), and the Swift library is
loaded, with its settings table, when the first environment is made or the table is first read.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from ._errors import InputError, InputNotFoundError, LimitError, SettingError, StepBeforeReset, StrategyError

__all__ = ["ABREnv", "InputError", "InputNotFoundError", "LimitError", "SettingError", "StepBeforeReset", "StrategyError",
           "settings"]
__version__ = "0.2.0"

# Names whose modules load on first use: `from abrlab import ABREnv` imports abrlab.env then.
_LAZY = {"ABREnv": "env"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def settings() -> list[dict]:
    """The settings table's entries Python may give, as the library declares them (docs/settings.md):
    keyword, the command line's flag (None for Python's own), kind, what it takes in words, choices,
    default, range, the profiles it applies to, help. Loads the library."""
    from . import _options

    return [dict(entry) for entry in _options.settings_table().values()]


if "abrlab/ABR-v0" not in registry:
    # gymnasium.make_vec("abrlab/ABR-v0", num_envs=N, ...) builds the native vector environment.
    # gymnasium.make returns ABREnv itself: it refuses a step before reset as OrderEnforcing does
    # (ResetNeeded) and passes Gymnasium's check_env in the tests, so the two wrappers, which
    # would double a step's cost, are left out; `disable_env_checker=False` still adds the checker.
    # The entry points are names, imported by the first make.
    register(id="abrlab/ABR-v0", entry_point="abrlab.env:ABREnv", vector_entry_point="abrlab.vector:ABRVectorEnv",
             order_enforce=False, disable_env_checker=True)
