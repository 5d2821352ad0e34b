"""The electrical domain from Python: circuits of library components against their closed forms."""
import numpy as np
import pytest

import acausal as ac
from acausal import electrical, rotational


def rc_circuit(V=10.0, R=1e3, C=1e-4, start_time=0.01):
    m = ac.Model("rc")
    source = m.add(electrical.StepVoltage("source", V=V, startTime=start_time))
    resistor = m.add(electrical.Resistor("resistor", R=R))
    capacitor = m.add(electrical.Capacitor("capacitor", C=C))
    ground = m.add(electrical.Ground("ground"))
    m.connect(source.p, resistor.p)
    m.connect(resistor.n, capacitor.p)
    m.connect(capacitor.n, source.n)
    m.connect(source.n, ground.p)
    m.set_start("capacitor.v", 0.0)
    return m


def test_rc_charging_follows_the_closed_form():
    V, R, C, t0 = 10.0, 1e3, 1e-4, 0.01
    r = rc_circuit(V, R, C, t0).compile().simulate(t_end=0.6, output_interval=1e-3, rtol=1e-10, atol=1e-12)
    t, v = r.time, r["capacitor.v"]
    expected = np.where(t < t0, 0.0, V * (1 - np.exp(-(t - t0) / (R * C))))
    # rtol 1e-10: within 1e-6 of V.
    assert np.max(np.abs(v - expected)) < 1e-6 * V
    assert list(r.event_times) == [t0]
    # Ohm's law in every row, to rounding.
    assert np.max(np.abs(r["resistor.v"] - R * r["resistor.i"])) < 1e-12 * V


def test_changing_r_needs_no_recompilation():
    V, C, t0 = 10.0, 1e-4, 0.01
    sim = rc_circuit(V=V, C=C, start_time=t0).compile()
    sim.set_parameter("resistor.R", 500.0)
    r = sim.simulate(t_end=0.3, output_interval=1e-3, rtol=1e-10, atol=1e-12)
    t = r.time
    expected = np.where(t < t0, 0.0, V * (1 - np.exp(-(t - t0) / (500.0 * C))))
    assert np.max(np.abs(r["capacitor.v"] - expected)) < 1e-6 * V


def test_dc_motor_reaches_its_no_load_speed():
    k, R, J, V = 0.5, 0.05, 0.1, 400.0
    m = ac.Model("motor")
    source = m.add(electrical.ConstantVoltage("source", V=V))
    resistor = m.add(electrical.Resistor("resistor", R=R))
    inductor = m.add(electrical.Inductor("inductor", L=1e-4))
    emf = m.add(electrical.EMF("emf", k=k))
    ground = m.add(electrical.Ground("ground"))
    inertia = m.add(rotational.Inertia("inertia", J=J))
    m.connect(source.p, resistor.p)
    m.connect(resistor.n, inductor.p)
    m.connect(inductor.n, emf.p)
    m.connect(emf.n, source.n)
    m.connect(source.n, ground.p)
    m.connect(emf.flange, inertia.flange_a)
    for name in ("inertia.phi", "inertia.w", "inductor.i"):
        m.set_start(name, 0.0)
    r = m.compile().simulate(t_end=1.0, output_interval=1e-3, rtol=1e-10, atol=1e-12)
    # 50 mechanical time constants J·R/k²: at V/k = 800 rad/s within 1e-6.
    assert r["inertia.w"][-1] == pytest.approx(V / k, rel=1e-6)
    assert abs(r["inductor.i"][-1]) < 1e-6


def test_a_heat_port_that_does_not_exist_cannot_be_connected():
    m = ac.Model("heaters")
    off = m.add(electrical.Resistor("resistor", R=2.0))
    on = m.add(electrical.Resistor("other", R=2.0, use_heat_port=1))
    m.connect(off.heat_port, on.heat_port)
    with pytest.raises(ac.ModelError, match=r"resistor\.heat_port.*use_heat_port"):
        m.compile()


def pack_on_current(current, soc0=0.9, points=None):
    """100 cells of 4 V in series, 100 Ah, 0.1 Ohm, on a constant current (> 0 discharges)."""
    m = ac.Model("pack")
    pack = m.add(electrical.CellStack("pack", Ns=100, Qnom=360000.0, OCVmax=4.0, OCVmin=2.5, Ri=1e-3, SOC0=soc0))
    if points is not None:
        electrical.set_ocv_table(pack, points)
    load = m.add(electrical.ConstantCurrent("load", I=current))
    ground = m.add(electrical.Ground("ground"))
    m.connect(load.p, pack.p)
    m.connect(load.n, pack.n)
    m.connect(pack.n, ground.p)
    return m


def test_a_battery_pack_counts_charge_and_reads_its_ocv_table():
    # OCV/OCVmax from 0.75 at SOC 0 to 1 at SOC 1: 350 V at SOC 0.5.
    r = pack_on_current(50.0, points=[(0.0, 0.75), (1.0, 1.0)]).compile().simulate(
        t_end=3600.0, output_interval=60.0, rtol=1e-9)
    soc = r["pack.SOC"]
    assert abs(soc[-1] - 0.4) < 1e-9
    ocv = 400.0 * (0.75 + 0.25 * soc)
    assert np.max(np.abs(r["pack.OCV"] - ocv)) < 1e-9 * 400.0
    assert np.max(np.abs(r["pack.v"] - (ocv - 5.0))) < 1e-9 * 400.0


def test_an_empty_pack_ends_the_run_naming_the_battery():
    # Empty at 0.9·360000/50 = 6480 s.
    with pytest.raises(ac.SimulationError, match="battery exhausted") as error:
        pack_on_current(50.0).compile().simulate(t_end=10000.0, output_interval=10.0, rtol=1e-9)
    assert "pack" in str(error.value)


def test_a_python_component_asserts_like_modelica():
    class Tank(ac.Component):
        def __init__(self, name):
            super().__init__(name)
            level = self.variable("level", start=1.0, fixed=True)
            self.equation(ac.der(level) == -1.0)
            self.assertion(level > 0.25, "the level must stay above 0.25")

    m = ac.Model("drain")
    m.add(Tank("tank"))
    with pytest.raises(ac.SimulationError, match="the level must stay above 0.25"):
        m.compile().simulate(t_end=2.0)
