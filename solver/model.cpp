#include "solver/model.hpp"

#include <cmath>
#include <memory>

#include "solver/alias_elimination.hpp"
#include "solver/derivative_aliases.hpp"
#include "solver/evaluation.hpp"
#include "solver/events.hpp"
#include "solver/flatten.hpp"
#include "solver/index_reduction.hpp"
#include "solver/matching.hpp"
#include "solver/sorting.hpp"
#include "solver/structural_parameters.hpp"
#include "solver/units.hpp"

namespace acausal {


Simulator Model::compile(const CompileOptions& options) const {
  DaeSystem dae = flatten(*this);
  fold_structural_parameters(dae);
  check_units(dae);
  dae.check_parameter_conditions([&](const Node* p) { return dae.parameter_value(p); });
  eliminate_aliases(dae);
  reduce_index(dae);
  StructuralSystem structure = match_equations(dae);
  sort_and_eliminate(dae, structure);
  substitute_derivative_aliases(dae);
  extract_events(dae);
  CompiledModel compiled = build_evaluation(std::move(dae));
  if (options.native_code) generate_native_code(compiled, options.native);
  return Simulator(std::make_shared<const CompiledModel>(std::move(compiled)));
}

}  // namespace acausal
