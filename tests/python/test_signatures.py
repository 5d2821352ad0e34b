"""Issue 30, item 3: the Python API takes the calls the docs show.

Two halves:
* every public callable that docs/python.md, docs/analysis.md, docs/harness.md and
  README.md show is called here the way they show it (the minimal documented
  arguments, defaults left out), on small models, with one property of the result
  checked;
* every pybind11 binding reachable from the package names its arguments: a
  signature showing `arg0`, `arg1`, ... (a binding without py::arg) fails, so a
  binding cannot lose its names, or the defaults that need them, unnoticed again
  (Component.initial_equation once lost the default of `active`).
"""
import inspect
import math
import re

import numpy as np
import pytest

import acausal as ac
from acausal import _acausal, blocks, harness as h, planar, rotational, translational, vehicle
from models import pushed_mass as shared_pushed_mass


# --- small models -----------------------------------------------------------------------------------------------


def pushed_mass(v0=3.0):
    """The docs' pushed mass, with its speed as the model's output."""
    return shared_pushed_mass(v0, speed_output=True)


def two_inertias():
    """docs/analysis.md: two inertias on a spring-damper, input tau, output w2."""
    m = ac.Model("two_inertias")
    tau = m.input("tau", unit="N.m")
    source = m.add(rotational.Torque("source"))
    i1 = m.add(rotational.Inertia("i1", J=2.0))
    coupling = m.add(rotational.SpringDamper("coupling", c=400.0, d=3.0))
    i2 = m.add(rotational.Inertia("i2", J=0.5))
    m.connect(tau, source.tau)
    m.connect(source.flange, i1.flange_a)
    m.connect(i1.flange_b, coupling.flange_a)
    m.connect(coupling.flange_b, i2.flange_a)
    m.output("w2", i2.w, unit="rad/s")
    for name in ("i1.phi", "i1.w", "i2.phi", "i2.w"):
        m.set_start(name, 0.0)
    return m


class Decay(ac.Component):
    """x' = -x / T from an initial equation x = x0 (no fixed start value)."""

    def __init__(self, name, T=0.5, x0=2.0):
        super().__init__(name)
        T = self.parameter("T", T, unit="s", min=0)
        self.x0 = self.parameter("x0", x0)
        self.x = self.variable("x")
        self.equation(ac.der(self.x) == -self.x / T)
        self.initial_equation(self.x == self.x0)  # the one-argument call of README and docs/python.md
        self.require(T > 0, "T must be positive")


@pytest.fixture(scope="module")
def pushed():
    return pushed_mass().compile()


@pytest.fixture(scope="module")
def run(pushed):
    pushed.set_parameter("F", 40.0)
    return pushed.simulate(t_end=1.0, output_interval=0.1)


# --- Component ---------------------------------------------------------------------------------------------------


def test_initial_equation_with_one_argument():
    m = ac.Model("decay")
    m.add(Decay("c"))
    r = m.compile().simulate(t_end=1.0, output_interval=0.5)
    assert r["c.x"][0] == pytest.approx(2.0, rel=1e-9)
    assert r["c.x"][-1] == pytest.approx(2.0 * math.exp(-2.0), rel=1e-4)


def test_initial_equation_active_keyword():
    class Inactive(ac.Component):
        def __init__(self, name):
            super().__init__(name)
            x = self.variable("x", start=1.0, fixed=True)
            self.equation(ac.der(x) == 0.0)
            self.initial_equation(x == 5.0, active=0.0)  # never active: the fixed start holds

    m = ac.Model("inactive")
    m.add(Inactive("c"))
    assert m.compile().simulate(t_end=0.1)["c.x"][0] == 1.0


def test_require_with_condition_and_text():
    m = ac.Model("decay")
    m.add(Decay("c"))
    sim = m.compile()
    sim.set_parameter("c.T", 0.0)  # within its bound (>= 0), against the requirement
    with pytest.raises(ac.ModelError, match="T must be positive"):
        sim.simulate(t_end=0.1)


