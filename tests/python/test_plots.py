"""Plots you can read: r.plot() groups by unit; validation plots draw a relation as its
error against the tolerance, a bound as the quantity over its dashed bound, with units."""
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

import acausal as ac
from acausal import harness as h
from acausal import rotational, validation_plots, vehicle
from models import oscillator


@pytest.fixture(scope="module")
def result():
    return oscillator().compile().simulate(t_end=2.0, output_interval=0.01)


def test_plot_puts_each_unit_on_its_own_axis(result):
    # push.y (a signal) has no unit: it gets its own "[1]" axis, not the m/s one.
    assert result.unit("push.y") in ("", "1")
    fig = result.plot(["mass.v", "push.y", "damper.v_rel"], title="oscillator")
    assert len(fig.axes) == 2
    assert [ax.get_ylabel() for ax in fig.axes] == ["[m/s]", "[1]"]
    assert [[line.get_label() for line in ax.get_lines()] for ax in fig.axes] == \
        [["mass.v [m/s]", "damper.v_rel [m/s]"], ["push.y"]]
    assert all(ax.get_legend() is not None for ax in fig.axes)
    assert fig.axes[-1].get_xlabel() == "t [s]"
    assert fig.axes[0].get_shared_x_axes().joined(fig.axes[0], fig.axes[1])
    assert fig.axes[0].get_title() == "oscillator"
    plt.close(fig)


def test_plot_of_one_unit_keeps_one_axis(result, tmp_path):
    fig = result.plot("mass.s", path=str(tmp_path / "s.png"))
    assert len(fig.axes) == 1 and fig.axes[0].get_ylabel() == "[m]"
    assert (tmp_path / "s.png").stat().st_size > 5000


@pytest.fixture(scope="module")
def wheel_report(tmp_path_factory):
    directory = tmp_path_factory.mktemp("wheel")
    checklist = h.Checklist("wheel", "Wheel from Python")
    rig = checklist.rig("rolling", "60 N.m on the axle", t_end=3.0)
    wheel = rig.add(vehicle.Wheel("wheel", radius=0.3, J=0.05))
    h.wheel_rig(rig.model, wheel.flange_rot, wheel.contact, torque=60.0, N=5000.0, mass=500.0)
    rig.check(h.relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0).titled("v = ω·r"))
    rig.check(h.bound(abs(wheel.F_traction), 0.0, wheel.F_max, 1e-9).titled("|F| <= μ·N"))
    rig.energy_balance(1e-4)
    report = checklist.validate(str(directory), plots=False)
    data = json.loads((directory / "report.json").read_text())
    return directory, report, {c["title"]: c for c in data["checks"]}


def labels(ax):
    return [line.get_label() for line in ax.get_lines()]


def test_a_relation_is_drawn_as_its_error_against_the_tolerance(wheel_report):
    directory, _, checks = wheel_report
    check = checks["v = ω·r"]
    assert check["kind"] == "relation" and check["units"][:2] == ["m/s", "m/s"]
    fig = validation_plots.figure(str(directory), check)
    ax = fig.axes[0]
    drawn = labels(ax)
    # Not the two sides (they would overlap): their difference and the ± band.
    assert "wheel.v" not in drawn
    error = [line for line in ax.get_lines() if line.get_label().startswith("error:")]
    assert len(error) == 1
    band = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert len(band) == 2
    assert ax.get_ylabel() == "error [m/s]" and ax.get_xlabel() == "t [s]"
    # The band is the check's own criterion, tolerance × |ω·r|, row by row.
    header, columns = validation_plots._read_csv(str(directory / check["data"]))
    assert header[2] == "wheel.omega * wheel.radius" or "omega" in header[2]
    assert list(band[0].get_ydata()) == pytest.approx([1e-3 * abs(x) for x in columns[2]], rel=1e-12)
    assert list(error[0].get_ydata()) == pytest.approx([a - b for a, b in zip(columns[1], columns[2])], abs=1e-15)
    plt.close(fig)


