"""abrlab from Python: Gymnasium environments on abrlab's Swift emulation engine.

`gymnasium.make("abrlab/ABR-v0", profile="pensieve", video=..., traces=...)` is one session per
episode; `abrlab.vector.ABRVectorEnv(num_envs=N, ...)`, which `gymnasium.make_vec` builds, steps
N sessions in one native call.
See docs/python.md in the repository.
"""

from gymnasium.envs.registration import register, registry

from .env import ABREnv

__all__ = ["ABREnv"]
__version__ = "0.1.0"

if "abrlab/ABR-v0" not in registry:
    # gymnasium.make_vec("abrlab/ABR-v0", num_envs=N, ...) builds the native vector environment.
    register(id="abrlab/ABR-v0", entry_point="abrlab.env:ABREnv", vector_entry_point="abrlab.vector:ABRVectorEnv")
