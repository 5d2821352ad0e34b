"""Validation harness: rigs, physics checks with tolerances, checklists that
write their own reports (Markdown, JSON, PNG plots).

    import acausal as ac
    from acausal import harness as h, vehicle

    checklist = h.Checklist("wheel", "My wheel")
    rig = checklist.rig("rolling", "60 N.m on the axle, 500 kg carried", t_end=10.0)
    wheel = rig.add(vehicle.Wheel("wheel", radius=0.3, J=0.05))
    parts = h.wheel_rig(rig.model, wheel.flange_rot, wheel.contact, torque=60.0, N=5000.0, mass=500.0)
    rig.check(h.relation(wheel.v, wheel.omega * wheel.radius, 1e-3).when(abs(wheel.v) > 1.0))
    rig.energy_balance(1e-4)
    report = checklist.validate("out/validation/my_wheel")   # runs, writes, plots
    assert report.passed

Checks are written in the model's own symbols; see docs/harness.md.
"""
import math
import os

from ._acausal import _harness as _h

Level = _h.Level
CheckResult = _h.CheckResult
ChecklistReport = _h.ChecklistReport

value_at = _h.value_at
over_interval = _h.over_interval
steady_state = _h.steady_state
relation = _h.relation
bound = _h.bound
sign = _h.sign
monotonic = _h.monotonic
power_balance = _h.power_balance

wheel_rig = _h.wheel_rig
body_rig = _h.body_rig
rotational_rig = _h.rotational_rig

checklist_names = _h.checklist_names

# Handling maneuvers of the planar car (harness/handling.hpp): build one, run it, read the standard's figures.
split_mu_road = _h.split_mu_road
understeer_gradient = _h.understeer_gradient
steer_for_lateral_acceleration = _h.steer_for_lateral_acceleration
step_steer_figures = _h.step_steer_figures
sine_with_dwell_figures = _h.sine_with_dwell_figures
iso3888_2_lanes = _h.iso3888_2_lanes
lane_centre_line = _h.lane_centre_line


def build_maneuver(model, v0=80.0 / 3.6, esc=False, abs=False, hold_speed=False, hold_speed_until=math.inf,
                   robot=None, brake_pedal=0.0, brake_start=0.0, path=None):
    """Builds a handling maneuver into `model` and returns its car, a vehicle.PlanarCar named "car" (with the
    options abs and esc) rolling straight ahead at v0 [m/s] in gear, its clutch engaged.

    Steering: a SteeringRobot "robot" with the parameters in `robot` (a dict, angles at the steering wheel, the
    profile by name: {"profile": "sine_with_dwell", "amplitude": math.radians(169), "start_time": 1.0}); or, given
    `path` ((x, y) points [m], e.g. lane_centre_line(iso3888_2_lanes())), a PathFollower "follower" fed with the
    car's CG pose, its road-wheel angle through the steering ratio 16. Speed: with hold_speed a DriverController
    "driver" holds v0 with the throttle until hold_speed_until [s], when the throttle closes; without, the throttle
    stays closed (coasting, as FMVSS 126). The brake pedal steps to brake_pedal (0..1) at brake_start [s].

        m = ac.Model("step_steer")
        car = h.build_maneuver(m, v0=80 / 3.6, hold_speed=True,
                               robot={"profile": "step", "amplitude": math.radians(35), "start_time": 1.0})
        r = m.compile().simulate(t_end=5.0, output_interval=0.005)
        h.step_steer_figures(r, math.radians(35))["response_time"]
    """
    points = [(float(x), float(y)) for x, y in path] if path is not None else []
    return _h.build_maneuver(model, float(v0), bool(esc), bool(abs), bool(hold_speed), float(hold_speed_until),
                             dict(robot or {}), float(brake_pedal), float(brake_start), points)


