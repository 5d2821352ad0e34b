"""The handling maneuvers of harness/handling.hpp from Python (acausal.harness.build_maneuver, split_mu_road,
step_steer_figures, sine_with_dwell_figures, understeer_gradient, iso3888_2_lanes, lane_centre_line): the figures
against the values `acausal validate handling` and ./build/examples/handling print (docs/vehicle.md's table), and
the comparisons a checklist rig cannot make because it sees one run only (split-μ braking with and without ESC)."""
import math

import numpy as np
import pytest

import acausal as ac
from acausal import harness as h

V0 = 80.0 / 3.6
A_03G = math.radians(26.0)  # the default PlanarCar's steering-wheel angle for 0.3 g at 80 km/h
A_4 = A_03G * 4.0 / (0.3 * 9.81)  # ISO 7401's step to 4 m/s², as harness/checklists/handling.cpp steers it
# The checklist's options (harness::run_options): the figures below are read at them.
RUN = {"output_interval": 0.005, "rtol": 1e-8, "atol": 1e-10}


def tire_ratio(r):
    """The largest |F|/F_peak of the four wheels over the run."""
    return max(float(np.max(r[f"car.wheel_{c}.F_total"] / r[f"car.wheel_{c}.F_peak"])) for c in ("fl", "fr", "rl", "rr"))


def step_steer():
    m = ac.Model("step_steer")
    car = h.build_maneuver(m, v0=V0, hold_speed=True,
                           robot={"profile": "step", "amplitude": A_4, "rate": A_4 / 0.15, "start_time": 1.0})
    assert car.name == "car"
    return m.compile().simulate(t_end=5.0, **RUN)


def sine_with_dwell(esc):
    m = ac.Model("sine_with_dwell")
    h.build_maneuver(m, v0=V0, esc=esc,
                     robot={"profile": "sine_with_dwell", "amplitude": 6.5 * A_03G, "start_time": 1.0})
    return m.compile().simulate(t_end=6.0, **RUN)


def test_step_steer_figures():
    """ISO 7401 step steer to 4 m/s² at 80 km/h: response time 0.196 s, peak 0.425 s, overshoot 7.5 % (the
    checklist's step_steer rig prints them); within 5 ms, 10 ms and 1 percentage point."""
    r = step_steer()
    f = h.step_steer_figures(r, A_4)
    assert f["response_time"] == pytest.approx(0.196, abs=0.005)
    assert f["peak_response_time"] == pytest.approx(0.425, abs=0.010)
    assert f["overshoot"] == pytest.approx(0.075, abs=0.01)
    # Its steady yaw rate is the one of a_y ≈ 4 m/s² at 80 km/h: r = a_y/v within 10 %.
    assert f["steady_yaw_rate"] == pytest.approx(4.0 / V0, rel=0.10)
    assert f["steady_gain"] == pytest.approx(f["steady_yaw_rate"] / A_4, rel=1e-12)
    assert tire_ratio(r) <= 1.0 + 1e-9


@pytest.mark.parametrize("esc", [False, True])
def test_sine_with_dwell_fmvss126(esc):
    """FMVSS 126 at 6.5 × 26° of steering-wheel angle from 80 km/h: without ESC the car spins and fails the
    yaw-rate criteria (97 % and 87 % of the peak left), with ESC it passes them (0 %, 0 %) with 2.89 m of
    lateral displacement (at least 1.83 m)."""
    r = sine_with_dwell(esc)
    f = h.sine_with_dwell_figures(r, 1.0)
    assert f["peak_yaw_rate"] < 0
    if esc:
        assert f["stable"] and f["responsive"]
        assert f["ratio_1_00"] <= 0.35 and f["ratio_1_75"] <= 0.20  # the standard's limits, no tolerance
        assert f["lateral_displacement"] == pytest.approx(2.89, abs=0.05)
    else:
        assert not f["stable"]
        assert f["ratio_1_00"] == pytest.approx(0.97, abs=0.05)
        assert f["ratio_1_75"] == pytest.approx(0.87, abs=0.05)
    assert tire_ratio(r) <= 1.0 + 1e-9


