#include "solver/session.hpp"

#include <fmt/format.h>
#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <numeric>
#include <set>
#include <thread>
#include <unordered_map>

#include "solver/delay_lines.hpp"
#include "solver/evaluation.hpp"
#include "solver/exact_outputs.hpp"
#include "solver/sensitivities.hpp"

namespace acausal {

namespace {

// IDAGetReturnFlagName returns a malloc'ed string.
std::string flag_name(int flag) {
  char* name = IDAGetReturnFlagName(flag);
  std::string result = name ? name : "unknown flag";
  std::free(name);
  return result;
}

// Owns the SUNDIALS objects of one run; frees them whatever happens.
struct Sundials {
  SUNContext context = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* ida = nullptr;
  N_Vector dky = nullptr, dkyp = nullptr;  // views of the scratch arrays for the delays' samples
  N_Vector ypp = nullptr;                  // y'' at a root, for the sensitivities' jump
  Sundials() = default;
  Sundials(const Sundials&) = delete;
  Sundials& operator=(const Sundials&) = delete;
  ~Sundials() {
    if (ida) IDAFree(&ida);
    if (solver) SUNLinSolFree(solver);
    if (matrix) SUNMatDestroy(matrix);
    if (ypp) N_VDestroy(ypp);
    if (dkyp) N_VDestroy(dkyp);
    if (dky) N_VDestroy(dky);
    if (id) N_VDestroy(id);
    if (yp) N_VDestroy(yp);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

using Clock = std::chrono::steady_clock;

// A result row stores t, y, y', the frozen values and per sensitivity dy/dp
// and dy'/dp; every other variable is computed when read.
double stored_row_bytes(const CompiledModel& m, const SimulationOptions& options) {
  return sizeof(double) * (1.0 + 2.0 * m.n * (1.0 + options.sensitivities.size()) + m.n_frozen());
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The parameter conditions and the divisors the compiler assumed nonzero, for
// parameter values about to be used.
void check_parameter_values(const CompiledModel& m, const std::vector<double>& values) {
  auto value = [&](const Node* leaf) { return values[m.dae.parameter_of.at(leaf)]; };
  m.dae.check_parameter_conditions(value);
  for (const auto& condition : m.dae.nonzero_conditions) {
    double v = evaluate(condition.value, value);
    if (v == 0.0 || !std::isfinite(v))
      throw ModelError("with the current parameters " + m.dae.print(condition.value) + " = " + format_number(v) +
                       ", but the compiled model divides by it (" + condition.reason + ")");
  }
}

}  // namespace

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

  static int sensitivity_fn(int, double t, N_Vector y, N_Vector yp, N_Vector, N_Vector* yS, N_Vector* ypS,
                            N_Vector* rrS, void* user, N_Vector, N_Vector, N_Vector) {
    auto* self = static_cast<Integration*>(user);
    if (self->interrupted()) return -1;
    return self->sensitivities->residual(t, y, yp, yS, ypS, rrS);
  }

  void load(double t, double cj, const double* y, const double* yp, Tape& tape) const {
    load_unknowns(*model, t, cj, y, yp, tape);
    if (delays) delays->values_at(t, tape.inputs() + model->delay_register());
  }

  static int root_fn(double t, N_Vector y, N_Vector yp, double* g, void* user) {
    auto* self = static_cast<Integration*>(user);
    self->load(t, 0.0, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->indicators);
    self->indicators.run();
    for (std::size_t i = 0; i < self->indicators.n_outputs(); ++i)
      g[i] = self->indicators.output(i) + self->root_offset[i];
    return 0;
  }

  bool interrupted() const { return interrupt && interrupt->load(std::memory_order_relaxed); }

  static int residual_fn(double t, N_Vector y, N_Vector yp, N_Vector rr, void* user) {
    auto* self = static_cast<Integration*>(user);
    if (self->interrupted()) return -1;  // unrecoverable: IDA returns at once
    self->load(t, 0.0, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->residual);
    self->residual.run();
    double* r = N_VGetArrayPointer(rr);
    bool finite = true;
    for (int i = 0; i < self->model->n; ++i) {
      r[i] = self->residual.output(i);
      if (!std::isfinite(r[i]) && finite) {
        finite = false;
        self->nonfinite_equation = i;
        self->nonfinite_time = t;
      }
    }
    return finite ? 0 : 1;  // recoverable: IDA retries with a smaller step
  }

  static int jacobian_fn(double t, double cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix J, void* user, N_Vector,
                         N_Vector, N_Vector) {
    auto* self = static_cast<Integration*>(user);
    const CompiledModel& m = *self->model;
    self->load(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), self->jacobian);
    self->jacobian.run();
    if (self->sparse) {
      sunindextype* colptr = SUNSparseMatrix_IndexPointers(J);
      sunindextype* rows = SUNSparseMatrix_IndexValues(J);
      double* data = SUNSparseMatrix_Data(J);
      for (int c = 0; c <= m.n; ++c) colptr[c] = m.column_start[c];
      for (std::size_t k = 0; k < m.row_index.size(); ++k) {
        rows[k] = m.row_index[k];
        data[k] = self->jacobian.output(k);
      }
    } else {
      SUNMatZero(J);
      for (int c = 0; c < m.n; ++c)
        for (long k = m.column_start[c]; k < m.column_start[c + 1]; ++k)
          SM_ELEMENT_D(J, m.row_index[k], c) = self->jacobian.output(k);
    }
    return 0;
  }

  static void error_fn(int, const char*, const char* function, char* message, void* user) {
    static_cast<Integration*>(user)->last_message = std::string(function) + ": " + message;
  }
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
  ExactOutputs exact;
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
  static constexpr int max_event_iterations = 100;

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

