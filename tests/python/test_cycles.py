"""Drive cycles from Python: the shipped traces, and a tractive-energy check with an analytic answer."""
import numpy as np
import pytest

import acausal as ac
from acausal import translational, vehicle


def test_tractive_energy_of_a_body_following_the_wltc_exactly():
    # A 1250 kg body with only drag and rolling resistance moved at the cycle's speed: the wheels' positive
    # work is ∫ max((m·a + Crr·m·g + ½·ρ·Cd·A·v²)·v, 0) dt over the trace, linear between its 1 Hz points.
    m_body, Crr, Cd, A, rho, g = 1250.0, 0.012, 0.3, 2.2, 1.225, 9.81
    model = ac.Model("tractive")
    body = model.add(vehicle.VehicleBody("body", m=m_body, Crr=Crr, Cd=Cd, A=A, rho=rho, g=g))
    cycle = model.add(vehicle.DriveCycle("cycle"))
    duration = vehicle.set_cycle(cycle, "wltc3b")
    drive = model.add(translational.Speed("drive"))
    for axle, contact in (("front", body.contact_front), ("rear", body.contact_rear)):
        breakout = model.add(vehicle.WheelContactBreakout("breakout_" + axle))
        model.connect(contact, breakout.contact)
        model.connect(breakout.flange_normal, model.add(translational.Fixed("ground_" + axle)).flange)
        if axle == "front":
            model.connect(breakout.flange_traction, drive.flange)
    model.connect(cycle.v_ref, drive.v_ref)
    r = model.compile().simulate(t_end=duration, output_interval=0.02, rtol=1e-8, atol=1e-8)
    power = np.maximum(-r["drive.flange.f"] * r["body.v"], 0.0)
    simulated = np.trapz(power, r.time)

    data = np.loadtxt(vehicle.drive_cycle_file("wltc3b"), delimiter=",", skiprows=1)
    t = np.linspace(0, duration, int(duration) * 200 + 1)
    v = np.interp(t, data[:, 0], data[:, 1] / 3.6)
    a = np.diff(data[:, 1] / 3.6)[np.minimum(t.astype(int), len(data) - 2)]  # each 1 s segment's slope
    expected = np.trapz(np.maximum((m_body * a + Crr * m_body * g + 0.5 * rho * Cd * A * v**2) * v, 0.0), t)
    assert simulated == pytest.approx(expected, rel=1e-4)
    assert np.trapz(r["body.v"], r.time) == pytest.approx(23266.3, abs=0.06)  # SOURCE.md: 23.2663 km


def test_shipped_cycles_and_errors():
    assert vehicle.drive_cycle_names() == ["wltc3b", "nedc", "udds", "ftp75", "hwfet", "us06"]
    with pytest.raises(ac.ModelError, match="no drive cycle named 'wltp'"):
        vehicle.drive_cycle_file("wltp")
    model = ac.Model("m")
    with pytest.raises(ac.ModelError, match="is not a vehicle.DriveCycle"):
        vehicle.set_cycle(model.add(translational.Mass("mass")), "nedc")
    with pytest.raises(ValueError, match="not both"):
        vehicle.set_cycle(model.add(vehicle.DriveCycle("c")))


def test_cycle_report_from_python():
    from acausal import harness
    m = ac.Model("hwfet")
    test = harness.cycle_test(m, "hwfet")
    r = m.compile().simulate(t_end=test.duration, output_interval=0.1, rtol=1e-6, atol=1e-6, linear_solver="klu")
    report, split = harness.cycle_report(r, test, as_frame=True)
    assert report["within_band"]
    assert report["distance_km"] == pytest.approx(16.5065, rel=2e-3)
    assert 3.0 < report["fuel_l_per_100km"] < 9.0
    # Where the fuel went adds up to the fuel's energy.
    assert split["MJ"].sum() == pytest.approx(report["fuel_energy_MJ"], rel=1e-3)
    assert test.car.engine.fuel_mass is not None and "hwfet" in report["line"]


def test_electric_cycle_report_from_python():
    from acausal import harness
    m = ac.Model("nedc_ev")
    test = harness.cycle_test(m, "nedc", electric=True)
    r = m.compile().simulate(t_end=test.duration, output_interval=0.1, rtol=1e-6, atol=1e-6, linear_solver="klu")
    report, split = harness.cycle_report(r, test, as_frame=True)
    assert report["within_band"]
    assert report["distance_km"] == pytest.approx(10.93, rel=5e-3)
    # A compact EV without auxiliaries on the NEDC: below the WLTP figures of similar cars.
    assert 6.0 < report["consumption_kWh_per_100km"] < 14.0
    assert 0.1 < report["regen_share"] < 0.6
    # The pack's SOC fell, and where the cells' energy went adds up to it.
    soc = r["car.pack.SOC"]
    assert soc[-1] < soc[0]
    assert split["kWh"].sum() == pytest.approx(report["cells_energy_kWh"], rel=1e-4)
    assert "electric" in report["line"]


def test_automatic_car_from_python():
    # The AutomaticCar as a block (its parts by path) and on a cycle: the converter's lock-up closes from third
    # gear, and the HWFET run stays in the band with the fuel's energy accounted for.
    from acausal import blocks, harness
    m = ac.Model("launch")
    car = m.add(vehicle.AutomaticCar("car"))
    m.connect(m.add(blocks.Constant("throttle", k=1.0)).y, car.throttle)
    m.connect(m.add(blocks.Constant("brake", k=0.0)).y, car.brake_pedal)
    assert not hasattr(car, "clutch_pedal")
    r = m.compile().simulate(t_end=20.0, output_interval=0.1, rtol=1e-7)
    gear, lockup, w_rel = r["car.selector.gear"], r["car.lockup.lockup"], r["car.converter.w_rel"]
    assert np.array_equal(lockup, (gear >= 3).astype(float))
    assert gear[-1] >= 4 and abs(w_rel[-1]) < 1e-6
    assert r["car.body.v"][-1] > 100 / 3.6

    m = ac.Model("hwfet")
    test = harness.cycle_test(m, "hwfet", automatic=True)
    r = m.compile().simulate(t_end=test.duration, output_interval=0.1, rtol=1e-6, atol=1e-6, linear_solver="klu")
    report, split = harness.cycle_report(r, test, as_frame=True)
    assert report["within_band"]
    assert split["MJ"].sum() == pytest.approx(report["fuel_energy_MJ"], rel=1e-3)
    with pytest.raises(ValueError, match="automatic=True is for the mapped-engine car"):
        harness.cycle_test(ac.Model("x"), "hwfet", electric=True, automatic=True)