def test_component_declarations_with_defaults_left_out():
    class Parts(ac.Component):
        def __init__(self, name):
            super().__init__(name)
            self.flange = self.connector(rotational.Flange, "flange")
            k = self.parameter("k", 3.0)                                   # unit, min, max left out
            self.y = self.variable("y")                                    # unit, start, fixed, nominal left out
            self.n = self.discrete("n", kind="integer")                    # start, unit, description left out
            s = self.variable("s", start=0.0, fixed=True)                  # a state: hybrid models need one
            self.equation(ac.der(s) == 1.0)
            self.equation(self.y == k * ac.time)
            self.equation(self.flange.tau == 0.0)
            self.when(ac.sample(0.0, 0.25), [self.n == ac.pre(self.n) + 1])
            self.stored_energy(0.0 * self.y)
            self.dissipated_power(0.0 * self.y)
            self.supplied_power(0.0 * self.y)

    m = ac.Model("parts")
    parts = m.add(Parts("p"))
    ground = m.add(rotational.Fixed("ground"))
    m.connect(ground.flange, parts.flange)
    assert parts.k.value == 3.0 and parts.y.start == 0.0 and parts.y.fixed is False
    r = m.compile().simulate(t_end=1.0, output_interval=0.5)
    assert r["p.y"][-1] == pytest.approx(3.0)
    assert r["p.n"][-1] == 5  # ticks at 0, 0.25, 0.5, 0.75, 1.0


# --- Model and Simulator -----------------------------------------------------------------------------------------


def test_set_start_with_path_and_value():
    m = pushed_mass(v0=7.5)  # set_start(path, value): fixed=True by default
    r = m.compile().simulate(t_end=0.1)
    assert r["mass.v"][0] == 7.5


def test_simulate_as_documented(run):
    assert run.time[0] == 0.0 and run.time[-1] == pytest.approx(1.0)
    assert len(run) == 11
    coarse = pushed_mass().compile().simulate(t_eval=[0.5, 1.0, 2.0, 5.0])
    assert list(coarse.time) == [0.5, 1.0, 2.0, 5.0]


def test_simulator_lookups(pushed):
    assert pushed.parameter("mass.m") == 2.0
    assert "F" in pushed.inputs and "v" in pushed.outputs  # properties, as docs/python.md's naming rule says
    assert pushed.parameters.loc["mass.m", "value"] == 2.0
    assert "mass.m" in pushed.parameter_names
    assert isinstance(pushed.report, dict) and pushed.report_text()


def test_compile_defaults():
    assert pushed_mass().compile().simulate(t_end=0.1)["mass.v"][0] == 3.0


# --- Results -----------------------------------------------------------------------------------------------------


def test_result_readers(run, tmp_path):
    frame = run.to_pandas()
    assert frame.index.is_unique and "mass.v" in frame.columns
    assert list(run.to_pandas(["mass.v"]).columns) == ["mass.v"]
    path = tmp_path / "run.csv"
    run.write_csv(str(path))                           # columns left out: every variable
    header = path.read_text().splitlines()[0].split(",")
    assert header[0] == "time" and "mass.v" in header and len(header) == len(run.names) + 1
    run.write_csv(str(tmp_path / "v.csv"), ["mass.v"])
    assert (tmp_path / "v.csv").read_text().splitlines()[0].split(",") == ["time", "mass.v"]
    assert "mass.v" in run and run.unit("mass.v") == "m/s"
    assert "state" in run.describe("mass.v")
    assert run.parameters.loc["mass.m", "value"] == 2.0
    assert np.all(run.event_sides() == 0)


def test_plot_with_path(run, tmp_path):
    path = tmp_path / "v.png"
    run.plot(["mass.v"], path=str(path))
    assert path.stat().st_size > 0


# --- analysis ----------------------------------------------------------------------------------------------------


