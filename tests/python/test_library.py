"""Library blocks with memory (delays, actuators) and parameter requirements from Python."""
import numpy as np
import pytest

import acausal as ac
from acausal import blocks, vehicle


class PyDelay(ac.Component):
    """y = delay(u, T), written in Python with ac.delay."""

    def __init__(self, name, T=0.3):
        super().__init__(name)
        self.u = self.connector(ac.RealInput, "u")
        self.y = self.connector(ac.RealOutput, "y")
        T = self.parameter("T", T, unit="s", min=0)
        self.require(T < 10.0, "T must stay below 10 s")
        self.equation(self.y.value == ac.delay(self.u.value, T))


def delayed_sine(delay):
    m = ac.Model("delayed_sine")
    sine = m.add(blocks.Sine("sine", amplitude=1.0, f=2.0))
    lag = m.add(blocks.FirstOrder("lag", T=0.1))
    d = m.add(delay)
    m.connect(sine.y, lag.u)
    m.connect(lag.y, d.u)
    return m


def test_python_delay_matches_the_library_fixed_delay():
    a = delayed_sine(blocks.FixedDelay("d", delayTime=0.3)).compile().simulate(t_end=2.0, output_interval=0.01)
    b = delayed_sine(PyDelay("d", T=0.3)).compile().simulate(t_end=2.0, output_interval=0.01)
    np.testing.assert_allclose(a["d.y"], b["d.y"], atol=1e-10)
    # The delayed signal is the lag's output 0.3 s (30 rows) earlier, to interpolation accuracy.
    np.testing.assert_allclose(a["d.y"][30:], a["lag.y"][:-30], atol=1e-4)


def test_a_violated_requirement_names_the_values():
    sim = delayed_sine(PyDelay("d", T=0.3)).compile()
    sim.set_parameter("d.T", 12.0)
    with pytest.raises(ac.ModelError, match=r"T must stay below 10 s \(d\.T = 12\)"):
        sim.simulate(t_end=1.0)


def test_velocity_actuator_from_python():
    m = ac.Model("drive")
    cmd = m.add(blocks.Step("cmd", height=1.0, startTime=0.05))
    act = m.add(blocks.VelocityActuator("act", dead_time=0.2, time_constant=0.1,
                                        max_velocity=5.0, max_acceleration=100.0))
    m.connect(cmd.y, act.u)
    r = m.compile().simulate(t_end=1.0, output_interval=0.01)
    t, y = r.time, r["act.y"]
    assert np.all(np.abs(y[t < 0.25 - 1e-9]) < 1e-12)  # the command arrives after the dead time
    late = t > 0.25
    np.testing.assert_allclose(y[late], 1.0 - np.exp(-(t[late] - 0.25) / 0.1), atol=2e-3)


def test_block_init_type_by_name():
    """FirstOrder(initType="SteadyState") starts at its equilibrium k*u; a wrong name is refused."""
    m = ac.Model("lag")
    source = m.add(blocks.Constant("source", k=2.0))
    lag = m.add(blocks.FirstOrder("lag", k=1.5, T=0.2, y_start=0.5, initType="SteadyState"))
    m.connect(source.y, lag.u)
    r = m.compile().simulate(t_end=0.5, output_interval=0.1)
    assert np.allclose(r["lag.y"], 3.0, atol=1e-9)
    with pytest.raises(ValueError, match="initType='Steady' is not one of its choices: NoInit, SteadyState"):
        blocks.FirstOrder("lag", initType="Steady")


def test_tire_law_by_name_is_structural():
    """Wheel(tire_law="pacejka") compiles only the magic formula; changing it after compile() is refused."""
    def launch(law):
        m = ac.Model("rig")
        torque = m.add(ac.rotational.ConstantTorque("torque", tau_constant=300.0))
        wheel = m.add(vehicle.Wheel("wheel", tire_law=law))
        body = m.add(vehicle.VehicleBody("body"))
        front = m.add(vehicle.Wheel("front", tire_law=law))
        m.connect(torque.flange, wheel.flange_rot)
        m.connect(wheel.contact, body.contact_rear)
        m.connect(front.contact, body.contact_front)
        for name in ("body.s", "body.v", "wheel.omega", "front.omega"):
            m.set_start(name, 0.0)
        return m.compile()

    def state_events(sim):
        return next(p for p in sim.report["passes"] if p["pass"] == "events")["counts"]["state_events"]

    linear, pacejka = launch("linear"), launch("pacejka")
    assert state_events(linear) == 4  # min and max of two wheels
    assert state_events(pacejka) == 0
    r = pacejka.simulate(t_end=1.0, output_interval=0.1)
    assert r["body.v"][-1] > 0.1
    with pytest.raises(ac.ModelError, match="before compile"):
        pacejka.set_parameter("wheel.tire_law", 0)
    with pytest.raises(ValueError, match="tanh, linear, pacejka"):
        vehicle.Wheel("w", tire_law="magic")
