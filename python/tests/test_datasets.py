"""Dataset ids in the keywords, as on the command line (docs/datasets.md)."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

from abrlab import ABREnv

from conftest import PENSIEVE, PENSIEVE_LADDER


def test_dataset_ids_name_the_fetched_copies(abrlab_bin, pensieve_inputs, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    subprocess.run([abrlab_bin, "datasets", "fetch", "pensieve/test", "pensieve/video", "--from", str(PENSIEVE.parent), "--quiet"],
                   check=True, env={**os.environ, "ABRLAB_DATASETS": str(cache)}, capture_output=True)
    monkeypatch.setenv("ABRLAB_DATASETS", str(cache))
    by_id = ABREnv(profile="pensieve", video="pensieve/video", traces="pensieve/test", ladder_kbps=PENSIEVE_LADDER, segment_duration_s=4)
    by_path = ABREnv(**pensieve_inputs)
    assert by_id.trace_names == by_path.trace_names and len(by_id.trace_names) == 142
    first, _ = by_id.reset(seed=3)
    second, _ = by_path.reset(seed=3)
    assert np.array_equal(first, second)


def test_an_id_not_fetched_names_the_command_that_fetches_it(repo_inputs, tmp_path, monkeypatch):
    monkeypatch.setenv("ABRLAB_DATASETS", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError, match="sabre/4g: dataset not fetched yet; run: abrlab datasets fetch sabre/4g"):
        ABREnv(**{**repo_inputs, "traces": "sabre/4g"})