def test_linearize_as_documented():
    sim = two_inertias().compile()
    lin = ac.linearize(sim)                     # at the initial point
    assert lin.A.shape == (4, 4) and lin.inputs == ["tau"] and lin.outputs == ["w2"]
    modes = lin.modes()
    expected = math.sqrt(400.0 / (2.0 * 0.5 / 2.5)) / (2 * math.pi)
    assert modes["frequency_hz"].max() == pytest.approx(expected, rel=1e-9)
    G = lin.frequency_response([1.0, 10.0], "tau", "w2")
    assert len(G) == 2
    t, y = lin.step("tau", "w2", t=np.linspace(0, 2, 200))
    assert len(t) == len(y) == 200
    assert lin.to_scipy().A.shape == (4, 4)
    r = sim.simulate(t_end=1.0, output_interval=0.1)
    assert ac.linearize(r, at=1.0).time == pytest.approx(1.0)


def test_steady_state_as_documented(pushed):
    trim = ac.steady_state(pushed, free=["F"], conditions={"mass.v": 10.0})
    assert trim.values["F"] == pytest.approx(40.0, rel=1e-8)
    assert trim["drag.f"] == pytest.approx(-40.0, rel=1e-8)
    assert trim.moving == ["mass.s"]
    assert ac.linearize(trim).A.shape[0] >= 1


def test_session_as_documented(pushed):
    session = pushed.start(t_end=1.0, output_interval=1e-2)
    session.set_input("F", 40.0)
    session.advance(0.5)
    assert session.time == pytest.approx(0.5)
    saved = session.state
    session.advance(1.0)
    session.set_state(saved)
    assert session.time == pytest.approx(0.5)
    assert session.get("mass.m") == 2.0
    session.reset()
    assert session.time == 0.0 and len(session.result) == 1


def test_drive_as_documented(pushed):
    r = ac.drive(pushed, {"F": ([0.0, 1.0, 2.0], [0.0, 10.0, 0.0])}, t_end=3.0)
    assert list(r.event_times) == [1.0, 2.0]
    r = ac.drive(pushed, {"F": lambda t: 4.0 * t}, t_end=1.0, hold=0.01)
    assert r.time[-1] == pytest.approx(1.0)


# --- expressions and tables --------------------------------------------------------------------------------------


def test_table_functions_with_defaults_left_out():
    m = ac.Model("tables")
    x = m.add(rotational.Inertia("x", J=1.0))  # any variable; its angle phi = t with w = 1
    m.set_start("x.phi", 0.0)
    m.set_start("x.w", 1.0)
    y = m.output("y", ac.table(x.phi, [0.0, 1.0], [0.0, 10.0]))
    z = m.output("z", ac.table2d(x.phi, x.phi, [0.0, 1.0], [0.0, 1.0], [[0.0, 1.0], [1.0, 2.0]]))
    del y, z
    r = m.compile().simulate(t_end=0.5, output_interval=0.5)
    assert r["y"][-1] == pytest.approx(5.0)
    assert r["z"][-1] == pytest.approx(1.0)


def test_library_tables_and_cycles_as_documented():
    m = ac.Model("maps")
    curve = m.add(blocks.CombiTable1D("curve", smoothness="MonotoneContinuousDerivative1"))
    blocks.set_table(curve, [(0, 0.0), (1000, 100.0), (4000, 155.0)])
    grid = m.add(blocks.CombiTable2D("grid", extrapolation="HoldLastPoint"))
    blocks.set_table_2d(grid, [0, 1], [0, 10], [[0, 10], [1, 11]])
    cycle = m.add(vehicle.DriveCycle("cycle"))
    assert vehicle.set_cycle(cycle, "wltc3b") == pytest.approx(1800.0)
    assert "wltc3b" in vehicle.drive_cycle_names()
    assert vehicle.radius_from_tire_size("205/55R16") == pytest.approx(0.3164, abs=1e-3)


# --- harness -----------------------------------------------------------------------------------------------------


