"""Shared fixtures: the repository's inputs, Pensieve's dataset (skipped when absent) and the
abrlab command-line tool the exactness tests compare with."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
PENSIEVE = REPOSITORY.parent / "shared" / "datasets" / "pensieve"
PENSIEVE_LADDER = [300, 750, 1200, 1850, 2850, 4300]


@pytest.fixture(scope="session", autouse=True)
def sb3_log_folder(tmp_path_factory):
    """SB3 makes a log folder for every model it trains without one; the tests' go under pytest's
    temporary folder, not the system's."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    yield
    if before is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = before


@pytest.fixture
def repo_inputs() -> dict:
    """The repository's shipped video and traces (Traces/), which need no dataset."""
    return {"video": str(REPOSITORY / "Traces" / "video.json"), "traces": str(REPOSITORY / "Traces" / "default")}


@pytest.fixture
def pensieve_inputs() -> dict:
    """Pensieve's video and 142 test traces under its profile, from the shared datasets."""
    traces = PENSIEVE / "cooked_test_traces"
    if not traces.is_dir():
        pytest.skip(f"Pensieve's dataset is absent ({traces}); see ../shared/datasets/README.md")
    return {
        "profile": "pensieve", "video": str(PENSIEVE / "video_sizes"), "ladder_kbps": PENSIEVE_LADDER,
        "segment_duration_s": 4, "traces": str(traces),
    }


@pytest.fixture
def abrlab_bin() -> str:
    """The abrlab binary: $ABRLAB_BIN, else the repository's debug or release build; absolute,
    so a test may run it from another working folder."""
    candidates = [os.environ.get("ABRLAB_BIN"), REPOSITORY / ".build" / "debug" / "abrlab",
                  REPOSITORY / ".build" / "release" / "abrlab", shutil.which("abrlab")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return str(Path(candidate).resolve())
    pytest.skip("no abrlab binary to compare with: build it (swift build) or set ABRLAB_BIN")
