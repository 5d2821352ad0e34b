// Simulation results: trajectories of every variable of the model by name.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/ir/operating_point.hpp"
#include "solver/ir/parameter_info.hpp"
#include "solver/symbolic/expr.hpp"

namespace acausal {

struct CompiledModel;

/// Counters and timings of one simulate() call.
struct SolverStatistics {
  long steps = 0;
  long residual_evaluations = 0;
  long jacobian_evaluations = 0;
  long nonlinear_iterations = 0;
  long nonlinear_convergence_failures = 0;
  long error_test_failures = 0;
  long restarts = 0;  // restarts at order 1 after the corrector failed at every step size
  // Events after which the integrator started afresh (IDAReInit at order 1
  // with a small step). An event that changes nothing the continuous
  // equations read (a sample tick whose controller holds its output) lets
  // the integration continue instead, and is not counted.
  long reinitializations = 0;
  long root_evaluations = 0;  // calls of the event-indicator function by IDA's root finding
  int root_functions = 0;     // state-event indicators IDA watches
  int unknowns = 0;
  std::string linear_solver;  // "dense" or "klu"
  double initialization_seconds = 0.0;
  double integration_seconds = 0.0;
  // Exact outputs (SimulationOptions::exact_outputs): rows made consistent,
  // Newton iterations and matrix factorizations they took, rows left as
  // interpolated because the iteration did not converge, and the time spent.
  long exact_rows = 0;
  long exact_iterations = 0;
  long exact_factorizations = 0;
  long inexact_rows = 0;
  double exact_outputs_seconds = 0.0;
};

class Result {
 public:
  Result() = default;

  const std::vector<double>& time() const { return time_; }
  std::size_t size() const { return time_.size(); }
  /// Trajectory of any variable of the model: state, algebraic, observed or alias.
  std::vector<double> operator[](const std::string& name) const;
  bool has(const std::string& name) const;
  /// Trajectories of several variables, evaluated in one pass over the rows.
  std::vector<std::vector<double>> columns(const std::vector<std::string>& names) const;
  /// An expression of the model's variables, parameters (this run's values),
  /// time and derivatives, at every output time: r.evaluate(wheel.omega * wheel.radius).
  std::vector<double> evaluate(const Expr& e) const;
  std::vector<std::vector<double>> evaluate(const std::vector<Expr>& expressions) const;
  /// The expression printed with the model's dotted names ("wheel.omega*wheel.radius").
  std::string describe(const Expr& e) const;
  /// What a variable is: "shaft.w [rad/s]: an alias, = -inertia.w", "inertia.w [rad/s]: a state".
  std::string describe(const std::string& name) const;
  /// The declared unit of a variable ("" when it has none).
  std::string unit(const std::string& name) const;
  /// The parameters of the model with the values this run started with (a
  /// Session's set_parameter changes some from a row on; each row is read with
  /// the values it was computed with).
  std::vector<ParameterInfo> parameters() const;
  /// The row at time t (at an event instant, its right limit). A time between
  /// rows is an error: simulate with t_eval including it.
  OperatingPoint point(double t) const;
  const std::shared_ptr<const CompiledModel>& model() const { return model_; }
  /// Every variable name, in model order.
  std::vector<std::string> names() const;
  const SolverStatistics& statistics() const { return statistics_; }
  /// Instants of time and state events; each appears twice in time(): before and after.
  const std::vector<double>& event_times() const { return event_times_; }
  /// What caused each event of event_times(): the relations whose root
  /// functions crossed zero ("ball.h < 0"), the time events ("time < step.startTime"),
  /// the samples that ticked, a Session's "set_parameter(name = value)", separated by "; ".
  const std::vector<std::string>& event_causes() const { return event_causes_; }

  /// The parameters of SimulationOptions::sensitivities, in their order (empty without).
  const std::vector<std::string>& sensitivity_parameters() const { return sensitivity_parameters_; }
  /// d variable / d parameter at every row, for any variable of the model
  /// (state, algebraic, observed or alias) and a parameter the run was asked
  /// for in SimulationOptions::sensitivities.
  std::vector<double> sensitivity(const std::string& variable, const std::string& parameter) const;

  /// Writes a CSV (time first, then `columns` or every variable). The file
  /// appears complete or not at all: written to a temporary, then renamed.
  void write_csv(const std::string& path, const std::vector<std::string>& columns = {}) const;
  /// Writes the Modelica MAT v4 result layout (Dymola, OpenModelica; "binTrans"): Aclass, name,
  /// description ("[unit]"), dataInfo, data_1 (the parameters as the run started, at t_start and t_end)
  /// and data_2 (time and every variable, one column per output time). Atomic like write_csv.
  void write_mat(const std::string& path) const;

 private:
  friend class Simulator;
  friend struct SessionRun;
  std::vector<std::vector<double>> tabulate(const std::vector<Expr>& values) const;

  std::shared_ptr<const CompiledModel> model_;
  std::vector<double> parameters_;
  // Parameter values set during a session: from row `first` on, these.
  std::vector<std::pair<std::size_t, std::vector<double>>> parameter_changes_;
  std::vector<double> time_;
  std::vector<double> y_, yp_;  // one row of n values per output time
  std::vector<double> event_times_;
  std::vector<std::string> event_causes_;
  std::vector<double> modes_;  // the frozen relations, one row per output time
  std::vector<std::string> sensitivity_parameters_;
  // Per row, per sensitivity parameter: dy/dp then dy'/dp of the n unknowns.
  std::vector<double> sensitivities_;
  // Loads row `row` into an observer tape's registers (the parameters as the row had them).
  void load_row(std::size_t row, std::size_t& change, double* registers) const;
  SolverStatistics statistics_;
};

}  // namespace acausal
