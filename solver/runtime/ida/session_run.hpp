// The private header of a run (Session, Simulator::simulate): the SessionRun
// that owns the solver's memory and every step of a run as its member
// functions, split by concern over the files of this folder:
//   ida.cpp              SUNDIALS: the vectors, IDA and its linear solver, the callbacks
//   setup.cpp            checks, initialization at t_start, clocks and time events
//   integrate.cpp        the integration loop between events and communication points
//   event_iteration.cpp  relations, consistent re-initialization, Modelica's event iteration
//   rows.cpp             output rows, exact outputs, non-finite checks, statistics
//   state.cpp            parameters, get(), state() / set_state()
// Only this folder includes SUNDIALS headers.
#pragma once

#include <fmt/format.h>
#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "solver/lower/evaluation.hpp"
#include "solver/runtime/delay_lines.hpp"
#include "solver/runtime/exact_outputs.hpp"
#include "solver/runtime/ida/sensitivities.hpp"
#include "solver/runtime/session.hpp"

namespace acausal {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
/// IDA's name of a return flag ("IDA_CONV_FAIL").
std::string flag_name(int flag);
/// A result row stores t, y, y', the frozen values and per sensitivity dy/dp
/// and dy'/dp; every other variable is computed when read.
double stored_row_bytes(const CompiledModel& m, const SimulationOptions& options);
/// The parameter conditions and the divisors the compiler assumed nonzero, for
/// parameter values about to be used.
void check_parameter_values(const CompiledModel& m, const std::vector<double>& values);

// Owns the SUNDIALS objects of one run; frees them whatever happens.
struct Sundials {
  SUNContext context = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr, atol = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* ida = nullptr;
  N_Vector dky = nullptr, dkyp = nullptr;  // views of the scratch arrays for the delays' samples
  N_Vector ypp = nullptr;                  // y'' at a root, for the sensitivities' jump
  Sundials() = default;
  Sundials(const Sundials&) = delete;
  Sundials& operator=(const Sundials&) = delete;
  ~Sundials();
};

// Callback state: tapes with their own registers, so runs are independent.
struct Integration {
  const CompiledModel* model;
  Tape residual, jacobian, indicators;
  bool sparse = false;
  DelayLines* delays = nullptr;  // null when the model has no delay()
  const std::atomic<bool>* interrupt = nullptr;
  std::string last_message;
  int nonfinite_equation = -1;  // the last residual found NaN or infinite, for the failure message
  double nonfinite_time = 0.0;
  std::vector<double> root_offset;  // per root function, see arm_roots
  ForwardSensitivities* sensitivities = nullptr;
  // Relations read states, never IDA's y': between steps y' is the slope of
  // the interpolating polynomial, off the equations by the integration error,
  // and a relation on it (a clamp of der(x), a stuck brake's speed written
  // through der(phi)) moves by that error when IDA restarts after its event:
  // the root is found again and again at one instant. Where a relation reads
  // a derivative, y' and the algebraic unknowns are solved from the equations
  // at the states as they stand (as for exact outputs) before it is read.
  // Null when no relation reads a derivative.
  ExactOutputs* exact_relations = nullptr;
  std::vector<double> exact_y, exact_yp;

  // Loads `tape` for relations or root functions at (t, y, y').
  void load_relations(double t, const double* y, const double* yp, Tape& tape) {
    if (!exact_relations) return load(t, 0.0, y, yp, tape);
    exact_y.assign(y, y + model->n);
    exact_yp.assign(yp, yp + model->n);
    exact_relations->solve(exact_y.data(), exact_yp.data(),
                           [&](Tape& into, double cj, const double* y_, const double* yp_) { load(t, cj, y_, yp_, into); });
    load(t, 0.0, exact_y.data(), exact_yp.data(), tape);
  }

  static int sensitivity_fn(int, double t, N_Vector y, N_Vector yp, N_Vector, N_Vector* yS, N_Vector* ypS,
                            N_Vector* rrS, void* user, N_Vector, N_Vector, N_Vector);

