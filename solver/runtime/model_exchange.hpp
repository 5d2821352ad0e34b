// Model Exchange: a run whose states another program integrates (an FMI
// Model Exchange master, a co-simulation host with its own ODE solver). The
// model gives what an ODE integrator asks for: dx/dt at a time and states it
// sets, event indicators whose sign changes mark state events, the time of
// the next time event, and the event iteration at an event, all with the
// library's own semantics (the same code handles events in Session).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solver/runtime/session.hpp"

namespace acausal {

struct SessionRun;

/// The states are the differential unknowns of the compiled DAE (after index
/// reduction), in the compiled model's slot order. Setting time and states
/// leaves the rest to the next call that needs it: derivatives(),
/// event_indicators() and get() first solve F(t, y, y') = 0 for the algebraic
/// unknowns and every derivative at the states as set (Newton's method, from
/// the last solution), so algebraic loops never reach the host.
///
/// Between events the relations keep their values: a host that integrates
/// past a sign change of an indicator, or up to next_time_event(), calls
/// event() there, which switches the relations whose indicator changed sign,
/// fires the time events due, and runs Modelica's event iteration (when-
/// clauses, reinit, discrete variables) as Session does at the same event.
class ModelExchange {
 public:
  ModelExchange(ModelExchange&&) noexcept;
  ModelExchange& operator=(ModelExchange&&) noexcept;
  ModelExchange(const ModelExchange&) = delete;
  ModelExchange& operator=(const ModelExchange&) = delete;
  ~ModelExchange();

  int n_states() const;
  int n_event_indicators() const;
  /// The variables the states are, in state order.
  std::vector<std::string> state_names() const;

  double time() const;
  void set_time(double t);
  void set_states(const std::vector<double>& x);
  std::vector<double> states() const;
  /// dx/dt at the time and states set; throws SimulationError when the
  /// algebraic equations have no solution there (Newton fails).
  std::vector<double> derivatives();
  /// One per relation that causes state events: its sign tells the relation's side.
  std::vector<double> event_indicators();
  /// The next time event after time() (a sample tick, a step's instant), or +infinity.
  double next_time_event() const;

  struct EventOutcome {
    bool states_changed = false;  // reinit() moved a state: the host restarts from states()
    double next_time_event = 0.0;
  };
  /// The event at time(): state events (indicators that changed sign since
  /// the last event), time events due, and the event iteration.
  EventOutcome event();
  /// The step the host accepted ends at time(): delays record the solution there.
  void completed_step();

  /// Any variable or parameter, or der(x) of a state x, at the time and states set.
  double get(const std::string& name);
  /// An input's new value between events: no event (the host's integration
  /// sees it as part of the right-hand side; relations that read it switch at
  /// their indicator's sign change).
  void set_input(const std::string& name, double value);
  /// A parameter's new value at an event (Session::set_parameter).
  void set_parameter(const std::string& name, double value);

  SessionState state() const;
  void set_state(const SessionState& state);

 private:
  friend class Simulator;
  ModelExchange(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters,
                const SimulationOptions& options);
  void solve();

  std::unique_ptr<SessionRun> run_;
  std::vector<int> state_slots_;  // the states' slots in y, in state order
  bool solved_ = true;  // the algebraic unknowns and derivatives match the time and states set
};

}  // namespace acausal
