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


# --- Python components in help(), .parameters and dir() as library components are (issue 36, item 3) ---


class DescribedSpring(ac.Component):
    """A rotational spring whose parameter says what it is."""

    def __init__(self, name, c=100.0):
        super().__init__(name)
        self.flange_a = self.connector(ac.rotational.Flange, "flange_a")
        self.flange_b = self.connector(ac.rotational.Flange, "flange_b")
        c = self.parameter("c", c, unit="N.m/rad", min=0, description="torsional stiffness")
        self.phi_rel = self.variable("phi_rel", unit="rad", description="twist, b against a")
        self.equation(self.phi_rel == self.flange_b.phi - self.flange_a.phi)
        self.equation(self.flange_b.tau == -c * self.phi_rel)
        self.equation(self.flange_a.tau == c * self.phi_rel)


class NeedsStiffness(ac.Component):
    """A spring with no default stiffness."""

    def __init__(self, name, c):
        super().__init__(name)
        self.parameter("c", c, unit="N.m/rad")


def test_parameter_takes_a_description():
    spring = DescribedSpring("spring", c=40.0)
    assert spring.c.description == "torsional stiffness"
    assert spring.phi_rel.description == "twist, b against a"
    row = spring.parameters.loc["c"]
    assert row["description"] == "torsional stiffness"
    assert abs(row["value"] - 40.0) < 1e-12
    assert row["unit"] == "N.m/rad" and row["min"] == 0.0 and row["max"] == np.inf and not row["structural"]


def test_parameters_frame_has_the_columns_of_a_library_components():
    assert list(DescribedSpring("spring").parameters.columns) == list(rotational.Spring.parameters.columns)


def test_help_of_an_instance_lists_what_its_constructor_declared():
    import pydoc

    text = pydoc.render_doc(DescribedSpring("spring", c=40.0), renderer=pydoc.plaintext)
    # The instance's value (40), not the constructor's default: help() reads the built component.
    assert "c [N.m/rad] = 40  (>= 0) -- torsional stiffness" in text
    assert "flange_a: rotational.Flange: phi (potential, rad), tau (flow, N.m)" in text
    assert "phi_rel [rad]" in text
    assert "phi_rel = flange_b.phi - flange_a.phi" in text and "flange_a.tau = c * phi_rel" in text
    assert "A rotational spring whose parameter says what it is." in text


def test_help_of_a_class_shows_one_built_with_its_defaults():
    import inspect

    text = inspect.getdoc(DescribedSpring)
    assert text.startswith("DescribedSpring(name, c=100.0)")
    assert "c [N.m/rad] = 100  (>= 0) -- torsional stiffness" in text
    assert "Equations:" in text
    assert abs(DescribedSpring.parameters.loc["c", "value"] - 100.0) < 1e-12

    class Stiffer(DescribedSpring):
        pass

    assert "A rotational spring whose parameter says what it is." in inspect.getdoc(Stiffer)


def test_help_of_a_class_whose_constructor_needs_arguments_says_where_to_look():
    import inspect

    import pytest

    text = inspect.getdoc(NeedsStiffness)
    assert text.startswith("NeedsStiffness(name, c)")
    assert "A spring with no default stiffness." in text and "help(instance)" in text
    with pytest.raises(TypeError, match=r"NeedsStiffness\(\.\.\.\)\.parameters"):
        NeedsStiffness.parameters
    assert abs(NeedsStiffness("spring", 3.0).parameters.loc["c", "value"] - 3.0) < 1e-12


def test_dir_lists_each_name_once():
    spring = DescribedSpring("spring")
    names = dir(spring)
    assert len(names) == len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)
    assert {"c", "phi_rel", "flange_a", "flange_b", "parameter", "equation"} <= set(names)
    m = ac.Model("m")
    m.add(spring)
    inertia = m.add(rotational.Inertia("inertia"))
    names = dir(m)
    assert len(names) == len(set(names)) and {"spring", "inertia"} <= set(names)
    assert len(dir(inertia)) == len(set(dir(inertia)))


def _own_text(name, doc):
    """A docstring without the signature lines pybind11 writes (`name(self: ..., ...) -> ...`)."""
    import re

    return "\n".join(line for line in (doc or "").splitlines()
                     if not re.match(rf"\s*(\d+\. )?{name}\(.*\)( -> .*)?$", line)).strip()


def test_every_public_method_of_component_and_model_has_a_docstring():
    import inspect

    undocumented = []
    for cls in (ac.Component, ac.Model):
        for name in dir(cls):
            if name.startswith("_"):
                continue
            member = inspect.getattr_static(cls, name)
            if not (callable(member) or isinstance(member, property)):
                continue
            if not _own_text(name, getattr(member, "__doc__", None)):
                undocumented.append(f"{cls.__name__}.{name}")
    assert not undocumented, undocumented
    assert "connector" in inspect.getdoc(ac.Component.connector)


class Flywheel(ac.Component):
    """An inertia on a described spring: a Python assembly of a library part and a Python part."""

    def __init__(self, name, J=0.5):
        super().__init__(name)
        self.mass = self.add(rotational.Inertia("mass", J=J))
        self.spring = self.add(DescribedSpring("spring", c=25.0))
        self.connect(self.spring.flange_b, self.mass.flange_a)


def test_a_python_assembly_lists_its_parts_and_their_parameters():
    import inspect

    wheel = Flywheel("flywheel", J=0.25)
    table = wheel.parameters
    assert abs(table.loc["mass.J", "value"] - 0.25) < 1e-12 and table.loc["mass.J", "unit"] == "kg.m2"
    assert abs(table.loc["spring.c", "value"] - 25.0) < 1e-12
    assert table.loc["spring.c", "description"] == "torsional stiffness"
    text = inspect.getdoc(wheel)
    assert "Parts:" in text and "spring: DescribedSpring" in text
    assert abs(Flywheel.parameters.loc["mass.J", "value"] - 0.5) < 1e-12
    assert len(dir(wheel)) == len(set(dir(wheel))) and {"mass", "spring"} <= set(dir(wheel))