  void load(double t, double cj, const double* y, const double* yp, Tape& tape) const {
    load_unknowns(*model, t, cj, y, yp, tape);
    if (delays) delays->values_at(t, tape.inputs() + model->delay_register());
  }

  static int root_fn(double t, N_Vector y, N_Vector yp, double* g, void* user);

  bool interrupted() const { return interrupt && interrupt->load(std::memory_order_relaxed); }

  static int residual_fn(double t, N_Vector y, N_Vector yp, N_Vector rr, void* user);

  static int jacobian_fn(double t, double cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix J, void* user, N_Vector,
                         N_Vector, N_Vector);

  static void error_fn(int, const char*, const char* function, char* message, void* user);
};

// One run: the state simulate() kept in its locals, and its steps as member
// functions. Never moved once made (IDA and the callbacks hold its address).
struct SessionRun {
  /// Checks the options and parameters (ModelError), then initializes the model at options.t_start.
  static std::unique_ptr<SessionRun> create(std::shared_ptr<const CompiledModel> model,
                                            const std::vector<double>& parameters, const SimulationOptions& options,
                                            const std::string& caller);

  SessionRun(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters,
             const SimulationOptions& options, const std::string& caller);
  SessionRun(const SessionRun&) = delete;
  SessionRun& operator=(const SessionRun&) = delete;

  // The run's fixed data.
  const std::shared_ptr<const CompiledModel> model_ptr;
  const CompiledModel& m;
  const SimulationOptions options;
  const std::string caller;  // "simulate" or "session"
  const std::string where;   // "simulate(model)": the head of messages
  const std::vector<double> start_parameters;
  const int n, n_modes, n_discretes;
  const bool sparse;
  const bool given_times;
  const std::size_t max_rows;

  std::vector<double> parameters;  // the current values
  Result result;
  SolverStatistics& stats;
  DelayLines delays;
  Integration integ;
  // The frozen values: modes, discretes, their pre() values, delayed values.
  std::vector<double> modes;
  const int discrete_offset, pre_offset, delay_offset;
  Tape relations, observed, hybrid;
  // The instants of the time-event modes (timed_modes[i] is output i). Those
  // that read frozen values (moving[i]: a table's next breakpoint) are read
  // anew whenever the next stop is asked for, and are not in `time_events`.
  std::vector<int> timed_modes;
  Tape event_times;
  std::vector<char> moving;
  bool any_moving = false;
  /// The next time event after t (scheduled or moving), +inf when none up to t_end.
  double next_time_event();
  ExactOutputs exact;
  std::unique_ptr<ExactOutputs> exact_relations;  // see Integration::exact_relations
  std::vector<Tape*> tapes;
  std::vector<double> time_events;
  std::size_t next_event = 0;
  std::vector<int> clocks;  // discretes that are sample() clocks
  bool drop_initial_row = false;
  long n_outputs = 0;
  long k = 1;  // the next output row
  const bool has_hybrid;

