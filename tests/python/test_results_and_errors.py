"""Results as NumPy/pandas/PNG/CSV; every error is a Python exception naming the culprit."""
import math

import numpy as np
import pytest

import acausal as ac
from acausal import blocks, planar, rotational, translational

from models import oscillator


@pytest.fixture(scope="module")
def result():
    return oscillator().compile().simulate(t_end=2.0, output_interval=0.01)


def test_arrays_names_and_statistics(result):
    assert isinstance(result.time, np.ndarray) and result.time.shape == (201,)
    assert result.time[-1] == pytest.approx(2.0)
    assert "spring.f" in result.names and "spring.f" in result
    f = result["spring.f"]
    assert np.allclose(f, 50.0 * result["mass.s"], atol=1e-12)  # an observed variable, computed on demand
    stats = result.statistics
    assert stats["steps"] > 0 and stats["linear_solver"] == "dense"
    with pytest.raises(KeyError, match="nope"):
        result["nope"]


def test_pandas_plot_and_csv(result, tmp_path):
    frame = result.to_pandas(["mass.s", "mass.v"])
    assert list(frame.columns) == ["mass.s", "mass.v"] and frame.index.name == "time"
    assert frame["mass.s"].iloc[-1] == result["mass.s"][-1]
    png = tmp_path / "plot.png"
    result.plot(["mass.s", "mass.v"], path=str(png))
    assert png.stat().st_size > 10_000
    import matplotlib.image

    pixels = matplotlib.image.imread(str(png))
    assert pixels.std() > 0.01  # not blank
    csv = tmp_path / "out.csv"
    result.write_csv(str(csv), ["mass.s"])
    lines = csv.read_text().splitlines()
    assert lines[0] == "time,mass.s" and len(lines) == 202


def test_compile_report_is_a_dict():
    sim = oscillator().compile()
    report = sim.report
    passes = [p["pass"] for p in report["passes"]]
    assert passes[0] == "flatten" and "evaluation" in passes
    assert report["states"] == ["mass.s", "mass.v"]
    assert "alias_elimination" in sim.report_text()


def test_parameters_change_without_recompiling():
    sim = oscillator().compile()
    sim.set_parameter("spring.c", 200.0)
    r = sim.simulate(t_end=20.0, output_interval=0.1)
    assert r["mass.s"][-1] == pytest.approx(10.0 / 200.0, rel=1e-4)


def test_unknown_keyword_is_a_value_error():
    with pytest.raises(ValueError, match="'mass'.*J"):
        rotational.Inertia("inertia", mass=1.0)


def test_model_errors_name_component_and_variable():
    m = ac.Model("bad")
    j = m.add(rotational.Inertia("wheel_inertia"))
    body = m.add(translational.Mass("body"))
    with pytest.raises(ac.ModelError, match="wheel_inertia.flange_b.*body.flange_a"):
        m.connect(j.flange_b, body.flange_a)
    with pytest.raises(ac.ModelError, match="duplicate.*body"):
        m.add(translational.Mass("body"))
    with pytest.raises(ValueError, match=r"car\.m = -1"):
        m.add(translational.Mass("car", m=-1.0))
    with pytest.raises(ac.ModelError, match="nothing determines|underdetermined"):
        motor = m.add(rotational.Torque("motor"))
        m.connect(motor.flange, j.flange_a)
        m.compile()


def test_simulation_error_keeps_the_partial_result():
    class Thruster(ac.Component):
        def __init__(self, name):
            super().__init__(name)
            self.flange = self.connector(translational.Flange, "flange")
            thrust = self.variable("thrust", unit="N")
            self.equation(thrust == ac.sqrt(1.0 - self.flange.s))
            self.equation(self.flange.f == -thrust)

    m = ac.Model("blowup")
    body = m.add(translational.Mass("body"))
    thruster = m.add(Thruster("thruster"))
    m.connect(thruster.flange, body.flange_a)
    m.set_start("body.s", 0.0)
    m.set_start("body.v", 1.0)
    with pytest.raises(ac.SimulationError) as info:
        m.compile().simulate(t_end=5.0)
    error = info.value
    assert 0.3 < error.time_reached < 1.5
    partial = error.partial_result
    assert len(partial) > 10 and partial["body.s"][-1] < 1.0


def test_expressions_refuse_truth_values():
    x = ac.Model("e").variable("x")
    with pytest.raises(TypeError, match="ifelse"):
        if x > 0:
            pass
    assert "der(x)" in repr(ac.der(x))
    assert math.isclose(float(str(2 * ac.Expr(3.0))), 6.0)


