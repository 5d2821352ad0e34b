"""What Python shows of components, symbols and parameters, without opening docs/components.md."""
import inspect
import math
import pydoc
import re

import pytest

import acausal as ac
from acausal import blocks, rotational, translational, vehicle

from models import SmoothFrictionDamper, oscillator


def test_help_of_a_library_component_lists_every_parameter_with_unit_and_default():
    text = pydoc.render_doc(vehicle.Wheel, renderer=pydoc.plaintext)
    info = ac._acausal._library_info("vehicle.Wheel")
    assert len(info["parameters"]) > 20
    for p in info["parameters"]:
        default = repr(p["choices"][int(p["value"])]) if p["choices"] else f"{p['value']:g}"
        unit = f" [{p['unit']}]" if p["unit"] else ""
        assert f"{p['name']}{unit} = {default}" in text, p["name"]
    assert "slip-based tire law" in text  # the header's documentation paragraph
    assert "contact: vehicle.WheelContact" in text and "flange_rot: rotational.Flange" in text
    assert "structural" in text and "one of tanh, linear, pacejka, pac2002" in text


def test_every_library_component_has_its_documentation_paragraph():
    from acausal._component_docs import DOCS

    for key in ac._acausal._library:
        assert len(DOCS.get(key, "")) > 10, key
        domain, name = key.split(".")
        assert DOCS[key][:30] in getattr(getattr(ac, domain), name).__doc__.replace("\n", " ")


def test_signature_and_parameter_table_of_a_class():
    signature = inspect.signature(rotational.Inertia)
    assert list(signature.parameters) == ["name", "J"] and signature.parameters["J"].default == 1.0
    assert inspect.signature(vehicle.RearDriveCar).parameters["abs"].default is False
    table = translational.Mass.parameters
    assert table.loc["m", "unit"] == "kg" and table.loc["m", "min"] == 0.0 and table.loc["m", "value"] == 1.0
    assert vehicle.Wheel.parameters.loc["tire_law", "structural"]
    assert translational.Mass.connectors == {"flange_a": "translational.Flange", "flange_b": "translational.Flange"}


def test_unknown_keyword_suggests_the_closest_parameter():
    with pytest.raises(ValueError, match=r"unknown parameter 'mu_'; did you mean 'mu'"):
        vehicle.Wheel("w", mu_=0.5)


def test_dir_lists_connectors_variables_and_parameters():
    m = ac.Model("m")
    inertia = m.add(rotational.Inertia("inertia", J=2.0))
    names = dir(inertia)
    for name in ("flange_a", "flange_b", "J", "w", "phi", "a"):
        assert name in names
    assert "flange_a" in dir(rotational.Inertia("spec"))  # before it is added, too
    assert {"phi", "tau"} <= set(dir(inertia.flange_a))
    car = m.add(vehicle.RearDriveCar("car"))
    assert {"body", "wheel_rl", "engine"} <= set(dir(car))


def test_symbols_know_name_unit_and_value():
    m = ac.Model("m")
    inertia = m.add(rotational.Inertia("inertia", J=2.0))
    assert (inertia.J.name, inertia.J.unit, inertia.J.value, inertia.J.kind) == ("inertia.J", "kg.m2", 2.0, "parameter")
    assert inertia.J.min == 0.0 and inertia.J.max is None
    assert (inertia.w.name, inertia.w.unit, inertia.w.start, inertia.w.value) == ("inertia.w", "rad/s", 0.0, None)
    assert (inertia.flange_a.tau.unit, inertia.flange_a.tau.kind) == ("N.m", "flow")
    assert repr(inertia.J) == "<parameter inertia.J [kg.m2] = 2>"
    m.set_start("inertia.w", 3.0)
    assert inertia.w.start == 3.0 and inertia.w.fixed
    source = m.add(blocks.Constant("source", k=1.5))
    assert source.y.value.kind == "output"
    with pytest.raises(AttributeError, match="only a declared parameter or variable"):
        (inertia.w * 2).unit
    # A symbol on the right of == keeps the equation's orientation (a discrete's definition reads x == expr).
    assert str((2 * inertia.w == inertia.J).rhs) == "J"


def test_python_components_are_described_from_their_declarations():
    damper = SmoothFrictionDamper("friction", d=0.5)
    table = damper.parameters
    assert list(table.index) == ["d", "tau_c", "w_eps"]
    assert table.loc["d", "unit"] == "N.m.s/rad" and table.loc["d", "value"] == 0.5
    assert damper.tau.unit == "N.m" and damper.tau.name == "friction.tau"
    assert {"flange_a", "flange_b", "w_rel", "tau", "d"} <= set(dir(damper))


def test_simulator_and_result_parameter_tables():
    sim = oscillator().compile()
    sim.set_parameter("mass.m", 3.0)
    table = sim.parameters
    assert table.loc["mass.m", "value"] == 3.0 and table.loc["spring.c", "unit"] == "N/m"
    assert set(table.index) == set(sim.parameter_names)
    r = sim.simulate(t_end=0.1)
    sim.set_parameter("mass.m", 4.0)
    assert r.parameters.loc["mass.m", "value"] == 3.0  # what this run used


def test_notebook_views_are_html_tables():
    model = oscillator()
    sim = model.compile()
    r = sim.simulate(t_end=0.5)
    for view, words in ((model._repr_html_(), ["spring", "translational::Spring"]),
                        (sim._repr_html_(), ["states", "mass.s"]), (r._repr_html_(), ["rows", "51"])):
        assert view.startswith("<table>") and all(w in view for w in words), view
