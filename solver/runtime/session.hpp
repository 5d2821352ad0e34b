// Step-by-step simulation: a run that a caller advances one communication step
// at a time (a controller in the loop, a co-simulation master), reading values
// and changing parameters between steps, saving and restoring its state.
// Simulator::simulate() is a session advanced to t_end in one call.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "solver/runtime/result.hpp"
#include "solver/runtime/simulator.hpp"

namespace acausal {

struct SessionRun;

/// Everything a session needs to continue from a point: a plain value, to keep,
/// copy and give back to Session::set_state (of the same compiled model, in a
/// session started at the same t_start).
struct SessionState {
  std::string model;     // the model's name, to refuse a state of another model
  /// Of the compiled model's unknowns and parameters, names and order: a model
  /// of the same name built another way (parts added in another order) differs.
  std::uint64_t fingerprint = 0;
  double t_start = 0.0;  // of the run it was saved from
  double time = 0.0;
  /// The unknowns IDA integrates and their derivatives, in the compiled model's slot order.
  std::vector<double> y, yp;
  /// The values frozen between events: relation modes, discrete variables,
  /// their pre() values, delayed values.
  std::vector<double> frozen;
  std::vector<double> parameters;  // every parameter of the model, in its order
  /// The recorded past (time, value) of each delay() whose argument the solver
  /// computes (empty for a delay of a function of time and parameters).
  std::vector<std::vector<std::pair<double, double>>> delay_history;

  /// The event logic's memory: what the next events are compared with.
  struct Events {
    std::vector<char> when_conditions;  // each condition of each when-clause at the last event
    std::vector<double> root_offsets;   // the hysteresis of root functions that sat on zero
    // Chattering at one instant, Zeno accumulation and dense events, as simulate() detects them.
    double chatter_since = 0.0;
    int chatter_events = 0;
    std::vector<std::string> chatter_relations;
    double cluster_time = 0.0;  // NaN before the first state event
    double cluster_gap = 0.0;
    int shrinking_gaps = 0;
    std::vector<std::string> accumulating_relations;
    std::vector<std::pair<double, std::string>> recent_events;
    /// The event at `time` whose right limit is the last row, if any: an event
    /// at the same instant continues it. NaN when there is none.
    double last_event_time = 0.0;
    std::string last_event_cause;
  } events;

  SolverStatistics statistics;  // the counts so far; they continue from these
};

/// A run that a caller advances step by step (controllers in the loop, co-simulation masters).
///
/// Simulator::start() initializes the model at options.t_start exactly as
/// simulate() does and records the initial row. Then:
///  * advance(t) integrates to t as simulate() would: rows on the output grid
///    (output_interval or output_times), both sides of every event, plus a row
///    at t. The integrator stops at t (as at a time event, without restarting),
///    so the values there are its solution, not an interpolation: a controller
///    written in C++ that samples at the communication points reproduces the
///    same controller sampled in the model. Advancing in many steps without
///    changes follows one simulate() to the integration error, not bit for bit
///    (simulate() steps across the communication points and interpolates).
///    One advance(t_end) records simulate()'s rows bit for bit (with
///    output_times, also the initial row and one at t_end if they are not among them).
///  * get(name) reads any variable or parameter at time(), from the values of
///    the last row (exact outputs when options.exact_outputs).
///  * set_parameter() is an event at time(): a left-limit row (the row at
///    time() already recorded serves), the new value, consistent
///    re-initialization, the event iteration (relations and when-conditions that
///    read the parameter may switch), a right-limit row. The result reads each
///    row with the parameter values it was computed with.
///  * state() / set_state() save and restore the run. Both restart the
///    integrator at the saved point (as an event does: IDA begins again with a
///    first-order step, the exact-output iteration with a fresh matrix), so the
///    continuation after state() and the continuation after set_state() with
///    that state are the same bit for bit. Taking a state thus moves what
///    follows by the integration error, as an event would; nothing else.
///    The event logic's memory goes with the state (when-conditions, the
///    chattering and Zeno detectors, the delays' recorded past), and the
///    statistics continue from its counts.
///  * reset() starts the run again from options.t_start with the parameters
///    the session started with: the rows that follow are those of the first run.
///
/// One session may be called from several threads: the calls take turns
/// (each runs whole, in the order they obtain the session).
///
/// After a SimulationError (or SimulationInterrupted) escaped advance() or
/// set_parameter(), the run stands where the solver stopped; only reset() and
/// set_state() continue it. With realtime_factor > 0, advance() returns no
/// earlier than the wall time that matches time() (see SimulationOptions).
///
/// Movable, not copyable: it owns the solver's memory.
class Session {
 public:
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  /// The time reached.
  double time() const;
  /// Integrates to t (> time(), <= options.t_end), handling every event on the
  /// way; records output rows as simulate() does (the output_interval grid or
  /// output_times, events on both sides) plus a row at t. Throws SimulationError
  /// (with the partial result) when the solver fails.
  void advance(double t);
  /// The current value of any variable of the model (state, algebraic, observed or alias), parameter, or
  /// der(x) of a state x.
  double get(const std::string& name) const;
  /// Changes a parameter (not a structural one) from the current time on: an
  /// event at time() (left-limit row, consistent re-initialization, event
  /// iteration, right-limit row); what a co-simulation master does to set an
  /// input. A parameter that sets a delay time cannot change during a run.
  void set_parameter(const std::string& name, double value);
  /// Everything needed to continue from here. The next advance() restarts the
  /// integrator at this point, as set_state() with this state does: both
  /// continuations are the same bit for bit.
  SessionState state() const;
  /// Continues from a saved state (of this session or another session of the
  /// same compiled model started at the same t_start). The result then begins
  /// again at the saved point: its last row (the right limit of an event at that
  /// instant, if one was), followed by the rows advance() records.
  void set_state(const SessionState& state);
  /// Continues from an operating point of the same compiled model (a steady
  /// state, a row of another run): its values, modes and parameters, with this
  /// session's event memory. The point's time must lie within [t_start, t_end].
  void set_point(const OperatingPoint& point);
  /// Back to the initial point of start(): the initial row only, the parameters start() had.
  void reset();
  /// The rows so far. Unlike simulate(), it always begins with the row at
  /// t_start (simulate() leaves it out when output_times does not include t_start).
  const Result& result() const;
  /// Forgets the rows recorded so far but the last: a co-simulation master that
  /// reads values at its communication points only keeps memory flat over any
  /// number of steps. result() then begins at that row; get() is unchanged.
  void forget_rows();

 private:
  friend class Simulator;
  // caller: "simulate" or "session", for messages.
  Session(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters,
          const SimulationOptions& options, const std::string& caller);
  /// simulate(): integrates to t_end, ending on the last output row, and hands over the result.
  Result finish();
  SessionRun& run() const;
  std::unique_lock<std::mutex> take_turn() const;

  std::unique_ptr<SessionRun> run_;
  // Calls from several threads (Python threads advancing one session with the
  // GIL released) take turns: the run's memory is not shared between them.
  std::unique_ptr<std::mutex> turn_ = std::make_unique<std::mutex>();
};

}  // namespace acausal