  void check_clock(int k, double start, double interval) const;
  void schedule_time_events(double from);
  bool ticks(int k, double at) const;
  double output_time(long k) const;
  void check_observed(double at);
  void row_without_unknowns(double at);
  [[noreturn]] void fail(const std::string& what, int flag, double at);
  void check(int flag, const char* what) {
    if (flag < 0) fail(std::string(what) + " failed", flag, options.t_start);
  }
  void make_exact(double at);
  void record(double at);
  void statistics();
  bool evaluate_relations(double at, bool only_time_events);
  std::string worst_residuals(double at);
  void make_consistent(double at, bool at_start);
  void remember_conditions();
  void run_hybrid(double at);
  bool rising_edge(std::size_t w) const;
  bool discrete_pass(double at);
  bool settle_cycle(double at, bool at_start, const std::vector<int>& cycling);
  void event_iteration(double at, bool at_start);
  void set_instant_flags(double at, bool initializing);
  void clear_instant_flags(double at);
  int step_to(double target);
  void arm_roots(double at);
  void begin_event(double at, std::string why);
  void finish_event(double at_event);
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
  void set_parameter(const std::string& name, double value);
  double get(const std::string& name);
  SessionState state();
  void set_state(const SessionState& state);
  Result take_result();
};

std::unique_ptr<SessionRun> SessionRun::create(std::shared_ptr<const CompiledModel> model,
                                               const std::vector<double>& parameters, const SimulationOptions& options,
                                               const std::string& caller) {
  const CompiledModel& m = *model;
  const std::string& model_name = m.dae.model_name;
  validate(options, model_name);
  const double row_bytes = stored_row_bytes(m, options);
  const bool given_times = !options.output_times.empty();
  const double planned_rows = given_times
                                  ? options.output_times.size() + 1.0
                                  : std::floor((options.t_end - options.t_start) / options.output_interval) + 2.0;
  if (!given_times && planned_rows * row_bytes > options.max_output_bytes)
    throw ModelError("simulate(" + model_name + "): output_interval = " + format_number(options.output_interval) +
                     " over [" + format_number(options.t_start) + ", " + format_number(options.t_end) + "] makes " +
                     format_number(planned_rows) + " rows of " + format_number(row_bytes) + " bytes, more than " +
                     "max_output_bytes = " + format_number(options.max_output_bytes) +
                     "; choose a larger output_interval (or raise max_output_bytes)");
  check_parameter_values(m, parameters);
  for (std::size_t j = 0; j < options.sensitivities.size(); ++j) {
    const std::string& name = options.sensitivities[j];
    const std::string head = caller + "(" + model_name + "): sensitivities";
    if (caller != "simulate")
      throw ModelError(head + " are computed by simulate(), not in a step-by-step session");
    auto it = m.parameter_by_name.find(name);
    if (it == m.parameter_by_name.end()) {
      std::vector<std::string> known;
      for (const auto& p : m.dae.parameters) known.push_back(p.name);
      throw UnknownNameError(head, "parameter", name, known);
    }
    const DaeParameter& p = m.dae.parameters[it->second];
    if (p.attributes.structural || !p.attributes.choices.empty())
      throw ModelError(head + ": " + name + " is structural (folded into the equations at compile()): it has no " +
                       "sensitivity; declare it a plain parameter to differentiate by it");
    if (std::find(options.sensitivities.begin(), options.sensitivities.begin() + j, name) !=
        options.sensitivities.begin() + j)
      throw ModelError(head + ": " + name + " is named twice");
  }
  return std::make_unique<SessionRun>(std::move(model), parameters, options, caller);
}

SessionRun::SessionRun(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters_,
                       const SimulationOptions& options_, const std::string& caller_)
    : model_ptr(std::move(model)),
      m(*model_ptr),
      options(options_),
      caller(caller_),
      where(caller_ + "(" + m.dae.model_name + ")"),
      start_parameters(parameters_),
      n(m.n),
      n_modes(static_cast<int>(m.dae.modes.size())),
      n_discretes(static_cast<int>(m.dae.discretes.size())),
      sparse(options_.linear_solver == LinearSolver::klu ||
             (options_.linear_solver == LinearSolver::automatic && m.n > options_.dense_threshold)),
      given_times(!options_.output_times.empty()),
      max_rows(static_cast<std::size_t>(options_.max_output_bytes / stored_row_bytes(m, options_))),
      parameters(parameters_),
      stats(result.statistics_),
      delays(m, parameters_, options_.t_start),
      integ{&m, m.residual, m.jacobian, m.indicators, sparse, delays.empty() ? nullptr : &delays, options_.interrupt,
            {}},
      modes(m.n_frozen(), 0.0),
      discrete_offset(m.discrete_register() - m.mode_register()),
      pre_offset(m.pre_register() - m.mode_register()),
      delay_offset(m.delay_register() - m.mode_register()),
      relations(m.relations),
      observed(m.observed),
      hybrid(m.hybrid),
      exact(m, options_.rtol, options_.atol),
      has_hybrid(m.hybrid.n_outputs() > 0 || !m.dae.discretes.empty()),
      t(options_.t_start),
      chatter{options_.t_start, 0, {}},
      zeno_gap(1e-6 * (options_.t_end - options_.t_start)) {
  result.model_ = model_ptr;
  result.parameters_ = parameters;
  result.sensitivity_parameters_ = options.sensitivities;
  for (const auto& name : options.sensitivities) sensitivity_parameters.push_back(m.parameter_by_name.at(name));
  stats.unknowns = n;
  stats.root_functions = static_cast<int>(m.state_event_modes.size());
  stats.linear_solver = sparse ? "klu" : "dense";

  for (int k = 0; k < n_discretes; ++k)
    modes[discrete_offset + k] = modes[pre_offset + k] = m.dae.discretes[k].attributes.start;
  tapes = {&integ.residual, &integ.jacobian, &integ.indicators, &relations,
           &observed,       &hybrid,         &exact.residual(), &exact.jacobian()};
  for (Tape* tape : tapes) std::copy(parameters.begin(), parameters.end(), tape->inputs() + m.parameter_register());
  for (const Node* d : m.delays)
    for_each_postorder(d->arg[1], [&](const Node* leaf) {
      if (m.dae.parameter_of.contains(leaf)) delay_time_parameters.push_back(m.dae.parameter_of.at(leaf));
    });

  for (int k = 0; k < n_discretes; ++k)
    if (m.dae.discretes[k].role == DaeDiscrete::Role::sample) clocks.push_back(k);
  schedule_time_events(options.t_start);

  // Row 0 is the initial point; with given output times simulate() drops it
  // at the end unless t_start is one of them.
  drop_initial_row = given_times && options.output_times.front() > options.t_start;
  n_outputs = given_times
                  ? static_cast<long>(options.output_times.size()) - (drop_initial_row ? 0 : 1)
                  : static_cast<long>(std::ceil((options.t_end - options.t_start) / options.output_interval - 1e-9));

  condition_before.resize(m.whens.size());
  for (std::size_t w = 0; w < m.whens.size(); ++w) condition_before[w].assign(m.whens[w].n_conditions, 0);
  integ.root_offset.assign(m.state_event_modes.size(), 0.0);
  roots.resize(m.state_event_modes.size());

  const std::string& model_name = m.dae.model_name;
  if (n == 0 && (n_discretes > 0 || !m.whens.empty())) {
    std::string named;
    for (const auto& d : m.dae.discretes)
      if (d.role == DaeDiscrete::Role::declared && named.size() < 200) named += (named.empty() ? "" : ", ") + d.name;
    throw ModelError("simulate(" + model_name + "): a model with discrete variables" +
                     (named.empty() ? std::string() : " (" + named + ")") +
                     " or when-clauses needs at least one continuous unknown (a state) in this version: add one, "
                     "for example an Inertia or an Integrator");
  }
  if (n == 0) {  // nothing to integrate: every variable is a function of time and parameters
    row_without_unknowns(options.t_start);
    wall_origin = Clock::now();
    return;
  }

  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::runtime_error("SUNContext_Create failed");
  s.y = N_VNew_Serial(n, s.context);
  s.yp = N_VNew_Serial(n, s.context);
  s.id = N_VNew_Serial(n, s.context);
  y = N_VGetArrayPointer(s.y);
  yp = N_VGetArrayPointer(s.yp);
  for (int k = 0; k < n; ++k) {
    y[k] = m.dae.variables[m.variable_of_slot[k]].start;
    yp[k] = 0.0;
    NV_Ith_S(s.id, k) = m.differential[k];
  }

  switched_by_root.assign(n_modes, 0);
  modes_reading_pre.resize(n_discretes);
  for (int k = 0; k < n_modes; ++k)
    for_each_postorder(m.dae.modes[k].relation.node(), [&](const Node* leaf) {
      if (leaf->op != Op::Discrete) return;
      auto it = m.dae.discrete_of.find(leaf);
      if (it != m.dae.discrete_of.end() && leaf == m.dae.discretes[it->second].pre)
        modes_reading_pre[it->second].push_back(k);
    });

  auto t_init = Clock::now();
  s.ida = IDACreate(s.context);
  if (!s.ida) throw std::runtime_error("IDACreate failed");
  IDASetErrHandlerFn(s.ida, &Integration::error_fn, &integ);
  check(IDAInit(s.ida, &Integration::residual_fn, options.t_start, s.y, s.yp), "IDAInit");
  check(IDASetUserData(s.ida, &integ), "IDASetUserData");
  check(IDASStolerances(s.ida, options.rtol, options.atol), "IDASStolerances");
  check(IDASetId(s.ida, s.id), "IDASetId");
  check(IDASetMaxNumSteps(s.ida, options.max_steps), "IDASetMaxNumSteps");
  check(IDASetSuppressAlg(s.ida, SUNTRUE), "IDASetSuppressAlg");
  // A step must not need a delayed value from beyond the recorded past.
  double max_step = options.max_step;
  if (double shortest = delays.shortest_recorded_delay(); shortest > 0 && (max_step <= 0 || shortest < max_step))
    max_step = shortest;
  if (max_step > 0) check(IDASetMaxStep(s.ida, max_step), "IDASetMaxStep");
  if (options.initial_step > 0) check(IDASetInitStep(s.ida, options.initial_step), "IDASetInitStep");
  if (sparse) {
    s.matrix = SUNSparseMatrix(n, n, static_cast<sunindextype>(m.row_index.size()), CSC_MAT, s.context);
    s.solver = SUNLinSol_KLU(s.y, s.matrix, s.context);
  } else {
    s.matrix = SUNDenseMatrix(n, n, s.context);
    s.solver = SUNLinSol_Dense(s.y, s.matrix, s.context);
  }
  if (!s.matrix || !s.solver) throw std::runtime_error("could not create the linear solver");
  check(IDASetLinearSolver(s.ida, s.solver, s.matrix), "IDASetLinearSolver");
  check(IDASetJacFn(s.ida, &Integration::jacobian_fn), "IDASetJacFn");
  if (!m.state_event_modes.empty())
    check(IDARootInit(s.ida, static_cast<int>(m.state_event_modes.size()), &Integration::root_fn), "IDARootInit");
  if (!sensitivity_parameters.empty()) {
    sensitivities = std::make_unique<ForwardSensitivities>(m, sensitivity_parameters, s.context, where);
    for (Tape* tape : sensitivities->tapes()) {
      std::copy(parameters.begin(), parameters.end(), tape->inputs() + m.parameter_register());
      tapes.push_back(tape);
    }
    sensitivities->attach(s.ida, &Integration::sensitivity_fn, parameters);
    integ.sensitivities = sensitivities.get();
    s.ypp = N_VNew_Serial(n, s.context);
  }

  delays.restart(y, yp);  // from the start values, until the consistent ones are known
  update_delayed(options.t_start);
  evaluate_relations(options.t_start, false);
  if (has_hybrid) {
    // A condition already true at the start does not fire (only initial() does).
    run_hybrid(options.t_start);
    remember_conditions();
    set_instant_flags(options.t_start, true);
  }
  event_iteration(options.t_start, true);
  clear_instant_flags(options.t_start);
  // The initial event: the discrete equations once more with initial() false
  // (the values the first output row shows, as in Modelica tools).
  if (has_hybrid) event_iteration(options.t_start, false);
  // Before start + T a delay reads its argument at the start, which the
  // consistent values determine: iterate until they agree.
  if (!delays.empty()) {
    std::vector<double> before(modes.begin() + n_modes, modes.end());
    bool settled = false;
    for (int pass = 0; pass < 50 && !settled; ++pass) {
      delays.restart(y, yp);
      update_delayed(options.t_start);
      settled = true;
      for (std::size_t k = 0; k < before.size(); ++k) {
        double now = modes[n_modes + k];
        settled &= std::fabs(now - before[k]) <= 1e-12 * (1.0 + std::fabs(now));
        before[k] = now;
      }
      if (!settled) make_consistent(options.t_start, true);
    }
    if (!settled)
      throw SimulationError(where + ": the values of the delayed signals at the start (" +
                                "a delay's value before start + T is its argument at the start) did not settle",
                            options.t_start, 0, "", result);
  }
  record(options.t_start);
  stats.initialization_seconds = seconds_since(t_init);

  if (!delays.empty()) {
    scratch_y.resize(n);
    scratch_yp.resize(n);
    s.dky = N_VMake_Serial(n, scratch_y.data(), s.context);
    s.dkyp = N_VMake_Serial(n, scratch_yp.data(), s.context);
  }
  arm_roots(options.t_start);
  wall_origin = Clock::now();
}

void SessionRun::check_clock(int k, double start, double interval) const {
  const DaeDiscrete& d = m.dae.discretes[k];
  if (!std::isfinite(start) || !std::isfinite(interval) || !(interval > 0))
    throw ModelError("simulate(" + m.dae.model_name + "): " + m.dae.print(d.clock.start) + " = " +
                     format_number(start) + " and " + m.dae.print(d.clock.interval) + " = " + format_number(interval) +
                     " in " + m.dae.origins[d.origin] +
                     "'s sample(start, interval): the interval must be positive, both finite");
}

// Time events: instants known from the parameters, hit exactly; those after `from`.
void SessionRun::schedule_time_events(double from) {
  const auto value = leaf_values();
  time_events.clear();
  next_event = 0;
  for (const auto& mode : m.dae.modes) {
    if (!mode.time_event) continue;
    double te = evaluate(mode.event_time, value);
    if (std::isfinite(te) && te > from && te < options.t_end) time_events.push_back(te);
  }
  // A delay of a signal of time alone jumps T after its argument does. The
  // argument's relations are evaluated literally, so nothing else marks those
  // instants, and a relation on the delayed value sitting on its threshold
  // (root finding ignores it) would miss the jump: they are time events too.
  for (const Node* d : m.delays) {
    if (!unknown_leaves(Expr(d->arg[0])).empty()) continue;
    const double delay_time = evaluate(Expr(d->arg[1]), value);
    for_each_postorder(d->arg[0], [&](const Node* n) {
      if (n->op != Op::Lt && n->op != Op::Le && n->op != Op::Gt && n->op != Op::Ge) return;
      for (int side : {0, 1}) {
        if (n->arg[side]->op != Op::Time || !is_parametric(Expr(n->arg[1 - side]))) continue;
        double te = evaluate(Expr(n->arg[1 - side]), value) + delay_time;
        if (std::isfinite(te) && te > from && te < options.t_end) time_events.push_back(te);
      }
    });
  }
  // Sample instants: start + k·interval (a product, not a sum: no drift over many periods).
  for (int k : clocks) {
    const DaeDiscrete& d = m.dae.discretes[k];
    const double start = evaluate(d.clock.start, value), interval = evaluate(d.clock.interval, value);
    check_clock(k, start, interval);
    const double first = std::max(0.0, std::ceil((from - start) / interval));
    for (double i = first;; ++i) {
      const double te = start + i * interval;
      if (te >= options.t_end) break;
      if (te > from) time_events.push_back(te);
      if (time_events.size() > 50'000'000) break;  // the row budget refuses such a run below
    }
  }
  std::sort(time_events.begin(), time_events.end());
  time_events.erase(std::unique(time_events.begin(), time_events.end()), time_events.end());
}

bool SessionRun::ticks(int k, double at) const {
  const DaeDiscrete& d = m.dae.discretes[k];
  const auto value = leaf_values();
  const double start = evaluate(d.clock.start, value), interval = evaluate(d.clock.interval, value);
  const double i = std::round((at - start) / interval);
  return i >= 0 && std::fabs(start + i * interval - at) <= 1e-12 * (1.0 + std::fabs(at));
}

double SessionRun::output_time(long k) const {
  if (given_times) return k == 0 ? options.t_start : options.output_times[k - (drop_initial_row ? 1 : 0)];
  return std::min(options.t_start + k * options.output_interval, options.t_end);
}

Result SessionRun::take_result() {
  if (drop_initial_row && !result.time_.empty()) {
    const std::size_t n_frozen = result.modes_.size() / result.time_.size();
    const std::size_t sensitivity_row = result.sensitivities_.size() / result.time_.size();
    result.time_.erase(result.time_.begin());
    result.y_.erase(result.y_.begin(), result.y_.begin() + n);
    result.yp_.erase(result.yp_.begin(), result.yp_.begin() + n);
    result.modes_.erase(result.modes_.begin(), result.modes_.begin() + n_frozen);
    result.sensitivities_.erase(result.sensitivities_.begin(), result.sensitivities_.begin() + sensitivity_row);
    for (auto& change : result.parameter_changes_)
      if (change.first > 0) --change.first;
  }
  return std::move(result);
}

// No NaN or infinity reaches a result silently. Observed variables are
// checked in solve order, so the message names where a non-finite value
// arose rather than what it spread to. `observed` holds the row's inputs.
void SessionRun::check_observed(double at) {
  observed.run();
  for (std::size_t k = 0; k < m.observed_variables.size(); ++k) {
    double value = observed.output(k);
    if (std::isfinite(value)) continue;
    const DaeVariable& v = m.dae.variables[m.observed_variables[k]];
    const int from = v.solved_from >= 0 ? v.solved_from : v.fixed_by;
    throw SimulationError(where + ": " + v.name + " = " + format_number(value) + " at t = " + format_number(at) +
                              ", from " +
                              (from >= 0 ? m.dae.describe(m.dae.consumed_equations[from])
                                         : "its alias " + m.dae.print(Expr(v.definition))),
                          at, 0, "", result);
  }
}

// A model without unknowns: every row is a function of time and parameters.
void SessionRun::row_without_unknowns(double at) {
  update_delayed(at);  // all exact: arguments of time and parameters
  relations.inputs()[0] = at;
  std::copy(modes.begin() + delay_offset, modes.end(), relations.inputs() + m.delay_register());
  relations.run();
  for (int i = 0; i < n_modes; ++i) modes[i] = relations.output(i) != 0.0 ? 1.0 : 0.0;
  observed.inputs()[0] = at;
  std::copy(modes.begin(), modes.end(), observed.inputs() + m.mode_register());
  check_observed(at);
  result.time_.push_back(at);
  result.modes_.insert(result.modes_.end(), modes.begin(), modes.end());
}

void SessionRun::fail(const std::string& what, int flag, double at) {
  if (integ.interrupted())
    throw SimulationInterrupted(where + ": interrupted at t = " + format_number(at), at, flag, "interrupted", result);
  std::string nonfinite;
  if (integ.nonfinite_equation >= 0)
    nonfinite = "; the residual of " + m.dae.describe(m.dae.equations[integ.nonfinite_equation]) +
                " was not finite at t = " + format_number(integ.nonfinite_time);
  throw SimulationError(where + ": " + what + " at t = " + format_number(at) + ": " + flag_name(flag) +
                            (integ.last_message.empty() ? "" : " (" + integ.last_message + ")") + nonfinite,
                        at, flag, integ.last_message, result);
}

void SessionRun::make_exact(double at) {
  auto started = Clock::now();
  ExactOutputs::Outcome outcome = exact.solve(
      y, yp, [&](Tape& tape, double cj, const double* y_, const double* yp_) { integ.load(at, cj, y_, yp_, tape); });
  stats.exact_outputs_seconds += seconds_since(started);
  ++(outcome.exact ? stats.exact_rows : stats.inexact_rows);
  stats.exact_iterations += outcome.iterations;
  stats.exact_factorizations = exact.factorizations();
  if (outcome.nonfinite_equation >= 0)
    throw SimulationError(where + ": " + m.dae.describe(m.dae.equations[outcome.nonfinite_equation]) +
                              " is not finite at t = " + format_number(at),
                          at, 0, "", result);
}

void SessionRun::record(double at) {
  update_delayed(at);
  if (options.exact_outputs) make_exact(at);
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(y[i]) || !std::isfinite(yp[i]))
      throw SimulationError(where + ": " + (std::isfinite(y[i]) ? "der(" : "") +
                                m.dae.variables[m.variable_of_slot[i]].name + (std::isfinite(y[i]) ? ")" : "") +
                                " is not finite at t = " + format_number(at),
                            at, 0, "", result);
  integ.load(at, 0.0, y, yp, observed);
  check_observed(at);
  integ.nonfinite_equation = -1;  // a trial point IDA recovered from is no cause of a later failure
  if (result.time_.size() >= max_rows)
    throw SimulationError(where + ": the result reached max_output_bytes = " + format_number(options.max_output_bytes) +
                              " at t = " + format_number(at) + " (" + std::to_string(result.event_times_.size()) +
                              " events so far add two rows each)",
                          at, 0, "", result);
  result.time_.push_back(at);
  result.y_.insert(result.y_.end(), y, y + n);
  result.yp_.insert(result.yp_.end(), yp, yp + n);
  result.modes_.insert(result.modes_.end(), modes.begin(), modes.end());
  // IDA's error test leaves the algebraic unknowns out (and their
  // sensitivities): as the exact outputs do for the values, the row's
  // sensitivities are solved from the states' with the model's equations.
  if (sensitivities) {
    sensitivities->make_consistent(at, y, yp);
    for (int j = 0; j < sensitivities->count(); ++j) {
      result.sensitivities_.insert(result.sensitivities_.end(), sensitivities->values(j), sensitivities->values(j) + n);
      result.sensitivities_.insert(result.sensitivities_.end(), sensitivities->derivatives(j),
                                   sensitivities->derivatives(j) + n);
    }
  }
}

void SessionRun::statistics() {
  if (!s.ida) return;
  long v = 0;
  IDAGetNumSteps(s.ida, &v), stats.steps = before_reinit.steps + v;
  IDAGetNumResEvals(s.ida, &v), stats.residual_evaluations = before_reinit.residual_evaluations + v;
  IDAGetNumJacEvals(s.ida, &v), stats.jacobian_evaluations = before_reinit.jacobian_evaluations + v;
  IDAGetNumNonlinSolvIters(s.ida, &v), stats.nonlinear_iterations = before_reinit.nonlinear_iterations + v;
  IDAGetNumNonlinSolvConvFails(s.ida, &v),
      stats.nonlinear_convergence_failures = before_reinit.nonlinear_convergence_failures + v;
  IDAGetNumErrTestFails(s.ida, &v), stats.error_test_failures = before_reinit.error_test_failures + v;
  if (!m.state_event_modes.empty())
    IDAGetNumGEvals(s.ida, &v), stats.root_evaluations = before_reinit.root_evaluations + v;
}

bool SessionRun::evaluate_relations(double at, bool only_time_events) {
  bool changed = false;
  integ.load(at, 0.0, y, yp, relations);
  relations.run();
  for (int k = 0; k < n_modes; ++k) {
    if (switched_by_root[k] || (only_time_events && !m.dae.modes[k].time_event)) continue;
    double value = relations.output(k) != 0.0 ? 1.0 : 0.0;
    changed |= value != modes[k];
    modes[k] = value;
  }
  set_modes();
  return changed;
}

// The equations a failed solve leaves most violated, with their unknowns,
// at y and y' as they are (IDA leaves the values it started from).
std::string SessionRun::worst_residuals(double at) {
  integ.load(at, 0.0, y, yp, integ.residual);
  integ.residual.run();
  auto size = [&](int i) {
    double r = integ.residual.output(i);
    return std::isfinite(r) ? std::fabs(r) : std::numeric_limits<double>::infinity();
  };
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  const int shown = std::min(n, 3);
  std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](int a, int b) { return size(a) > size(b); });
  std::string out;
  for (int k = 0; k < shown && size(order[k]) > 0; ++k) {
    const DaeEquation& eq = m.dae.equations[order[k]];
    std::string unknowns;
    for (const Node* leaf : unknown_leaves(eq.residual)) {
      int slot = m.slot_of_variable[m.dae.variable_index(leaf)];
      std::string name = m.dae.print(Expr(leaf));
      unknowns +=
          (unknowns.empty() ? "" : ", ") + name + " = " + format_number(leaf->op == Op::Der ? yp[slot] : y[slot]);
    }
    out += std::string(k ? "; " : "") + m.dae.describe(eq) + " (residual " +
           format_number(integ.residual.output(order[k])) + (unknowns.empty() ? "" : ", with " + unknowns) + ")";
  }
  return out.empty() ? std::string("(every residual is zero there)") : out;
}

