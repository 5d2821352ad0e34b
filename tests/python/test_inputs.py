"""Inputs driven from outside by tables and functions of time (ac.drive)."""
import numpy as np
import pytest

import acausal as ac
from acausal import translational


def pushed_mass():
    m = ac.Model("push")
    force_input = m.input("F", unit="N")
    force = m.add(translational.Force("force"))
    mass = m.add(translational.Mass("mass", m=2.0))
    m.connect(force_input, force.f)
    m.connect(force.flange, mass.flange_a)
    m.set_start("mass.s", 0.0)
    m.set_start("mass.v", 0.0)
    return m.compile()


def test_a_table_holds_each_value_until_the_next_sample():
    sim = pushed_mass()
    r = ac.drive(sim, {"F": ([0.0, 1.0, 2.0], [0.0, 10.0, 0.0])}, t_end=3.0, output_interval=0.5, rtol=1e-10,
                 atol=1e-12)
    assert r.event_times == [1.0, 2.0]  # a change is an event; the value at t_start is the start's
    v = dict(zip(r.time, r["mass.v"]))  # at an event instant, its right limit
    # 10 N on 2 kg from 1 s to 2 s: v = 5 (t - 1), then constant
    assert v[0.5] == pytest.approx(0.0, abs=1e-12)
    assert v[1.5] == pytest.approx(2.5, rel=1e-9)
    assert v[3.0] == pytest.approx(5.0, rel=1e-9)
    assert sim.parameter("F") == 0.0  # the simulator keeps its own value


def test_a_function_is_sampled_and_held():
    sim = pushed_mass()
    sim.set_parameter("F", 7.0)
    r = ac.drive(sim, {"F": lambda t: 4.0 * t}, t_end=1.0, hold=0.1, rtol=1e-10, atol=1e-12)
    # F = 0.4 k on [0.1 k, 0.1 (k + 1)): v(1) = sum 0.4 k · 0.1 / 2
    assert r["mass.v"][-1] == pytest.approx(sum(0.4 * k * 0.1 for k in range(10)) / 2.0, rel=1e-9)
    assert len(r.event_times) == 9
    assert sim.parameter("F") == 7.0


def test_drive_names_what_it_cannot_drive():
    sim = pushed_mass()
    with pytest.raises(ac.UnknownNameError, match="'F'"):
        ac.drive(sim, {"G": ([0.0], [1.0])}, t_end=1.0)
    with pytest.raises(ValueError, match="increase"):
        ac.drive(sim, {"F": ([0.0, 0.0], [1.0, 2.0])}, t_end=1.0)
    with pytest.raises(ValueError, match="t_end"):
        ac.drive(sim, {"F": ([0.0], [1.0])})


def test_drive_refuses_a_sample_that_is_not_finite_naming_the_input_and_the_time():
    # A defect: a NaN time fell out of the schedule unnoticed (the run went on without that change), and a
    # NaN value was refused only as "parameter F = nan", without the time of the sample.
    sim = pushed_mass()
    with pytest.raises(ValueError, match=r"input F has the sample 1.0 at t = nan \(sample 1\)"):
        ac.drive(sim, {"F": ([0.0, float("nan")], [0.0, 1.0])}, t_end=3.0)
    with pytest.raises(ValueError, match=r"input F has the sample nan at t = 1.0 \(sample 1\)"):
        ac.drive(sim, {"F": ([0.0, 1.0, 2.0], [0.0, float("nan"), 0.0])}, t_end=3.0)
    with pytest.raises(ValueError, match=r"input F has the sample inf at t = 2.0"):
        ac.drive(sim, {"F": ([0.0, 1.0, 2.0], [0.0, 1.0, float("inf")])}, t_end=3.0)
    with pytest.raises(ValueError, match=r"input F has the sample nan at t = 0.75"):
        ac.drive(sim, {"F": lambda t: float("nan") if t > 0.5 else 1.0}, t_end=1.0, hold=0.25)
    with pytest.raises(ValueError, match="hold = nan"):
        ac.drive(sim, {"F": lambda t: 1.0}, t_end=1.0, hold=float("nan"))
    with pytest.raises(ValueError, match="t_end = nan"):
        ac.drive(sim, {"F": lambda t: 1.0}, t_end=float("nan"))
    assert sim.parameter("F") == 0.0
