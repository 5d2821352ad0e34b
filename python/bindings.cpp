// Thin pybind11 bindings: the modeling API, the component library, results.
// Everything that is not a translation of the C++ API lives in Python.
#include <pybind11/eval.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <acausal/acausal.hpp>
#include <acausal/components/library.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <functional>
#include <limits>
#include <map>
#include <type_traits>

#include "introspection.hpp"

namespace py = pybind11;
using namespace acausal;

namespace {

// Library components by Python name: how to add one, and a default-built one
// whose declarations tell Python its parameters, connectors and equations.
struct LibraryEntry {
  std::function<Component&(Component&, const std::string&, const ParameterValues&)> add;
  std::function<std::unique_ptr<Component>()> probe;
  std::vector<std::string> options;  // build-time equipment taken as keywords beside the parameters
};

std::map<std::string, LibraryEntry>& library() {
  static std::map<std::string, LibraryEntry> entries;
  return entries;
}

template <class T>
void register_component(const std::string& key) {
  library()[key] = {
      [](Component& parent, const std::string& name, const ParameterValues& values) -> Component& {
        return parent.add<T>(name, values);
      },
      [] { return std::make_unique<T>("probe"); }};
}

// The build options given as keyword arguments beside a component's
// parameters (`options` by name), and the parameters left.
std::pair<std::map<std::string, double>, ParameterValues> split_options(const ParameterValues& values,
                                                                         const std::vector<std::string>& options) {
  std::map<std::string, double> chosen;
  ParameterValues parameters;
  for (const auto& [k, v] : values) {
    if (std::find(options.begin(), options.end(), k) != options.end())
      chosen[k] = v;
    else
      parameters.emplace_back(k, v);
  }
  return {chosen, parameters};
}

// A car takes its equipment (vehicle::CarOptions) as keyword arguments beside
// its parameters: RearDriveCar("car", abs=True, half_shaft_stiffness=8000).
template <class Car>
void register_car(const std::string& key) {
  static const std::vector<std::string> names{"abs", "esc", "half_shaft_stiffness", "half_shaft_damping"};
  library()[key] = {
      [](Component& parent, const std::string& name, const ParameterValues& values) -> Component& {
        const auto [chosen, parameters] = split_options(values, names);
        vehicle::CarOptions options;
        for (const auto& [k, v] : chosen) {
          if (k == "abs") options.abs = v != 0.0;
          else if (k == "esc") options.esc = v != 0.0;
          else if (k == "half_shaft_stiffness") options.half_shaft_stiffness = v;
          else options.half_shaft_damping = v;
        }
        return parent.add<Car>(name, parameters, options);
      },
      [] { return std::make_unique<Car>("probe"); },
      names};
}

// A block whose number of inputs (or of table instants) is fixed when it is
// built takes it as a keyword beside its parameters: MultiAnd("and1", nu=3),
// BooleanTable("table", n=4, table_1=2, ...).
template <class Block>
void register_sized(const std::string& key, const std::string& option) {
  library()[key] = {
      [key, option](Component& parent, const std::string& name, const ParameterValues& values) -> Component& {
        const auto [chosen, parameters] = split_options(values, {option});
        int size = 2;
        if (auto given = chosen.find(option); given != chosen.end()) {
          const double v = given->second;
          if (!(v >= 1 && v <= 10000 && v == std::floor(v)))
            throw ModelError(fmt::format("{}('{}'): {} = {} must be a whole number from 1 to 10000", key, name,
                                         option, format_number(v)));
          size = static_cast<int>(v);
        }
        if constexpr (std::is_same_v<Block, blocks::BooleanTable>) {
          std::vector<double> instants;
          for (int i = 1; i <= size; ++i) instants.push_back(i);  // placeholders the table_i parameters replace
          return parent.add<Block>(name, parameters, instants);
        } else {
          return parent.add<Block>(name, parameters, size);
        }
      },
      [] { return std::make_unique<Block>("probe"); },
      {option}};
}

// Connector kinds creatable from Python components.
std::map<std::string, std::function<std::unique_ptr<Connector>(Component&, const std::string&)>>& connector_kinds() {
  static std::map<std::string, std::function<std::unique_ptr<Connector>(Component&, const std::string&)>> kinds;
  return kinds;
}

template <class C>
void register_connector(const std::string& key) {
  connector_kinds()[key] = [](Component& owner, const std::string& name) { return std::make_unique<C>(owner, name); };
}

py::object attribute(Component& c, const std::string& name) {
  for (Connector* k : c.connectors())
    if (k->name() == name) return py::cast(k, py::return_value_policy::reference);
  for (const auto& v : c.variables())
    if (v.name == name) return py::cast(python::variable_symbol(c, v));
  for (const auto& p : c.parameters())
    if (p.name == name) return py::cast(python::parameter_symbol(c, p));
  for (const auto& d : c.discretes())
    if (d.name == name) return py::cast(python::discrete_symbol(c, d));
  if (Component* child = c.child(name)) return py::cast(child, py::return_value_policy::reference);
  throw py::attribute_error("component '" + c.name() +
                            "' has no connector, variable, parameter, discrete variable or component '" + name + "'");
}

Expr signal_value(const Connector& k) {
  if (k.members().size() != 1 || !k.members()[0].name.empty())
    throw py::type_error("connector " + k.path() + " is not a signal; use its members (e.g. ." +
                         (k.members().empty() ? std::string("phi") : k.members()[0].name) + ")");
  return python::member_symbol(k, k.members()[0]);
}

// Ctrl-C during simulate(): Python runs its SIGINT handler only when the run
// gives the interpreter back, so the run installs its own, which asks the
// integrator to stop (SimulationOptions::interrupt).
std::atomic<bool> sigint_received{false};
extern "C" void on_sigint(int) { sigint_received.store(true, std::memory_order_relaxed); }

// Only where Python itself would raise KeyboardInterrupt: on the main thread,
// with the default handler in place (not when the user ignores or handles SIGINT).
bool interruptible() {
  py::module_ threading = py::module_::import("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return false;
  py::module_ signal = py::module_::import("signal");
  return signal.attr("getsignal")(signal.attr("SIGINT")).is(signal.attr("default_int_handler"));
}

[[noreturn]] void raise_keyboard_interrupt(const std::string& message, const Result& partial) {
  py::object error = py::module_::import("builtins").attr("KeyboardInterrupt")(message);
  error.attr("partial_result") = py::cast(partial);
  PyErr_SetObject(PyExc_KeyboardInterrupt, error.ptr());
  throw py::error_already_set();
}

SimulationOptions simulation_options(std::optional<double> t_end, double output_interval, double rtol, double atol,
                                     double t_start, const std::string& linear_solver, long max_steps, double max_step,
                                     bool exact_outputs, double max_output_bytes, double initial_step,
                                     std::vector<double> t_eval, int dense_threshold, double realtime_factor) {
  SimulationOptions o;
  o.t_end = t_end ? *t_end : t_eval.empty() ? 1.0 : t_eval.back();
  o.output_times = std::move(t_eval);
  o.initial_step = initial_step;
  o.dense_threshold = dense_threshold;
  o.output_interval = output_interval;
  o.rtol = rtol;
  o.atol = atol;
  o.t_start = t_start;
  o.max_steps = max_steps;
  o.max_step = max_step;
  o.exact_outputs = exact_outputs;
  o.max_output_bytes = max_output_bytes;
  o.realtime_factor = realtime_factor;
  if (linear_solver == "dense") o.linear_solver = LinearSolver::dense;
  else if (linear_solver == "klu") o.linear_solver = LinearSolver::klu;
  else if (linear_solver != "auto")
    throw ModelError("linear_solver must be 'auto', 'dense' or 'klu', not '" + linear_solver + "'");
  return o;
}

// While it lives (on the main thread, with Python's default handler in place),
// SIGINT sets sigint_received instead of waiting for the interpreter.
class SigintScope {
 public:
  SigintScope() : active_(interruptible()) {
    if (!active_) return;
    sigint_received.store(false);
    struct sigaction ours {};
    ours.sa_handler = on_sigint;
    sigemptyset(&ours.sa_mask);
    sigaction(SIGINT, &ours, &previous_);
  }
  ~SigintScope() {
    if (active_) sigaction(SIGINT, &previous_, nullptr);
  }
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;
  bool active() const { return active_; }
  bool interrupted() const { return active_ && sigint_received.load(); }

 private:
  bool active_;
  struct sigaction previous_ {};
};

Result simulate_interruptibly(const Simulator& s, SimulationOptions o) {
  SigintScope scope;
  if (scope.active()) o.interrupt = &sigint_received;
  Result result;
  try {
    py::gil_scoped_release release;
    result = s.simulate(o);
  } catch (const SimulationError& e) {
    if (!scope.interrupted()) throw;
    raise_keyboard_interrupt(e.what(), e.partial_result());
  }
  if (scope.interrupted()) raise_keyboard_interrupt("interrupted as the run ended", result);
  return result;
}

// A session's step, as simulate(): Ctrl-C stops it within a residual
// evaluation or a pacing slice (the session polls sigint_received, set at start()).
void advance_interruptibly(Session& session, double t) {
  SigintScope scope;
  try {
    py::gil_scoped_release release;
    session.advance(t);
  } catch (const SimulationError& e) {
    if (!scope.interrupted()) throw;
    raise_keyboard_interrupt(e.what(), e.partial_result());
  }
}

DiscreteKind discrete_kind(const Component& c, const std::string& name, const std::string& kind) {
  if (kind == "real") return DiscreteKind::real;
  if (kind == "boolean") return DiscreteKind::boolean;
  if (kind == "integer") return DiscreteKind::integer;
  throw ModelError("discrete variable '" + c.name() + "." + name +
                   "': kind must be 'real', 'boolean' or 'integer', not '" + kind + "'");
}

// The actions of a when-clause from Python: `x == value` (an Equation) or
// ac.reinit(state, value); a single action may stand without a list.
std::vector<WhenAction> when_actions(const Component& c, const py::handle& actions) {
  std::vector<WhenAction> result;
  auto add = [&](const py::handle& item) {
    if (py::isinstance<WhenAction>(item)) result.push_back(item.cast<WhenAction>());
    else if (py::isinstance<Equation>(item)) result.emplace_back(item.cast<const Equation&>());
    else
      throw ModelError("component '" + c.name() + "': a when-clause assigns discrete variables (x == value) or " +
                       "reinitializes states (ac.reinit(x, value)); " + py::repr(item).cast<std::string>() +
                       " is neither");
  };
  if (py::isinstance<WhenAction>(actions) || py::isinstance<Equation>(actions) ||
      !py::isinstance<py::iterable>(actions) || py::isinstance<py::str>(actions))
    add(actions);
  else
    for (const py::handle item : actions) add(item);
  return result;
}

// The conditions of a when-clause: one expression or a list of them (the clause
// acts when any becomes true).
std::vector<Expr> when_conditions(const Component& c, const py::handle& condition) {
  auto one = [&](const py::handle& item) {
    if (py::isinstance<Equation>(item)) {
      const auto& eq = item.cast<const Equation&>();
      throw ModelError("component '" + c.name() + "': the when-condition " + eq.lhs.str() + " == " + eq.rhs.str() +
                       " is an equation, not a condition; compare with ac.equal(a, b)");
    }
    try {
      return item.cast<Expr>();
    } catch (const py::cast_error&) {
      throw ModelError("component '" + c.name() + "': a when-condition is an expression (such as h < 0 or " +
                       "ac.sample(0, 0.1)) or a list of them, not " + py::repr(item).cast<std::string>());
    }
  };
  std::vector<Expr> conditions;
  if (py::isinstance<py::list>(condition) || py::isinstance<py::tuple>(condition))
    for (const py::handle item : condition) conditions.push_back(one(item));
  else
    conditions.push_back(one(condition));
  return conditions;
}

py::array_t<double> to_numpy(std::vector<double>&& values) {
  auto* owned = new std::vector<double>(std::move(values));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(owned->size(), owned->data(), free_when_done);
}

py::dict statistics_dict(const SolverStatistics& s) {
  py::dict d;
  d["steps"] = s.steps;
  d["residual_evaluations"] = s.residual_evaluations;
  d["jacobian_evaluations"] = s.jacobian_evaluations;
  d["nonlinear_iterations"] = s.nonlinear_iterations;
  d["nonlinear_convergence_failures"] = s.nonlinear_convergence_failures;
  d["error_test_failures"] = s.error_test_failures;
  d["restarts"] = s.restarts;
  d["reinitializations"] = s.reinitializations;
  d["root_evaluations"] = s.root_evaluations;
  d["root_functions"] = s.root_functions;
  d["unknowns"] = s.unknowns;
  d["linear_solver"] = s.linear_solver;
  d["initialization_seconds"] = s.initialization_seconds;
  d["integration_seconds"] = s.integration_seconds;
  d["exact_rows"] = s.exact_rows;
  d["exact_iterations"] = s.exact_iterations;
  d["exact_factorizations"] = s.exact_factorizations;
  d["inexact_rows"] = s.inexact_rows;
  d["exact_outputs_seconds"] = s.exact_outputs_seconds;
  return d;
}

py::list parameter_rows(const std::vector<ParameterInfo>& parameters) {
  py::list rows;
  for (const auto& p : parameters)
    rows.append(py::dict(py::arg("name") = p.name, py::arg("value") = p.value, py::arg("unit") = p.unit,
                         py::arg("min") = p.min, py::arg("max") = p.max, py::arg("description") = p.description,
                         py::arg("structural") = p.structural, py::arg("input") = p.input));
  return rows;
}

py::dict report_dict(const CompileReport& r) {
  py::dict d;
  py::list passes;
  for (const auto& p : r.passes) {
    py::dict pass;
    pass["pass"] = p.pass;
    pass["seconds"] = p.seconds;
    py::dict counts;
    for (const auto& [name, n] : p.counts) counts[py::str(name)] = n;
    pass["counts"] = counts;
    pass["notes"] = p.notes;
    passes.append(pass);
  }
  d["passes"] = passes;
  d["states"] = r.states;
  d["algebraic"] = r.algebraic;
  d["unit_errors"] = r.unit_errors;
  py::list warnings;
  for (const auto& w : r.warnings)
    warnings.append(py::dict(py::arg("kind") = w.kind, py::arg("component") = w.component,
                             py::arg("variable") = w.variable, py::arg("message") = w.message));
  d["warnings"] = warnings;
  return d;
}

}  // namespace

void bind_harness(py::module_& m);   // harness_bindings.cpp
void bind_analysis(py::module_& m);  // analysis_bindings.cpp
void bind_terrain(py::module_& m);   // terrain_bindings.cpp

using Points = std::vector<std::pair<double, double>>;

PYBIND11_MODULE(_acausal, m) {
  m.doc() = "acausal: equation-based component models compiled to a DAE and integrated with SUNDIALS IDA";

  auto model_error = py::register_exception<ModelError>(m, "ModelError", PyExc_ValueError);
  // A name the model does not have: a KeyError (r["x"] reads like a dict) and a ModelError (a mistake in a model).
  static py::object unknown_name_type = [&] {
    py::dict scope;
    scope["KeyError"] = py::module_::import("builtins").attr("KeyError");
    scope["ModelError"] = model_error;
    py::exec(R"(
class UnknownNameError(KeyError, ModelError):
    """A variable or parameter name the model does not have; .suggestions are the closest names it has."""
    __module__ = "acausal"

    def __str__(self):
        return str(self.args[0]) if self.args else ""
)", scope);
    m.attr("UnknownNameError") = scope["UnknownNameError"];
    return py::object(scope["UnknownNameError"]);
  }();
  static py::object simulation_error_type = [&] {
    py::object t = py::reinterpret_steal<py::object>(
        PyErr_NewException("acausal._acausal.SimulationError", PyExc_RuntimeError, nullptr));
    m.attr("SimulationError") = t;
    return t;
  }();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const UnknownNameError& e) {
      py::object error = unknown_name_type(e.what());
      error.attr("name") = e.name();
      error.attr("suggestions") = e.suggestions();
      PyErr_SetObject(unknown_name_type.ptr(), error.ptr());
    } catch (const SimulationError& e) {
      py::object error = simulation_error_type(e.what());
      error.attr("partial_result") = py::cast(e.partial_result());
      error.attr("time_reached") = e.time_reached();
      error.attr("return_code") = e.return_code();
      error.attr("solver_message") = e.solver_message();
      PyErr_SetObject(simulation_error_type.ptr(), error.ptr());
    }
  });

  // --- expressions ---
  py::class_<Expr> expr(m, "Expr");
  expr
      .def(py::init<double>(), py::arg("value"))
      .def(py::init([](const Connector& k) { return signal_value(k); }), py::arg("connector"))
      .def("__str__", &Expr::str)
      .def("__neg__", [](const Expr& a) { return -a; })
      .def("__pos__", [](const Expr& a) { return a; })
      .def("__abs__", [](const Expr& a) { return abs(a); })
      .def("__add__", [](const Expr& a, const Expr& b) { return a + b; }, py::is_operator())
      .def("__radd__", [](const Expr& a, double b) { return Expr(b) + a; }, py::is_operator())
      .def("__sub__", [](const Expr& a, const Expr& b) { return a - b; }, py::is_operator())
      .def("__rsub__", [](const Expr& a, double b) { return Expr(b) - a; }, py::is_operator())
      .def("__mul__", [](const Expr& a, const Expr& b) { return a * b; }, py::is_operator())
      .def("__rmul__", [](const Expr& a, double b) { return Expr(b) * a; }, py::is_operator())
      .def("__truediv__", [](const Expr& a, const Expr& b) { return a / b; }, py::is_operator())
      .def("__rtruediv__", [](const Expr& a, double b) { return Expr(b) / a; }, py::is_operator())
      .def("__pow__", [](const Expr& a, const Expr& b) { return pow(a, b); }, py::is_operator())
      .def("__rpow__", [](const Expr& a, double b) { return pow(Expr(b), a); }, py::is_operator())
      .def("__lt__", [](const Expr& a, const Expr& b) { return a < b; }, py::is_operator())
      .def("__le__", [](const Expr& a, const Expr& b) { return a <= b; }, py::is_operator())
      .def("__gt__", [](const Expr& a, const Expr& b) { return a > b; }, py::is_operator())
      .def("__ge__", [](const Expr& a, const Expr& b) { return a >= b; }, py::is_operator())
      .def("__eq__", [](const Expr& a, const Expr& b) { return a == b; }, py::is_operator())
      .def("__eq__", [](const Expr& a, double b) { return a == Expr(b); }, py::is_operator())
      .def("__bool__", [](const Expr&) -> bool {
        throw py::type_error("an acausal expression has no truth value; use ac.ifelse for conditions");
      });
  py::implicitly_convertible<double, Expr>();
  py::implicitly_convertible<int, Expr>();
  py::implicitly_convertible<Connector, Expr>();
  python::bind_introspection(m, expr);
  py::class_<Equation>(m, "Equation")
      .def_readonly("lhs", &Equation::lhs)
      .def_readonly("rhs", &Equation::rhs)
      .def("__repr__", [](const Equation& e) { return e.lhs.str() + " == " + e.rhs.str(); });

  m.def("der", [](const Expr& e) { return der(e); }, py::arg("e"));
  m.def("sqrt", [](const Expr& e) { return sqrt(e); }, py::arg("a"));
  m.def("exp", [](const Expr& e) { return exp(e); }, py::arg("a"));
  m.def("log", [](const Expr& e) { return log(e); }, py::arg("a"));
  m.def("sin", [](const Expr& e) { return sin(e); }, py::arg("a"));
  m.def("cos", [](const Expr& e) { return cos(e); }, py::arg("a"));
  m.def("tan", [](const Expr& e) { return tan(e); }, py::arg("a"));
  m.def("asin", [](const Expr& e) { return asin(e); }, py::arg("a"));
  m.def("acos", [](const Expr& e) { return acos(e); }, py::arg("a"));
  m.def("atan", [](const Expr& e) { return atan(e); }, py::arg("a"));
  m.def("sinh", [](const Expr& e) { return sinh(e); }, py::arg("a"));
  m.def("cosh", [](const Expr& e) { return cosh(e); }, py::arg("a"));
  m.def("tanh", [](const Expr& e) { return tanh(e); }, py::arg("a"));
  m.def("abs", [](const Expr& e) { return abs(e); }, py::arg("a"));
  m.def("sign", [](const Expr& e) { return sign(e); }, py::arg("a"));
  m.def("floor", [](const Expr& e) { return floor(e); }, py::arg("a"));
  m.def("atan2", [](const Expr& y, const Expr& x) { return atan2(y, x); }, py::arg("y"), py::arg("x"));
  m.def("min", [](const Expr& a, const Expr& b) { return min(a, b); }, py::arg("a"), py::arg("b"));
  m.def("max", [](const Expr& a, const Expr& b) { return max(a, b); }, py::arg("a"), py::arg("b"));
  m.def("ifelse", [](const Expr& c, const Expr& a, const Expr& b) { return ifelse(c, a, b); }, py::arg("condition"),
        py::arg("if_true"), py::arg("if_false"));
  m.def("no_event", [](const Expr& e) { return no_event(e); }, py::arg("e"));
  m.def("delay", [](const Expr& u, const Expr& delay_time) { return delay(u, delay_time); }, py::arg("u"),
        py::arg("delay_time"));
  m.attr("time") = time_symbol();
  // Tables in expressions: the choices by their MSL names.
  auto choice = [](const std::string& name, const std::vector<std::string>& names, const char* what) {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == name) return static_cast<int>(k);
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw ModelError(std::string(what) + " '" + name + "' is not one of " + known);
  };
  m.def("table", [choice](const Expr& x, std::vector<double> xs, std::vector<double> ys, const std::string& smoothness,
                          const std::string& extrapolation) {
    Table1D t{std::move(xs), std::move(ys),
              static_cast<TableSmoothness>(choice(smoothness, blocks::Smoothness::names, "smoothness")),
              static_cast<TableExtrapolation>(choice(extrapolation, blocks::Extrapolation::names, "extrapolation"))};
    check_table(t, "table");
    return table(x, t);
  }, py::arg("x"), py::arg("xs"), py::arg("ys"), py::arg("smoothness") = "LinearSegments",
     py::arg("extrapolation") = "HoldLastPoint");
  m.def("table2d", [choice](const Expr& u1, const Expr& u2, std::vector<double> grid1, std::vector<double> grid2,
                            const std::vector<std::vector<double>>& values, const std::string& extrapolation) {
    Table2D t{.u1 = std::move(grid1), .u2 = std::move(grid2),
              .extrapolation =
                  static_cast<TableExtrapolation>(choice(extrapolation, blocks::Extrapolation::names, "extrapolation"))};
    for (const auto& row : values) {
      if (row.size() != t.u2.size())
        throw ModelError("table2d: a row of values has " + std::to_string(row.size()) + " entries for " +
                         std::to_string(t.u2.size()) + " values of u2");
      t.y.insert(t.y.end(), row.begin(), row.end());
    }
    check_table(t, "table2d");
    return table(u1, u2, t);
  }, py::arg("u1"), py::arg("u2"), py::arg("u1_grid"), py::arg("u2_grid"), py::arg("values"),
     py::arg("extrapolation") = "HoldLastPoint");

  // --- hybrid models (Modelica semantics): operators and when-clause actions ---
  py::class_<WhenAction>(m, "WhenAction")
      .def(py::init<const Equation&>(), py::arg("assignment"))
      .def_readonly("target", &WhenAction::target)
      .def_readonly("value", &WhenAction::value)
      .def_readonly("reinit", &WhenAction::reinit)
      .def("__repr__", [](const WhenAction& a) {
        return a.reinit ? "reinit(" + a.target.str() + ", " + a.value.str() + ")"
                        : a.target.str() + " == " + a.value.str();
      });
  py::implicitly_convertible<Equation, WhenAction>();
  m.def("pre", [](const Expr& e) { return pre(e); }, py::arg("e"),
        "pre(e): e just before the event instant (each discrete variable in e at its value before the event).");
  m.def("edge", [](const Expr& b) { return edge(b); }, py::arg("b"), "edge(b) = b and not pre(b).");
  m.def("change", [](const Expr& x) { return change(x); }, py::arg("x"), "change(x) = x <> pre(x).");
  m.def("equal", [](const Expr& a, const Expr& b) { return equal(a, b); }, py::arg("a"), py::arg("b"),
        "a == b as a condition (exact: meant for discrete values).");
  m.def("initial", [] { return initial(); }, "True during initialization, false after.");
  m.def("sample", [](const Expr& start, const Expr& interval) { return sample(start, interval); }, py::arg("start"),
        py::arg("interval"),
        "True at the time events start + k*interval (k = 0, 1, ...); start and interval are parameter expressions.");
  m.def("reinit", [](const Expr& state, const Expr& value) { return reinit(state, value); }, py::arg("state"),
        py::arg("value"), "A when-clause action: sets the state to value at the event.");

  // --- connectors and components ---
  py::class_<Connector>(m, "Connector")
      .def_property_readonly("name", &Connector::name)
      .def_property_readonly("type", &Connector::type)
      .def_property_readonly("path", &Connector::path)
      .def_property_readonly("value", &signal_value)
      .def("__getattr__", [](const Connector& k, const std::string& member) -> Expr {
        for (const auto& mem : k.members())
          if (mem.name == member) return python::member_symbol(k, mem);
        throw py::attribute_error("connector " + k.path() + " (" + k.type() + ") has no member '" + member + "'");
      }, py::arg("member"))
      .def("__dir__", [](py::object self) {
        py::list names = py::module_::import("builtins").attr("object").attr("__dir__")(self);
        for (const auto& member : self.cast<const Connector&>().members())
          if (!member.name.empty()) names.append(member.name);
        return names;
      })
      .def("__repr__", [](const Connector& k) { return "<" + k.type() + " " + k.path() + ">"; });
  m.def("_add_fmu", [](Component& parent, const std::string& name, const std::string& path, double step_size,
                       double start_time, double tolerance, bool debug_logging,
                       const ParameterValues& values) -> Component& {
    return parent.add<FMUComponent>(name, values, path, FmuImportOptions{step_size, start_time, tolerance, debug_logging});
  }, py::arg("parent"), py::arg("name"), py::arg("path"), py::arg("step_size"), py::arg("start_time"),
        py::arg("tolerance"), py::arg("debug_logging"), py::arg("parameters"), py::return_value_policy::reference);
  m.def("_fmu_port", [](Component& c, const std::string& fmu_name) -> Connector& {
    auto* fmu = dynamic_cast<FMUComponent*>(&c);
    if (!fmu) throw ModelError("component '" + c.name() + "' is not an FMUComponent");
    return fmu->port_of(fmu_name);
  }, py::arg("component"), py::arg("fmu_name"), py::return_value_policy::reference);
  m.def("_create_connector", [](const std::string& kind, Component& owner, const std::string& name) -> Connector& {
    auto it = connector_kinds().find(kind);
    if (it == connector_kinds().end()) throw ModelError("unknown connector type '" + kind + "'");
    return owner.keep_connector(it->second(owner, name));
  }, py::arg("kind"), py::arg("owner"), py::arg("name"), py::return_value_policy::reference);
  m.def("_create_signal", [](bool input, Component& owner, const std::string& name, const std::string& unit,
                             double start) -> Connector& {
    VariableAttributes attributes{.unit = unit, .start = start};
    if (input) return owner.keep_connector(std::make_unique<RealInput>(owner, name, attributes));
    return owner.keep_connector(std::make_unique<RealOutput>(owner, name, attributes));
  }, py::arg("input"), py::arg("owner"), py::arg("name"), py::arg("unit"), py::arg("start"),
     py::return_value_policy::reference);

  py::class_<Component>(m, "Component", py::dynamic_attr())
      .def(py::init<std::string>(), py::arg("name"))
      .def_property_readonly("name", &Component::name, "Its name, the last element of its path.")
      .def_property_readonly("path", &Component::path,
                             "Its dotted path from the top model (\"car.wheel_rl\"); empty for the model itself.")
      .def("_set_type_name", &Component::set_type_name, py::arg("name"))
      .def_property_readonly("type_name", &Component::type_name,
                             "Its type as messages and help() name it (a C++ class, or a Python class's name).")
      .def("variable",
           [](Component& c, const std::string& name, const std::string& unit, double start, bool fixed, double nominal,
              const std::string& description) {
             c.variable(name, {.unit = unit, .start = start, .fixed = fixed, .nominal = nominal,
                               .description = description});
             return python::variable_symbol(c, c.variables().back());
           },
           py::arg("name"), py::arg("unit") = "", py::arg("start") = 0.0, py::arg("fixed") = false,
           py::arg("nominal") = 1.0, py::arg("description") = "",
           "Declares an unknown of the model and returns it as an expression. start is its initial guess, or "
           "its initial value when fixed=True (an initial equation); nominal, its magnitude, scales the "
           "solver's error test; unit and description show in help() and results.")
      .def("parameter",
           [](Component& c, const std::string& name, double value, const std::string& unit, double min, double max,
              const std::string& description) {
             c.parameter(name, value, {.unit = unit, .min = min, .max = max, .description = description});
             return python::parameter_symbol(c, c.parameters().back());
           },
           py::arg("name"), py::arg("value"), py::arg("unit") = "",
           py::arg("min") = -std::numeric_limits<double>::infinity(),
           py::arg("max") = std::numeric_limits<double>::infinity(), py::arg("description") = "",
           "Declares a parameter worth `value` and returns it as an expression: constant during a run, set "
           "between runs (sim.set_parameter) within [min, max] (a ModelError names it when out of bounds). unit, "
           "bounds and description show in help() and .parameters.")
      .def("discrete",
           [](Component& c, const std::string& name, double start, const std::string& kind, const std::string& unit,
              const std::string& description) {
             c.discrete(name, {.unit = unit, .start = start, .kind = discrete_kind(c, name, kind),
                               .description = description});
             return python::discrete_symbol(c, c.discretes().back());
           },
           py::arg("name"), py::arg("start") = 0.0, py::arg("kind") = "real", py::arg("unit") = "",
           py::arg("description") = "",
           "A discrete variable (kind 'real', 'boolean' or 'integer'): it changes only at events. Define it by one "
           "equation x == expr or assign it in when-clauses.")
      .def("when",
           [](Component& c, py::handle condition, py::handle actions) {
             c.when(when_conditions(c, condition), when_actions(c, actions));
           },
           py::arg("condition"), py::arg("actions"),
           "when(condition, [x == value, ac.reinit(state, value)]): the actions happen once, at the instant the "
           "condition (or any of a list of conditions) becomes true.")
      .def("equation", &Component::equation, py::arg("equation"),
           "Adds an equation, lhs == rhs, of this component's variables, parameters and connectors' members "
           "(acausal: no side is an assignment). Returns its index.")
      .def("initial_equation", &Component::initial_equation, py::arg("equation"), py::arg("active") = Expr(1.0),
           "An initial equation (applied at the start only); `active`, an expression of structural parameters, "
           "keeps it only where it holds at compile().")
      .def("require", &Component::require, py::arg("condition"), py::arg("requirement"),
           "A condition on parameters every run must satisfy (\"a + b = L\"); checked at compile() and at each "
           "simulate(), the ModelError quoting `requirement` and the values involved.")
      .def("assertion", &Component::assertion, py::arg("condition"), py::arg("message"),
           "Modelica's assert: the run ends with a SimulationError naming this component and `message` at the "
           "instant `condition` stops holding.")
      .def("stored_energy", &Component::stored_energy, py::arg("energy"),
           "Energy books: adds `energy` [J] to what the component stores (kinetic, potential, ...).")
      .def("dissipated_power", &Component::dissipated_power, py::arg("power"),
           "Energy books: adds `power` [W, >= 0] to what the component turns into heat.")
      .def("supplied_power", &Component::supplied_power, py::arg("power"),
           "Energy books: adds `power` [W] to what enters the component from outside the model (fuel, gravity).")
      .def("energy_source", &Component::energy_source,
           "Energy books: marks the component as an ideal source (a prescribed motion or effort): it supplies "
           "whatever its connectors deliver.")
      .def("connect", &Component::connect, py::arg("a"), py::arg("b"),
           "Joins two connectors of this component or of any part below it (car.body.contact_front): potentials "
           "equal, flows sum to zero.")
      .def("set_parameter", py::overload_cast<const std::string&, double>(&Component::set_parameter),
           py::arg("name"), py::arg("value"),
           "Sets a parameter of this component by its name, or of a part by its dotted path (\"body.Crr\"), "
           "checking its bounds; a parameter with choices also takes the choice's name (\"pacejka\").")
      .def("set_parameter", py::overload_cast<const std::string&, const std::string&>(&Component::set_parameter),
           py::arg("name"), py::arg("value"))
      .def("set_parameters", &Component::set_parameters, py::arg("pattern"), py::arg("value"),
           "Sets every parameter of this component and its parts whose dotted path matches `pattern` "
           "(\"wheel_*.mu\": * within a name, ** across parts, ? one character); returns how many.")
      .def("_add_library", [](Component& parent, const std::string& key, const std::string& name,
                              const ParameterValues& values) -> Component& {
        return library().at(key).add(parent, name, values);
      }, py::arg("key"), py::arg("name"), py::arg("values"),
         py::return_value_policy::reference_internal)  // the model lives as long as its parts are held
      .def("_add_external", &Component::add_external, py::arg("child"), py::return_value_policy::reference,
           py::keep_alive<1, 2>())
      .def("__getattr__", &attribute, py::arg("name"), py::keep_alive<0, 1>())
      .def("__dir__", [](py::object self) {
        // A set: a Python component also keeps its connectors and variables as attributes (self.flange_a).
        py::set names(py::module_::import("builtins").attr("object").attr("__dir__")(self));
        for (const auto& name : python::member_names(self.cast<const Component&>())) names.add(name);
        return py::module_::import("builtins").attr("sorted")(names);
      });
  // A Python subclass whose __init__ skipped super().__init__ has no C++ object behind it.
  m.def("_interned_node_count", &interned_node_count,
        "How many expression nodes the process has interned (bench/memory_bench.py).");
  m.def("_interned_table_count", &interned_table_count, "How many distinct tables are registered.");
  m.def("_collect_expressions", &collect_expressions,
        "Frees the expression nodes and tables nothing reaches now (compile() does it when due); returns "
        "how many nodes it freed.");
  m.def("_is_constructed", [](py::handle self) {
    auto* instance = reinterpret_cast<py::detail::instance*>(self.ptr());
    auto holder = instance->get_value_and_holder();
    return holder.holder_constructed() || (holder.value_ptr() != nullptr && !instance->owned);
  }, py::arg("component"));
  m.def("_library_info", [](const std::string& key) {
    const LibraryEntry& entry = library().at(key);
    py::dict info = python::component_info(*entry.probe());
    info["options"] = entry.options;
    return info;
  }, py::arg("key"));

  py::class_<Model, Component>(m, "Model", py::dynamic_attr())
      .def(py::init<std::string>(), py::arg("name"))
      .def("set_start", &Model::set_start, py::arg("path"), py::arg("value"), py::arg("fixed") = true,
           "Sets the start value of a variable by its dotted path (\"mass.v\"); fixed=True makes it an initial "
           "condition, fixed=False an initial guess.")
      .def(
          "compile",
          [](const Model& model, bool native_code, const std::string& c_compiler, const std::string& units) {
            CompileOptions options;
            options.native_code = native_code;
            options.native.compiler = c_compiler;
            if (units != "warn" && units != "error")
              throw py::value_error("compile(units=...): 'warn' or 'error', not '" + units + "'");
            options.units = units == "error" ? UnitCheck::error : UnitCheck::warn;
            return model.compile(options);
          },
          py::arg("native_code") = false, py::arg("c_compiler") = "", py::arg("units") = "warn",
          "Compiles the model. native_code=True runs its tapes as machine code built by the system's C compiler "
          "(cached; c_compiler or $ACAUSAL_CC names the compiler, default cc). units='error' makes unit "
          "inconsistencies a ModelError instead of warnings (report['warnings'], acausal.ModelWarning).");

  // --- simulation ---
  py::class_<Result>(m, "Result")
      .def_property_readonly("time", [](py::object self) {
        const Result& r = self.cast<const Result&>();
        return py::array_t<double>(r.time().size(), r.time().data(), self);  // no copy: a view kept alive by r
      })
      .def("__getitem__", [](const Result& r, const std::string& name) { return to_numpy(r[name]); }, py::arg("name"))
      .def("__contains__", &Result::has, py::arg("name"))
      .def("__len__", &Result::size)
      .def_property_readonly("names", &Result::names)
      .def("evaluate", [](const Result& r, const Expr& e) { return to_numpy(r.evaluate(e)); }, py::arg("expression"))
      .def("describe", py::overload_cast<const std::string&>(&Result::describe, py::const_), py::arg("name"),
           "What a variable is (state, algebraic, observed with its equation, alias), with its unit.")
      .def("describe", py::overload_cast<const Expr&>(&Result::describe, py::const_), py::arg("expression"),
           "An expression printed with the model's dotted names.")
      .def("unit", &Result::unit, py::arg("name"))
      .def("_parameters", [](const Result& r) { return parameter_rows(r.parameters()); })
      .def_property_readonly("event_times", &Result::event_times)
      .def_property_readonly("event_causes", &Result::event_causes)
      .def_property_readonly("statistics", [](const Result& r) { return statistics_dict(r.statistics()); })
      .def_property_readonly("sensitivity_parameters", &Result::sensitivity_parameters,
                             "The parameters simulate(sensitivities=...) differentiated by.")
      .def("sensitivity",
           [](const Result& r, const std::string& variable, const std::string& parameter) {
             return to_numpy(r.sensitivity(variable, parameter));
           },
           py::arg("variable"), py::arg("parameter"),
           "d variable / d parameter at every row (any variable; a parameter of simulate(sensitivities=...)).")
      .def("write_csv", &Result::write_csv, py::arg("path"), py::arg("columns") = std::vector<std::string>{})
      .def("write_mat", &Result::write_mat, py::arg("path"),
           "Writes the Modelica MAT v4 result file (Dymola/OpenModelica layout) that OMEdit and scipy.io.loadmat open.");

  const SimulationOptions defaults;
  py::class_<Simulator>(m, "Simulator")
      .def("set_parameter", py::overload_cast<const std::string&, double>(&Simulator::set_parameter),
           py::arg("name"), py::arg("value"),
           "Sets a parameter for the next runs; a parameter with choices also takes the choice's name.")
      .def("set_parameter", py::overload_cast<const std::string&, const std::string&>(&Simulator::set_parameter),
           py::arg("name"), py::arg("value"))
      .def("set_parameters", &Simulator::set_parameters, py::arg("pattern"), py::arg("value"),
           "Sets every parameter whose name matches `pattern` (\"car.wheel_*.mu\": * within a name, ** across "
           "parts, ? one character), all or none; returns how many.")
      .def("parameter", &Simulator::parameter, py::arg("name"))
      .def_property_readonly("parameter_names", &Simulator::parameter_names)
      .def("_parameters", [](const Simulator& s) { return parameter_rows(s.parameters()); })
      .def_property_readonly("inputs", &Simulator::inputs,
                             "The model's inputs (unconnected top-level RealInputs): set them with set_parameter.")
      .def_property_readonly("outputs", &Simulator::outputs, "The model's outputs (top-level RealOutputs).")
      .def_property_readonly("report", [](const Simulator& s) { return report_dict(s.report()); })
      .def("report_text", [](const Simulator& s) { return s.report().str(); })
      // The reference of tests/python/test_speed.py: one simulate() timed inside C++, so the test
      // compares the two paths in one process, interleaved, under the same machine load.
      .def("_cpp_simulate_seconds",
           [](const Simulator& s, double t_end, double output_interval) {
             SimulationOptions o;
             o.t_end = t_end;
             o.output_interval = output_interval;
             py::gil_scoped_release release;
             const auto t0 = std::chrono::steady_clock::now();
             Result r = s.simulate(o);
             return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
           },
           py::arg("t_end"), py::arg("output_interval"))
      .def("simulate",
           [](const Simulator& s, std::optional<double> t_end, double output_interval, double rtol, double atol,
              double t_start, const std::string& linear_solver, long max_steps, double max_step, bool exact_outputs,
              double max_output_bytes, double initial_step, std::vector<double> t_eval, int dense_threshold,
              std::vector<std::string> sensitivities) {
             SimulationOptions o = simulation_options(t_end, output_interval, rtol, atol, t_start, linear_solver,
                                                      max_steps, max_step, exact_outputs, max_output_bytes,
                                                      initial_step, std::move(t_eval), dense_threshold, 0.0);
             o.sensitivities = std::move(sensitivities);
             return simulate_interruptibly(s, o);
           },
           py::arg("t_end") = py::none(), py::arg("output_interval") = 0.01, py::arg("rtol") = 1e-6,
           py::arg("atol") = 1e-8, py::arg("t_start") = 0.0, py::arg("linear_solver") = "auto",
           py::arg("max_steps") = defaults.max_steps, py::arg("max_step") = defaults.max_step,
           py::arg("exact_outputs") = defaults.exact_outputs, py::arg("max_output_bytes") = defaults.max_output_bytes,
           py::arg("initial_step") = defaults.initial_step, py::arg("t_eval") = std::vector<double>{},
           py::arg("dense_threshold") = defaults.dense_threshold,
           py::arg("sensitivities") = std::vector<std::string>{},
           "Integrates from t_start to t_end (default 1, or the last of t_eval) and returns a Result. Rows every "
           "output_interval, or at the times t_eval, plus both sides of each event. max_steps bounds the steps "
           "between two output times; max_step and initial_step bound IDA's step (0: no bound, its estimate); "
           "linear_solver 'auto' picks dense up to dense_threshold unknowns, KLU above. Ctrl-C stops the run with "
           "KeyboardInterrupt (its .partial_result holds the rows so far); a solver failure raises SimulationError "
           "with .partial_result. sensitivities: parameter names whose forward sensitivities are integrated with "
           "the model (IDAS); read them with result.sensitivity(variable, parameter).")
      .def("start",
           [](const Simulator& s, std::optional<double> t_end, double output_interval, double rtol, double atol,
              double t_start, const std::string& linear_solver, long max_steps, double max_step, bool exact_outputs,
              double max_output_bytes, double initial_step, std::vector<double> t_eval, int dense_threshold,
              double realtime_factor) {
             SimulationOptions o = simulation_options(t_end, output_interval, rtol, atol, t_start, linear_solver,
                                                      max_steps, max_step, exact_outputs, max_output_bytes,
                                                      initial_step, std::move(t_eval), dense_threshold,
                                                      realtime_factor);
             o.interrupt = &sigint_received;  // advance() answers Ctrl-C (advance_interruptibly)
             py::gil_scoped_release release;
             return s.start(o);
           },
           py::arg("t_end") = py::none(), py::arg("output_interval") = 0.01, py::arg("rtol") = 1e-6,
           py::arg("atol") = 1e-8, py::arg("t_start") = 0.0, py::arg("linear_solver") = "auto",
           py::arg("max_steps") = defaults.max_steps, py::arg("max_step") = defaults.max_step,
           py::arg("exact_outputs") = defaults.exact_outputs, py::arg("max_output_bytes") = defaults.max_output_bytes,
           py::arg("initial_step") = defaults.initial_step, py::arg("t_eval") = std::vector<double>{},
           py::arg("dense_threshold") = defaults.dense_threshold, py::arg("realtime_factor") = 0.0,
           "A run to advance step by step (a controller in the loop, a co-simulation master): the options of "
           "simulate(), t_end the furthest it may go, and realtime_factor (0: as fast as it can; 1: no faster than "
           "wall time).")
      .def("start_model_exchange",
           [](const Simulator& s, std::optional<double> t_end, double rtol, double atol, double t_start) {
             SimulationOptions o =
                 simulation_options(t_end, 0.01, rtol, atol, t_start, "auto", SimulationOptions{}.max_steps,
                                    0.0, true, SimulationOptions{}.max_output_bytes, 0.0, {},
                                    SimulationOptions{}.dense_threshold, 0.0);
             o.output_times = {o.t_end};  // rows only at events: memory stays flat however long the host runs
             return s.start_model_exchange(o);
           },
           py::arg("t_end") = py::none(), py::arg("rtol") = 1e-6, py::arg("atol") = 1e-8, py::arg("t_start") = 0.0,
           "A run whose states another integrator advances (scipy's solve_ivp, an FMI master): derivatives() at "
           "the time and states set, event_indicators() whose sign changes are state events, event() there and at "
           "next_time_event. rtol and atol judge the algebraic solve inside derivatives().")
      .def("export_fmu",
           [](const Simulator& s, const std::string& path, const std::string& model_identifier, double start_time,
              double stop_time, double tolerance, double step_size) {
             export_fmu(s, path, {model_identifier, start_time, stop_time, tolerance, step_size, ""});
           },
           py::arg("path"), py::arg("model_identifier") = "", py::arg("start_time") = 0.0,
           py::arg("stop_time") = 1.0, py::arg("tolerance") = 1e-6, py::arg("step_size") = 0.01,
           "Writes the compiled model, with its current parameter values, as an FMI 2.0 FMU (Model Exchange and "
           "Co-Simulation) for "
           "64-bit Linux at path: a self-contained binary any FMI host loads (the library need not be installed "
           "there). start_time, stop_time, tolerance and step_size become its DefaultExperiment; "
           "model_identifier (default: the model's name) names its binary.");

  py::class_<SessionState>(m, "SessionState", "A saved point of a Session, to give back to Session.set_state.")
      .def_readonly("time", &SessionState::time);
  py::class_<Session>(m, "Session",
                      "A run advanced step by step: advance(t), get(name), set_input(name, value), state/set_state, "
                      "reset; result holds the rows so far.")
      .def_property_readonly("time", &Session::time)
      .def("advance", &advance_interruptibly, py::arg("t"),
           "Integrates to t, handling the events on the way; records rows as simulate() does, plus one at t. "
           "Ctrl-C stops it with KeyboardInterrupt (.partial_result), within 50 ms even while paced.")
      .def("get", &Session::get, py::arg("name"), "Any variable or parameter at the time reached.")
      .def("set_input", &Session::set_parameter, py::arg("name"), py::arg("value"),
           "Sets an input (or any parameter that is not structural) from the time reached on: an event there.")
      .def("set_parameter", &Session::set_parameter, py::arg("name"), py::arg("value"))
      .def_property_readonly("state", &Session::state, "The run's state, to restore with set_state().")
      .def("set_state", &Session::set_state, py::arg("state"))
      .def("set_point", &Session::set_point, py::arg("point"),
           "Continues from an operating point (a steady state's .point, or ac.linearize's): its values, modes and "
           "parameters.")
      .def("reset", &Session::reset, "Back to the initial point.")
      .def_property_readonly("result", [](const Session& s) { return s.result(); }, "The rows so far (a copy).");

  py::class_<ModelExchange>(m, "ModelExchange",
                            "A run whose states the caller integrates: set time and states, read derivatives and "
                            "event indicators, call event() at a sign change or at next_time_event.")
      .def_property_readonly("n_states", &ModelExchange::n_states)
      .def_property_readonly("n_event_indicators", &ModelExchange::n_event_indicators)
      .def_property_readonly("state_names", &ModelExchange::state_names,
                             "The variables the states are (the differential unknowns after index reduction).")
      .def_property("time", &ModelExchange::time, &ModelExchange::set_time)
      .def_property("states", &ModelExchange::states, &ModelExchange::set_states)
      .def("derivatives", &ModelExchange::derivatives,
           "dx/dt at the time and states set (the algebraic equations solved there).")
      .def("event_indicators", &ModelExchange::event_indicators,
           "One per relation that causes state events; a sign change is the event.")
      .def_property_readonly("next_time_event", &ModelExchange::next_time_event, "inf when there is none.")
      .def("event",
           [](ModelExchange& me) {
             const ModelExchange::EventOutcome outcome = me.event();
             return py::make_tuple(outcome.states_changed, outcome.next_time_event);
           },
           "Handles the event at the current time (relations whose indicator changed sign, time events due, the "
           "event iteration); returns (states_changed, next_time_event).")
      .def("completed_step", &ModelExchange::completed_step, "The host accepted a step ending at time (delays).")
      .def("get", &ModelExchange::get, py::arg("name"), "Any variable, parameter or der(state) at the time and states set.")
      .def("set_input", &ModelExchange::set_input, py::arg("name"), py::arg("value"),
           "An input's value from now on, without an event.")
      .def("set_parameter", &ModelExchange::set_parameter, py::arg("name"), py::arg("value"),
           "A parameter's new value: an event at the current time.");

  // --- the library ---
  register_connector<rotational::Flange>("rotational.Flange");
  register_connector<translational::Flange>("translational.Flange");
  register_connector<planar::Frame>("planar.Frame");
  register_connector<electrical::Pin>("electrical.Pin");
  register_connector<thermal::HeatPort>("thermal.HeatPort");
  register_connector<vehicle::WheelContact>("vehicle.WheelContact");
  m.def("radius_from_tire_size", &vehicle::radius_from_tire_size, py::arg("designation"));
  register_connector<RealInput>("RealInput");
  register_connector<RealOutput>("RealOutput");
  register_connector<BooleanInput>("BooleanInput");
  register_connector<BooleanOutput>("BooleanOutput");
  register_connector<IntegerInput>("IntegerInput");
  register_connector<IntegerOutput>("IntegerOutput");
