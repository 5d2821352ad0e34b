// Bindings of the off-road library (issue 38): soils as data (vehicle::Soil,
// the shipped table data/soils/soils.csv and the table reader) and the
// component-specific calls the X-list cannot reach: set_soil on the soil
// contacts and the Tractor, guess_sinkage on a SoftSoilWheel. The pure-Python
// wrappers are in acausal/vehicle.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <acausal/acausal.hpp>
#include <acausal/components/library.hpp>

#include <cmath>
#include <string>

namespace py = pybind11;
using namespace acausal;

namespace {

std::string soil_repr(const vehicle::Soil& s) {
  const double deg = 180.0 / 3.14159265358979323846;
  return "Soil(name='" + s.name + "', n=" + py::repr(py::float_(s.n)).cast<std::string>() +
         ", k_c=" + py::repr(py::float_(s.k_c)).cast<std::string>() +
         ", k_phi=" + py::repr(py::float_(s.k_phi)).cast<std::string>() +
         ", c=" + py::repr(py::float_(s.c)).cast<std::string>() +
         ", phi=" + py::repr(py::float_(s.phi)).cast<std::string>() + " (" +
         py::repr(py::float_(std::round(s.phi * deg * 1e6) / 1e6)).cast<std::string>() +
         " deg), K=" + py::repr(py::float_(s.K)).cast<std::string>() + ")";
}

}  // namespace

