#include "fmi/export/variable_table.hpp"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "solver/lower/evaluation.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal::fmi {

namespace {

class TableBuilder {
 public:
  bool name_taken(const std::string& name) const { return references_.count(name) > 0; }

  const FmuVariable* find(const std::string& name) const {
    const auto found = references_.find(name);
    return found == references_.end() ? nullptr : &table_.variables[found->second];
  }
  std::vector<unsigned>& states() { return table_.states; }
  std::vector<unsigned>& derivatives() { return table_.derivatives; }
  unsigned last_reference() const { return static_cast<unsigned>(table_.variables.size() - 1); }

  void add(FmuVariable variable) {
    variable.value_reference = static_cast<unsigned>(table_.variables.size());
    references_.emplace(variable.name, variable.value_reference);
    if (!variable.unit.empty() && units_seen_.insert(variable.unit).second) table_.units.push_back(variable.unit);
    table_.variables.push_back(std::move(variable));
  }

  VariableTable take() { return std::move(table_); }

 private:
  VariableTable table_;
  std::unordered_map<std::string, unsigned> references_;
  std::unordered_set<std::string> units_seen_;
};

FmuVariable time_variable() {
  FmuVariable time;
  time.name = "time";
  time.causality = FmuVariable::Causality::independent;
  time.variability = FmuVariable::Variability::continuous;
  time.initial = FmuVariable::Initial::none;
  time.unit = "s";
  time.description = "Simulation time";
  time.source = FmuVariable::Source::time;
  return time;
}

FmuVariable parameter_variable(const ParameterInfo& parameter, int index) {
  FmuVariable variable;
  variable.name = parameter.name;
  if (parameter.input) {
    // The standard forbids `initial` on an input and requires its start value.
    variable.causality = FmuVariable::Causality::input;
    variable.variability = FmuVariable::Variability::continuous;
    variable.initial = FmuVariable::Initial::none;
  } else {
    // A structural parameter shaped the compiled equations: it cannot change
    // after instantiation, which is what `fixed` promises the master.
    variable.causality = FmuVariable::Causality::parameter;
    variable.variability =
        parameter.structural ? FmuVariable::Variability::fixed : FmuVariable::Variability::tunable;
    variable.initial = FmuVariable::Initial::exact;
  }
  variable.has_start = true;
  variable.start = parameter.value;
  variable.unit = parameter.unit;
  variable.description = parameter.description;
  variable.source = FmuVariable::Source::parameter;
  variable.parameter_index = index;
  return variable;
}

// The states are the differential unknowns in slot order, as ModelExchange numbers them.
void add_derivatives(const CompiledModel& model, TableBuilder& builder) {
  for (int slot = 0; slot < model.n; ++slot) {
    if (model.differential[slot] == 0.0) continue;
    const DaeVariable& state = model.dae.variables[model.variable_of_slot[slot]];
    const FmuVariable* state_variable = builder.find(state.name);
    if (!state_variable || state_variable->source != FmuVariable::Source::variable)
      throw ModelError(fmt::format("FMU export of '{}': the state {} has no variable of its own name (a parameter or "
                                   "time shares it)",
                                   model.dae.model_name, state.name));
    FmuVariable derivative;
    derivative.name = fmt::format("der({})", state.name);
    if (builder.name_taken(derivative.name))
      throw ModelError(fmt::format("FMU export of '{}': the derivative of the state {} cannot be named {}: a variable "
                                   "has that name",
                                   model.dae.model_name, state.name, derivative.name));
    derivative.causality = FmuVariable::Causality::local;
    derivative.variability = FmuVariable::Variability::continuous;
    derivative.initial = FmuVariable::Initial::calculated;
    derivative.description = fmt::format("The time derivative of {}", state.name);
    derivative.source = FmuVariable::Source::variable;
    derivative.derivative_of = static_cast<int>(state_variable->value_reference);
    builder.states().push_back(state_variable->value_reference);
    builder.add(std::move(derivative));
    builder.derivatives().push_back(builder.last_reference());
  }
}

}  // namespace

VariableTable variable_table(const Simulator& sim) {
  TableBuilder builder;
  builder.add(time_variable());

  const std::vector<ParameterInfo> parameters = sim.parameters();
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    if (builder.name_taken(parameters[p].name)) continue;
    builder.add(parameter_variable(parameters[p], static_cast<int>(p)));
  }

  const CompiledModel& model = sim.compiled();
  const std::vector<std::string> output_names = sim.outputs();
  const std::unordered_set<std::string> outputs(output_names.begin(), output_names.end());
  const auto& dae_variables = model.dae.variables;
  for (std::size_t v = 0; v < dae_variables.size(); ++v) {
    const DaeVariable& dae_variable = dae_variables[v];
    // Of variables sharing a name, Session::get reads the one variable_by_name maps it to.
    auto readable = model.variable_by_name.find(dae_variable.name);
    if (readable == model.variable_by_name.end() || readable->second != static_cast<int>(v)) continue;
    if (builder.name_taken(dae_variable.name)) continue;
    FmuVariable variable;
    variable.name = dae_variable.name;
    variable.causality =
        outputs.count(dae_variable.name) ? FmuVariable::Causality::output : FmuVariable::Causality::local;
    variable.variability = FmuVariable::Variability::continuous;
    variable.initial = FmuVariable::Initial::calculated;
    variable.unit = dae_variable.unit;
    variable.nominal = dae_variable.nominal;
    variable.source = FmuVariable::Source::variable;
    // The readout of a Boolean or Integer discrete variable (its own name; not a
    // Real variable that alias elimination found equal to one) is typed as such.
    if (dae_variable.definition && dae_variable.definition->op == Op::Discrete) {
      const auto found = model.dae.discrete_of.find(dae_variable.definition);
      const DaeDiscrete* discrete = found == model.dae.discrete_of.end() ? nullptr : &model.dae.discretes[found->second];
      if (discrete && discrete->name == dae_variable.name && discrete->attributes.kind != DiscreteKind::real) {
        const DiscreteKind kind = discrete->attributes.kind;
        variable.type = kind == DiscreteKind::boolean ? FmuVariable::Type::boolean : FmuVariable::Type::integer;
        variable.variability = FmuVariable::Variability::discrete;
        variable.unit.clear();
      }
    }
    builder.add(std::move(variable));
  }
  add_derivatives(model, builder);
  return builder.take();
}

std::string_view causality_name(FmuVariable::Causality causality) {
  switch (causality) {
    case FmuVariable::Causality::parameter: return "parameter";
    case FmuVariable::Causality::input: return "input";
    case FmuVariable::Causality::output: return "output";
    case FmuVariable::Causality::local: return "local";
    case FmuVariable::Causality::independent: return "independent";
  }
  return "local";
}

std::string_view variability_name(FmuVariable::Variability variability) {
  switch (variability) {
    case FmuVariable::Variability::fixed: return "fixed";
    case FmuVariable::Variability::tunable: return "tunable";
    case FmuVariable::Variability::discrete: return "discrete";
    case FmuVariable::Variability::continuous: return "continuous";
  }
  return "continuous";
}

std::string_view initial_name(FmuVariable::Initial initial) {
  switch (initial) {
    case FmuVariable::Initial::none: return "";
    case FmuVariable::Initial::exact: return "exact";
    case FmuVariable::Initial::calculated: return "calculated";
  }
  return "";
}

}  // namespace acausal::fmi
