"""`import abrlab` is light: it registers the environments by their entry points' names and
loads no native library, reads no settings table, and sets no environment variable; the library
loads when the first environment is made (each probe in its own interpreter)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPOSITORY

PROBE = """
import json, os, sys

def mapped():
    with open("/proc/self/maps") as maps:
        return "libABRLabC" in maps.read()

import gymnasium as gym  # before the snapshot: Gymnasium's import sets PYGAME_HIDE_SUPPORT_PROMPT
before = dict(os.environ)
import abrlab
import abrlab.policy
from abrlab import ABREnv, StepBeforeReset
import abrlab.vector
report = {"mapped_after_import": mapped(), "environment_changed": dict(os.environ) != before,
          "home_after_import": os.environ.get("ABRLAB_HOME")}
env = gym.make("abrlab/ABR-v0", video=sys.argv[1], traces=sys.argv[2])
observation, info = env.reset(seed=0)
env.step(0)
report.update(mapped_after_make=mapped(), shape=list(observation.shape), made=type(env).__name__)
print(json.dumps(report))
"""


def run_probe(code: str, *arguments: str) -> dict:
    environment = {key: value for key, value in os.environ.items() if key != "ABRLAB_HOME"}
    result = subprocess.run([sys.executable, "-c", code, *arguments], env=environment, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_importing_abrlab_loads_no_library_and_sets_no_variable(repo_inputs):
    report = run_probe(PROBE, repo_inputs["video"], repo_inputs["traces"])
    assert report["mapped_after_import"] is False
    assert report["environment_changed"] is False and report["home_after_import"] is None
    # gym.make imports the entry point and loads the library then.
    assert report["mapped_after_make"] is True
    assert report["made"] == "ABREnv" and report["shape"] == [6, 8]


def test_every_public_name_imports_without_the_library():
    code = ("import abrlab, json\n"
            "names = {name: type(getattr(abrlab, name)).__name__ for name in abrlab.__all__}\n"
            "print(json.dumps([sorted(names), 'libABRLabC' in open('/proc/self/maps').read()]))")
    names, mapped = run_probe(code)
    assert set(names) >= {"ABREnv", "StepBeforeReset", "settings"} and mapped is False


def test_the_settings_table_loads_the_library_when_first_read():
    code = ("import abrlab, json, os\n"
            "table = abrlab.settings()\n"
            "print(json.dumps([len(table), 'libABRLabC' in open('/proc/self/maps').read(), os.environ.get('ABRLAB_HOME')]))")
    count, mapped, home = run_probe(code)
    assert count > 20 and mapped is True
    # The repository the package was built from, for the shipped strategies, unless set.
    assert home == str(REPOSITORY)


def test_the_vector_environment_registers_by_name_too(repo_inputs):
    code = ("import abrlab, gymnasium as gym, json, sys\n"
            "envs = gym.make_vec('abrlab/ABR-v0', num_envs=2, video=sys.argv[1], traces=sys.argv[2])\n"
            "spec = gym.spec('abrlab/ABR-v0')\n"
            "print(json.dumps([type(envs).__name__, spec.entry_point, spec.vector_entry_point]))")
    name, entry, vector_entry = run_probe(code, repo_inputs["video"], repo_inputs["traces"])
    assert (name, entry, vector_entry) == ("ABRVectorEnv", "abrlab.env:ABREnv", "abrlab.vector:ABRVectorEnv")