def test_harness_checks_and_rigs_with_defaults_left_out(tmp_path):
    checklist = h.Checklist("wheel", "Wheel from Python")
    rig = checklist.rig("rolling", "60 N.m on the axle, 500 kg carried", t_end=5.0)
    wheel = rig.add(vehicle.Wheel("wheel", radius=0.3, J=0.05))
    parts = h.wheel_rig(rig.model, wheel.flange_rot, wheel.contact, torque=60.0, N=5000.0, mass=500.0)
    assert set(parts) == {"torque", "body", "load"}
    rig.expect_connectors(wheel, {"flange_rot": "rotational.Flange", "contact": "vehicle.WheelContact"})
    rig.check(h.relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0))
    rig.check(h.over_interval(parts["body"].v, 0.0, 0.0, 0.0, 1e-6).titled("starts at rest"))
    rig.check(h.monotonic(parts["body"].v, 1, 0.0, 5.0, 1e-9))
    rig.check(h.sign(parts["body"].v, 1, 1e-9))
    rig.check(h.bound(abs(wheel.F_traction), 0.0, wheel.F_max, 1e-9))
    rig.check(h.value_at(parts["body"].s, 0.0, 0.0, 1e-9))
    rig.check(h.power_balance([wheel.F_traction * wheel.v, -wheel.F_traction * wheel.v], 1e-9))
    rig.energy_balance(1e-4)
    report = checklist.validate(str(tmp_path / "wheel"), plots=False)
    assert report.passed, report.failures

    two = h.Checklist("gear", "rotational rig")
    rig2 = two.rig("spin", "a gear between two inertias", t_end=1.0)
    gear = rig2.add(rotational.IdealGear("gear", ratio=2.0))
    parts2 = h.rotational_rig(rig2.model, gear.flange_a, gear.flange_b, torque=10.0)  # J_in, J_out, d_load
    for name in ("input", "output"):
        rig2.model.set_start(f"{name}.phi", 0.0)
        rig2.model.set_start(f"{name}.w", 0.0)
    assert parts2["input"].J.value == 0.1 and parts2["output"].J.value == 1.0 and parts2["load"].d.value == 1.0
    rig2.check(h.steady_state(parts2["input"].w, 2.0 * parts2["output"].w, 1e-6, 0.5))
    assert two.run().passed
    assert "wheel" in h.checklist_names()


def test_cycle_test_with_default_cycle():
    m = ac.Model("cycle")
    test = h.cycle_test(m)          # cycle="wltc3b"
    assert test.duration == pytest.approx(1800.0)


# --- bindings whose defaults or names were added (issue 30): called with the defaults left out ----------------


def test_private_analysis_bindings_with_defaults_left_out():
    pushed = pushed_mass().compile()
    pushed.set_parameter("F", 40.0)
    run = pushed.simulate(t_end=1.0, output_interval=0.1)
    point = _acausal._point(run, 0.0)
    assert _acausal._linearize_point(pushed, point).inputs == ["F"]      # inputs, outputs default to the model's
    assert _acausal._linearize_result(run, 1.0).outputs == ["v"]
    still = _acausal._steady_state(pushed, point, moving=["mass.s"])     # free, conditions, tolerance, ...
    assert still.moving == ["mass.s"] and still.residual < 1e-8


def test_bindings_take_their_documented_names_as_keywords():
    pushed = pushed_mass().compile()
    pushed.set_parameter(name="F", value=10.0)
    assert pushed.parameter(name="F") == 10.0
    m = ac.Model(name="keywords")
    a = m.add(rotational.Inertia("a"))
    b = m.add(rotational.Inertia("b"))
    m.connect(a=a.flange_b, b=b.flange_a)
    m.set_start(path="a.w", value=1.0)
    expr = ac.ifelse(condition=ac.time > 0.5, if_true=1.0, if_false=ac.min(a=0.0, b=ac.atan2(y=1.0, x=1.0)))
    assert "time" in str(expr)
    for f in (ac.der, ac.sqrt, ac.exp, ac.log, ac.sin, ac.cos, ac.tan, ac.asin, ac.acos, ac.atan, ac.sinh,
              ac.cosh, ac.tanh, ac.abs, ac.sign, ac.floor, ac.no_event):
        (signature,) = pybind_signatures(f)
        name = signature.split(":")[0]            # the one argument's name: e (der, no_event) or a
        assert str(f(**{name: a.w})) == str(f(a.w))