// Consistent values after the start or an event: the initialization plan at
// t0 when it needs one, otherwise states stay and IDA computes the rest.
void SessionRun::make_consistent(double at, bool at_start) {
  double t_next = std::min(at + options.output_interval, options.t_end);
  // An event at the end itself (a root on t_end): IDACalcIC still needs a step to look along.
  if (!(t_next - at > 1e-10 * (1.0 + std::fabs(at)))) t_next = at + options.output_interval;
  if (at_start && m.initialization.custom) {
    initialize(m, at, parameters, modes, y, yp);
    check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
    if (sensitivities) {
      sensitivities->set_states(initialization_sensitivities(m, at, parameters, modes, y, yp, sensitivity_parameters));
      hand_over_sensitivities(at);
    }
    return;
  }
  if (!at_start) {
    statistics();
    before_reinit = stats;
  }
  check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
  // The sensitivities' consistent values follow from the states' by one linear solve (below).
  if (sensitivities) sensitivities->suspend(s.ida);
  check(IDASetStopTime(s.ida, t_next), "IDASetStopTime");
  int flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
  // IDACalcIC's Newton test is 100 times stricter than the integrator's. A
  // value that is zero at the consistent point carries the residual's
  // roundoff, which a tight atol (1e-12 on forces of 1e4 N) weighs above that
  // test: the iteration cannot converge though the point is as consistent as
  // doubles allow. The integrator's own test then decides.
  if (flag == IDA_LINESEARCH_FAIL || flag == IDA_CONV_FAIL) {
    check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
    check(IDASetNonlinConvCoefIC(s.ida, 0.33), "IDASetNonlinConvCoefIC");
    flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
    check(IDASetNonlinConvCoefIC(s.ida, 0.0033), "IDASetNonlinConvCoefIC");
  }
  if (flag < 0) {
    statistics();
    fail((at_start ? "could not find consistent initial values" : "could not re-initialize after an event") +
             std::string("; the equations furthest from holding at the values it started from: ") + worst_residuals(at),
         flag, at);
  }
  check(IDAGetConsistentIC(s.ida, s.y, s.yp), "IDAGetConsistentIC");
  if (sensitivities) hand_over_sensitivities(at);
}

