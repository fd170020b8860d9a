"""Builds the Swift library (product ABRLabC) with the Swift toolchain as part of the install,
and ships it inside the package. No prebuilt binaries: `pip install ./python` from the repository."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

LIBRARY = "libABRLabC.dylib" if platform.system() == "Darwin" else "libABRLabC.so"


def repository() -> Path:
    """The abrlab repository: $ABRLAB_REPO, else the folder above this one."""
    root = Path(os.environ.get("ABRLAB_REPO") or Path(__file__).resolve().parent.parent)
    if not (root / "Package.swift").is_file():
        raise SystemExit(f"abrlab: no Package.swift in {root}; install from the repository (pip install ./python) or set ABRLAB_REPO")
    return root


class BuildWithSwift(build_py):
    def run(self) -> None:
        super().run()
        root = repository()
        swift = shutil.which("swift")
        if swift is None:
            raise SystemExit("abrlab: the Swift toolchain (swift) is not on PATH; it builds the engine the package loads")
        command = [swift, "build", "-c", "release", "--product", "ABRLabC"]
        print("abrlab: " + " ".join(command), flush=True)
        subprocess.run(command, cwd=root, check=True)
        built = subprocess.run([*command[:-2], "--show-bin-path"], cwd=root, check=True, capture_output=True, text=True).stdout.strip()
        target = Path(self.build_lib) / "abrlab"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(Path(built) / LIBRARY, target / LIBRARY)
        (target / "_build_info.py").write_text(
            '"""Where the package was built from; the install rewrites this file."""\n\n'
            f"REPOSITORY: str | None = {str(root)!r}\n"
        )


class BinaryDistribution(Distribution):
    """The wheel holds a native library: tag it for this platform."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildWithSwift}, distclass=BinaryDistribution)
