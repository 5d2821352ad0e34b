"""Height-map terrain from Python: a constant-slope profile is the constant grade, a tilted-plane map is the
inclined plane, and the loaders' errors name the file and line."""
import pytest

import acausal as ac
from acausal import translational, vehicle


def coast(v0=15.0, **body_parameters):
    m = ac.Model("coast")
    body = m.add(vehicle.VehicleBody("body", m=1200.0, **body_parameters))
    for axle in ("front", "rear"):
        breakout = m.add(vehicle.WheelContactBreakout("breakout_" + axle))
        m.connect(getattr(body, "contact_" + axle), breakout.contact)
        m.connect(breakout.flange_normal, m.add(translational.Fixed("ground_" + axle)).flange)
        m.connect(breakout.flange_traction, m.add(translational.ConstantForce("force_" + axle, f_constant=0.0)).flange)
    m.set_start("body.s", 0.0)
    m.set_start("body.v", v0)
    return m, body


def test_a_constant_slope_profile_is_the_constant_grade(tmp_path):
    import math
    expected = coast(grade=0.06)[0].compile().simulate(t_end=4.0, output_interval=0.01, rtol=1e-9)
    m, body = coast()
    vehicle.set_height_profile(body, [(s, s * math.sin(0.06)) for s in (-50.0, 0.0, 100.0, 200.0)])
    r = m.compile().simulate(t_end=4.0, output_interval=0.01, rtol=1e-9)
    assert abs(r["body.v"] - expected["body.v"]).max() < 1e-9
    assert r["body.v"][-1] < 13.0  # it climbed

    profile = tmp_path / "profile.csv"
    profile.write_text("s,z\n0,0\n10,oops\n")
    with pytest.raises(ac.ModelError, match=r"profile.csv:3: field 2 \('oops'\)"):
        vehicle.set_height_profile(body, file=profile)
    with pytest.raises(ac.ModelError, match="is not a vehicle.PlanarVehicleBody"):
        vehicle.set_height_map(body, [0.0, 1.0], [0.0, 1.0], [[0.0, 0.0], [0.0, 0.0]])


def test_a_trough_between_the_axles_is_felt_only_when_read_under_the_cg():
    # A 20 cm cosine trough 1.2 m wide at s = 0: parked with its CG on the flank (s = 0.3) and its axles on the
    # flat, the car stays put when the road is read under its wheels (the default) and rolls in when read under
    # its CG (slope 0.52 there).
    import math
    points = [(0.1 * i, -0.1 * (1 + math.cos(math.pi * 0.1 * i / 0.6)) if abs(0.1 * i) < 0.6 else 0.0)
              for i in range(-100, 101)]
    moved = {}
    for sampling in ("wheels", "cg"):
        m, body = coast(v0=0.0)
        vehicle.set_height_profile(body, points, sampling=sampling)
        m.set_start("body.s", 0.3)
        r = m.compile().simulate(t_end=1.0, output_interval=0.01, rtol=1e-9)
        moved[sampling] = abs(r["body.s"][-1] - 0.3)
    assert moved["wheels"] < 1e-12
    assert moved["cg"] > 0.1
    m, body = coast()
    with pytest.raises(ac.ModelError, match="terrain sampling 'axle': expected 'wheels' or 'cg'"):
        vehicle.set_height_profile(body, points, sampling="axle")


def test_a_height_map_reaches_the_planar_body(tmp_path):
    grid = tmp_path / "map.csv"
    grid.write_text("x\\y,0,10\n0,0,0\n10,1,1\n20,2,2\n")  # 10 % up along x
    m = ac.Model("planar")
    body = m.add(vehicle.PlanarVehicleBody("body"))
    vehicle.set_height_map(body, file=grid)
    with pytest.raises(ac.ModelError, match=r"bad.csv:1: field 2 \(.a.\)"):
        vehicle.set_height_map(body, file=_write(tmp_path / "bad.csv", "x\\y,a,10\n0,0,0\n"))


def _write(path, text):
    path.write_text(text)
    return path
