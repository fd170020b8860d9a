"""The native library the package loads: what it links."""
import shutil
import subprocess

import pytest

from abrlab import _native


@pytest.mark.skipif(shutil.which("ldd") is None, reason="ldd is not on PATH")
def test_the_library_links_no_foundation_networking():
    # Fetching lives in the command line's own module (ABRLabFetch): the library the Python
    # package loads never reaches the network, so it links no FoundationNetworking (nor libcurl).
    linked = subprocess.run(["ldd", str(_native.library_path())], capture_output=True, text=True, check=True).stdout
    assert "libswiftCore" in linked, linked
    assert "FoundationNetworking" not in linked, linked
    assert "libcurl" not in linked, linked