void bind_terrain(py::module_& m) {
  py::class_<vehicle::Soil>(m, "Soil",
                            "A soil's terramechanics parameters in SI units (Bekker n, k_c [N/m^(n+1)], k_phi "
                            "[N/m^(n+2)]; Mohr-Coulomb c [Pa], phi [rad]; Janosi K [m]; Wong-Reece c1, c2; Reece's "
                            "k_c_reece, k_phi_reece, gamma_s [N/m3], NaN when absent). vehicle.soil(name) gives a "
                            "shipped one; the default is dry sand.")
      .def(py::init<>())
      .def_readwrite("name", &vehicle::Soil::name)
      .def_readwrite("moisture", &vehicle::Soil::moisture, "moisture content [%] (NaN when the source gives none)")
      .def_readwrite("n", &vehicle::Soil::n, "sinkage exponent [-]")
      .def_readwrite("k_c", &vehicle::Soil::k_c, "cohesive modulus [N/m^(n+1)]")
      .def_readwrite("k_phi", &vehicle::Soil::k_phi, "frictional modulus [N/m^(n+2)]")
      .def_readwrite("c", &vehicle::Soil::c, "cohesion [Pa]")
      .def_readwrite("phi", &vehicle::Soil::phi, "angle of internal shearing resistance [rad]")
      .def_readwrite("K", &vehicle::Soil::K, "Janosi shear deformation modulus [m]")
      .def_readwrite("c1", &vehicle::Soil::c1, "Wong-Reece: theta_m = (c1 + c2*slip)*theta_1")
      .def_readwrite("c2", &vehicle::Soil::c2, "Wong-Reece: theta_m = (c1 + c2*slip)*theta_1")
      .def_readwrite("k_c_reece", &vehicle::Soil::k_c_reece, "Reece's k'_c [-] (NaN when absent)")
      .def_readwrite("k_phi_reece", &vehicle::Soil::k_phi_reece, "Reece's k'_phi [-] (NaN when absent)")
      .def_readwrite("gamma_s", &vehicle::Soil::gamma_s, "unit weight for Reece's law [N/m3] (NaN when absent)")
      .def_readwrite("source", &vehicle::Soil::source, "key of the row's source in data/soils/SOURCE.md")
      .def("has_reece", &vehicle::Soil::has_reece, "Reece's moduli and the unit weight are all given.")
      .def("modulus", &vehicle::Soil::modulus, py::arg("b"),
           "Bekker's sinkage modulus k_c/b + k_phi of a plate or wheel of width b [m].")
      .def("plate_sinkage", &vehicle::Soil::plate_sinkage, py::arg("p"), py::arg("b"),
           "Sinkage [m] of a plate of width b [m] under the pressure p [Pa]: (p/(k_c/b + k_phi))^(1/n).")
      .def("plate_pressure", &vehicle::Soil::plate_pressure, py::arg("z"), py::arg("b"),
           "Pressure [Pa] under a plate of width b [m] sunk z [m]: (k_c/b + k_phi)*z^n.")
      .def("parameters", [](const vehicle::Soil& s, bool wheel) {
             py::dict values;
             for (const auto& [name, value] : s.parameters(wheel)) values[py::str(name)] = value;
             return values;
           },
           py::arg("wheel") = false,
           "The soil as keyword parameters of SoftSoilWheel (wheel=True: with c1, c2), SoilTrack or SoilPlate: "
           "vehicle.SoftSoilWheel('w', radius=0.8, **soil.parameters(wheel=True)).")
      .def("__repr__", &soil_repr);

  m.def("soil", &vehicle::soil, py::arg("name"),
        "A shipped soil by name (soil_names()); a ModelError listing them for an unknown one.");
  m.def("soil_names", &vehicle::soil_names, "The names of the shipped soils (data/soils/soils.csv), in its order.");
  m.def("soil_table_file", &vehicle::soil_table_file, "The path of the shipped soil table.");
  m.def("read_soil_table", &vehicle::read_soil_table, py::arg("path"),
        "The soils of a table file (CSV, format in docs/terrain.md); a ModelError 'path:line: ...' for a mistake.");
  m.def("read_soil", &vehicle::read_soil, py::arg("path"), py::arg("name"), "The soil `name` of a table file.");

  m.def("_set_soil", [](Component& c, const vehicle::Soil& soil) {
    if (auto* tractor = dynamic_cast<vehicle::Tractor*>(&c)) return tractor->set_soil(soil);
    if (auto* contact = dynamic_cast<vehicle::PartialSoilContact*>(&c)) return contact->set_soil(soil);
    throw ModelError("component '" + c.name() +
                     "' is not a vehicle.SoftSoilWheel, SoilTrack, SoilPlate or Tractor (it has no soil)");
  }, py::arg("component"), py::arg("soil"));
  m.def("_add_soil_patch_wheel", [](Component& parent, const std::string& name,
                                    const std::vector<std::pair<double, vehicle::Soil>>& patches, double blend_length,
                                    int points, const ParameterValues& values) -> Component& {
    std::vector<vehicle::SoilPatch> list;
    for (const auto& [s_from, soil] : patches) list.push_back({s_from, soil});
    return parent.add<vehicle::SoilPatchWheel>(name, values, list, blend_length, points);
  }, py::arg("parent"), py::arg("name"), py::arg("patches"), py::arg("blend_length"), py::arg("points"),
        py::arg("parameters"), py::return_value_policy::reference);
  m.def("_guess_sinkage", [](Component& c, double load) {
    auto* wheel = dynamic_cast<vehicle::SoftSoilWheel*>(&c);
    if (!wheel) throw ModelError("component '" + c.name() + "' is not a vehicle.SoftSoilWheel");
    wheel->guess_sinkage(load);
  }, py::arg("component"), py::arg("load"));
  m.def("_set_tractor_initial_speed", [](Component& c, double v0, double slip_rear) {
    if (auto* tractor = dynamic_cast<vehicle::TractorOf<vehicle::SoftSoilWheel>*>(&c))
      return tractor->set_initial_speed(v0, slip_rear);
    if (auto* tractor = dynamic_cast<vehicle::TractorOf<vehicle::Wheel>*>(&c))
      return tractor->set_initial_speed(v0, slip_rear);
    throw ModelError("component '" + c.name() + "' is not a vehicle.Tractor or RoadTractor");
  }, py::arg("component"), py::arg("v0"), py::arg("slip_rear"));
  m.def("_is_tractor", [](Component& c) {
    return dynamic_cast<vehicle::TractorOf<vehicle::SoftSoilWheel>*>(&c) != nullptr ||
           dynamic_cast<vehicle::TractorOf<vehicle::Wheel>*>(&c) != nullptr;
  }, py::arg("component"));
}
