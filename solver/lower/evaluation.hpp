// Lowering: the compiled model. Residual F(t, y, y', p) and sparse Jacobian
// dF/dy + cj*dF/dy' (symbolic) compiled to tapes; every other variable of the
// model is an expression over the same inputs, evaluated for results.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "solver/ir/dae.hpp"
#include "solver/lower/initialization.hpp"
#include "solver/ir/operating_point.hpp"
#include "solver/ir/parameter_info.hpp"
#include "solver/lower/tape.hpp"

namespace acausal {

struct CompiledModel {
  DaeSystem dae;
  int n = 0;                             // unknowns integrated by IDA
  std::vector<int> variable_of_slot;     // slot -> variable
  std::vector<int> slot_of_variable;     // variable -> slot, -1 when computed
  std::vector<double> differential;      // IDA id vector: 1 for states
  Tape residual;                         // n outputs
  Tape jacobian;                         // one output per structural nonzero, CSC order
  std::vector<long> column_start;        // CSC pattern, n + 1 entries
  std::vector<long> row_index;
  std::vector<std::string> free_states;  // states not fixed by the user: they start at `start`
  std::unordered_map<std::string, int> variable_by_name;
  std::unordered_map<std::string, int> parameter_by_name;
  InitializationPlan initialization;

  // The observed variables (solved by sorting) in solve order, to check at
  // each output row that none is NaN or infinite.
  Tape observed;
  std::vector<int> observed_variables;

  Tape relations;   // one output per mode: its relation's current value
  Tape indicators;  // one output per state-event mode, in state_event_modes order
  std::vector<int> state_event_modes;
  std::unordered_map<const Node*, int> mode_of;  // mode symbol -> index

  // Hybrid part, evaluated at event iterations. Outputs: the definitions of
  // defined discretes (those that read each other inlined), then per
  // when-clause its conditions, then per action its value and, for a reinit,
  // the scale and offset of the target in its state (target = scale·state + offset).
  Tape hybrid;
  std::vector<int> defined_discretes;  // output k -> discrete
  struct When {
    int first_condition = 0, n_conditions = 0;
    struct Action {
      int output = 0;
      int discrete = -1;  // assigns this discrete, or
      int slot = -1;      // sets this state, or neither: an argument of the call
    };
    std::vector<Action> actions;
    std::shared_ptr<const ExternalFunction> call;
    std::vector<int> call_results;  // discretes
  };
  std::vector<When> whens;

  // delay(u, T) nodes, each read from its own input register; a delay nested in
  // another's argument comes first. Each argument has a tape of its own, run at
  // past instants to fill the delay's history.
  std::vector<NodeRef> delays;
  std::unordered_map<const Node*, int> delay_of;
  std::vector<Tape> delay_arguments;

  // Input registers shared by every tape: t, cj, y[n], y'[n], p[...], then the
  // values frozen between solver calls: modes[...], discretes[...], their
  // pre() values[...], delayed values[...].
  int parameter_register() const { return 2 + 2 * n; }
  int mode_register() const { return parameter_register() + static_cast<int>(dae.parameters.size()); }
  int discrete_register() const { return mode_register() + static_cast<int>(dae.modes.size()); }
  int pre_register() const { return discrete_register() + static_cast<int>(dae.discretes.size()); }
  int delay_register() const { return pre_register() + static_cast<int>(dae.discretes.size()); }
  int n_frozen() const { return static_cast<int>(dae.modes.size() + 2 * dae.discretes.size() + delays.size()); }
  int n_inputs() const { return mode_register() + n_frozen(); }
  int input_register(const Node* leaf) const;
  /// Value of variable v as an expression of the inputs.
  Expr value_of(int variable) const;
  Tape observer(const std::vector<Expr>& outputs) const;
  /// Every variable name, in model order (results name them so).
  std::vector<std::string> variable_names() const;
  /// The absolute tolerance of IDA's unknown in `slot`: `atol` scaled by its
  /// variable's nominal, so a force of nominal 1e4 N is not held to the
  /// round-off of a 1 m/s speed (Modelica tools scale the same way).
  double absolute_tolerance(int slot, double atol) const;
};

/// Sets a tape's time, Jacobian coefficient cj, unknowns y and derivatives y'
/// registers (parameters and frozen values stay as they are).
void load_unknowns(const CompiledModel& m, double t, double cj, const double* y, const double* yp, Tape& tape);

/// Sets the registers every tape of the model reads to an operating point (Jacobian coefficient cj).
void load_point(const CompiledModel& m, const OperatingPoint& point, double cj, Tape& tape);

/// The model's parameters with `values` (one per DaeSystem::parameters entry).
std::vector<ParameterInfo> parameter_table(const CompiledModel& m, const std::vector<double>& values);

CompiledModel build_evaluation(DaeSystem dae);

/// Throws ModelError when parameter p (now `current`) cannot take `value`: a
/// structural parameter, or a value out of its declared range.
void check_parameter_change(const CompiledModel& m, int p, double current, double value);

/// The Jacobian tape gives dF/dy + cj·dF/dy' per structural nonzero (CSC
/// order); its two parts at one point are its values at cj = 0 and the
/// difference at cj = 1. `load(cj)` writes the point and cj into the tape.
void jacobian_parts(const CompiledModel& m, Tape& jacobian, const std::function<void(double cj)>& load,
                    std::vector<double>& d_dy, std::vector<double>& d_dyp);

/// dF_i/dp_j of the integrator's residual for the given parameters (indices
/// into dae.parameters), row by row: entry i·parameters.size() + j.
std::vector<Expr> residual_parameter_partials(const CompiledModel& m, const std::vector<int>& parameters);

}  // namespace acausal