// The sensitivities made consistent with the states' at (at, y, y') and given
// to IDAS. IDAReInit first: IDACalcIC ran with them off, and only the setup of
// the next IDASolve after a reinit computes their error weights.
void SessionRun::hand_over_sensitivities(double at) {
  sensitivities->make_consistent(at, y, yp);
  statistics();
  before_reinit = stats;  // IDAReInit zeroes IDA's counters
  check(IDAReInit(s.ida, at, s.y, s.yp), "IDAReInit");
  sensitivities->reinit(s.ida);
}

// The discrete part (Modelica's event iteration). With pre() fixed, the
// mixed system is solved by fixed point: the discrete equations and
// when-clauses are evaluated from the relations as they stand, the
// continuous part is made consistent with the result, and the relations are
// read again, until neither changes. Relations thus keep their values until
// a solution contradicts them (a clutch that reaches zero slip is first
// tried locked, and breaks away only if the locked torque exceeds its
// limit). Then pre(x) := x and again, until x = pre(x) for every discrete x.
void SessionRun::remember_conditions() {
  for (std::size_t w = 0; w < m.whens.size(); ++w)
    for (int i = 0; i < m.whens[w].n_conditions; ++i)
      condition_before[w][i] = hybrid.output(m.whens[w].first_condition + i) != 0.0;
}