def test_understeer_gradient_of_a_slowly_increasing_steer():
    """ISO 4138 at 80 km/h, the steering wheel ramped at 13.5°/s: K = 3.21e-3 rad/(m/s²) fitted over
    0.5-2 m/s² (docs/vehicle.md), within 3 %; the angle for 0.3 g is 26.0° within 0.5°."""
    m = ac.Model("slowly_increasing_steer")
    h.build_maneuver(m, v0=V0, hold_speed=True, robot={"profile": "ramp", "amplitude": math.radians(180),
                                                       "rate": math.radians(13.5), "start_time": 1.0})
    r = m.compile().simulate(t_end=5.0, output_interval=0.01, rtol=1e-6, atol=1e-8)
    assert h.understeer_gradient(r, 2.7, 0.5, 2.0) == pytest.approx(3.21e-3, rel=0.03)
    assert math.degrees(h.steer_for_lateral_acceleration(r, 0.3 * 9.81, 0.5, 2.0)) == pytest.approx(26.0, abs=0.5)


def test_split_mu_braking_with_and_without_esc():
    """Split-μ braking with ABS, μ 0.9 left and 0.2 right, full pedal, no steer: the car yaws to the high-μ side.
    The ESC only adds braking (each wheel's demand is the larger of the pedal and the ESC's), so under a full pedal
    it can do nothing: both runs end at the same yaw angle (about 3.74 rad: the car spins). The ESC must at least
    not make it worse."""
    psi = {}
    for esc in (False, True):
        m = ac.Model("split_mu")
        car = h.build_maneuver(m, v0=V0, abs=True, esc=esc, robot={"amplitude": 0.0}, brake_pedal=1.0,
                               brake_start=0.5)
        h.split_mu_road(car, 0.9, 0.2)
        r = m.compile().simulate(t_end=3.5, output_interval=0.01, rtol=1e-8, atol=1e-10)
        assert np.all(r["car.psi"] >= -1e-9)
        psi[esc] = float(r["car.psi"][-1])
    assert psi[False] > 0.1
    assert psi[True] <= psi[False] * (1 + 1e-3)


def test_iso3888_2_lanes_and_the_double_lane_change():
    """The lanes as ISO 3888-2 lays them out for a car 1.8 m wide, the centre line through them, and the car
    following it at 50 km/h inside every lane (its CG ± 0.9 m, yaw ignored), as the checklist's
    double_lane_change rig checks."""
    lanes = h.iso3888_2_lanes(1.8)
    assert [(b - a) for a, b, _, _ in lanes] == pytest.approx([12.0, 11.0, 12.0])
    assert [lanes[1][0] - lanes[0][1], lanes[2][0] - lanes[1][1]] == pytest.approx([13.5, 12.5])
    assert [w for _, _, _, w in lanes] == pytest.approx([1.1 * 1.8 + 0.25, 1.8 + 1.0, 3.0])
    # The side lane's right edge 1 m left of the entry lane's left edge.
    assert (lanes[1][2] - lanes[1][3] / 2) - (lanes[0][2] + lanes[0][3] / 2) == pytest.approx(1.0)
    path = h.lane_centre_line(lanes)
    xs, ys = np.array(path).T
    assert xs[0] == 0.0 and xs[-1] == pytest.approx(lanes[-1][1] + 40.0)
    for x_a, x_b, c, _ in lanes:
        assert np.all(np.abs(ys[(xs >= x_a) & (xs <= x_b)] - c) < 1e-12)

    v = 50.0 / 3.6
    m = ac.Model("double_lane_change")
    h.build_maneuver(m, v0=v, hold_speed=True, path=path)
    r = m.compile().simulate(t_end=(lanes[-1][1] + 10.0) / v, output_interval=0.01, rtol=1e-8, atol=1e-10)
    x, y = r["car.x"], r["car.y"]
    for x_a, x_b, c, w in lanes:
        inside = (x >= x_a) & (x <= x_b)
        assert inside.any()
        assert np.min((w - 1.8) / 2 - np.abs(y[inside] - c)) >= 0.0
    assert tire_ratio(r) <= 1.0 + 1e-9


def test_build_maneuver_rejects_a_profile_it_does_not_know():
    with pytest.raises(ac.ModelError, match="profile"):
        h.build_maneuver(ac.Model("bad"), robot={"profile": "zigzag"})
    with pytest.raises(ac.ModelError, match="not both"):
        h.build_maneuver(ac.Model("both"), robot={"amplitude": 0.1}, path=[(0.0, 0.0), (10.0, 0.0)])
