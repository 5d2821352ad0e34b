"""Issue 38 from Python: the shipped soils, a SoftSoilWheel on sandy loam at a prescribed slip (the drawbar rig of
tests/test_tractor.cpp: hull speed and hub speed prescribed), set_soil on a wheel and on the Tractor, and a bad
soil table refused naming the file and the line."""
import math

import numpy as np
import pytest

import acausal as ac
from acausal import blocks, rotational, translational, vehicle

SHIPPED = ["dry_sand", "sandy_loam", "clayey_soil", "heavy_clay", "lean_clay", "lete_sand", "snow_us"]


def test_the_shipped_soils_are_listed_and_load():
    names = vehicle.soil_names()
    assert set(SHIPPED) <= set(names)
    assert len(names) == len(set(names))
    loam = vehicle.soil("sandy_loam")
    assert isinstance(loam, vehicle.Soil)
    assert loam.name == "sandy_loam"
    assert loam.n == pytest.approx(0.7)
    assert loam.k_c == pytest.approx(5.27e3)         # kN in the file, SI here
    assert loam.k_phi == pytest.approx(1515.04e3)
    assert loam.c == pytest.approx(1.72e3)
    assert loam.phi == pytest.approx(math.radians(29.0))
    assert loam.plate_sinkage(loam.plate_pressure(0.03, 0.2), 0.2) == pytest.approx(0.03, rel=1e-12)
    assert [s.name for s in vehicle.read_soil_table(vehicle.soil_table_file())] == names
    params = loam.parameters(wheel=True)
    assert params["phi_soil"] == loam.phi and params["c1"] == loam.c1
    with pytest.raises(ac.ModelError, match="no shipped soil named 'mud'"):
        vehicle.soil("mud")