void SessionRun::run_hybrid(double at) {
  integ.load(at, 0.0, y, yp, hybrid);
  hybrid.run();
}

bool SessionRun::rising_edge(std::size_t w) const {
  for (int i = 0; i < m.whens[w].n_conditions; ++i)
    if (hybrid.output(m.whens[w].first_condition + i) != 0.0 && !condition_before[w][i]) return true;
  return false;
}

bool SessionRun::discrete_pass(double at) {
  run_hybrid(at);
  std::vector<double> next(modes.begin() + discrete_offset, modes.begin() + pre_offset);
  for (std::size_t k = 0; k < m.defined_discretes.size(); ++k) next[m.defined_discretes[k]] = hybrid.output(k);
  bool reinitialized = false;
  for (std::size_t w = 0; w < m.whens.size(); ++w) {
    if (rising_edge(w)) {
      for (const auto& a : m.whens[w].actions) {
        const double value = hybrid.output(a.output);
        if (a.discrete >= 0) {
          next[a.discrete] = value;
          continue;
        }
        y[a.slot] = (value - hybrid.output(a.output + 2)) / hybrid.output(a.output + 1);
        reinitialized = true;
        if (!std::isfinite(y[a.slot]))
          throw SimulationError(where + ": reinit of " + m.dae.variables[m.variable_of_slot[a.slot]].name + " to " +
                                    format_number(value) + " at t = " + format_number(at) + " in " +
                                    m.dae.origins[m.dae.whens[w].origin] + " is not finite",
                                at, 0, "", result);
      }
    }
  }
  remember_conditions();
  changed_discretes.clear();
  for (int k = 0; k < n_discretes; ++k) {
    if (!std::isfinite(next[k]))
      throw SimulationError(where + ": discrete variable " + m.dae.discretes[k].name + " = " + format_number(next[k]) +
                                " at t = " + format_number(at) + " (" + m.dae.origins[m.dae.discretes[k].origin] + ")",
                            at, 0, "", result);
    if (next[k] != modes[discrete_offset + k]) changed_discretes.push_back(k);
    modes[discrete_offset + k] = next[k];
  }
  set_modes();
  return reinitialized || !changed_discretes.empty();
}

// A fixed point that cycles (a clutch at zero slip: assumed breaking away
// forward, the solution says backward, and back) is searched instead: the
// relations that changed in the cycle take each combination of values,
// fewest true first (the element stays stuck unless it must break away),
// until one is consistent with the solution it gives.
bool SessionRun::settle_cycle(double at, bool at_start, const std::vector<int>& cycling) {
  const std::vector<double> saved_y(y, y + n), saved_yp(yp, yp + n);
  std::vector<unsigned> combinations(1u << cycling.size());
  std::iota(combinations.begin(), combinations.end(), 0u);
  std::stable_sort(combinations.begin(), combinations.end(),
                   [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });
  for (unsigned combination : combinations) {
    std::copy(saved_y.begin(), saved_y.end(), y);
    std::copy(saved_yp.begin(), saved_yp.end(), yp);
    for (std::size_t i = 0; i < cycling.size(); ++i) modes[cycling[i]] = (combination >> i) & 1u ? 1.0 : 0.0;
    set_modes();
    discrete_pass(at);
    make_consistent(at, at_start);
    integ.load(at, 0.0, y, yp, relations);
    relations.run();
    bool consistent = true;
    for (int k = 0; k < n_modes && consistent; ++k)
      consistent = switched_by_root[k] || (relations.output(k) != 0.0 ? 1.0 : 0.0) == modes[k];
    if (consistent && !discrete_pass(at)) return true;
  }
  return false;
}

void SessionRun::event_iteration(double at, bool at_start) {
  std::vector<double> modes_before(modes.begin(), modes.begin() + n_modes);
  // The states of the fixed point at the current pre(), to recognize a cycle.
  std::vector<std::vector<double>> visited;
  std::set<int> recently_changed;  // for the message when it does not settle
  for (int pass = 0;; ++pass) {
    if (pass == max_event_iterations) {
      std::string changing;
      for (int k = 0; k < n_modes; ++k)
        if (modes[k] != modes_before[k]) changing += (changing.empty() ? "" : ", ") + m.dae.modes[k].description;
      for (int k : recently_changed) changing += (changing.empty() ? "" : ", ") + m.dae.discretes[k].name;
      throw SimulationError(where + ": the event iteration at t = " + format_number(at) + " did not settle after " +
                                std::to_string(max_event_iterations) +
                                " passes; still changing: " + (changing.empty() ? "(a reinit)" : changing),
                            at, 0, "", result);
    }
    std::copy(modes.begin(), modes.begin() + n_modes, modes_before.begin());
    if (pass == 0) make_consistent(at, at_start);
    // Relations that depend on the consistent values may switch once more.
    const bool relations_changed = n_modes > 0 && evaluate_relations(at, false);
    const bool discretes_changed = has_hybrid && discrete_pass(at);
    if (pass >= max_event_iterations - 10) recently_changed.insert(changed_discretes.begin(), changed_discretes.end());
    if (relations_changed || discretes_changed) {
      std::vector<double> state(modes.begin(), modes.begin() + pre_offset);
      const bool cycle = has_hybrid && std::find(visited.begin(), visited.end(), state) != visited.end();
      std::vector<int> cycling;
      for (int k = 0; cycle && k < n_modes; ++k)
        for (const auto& v : visited)
          if (v[k] != state[k] && !switched_by_root[k]) {
            cycling.push_back(k);
            break;
          }
      if (!cycle || cycling.size() > 10 || !settle_cycle(at, at_start, cycling)) {
        visited.push_back(std::move(state));
        make_consistent(at, at_start);
        continue;
      }
      visited.clear();
    }
    if (!has_hybrid ||
        std::equal(modes.begin() + discrete_offset, modes.begin() + pre_offset, modes.begin() + pre_offset))
      break;
    for (int k = 0; k < n_discretes; ++k)
      if (modes[discrete_offset + k] != modes[pre_offset + k])
        for (int mode : modes_reading_pre[k]) switched_by_root[mode] = 0;
    std::copy(modes.begin() + discrete_offset, modes.begin() + pre_offset, modes.begin() + pre_offset);
    set_modes();
    visited.clear();
  }
}

// initial() and sample() are true only while the event iteration of their instant runs.
void SessionRun::set_instant_flags(double at, bool initializing) {
  for (int k = 0; k < n_discretes; ++k) {
    const DaeDiscrete& d = m.dae.discretes[k];
    double& value = modes[discrete_offset + k];
    if (d.role == DaeDiscrete::Role::initial) value = initializing ? 1.0 : 0.0;
    if (d.role == DaeDiscrete::Role::sample) value = ticks(k, at) ? 1.0 : 0.0;
  }
  set_modes();
}

void SessionRun::clear_instant_flags(double at) {
  if (!has_hybrid) return;
  for (int k = 0; k < n_discretes; ++k)
    if (m.dae.discretes[k].role != DaeDiscrete::Role::declared)
      modes[discrete_offset + k] = modes[pre_offset + k] = 0.0;
  set_modes();
  run_hybrid(at);
  remember_conditions();
}

// The stop time is the target itself, so no step passes an output time
// (whose row reads the delays) or hides a root beyond it.
int SessionRun::step_to(double target) {
  if (delays.empty()) return IDASolve(s.ida, target, &t, s.y, s.yp, IDA_NORMAL);
  if (int flag = IDASetStopTime(s.ida, target); flag < 0) return flag;
  // IDA counts max_steps per IDASolve call, and here each call is one step.
  for (long steps = 1;; ++steps) {
    if (steps > options.max_steps) {
      integ.last_message =
          "more than max_steps = " + std::to_string(options.max_steps) + " steps toward t = " + format_number(target);
      return IDA_TOO_MUCH_WORK;
    }
    const double t_before = t;
    int flag = IDASolve(s.ida, target, &t, s.y, s.yp, IDA_ONE_STEP);
    if (flag < 0) return flag;
    constexpr int samples_per_step = 4;
    for (int j = 1; j <= samples_per_step; ++j) {
      double tj = t_before + (t - t_before) * j / samples_per_step;
      IDAGetDky(s.ida, tj, 0, s.dky);
      IDAGetDky(s.ida, tj, 1, s.dkyp);
      delays.record(tj, scratch_y.data(), scratch_yp.data());
    }
    if (flag == IDA_ROOT_RETURN || flag == IDA_TSTOP_RETURN) return flag;
  }
}

