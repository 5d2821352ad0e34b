"""The harness from Python: rigs, checks, energy books of Python components,
reports that render, and `acausal validate all` on the shipped library."""
import json
import os
import subprocess

import matplotlib.image
import numpy as np
import pytest

import acausal as ac
from acausal import harness as h
from acausal import rotational, vehicle
from models import SmoothFrictionDamper

BUILD = os.environ.get("ACAUSAL_BUILD", os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def damper_checklist(declare):
    checklist = h.Checklist("friction_damper", "SmoothFrictionDamper")
    rig = checklist.rig("spin_down", "an inertia spinning at 20 rad/s against the damper", t_end=3.0)
    disc = rig.add(rotational.Inertia("disc", J=0.5))
    damper = rig.add(SmoothFrictionDamper("damper", declare=declare))
    ground = rig.add(rotational.Fixed("ground"))
    rig.model.connect(disc.flange_b, damper.flange_a)
    rig.model.connect(damper.flange_b, ground.flange)
    rig.model.set_start("disc.w", 20.0)
    rig.model.set_start("disc.phi", 0.0)
    rig.expect_connectors(damper, {"flange_a": "rotational.Flange", "flange_b": "rotational.Flange"})
    rig.check(h.monotonic(disc.w, -1, 0.0, 3.0, 1e-9).titled("friction only slows the disc"))
    rig.check(h.sign(damper.tau * damper.w_rel, 1, 1e-9).titled("the damper dissipates"))
    rig.energy_balance(1e-4)
    return checklist


def test_a_python_component_on_a_python_rig_passes_every_level():
    report = damper_checklist(declare=True).run()
    assert [c.passed for c in report.checks] == [True] * len(report.checks), [c.message for c in report.checks]
    levels = {c.level for c in report.checks}
    assert levels == {h.Level.builds, h.Level.runs, h.Level.physics}
    books = [c for c in report.checks if "energy books" in c.title][0]
    assert books.error < 1e-6


def test_undeclared_dissipation_is_pinpointed_to_the_component():
    report = damper_checklist(declare=False).run()
    failed = [c for c in report.checks if not c.passed]
    assert {c.title for c in failed} == {"each component's energy books close",
                                        "the whole model conserves energy: work in = stored + dissipated"}
    for c in failed:
        assert "damper" in c.message and "do not close" in c.message
        assert c.worst_time > 0.0


def test_the_wheel_rig_from_python_checks_kinematics():
    checklist = h.Checklist("wheel", "Wheel from Python")
    rig = checklist.rig("rolling", "60 N.m on the axle", t_end=5.0)
    wheel = rig.add(vehicle.Wheel("wheel", radius=0.3, J=0.05))
    parts = h.wheel_rig(rig.model, wheel.flange_rot, wheel.contact, torque=60.0, N=5000.0, mass=500.0)
    rig.check(h.relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0))
    rig.check(h.relation(parts["body"].a, wheel.F_traction / parts["body"].m, 1e-3))
    # Deliberately wrong: the rim speed is not twice the road speed.
    rig.check(h.relation(wheel.v, 2.0 * wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0))
    report = checklist.run()
    physics = [c for c in report.checks if c.level == h.Level.physics]
    assert [c.passed for c in physics] == [True, True, False]
    assert "wheel.v" in physics[2].message and "t = " in physics[2].message


def assert_png_rendered(path):
    assert os.path.getsize(path) > 5000
    image = matplotlib.image.imread(path)
    assert image.shape[0] >= 300 and image.shape[1] >= 600
    assert float(np.std(image[..., :3])) > 0.05  # not blank


def test_validate_writes_markdown_json_and_plots(tmp_path):
    report = damper_checklist(declare=True).validate(str(tmp_path))
    assert report.passed
    text = (tmp_path / "report.md").read_text()
    assert "**PASSED**" in text and "Level 3: physics validated" in text
    data = json.loads((tmp_path / "report.json").read_text())
    plots = [c["plot"] for c in data["checks"] if c["plot"]]
    assert len(plots) >= 4
    for png in plots:
        assert_png_rendered(tmp_path / png)


def test_acausal_validate_all_passes_and_renders(tmp_path):
    cli = os.path.join(BUILD, "acausal")
    run = subprocess.run([cli, "validate", "all", "--out", str(tmp_path)], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    for name in h.checklist_names():
        data = json.loads((tmp_path / name / "report.json").read_text())
        assert data["passed"], name
        assert (tmp_path / name / "report.md").stat().st_size > 1000
        plots = [c["plot"] for c in data["checks"] if c["plot"]]
        assert plots, name
        for png in plots[:3] + plots[-2:]:
            assert_png_rendered(tmp_path / name / png)
    assert "car/report.md" in (tmp_path / "index.md").read_text()


def test_validate_rejects_an_unknown_checklist(tmp_path):
    run = subprocess.run([os.path.join(BUILD, "acausal"), "validate", "tyre", "--out", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "no checklist named 'tyre'" in run.stderr and "wheel" in run.stderr
    with pytest.raises(ValueError, match="no checklist named"):
        h.validate("tyre", out=str(tmp_path))
