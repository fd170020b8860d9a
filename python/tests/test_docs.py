"""The docs' snippets that train, export or compare run as written, so a copied snippet works:
docs/python.md's stable-baselines3 section (fetch and generate traces, train PPO and export it,
compare it) at a tiny scale — 20 training traces, 2,000 steps, 12 test traces — with
python/README.md's copy of the training block the same text, and "Back to abrlab"'s `from_torch`
export played by its compare. Skipped where stable-baselines3 (and PyTorch) or Pensieve's dataset
are absent."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import PENSIEVE, REPOSITORY

DOCS = REPOSITORY / "docs" / "python.md"
README = REPOSITORY / "python" / "README.md"


def blocks(text: str) -> list[tuple[str, str]]:
    """The fenced code blocks of `text`: (language, code)."""
    return re.findall(r"^```(\w+)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def section(text: str, heading: str) -> str:
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else None]


def sb3_blocks() -> list[tuple[str, str]]:
    found = blocks(section(DOCS.read_text(), "## stable-baselines3"))
    assert [language for language, _ in found] == ["sh", "python", "sh"], found
    return found


def scaled(code: str, replacements: list[tuple[str, str]]) -> str:
    """`code` with each pattern replaced once; a pattern that is gone fails the test, so the
    snippet cannot drift from what runs."""
    for pattern, replacement in replacements:
        code, count = re.subn(pattern, replacement, code)
        assert count == 1, f"{pattern!r} is no longer in the snippet:\n{code}"
    return code


def test_readme_trains_as_the_docs_do():
    training = sb3_blocks()[1][1]
    assert ("python", training) in blocks(README.read_text())


def test_the_stable_baselines3_snippets_run_as_written(abrlab_bin, tmp_path):
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install './python[sb3]')")
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install './python[sb3]')")
    if not (PENSIEVE / "cooked_test_traces").is_dir():
        pytest.skip(f"Pensieve's dataset is absent ({PENSIEVE}); see ../shared/datasets/README.md")
    # The dataset ids resolve in a cache of this test's own, filled from the shared copy (the
    # docs' fetch then finds them installed), and 12 test traces keep a debug compare short.
    cache = tmp_path / "cache"
    subprocess.run([abrlab_bin, "datasets", "fetch", "pensieve/test", "pensieve/video", "--from", str(PENSIEVE.parent), "--quiet"],
                   check=True, capture_output=True, env={**os.environ, "ABRLAB_DATASETS": str(cache)})
    test = tmp_path / "test-traces"
    test.mkdir()
    for trace in sorted((PENSIEVE / "cooked_test_traces").iterdir())[:12]:
        shutil.copy(trace, test / trace.name)
    environment = {**os.environ, "ABRLAB_DATASETS": str(cache)}
    shell = f'abrlab() {{ "{Path(abrlab_bin).resolve()}" "$@"; }}\nset -e\n'
    (_, prepare), (_, train), (_, compare) = sb3_blocks()

    def run(command: list[str], timeout: int) -> str:
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=timeout, env=environment)
        assert result.returncode == 0, f"{command[-1][-2000:]}\nstdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-2000:]}"
        return result.stdout

    run(["bash", "-c", shell + scaled(prepare, [(r"--count 1000\b", "--count 20")])], 120)
    assert len(list((tmp_path / "train-traces").iterdir())) == 20
    run([sys.executable, "-c", scaled(train, [(r"total_timesteps=3_000_000", "total_timesteps=2_000")])], 300)
    assert (tmp_path / "ppo.safetensors").is_file()
    out = run(["bash", "-c", shell + scaled(compare, [(r"--traces pensieve/test\b", f"--traces {test} --out {tmp_path / 'out'}")])], 300)
    with open(tmp_path / "out" / "sessions.csv", newline="") as file:
        played = Counter(row["strategy"] for row in csv.DictReader(file))
    assert played == dict.fromkeys(("mlp", "pensieve-native", "robust_mpc-native", "bba-native"), 12), played
    assert all(strategy in out for strategy in played), out


def test_back_to_abrlab_exports_and_compares_as_written(abrlab_bin, tmp_path):
    pytest.importorskip("torch", reason="PyTorch is not installed (pip install './python[sb3]')")
    if not (PENSIEVE / "cooked_test_traces").is_dir():
        pytest.skip(f"Pensieve's dataset is absent ({PENSIEVE}); see ../shared/datasets/README.md")
    text = section(DOCS.read_text(), "## Back to abrlab")
    (compare,) = [code for language, code in blocks(text) if language == "sh"]
    (export,) = [code for language, code in blocks(text) if language == "python" and "from_torch(" in code]
    result = subprocess.run([sys.executable, "-c", export], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    test = tmp_path / "test-traces"
    test.mkdir()
    for trace in sorted((PENSIEVE / "cooked_test_traces").iterdir())[:12]:
        shutil.copy(trace, test / trace.name)
    # From the repository root, where the snippet's ../shared/datasets paths lead.
    command = f'abrlab() {{ "{Path(abrlab_bin).resolve()}" "$@"; }}\nset -e\n' + scaled(compare, [
        (r"mlp\.model=policy\.safetensors", f"mlp.model={tmp_path / 'policy.safetensors'}"),
        (r"--traces \.\./shared/datasets/pensieve/cooked_test_traces", f"--traces {test} --out {tmp_path / 'out'}"),
    ])
    result = subprocess.run(["bash", "-c", command], cwd=REPOSITORY, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    with open(tmp_path / "out" / "sessions.csv", newline="") as file:
        played = Counter(row["strategy"] for row in csv.DictReader(file))
    assert played == dict.fromkeys(("mlp", "bba", "robust_mpc", "pensieve"), 12), played
