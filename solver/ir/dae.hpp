// The plain data structure passed between compiler passes.
//
// Flattening fills it; each later pass rewrites equations and records, for
// every variable it removes from the unknowns, an expression that gives the
// variable's value from what remains. Variables are never deleted, so every
// name of the model stays readable in results.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "solver/modeling/component.hpp"
#include "solver/symbolic/expr.hpp"
#include "solver/ir/report.hpp"

namespace acausal {

struct DaeVariable {
  std::string name;  // dotted path: "car.wheel_rl.omega"
  std::string unit;
  double start = 0.0;
  bool fixed = false;
  bool start_given = false;
  double nominal = 1.0;
  StateSelect state = StateSelect::default_;
  Causality causality = Causality::internal;
  NodeRef symbol;
  /// Set when a pass removes the variable from the unknowns.
  NodeRef definition;
  /// Index in DaeSystem::consumed_equations of the equation that fixed it to a parameter value.
  int fixed_by = -1;
  /// Index in DaeSystem::consumed_equations of the equation sorting solved for
  /// it (an observed variable); those indices follow the solve order.
  int solved_from = -1;
};

struct DaeParameter {
  std::string name;
  double value = 0.0;
  ParameterAttributes attributes;
  NodeRef symbol;
};

struct DaeEquation {
  Expr residual;    // residual = 0
  Equation source;  // as written, for messages
  int origin = -1;  // index in DaeSystem::origins
};

/// A value that must stay nonzero for the compiled model to be valid (a pivot
/// the compiler divided by), with the equation it came from.
struct NonzeroCondition {
  Expr value;
  std::string reason;
};

/// A relation whose value is frozen between events (Modelica semantics): the
/// residual reads `symbol` (0 or 1); the integrator watches `indicator`
/// (its sign change is the event) or, for a time event, stops at `event_time`.
struct EventMode {
  NodeRef symbol;
  Expr relation;   // evaluates to 1 or 0 from the current values
  Expr indicator;  // relation switches where this crosses zero
  bool time_event = false;
  /// Reads only parameters and other modes (a gear compared after a shift
  /// schedule set it): constant between events, re-evaluated by the event
  /// iteration, no root function.
  bool follows_modes = false;
  /// Only the switch of abs, min or max: the two branches it chooses between
  /// agree where it switches, so the model is continuous across it and the
  /// switch cannot chatter (see the chattering detectors in session.cpp).
  bool continuous = false;
  Expr event_time;  // parameter expression, for time events
  std::string description;
  std::string origin;  // the component whose equation it was written in
};

/// A discrete variable of the flattened model (hybrid models). initial() and
/// each sample() the model reads are discrete variables too, set by the simulator.
struct DaeDiscrete {
  enum class Role { declared, initial, sample };
  std::string name;
  NodeRef symbol;  // the leaf equations read
  NodeRef pre;     // its pre() leaf
  DiscreteAttributes attributes;
  Role role = Role::declared;
  Expr definition;  // `x == definition`, when `defined`; otherwise assigned by when-clauses
  bool defined = false;
  bool assigned = false;  // by a when-clause
  int origin = -1;
  SampleClock clock;  // Role::sample
};

/// A when-clause: each action assigns a discrete variable, reinitializes a
/// variable (a state) or, assigning neither, is an argument of the clause's
/// external call, in order.
struct DaeWhen {
  struct Action {
    int discrete = -1;  // assigned discrete variable, or
    int variable = -1;  // reinitialized variable
    Expr value;
    bool is_argument() const { return discrete < 0 && variable < 0; }
  };
  std::vector<Expr> conditions;
  std::vector<Action> actions;
  std::string assertion;  // not empty: the run ends with this message while the condition holds
  int origin = -1;
  std::shared_ptr<const ExternalFunction> call;  // called after the assignments, when set
  std::vector<int> call_results;                 // the discretes its results assign
};

/// A condition on parameter values (`a + b = L`) that every run must meet.
struct ParameterCondition {
  Expr condition;
  std::string requirement;  // "body (vehicle::VehicleBody): a + b must equal L"
};

/// Var or Param symbol -> its index in the model, looked up by symbol number
/// (no hashing: compiler passes ask this for every leaf they meet).
class SymbolIndex {
 public:
  int find(const Node* symbol) const {  // -1 when absent
    if (symbol->op != Op::Var && symbol->op != Op::Param) return -1;
    std::size_t k = symbol->symbol - first_;
    return symbol->symbol >= first_ && k < index_.size() ? index_[k] : -1;
  }
  int at(const Node* symbol) const;  // throws std::out_of_range when absent
  bool contains(const Node* symbol) const { return find(symbol) >= 0; }
  void set(const Node* symbol, int index);

 private:
  std::uint32_t first_ = 0;  // a model's symbols were made together: a dense range
  std::vector<int> index_;
};

struct DaeSystem {
  std::string model_name;
  std::vector<DaeVariable> variables;
  std::vector<DaeParameter> parameters;
  std::vector<DaeEquation> equations;
  std::vector<DaeEquation> initial_equations;
  std::vector<DaeEquation> consumed_equations;  // used up by alias elimination, kept for messages
  /// Where equations come from: "inertia (rotational::Inertia)", "connect(a.flange_b, b.flange_a)".
  std::vector<std::string> origins;
  std::vector<NonzeroCondition> nonzero_conditions;
  std::vector<ParameterCondition> parameter_conditions;
  std::vector<EventMode> modes;
  std::vector<DaeDiscrete> discretes;
  std::unordered_map<const Node*, int> discrete_of;  // Discrete leaf (a discrete or its pre()) -> index
  std::vector<DaeWhen> whens;
  /// The top-level RealOutputs: the model's outputs (its inputs are the parameters marked input).
  std::vector<int> outputs;
  /// der(s) -> the affine expression equations read instead (derivative aliases pass).
  std::vector<std::pair<NodeRef, NodeRef>> derivative_aliases;
  SymbolIndex variable_of;   // Var symbol -> index
  SymbolIndex parameter_of;  // Param symbol -> index
  CompileReport report;

  /// Prints an expression with flattened names, cut after max_chars (see to_string).
  std::string print(const Expr& e, std::size_t max_chars = std::string::npos) const;
  std::string describe(const DaeEquation& eq) const;
  /// Variable index of a Var or Der leaf (the differentiated variable for Der).
  int variable_index(const Node* leaf) const;
  bool is_unknown(int variable) const { return variables[variable].definition == nullptr; }
  double parameter_value(const Node* param) const;
  /// Throws ModelError for the first parameter condition that `value` violates.
  void check_parameter_conditions(const std::function<double(const Node*)>& value) const;
};

/// A rewriter replacing each variable that has a definition by that definition.
Rewriter definition_rewriter(const DaeSystem& dae);

/// Replaces every variable that has a definition by it, in the equations,
/// the initial equations and the other definitions.
void substitute_definitions(DaeSystem& dae);

}  // namespace acausal