def test_every_library_component_is_reachable_from_python():
    from acausal import _acausal, blocks, rotational, translational, vehicle

    modules = {"rotational": rotational, "translational": translational, "blocks": blocks, "vehicle": vehicle,
               "planar": planar, "thermal": ac.thermal, "electrical": ac.electrical}
    m = ac.Model("everything")
    for key in _acausal._library:
        domain, name = key.split(".")
        factory = getattr(modules[domain], name)
        component = m.add(factory(name.lower() + "_" + domain))
        assert component.name == name.lower() + "_" + domain
    assert len(_acausal._library) >= 45


def test_time_table_from_python():
    from acausal import blocks

    m = ac.Model("table")
    table = m.add(blocks.TimeTable("table"))
    blocks.set_table(table, [(0.0, 0.0), (1.0, 2.0), (2.0, 1.0)])
    integral = m.add(blocks.Integrator("integral"))
    m.connect(table.y, integral.u)
    r = m.compile().simulate(t_end=3.0, output_interval=0.5)
    assert list(r.event_times) == [1.0]  # MSL's TimeTable: the last interval continues past its end
    assert r["table.y"][1] == pytest.approx(1.0)
    assert r["table.y"][-1] == pytest.approx(0.0, abs=1e-12)
    assert r["integral.y"][-1] == pytest.approx(1.0 + 1.5 + 0.5, rel=1e-6)


@pytest.mark.parametrize("declare", [
    lambda self: self.variable("x"),
    lambda self: self.parameter("p", 1.0),
    lambda self: self.connector(rotational.Flange, "flange"),
    lambda self: self.equation(ac.time == 0),
    lambda self: self.flange_a,
    lambda self: None,  # nothing declared: pybind11 refuses the object once __init__ returns
])
def test_component_without_super_init_is_a_type_error(declare):
    class Forgetful(ac.Component):
        def __init__(self, name):
            declare(self)

    with pytest.raises(TypeError, match=r"Forgetful.__init__ must call super\(\).__init__\(name\)|"
                                        r"__init__\(\) must be called when overriding __init__"):
        ac.Model("m").add(Forgetful("f"))


def test_delays_through_limits_and_into_position_sources():
    """Found by the fuzzer: a limited signal delayed into a PID, and a delayed signal driving a
    Position source, compiled to 'tape: leaf ... has no input register'; both run and are right."""
    m = ac.Model("limited")
    c, i, lim = m.add(blocks.Constant("c")), m.add(blocks.Integrator("i")), m.add(blocks.Limiter("lim"))
    d, pid = m.add(blocks.FixedDelay("d")), m.add(blocks.PID("pid"))
    m.connect(c.y, i.u), m.connect(i.y, lim.u), m.connect(lim.y, d.u), m.connect(c.y, pid.u_s), m.connect(d.y, pid.u_m)
    r = m.compile().simulate(t_end=2.0, output_interval=0.01)
    assert np.allclose(r["d.y"], np.clip(np.maximum(r.time - 1.0, 0.0), -1, 1), atol=1e-6)

    m = ac.Model("delayed_position")
    c, i, d = m.add(blocks.Constant("c")), m.add(blocks.Integrator("i")), m.add(blocks.FixedDelay("d"))
    p, mass = m.add(translational.Position("p")), m.add(translational.Mass("mass"))
    m.connect(c.y, i.u), m.connect(i.y, d.u), m.connect(d.y, p.s_ref), m.connect(mass.flange_a, p.flange)
    r = m.compile().simulate(t_end=2.0, output_interval=0.01)
    assert np.allclose(r["mass.s"], np.maximum(r.time - 1.0, 0.0), atol=1e-6)


def test_nonfinite_constants_are_named():
    m = ac.Model("overflow")
    c, g = m.add(blocks.Constant("c", k=1e300)), m.add(blocks.Gain("g", k=1e300))
    m.connect(c.y, g.u)
    with pytest.raises(ac.SimulationError, match=r"g.y = inf at t = 0, from g.y = g.u \* g.k"):
        m.compile().simulate(t_end=1.0)
    m = ac.Model("nan_derivative")
    c, i = m.add(blocks.Constant("c", k=1e300)), m.add(blocks.Integrator("i", k=1e300))
    m.connect(c.y, i.u)
    with pytest.raises(ac.ModelError, match=r"unsatisfied: der\(i.y\) = i.u \* i.k .* \(residual -?nan\)"):
        m.compile().simulate(t_end=1.0)


def test_a_part_keeps_its_model_alive():
    import gc
    from acausal import rotational, vehicle
    body = ac.Model("temporary").add(vehicle.VehicleBody("body"))  # the model itself is not kept
    wheel = ac.Model("temporary").add(vehicle.RearDriveCar("car")).wheel_fl
    flange = ac.Model("temporary").add(rotational.Inertia("inertia")).flange_a
    gc.collect()
    assert body.path == "body" and wheel.path == "car.wheel_fl"
    assert "flange_a" in str(flange.phi)
    with pytest.raises(ac.ModelError, match="positions must increase"):
        vehicle.set_grade_table(body, [(1.0, 0.05), (0.0, 0.05)])


