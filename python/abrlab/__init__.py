"""abrlab from Python: Gymnasium environments on abrlab's Swift emulation engine.

`gymnasium.make("abrlab/ABR-v0", profile="pensieve", video=..., traces=...)` is one session per
episode; `abrlab.vector.ABRVectorEnv(num_envs=N, ...)`, which `gymnasium.make_vec` builds, steps
N sessions in one native call.
See docs/python.md in the repository.
"""

from gymnasium.envs.registration import register, registry

from . import _options
from ._native import StepBeforeReset
from .env import ABREnv

# help(abrlab.ABREnv) lists every keyword as the library's settings table declares it.
ABREnv.__doc__ = (ABREnv.__doc__ or "") + _options.keywords_doc()


def settings() -> list[dict]:
    """The settings table's entries Python may give, as the library declares them (docs/settings.md):
    keyword, kind, choices, default, range, the profiles it applies to, help."""
    return [dict(entry) for entry in _options.SETTINGS.values()]

__all__ = ["ABREnv", "StepBeforeReset", "settings"]
__version__ = "0.2.0"

if "abrlab/ABR-v0" not in registry:
    # gymnasium.make_vec("abrlab/ABR-v0", num_envs=N, ...) builds the native vector environment.
    # gymnasium.make returns ABREnv itself: it refuses a step before reset as OrderEnforcing does
    # (ResetNeeded) and passes Gymnasium's check_env in the tests, so the two wrappers, which
    # would double a step's cost, are left out; `disable_env_checker=False` still adds the checker.
    register(id="abrlab/ABR-v0", entry_point="abrlab.env:ABREnv", vector_entry_point="abrlab.vector:ABRVectorEnv",
             order_enforce=False, disable_env_checker=True)
