#include "solver/pipeline/pipeline.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "solver/lower/evaluation.hpp"
#include "solver/lower/native_code.hpp"
#include "solver/modeling/model.hpp"
#include "solver/passes/alias_elimination.hpp"
#include "solver/passes/derivative_aliases.hpp"
#include "solver/passes/event_clock.hpp"
#include "solver/passes/events.hpp"
#include "solver/passes/flatten.hpp"
#include "solver/passes/structural_parameters.hpp"
#include "solver/passes/units.hpp"
#include "solver/runtime/simulator.hpp"
#include "solver/structure/index_reduction.hpp"
#include "solver/structure/matching.hpp"
#include "solver/structure/sorting.hpp"

namespace acausal {

namespace {

// What the passes hand each other: the DAE until lowering turns it into the
// compiled model (which keeps it, with the report).
struct Compilation {
  const Model& model;
  const CompileOptions& options;
  DaeSystem dae;
  StructuralSystem structure;
  std::optional<CompiledModel> compiled;

  CompileReport& report() { return compiled ? compiled->dae.report : dae.report; }
};

struct Pass {
  PassInfo info;
  void (*run)(Compilation&);
};

const std::vector<Pass>& passes() {
  static const std::vector<Pass> list = {
      {{"flatten", "passes", "component tree to scalar unknowns, parameters, equations and connection sets"},
       [](Compilation& c) { c.dae = flatten(c.model); }},
      {{"structural_parameters", "passes", "structural parameters and typed choices folded as constants"},
       [](Compilation& c) { fold_structural_parameters(c.dae); }},
      {{"units", "passes", "dimensional analysis of every equation from the declared units"},
       [](Compilation& c) {
         check_units(c.dae);
         if (c.options.units == UnitCheck::error && !c.dae.report.unit_errors.empty()) {
           std::string list;
           for (const auto& e : c.dae.report.unit_errors) list += "\n  " + e;
           throw ModelError("'" + c.dae.model_name + "' has " + std::to_string(c.dae.report.unit_errors.size()) +
                            " unit inconsistenc" + (c.dae.report.unit_errors.size() == 1 ? "y" : "ies") +
                            " (CompileOptions::units = UnitCheck::error):" + list);
         }
       }},
      {{"parameter_conditions", "ir", "parameter bounds and require() conditions at their current values"},
       [](Compilation& c) { c.dae.check_parameter_conditions([&](const Node* p) { return c.dae.parameter_value(p); }); }},
      {{"alias_elimination", "passes", "a = b, a = -b, a = c·b and a = constant removed, names kept resolvable"},
       [](Compilation& c) { eliminate_aliases(c.dae); }},
      {{"index_reduction", "structure", "Pantelides: the equations to differentiate, and dummy derivatives"},
       [](Compilation& c) { reduce_index(c.dae); }},
      {{"matching", "structure", "balance check and maximum matching of equations to unknowns"},
       [](Compilation& c) { c.structure = match_equations(c.dae); }},
      {{"sorting", "structure", "BLT order (Tarjan), explicit assignments, torn algebraic loops"},
       [](Compilation& c) { sort_and_eliminate(c.dae, c.structure); }},
      {{"derivative_aliases", "passes", "der(x) replaced where an equation names it"},
       [](Compilation& c) { substitute_derivative_aliases(c.dae); }},
      {{"events", "passes", "relations to modes with event indicators; time events recognized"},
       [](Compilation& c) { extract_events(c.dae); }},
      {{"hybrid", "passes", "the discrete variables, when-clauses and clocks the event iteration computes"},
       [](Compilation& c) { report_hybrid(c.dae); }},
      {{"event_clock", "passes", "a hidden state for a hybrid model with nothing else to integrate"},
       [](Compilation& c) { add_event_clock(c.dae); }},
      {{"evaluation", "lower", "residual, sparse Jacobian, outputs and indicators compiled to tapes"},
       [](Compilation& c) { c.compiled.emplace(build_evaluation(std::move(c.dae))); }},
      {{"native_code", "lower", "the tapes as machine code through the C compiler (CompileOptions::native_code)"},
       [](Compilation& c) {
         if (c.options.native_code) generate_native_code(*c.compiled, c.options.native);
       }},
  };
  return list;
}

struct Declared {
  std::string component;  // dotted path of the component declaring the variable
  bool start_intended;    // it or an assembly around it called intend_default_starts()
};

void declared_by(const Component& c, const std::string& prefix, bool intended,
                 std::unordered_map<const Node*, Declared>& out) {
  intended |= c.default_starts_intended();
  for (const auto& v : c.variables()) out.emplace(v.symbol.node(), Declared{prefix, intended});
  for (const Component* child : c.children())
    declared_by(*child, prefix.empty() ? child->name() : prefix + "." + child->name(), intended, out);
}

// Expectations (Component::expect) that the parameters alone decide, and found false.
void check_expectations(const Component& c, const std::string& prefix, const DaeSystem& dae, Rewriter& resolve,
                        CompileReport& report) {
  for (const auto& e : c.expectations()) {
    const Expr condition = resolve(e.condition);
    bool decided = true;
    for_each_postorder(condition.node(), [&](const Node* leaf) {
      if (leaf->arity() == 0 && leaf->op != Op::Const && !dae.parameter_of.contains(leaf)) decided = false;
    });
    if (!decided || evaluate(condition, [&](const Node* p) { return dae.parameter_value(p); }) != 0.0) continue;
    const int v = dae.variable_of.find(e.variable.node());
    const std::string variable = v >= 0 ? dae.variables[v].name : dae.print(e.variable);
    report.warnings.push_back({e.kind, prefix, variable, prefix + " (" + c.type_name() + "): " + e.message});
  }
  for (const Component* child : c.children())
    check_expectations(*child, prefix.empty() ? child->name() : prefix + "." + child->name(), dae, resolve, report);
}

// The warnings the compiled model as a whole tells (the units pass adds its own).
void collect_warnings(const Model& model, const CompiledModel& compiled, CompileReport& report) {
  const DaeSystem& dae = compiled.dae;
  Rewriter resolve = definition_rewriter(dae);
  check_expectations(model, "", dae, resolve, report);
  std::unordered_map<const Node*, Declared> declared;
  declared_by(model, "", false, declared);
  for (int v : compiled.initialization.default_starts) {
    const DaeVariable& var = dae.variables[v];
    auto it = declared.find(var.symbol);
    if (var.start_given || (it != declared.end() && it->second.start_intended)) continue;
    const std::string component =
        it != declared.end() && !it->second.component.empty() ? it->second.component : dae.model_name;
    report.warnings.push_back(
        {"default_start", component, var.name,
         "state " + var.name + " starts at " + format_number(var.start) + (var.unit.empty() ? "" : " " + var.unit) +
             ", a default start value nobody set: set_start(\"" + var.name +
             "\", value) if " + format_number(var.start) + " is not meant"});
  }
}

}  // namespace

const std::vector<PassInfo>& compiler_passes() {
  static const std::vector<PassInfo> infos = [] {
    std::vector<PassInfo> out;
    for (const Pass& p : passes()) out.push_back(p.info);
    return out;
  }();
  return infos;
}

Simulator Model::compile(const CompileOptions& options) const {
  // Entering compile() from outside is a safe point to free the expressions of
  // models already gone (and the last compile's temporaries): the caller holds
  // handles, not raw nodes. A compile inside a compile is not.
  thread_local int depth = 0;
  if (depth == 0) collect_expressions_if_due();
  ++depth;
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{depth};
  Compilation c{*this, options, {}, {}, std::nullopt};
  for (const Pass& pass : passes()) {
    if (pass.info.name == "native_code" && !options.native_code) continue;
    const auto started = std::chrono::steady_clock::now();
    pass.run(c);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // A pass reports its counts under its own name; one that has nothing to count still appears, timed.
    CompileReport& report = c.report();
    PassReport* entry = nullptr;
    for (PassReport& r : report.passes)
      if (r.pass == pass.info.name) entry = &r;
    if (!entry) entry = &report.add(std::string(pass.info.name));
    entry->seconds = seconds;
  }
  collect_warnings(*this, *c.compiled, c.compiled->dae.report);
  return Simulator(std::make_shared<const CompiledModel>(std::move(*c.compiled)));
}

}  // namespace acausal
