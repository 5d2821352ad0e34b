"""Warnings for silent mistakes (issue 36, item 6): compile() issues each warning of the compile report
as an acausal.ModelWarning, and sim.report["warnings"] holds them."""
import warnings

import pytest

import acausal as ac
from acausal import blocks, rotational, translational, vehicle


def spinning(set_w):
    m = ac.Model("spin")
    inertia = m.add(rotational.Inertia("inertia"))
    drive = m.add(rotational.ConstantTorque("drive"))
    m.connect(drive.flange, inertia.flange_a)
    m.set_start("inertia.phi", 0.0)
    if set_w:
        m.set_start("inertia.w", 0.0, fixed=False)
    return m


def test_model_warning_is_a_user_warning():
    assert issubclass(ac.ModelWarning, UserWarning)


def test_a_state_without_a_start_value_warns_naming_it():
    with pytest.warns(ac.ModelWarning, match=r"state inertia\.w starts at 0 rad/s, a default start value nobody set"):
        sim = spinning(set_w=False).compile()
    [w] = sim.report["warnings"]
    assert (w["kind"], w["component"], w["variable"]) == ("default_start", "inertia", "inertia.w")


def test_a_model_with_every_start_set_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ac.ModelWarning)
        sim = spinning(set_w=True).compile()
    assert sim.report["warnings"] == []


def unit_mistake():
    m = ac.Model("units")
    inertia = m.add(rotational.Inertia("inertia"))
    drive = m.add(rotational.Torque("drive"))
    mass = m.add(translational.Mass("mass"))
    m.connect(drive.flange, inertia.flange_a)
    m.equation(drive.tau == mass.flange_a.f)  # a torque set from a force
    m.set_start("inertia.phi", 0.0)
    m.set_start("inertia.w", 0.0)
    m.set_start("mass.s", 0.0)
    m.set_start("mass.v", 0.0)
    return m


def test_a_unit_inconsistency_warns_with_its_equation_and_is_an_error_on_request():
    with pytest.warns(ac.ModelWarning, match=r"mass\.flange_a\.f = drive\.tau.*N\.m"):
        sim = unit_mistake().compile()
    assert [w["kind"] for w in sim.report["warnings"]] == ["unit"]
    assert sim.report["unit_errors"]
    with pytest.raises(ac.ModelError, match=r"1 unit inconsistency.*\n.*drive\.tau"):
        unit_mistake().compile(units="error")
    with pytest.raises(ValueError, match="'warn' or 'error'"):
        unit_mistake().compile(units="strict")


def test_a_wheel_without_load_warns_naming_the_wheel():
    m = ac.Model("quarter")
    wheel = m.add(vehicle.Wheel("wheel"))
    breakout = m.add(vehicle.WheelContactBreakout("breakout"))
    carrier = m.add(translational.Mass("carrier", m=400))
    m.connect(wheel.contact, breakout.contact)
    m.connect(breakout.flange_traction, carrier.flange_a)  # the normal axis left unconnected: N = 0
    for name, value in (("carrier.s", 0.0), ("carrier.v", 20.0), ("wheel.phi", 0.0), ("wheel.omega", 20 / 0.3)):
        m.set_start(name, value)
    with pytest.warns(ac.ModelWarning, match=r"quarter: wheel \(vehicle::Wheel\): no vertical load"):
        sim = m.compile()
    assert [(w["kind"], w["component"], w["variable"]) for w in sim.report["warnings"]] == [
        ("no_load", "wheel", "wheel.N")]


def test_warnings_can_be_silenced_and_the_library_car_gives_none():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ac.ModelWarning)
        spinning(set_w=False).compile()  # silenced: no warning escapes
    m = ac.Model("road")
    car = m.add(vehicle.RearDriveCar("car"))
    for name in ("throttle", "brake_pedal", "clutch_pedal"):
        m.connect(m.add(blocks.Constant(name.removesuffix("_pedal"), k=0.0)).y, getattr(car, name))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ac.ModelWarning)
        sim = m.compile()
    assert sim.report["warnings"] == []