def cycle_test(model, cycle="wltc3b", electric=False, automatic=False):
    """Adds a car ("car"), a DriveCycle ("cycle") set to a shipped cycle and a CycleDriver ("driver") to `model`,
    with energy books on every part; simulate to test.duration, then cycle_report(result, test). The car is a
    MappedCar, with automatic=True an AutomaticCar (the same car with a torque converter), or with electric=True
    a BatteryElectricCar."""
    if electric and automatic:
        raise ValueError("cycle_test: the electric car has a single-speed drive; automatic=True is for the "
                         "mapped-engine car")
    return _h.electric_cycle_test(model, cycle) if electric else _h.cycle_test(model, cycle, automatic)


def cycle_report(result, test, co2_per_fuel=3.17, as_frame=False):
    """A cycle run's figures as a dict. A conventional car: distance, L/100 km, g/km CO2 at co2_per_fuel g per g
    of fuel, tractive energy, the energy split in MJ, the WLTP band verdict. An electric car: kWh/100 km at the
    battery and at the wheels, the regenerated share, the range on a full pack, the energy split in kWh (where
    the cells' energy went). as_frame=True: the energy split as a pandas DataFrame (with each entry's share of
    the fuel's or the cells' energy) beside the dict."""
    electric = isinstance(test, _h.ElectricCycleTest)
    report = _h.cycle_report(result, test) if electric else _h.cycle_report(result, test, co2_per_fuel)
    if not as_frame:
        return report
    import pandas as pd  # only when asked for: importing pandas costs a quarter of a second
    unit, total = ("kWh", report["cells_energy_kWh"]) if electric else ("MJ", report["fuel_energy_MJ"])
    split = pd.DataFrame({unit: pd.Series(report[f"energy_split_{unit}"])})
    split["share"] = split[unit] / total
    return report, split


def render_plots(directory):
    """Draws the PNG of every check in the report written to `directory` (matplotlib)."""
    # Imported here: `python3 -m acausal.validation_plots` must not find it imported already.
    from .validation_plots import render

    return render(directory)


class Rig:
    """A component under test between sources and loads: `model` to build in,
    checks on its result. Level 1 (compiles, units) and Level 2 (runs, finite)
    come without asking."""

    def __init__(self, rig):
        self._rig = rig
        self.model = rig._model()  # held: components added from Python live as long as this rig
        self._components = []

    name = property(lambda self: self._rig.name)
    description = property(lambda self: self._rig.description)

    def add(self, component):
        self._components.append(component)
        return self.model.add(component)

    def check(self, check):
        self._rig.check(check)
        return self

    def expect_connectors(self, component, connectors):
        """Level 1: `component` declares these connectors, {name: type} ("rotational.Flange")."""
        self._rig.expect_connectors(component, list(dict(connectors).items()))
        return self

    def energy_balance(self, tolerance):
        """Level 3: every component's and the whole model's energy books close. Call once the rig is built."""
        self._rig.energy_balance(tolerance)
        return self


class Checklist:
    """Rigs and checks grouped into Levels 1-3; run() evaluates them all."""

    def __init__(self, name, title):
        self._list = _h.Checklist(name, title)
        self._rigs = []

    name = property(lambda self: self._list.name)

    def rig(self, name, description, t_end, output_interval=0.01, rtol=1e-8, atol=1e-10):
        rig = Rig(self._list._rig(name, description, t_end, output_interval, rtol, atol))
        self._rigs.append(rig)
        return rig

    def run(self):
        return self._list.run()

    def validate(self, directory, plots=True):
        """Runs the checklist, writes report.md, report.json, CSVs and (with plots) PNGs into directory."""
        return _write(self.run(), directory, plots)


def _write(report, directory, plots):
    report.write(directory)
    if plots:
        render_plots(directory)
    return report


def validate(names="all", out=os.path.join("out", "validation"), plots=True):
    """Runs shipped checklists by name ("wheel", ..., or "all"); returns {name: report}."""
    if isinstance(names, str):
        names = checklist_names() if names == "all" else [names]
    return {n: _write(_h.checklist(n).run(), os.path.join(out, n), plots) for n in names}