def test_soft_soil_wheel_on_sandy_loam_at_slip_0_2():
    # The Tractor's rear wheel (0.8 m radius, 0.45 m wide) under half the static rear axle load, the hull at
    # 1 m/s and the hub at the speed of slip 0.2 (omega*r = v/(1 - 0.2)).
    radius, b, v, slip = 0.8, 0.45, 1.0, 0.2
    W = 0.5 * 4500 * 9.81 * 1.6 / 2.5  # 14.1 kN
    loam = vehicle.soil("sandy_loam")
    m = ac.Model("drawbar_rig")
    wheel = m.add(vehicle.SoftSoilWheel("wheel", radius=radius, b=b, J=40.0))  # dry sand by default
    vehicle.set_soil(wheel, "sandy_loam")
    vehicle.guess_sinkage(wheel, W)
    load = m.add(vehicle.AxleLoad("axle", W=W))
    hull = m.add(translational.Speed("hull"))
    hull_speed = m.add(blocks.Constant("hull_speed", k=v))
    hub = m.add(rotational.Speed("hub"))
    hub_speed = m.add(blocks.Constant("hub_speed", k=v / (radius * (1.0 - slip))))
    m.connect(wheel.contact, load.contact)
    m.connect(load.flange_traction, hull.flange)
    m.connect(hull_speed.y, hull.v_ref)
    m.connect(hub.flange, wheel.flange_rot)
    m.connect(hub_speed.y, hub.w_ref)
    sim = m.compile()
    for name in ("n", "k_c", "k_phi", "c", "K", "c1", "c2"):  # set_soil reached the compiled wheel
        assert sim.parameter(f"wheel.{name}") == pytest.approx(getattr(loam, name), rel=1e-12), name
    assert sim.parameter("wheel.phi_soil") == pytest.approx(loam.phi, rel=1e-12)
    r = sim.simulate(t_end=1.0, output_interval=0.1)
    last = {name: r[f"wheel.{name}"][-1] for name in
            ("slip", "DP", "W", "z", "theta_1", "theta_m", "theta_2", "omega", "v", "v_roll", "l_contact", "T_soil")}

    # The slip is 0.2 up to the regularisation of v_roll over v_eps = 0.01 m/s (about 2e-4 here).
    assert last["slip"] == pytest.approx(slip, abs=1e-3)
    assert last["slip"] == pytest.approx((last["omega"] * radius - last["v"]) / last["v_roll"], rel=1e-9)
    # Drawbar pull between 0 and the Coulomb limit A*c + W*tan(phi) of the contact (A = b * horizontal length).
    coulomb = b * last["l_contact"] * loam.c + W * math.tan(loam.phi)
    assert 0.0 < last["DP"] < coulomb
    # docs/terrain.md's table (a fine-quadrature replica of the equations) gives 2799 N at slip 0.2.
    assert last["DP"] == pytest.approx(2799.0, rel=0.05)
    # The wheel carries the load, and the sinkage is the entry angle's: z = r*(1 - cos(theta_1)).
    assert np.allclose(r["wheel.W"], W, rtol=1e-12)
    assert last["z"] == pytest.approx(radius * (1.0 - math.cos(last["theta_1"])), rel=1e-12)
    assert 0.0 < last["z"] < 0.25 * radius

    # Vertical equilibrium from the wheel's own variables: Wong-Reece's stresses at its theta_1, theta_m,
    # theta_2, omega and v, integrated by a rule finer than the wheel's 16 Gauss points, carry W to 0.1 %.
    eps = 0.01
    k_eq = loam.modulus(b)
    t1, tm, t2 = last["theta_1"], last["theta_m"], last["theta_2"]
    rim, speed = last["omega"] * radius, last["v"]
    a, c = math.hypot(rim, eps), math.hypot(speed, eps)
    v_roll = 0.5 * (a + c + math.hypot(a - c, eps))
    d = math.tanh(speed / eps)

    def sigma(theta):
        arg = np.where(theta >= tm, theta, t1 - (theta - t2) / (tm - t2) * (t1 - tm))
        return k_eq * np.maximum(radius * (np.cos(arg) - math.cos(t1)), 0.0) ** loam.n

    def tau(theta):
        j = radius * (rim * (t1 - theta) - speed * (math.sin(t1) - np.sin(theta))) / v_roll
        mobilised = np.where(j >= 0, -np.expm1(-j / loam.K), np.expm1(j / loam.K))
        return (loam.c + sigma(theta) * math.tan(loam.phi)) * mobilised

    nodes, weights = np.polynomial.legendre.leggauss(64)
    u = 0.5 * (1 + nodes)

    def fine(f, lo, hi):  # theta = lo + (hi - lo)*u^2*(3 - 2u) smooths the endpoint singularities
        theta = lo + (hi - lo) * u * u * (3 - 2 * u)
        return float(np.sum(0.5 * weights * f(theta) * (hi - lo) * 6 * u * (1 - u)))

    def vertical(theta):
        return sigma(theta) * np.cos(theta) + d * tau(theta) * np.sin(theta)

    carried = radius * b * (fine(vertical, tm, t1) + fine(vertical, t2, tm))
    assert abs(carried - W) < 1e-3 * W


def test_set_soil_and_initial_speed_on_the_tractor():
    sand = vehicle.soil("dry_sand")
    m = ac.Model("tractor_on_sand")
    tractor = m.add(vehicle.Tractor("tractor"))
    vehicle.set_soil(tractor, sand)
    vehicle.set_initial_speed(tractor, 1.0, slip_rear=0.1)
    for name, value in (("throttle", 0.5), ("brake_pedal", 0.0), ("clutch_pedal", 1.0), ("gear", 1.0)):
        k = m.add(blocks.Constant(f"{name}_input", k=value))
        m.connect(k.y, getattr(tractor, name))
    sim = m.compile()
    for wheel in ("wheel_fl", "wheel_fr", "wheel_rl", "wheel_rr"):
        assert sim.parameter(f"tractor.{wheel}.n") == pytest.approx(sand.n, rel=1e-12)
        assert sim.parameter(f"tractor.{wheel}.phi_soil") == pytest.approx(sand.phi, rel=1e-12)
    with pytest.raises(ac.ModelError, match="is not a vehicle.SoftSoilWheel, SoilTrack, SoilPlate or Tractor"):
        vehicle.set_soil(m.add(translational.Mass("mass")), "sandy_loam")
    with pytest.raises(ac.ModelError, match="is not a vehicle.SoftSoilWheel"):
        vehicle.guess_sinkage(tractor, 1000.0)