def test_a_bound_draws_the_quantity_over_its_dashed_bound(wheel_report):
    directory, _, checks = wheel_report
    check = checks["|F| <= μ·N"]
    assert check["kind"] == "bound"
    fig = validation_plots.figure(str(directory), check)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    quantity = lines["abs(wheel.F_traction)"] if "abs(wheel.F_traction)" in lines else \
        [line for label, line in lines.items() if "F_traction" in label][0]
    bound = [line for label, line in lines.items() if label.startswith("bound:") and "F_max" in label][0]
    assert bound.get_linestyle() == "--" and quantity.get_linestyle() == "-"
    assert quantity.get_zorder() > bound.get_zorder()  # on top: not hidden under the bound
    assert ax.get_ylabel() == "[N]"
    plt.close(fig)


def test_render_writes_every_plot(wheel_report):
    directory, _, _ = wheel_report
    paths = validation_plots.render(str(directory))
    assert len(paths) >= 3
    for path in paths:
        assert (directory / path.split("/")[-1]).stat().st_size > 5000


class SloppyDamper(ac.Component):
    """A viscous damper whose books are 1e-5 off (declares 1.00001 × what it dissipates): within the
    books' 1e-4, but a relative error far above the wheel's."""

    def __init__(self, name, d):
        super().__init__(name)
        self.flange_a = self.connector(ac.rotational.Flange, "flange_a")
        self.flange_b = self.connector(ac.rotational.Flange, "flange_b")
        d = self.parameter("d", d, unit="N.m.s/rad", min=0)
        w = self.variable("w_rel", unit="rad/s")
        tau = self.variable("tau", unit="N.m")
        self.equation(w == ac.der(self.flange_b.phi - self.flange_a.phi))
        self.equation(tau == d * w)
        self.equation(self.flange_b.tau == tau)
        self.equation(self.flange_a.tau == -tau)
        self.dissipated_power(1.00001 * tau * w)


def books_plot(d, tmp_path):
    checklist = h.Checklist("wheel", "Wheel with a spare damper")
    rig = checklist.rig("rolling", "60 N.m on the axle", t_end=3.0)
    wheel = rig.add(vehicle.Wheel("wheel", radius=0.3, J=0.05))
    h.wheel_rig(rig.model, wheel.flange_rot, wheel.contact, torque=60.0, N=5000.0, mass=500.0)
    spare = rig.add(SloppyDamper("spare", d=d))
    ground = rig.add(rotational.Fixed("ground"))
    rig.model.connect(wheel.flange_rot, spare.flange_a)
    rig.model.connect(spare.flange_b, ground.flange)
    rig.energy_balance(1e-4)
    checklist.validate(str(tmp_path), plots=False)
    data = json.loads((tmp_path / "report.json").read_text())
    check = [c for c in data["checks"] if c["title"] == "each component's energy books close"][0]
    fig = validation_plots.figure(str(tmp_path), check)
    return check, fig


def test_the_books_plot_shows_a_component_that_carried_energy(tmp_path):
    # An unused part (1e-9 N·m·s/rad: ~1e-7 J of the ~1e3 J the run moves) with the worst relative
    # error is not what a passing run's plot shows: the worst of the parts that carried energy is.
    check, fig = books_plot(1e-9, tmp_path / "unused")
    assert check["passed"] and check["kind"] == "energy"
    drawn = labels(fig.axes[0])
    assert not any(label.startswith("spare ") for label in drawn), drawn
    assert any(label.startswith("wheel ") or label.startswith("body ") for label in drawn), drawn
    assert "components that carried energy" in check["message"] and check["error"] < 1e-6
    assert fig.axes[0].get_ylabel() == "[J]"
    plt.close(fig)
    # Loaded (1 N·m·s/rad: hundreds of J), the same damper is a carrier and its 1e-5 is the worst.
    check, fig = books_plot(1.0, tmp_path / "used")
    assert check["passed"] and check["error"] == pytest.approx(1e-5, rel=0.05)
    assert any(label.startswith("spare ") for label in labels(fig.axes[0]))
    plt.close(fig)