// A root function exactly zero where the integration restarts (a clutch
// locked at exactly zero slip, a mass set onto its stop by reinit) would
// leave zero unseen: IDA reports sign changes, not departures from zero.
// Such a function is shifted by a hysteresis so that its relation switches
// when the value has moved that far to the side where it changes (Modelica
// tools do the same).
void SessionRun::arm_roots(double at) {
  if (m.state_event_modes.empty()) return;
  integ.load(at, 0.0, y, yp, integ.indicators);
  integ.indicators.run();
  for (std::size_t i = 0; i < m.state_event_modes.size(); ++i) {
    const int k = m.state_event_modes[i];
    integ.root_offset[i] = 0.0;
    if (integ.indicators.output(i) != 0.0) continue;
    const Op op = m.dae.modes[k].relation.op();
    const bool true_above = op == Op::Gt || op == Op::Ge;
    const bool switches_above = true_above == (modes[k] == 0.0);
    integ.root_offset[i] = switches_above ? -hysteresis : hysteresis;
  }
}

void SessionRun::begin_event(double at, std::string why) {
  continued_event = std::numeric_limits<double>::quiet_NaN();
  cause = std::move(why);
  if (!event_at(at)) {
    if (n > 0)
      record(at);
    else
      row_without_unknowns(at);
    return;
  }
  continued_event = result.event_times_.back();  // the rows keep its instant
  result.time_.pop_back();
  result.y_.resize(result.y_.size() - n);
  result.yp_.resize(result.yp_.size() - n);
  result.modes_.resize(result.modes_.size() - modes.size());
  if (sensitivities) result.sensitivities_.resize(result.sensitivities_.size() - 2 * n * sensitivities->count());
  result.event_times_.pop_back();
  cause = result.event_causes_.back() + "; " + cause;
  result.event_causes_.pop_back();
}

// After modes switched at an event: consistent values, then the event
// iteration (relations of values the switch changed, such as a gear read from
// a shift schedule, or states a jump moved across a threshold, follow at the
// same instant until nothing changes), then the right limit.
void SessionRun::finish_event(double at_event) {
  event_iteration(at_event, false);
  clear_instant_flags(at_event);
  if (sensitivities && !event_time_partials.empty()) {
    sensitivities->jump(yp_before_event.data(), yp, event_time_partials);
    hand_over_sensitivities(at_event);
  }
  event_time_partials.clear();
  std::fill(switched_by_root.begin(), switched_by_root.end(), 0);
  arm_roots(at_event);
  delays.record(at_event, y, yp);
  record(at_event);
  if (!std::isnan(continued_event)) result.time_.back() = continued_event;
  result.event_times_.push_back(std::isnan(continued_event) ? at_event : continued_event);
  result.event_causes_.push_back(cause);
}

// At a root, the event time moves with the parameters: dτ/dp from the first
// indicator that crossed (several crossing at once cross at one τ).
void SessionRun::root_sensitivities() {
  yp_before_event.assign(yp, yp + n);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (roots[i] == 0) continue;
    // y'' enters only when the indicator reads a derivative; below second order IDA has none (0).
    if (IDAGetDky(s.ida, t, 2, s.ypp) < 0) N_VConst(0.0, s.ypp);
    event_time_partials = sensitivities->root_time_partials(static_cast<int>(i), t, y, yp, N_VGetArrayPointer(s.ypp));
    return;
  }
}

// A time event at a parameter's time (a step's startTime asked for) moves with it.
void SessionRun::time_event_sensitivities(const std::vector<int>& firing) {
  yp_before_event.assign(yp, yp + n);
  const auto value = leaf_values();
  for (int k : firing) {
    std::vector<double> partials;
    bool moves = false;
    for (const Expr& partial : sensitivities->event_time_partials(k)) {
      partials.push_back(evaluate(partial, value));
      moves = moves || partials.back() != 0.0;
    }
    if (moves) {
      event_time_partials = std::move(partials);
      return;
    }
  }
}

void SessionRun::pace(double simulated) {
  if (!(options.realtime_factor > 0)) return;
  const auto due = wall_origin + std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(
                                     (simulated - options.t_start) / options.realtime_factor));
  // In slices, so that an interrupt is seen within one.
  while (!integ.interrupted()) {
    const auto now = Clock::now();
    if (now >= due) return;
    std::this_thread::sleep_until(std::min(due, now + std::chrono::milliseconds(50)));
  }
}

// Integrates to `goal`. simulate() (row_at_goal false, goal = t_end) records
// the output rows and ends on the last; a session's step stops the integrator
// at the goal and records a row there.
void SessionRun::run(double goal, bool row_at_goal) {
  if (n == 0) return run_without_unknowns(goal, row_at_goal);
  const double goal_resolution = 1e-12 * (1.0 + std::fabs(goal));
  bool goal_done = !row_at_goal;
  for (;;) {
    const bool output_due = k <= n_outputs && (!row_at_goal || output_time(k) <= goal + goal_resolution);
    if (!output_due && goal_done) break;
    if (integ.interrupted()) fail("interrupted", 0, t);
    double tout = output_due ? output_time(k) : goal;
    if (row_at_goal) tout = std::min(tout, goal);
    // IDA stops exactly at the next time event (or the end) and interpolates outputs before it.
    double t_stop = next_event < time_events.size() ? time_events[next_event] : options.t_end;
    bool time_event_first = next_event < time_events.size() && t_stop <= tout;
    const double target = std::min(tout, t_stop);
    int flag = IDA_SUCCESS;
    if (target > t + 1e-12 * (1.0 + std::fabs(t))) {  // a root can land exactly on the next stop
      // A session's goal is a stop too: what the caller reads and changes
      // there is the solution, not an interpolation (a controller sampling in
      // C++ then matches the same controller sampled in the model).
      check(IDASetStopTime(s.ida, row_at_goal ? std::min(t_stop, goal) : t_stop), "IDASetStopTime");
      flag = step_to(target);
      if (flag >= 0 && sensitivities) sensitivities->fetch(s.ida, t);
    }
    if (flag < 0) {
      statistics();
      double t_fail = t;
      IDAGetCurrentTime(s.ida, &t_fail);
      stats.integration_seconds = seconds_before_step + seconds_since(step_started);
      // Values near the end of the floating-point range make IDA's step
      // estimates 0 or infinite, and its own message then misleads.
      std::string extreme;
      for (int i = 0; i < n; ++i) {
        const std::string& name = m.dae.variables[m.variable_of_slot[i]].name;
        if (!(std::fabs(y[i]) < 1e100)) extreme += (extreme.empty() ? "" : ", ") + name + " = " + format_number(y[i]);
        if (!(std::fabs(yp[i]) < 1e100))
          extreme += (extreme.empty() ? "" : ", ") + ("der(" + name + ") = ") + format_number(yp[i]);
      }
      fail(extreme.empty() ? "the solver failed"
                           : "values at the edge of the floating-point range (" + extreme +
                                 ") stopped the solver; check the start values and parameters that set them",
           flag, t_fail);
    }
    if (flag == IDA_ROOT_RETURN) {
      IDAGetRootInfo(s.ida, roots.data());
      if (sensitivities) root_sensitivities();
      std::string crossed;
      for (std::size_t i = 0; i < roots.size(); ++i)
        if (roots[i] != 0) crossed += (crossed.empty() ? "" : ", ") + m.dae.modes[m.state_event_modes[i]].description;
      begin_event(t, crossed);
      // Chattering (Zeno): relations that switch again and again at one
      // instant would never let time advance.
      if (t - chatter.since > 1e-10 * (1.0 + std::fabs(t))) chatter = {t, 0, {}};
      ++chatter.events;
      for (std::size_t i = 0; i < roots.size(); ++i)
        if (roots[i] != 0) chatter.relations.insert(m.dae.modes[m.state_event_modes[i]].description);
      // Events within a resolution of each other are one cluster (a bounce and
      // the crossing back that follows it at once).
      if (std::isnan(accumulation.last) || t - accumulation.last > 1e-9 * (1.0 + std::fabs(t))) {
        if (!std::isnan(accumulation.last)) {
          const double gap = t - accumulation.last;
          if (gap < accumulation.gap) {
            ++accumulation.shrinking;
          } else {
            accumulation.shrinking = 0;
            accumulation.relations.clear();
          }
          accumulation.gap = gap;
        }
        accumulation.last = t;
      }
      for (std::size_t i = 0; i < roots.size(); ++i)
        if (roots[i] != 0) {
          accumulation.relations.insert(m.dae.modes[m.state_event_modes[i]].description);
          recent_events.emplace_back(t, m.dae.modes[m.state_event_modes[i]].description);
        }
      while (recent_events.size() > dense_events) recent_events.pop_front();
      if (recent_events.size() == dense_events && t - recent_events.front().first < zeno_gap) {
        std::set<std::string> names;
        for (const auto& [when, relation] : recent_events) names.insert(relation);
        std::string relations;
        for (const auto& r : names) relations += (relations.empty() ? "" : ", ") + r;
        statistics();
        throw SimulationError(
            where + ": chattering at t = " + format_number(t) + ": " + relations + " switched " +
                std::to_string(dense_events) + " times within " + format_number(t - recent_events.front().first) +
                " s (a sliding mode the model does not describe: smooth the switch, or model " + "the stuck mode)",
            t, 0, "", result);
      }
      if (accumulation.shrinking >= zeno_shrinking_gaps && accumulation.gap < zeno_gap) {
        std::string relations;
        for (const auto& r : accumulation.relations) relations += (relations.empty() ? "" : ", ") + r;
        statistics();
        throw SimulationError(where + ": events accumulate at t = " + format_number(t) + " (Zeno behaviour): " +
                                  relations + " switched " + std::to_string(accumulation.shrinking + 1) +
                                  " times at ever shorter intervals, the last " + format_number(accumulation.gap) +
                                  " s apart; end the sequence with a when-clause (a ball at rest stops " +
                                  "bouncing: switch its dynamics off below a small speed)",
                              t, 0, "", result);
      }
      if (chatter.events > max_events_at_one_instant) {
        std::string relations;
        for (const auto& r : chatter.relations) relations += (relations.empty() ? "" : ", ") + r;
        statistics();
        throw SimulationError(where + ": chattering at t = " + format_number(t) + ": " + relations + " switched " +
                                  std::to_string(chatter.events) +
                                  " times without time advancing (a sliding mode the model does not describe: " +
                                  "smooth the switch, or model the stuck mode)",
                              t, 0, "", result);
      }
      for (std::size_t i = 0; i < roots.size(); ++i) {
        if (roots[i] == 0) continue;
        int mode = m.state_event_modes[i];
        Op op = m.dae.modes[mode].relation.op();
        // The indicator is lhs - rhs of the relation: its direction decides the new value.
        modes[mode] = (op == Op::Gt || op == Op::Ge) == (roots[i] > 0) ? 1.0 : 0.0;
        switched_by_root[mode] = 1;
      }
      set_modes();
      finish_event(t);
      continue;
    }
    if (time_event_first) {
      std::string timed;
      std::vector<int> firing;  // the time-event modes whose instant this is
      const auto value = leaf_values();
      for (int mode = 0; mode < n_modes; ++mode)
        if (m.dae.modes[mode].time_event &&
            std::fabs(evaluate(m.dae.modes[mode].event_time, value) - t) <= 1e-12 * (1.0 + std::fabs(t))) {
          timed += (timed.empty() ? "" : ", ") + m.dae.modes[mode].description;
          firing.push_back(mode);
        }
      for (int c : clocks)
        if (ticks(c, t)) timed += (timed.empty() ? "" : ", ") + m.dae.discretes[c].name;
      if (sensitivities) time_event_sensitivities(firing);
      begin_event(t, timed.empty() ? "a delayed jump" : timed);
      // Events closer together than the solver can step (a ramp lasting
      // 1e-13 s) are one event, taken at the last of them so that every
      // relation reads its far side.
      const double resolution = 1e-12 * (1.0 + std::fabs(t));
      while (next_event < time_events.size() && time_events[next_event] <= t + resolution)
        t = std::max(t, time_events[next_event++]);
      evaluate_relations(t, true);
      if (!clocks.empty()) set_instant_flags(t, false);
      finish_event(t);
      // An output time on the event (up to rounding of t_start + k·dt) is the row just recorded.
      while (k <= n_outputs && output_time(k) <= t + 1e-12 * (1.0 + std::fabs(t))) ++k;
      if (t >= goal - goal_resolution) goal_done = true;  // the event's rows are the rows at the goal
      continue;
    }
    record(tout);
    pace(tout);
    if (output_due) ++k;
    if (!output_due || tout >= goal) goal_done = true;
  }
  if (row_at_goal && t < goal) t = goal;
}