def test_unknown_names_are_one_key_error_with_suggestions(result, tmp_path):
    for read in (lambda: result["mass.vv"], lambda: result.write_csv(str(tmp_path / "x.csv"), ["mass.vv"]),
                 lambda: result.describe("mass.vv"), lambda: result.unit("mass.vv")):
        with pytest.raises(ac.UnknownNameError, match=r"no variable 'mass.vv'; did you mean 'mass.v'") as caught:
            read()
        assert isinstance(caught.value, KeyError) and isinstance(caught.value, ac.ModelError)
        assert caught.value.suggestions[0] == "mass.v"
    sim = oscillator().compile()
    with pytest.raises(ac.UnknownNameError, match=r"no parameter 'mass.mm'; did you mean 'mass.m'"):
        sim.set_parameter("mass.mm", 1.0)
    with pytest.raises(KeyError, match="no parameter 'spring.k'"):
        sim.parameter("spring.k")
    m = oscillator()
    with pytest.raises(ac.UnknownNameError, match=r"has no variable 'mass.sv'; did you mean 'mass.s', 'mass.v'"):
        m.set_start("mass.sv", 1.0)


def test_describe_by_name(result):
    assert result.describe("mass.s") == "mass.s [m]: a state, integrated by IDA"
    assert result.describe("spring.f").startswith("spring.f [N]: observed, = ")
    assert "an alias" in result.describe("spring.flange_b.s")
    assert result.unit("mass.v") == "m/s"


def test_to_pandas_index_is_unique_with_events_flagged():
    from models import bouncing_ball

    r = bouncing_ball().compile().simulate(t_end=2.0, output_interval=0.01)
    assert len(r.event_times) >= 2
    frame = r.to_pandas(["ball.h", "ball.v"])
    assert frame.index.is_unique and frame.index.is_monotonic_increasing
    before, after = frame[frame["event"] == "before"], frame[frame["event"] == "after"]
    assert len(before) == len(after) == len(r.event_times)
    assert np.array_equal(after.index.to_numpy(), np.array(r.event_times))
    assert np.all(before.index.to_numpy() < after.index.to_numpy())
    assert np.all(before["ball.v"].to_numpy() < 0) and np.all(after["ball.v"].to_numpy() > 0)  # the bounce


def test_plot_labels_carry_units(result):
    fig = result.plot(["mass.s", "spring.f"])  # two units: two subplots
    labels = [[line.get_label() for line in ax.get_lines()] for ax in fig.axes]
    assert labels == [["mass.s [m]"], ["spring.f [N]"]]
    fig = result.plot(["mass.v"])
    assert fig.axes[0].get_ylabel() == "[m/s]"


def test_to_pandas_index_is_unique_when_a_state_event_lands_on_an_output_time():
    # A defect: a state event found exactly at an output time gave three rows at t = 0.5 (the left limit,
    # the right limit and the output row, a repeat of the right limit) and a repeated index.
    class Ramp(ac.Component):
        def __init__(self, name):
            super().__init__(name)
            x = self.variable("x", start=0.0, fixed=True)
            y = self.variable("y")
            self.equation(ac.der(x) == 1.0)
            self.equation(y == ac.ifelse(x > 0.5, 1.0, 0.0))

    m = ac.Model("ramp")
    m.add(Ramp("ramp"))
    r = m.compile().simulate(t_end=1.0, output_interval=0.1)
    assert r.event_times == [0.5]
    frame = r.to_pandas()
    assert frame.index.is_unique and frame.index.is_monotonic_increasing
    assert len(frame) == 12  # 11 output times and the event's left limit
    event = frame[frame.index >= np.nextafter(0.5, 0.0)].iloc[:2]
    assert list(event["event"]) == ["before", "after"] and list(event["ramp.y"]) == [0.0, 1.0]
    assert event.index[1] == 0.5 and event.index[0] == np.nextafter(0.5, 0.0)
    assert r.to_pandas(["ramp.y"]).index.equals(frame.index)


def test_an_error_quoting_bytes_that_are_not_utf8_keeps_its_message(tmp_path):
    # Issue 30: a non-UTF-8 byte in a file made the ModelError message empty.
    path = tmp_path / "bad.txt"
    path.write_bytes(b"#1\ndouble tab(2,2)\n0 1\n\xff\xfe 2\n")
    m = ac.Model("m")
    table = m.add(ac.blocks.CombiTimeTable("trace"))
    with pytest.raises(ac.ModelError) as error:
        blocks.load_table(table, path, "tab")
    message = str(error.value)
    assert "bad.txt" in message and "\\xFF" in message
