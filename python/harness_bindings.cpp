// Bindings of the harness: checks, rigs, checklists and reports. The
// Python-facing wrappers (keeping Python-defined components alive, plots)
// live in acausal/harness.py.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <acausal/acausal.hpp>
#include <acausal/harness/checklists.hpp>
#include <acausal/harness/cycle.hpp>
#include <acausal/harness/handling.hpp>
#include <acausal/harness/rigs.hpp>

namespace py = pybind11;
using namespace acausal;
using namespace acausal::harness;

namespace {

SimulationOptions options(double t_end, double output_interval, double rtol, double atol) {
  SimulationOptions o;
  o.t_end = t_end;
  o.output_interval = output_interval;
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

template <class Connector>
Connector& connector_of(Connector* k, const char* what) {
  if (!k) throw ModelError(std::string("expected a ") + what + " connector");
  return *k;
}

/// A rig's parts by name, for Python (the components stay owned by the model).
py::dict parts(std::initializer_list<std::pair<const char*, Component*>> named) {
  py::dict d;
  for (const auto& [name, c] : named) d[name] = py::cast(c, py::return_value_policy::reference);
  return d;
}

/// The SteeringRobot's parameters from a dict: numbers, and the profile by
/// name ("step", "ramp", "sine", "sine_with_dwell") or index.
ParameterValues robot_parameters(const py::dict& robot) {
  ParameterValues values;
  for (const auto& [key, value] : robot) {
    const std::string name = py::str(key);
    if (py::isinstance<py::str>(value)) {
      const std::string choice = value.cast<std::string>();
      const auto& names = vehicle::SteeringProfile::names;
      std::size_t k = 0;
      while (k < names.size() && names[k] != choice) ++k;
      if (name != "profile" || k == names.size()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw ModelError("build_maneuver: robot " + name + "='" + choice + "': " +
                         (name == "profile" ? "the profile is one of " + known
                                            : "only the profile takes a name, the other parameters numbers"));
      }
      values.emplace_back(name, static_cast<double>(k));
    } else {
      values.emplace_back(name, value.cast<double>());
    }
  }
  return values;
}

vehicle::PlanarCar& planar_car(Component& c) {
  auto* car = dynamic_cast<vehicle::PlanarCar*>(&c);
  if (!car) throw ModelError("component '" + c.name() + "' is not a vehicle.PlanarCar");
  return *car;
}

}  // namespace

void bind_harness(py::module_& m) {
  py::enum_<Level>(m, "Level")
      .value("builds", Level::builds)
      .value("runs", Level::runs)
      .value("physics", Level::physics);

  py::class_<CheckResult>(m, "CheckResult")
      .def_readonly("id", &CheckResult::id)
      .def_readonly("rig", &CheckResult::rig)
      .def_readonly("level", &CheckResult::level)
      .def_readonly("title", &CheckResult::title)
      .def_readonly("detail", &CheckResult::detail)
      .def_readonly("passed", &CheckResult::passed)
      .def_readonly("tolerance", &CheckResult::tolerance)
      .def_readonly("error", &CheckResult::error)
      .def_readonly("worst_time", &CheckResult::worst_time)
      .def_readonly("worst_values", &CheckResult::worst_values)
      .def_readonly("message", &CheckResult::message)
      .def("__repr__", [](const CheckResult& c) {
        return "<" + std::string(c.passed ? "PASS " : "FAIL ") + c.id + ": " + c.title + ">";
      });

  py::class_<Check>(m, "Check")
      .def("when", &Check::when, py::arg("condition"), py::return_value_policy::reference_internal)
      .def("titled", &Check::titled, py::arg("title"), py::return_value_policy::reference_internal)
      .def("plotting", &Check::plotting, py::arg("expressions"), py::return_value_policy::reference_internal)
      .def_property_readonly("title", &Check::title)
      .def("evaluate", &Check::evaluate, py::arg("result"));

  m.def("value_at", &value_at, py::arg("expression"), py::arg("t"), py::arg("expected"), py::arg("tolerance"));
  m.def("over_interval", &over_interval, py::arg("expression"), py::arg("t0"), py::arg("t1"), py::arg("expected"),
        py::arg("tolerance"), py::arg("floor") = 1e-9);
  m.def("steady_state", &harness::steady_state, py::arg("expression"), py::arg("expected"), py::arg("tolerance"),
        py::arg("window"));
  m.def("relation", &relation, py::arg("lhs"), py::arg("rhs"), py::arg("tolerance"), py::arg("floor") = 1e-9);
  m.def("bound", &bound, py::arg("expression"), py::arg("lower"), py::arg("upper"), py::arg("tolerance"));
  m.def("sign", static_cast<Check (*)(const Expr&, int, double)>(&harness::sign), py::arg("expression"), py::arg("direction"), py::arg("tolerance"));
  m.def("monotonic", &monotonic, py::arg("expression"), py::arg("direction"), py::arg("t0"), py::arg("t1"),
        py::arg("tolerance"));
  m.def("power_balance", &power_balance, py::arg("powers"), py::arg("tolerance"), py::arg("floor") = 1e-9);

  py::class_<Rig>(m, "Rig")
      .def_property_readonly("name", &Rig::name)
      .def_property_readonly("description", &Rig::description)
      .def("_model", &Rig::model, py::return_value_policy::reference_internal)
      .def("check", &Rig::check, py::arg("check"), py::return_value_policy::reference_internal)
      .def("expect_connectors", &Rig::expect_connectors, py::arg("component"), py::arg("connectors"),
           py::return_value_policy::reference_internal)
      .def("energy_balance", &Rig::energy_balance, py::arg("tolerance"), py::return_value_policy::reference_internal);

  py::class_<ChecklistReport>(m, "ChecklistReport")
      .def_readonly("name", &ChecklistReport::name)
      .def_readonly("title", &ChecklistReport::title)
      .def_readonly("checks", &ChecklistReport::checks)
      .def_property_readonly("passed", &ChecklistReport::passed)
      .def_property_readonly("failures", &ChecklistReport::failures)
      .def("write", &ChecklistReport::write, py::arg("directory"))
      .def("markdown", &ChecklistReport::markdown)
      .def("json", &ChecklistReport::json);

  py::class_<Checklist>(m, "Checklist")
      .def(py::init<std::string, std::string>(), py::arg("name"), py::arg("title"))
      .def_property_readonly("name", &Checklist::name)
      .def("_rig",
           [](Checklist& list, const std::string& name, const std::string& description, double t_end,
              double output_interval, double rtol, double atol) -> Rig& {
             return list.rig(name, description, options(t_end, output_interval, rtol, atol));
           },
           py::arg("name"), py::arg("description"), py::arg("t_end"), py::arg("output_interval"), py::arg("rtol"),
           py::arg("atol"), py::return_value_policy::reference_internal)
      .def("run", [](Checklist& list) {
        py::gil_scoped_release release;
        return list.run();
      });

  // Drive cycles: the car, cycle and driver built together, and the run's report as a dict.
  py::class_<CycleTest, std::shared_ptr<CycleTest>>(m, "CycleTest")
      .def_property_readonly("car", [](CycleTest& t) -> Component& { return t.car; }, py::return_value_policy::reference)
      .def_property_readonly("cycle", [](CycleTest& t) -> Component& { return t.cycle; },
                             py::return_value_policy::reference)
      .def_property_readonly("driver", [](CycleTest& t) -> Component& { return t.driver; },
                             py::return_value_policy::reference)
      .def_property_readonly("duration", [](const CycleTest& t) { return t.cycle.duration; });
  m.def("cycle_test", [](Model& model, const std::string& cycle, bool automatic) {
    return std::make_shared<CycleTest>(
        cycle_test(model, cycle, automatic ? Transmission::automatic : Transmission::manual));
  }, py::arg("model"), py::arg("cycle") = "wltc3b", py::arg("automatic") = false, py::keep_alive<0, 1>());
  m.def("cycle_report", [](const Result& r, const CycleTest& test, double co2_per_fuel) {
    const CycleReport report = cycle_report(r, test, co2_per_fuel);
    py::dict split, d;
    for (const auto& [name, value] : report.energy_split) split[py::str(name)] = value;
    d["cycle"] = report.cycle;
    d["duration_s"] = report.duration;
    d["distance_km"] = report.distance;
    d["fuel_kg"] = report.fuel;
    d["fuel_l_per_100km"] = report.fuel_per_100km;
    d["co2_g_per_km"] = report.co2;
    d["fuel_energy_MJ"] = report.fuel_energy;
    d["positive_tractive_energy_kJ_per_km"] = report.positive_tractive_energy;
    d["energy_split_MJ"] = split;
    d["split_closure"] = report.split_closure;
    d["within_band"] = report.band.inside();
    d["worst_band_excursion_kmh"] = 3.6 * report.band.worst_excursion;
    d["worst_band_time_s"] = report.band.worst_time;
    d["line"] = report.line();
    return d;
  }, py::arg("result"), py::arg("test"), py::arg("co2_per_fuel") = 3.17);
  py::class_<ElectricCycleTest, std::shared_ptr<ElectricCycleTest>>(m, "ElectricCycleTest")
      .def_property_readonly("car", [](ElectricCycleTest& t) -> Component& { return t.car; },
                             py::return_value_policy::reference)
      .def_property_readonly("cycle", [](ElectricCycleTest& t) -> Component& { return t.cycle; },
                             py::return_value_policy::reference)
      .def_property_readonly("driver", [](ElectricCycleTest& t) -> Component& { return t.driver; },
                             py::return_value_policy::reference)
      .def_property_readonly("duration", [](const ElectricCycleTest& t) { return t.cycle.duration; });
  m.def("electric_cycle_test", [](Model& model, const std::string& cycle) {
    return std::make_shared<ElectricCycleTest>(electric_cycle_test(model, cycle));
  }, py::arg("model"), py::arg("cycle") = "wltc3b", py::keep_alive<0, 1>(),
        "The BatteryElectricCar ('car') driven by a CycleDriver ('driver') along a shipped DriveCycle ('cycle'), "
        "with energy books on every part.");
  m.def("cycle_report", [](const Result& r, const ElectricCycleTest& test) {
    const ElectricCycleReport report = cycle_report(r, test);
    py::dict split, d;
    for (const auto& [name, value] : report.energy_split) split[py::str(name)] = value;
    d["cycle"] = report.cycle;
    d["duration_s"] = report.duration;
    d["distance_km"] = report.distance;
    d["cells_energy_kWh"] = report.cells_energy;
    d["battery_energy_kWh"] = report.battery_energy;
    d["consumption_kWh_per_100km"] = report.consumption;
    d["wheel_consumption_kWh_per_100km"] = report.wheel_consumption;
    d["regenerated_kWh"] = report.regenerated;
    d["regen_share"] = report.regen_share;
    d["range_km"] = report.range;
    d["energy_split_kWh"] = split;
    d["split_closure"] = report.split_closure;
    d["within_band"] = report.band.inside();
    d["worst_band_excursion_kmh"] = 3.6 * report.band.worst_excursion;
    d["worst_band_time_s"] = report.band.worst_time;
    d["line"] = report.line();
    return d;
  }, py::arg("result"), py::arg("test"));
  // Handling maneuvers (harness/handling.hpp): the car, its robot or path follower and driver built together;
  // the figures each standard reads from the run.
  m.def("build_maneuver",
        [](Model& model, double v0, bool esc, bool abs, bool hold_speed, double hold_speed_until, const py::dict& robot,
           double brake_pedal, double brake_start, std::vector<std::pair<double, double>> path) -> Component& {
          Maneuver maneuver;
          maneuver.v0 = v0;
          maneuver.options.esc = esc;
          maneuver.options.abs = abs;
          maneuver.hold_speed = hold_speed;
          maneuver.hold_speed_until = hold_speed_until;
          maneuver.robot = robot_parameters(robot);
          maneuver.brake_pedal = brake_pedal;
          maneuver.brake_start = brake_start;
          maneuver.path = std::move(path);
          return build_maneuver(model, maneuver);
        },
        py::arg("model"), py::arg("v0") = 80.0 / 3.6, py::arg("esc") = false, py::arg("abs") = false,
        py::arg("hold_speed") = false, py::arg("hold_speed_until") = std::numeric_limits<double>::infinity(),
        py::arg("robot") = py::dict(), py::arg("brake_pedal") = 0.0, py::arg("brake_start") = 0.0,
        py::arg("path") = std::vector<std::pair<double, double>>{}, py::return_value_policy::reference,
        py::keep_alive<0, 1>(),
        "Builds a handling maneuver into `model` and returns the car, a vehicle.PlanarCar named \"car\" (abs, esc "
        "its options) rolling straight ahead at v0 [m/s] in gear, clutch engaged. The steering wheel follows a "
        "SteeringRobot \"robot\" with the parameters in `robot` (angles at the steering wheel; profile by name), or, "
        "with `path` ((x, y) points [m]), a PathFollower \"follower\" through the steering ratio 16. hold_speed: a "
        "DriverController \"driver\" holds v0 with the throttle until hold_speed_until [s], then the throttle closes; "
        "otherwise the throttle stays closed (coasting). The brake pedal steps to brake_pedal (0..1) at brake_start.");
  m.def("split_mu_road",
        [](Component& car, double mu_left, double mu_right) { split_mu_road(planar_car(car), mu_left, mu_right); },
        py::arg("car"), py::arg("mu_left"), py::arg("mu_right"),
        "Splits a PlanarCar's road down the centre line y = 0: mu_left under y > 0, mu_right under y < 0 (a 2 cm "
        "blend). Call before compiling.");
  m.def("understeer_gradient", &understeer_gradient, py::arg("result"), py::arg("L"), py::arg("a_low"),
        py::arg("a_high"), py::arg("car") = "car",
        "ISO 4138: the understeer gradient d(delta)/d(a_y) - L/v^2 [rad/(m/s2)] of a slowly increasing steer, delta "
        "the mean road-wheel angle, fitted by least squares over a_y in [a_low, a_high] [m/s2]; L the wheelbase [m].");
  m.def("steer_for_lateral_acceleration", &steer_for_lateral_acceleration, py::arg("result"), py::arg("a_y"),
        py::arg("a_low"), py::arg("a_high"), py::arg("car") = "car",
        "The steering-wheel angle [rad] at which a slowly increasing steer reaches a_y, by the least-squares line "
        "over a_y in [a_low, a_high] (FMVSS 126's A at 0.3 g: a_y = 0.3 * 9.81).");
  m.def("step_steer_figures",
        [](const Result& r, double amplitude, const std::string& car, const std::string& robot) {
          const StepSteerFigures f = step_steer_figures(r, amplitude, car, robot);
          py::dict d;
          d["response_time"] = f.response_time;
          d["peak_response_time"] = f.peak_response_time;
          d["overshoot"] = f.overshoot;
          d["steady_gain"] = f.steady_gain;
          d["steady_yaw_rate"] = f.steady_yaw_rate;
          return d;
        },
        py::arg("result"), py::arg("amplitude"), py::arg("car") = "car", py::arg("robot") = "robot",
        "ISO 7401 step steer figures of the yaw rate as a dict: response_time (from 50 % of the steer to 90 % of the "
        "steady yaw rate) and peak_response_time [s], overshoot ((peak - steady)/steady), steady_gain (steady yaw "
        "rate per steering-wheel angle, 1/s) and steady_yaw_rate (mean over the last second, rad/s). amplitude: the "
        "robot's steering-wheel step [rad].");
  m.def("sine_with_dwell_figures",
        [](const Result& r, double start_time, double frequency, double dwell, const std::string& car) {
          const SineWithDwellFigures f = sine_with_dwell_figures(r, start_time, frequency, dwell, car);
          py::dict d;
          d["peak_yaw_rate"] = f.peak_yaw_rate;
          d["ratio_1_00"] = f.ratio_1_00;
          d["ratio_1_75"] = f.ratio_1_75;
          d["lateral_displacement"] = f.lateral_displacement;
          d["stable"] = f.stable();
          d["responsive"] = f.responsive();
          return d;
        },
        py::arg("result"), py::arg("start_time"), py::arg("frequency") = 0.7, py::arg("dwell") = 0.5,
        py::arg("car") = "car",
        "FMVSS 126 sine-with-dwell figures as a dict: peak_yaw_rate (the first peak after the steer reverses, "
        "rad/s), ratio_1_00 and ratio_1_75 (the yaw rate 1.0 s and 1.75 s after the steer completes, over the "
        "peak), lateral_displacement (of the CG 1.07 s after the steer begins, m); stable (ratios at most 0.35 and "
        "0.20) and responsive (displacement at least 1.83 m). start_time: the robot's start_time [s].");
  m.def("iso3888_2_lanes",
        [](double car_width, double x0) {
          std::vector<std::tuple<double, double, double, double>> lanes;
          for (const Lane& l : iso3888_2_lanes(car_width, x0))
            lanes.emplace_back(l.x_start, l.x_end, l.y_centre, l.width);
          return lanes;
        },
        py::arg("car_width") = 1.8, py::arg("x0") = 15.0,
        "The ISO 3888-2 double lane change's three coned lanes for a car car_width [m] wide, the entry gate at x0, "
        "as (x_start, x_end, y_centre, width) [m]: entry 12 m long, 1.1*w + 0.25 wide; side lane 13.5 m on, 11 m, "
        "w + 1 wide, 1 m left of the entry lane; exit lane 12.5 m on, 12 m, 1.3*w + 0.25 but at least 3 m wide.");
  m.def("lane_centre_line",
        [](const std::vector<std::tuple<double, double, double, double>>& lanes, double run_out, double step) {
          std::vector<Lane> l;
          for (const auto& [x_start, x_end, y_centre, width] : lanes) l.push_back({x_start, x_end, y_centre, width});
          return lane_centre_line(l, run_out, step);
        },
        py::arg("lanes"), py::arg("run_out") = 40.0, py::arg("step") = 0.5,
        "The lanes' centre line as (x, y) points every `step` m from x = 0 to run_out past the last lane: straight "
        "along each lane, half a cosine between them (a path for build_maneuver or a PathFollower).");
  m.def("checklist_names", &checklist_names);
  m.def("checklist", &checklist, py::arg("name"));

  // Rigs: the parts come back by name.
  m.def("wheel_rig",
        [](Model& model, Connector* axle, Connector* contact, double torque, double N, double mass, double v0) {
          auto* flange = dynamic_cast<rotational::Flange*>(axle);
          auto* wheel_contact = dynamic_cast<vehicle::WheelContact*>(contact);
          WheelRig rig = wheel_rig(model, connector_of(flange, "rotational.Flange axle"),
                                   connector_of(wheel_contact, "vehicle.WheelContact contact"), torque, N, mass, v0);
          return parts({{"torque", &rig.torque}, {"body", &rig.body}, {"load", &rig.load}});
        },
        py::arg("model"), py::arg("axle"), py::arg("contact"), py::arg("torque"), py::arg("N"), py::arg("mass"),
        py::arg("v0") = 0.0);
  m.def("body_rig",
        [](Model& model, Connector* front, Connector* rear, double f_front, double f_rear) {
          auto* a = dynamic_cast<vehicle::WheelContact*>(front);
          auto* b = dynamic_cast<vehicle::WheelContact*>(rear);
          BodyRig rig = body_rig(model, connector_of(a, "vehicle.WheelContact front"),
                                 connector_of(b, "vehicle.WheelContact rear"), f_front, f_rear);
          return parts({{"force_front", &rig.force_front}, {"force_rear", &rig.force_rear}});
        },
        py::arg("model"), py::arg("front"), py::arg("rear"), py::arg("f_front"), py::arg("f_rear"));
  m.def("rotational_rig",
        [](Model& model, Connector* input, Connector* output, double torque, double J_in, double J_out,
           double d_load) {
          auto* a = dynamic_cast<rotational::Flange*>(input);
          auto* b = dynamic_cast<rotational::Flange*>(output);
          RotationalRig rig = rotational_rig(model, connector_of(a, "rotational.Flange input"),
                                             connector_of(b, "rotational.Flange output"), torque, J_in, J_out, d_load);
          return parts({{"source", &rig.source}, {"input", &rig.input}, {"output", &rig.output}, {"load", &rig.load}});
        },
        py::arg("model"), py::arg("input"), py::arg("output"), py::arg("torque"), py::arg("J_in") = 0.1,
        py::arg("J_out") = 1.0, py::arg("d_load") = 1.0);
}
