"""Components written in Python compile to the same tape as C++ ones."""
import numpy as np

import acausal as ac
from acausal import blocks, rotational
from models import SmoothFrictionDamper


class PyDamper(ac.Component):
    """Linear rotational damper, written in Python like the C++ one."""

    def __init__(self, name, d=1.0):
        super().__init__(name)
        self.flange_a = self.connector(ac.rotational.Flange, "flange_a")
        self.flange_b = self.connector(ac.rotational.Flange, "flange_b")
        d = self.parameter("d", d, unit="N.m.s/rad", min=0)
        self.phi_rel = self.variable("phi_rel", unit="rad")
        self.tau = self.variable("tau", unit="N.m")
        self.w_rel = self.variable("w_rel", unit="rad/s")
        self.equation(self.phi_rel == self.flange_b.phi - self.flange_a.phi)
        self.equation(self.flange_b.tau == self.tau)
        self.equation(self.flange_a.tau == -self.tau)
        self.equation(self.w_rel == ac.der(self.flange_b.phi - self.flange_a.phi))
        self.equation(self.tau == d * self.w_rel)


def two_inertias(damper):
    m = ac.Model("pair")
    sine = m.add(blocks.Sine("sine", amplitude=5.0, f=0.7))
    torque = m.add(rotational.Torque("torque"))
    a = m.add(rotational.Inertia("a", J=1.0))
    b = m.add(rotational.Inertia("b", J=2.5))
    spring = m.add(rotational.Spring("spring", c=40.0))
    d = m.add(damper)
    m.connect(sine.y, torque.tau)
    m.connect(torque.flange, a.flange_a)
    m.connect(a.flange_b, spring.flange_a)
    m.connect(a.flange_b, d.flange_a)
    m.connect(spring.flange_b, b.flange_a)
    m.connect(d.flange_b, b.flange_a)
    for v in ("a.phi", "a.w", "b.phi", "b.w"):
        m.set_start(v, 0.0)
    return m


def test_python_damper_matches_the_cpp_damper():
    options = dict(t_end=5.0, output_interval=0.01, rtol=1e-10, atol=1e-12)
    cpp = two_inertias(rotational.Damper("damper", d=0.8)).compile().simulate(**options)
    py = two_inertias(PyDamper("damper", d=0.8)).compile().simulate(**options)
    for name in ("a.w", "b.w", "damper.tau", "damper.w_rel", "spring.phi_rel"):
        assert np.max(np.abs(cpp[name] - py[name])) < 1e-10, name


def test_smooth_friction_reaches_the_steady_speed():
    tau_drive, d, tau_c = 8.0, 0.5, 3.0
    m = ac.Model("friction")
    ground = m.add(rotational.Fixed("ground"))
    friction = m.add(SmoothFrictionDamper("friction", d=d, tau_c=tau_c, w_eps=0.01))
    shaft = m.add(rotational.Inertia("shaft", J=0.2))
    k = m.add(blocks.Constant("k", k=tau_drive))
    motor = m.add(rotational.Torque("motor"))
    m.connect(ground.flange, friction.flange_a)
    m.connect(friction.flange_b, shaft.flange_a)
    m.connect(k.y, motor.tau)
    m.connect(motor.flange, shaft.flange_b)
    m.set_start("shaft.phi", 0.0)
    m.set_start("shaft.w", 0.0)
    sim = m.compile()
    r = sim.simulate(t_end=10.0, output_interval=0.1)
    # Steady state: tau_drive = d w + tau_c (tanh = 1 well above w_eps).
    assert abs(r["shaft.w"][-1] - (tau_drive - tau_c) / d) < 1e-4
    assert abs(r["friction.tau"][-1] - tau_drive) < 1e-4


class Decay(ac.Component):
    """x' = -x/tau, starting at x0 through a one-argument initial equation (as README shows it)."""

    def __init__(self, name, tau=0.5, x0=2.0):
        super().__init__(name)
        tau = self.parameter("tau", tau, unit="s", min=1e-9)
        self.x = self.variable("x")
        self.equation(ac.der(self.x) == -self.x / tau)
        self.initial_equation(self.x == x0)


def test_initial_equation_takes_one_argument_as_documented():
    # The binding had lost the default of `active`: the documented call raised TypeError.
    m = ac.Model("decay")
    m.add(Decay("d"))
    r = m.compile().simulate(t_end=1.0, output_interval=0.1)
    x = r["d.x"]
    assert x[0] == 2.0
    np.testing.assert_allclose(x, 2.0 * np.exp(-r.time / 0.5), rtol=1e-5)
