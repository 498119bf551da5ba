"""Builds the `stepscope` Python package with the project's own CMake build.

    /usr/bin/python3 -m pip install --no-build-isolation .      # or --target DIR / --user

Configures build/pip (Release, tests, benchmarks and examples off, Python3_EXECUTABLE =
the interpreter running pip) and builds only the Python targets, then packages
build/pip/python/stepscope. The version is the C++ library's (project(stepscope VERSION)
in CMakeLists.txt). Needs what `./dev build` needs (Debian's packages; `./dev setup`).
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(stepscope VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Runs CMake once for every extension and copies the whole package."""

    def run(self):
        build_dir = os.path.join(ROOT, "build", "pip")
        env = dict(os.environ, CCACHE_BASEDIR=ROOT, CCACHE_NOHASHDIR="true")
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                     "-DPython3_EXECUTABLE=" + sys.executable, "-DSTEPSCOPE_BUILD_TESTS=OFF",
                     "-DSTEPSCOPE_BUILD_BENCHMARKS=OFF", "-DSTEPSCOPE_BUILD_EXAMPLES=OFF",
                     "-DCMAKE_BUILD_RPATH_USE_ORIGIN=ON"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            subprocess.run(configure, check=True, env=env)
        jobs = os.environ.get("STEPSCOPE_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", build_dir, "-j", jobs, "--target", "stepscope_python"], check=True, env=env)
        package = os.path.join(build_dir, "python", "stepscope")
        target = os.path.join(self.build_lib, "stepscope")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))


setup(
    name="stepscope",
    version=project_version(),
    description="Profile Python (PyTorch) training programs: TensorFlow's profiler API, recorded in C++",
    packages=[],
    ext_modules=[Extension("stepscope._stepscope", sources=[])],  # built by CMakeBuild
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    zip_safe=False,
)
