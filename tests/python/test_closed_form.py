"""The C++ closed-form tests, reproduced from Python."""
import math

import numpy as np

import acausal as ac
from acausal import blocks, rotational

from models import oscillator, rolling_wheel


def test_oscillator_matches_closed_form():
    m, c, d, F = 2.0, 50.0, 3.0, 10.0
    r = oscillator(m, c, d, F).compile().simulate(t_end=10.0, output_interval=0.01, rtol=1e-9, atol=1e-11)
    t = r.time
    wn, zeta = math.sqrt(c / m), d / (2 * math.sqrt(c * m))
    root = math.sqrt(1 - zeta**2)
    e = np.exp(-zeta * wn * t)
    s_exact = F / c * (1 - e * (np.cos(wn * root * t) + zeta / root * np.sin(wn * root * t)))
    assert isinstance(r["mass.s"], np.ndarray)
    assert np.max(np.abs(r["mass.s"] - s_exact)) / np.max(np.abs(s_exact)) < 1e-5


def test_rolling_wheel_with_drag_is_5_tanh():
    r = rolling_wheel().compile().simulate(t_end=5.0, output_interval=1e-3, rtol=1e-9, atol=1e-11)
    t, v = r.time, r["mass.v"]
    after = t > 0.1
    assert np.all(v[t < 0.1] == 0.0)
    assert np.max(np.abs(v[after] - 5 * np.tanh(t[after] - 0.1))) < 1e-5
    assert list(r.event_times) == [0.1]


def test_gear_acceleration():
    J1, J2, ratio, tau = 0.5, 3.0, 4.0, 2.0
    m = ac.Model("gear")
    k = m.add(blocks.Constant("k", k=tau))
    motor = m.add(rotational.Torque("motor"))
    a = m.add(rotational.Inertia("a", J=J1))
    gear = m.add(rotational.IdealGear("gear", ratio=ratio))
    b = m.add(rotational.Inertia("b", J=J2))
    m.connect(k.y, motor.tau)
    m.connect(motor.flange, a.flange_a)
    m.connect(a.flange_b, gear.flange_a)
    m.connect(gear.flange_b, b.flange_a)
    m.set_start("a.phi", 0.0)
    m.set_start("a.w", 0.0)
    r = m.compile().simulate(t_end=1.0, rtol=1e-10, atol=1e-12)
    expected = tau * ratio / (J1 * ratio**2 + J2)
    assert np.max(np.abs(r["b.a"] - expected)) / expected < 1e-8
    assert np.max(np.abs(r["a.phi"] - ratio * r["b.phi"])) < 1e-10