void SessionRun::run_without_unknowns(double goal, bool row_at_goal) {
  const double goal_resolution = 1e-12 * (1.0 + std::fabs(goal));
  bool goal_done = !row_at_goal;
  for (;;) {
    const bool output_due = k <= n_outputs && (!row_at_goal || output_time(k) <= goal + goal_resolution);
    if (!output_due && goal_done) break;
    double at = output_due ? output_time(k) : goal;
    if (row_at_goal) at = std::min(at, goal);
    row_without_unknowns(at);
    t = at;
    pace(at);
    if (output_due) ++k;
    if (!output_due || at >= goal) goal_done = true;
  }
  if (row_at_goal && t < goal) t = goal;
}

void SessionRun::ensure_usable(const char* operation) const {
  if (broken)
    throw ModelError(fmt::format("{}: {} after the run failed at t = {} ({}); reset() or set_state() to go on", where,
                                 operation, format_number(t), broken_because));
}

void SessionRun::advance(double goal, bool row_at_goal) {
  step_started = Clock::now();
  seconds_before_step = stats.integration_seconds;
  try {
    if (restart_pending) restart();
    run(goal, row_at_goal);
  } catch (const std::exception& error) {
    broken = true;
    broken_because = error.what();
    throw;
  }
  statistics();
  stats.integration_seconds = seconds_before_step + seconds_since(step_started);
  if (row_at_goal) pace(t);
}

// The integrator begins again at (t, y, y'), as after an event but with
// nothing changed: the same point, whether the run got here by integrating or
// from a saved state, continues the same way.
void SessionRun::restart_here() {
  restart_pending = false;
  copy_parameters();
  set_modes();
  schedule_time_events(t);
  k = 1;
  while (k <= n_outputs && output_time(k) <= t + 1e-12 * (1.0 + std::fabs(t))) ++k;
  if (n == 0) return;
  std::fill(switched_by_root.begin(), switched_by_root.end(), 0);
  integ.nonfinite_equation = -1;
  exact.forget();
  check(IDAReInit(s.ida, t, s.y, s.yp), "IDAReInit");
}

void SessionRun::restart() {
  statistics();
  before_reinit = stats;
  restart_here();
}

// What simulate() checks at its start, for parameter values about to be set.
void SessionRun::check_parameters(const std::vector<double>& candidate) const {
  check_parameter_values(m, candidate);
  auto value = [&](const Node* leaf) { return candidate[m.dae.parameter_of.at(leaf)]; };
  for (int k : clocks) {
    const DaeDiscrete& d = m.dae.discretes[k];
    check_clock(k, evaluate(d.clock.start, value), evaluate(d.clock.interval, value));
  }
}

// The rows from the next one on are read with the current parameters.
void SessionRun::note_parameters() {
  auto& changes = result.parameter_changes_;
  const std::size_t first = result.time_.size();
  while (!changes.empty() && changes.back().first >= first) changes.pop_back();
  changes.emplace_back(first, parameters);
}

void SessionRun::set_parameter(const std::string& name, double value) {
  ensure_usable("set_parameter");
  auto it = m.parameter_by_name.find(name);
  if (it == m.parameter_by_name.end()) {
    std::vector<std::string> names;
    for (const auto& p : m.dae.parameters) names.push_back(p.name);
    throw UnknownNameError("model '" + m.dae.model_name + "'", "parameter", name, names);
  }
  const int p = it->second;
  check_parameter_change(m, p, parameters[p], value);
  if (std::find(delay_time_parameters.begin(), delay_time_parameters.end(), p) != delay_time_parameters.end())
    throw ModelError(where + ": parameter " + name +
                     " sets a delay time, which cannot change during a run (the recorded past is as long as the "
                     "delay); set it on the Simulator before start()");
  std::vector<double> candidate = parameters;
  candidate[p] = value;
  check_parameters(candidate);
  try {
    if (restart_pending) restart();
    const std::string why = "set_parameter(" + name + " = " + format_number(value) + ")";
    // The row at time() that the last step recorded is the left limit.
    if (!result.time_.empty() && result.time_.back() == t && !event_at(t)) {
      continued_event = std::numeric_limits<double>::quiet_NaN();
      cause = why;
    } else {
      begin_event(t, why);
    }
    parameters = std::move(candidate);
    copy_parameters();
    note_parameters();
    schedule_time_events(t);
    if (n == 0) {
      row_without_unknowns(t);
      if (!std::isnan(continued_event)) result.time_.back() = continued_event;
      result.event_times_.push_back(std::isnan(continued_event) ? t : continued_event);
      result.event_causes_.push_back(cause);
      return;
    }
    // Relations of time whose instant moved (a step's startTime) switch now;
    // the event iteration reads every other relation and when-condition.
    evaluate_relations(t, true);
    finish_event(t);
  } catch (const std::exception& error) {
    broken = true;
    broken_because = error.what();
    throw;
  }
}

