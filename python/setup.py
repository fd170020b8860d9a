"""Builds the Swift library (product ABRLabC) with the Swift toolchain as part of the install,
and ships it inside the package. No prebuilt binaries: `pip install ./python` from the repository."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

LIBRARY = "libABRLabC.dylib" if platform.system() == "Darwin" else "libABRLabC.so"


def repository() -> Path:
    """The abrlab repository: $ABRLAB_REPO, else the folder above this one."""
    root = Path(os.environ.get("ABRLAB_REPO") or Path(__file__).resolve().parent.parent)
    if not (root / "Package.swift").is_file():
        raise SystemExit(f"abrlab: no Package.swift in {root}; install from the repository (pip install ./python) or set ABRLAB_REPO")
    return root


def terminal():
    """The terminal pip runs in, which pip's captured output does not reach; None without one."""
    try:
        return open("/dev/tty", "w")
    except OSError:
        return None


def build(command: list[str], root: Path) -> None:
    """Runs the Swift build, its output in pip's log (`pip install -v`) and its progress on one
    line of the terminal: the first build compiles the whole engine in release mode, minutes of
    silence behind pip's spinner otherwise."""
    tty = terminal()
    note = "abrlab: building the Swift engine (" + " ".join(command[1:]) + "); the first build takes several minutes"
    print(note, flush=True)
    if tty:
        tty.write("\n" + note + "\n")  # below pip's "Building wheel ..." spinner
        tty.flush()
    process = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    last: list[str] = []
    assert process.stdout is not None
    for line in process.stdout:
        print(line, end="", flush=True)
        last = (last + [line.rstrip()])[-20:]
        if tty and line.startswith("["):
            tty.write("\r\033[K" + ("abrlab: " + line.strip())[:100])
            tty.flush()
    code = process.wait()
    if tty:
        tty.write("\r\033[K" + ("abrlab: Swift build done\n" if code == 0 else ""))
        tty.close()
    if code:
        raise SystemExit("abrlab: the Swift build failed (exit " + str(code) + "):\n" + "\n".join(last))


class BuildWithSwift(build_py):
    def run(self) -> None:
        super().run()
        root = repository()
        swift = shutil.which("swift")
        if swift is None:
            raise SystemExit("abrlab: the Swift toolchain (swift) is not on PATH; it builds the engine the package loads")
        command = [swift, "build", "-c", "release", "--product", "ABRLabC"]
        build(command, root)
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


def numpy_headers() -> list[str]:
    """numpy's C headers, which the C step makes its observations with; none where numpy is not
    importable at build time (pyproject.toml asks for it), and then the C step is not built."""
    try:
        import numpy
    except ImportError:
        return []
    return [numpy.get_include()]


# ABREnv.step in C: optional, so an install without a C compiler or Python's headers (Debian's
# python3-dev) still works, stepping in Python, a few times slower per step.
STEPPER = Extension("abrlab._stepper", ["abrlab/_stepper.c", "abrlab/_reset.c", "abrlab/_lock.c"],
                    depends=["abrlab/_stepper.h", "abrlab/_lock.h"], include_dirs=numpy_headers(), optional=True)

setup(cmdclass={"build_py": BuildWithSwift}, distclass=BinaryDistribution, ext_modules=[STEPPER])