  Sundials s;
  double* y = nullptr;
  double* yp = nullptr;
  double t;
  // IDAReInit zeroes IDA's counters: the counts of earlier segments are kept aside.
  SolverStatistics before_reinit;
  long restarts = 0;  // after convergence failures
  long reinitializations = 0;  // at events (SolverStatistics::reinitializations)
  // Quiet events. IDA's solution stays consistent through an event that
  // changes none of the frozen values the residual reads and jumps no state
  // (a sample tick whose controller holds its output, a when-clause that only
  // assigns what the hybrid part reads): the integration then continues with
  // IDA's history instead of restarting at order 1 with a tiny step.
  // `residual_reads[i]`: the residual reads modes[i] (a mode, discrete or pre()).
  std::vector<char> residual_reads;
  std::vector<double> frozen_at_consistency;  // modes as they were where y, y' were last consistent
  bool quiet_events = false;       // set by run() around its events: the integrator's own loop
  bool consistent_in_event = false;  // make_consistent ran during the event being handled
  bool states_jumped = false;       // a reinit() moved a state during it
  double last_restart = std::numeric_limits<double>::quiet_NaN();  // the instant of the last one
  // Relations evaluated from the current values (at t0 and at time events).
  // Modes that a root just switched keep the value the crossing gave them: at
  // the root their relation sits on its threshold and could read either way.
  std::vector<char> switched_by_root;
  // The modes whose relation reads pre() of each discrete: when that pre()
  // moves at an event, the relation's threshold moved with it (time >=
  // pre(next_breakpoint)), and the value a root gave it no longer holds.
  std::vector<std::vector<int>> modes_reading_pre;
  // pre() of each condition of each when-clause: a clause fires when any of
  // its conditions becomes true (Modelica's when {c1, c2}), so a condition
  // already true does not mask the rising edge of another (initial()).
  std::vector<std::vector<char>> condition_before;
  // Per when-clause, the run's own instance of its external function (made at its first call).
  std::vector<std::unique_ptr<ExternalFunction::Instance>> external_instances;
  std::vector<int> changed_discretes;
  // With delays, the solver goes step by step so that each step's solution is recorded.
  std::vector<double> scratch_y, scratch_yp;

  // The left-limit row of an event. An event at the instant of the one just
  // handled (a time event and a root function that jumps with it) continues
  // that one: its right-limit row is recorded again rather than a second event.
  double continued_event = std::numeric_limits<double>::quiet_NaN();
  std::string cause;  // of the event being handled
  std::vector<int> roots;
  struct {
    double since;
    int events;
    std::set<std::string> relations;
  } chatter;
  // Zeno behaviour: state events ever closer together (a ball bouncing to
  // rest) accumulate at an instant the integration would never pass; past
  // it the model's assumptions (a ball above the floor) no longer hold.
  struct {
    double last = std::numeric_limits<double>::quiet_NaN();
    double gap = std::numeric_limits<double>::infinity();
    int shrinking = 0;
    std::set<std::string> relations;
  } accumulation;
  const double zeno_gap;
  std::deque<std::pair<double, std::string>> recent_events;
  // A switch of abs, min or max (EventMode::continuous) changes no value: a
  // relation that only chooses between equal values, crossing back and forth,
  // is no sliding mode the model misses. Events of such relations alone are
  // not chattering; they are counted apart, against a budget
  // continuous_budget times larger, only so that no run can hang on them
  // (not kept in a SessionState: a restored session counts them afresh).
  struct {
    double since;
    int events;
  } continuous_chatter;
  std::deque<double> recent_continuous_events;

  // Session bookkeeping.
  bool restart_pending = false;  // state() was taken: the next step restarts the integrator here
  bool broken = false;           // an error escaped in the middle of a step
  std::string broken_because;
  std::vector<int> delay_time_parameters;
  Clock::time_point wall_origin;  // the wall time at which the run was at t_start (realtime_factor)
  Clock::time_point step_started;
  double seconds_before_step = 0.0;
  std::unordered_map<std::string, Tape> probes;  // get(): one tape per variable asked for

  // Forward sensitivities (SimulationOptions::sensitivities), null without.
  std::vector<int> sensitivity_parameters;
  std::unique_ptr<ForwardSensitivities> sensitivities;
  std::vector<double> yp_before_event;  // y' at the left limit of the event being handled
  std::vector<double> event_time_partials;  // dτ/dp of that event; empty when its time depends on none

  static constexpr double hysteresis = 1e-10;
  static constexpr int max_events_at_one_instant = 100;
  static constexpr int zeno_shrinking_gaps = 8;
  // Chattering that creeps forward (a sliding mode switched at every step):
  // this many state events within a millionth of the run.
  static constexpr std::size_t dense_events = 200;
  static constexpr int continuous_budget = 10;
  static constexpr int max_event_iterations = 100;
  static constexpr double max_sample_ticks = 1e7;  // per clock and run

