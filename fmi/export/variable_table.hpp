// The FMU's scalar variables, derived from a Simulator: the model description
// writer and the runtime inside the FMU both build the table from the same
// model, so a value reference means the same variable on both sides.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "solver/runtime/simulator.hpp"

namespace acausal::fmi {

/// One ScalarVariable: a Real, or an Integer or Boolean (a discrete variable of
/// that kind, variability discrete, read with fmi2GetInteger/fmi2GetBoolean).
/// The combinations of causality,
/// variability and initial are those FMI 2.0 allows:
///  * time: independent, continuous, no initial, no start;
///  * a parameter: parameter, fixed (structural) or tunable, exact, start = its value;
///  * an input of the model: input, continuous, no initial, start = its value;
///  * a variable of the model: output (a top-level RealOutput) or local,
///    continuous, calculated, no start (initialization computes it);
///  * the derivative of a state, "der(x)": local, continuous, calculated,
///    with `derivative` naming x (Model Exchange's continuous states).
struct FmuVariable {
  enum class Causality { parameter, input, output, local, independent };
  enum class Type { real, integer, boolean };
  enum class Variability { fixed, tunable, discrete, continuous };
  enum class Initial { none, exact, calculated };
  /// Where the runtime reads and writes the value.
  enum class Source { time, parameter, variable };

  std::string name;
  unsigned value_reference = 0;
  Type type = Type::real;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  Initial initial = Initial::none;
  bool has_start = false;
  double start = 0.0;
  std::string unit;
  /// A Real variable's magnitude (the model's `nominal`): the master's error weights of a state.
  double nominal = 1.0;
  std::string description;
  Source source = Source::variable;
  /// Source::parameter: the index in Simulator::parameters() (the compiled
  /// model's parameter order, also SessionState::parameters' order).
  int parameter_index = -1;
  /// For der(x): the value reference of x (a Source::variable read by its name, as Session::get reads der(x)).
  int derivative_of = -1;

  /// Whether the master may set it at all (in some state): parameters and inputs.
  bool settable() const { return causality == Causality::parameter || causality == Causality::input; }
  /// Whether it may change while the FMU steps: inputs and tunable parameters.
  bool settable_while_stepping() const {
    return causality == Causality::input || (causality == Causality::parameter && variability == Variability::tunable);
  }
};

/// The variables in value-reference order (value reference = position), and
/// every unit they use, each once, in order of first use.
struct VariableTable {
  std::vector<FmuVariable> variables;
  std::vector<std::string> units;
  /// The continuous states' value references in state order, and their derivatives'.
  std::vector<unsigned> states, derivatives;

  /// The variable of a value reference, or nullptr when there is none.
  const FmuVariable* find(unsigned value_reference) const {
    return value_reference < variables.size() ? &variables[value_reference] : nullptr;
  }
};

/// `time` first (value reference 0), then every parameter of sim.parameters()
/// (inputs among them), then every variable of the compiled model that
/// Session::get reads under its name: a name already taken (by time, a
/// parameter or an earlier variable of that name) is left out, since FMI
/// names are unique and Session::get could not tell them apart; last, "der(x)"
/// for every state x (ModelExchange::state_names()). Throws ModelError when a
/// state has no variable of its own name or its derivative's name is taken.
VariableTable variable_table(const Simulator& sim);

/// The names modelDescription.xml spells them with.
std::string_view causality_name(FmuVariable::Causality causality);
std::string_view variability_name(FmuVariable::Variability variability);
std::string_view initial_name(FmuVariable::Initial initial);

}  // namespace acausal::fmi
