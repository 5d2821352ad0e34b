// Linearization from Python: the C++ results as NumPy arrays; the plots and
// tables on top of them live in acausal/analysis.py.
#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <acausal/acausal.hpp>

namespace py = pybind11;
using namespace acausal;

namespace {

py::array_t<double> to_numpy(const DenseMatrix& a) {
  py::array_t<double> out({a.rows, a.cols});
  std::copy(a.values.begin(), a.values.end(), out.mutable_data());
  return out;
}

}  // namespace

void bind_analysis(py::module_& m) {
  py::class_<LinearModel>(m, "LinearModel",
                          "dx/dt = A x + B u, y = C x + D u in deviations from the operating point; states as index "
                          "reduction chose them.")
      .def_property_readonly("A", [](const LinearModel& l) { return to_numpy(l.A); })
      .def_property_readonly("B", [](const LinearModel& l) { return to_numpy(l.B); })
      .def_property_readonly("C", [](const LinearModel& l) { return to_numpy(l.C); })
      .def_property_readonly("D", [](const LinearModel& l) { return to_numpy(l.D); })
      .def_readonly("states", &LinearModel::states)
      .def_readonly("inputs", &LinearModel::inputs)
      .def_readonly("outputs", &LinearModel::outputs)
      .def_readonly("time", &LinearModel::time)
      .def("_modes", [](const LinearModel& l, int dominant, double relative, double absolute) {
        py::list rows;
        for (const auto& mode : modes(l, dominant, ModeTolerance{relative, absolute}))
          rows.append(py::dict(py::arg("eigenvalue") = mode.eigenvalue,
                               py::arg("kind") = std::string(to_string(mode.kind)),
                               py::arg("unstable") = mode.unstable,
                               py::arg("computed") = mode.computed,
                               py::arg("natural_frequency") = mode.natural_frequency,
                               py::arg("frequency_hz") = mode.frequency_hz,
                               py::arg("damping_ratio") = mode.damping_ratio,
                               py::arg("time_constant") = mode.time_constant,
                               py::arg("dominant_states") = mode.dominant_states));
        return rows;
      }, py::arg("dominant_states") = 3, py::arg("relative_tolerance") = ModeTolerance{}.relative,
         py::arg("absolute_tolerance") = ModeTolerance{}.absolute);
  py::class_<OperatingPoint>(m, "OperatingPoint", "The values of one instant of a model: a row of a run or a steady state.")
      .def_readonly("time", &OperatingPoint::time);
  m.def("_point", &Result::point, py::arg("result"), py::arg("t"));
  m.def("_values_at", &values_at, py::arg("simulator"), py::arg("point"), py::arg("names"));
  m.def("_linearize_point", [](const Simulator& s, const OperatingPoint& p, const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs) { return linearize(s, p, inputs, outputs); },
        py::arg("simulator"), py::arg("point"), py::arg("inputs") = std::vector<std::string>{},
        py::arg("outputs") = std::vector<std::string>{});
  py::class_<SteadyState>(m, "_SteadyState")
      .def_readonly("point", &SteadyState::point)
      .def_readonly("free_values", &SteadyState::free_values)
      .def_readonly("moving", &SteadyState::moving)
      .def_readonly("iterations", &SteadyState::iterations)
      .def_readonly("residual", &SteadyState::residual);
  m.def("_steady_state", [](const Simulator& s, const OperatingPoint& guess, const std::vector<std::string>& free,
                            const std::vector<std::pair<std::string, double>>& conditions,
                            const std::vector<std::string>& moving, double tolerance, int max_iterations) {
    SteadyStateOptions o{free, conditions, moving, tolerance, max_iterations};
    py::gil_scoped_release release;
    return steady_state(s, guess, o);
  }, py::arg("simulator"), py::arg("guess"), py::arg("free") = std::vector<std::string>{},
     py::arg("conditions") = std::vector<std::pair<std::string, double>>{},
     py::arg("moving") = std::vector<std::string>{}, py::arg("tolerance") = SteadyStateOptions{}.tolerance,
     py::arg("max_iterations") = SteadyStateOptions{}.max_iterations);
  m.def("_linearize_result", [](const Result& r, double t, const std::vector<std::string>& inputs,
                                const std::vector<std::string>& outputs) {
    py::gil_scoped_release release;
    return linearize(r, t, inputs, outputs);
  }, py::arg("result"), py::arg("t"), py::arg("inputs") = std::vector<std::string>{},
     py::arg("outputs") = std::vector<std::string>{});
}