  double leaf_value(const Node* leaf) const { return parameters[m.dae.parameter_of.at(leaf)]; }
  std::function<double(const Node*)> leaf_values() const {
    return [this](const Node* leaf) { return leaf_value(leaf); };
  }
  void update_delayed(double at) {
    if (!delays.empty()) delays.values_at(at, modes.data() + delay_offset);
  }
  // set_modes copies the delayed values too; the callbacks refresh them for their own t.
  void set_modes() {
    for (Tape* tape : tapes) std::copy(modes.begin(), modes.end(), tape->inputs() + m.mode_register());
  }
  void copy_parameters() {
    for (Tape* tape : tapes) std::copy(parameters.begin(), parameters.end(), tape->inputs() + m.parameter_register());
    delays.set_parameters(parameters);
  }

  // IDA and its vectors (ida.cpp).
  void create_vectors();
  void create_integrator();

  void check_clock(int k, double start, double interval, double from) const;
  void schedule_time_events(double from);
  bool ticks(int k, double at) const;
  double output_time(long k) const;
  void check_observed(double at);
  void row_without_unknowns(double at);
  [[noreturn]] void fail(const std::string& what, int flag, double at);
  std::string step_diagnosis() const;
  void check(int flag, const char* what) {
    if (flag < 0) fail(std::string(what) + " failed", flag, options.t_start);
  }
  void make_exact(double at);
  void record(double at);
  void statistics();
  bool restart_after_convergence_failure();
  bool evaluate_relations(double at, bool only_time_events);
  std::string worst_residuals(double at);
  // The exact-output iteration's view of the model at time `at`: the integrator's loader.
  ExactOutputs::Loader load_at(double at) {
    return [this, at](Tape& tape, double cj, const double* y_, const double* yp_) { integ.load(at, cj, y_, yp_, tape); };
  }
  void make_consistent(double at, bool at_start);
  /// make_consistent, unless the event so far leaves the residual's inputs as
  /// they were at the last consistent point (see quiet_events).
  void keep_consistent(double at, bool at_start);
  bool residual_inputs_unchanged() const;
  bool consistent_by_newton(double at);
  void remember_conditions();
  void run_hybrid(double at);
  bool rising_edge(std::size_t w) const;
  bool discrete_pass(double at);
  void call_external(std::size_t w, double at, const std::vector<double>& arguments, std::vector<double>& next);
  void check_assertions(double at) const;
  bool settle_cycle(double at, bool at_start, const std::vector<int>& cycling);
  void event_iteration(double at, bool at_start);
  void set_instant_flags(double at, bool initializing);
  void clear_instant_flags(double at);
  int step_to(double target);
  void arm_roots(double at);
  void begin_event(double at, std::string why);
  void check_chattering();
  void finish_event(double at_event);
  void state_event();
  void time_event();
  bool event_at(double at) const {
    return !result.event_times_.empty() && !(at - result.event_times_.back() > 1e-12 * (1.0 + std::fabs(at)));
  }
  void run(double goal, bool row_at_goal);
  void run_without_unknowns(double goal, bool row_at_goal);
  void pace(double simulated);
  void root_sensitivities();
  void hand_over_sensitivities(double at);
  void time_event_sensitivities(const std::vector<int>& firing);

  // Session operations.
  void ensure_usable(const char* operation) const;
  void advance(double goal, bool row_at_goal);
  void restart_here();
  void restart();
  void check_parameters(const std::vector<double>& candidate) const;
  void note_parameters();
  /// The parameters with `name` set to `value`, after every check a change during the run must pass.
  std::vector<double> parameters_with(const std::string& name, double value) const;
  void set_parameter(const std::string& name, double value);
  /// Forgets the rows recorded so far but the last.
  void forget_rows();
  double get(const std::string& name);
  int state_slot_of_derivative(const std::string& name) const;
  SessionState state();
  std::uint64_t fingerprint() const;
  void set_state(const SessionState& state);
  Result take_result();
  /// Forgets the first `count` rows (all of them at most).
  void drop_first_rows(std::size_t count);
};

}  // namespace acausal
