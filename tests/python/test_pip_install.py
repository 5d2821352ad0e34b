"""`pip install .` (issue 36, item 1): the package installs into a fresh virtual environment, imports
from there and runs a model. setup.py builds with the already built developer tree (ACAUSAL_BUILD_DIR),
where the CMake build is a no-op, so the test takes seconds, not the minutes of a fresh build."""
import os
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.abspath(os.environ.get("ACAUSAL_BUILD", os.path.join(REPO, "build")))

# A free mass pushed by a constant force from rest: s(t) = F t^2 / (2 m), 2.5 m at t = 1 s for F = 10 N, m = 2 kg.
PROGRAM = """
import acausal as ac
from acausal import blocks, translational
m = ac.Model("pushed")
mass = m.add(translational.Mass("mass", m=2.0))
push = m.add(blocks.Constant("push", k=10.0))
force = m.add(translational.Force("force"))
m.connect(push.y, force.f)
m.connect(force.flange, mass.flange_a)
m.set_start("mass.s", 0.0)
m.set_start("mass.v", 0.0)
r = m.compile().simulate(t_end=1.0)
print(ac.__file__)
print(repr(float(r["mass.s"][-1])))
"""


def test_pip_install_into_a_fresh_venv_imports_and_simulates(tmp_path):
    if not os.path.exists(os.path.join(BUILD, "CMakeCache.txt")):
        pytest.skip(f"no configured build tree at {BUILD} (a fresh build would take minutes)")
    venv = tmp_path / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                          capture_output=True, text=True)
    pip = venv / "bin" / "pip"
    if made.returncode != 0 or not pip.exists():
        pytest.skip(f"venv/pip unavailable (Debian: python3-venv python3-pip): {made.stderr.strip()[-300:]}")

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the venv's package, not the build tree's
    env["ACAUSAL_BUILD_DIR"] = BUILD
    # --no-build-isolation: setuptools and wheel from Debian, not PyPI; --no-index: offline.
    installed = subprocess.run([str(pip), "install", "--no-build-isolation", "--no-deps", "--no-index", REPO],
                               capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=600)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]

    outside = tmp_path / "elsewhere"  # not the repo: `import acausal` must not find python/acausal
    outside.mkdir()
    ran = subprocess.run([str(venv / "bin" / "python"), "-c", PROGRAM], capture_output=True, text=True, env=env,
                         cwd=str(outside), timeout=120)
    assert ran.returncode == 0, ran.stderr[-3000:]
    module_file, position = ran.stdout.split()[-2:]
    assert os.path.realpath(module_file).startswith(os.path.realpath(str(venv)) + os.sep)
    assert abs(float(position) - 2.5) < 1e-4

    site = os.path.dirname(os.path.dirname(module_file))
    package = os.listdir(os.path.join(site, "acausal"))
    for generated in ["_component_docs.py", "py.typed", "__init__.pyi"]:
        assert generated in package
    assert any(name.startswith("_acausal.") and name.endswith(".so") for name in package)
