"""Builds the Python package with the project's CMake build and hands its files to setuptools.

The extension, _component_docs.py, the .pyi stubs and py.typed are made by CMake targets
(python/CMakeLists.txt); this file only runs them and copies build/python/acausal into the wheel,
so `pip install .` and the developer's build tree hold the same package.

Environment:
  ACAUSAL_BUILD_DIR  the CMake build directory (default <repo>/build/pip, not the developer's build/);
                     an existing, configured one is built as it is (not reconfigured).
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default 2).
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
PYTHON_TARGETS = ["_acausal", "acausal_python_sources", "acausal_component_docs", "acausal_stubs"]


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(acausal VERSION ([0-9.]+)", f.read()).group(1)


def build_dir():
    return os.path.abspath(os.environ.get("ACAUSAL_BUILD_DIR") or os.path.join(ROOT, "build", "pip"))


class CMakeBuild(build_ext):
    def run(self):
        build = build_dir()
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            # Only what the package needs: no tests (their build takes most of the time).
            self.spawn(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        f"-DPython_EXECUTABLE={sys.executable}", "-DACAUSAL_BUILD_TESTS=OFF",
                        "-DACAUSAL_PYTHON=ON"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        self.spawn(["cmake", "--build", build, "-j", jobs, "--target", *PYTHON_TARGETS])
        self.copy_package(os.path.join(build, "python", "acausal"))

    def copy_package(self, source):
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        module = os.path.join(source, "_acausal" + suffix)
        if not os.path.exists(module):
            # A build directory configured for another interpreter holds a module this Python cannot import.
            raise RuntimeError(f"{module} was not built: the CMake build in {os.path.dirname(os.path.dirname(source))}"
                               f" is configured for another Python than {sys.executable} (remove it or set"
                               " ACAUSAL_BUILD_DIR to a new directory)")
        target = os.path.dirname(self.get_ext_fullpath("acausal._acausal"))
        os.makedirs(target, exist_ok=True)
        for name in sorted(os.listdir(source)):
            path = os.path.join(source, name)
            is_module = name.startswith("_acausal.") and name.endswith(".so")
            if os.path.isdir(path) or (is_module and name != "_acausal" + suffix):
                continue
            shutil.copy2(path, os.path.join(target, name))

    def get_outputs(self):
        return [self.get_ext_fullpath("acausal._acausal")]


# setuptools' own scratch files go under build/pip too, not into the developer's build/ or the repo root.
SCRATCH = os.path.join("build", "pip", "setuptools")
os.makedirs(os.path.join(ROOT, SCRATCH), exist_ok=True)

setup(
    version=project_version(),
    packages=["acausal"],
    package_dir={"acausal": "python/acausal"},
    # No sources: the extension is made by CMake (CMakeBuild); declaring it makes the wheel platform-specific.
    ext_modules=[Extension("acausal._acausal", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}},
    zip_safe=False,
)