#define ACAUSAL_REGISTER(domain, Name) register_component<domain::Name>(#domain "." #Name);
  ACAUSAL_LIBRARY(ACAUSAL_REGISTER)
#undef ACAUSAL_REGISTER
  register_sized<blocks::MultiAnd>("blocks.MultiAnd", "nu");
  register_sized<blocks::MultiOr>("blocks.MultiOr", "nu");
  register_sized<blocks::MultiXor>("blocks.MultiXor", "nu");
  register_sized<blocks::MultiNand>("blocks.MultiNand", "nu");
  register_sized<blocks::MultiNor>("blocks.MultiNor", "nu");
  register_sized<blocks::BooleanMultiSwitch>("blocks.BooleanMultiSwitch", "nu");
  register_sized<blocks::IntegerMultiSwitch>("blocks.IntegerMultiSwitch", "nu");
  register_sized<blocks::IntegerSum>("blocks.IntegerSum", "nu");
  register_sized<blocks::IntegerProduct>("blocks.IntegerProduct", "nu");
  register_sized<blocks::BooleanTable>("blocks.BooleanTable", "n");
  register_sized<blocks::MultiSum>("blocks.MultiSum", "nu");
  register_sized<blocks::MultiProduct>("blocks.MultiProduct", "nu");
  register_sized<blocks::MinMax>("blocks.MinMax", "nu");
  register_sized<blocks::MultiSwitch>("blocks.MultiSwitch", "nu");
  register_car<vehicle::RearDriveCar>("vehicle.RearDriveCar");
  register_car<vehicle::FrontDriveCar>("vehicle.FrontDriveCar");
  register_car<vehicle::MappedCar>("vehicle.MappedCar");
  register_car<vehicle::AutomaticCar>("vehicle.AutomaticCar");
  register_car<vehicle::PlanarCar>("vehicle.PlanarCar");
  // Table setters of library components, bound once: (Python name, type shown in errors, setter).
  auto bind_table = [&m]<typename T>(const char* function, const char* type, void (T::*setter)(const Points&)) {
    m.def(function, [type, setter](Component& c, const Points& points) {
      auto* target = dynamic_cast<T*>(&c);
      if (!target) throw ModelError("component '" + c.name() + "' is not a " + type);
      (target->*setter)(points);
    }, py::arg("component"), py::arg("points"));
  };
  bind_table("_set_table", "blocks.TimeTable", &blocks::TimeTable::set_table);
  bind_table("_set_integer_table", "blocks.IntegerTable", &blocks::IntegerTable::set_table);
  // CombiTimeTable and CombiTable1D: rows of (abscissa, values...), or a file.
  m.def("_set_rows", [](Component& c, const std::vector<std::vector<double>>& rows) {
    if (auto* t = dynamic_cast<blocks::CombiTimeTable*>(&c)) return t->set_table(rows);
    if (auto* t = dynamic_cast<blocks::CombiTable1D*>(&c)) return t->set_table(rows);
    throw ModelError("component '" + c.name() + "' is not a blocks.CombiTimeTable or blocks.CombiTable1D");
  }, py::arg("component"), py::arg("rows"));
  m.def("_load_table", [](Component& c, const std::string& path, const std::string& table_name,
                          const std::string& abscissa, const std::vector<std::string>& columns) {
    if (auto* t = dynamic_cast<blocks::CombiTimeTable*>(&c)) return t->load(path, table_name, abscissa, columns);
    if (auto* t = dynamic_cast<blocks::CombiTable1D*>(&c)) return t->load(path, table_name, abscissa, columns);
    if (auto* t = dynamic_cast<blocks::CombiTable2D*>(&c)) return t->load(path, table_name);
    throw ModelError("component '" + c.name() + "' is not a blocks.CombiTimeTable, CombiTable1D or CombiTable2D");
  }, py::arg("component"), py::arg("path"), py::arg("table_name"), py::arg("abscissa"), py::arg("columns"));
  m.def("_set_table_2d", [](Component& c, const std::vector<double>& u1, const std::vector<double>& u2,
                            const std::vector<std::vector<double>>& values) {
    auto* t = dynamic_cast<blocks::CombiTable2D*>(&c);
    if (!t) throw ModelError("component '" + c.name() + "' is not a blocks.CombiTable2D");
    t->set_table(u1, u2, values);
  }, py::arg("component"), py::arg("u1"), py::arg("u2"), py::arg("values"));
  bind_table("_set_friction_table", "vehicle.Wheel", &vehicle::Wheel::set_friction_table);
  bind_table("_set_ocv_table", "electrical.CellStack or CellRCStack", &electrical::BaseCellStack::set_ocv_table);
  m.def("_set_grade_table", [](Component& c, const Points& points) {
    if (auto* body = dynamic_cast<vehicle::VehicleBody*>(&c)) return body->set_grade_table(points);
    if (auto* body = dynamic_cast<vehicle::PitchingBody*>(&c)) return body->set_grade_table(points);
    throw ModelError("component '" + c.name() + "' is not a vehicle.VehicleBody or vehicle.PitchingBody");
  }, py::arg("component"), py::arg("points"));
  const auto terrain_sampling = [](const std::string& sampling) {
    if (sampling == "wheels") return vehicle::TerrainSampling::wheels;
    if (sampling == "cg") return vehicle::TerrainSampling::cg;
    throw ModelError("terrain sampling '" + sampling + "': expected 'wheels' or 'cg'");
  };
  m.def("_set_height_profile", [terrain_sampling](Component& c, const Points& points, const std::string& file,
                                                  const std::string& sampling) {
    const auto profile = file.empty() ? vehicle::HeightProfile(points) : vehicle::load_height_profile(file);
    if (auto* body = dynamic_cast<vehicle::PartialBody*>(&c))
      return body->set_height_profile(profile, terrain_sampling(sampling));
    throw ModelError("component '" + c.name() + "' is not a vehicle.VehicleBody or vehicle.PitchingBody");
  }, py::arg("component"), py::arg("points"), py::arg("file"), py::arg("sampling"));
  m.def("_set_height_map", [terrain_sampling](Component& c, const std::vector<double>& x, const std::vector<double>& y,
                                              const std::vector<std::vector<double>>& heights, const std::string& file,
                                              const std::string& sampling) {
    auto* body = dynamic_cast<vehicle::PlanarVehicleBody*>(&c);
    if (!body) throw ModelError("component '" + c.name() + "' is not a vehicle.PlanarVehicleBody");
    body->set_height_map(file.empty() ? vehicle::HeightMap(x, y, heights) : vehicle::load_height_map(file),
                         terrain_sampling(sampling));
  }, py::arg("component"), py::arg("x"), py::arg("y"), py::arg("heights"), py::arg("file"), py::arg("sampling"));
  m.def("_set_friction_map", [](Component& c, const std::vector<double>& x, const std::vector<double>& y,
                                const std::vector<std::vector<double>>& values) {
    auto* wheel = dynamic_cast<vehicle::PlanarWheel*>(&c);
    if (!wheel) throw ModelError("component '" + c.name() + "' is not a vehicle.PlanarWheel");
    wheel->set_friction_map(x, y, values);
  }, py::arg("component"), py::arg("x"), py::arg("y"), py::arg("values"));
  m.def("_set_loss_map", [](Component& c, const std::vector<double>& speeds, const std::vector<double>& torques,
                             const std::vector<std::vector<double>>& losses) {
    auto* drive = dynamic_cast<vehicle::MotorDrive*>(&c);
    if (!drive) throw ModelError("component '" + c.name() + "' is not a vehicle.MotorDrive");
    drive->set_loss_map(speeds, torques, losses);
  }, py::arg("component"), py::arg("speeds"), py::arg("torques"), py::arg("losses"));
  bind_table("_set_path", "vehicle.PathFollower", &vehicle::PathFollower::set_path);
  m.def("_set_initial_speed", [](Component& c, double v0) {
    auto* car = dynamic_cast<vehicle::PlanarCar*>(&c);
    if (!car) throw ModelError("component '" + c.name() + "' is not a vehicle.PlanarCar");
    car->set_initial_speed(v0);
  }, py::arg("component"), py::arg("v0"));
  m.def("drive_cycle_names", &vehicle::drive_cycle_names);
  m.def("drive_cycle_file", &vehicle::drive_cycle_file, py::arg("name"));
  m.def("_set_cycle", [](Component& c, const std::string& name, const std::string& file,
                         const std::string& speed_unit) {
    auto* cycle = dynamic_cast<vehicle::DriveCycle*>(&c);
    if (!cycle) throw ModelError("component '" + c.name() + "' is not a vehicle.DriveCycle");
    if (file.empty()) cycle->set_cycle(name);
    else cycle->load(file, "1", "2", speed_unit);
    return cycle->duration;
  }, py::arg("component"), py::arg("name"), py::arg("file"), py::arg("speed_unit"));
  m.def("_load_tir", [](Component& c, const std::string& path) {
    auto* wheel = dynamic_cast<vehicle::Wheel*>(&c);
    if (!wheel) throw ModelError("component '" + c.name() + "' is not a vehicle.Wheel");
    wheel->load_tir(path);
  }, py::arg("component"), py::arg("path"));
  // The friction elements' characteristics (MSL mu_pos, tau_pos, f_pos).
  m.def("_set_friction_characteristic", [](Component& c, const std::string& table, const Points& points) {
    auto set = [&]<typename T>(T* target, void (T::*setter)(const Points&), const char* name) {
      if (!target || table != name) return false;
      (target->*setter)(points);
      return true;
    };
    if (set(dynamic_cast<rotational::Clutch*>(&c), &rotational::Clutch::set_mu_pos, "mu_pos") ||
        set(dynamic_cast<rotational::Brake*>(&c), &rotational::Brake::set_mu_pos, "mu_pos") ||
        set(dynamic_cast<rotational::OneWayClutch*>(&c), &rotational::OneWayClutch::set_mu_pos, "mu_pos") ||
        set(dynamic_cast<rotational::BearingFriction*>(&c), &rotational::BearingFriction::set_tau_pos, "tau_pos") ||
        set(dynamic_cast<translational::Brake*>(&c), &translational::Brake::set_mu_pos, "mu_pos") ||
        set(dynamic_cast<translational::SupportFriction*>(&c), &translational::SupportFriction::set_f_pos, "f_pos"))
      return;
    throw ModelError("component '" + c.name() + "' has no friction table '" + table + "'");
  }, py::arg("component"), py::arg("table"), py::arg("points"));
  std::vector<std::string> names;
  for (const auto& [key, entry] : library()) names.push_back(key);
  m.attr("_library") = names;

  bind_analysis(m);
  bind_terrain(m);
  py::module_ harness = m.def_submodule("_harness", "Rigs, checks and checklists (see acausal.harness)");
  bind_harness(harness);
}
