"""Builds the wheel with libmaxdyn inside it (maxdyn/libmaxdyn.so): the library named by
MAXDYN_LIBRARY when set, else the one `cargo build --release --lib` builds from the
repository this directory belongs to. The wheel is platform-specific for that reason."""

import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
LIB_NAME = {"darwin": "libmaxdyn.dylib", "win32": "maxdyn.dll"}.get(sys.platform, "libmaxdyn.so")


def built_library():
    given = os.environ.get("MAXDYN_LIBRARY")
    if given:
        if not os.path.isfile(given):
            raise SystemExit(f"MAXDYN_LIBRARY={given} is not a file")
        return given
    if not os.path.isfile(os.path.join(REPO, "Cargo.toml")):
        raise SystemExit("maxdyn: not inside the maxdyn repository; set MAXDYN_LIBRARY to a built libmaxdyn")
    subprocess.check_call(["cargo", "build", "--release", "--lib"], cwd=REPO)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
    return os.path.join(target, "release", LIB_NAME)


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        dest = os.path.join(self.build_lib, "maxdyn", LIB_NAME)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built_library(), dest)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=BinaryDistribution)
