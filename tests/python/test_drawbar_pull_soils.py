"""examples/python/drawbar_pull_soils.py: drawbar pull vs slip for three soils, plotted."""
import math
import os
import runpy

import numpy as np
import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_drawbar_pull_for_three_soils_is_plotted_and_physical(tmp_path):
    pytest.importorskip("matplotlib")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "drawbar_pull_soils.py"))
    curves = example["main"](out=str(tmp_path), sweep_time=4.0)
    assert list(curves) == ["sandy_loam", "dry_sand", "clayey_soil"]
    assert os.path.getsize(tmp_path / "drawbar_pull_soils.png") > 20_000
    rows = (tmp_path / "drawbar_pull_soils.csv").read_text().splitlines()
    assert len(rows) == 1 + sum(len(c["slip"]) for c in curves.values())
    for name, c in curves.items():
        slip, DP = c["slip"], c["DP"]
        assert slip[0] == pytest.approx(0.0, abs=1e-6) and slip[-1] == pytest.approx(0.8, rel=1e-3), name
        assert np.all(DP < c["coulomb"]), name  # below the Coulomb limit A*c + W*tan(phi)
        assert DP.max() > 0.0, name  # each soil carries a pull at some slip (clayey soil only 0.06 W: its low φ)
    # The soils differ: at slip 0.2 the table of docs/terrain.md (a fine-quadrature replica of the wheel's
    # equations) gives sandy loam 2799 N; clayey soil's is more than 5 % of W below the other two.
    at = {name: float(np.interp(0.2, c["slip"], c["DP"])) for name, c in curves.items()}
    assert at["sandy_loam"] == pytest.approx(2799.0, rel=0.05)
    assert at["clayey_soil"] < min(at["sandy_loam"], at["dry_sand"]) - 0.05 * example["LOAD"]  # its low φ
    # On sandy loam the wheel is pushed through its rut at zero slip (docs/terrain.md: -1011 N), and the pull rises
    # with slip up to 0.5. (On dry sand the shear Wong-Reece's j mobilises at zero slip exceeds the
    # compaction resistance: the pull there is positive.)
    assert curves["sandy_loam"]["DP"][0] == pytest.approx(-1011.0, rel=0.05)
    rising = curves["sandy_loam"]["slip"] <= 0.5  # the pull peaks near slip 0.65 (examples/drawbar_pull)
    assert np.all(np.diff(curves["sandy_loam"]["DP"][rising]) > -1e-6 * example["LOAD"])
    assert math.isfinite(np.nanmax(curves["sandy_loam"]["efficiency"]))
