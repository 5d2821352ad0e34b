// The compiled model and its integration with SUNDIALS IDA.
#pragma once

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/ir/report.hpp"
#include "solver/runtime/result.hpp"

namespace acausal {

class Session;
class ModelExchange;

enum class LinearSolver { automatic, dense, klu };

struct SimulationOptions {
  double t_start = 0.0;
  double t_end = 1.0;
  double output_interval = 0.01;
  double rtol = 1e-6;
  double atol = 1e-8;
  LinearSolver linear_solver = LinearSolver::automatic;
  int dense_threshold = 100;  // automatic: dense up to this many unknowns, KLU above
  long max_steps = 100000;  // between two output times
  double max_step = 0.0;  // 0: no limit
  double initial_step = 0.0;  // 0: IDA's own estimate
  /// Output rows at these times (increasing, within [t_start, t_end]) instead
  /// of every output_interval; event instants are recorded as always.
  std::vector<double> output_times;
  /// Each output row solved for the algebraic unknowns and derivatives with
  /// the states as integrated, so every equation holds to rounding (DESIGN 5).
  bool exact_outputs = true;
  /// Memory the stored rows may take (bytes); a run that would need more is
  /// refused before it starts, or stopped when events add rows past it.
  double max_output_bytes = 4e9;
  /// Polled while integrating: once it reads true the run stops within a
  /// residual evaluation and throws SimulationInterrupted (Ctrl-C from Python).
  const std::atomic<bool>* interrupt = nullptr;
  /// Pacing against wall time: 0 runs as fast as it can; r > 0 lets simulated
  /// time advance at most r times as fast as wall time (1: real time), by
  /// sleeping at output rows and at the end of each Session::advance().
  double realtime_factor = 0.0;
  /// Parameters whose forward sensitivities simulate() integrates with the
  /// model (IDAS): Result::sensitivity(variable, parameter) then gives
  /// d variable / d parameter at every row. Empty: plain IDA work.
  std::vector<std::string> sensitivities;
};

/// Throws ModelError naming the first field of `options` that is out of range.
void validate(const SimulationOptions& options, const std::string& model_name);

/// The solver failed. Carries the time reached, IDA's return code and message,
/// and the result up to that time.
class SimulationError : public std::runtime_error {
 public:
  SimulationError(const std::string& message, double time_reached, int return_code, std::string solver_message,
                  Result partial)
      : std::runtime_error(message),
        time_reached_(time_reached),
        return_code_(return_code),
        solver_message_(std::move(solver_message)),
        partial_(std::move(partial)) {}
  double time_reached() const { return time_reached_; }
  int return_code() const { return return_code_; }
  const std::string& solver_message() const { return solver_message_; }
  const Result& partial_result() const { return partial_; }

 private:
  double time_reached_;
  int return_code_;
  std::string solver_message_;
  Result partial_;
};

/// The run was stopped through SimulationOptions::interrupt; the partial result is kept.
class SimulationInterrupted : public SimulationError {
 public:
  using SimulationError::SimulationError;
};

/// A compiled model, ready to simulate many times; parameters can change
/// between runs without recompiling.
class Simulator {
 public:
  explicit Simulator(std::shared_ptr<const CompiledModel> model);

  void set_parameter(const std::string& name, double value);
  /// A parameter with choices by the choice's name ("car.wheel_rl.tire_law",
  /// "pacejka"); choices are structural, so this names the choice in the
  /// "set it before compile()" error unless it is the compiled one.
  void set_parameter(const std::string& name, const std::string& choice);
  /// Sets every parameter whose name matches `pattern` ("car.wheel_*.mu":
  /// `*` within a name segment, `**` across segments, `?` one character;
  /// path_matches in component.hpp) and returns how many; none matching is a
  /// ModelError naming the pattern. All or nothing: an invalid value for one
  /// (a bound, a structural parameter) leaves all unchanged.
  int set_parameters(const std::string& pattern, double value);
  double parameter(const std::string& name) const;
  std::vector<std::string> parameter_names() const;
  /// Every parameter with its current value and declared attributes.
  std::vector<ParameterInfo> parameters() const;
  /// The model's interface: its unconnected top-level RealInputs (set like
  /// parameters, by these names) and its top-level RealOutputs.
  std::vector<std::string> inputs() const;
  std::vector<std::string> outputs() const;
  /// The compiled model (for analyses such as linearize()).
  const CompiledModel& compiled() const { return *model_; }
  const CompileReport& report() const;

  Result simulate(const SimulationOptions& options = {}) const;
  /// Initializes a run at options.t_start for a caller to advance step by step
  /// (solver/runtime/session.hpp); it uses the parameters as they are now.
  Session start(const SimulationOptions& options = {}) const;
  /// Initializes a run at options.t_start whose states another program
  /// integrates (solver/runtime/model_exchange.hpp: an FMI Model Exchange host).
  ModelExchange start_model_exchange(const SimulationOptions& options = {}) const;

 private:
  int parameter_index(const std::string& name) const;

  std::shared_ptr<const CompiledModel> model_;
  std::vector<double> parameters_;
};

}  // namespace acausal

// Simulator::start() returns a Session: whichever of the two headers comes first, both are complete.
#include "solver/runtime/session.hpp"