# --- no unnamed arguments -------------------------------------------------------------------------------------------

MODULES = [ac, rotational, translational, planar, blocks, vehicle, h, _acausal, _acausal._harness]

# Operators are called through their symbols (x + y), never by keyword, and the stubs show them with pybind11's
# names (tests/python/test_stubs.py); only these dunders are checked.
CHECKED_DUNDERS = {"__init__", "__call__", "__getitem__", "__contains__", "__getattr__", "__setitem__"}

# Bindings allowed to keep unnamed arguments. Empty: every one had its py::arg names added with issue 30
# (the math functions, Component/Model/Expr/WhenAction constructors, Component.equation/connect/set_parameter,
# Simulator.set_parameter/parameter, Result.__getitem__/__contains__, Connector.__getattr__, the private table,
# connector, library and analysis helpers, Checklist._rig). A new entry needs a reason beside it.
ALLOWED = set()

SIGNATURE = re.compile(r"^(?:\d+\. )?(\w+)\((.*)\)(?: -> .*)?$")


def pybind_signatures(f):
    """The signatures pybind11 wrote into a docstring (one, or one per overload); a Python wrapper that copied
    a binding's docstring (acausal.component._constructed) counts as the binding."""
    doc = getattr(f, "__doc__", None)
    if not isinstance(doc, str):
        return []
    lines = [line.strip() for line in doc.splitlines()]
    name = getattr(f, "__name__", "")
    return [m.group(2) for m in map(SIGNATURE.match, lines) if m and m.group(1) == name]


def callables():
    """(qualified name, callable) of every function and method reachable from the package's modules."""
    seen = set()
    for module in MODULES:
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            qualified = f"{module.__name__}.{name}"
            if inspect.isclass(value) and (value.__module__ or "").startswith("acausal"):
                for member in dir(value):
                    if member.startswith("__") and member not in CHECKED_DUNDERS:
                        continue
                    try:
                        attribute = inspect.getattr_static(value, member)
                    except AttributeError:
                        continue
                    if isinstance(attribute, (staticmethod, classmethod)):
                        attribute = attribute.__func__
                    if isinstance(attribute, property) or not callable(attribute):
                        continue
                    key = f"{value.__module__}.{value.__qualname__}.{member}"
                    if key not in seen:
                        seen.add(key)
                        yield key, attribute
            elif callable(value) and not inspect.isclass(value):
                if qualified not in seen:
                    seen.add(qualified)
                    yield qualified, value


def test_the_walk_sees_the_bindings():
    names = dict(callables())
    assert "acausal._acausal.Component.initial_equation" in names
    assert pybind_signatures(names["acausal._acausal.Component.initial_equation"])
    assert pybind_signatures(names["acausal._acausal.Simulator.simulate"])
    assert pybind_signatures(ac.der)
    assert len([n for n, f in names.items() if pybind_signatures(f)]) > 100


def test_no_binding_shows_unnamed_arguments():
    unnamed = sorted(name for name, f in callables() if name not in ALLOWED
                     and any(re.search(r"\barg\d+\s*:", s) for s in pybind_signatures(f)))
    assert not unnamed, "bindings without py::arg names (add them, with the C++ defaults): " + ", ".join(unnamed)


def test_allow_list_is_not_stale():
    names = dict(callables())
    stale = sorted(name for name in ALLOWED if name not in names
                   or not any(re.search(r"\barg\d+\s*:", s) for s in pybind_signatures(names[name])))
    assert not stale, stale
