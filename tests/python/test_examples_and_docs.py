"""The Python examples run, and every snippet of docs/python.md and docs/analysis.md runs as written."""
import os
import re
import runpy

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_parameter_identification_recovers_the_damper():
    pytest.importorskip("scipy")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "identify_damper.py"))
    assert example["main"](true_d=3.0) == pytest.approx(3.0, rel=0.02)


@pytest.mark.parametrize("page", ["python.md", "analysis.md"])
def test_docs_python_snippets_run(page, tmp_path, monkeypatch):
    text = open(os.path.join(ROOT, "docs", page)).read()
    snippets = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(snippets) >= 3
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for snippet in snippets:  # later snippets build on earlier ones, like a reader would
        exec(compile(snippet, "docs/python.md", "exec"), namespace)


def test_launch_study_more_load_transfer_launches_faster_on_a_slippery_road(tmp_path):
    pytest.importorskip("matplotlib")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "launch_study.py"))
    table = example["main"](h_cg=(0.3, 0.7), mu=(0.5, 1.1), t_end=15.0, out=str(tmp_path), executor="serial")
    assert table["error"].isna().all() if "error" in table else True
    t = table.set_index(["body.h_cg", "mu"])["t_100"]
    # Traction-limited: the higher CG loads the driven axle and wins by more than 2 %.
    assert t[(0.7, 0.5)] < t[(0.3, 0.5)] * 0.98
    # Friction matters most: μ = 1.1 is faster than μ = 0.5 at either height.
    assert t[(0.3, 1.1)] < t[(0.3, 0.5)]
    assert os.path.getsize(tmp_path / "launch_study.png") > 10_000


def test_controller_in_the_loop_example_follows_its_set_speed(tmp_path):
    pytest.importorskip("matplotlib")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "controller_in_the_loop.py"))
    r = example["main"](out=str(tmp_path), t_end=3.0)
    assert abs(r["shaft.w"][-1] - 4.0) < 0.01  # settled on the second set speed
    assert max(r["shaft.w"][r.time < 0.6]) > 10.0  # the PI overshoots the first, as tuned
    assert os.path.getsize(tmp_path / "controller_in_the_loop.png") > 10_000


def test_driveline_modes_example_finds_the_mode_and_the_trim(tmp_path):
    pytest.importorskip("matplotlib")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "driveline_modes.py"))
    lin, trim = example["main"](out=str(tmp_path))
    oscillating = lin.modes()
    oscillating = oscillating[oscillating["eigenvalue"].map(lambda z: z.imag) > 1.0]
    assert len(oscillating) == 1 and 15.0 < oscillating["frequency_hz"].iloc[0] < 25.0
    assert 0.0 < trim.values["throttle"] < 1.0
    for name in ("driveline_bode.png", "driveline_step.png", "driveline_trim.png"):
        assert os.path.getsize(tmp_path / name) > 10_000