double SessionRun::get(const std::string& name) {
  auto it = probes.find(name);
  if (it == probes.end()) {
    auto v = m.variable_by_name.find(name);
    if (auto p = m.parameter_by_name.find(name); v == m.variable_by_name.end() && p != m.parameter_by_name.end())
      return parameters[p->second];
    if (v == m.variable_by_name.end()) {
      std::vector<std::string> names;
      for (const auto& variable : m.dae.variables) names.push_back(variable.name);
      for (const auto& parameter : m.dae.parameters) names.push_back(parameter.name);
      throw UnknownNameError("the session of model '" + m.dae.model_name + "'", "variable or parameter", name, names);
    }
    it = probes.emplace(name, m.observer({m.value_of(v->second)})).first;
  }
  Tape& probe = it->second;
  double* in = probe.inputs();
  in[0] = t;
  in[1] = 0.0;
  std::copy_n(y, n, in + 2);
  std::copy_n(yp, n, in + 2 + n);
  std::copy(parameters.begin(), parameters.end(), in + m.parameter_register());
  std::copy(modes.begin(), modes.end(), in + m.mode_register());
  probe.run();
  return probe.output(0);
}

SessionState SessionRun::state() {
  ensure_usable("state()");
  SessionState saved;
  saved.model = m.dae.model_name;
  saved.t_start = options.t_start;
  saved.time = t;
  if (n > 0) {
    saved.y.assign(y, y + n);
    saved.yp.assign(yp, yp + n);
  }
  saved.frozen = modes;
  saved.parameters = parameters;
  saved.delay_history = delays.history();
  SessionState::Events& e = saved.events;
  for (const auto& conditions : condition_before)
    e.when_conditions.insert(e.when_conditions.end(), conditions.begin(), conditions.end());
  e.root_offsets = integ.root_offset;
  e.chatter_since = chatter.since;
  e.chatter_events = chatter.events;
  e.chatter_relations.assign(chatter.relations.begin(), chatter.relations.end());
  e.cluster_time = accumulation.last;
  e.cluster_gap = accumulation.gap;
  e.shrinking_gaps = accumulation.shrinking;
  e.accumulating_relations.assign(accumulation.relations.begin(), accumulation.relations.end());
  e.recent_events.assign(recent_events.begin(), recent_events.end());
  e.last_event_time = std::numeric_limits<double>::quiet_NaN();
  if (event_at(t) && !result.time_.empty() && result.time_.back() == result.event_times_.back()) {
    e.last_event_time = result.event_times_.back();
    e.last_event_cause = result.event_causes_.back();
  }
  statistics();
  saved.statistics = stats;
  restart_pending = true;
  return saved;
}

void SessionRun::set_state(const SessionState& saved) {
  const std::string head = where + ": set_state: ";
  if (saved.model != m.dae.model_name)
    throw ModelError(head + "the state is of model '" + saved.model + "', not '" + m.dae.model_name + "'");
  if (saved.t_start != options.t_start)
    throw ModelError(head + "the state is of a run started at t_start = " + format_number(saved.t_start) +
                     ", this session started at " + format_number(options.t_start));
  if (!std::isfinite(saved.time) || saved.time < options.t_start || saved.time > options.t_end)
    throw ModelError(head + "the state's time " + format_number(saved.time) + " is outside [t_start, t_end] = [" +
                     format_number(options.t_start) + ", " + format_number(options.t_end) + "]");
  std::size_t n_conditions = 0;
  for (const auto& w : m.whens) n_conditions += w.n_conditions;
  auto refuse_size = [&](const std::string& what, std::size_t got, std::size_t expected) {
    if (got != expected)
      throw ModelError(head + "the state has " + std::to_string(got) + " " + what + ", the compiled model " +
                       std::to_string(expected) + " (a state of another compilation of '" + m.dae.model_name + "'?)");
  };
  refuse_size("unknowns", saved.y.size(), static_cast<std::size_t>(n));
  refuse_size("derivatives", saved.yp.size(), static_cast<std::size_t>(n));
  refuse_size("frozen values", saved.frozen.size(), modes.size());
  refuse_size("parameters", saved.parameters.size(), parameters.size());
  refuse_size("delay lines", saved.delay_history.size(), m.delays.size());
  refuse_size("when-conditions", saved.events.when_conditions.size(), n_conditions);
  refuse_size("root offsets", saved.events.root_offsets.size(), m.state_event_modes.size());
  for (int p : delay_time_parameters)
    if (saved.parameters[p] != parameters[p])
      throw ModelError(head + "the state's " + m.dae.parameters[p].name + " = " + format_number(saved.parameters[p]) +
                       " sets a delay time, and this session's is " + format_number(parameters[p]));
  try {
    t = saved.time;
    if (n > 0) {
      std::copy(saved.y.begin(), saved.y.end(), y);
      std::copy(saved.yp.begin(), saved.yp.end(), yp);
    }
    modes = saved.frozen;
    parameters = saved.parameters;
    delays.set_history(saved.delay_history);
    const SessionState::Events& e = saved.events;
    std::size_t c = 0;
    for (auto& conditions : condition_before)
      for (auto& condition : conditions) condition = e.when_conditions[c++];
    integ.root_offset = e.root_offsets;
    chatter.since = e.chatter_since;
    chatter.events = e.chatter_events;
    chatter.relations = {e.chatter_relations.begin(), e.chatter_relations.end()};
    accumulation.last = e.cluster_time;
    accumulation.gap = e.cluster_gap;
    accumulation.shrinking = e.shrinking_gaps;
    accumulation.relations = {e.accumulating_relations.begin(), e.accumulating_relations.end()};
    recent_events = {e.recent_events.begin(), e.recent_events.end()};

    // The result begins again at the saved point.
    const std::string linear_solver = stats.linear_solver;
    result = Result();
    result.model_ = model_ptr;
    result.parameters_ = parameters;
    result.time_.push_back(t);
    result.y_ = saved.y;
    result.yp_ = saved.yp;
    result.modes_ = modes;
    if (!std::isnan(e.last_event_time)) {
      result.time_.back() = e.last_event_time;
      result.event_times_.push_back(e.last_event_time);
      result.event_causes_.push_back(e.last_event_cause);
    }
    stats = saved.statistics;
    stats.linear_solver = linear_solver;
    before_reinit = stats;
    broken = false;
    broken_because.clear();
    restart_here();
  } catch (const std::exception& error) {
    broken = true;
    broken_because = error.what();
    throw;
  }
  wall_origin =
      Clock::now() - std::chrono::ceil<Clock::duration>(std::chrono::duration<double>(
                         options.realtime_factor > 0 ? (t - options.t_start) / options.realtime_factor : 0.0));
}

// Session: the public face of a run.

Session::Session(std::shared_ptr<const CompiledModel> model, const std::vector<double>& parameters,
                 const SimulationOptions& options, const std::string& caller)
    : run_(SessionRun::create(std::move(model), parameters, options, caller)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

SessionRun& Session::run() const {
  if (!run_) throw ModelError("this Session was moved from: use the Session it was moved to");
  return *run_;
}

double Session::time() const { return run().t; }

void Session::advance(double t) {
  SessionRun& r = run();
  r.ensure_usable("advance");
  if (!(t > r.t) || !(t <= r.options.t_end))
    throw ModelError(r.where + ": advance(" + format_number(t) + ") must go beyond time() = " + format_number(r.t) +
                     " and not past t_end = " + format_number(r.options.t_end));
  r.advance(t, true);
}

double Session::get(const std::string& name) const { return run().get(name); }

void Session::set_parameter(const std::string& name, double value) { run().set_parameter(name, value); }

SessionState Session::state() const { return run().state(); }

void Session::set_state(const SessionState& state) { run().set_state(state); }

void Session::set_point(const OperatingPoint& point) {
  SessionState s = state();
  s.time = point.time;
  s.y = point.y;
  s.yp = point.yp;
  s.frozen = point.frozen;
  s.parameters = point.parameters;
  set_state(s);
}

void Session::reset() {
  SessionRun& r = run();
  run_ = SessionRun::create(r.model_ptr, r.start_parameters, r.options, r.caller);
}

const Result& Session::result() const { return run().result; }

Result Session::finish() {
  SessionRun& r = run();
  r.advance(r.options.t_end, false);
  return r.take_result();
}

}  // namespace acausal
