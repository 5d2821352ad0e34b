"""The thermal domain from Python: two bodies equalizing through a wall, a brake that heats its disc."""
import numpy as np
import pytest

import acausal as ac
from acausal import blocks, rotational, thermal

C1, C2, G = 200.0, 600.0, 10.0
T1, T2 = thermal.from_degC(100.0), thermal.from_degC(20.0)


def _two_bodies():
    m = ac.Model("two_bodies")
    hot = m.add(thermal.HeatCapacitor("hot", C=C1))
    cold = m.add(thermal.HeatCapacitor("cold", C=C2))
    wall = m.add(thermal.ThermalConductor("wall", G=G))
    m.connect(hot.port, wall.port_a)
    m.connect(wall.port_b, cold.port)
    m.set_start("hot.T", T1)
    m.set_start("cold.T", T2)
    return m


def test_two_heat_capacitors_equalize_through_a_conductor_to_the_mixed_temperature():
    tau = C1 * C2 / (G * (C1 + C2))  # 15 s
    T_final = (C1 * T1 + C2 * T2) / (C1 + C2)  # 40 °C
    r = _two_bodies().compile().simulate(t_end=30 * tau, output_interval=1.0, rtol=1e-10, atol=1e-12)
    scale = T1 - T2  # 80 K: the tolerances are 1e-6 of it, 1e-9 for the algebraic heat flow
    for name, T0 in (("hot.T", T1), ("cold.T", T2)):
        expected = T_final + (T0 - T_final) * np.exp(-r.time / tau)
        assert np.max(np.abs(r[name] - expected)) < 1e-6 * scale
    assert abs(thermal.to_degC(r["cold.T"][-1]) - 40.0) < 1e-6 * scale
    assert np.max(np.abs(r["wall.Q_flow"] - G * (r["hot.T"] - r["cold.T"]))) < 1e-9 * G * scale
    # Heat is conserved: C1·T1 + C2·T2 stays put, within 1e-6 of the heat exchanged.
    drift = np.abs(C1 * r["hot.T"] + C2 * r["cold.T"] - (C1 * T1 + C2 * T2))
    assert np.max(drift) < 1e-6 * C1 * (T1 - T_final)


def test_degC_helpers():
    assert thermal.from_degC(0.0) == 273.15
    assert abs(thermal.to_degC(thermal.from_degC(37.5)) - 37.5) < 1e-12


def _brake_stop(use_heat_port):
    m = ac.Model("brake_stop")
    flywheel = m.add(rotational.Inertia("flywheel", J=2.0))
    brake = m.add(rotational.Brake("brake", fn_max=400.0, use_heat_port=use_heat_port))
    disc = m.add(thermal.HeatCapacitor("disc", C=500.0))
    m.connect(flywheel.flange_b, brake.flange_a)
    m.connect(m.add(blocks.Constant("pedal", k=1.0)).y, brake.f_normalized)
    m.connect(brake.heat_port, disc.port)
    m.set_start("flywheel.phi", 0.0)
    m.set_start("flywheel.w", 100.0)
    m.set_start("disc.T", T2)
    return m


def test_a_brake_with_its_heat_port_heats_the_disc_by_the_kinetic_energy():
    r = _brake_stop(1.0).compile().simulate(t_end=2.0, output_interval=0.03, rtol=1e-10, atol=1e-12)
    rise = 0.5 * 2.0 * 100.0 ** 2 / 500.0  # ½·J·w0²/C = 20 K, within 1e-6 relative
    assert abs(r["disc.T"][-1] - T2 - rise) < 1e-6 * rise
    assert np.max(np.abs(r["brake.heat_port.Q_flow"] + r["brake.lossPower"])) < 1e-9 * 200.0 * 100.0


def test_a_heat_port_connected_while_use_heat_port_is_0_is_refused():
    with pytest.raises(ac.ModelError, match=r"brake\.heat_port.*use_heat_port = 1"):
        _brake_stop(0.0).compile()