def test_a_bad_soil_table_names_the_file_and_the_line(tmp_path):
    path = tmp_path / "soils.csv"
    path.write_text("# my soils\n"
                    "name,n,k_c_kN,k_phi_kN,c_kPa,phi_deg,K_m\n"
                    "good_loam,0.7,5.27,1515.04,1.72,29,0.025\n"
                    "bad_loam,0.7,5.27,1515.04,1.72,95,0.025\n")
    with pytest.raises(ac.ModelError) as error:
        vehicle.read_soil_table(str(path))
    message = str(error.value)
    assert f"{path}:4:" in message
    assert "phi_deg" in message
    path.write_text("name,n,k_c_kN,k_phi_kN,c_kPa,phi_deg,K_m\ngood_loam,0.7,5.27,1515.04,1.72,29,0.025\n")
    assert [s.name for s in vehicle.read_soil_table(str(path))] == ["good_loam"]
    assert vehicle.read_soil(str(path), "good_loam").phi == pytest.approx(math.radians(29.0))


def _pull_at_slip(add_wheel, slip=0.2, v=1.0, radius=0.8, W=14126.4):
    """The drawbar rig above for the wheel add_wheel(model) adds: its pull and sinkage after 1 s at `slip`."""
    m = ac.Model("patch_rig")
    wheel = add_wheel(m)
    vehicle.guess_sinkage(wheel, W)
    load = m.add(vehicle.AxleLoad("axle", W=W))
    hull = m.add(translational.Speed("hull"))
    hub = m.add(rotational.Speed("hub"))
    m.connect(wheel.contact, load.contact)
    m.connect(load.flange_traction, hull.flange)
    m.connect(m.add(blocks.Constant("hull_speed", k=v)).y, hull.v_ref)
    m.connect(hub.flange, wheel.flange_rot)
    m.connect(m.add(blocks.Constant("hub_speed", k=v / (radius * (1.0 - slip)))).y, hub.w_ref)
    m.set_start("wheel.phi", 0.0)
    m.set_start("hull.s", 0.0)
    sim = m.compile()
    r = sim.simulate(t_end=1.0, output_interval=0.1)
    return sim, r["wheel.DP"][-1], r["wheel.z"][-1]


def test_soil_patch_wheel_from_python():
    # A wheel on dry sand whose sandy-loam patch began before the start (s_from = -50 m, far beyond the blend)
    # pulls and sinks exactly as a wheel on sandy loam.
    def on_loam(m):
        wheel = m.add(vehicle.SoftSoilWheel("wheel", radius=0.8, b=0.45, J=40.0))
        vehicle.set_soil(wheel, "sandy_loam")
        return wheel

    def patched(m):
        return vehicle.add_soil_patch_wheel(m, "wheel", [(-50.0, "sandy_loam"), (400.0, vehicle.soil("clayey_soil"))],
                                            radius=0.8, b=0.45, J=40.0)

    _, pull, sinkage = _pull_at_slip(on_loam)
    sim, patch_pull, patch_sinkage = _pull_at_slip(patched)
    assert patch_pull == pytest.approx(pull, rel=1e-6)
    assert patch_sinkage == pytest.approx(sinkage, rel=1e-6)
    # The patches became parameters of the wheel.
    assert sim.parameter("wheel.patch1_n") == pytest.approx(vehicle.soil("sandy_loam").n, rel=1e-12)
    assert sim.parameter("wheel.patch2_s_from") == 400.0
    with pytest.raises(ac.ModelError, match="soil patch 2 .* list the patches in order"):
        vehicle.add_soil_patch_wheel(ac.Model("bad"), "wheel", [(5.0, "dry_sand"), (1.0, "sandy_loam")])
