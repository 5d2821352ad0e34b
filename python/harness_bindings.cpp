// Bindings of the harness: checks, rigs, checklists and reports. The
// Python-facing wrappers (keeping Python-defined components alive, plots)
// live in acausal/harness.py.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <acausal/acausal.hpp>
#include <acausal/harness/checklists.hpp>
#include <acausal/harness/cycle.hpp>
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
  m.def("cycle_test", [](Model& model, const std::string& cycle) {
    return std::make_shared<CycleTest>(cycle_test(model, cycle));
  }, py::arg("model"), py::arg("cycle") = "wltc3b", py::keep_alive<0, 1>());
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
