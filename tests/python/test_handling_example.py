"""examples/python/handling_maneuvers.py: FMVSS 126 sine with dwell with and without ESC, against the standard's
limits and against the C++ example's figures; the ISO 3888-2 lane change against pure pursuit's geometry."""
import math
import os
import re
import runpy
import subprocess

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
BUILD = os.environ.get("ACAUSAL_BUILD", os.path.join(ROOT, "build"))


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    pytest.importorskip("matplotlib")
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "handling_maneuvers.py"))
    out = tmp_path_factory.mktemp("handling")
    dwell, lane_change = example["main"](out=str(out))
    return example, dwell, lane_change, out


def test_without_esc_the_car_spins_and_fails_the_yaw_criteria(study):
    _, dwell, _, _ = study
    f = dwell[False]
    # It spins: 87 % of the peak yaw rate is left 1.75 s after the steer, far above the 20 % limit.
    assert f["ratio_1_75"] > 0.20 and f["ratio_1_00"] > 0.35
    assert not f["stable"]


def test_with_esc_the_car_passes_both_yaw_criteria_and_the_displacement(study):
    _, dwell, _, _ = study
    f = dwell[True]
    assert f["ratio_1_00"] <= 0.35 and f["ratio_1_75"] <= 0.20  # the standard's limits, no tolerance
    assert f["displacement"] >= 1.83
    assert f["stable"] and f["responsive"]


def test_the_figures_agree_with_the_cpp_example(study):
    """./build/examples/handling runs the same maneuver through harness::build_maneuver and
    sine_with_dwell_figures; it prints the ratios in whole percent and the displacement in cm, and steers
    6.5 × its fitted 26.02° where the script steers 6.5 × 26.0°. Within the printed rounding plus 1e-3
    relative they agree."""
    binary = os.path.join(BUILD, "examples", "handling")
    if not os.access(binary, os.X_OK):
        pytest.skip("the C++ examples are not built")
    printed = subprocess.run([binary], capture_output=True, text=True, check=True, timeout=120).stdout
    rows = re.findall(r"sine with dwell \d+ deg, (with|without) ESC: yaw ratio (-?\d+) % at 1\.0 s, (-?\d+) % at "
                      r"1\.75 s, displacement ([\d.]+) m", printed)
    assert len(rows) == 2, printed
    _, dwell, _, _ = study
    for esc, ratio_1_00, ratio_1_75, displacement in rows:
        f = dwell[esc == "with"]
        assert abs(100 * f["ratio_1_00"] - int(ratio_1_00)) <= 0.5 + 1e-3 * abs(100 * f["ratio_1_00"])
        assert abs(100 * f["ratio_1_75"] - int(ratio_1_75)) <= 0.5 + 1e-3 * abs(100 * f["ratio_1_75"])
        assert abs(f["displacement"] - float(displacement)) <= 0.005 + 1e-3 * f["displacement"]


def pursuit_cut(lanes, speed_kmh):
    """How far pure pursuit cuts the lane change's S-bends: it steers on the chord to the point L_d ahead,
    whose sagitta is κ·L_d²/8, κ the centre line's peak curvature (half a cosine of the side lane's offset
    over the 13.5 m to it: (offset/2)·(π/13.5)², 0.095 1/m) and L_d = max(3 m, 0.5 s · v), the
    PathFollower's default lookahead: 0.46 m at 45 km/h, 0.83 m at 60 km/h."""
    offset, gap = lanes[1][2], lanes[1][0] - lanes[0][1]
    kappa = offset / 2 * (math.pi / gap) ** 2
    lookahead = max(3.0, 0.5 * speed_kmh / 3.6)
    return kappa * lookahead**2 / 8


def test_the_lane_change_stays_in_the_lanes_at_45_kmh_and_not_at_60(study):
    example, _, lane_change, _ = study
    lanes = example["iso3888_2_lanes"]()
    for speed, f in lane_change.items():
        # The CG's a_y is the tires' lateral forces over m: never beyond μ·g (each tire within μ·N).
        assert f["a_y"] <= example["MU_G"]
    slow, fast = lane_change[45.0], lane_change[60.0]
    # Well below the grip limit (a_y 5.8 of 8.8 m/s2) the car follows pure pursuit's geometry: its largest
    # error is the chord's sagitta (0.45 m against 0.46 m); 20 % over it is the bound.
    assert slow["lateral_error"] <= 1.2 * pursuit_cut(lanes, 45.0)
    assert slow["in_lanes"] and min(slow["margins"]) >= 0.0
    # At 60 km/h the car works near the limit (7.9 m/s2) and lags a further 80 % behind the geometry
    # (1.51 m): within twice the sagitta, but its CG leaves the exit lane's band, by 0.74 m.
    assert fast["lateral_error"] <= 2.0 * pursuit_cut(lanes, 60.0)
    assert not fast["in_lanes"] and fast["margins"][2] < -0.5


def test_the_plots_are_written(study):
    _, _, _, out = study
    for name in ("sine_with_dwell_yaw_rate.png", "double_lane_change.png"):
        assert os.path.getsize(out / name) > 10_000
