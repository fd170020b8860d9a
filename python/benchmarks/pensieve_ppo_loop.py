"""pensieve-ppo's gymnasium `ABREnv` (Pensieve-PPO's simulator) stepped with random levels, run by
bench.py in a fresh interpreter: `python pensieve_ppo_loop.py '{"traces": ..., "video": ...,
"ladder": [...], "seconds": ...}'` prints the steps, the wall time and the CPU time.

torch and the packages only pensieve-ppo's agents use are stubbed, so the package runs without
them (installed with --no-deps) and a real torch is never imported. The stubs live here, in
this interpreter alone: neither abrlab nor the bench process ever sees them.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import sys
import types

import numpy as np

STUBBED = ("torch", "tensorboard", "transformers", "peft")


class Anything:
    def __init__(self, *arguments, **keywords):
        pass

    def __call__(self, *arguments, **keywords):
        return arguments[0] if len(arguments) == 1 and callable(arguments[0]) and not keywords else Anything()

    def __getattr__(self, name):
        return Anything()

    def __mro_entries__(self, bases):
        return (object,)


class Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Anything()


class Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        module = Stub(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def main() -> None:
    settings = json.loads(sys.argv[1])
    sys.meta_path.insert(0, Stubs())
    from pensieve_ppo.agent import create_env
    from pensieve_ppo.defaults import import_registry_packages
    from pensieve_ppo.quality_ladder.abc import QualityLadderRequest

    import_registry_packages()
    # bench.py lies beside this file (sys.path[0]): every single environment is timed by its loop.
    from bench import timed_steps

    levels = len(settings["ladder"])
    env = create_env(name="ppo", trace_folder=settings["traces"], train=False, random_seed=42,
                     player_kwargs={"video_size_file_prefix": settings["video"], "quality": settings["ladder"]})
    env.reset(seed=0)
    requests = [QualityLadderRequest(level=level) for level in range(levels)]
    actions = [requests[level] for level in np.random.default_rng(0).integers(0, levels, size=1 << 14).tolist()]
    print(*timed_steps(env, actions, settings["seconds"]))


if __name__ == "__main__":
    main()
