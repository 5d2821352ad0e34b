#include "solver/simulator.hpp"

#include <fmt/format.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <bit>
#include <numeric>
#include <set>

#include "solver/delay_lines.hpp"
#include "solver/evaluation.hpp"
#include "solver/exact_outputs.hpp"

namespace acausal {

Simulator::Simulator(std::shared_ptr<const CompiledModel> model) : model_(std::move(model)) {
  for (const auto& p : model_->dae.parameters) parameters_.push_back(p.value);
}

int Simulator::parameter_index(const std::string& name) const {
  auto it = model_->parameter_by_name.find(name);
  if (it == model_->parameter_by_name.end())
    throw UnknownNameError("model '" + model_->dae.model_name + "'", "parameter", name, parameter_names());
  return it->second;
}

void Simulator::set_parameter(const std::string& name, double value) {
  int p = parameter_index(name);
  if (model_->dae.parameters[p].attributes.structural)
    throw ModelError("parameter " + name + " is structural: the compiled model was specialized for " + name + " = " +
                     format_number(parameters_[p]) + "; set it before compile() (Model::add or set_parameter)");
  check_parameter_value(name, value, model_->dae.parameters[p].attributes);
  parameters_[p] = value;
}

double Simulator::parameter(const std::string& name) const { return parameters_[parameter_index(name)]; }

std::vector<std::string> Simulator::parameter_names() const {
  std::vector<std::string> names;
  for (const auto& p : model_->dae.parameters) names.push_back(p.name);
  return names;
}

std::vector<ParameterInfo> Simulator::parameters() const { return parameter_table(*model_, parameters_); }

std::vector<std::string> Simulator::inputs() const {
  std::vector<std::string> names;
  for (const auto& p : model_->dae.parameters)
    if (p.attributes.input) names.push_back(p.name);
  return names;
}

std::vector<std::string> Simulator::outputs() const {
  std::vector<std::string> names;
  for (int v : model_->dae.outputs) names.push_back(model_->dae.variables[v].name);
  return names;
}

const CompileReport& Simulator::report() const { return model_->dae.report; }

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
  ~Sundials() {
    if (ida) IDAFree(&ida);
    if (solver) SUNLinSolFree(solver);
    if (matrix) SUNMatDestroy(matrix);
    if (id) N_VDestroy(id);
    if (yp) N_VDestroy(yp);
    if (y) N_VDestroy(y);
    if (context) SUNContext_Free(&context);
  }
};

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

  static void load(const CompiledModel& m, double t, double cj, const double* y, const double* yp, Tape& tape) {
    double* in = tape.inputs();
    in[0] = t;
    in[1] = cj;
    std::memcpy(in + 2, y, sizeof(double) * m.n);
    std::memcpy(in + 2 + m.n, yp, sizeof(double) * m.n);
  }
  void load(double t, double cj, const double* y, const double* yp, Tape& tape) const {
    load(*model, t, cj, y, yp, tape);
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

void validate(const SimulationOptions& o, const std::string& model_name) {
  auto refuse = [&](const std::string& field, double value, const std::string& need) {
    throw ModelError("simulate(" + model_name + "): " + field + " = " + format_number(value) + ", but it must be " + need);
  };
  if (!std::isfinite(o.t_start)) refuse("t_start", o.t_start, "finite");
  if (!std::isfinite(o.t_end) || !(o.t_end > o.t_start))
    refuse("t_end", o.t_end, "finite and greater than t_start = " + format_number(o.t_start));
  if (!std::isfinite(o.output_interval) || !(o.output_interval > 0))
    refuse("output_interval", o.output_interval, "positive and finite");
  if (!std::isfinite(o.rtol) || !(o.rtol > 0) || !(o.rtol < 1)) refuse("rtol", o.rtol, "in (0, 1)");
  if (!std::isfinite(o.atol) || !(o.atol > 0)) refuse("atol", o.atol, "positive and finite");
  if (o.dense_threshold < 0) refuse("dense_threshold", o.dense_threshold, "at least 0");
  if (o.max_steps < 1) refuse("max_steps", static_cast<double>(o.max_steps), "at least 1");
  if (!std::isfinite(o.max_step) || o.max_step < 0) refuse("max_step", o.max_step, "finite and at least 0 (0: no limit)");
  if (!(o.max_output_bytes > 0)) refuse("max_output_bytes", o.max_output_bytes, "positive");
  if (!std::isfinite(o.initial_step) || o.initial_step < 0)
    refuse("initial_step", o.initial_step, "finite and at least 0 (0: IDA's estimate)");
  for (std::size_t k = 0; k < o.output_times.size(); ++k) {
    const double t = o.output_times[k];
    const std::string field = fmt::format("output_times[{}]", k);
    if (!std::isfinite(t) || t < o.t_start || t > o.t_end)
      refuse(field, t, fmt::format("within [t_start, t_end] = [{}, {}]", format_number(o.t_start), format_number(o.t_end)));
    if (k > 0 && !(t > o.output_times[k - 1]))
      refuse(field, t, "greater than the time before it, " + format_number(o.output_times[k - 1]));
  }
}

Result Simulator::simulate(const SimulationOptions& options) const {
  const CompiledModel& m = *model_;
  const std::string& model_name = m.dae.model_name;
  validate(options, model_name);
  // Each row stores t, y, y' and the frozen values; the rest is computed when read.
  const double row_bytes = sizeof(double) * (1.0 + 2.0 * m.n + m.n_frozen());
  const bool given_times = !options.output_times.empty();
  const double planned_rows = given_times ? options.output_times.size() + 1.0
                                          : std::floor((options.t_end - options.t_start) / options.output_interval) + 2.0;
  if (!given_times && planned_rows * row_bytes > options.max_output_bytes)
    throw ModelError("simulate(" + model_name + "): output_interval = " + format_number(options.output_interval) +
                     " over [" + format_number(options.t_start) + ", " + format_number(options.t_end) + "] makes " +
                     format_number(planned_rows) + " rows of " + format_number(row_bytes) + " bytes, more than " +
                     "max_output_bytes = " + format_number(options.max_output_bytes) +
                     "; choose a larger output_interval (or raise max_output_bytes)");
  const std::size_t max_rows = static_cast<std::size_t>(options.max_output_bytes / row_bytes);

  auto leaf_value = [&](const Node* leaf) {
    return parameters_[m.dae.parameter_of.at(leaf)];
  };
  m.dae.check_parameter_conditions(leaf_value);
  for (const auto& condition : m.dae.nonzero_conditions) {
    double v = evaluate(condition.value, leaf_value);
    if (v == 0.0 || !std::isfinite(v))
      throw ModelError("with the current parameters " + m.dae.print(condition.value) + " = " + format_number(v) +
                       ", but the compiled model divides by it (" + condition.reason + ")");
  }

  Result result;
  result.model_ = model_;
  result.parameters_ = parameters_;
  const int n = m.n;
  SolverStatistics& stats = result.statistics_;
  stats.unknowns = n;
  stats.root_functions = static_cast<int>(m.state_event_modes.size());
  bool sparse = options.linear_solver == LinearSolver::klu ||
                (options.linear_solver == LinearSolver::automatic && n > options.dense_threshold);
  stats.linear_solver = sparse ? "klu" : "dense";

  DelayLines delays(m, parameters_, options.t_start);
  Integration integ{&m, m.residual, m.jacobian, m.indicators, sparse, delays.empty() ? nullptr : &delays,
                    options.interrupt, {}};
  const int n_modes = static_cast<int>(m.dae.modes.size());
  const int n_discretes = static_cast<int>(m.dae.discretes.size());
  // The frozen values: modes, discretes, their pre() values, delayed values.
  std::vector<double> modes(m.n_frozen(), 0.0);
  const int discrete_offset = m.discrete_register() - m.mode_register();
  const int pre_offset = m.pre_register() - m.mode_register();
  const int delay_offset = m.delay_register() - m.mode_register();
  for (int k = 0; k < n_discretes; ++k)
    modes[discrete_offset + k] = modes[pre_offset + k] = m.dae.discretes[k].attributes.start;
  auto update_delayed = [&](double t) {
    if (!delays.empty()) delays.values_at(t, modes.data() + delay_offset);
  };
  Tape relations = m.relations;
  Tape observed = m.observed;
  Tape hybrid = m.hybrid;
  ExactOutputs exact(m, options.rtol, options.atol);
  const std::vector<Tape*> tapes = {&integ.residual, &integ.jacobian, &integ.indicators, &relations, &observed,
                                    &hybrid, &exact.residual(), &exact.jacobian()};
  for (Tape* tape : tapes) std::copy(parameters_.begin(), parameters_.end(), tape->inputs() + m.parameter_register());
  // set_modes copies the delayed values too; the callbacks refresh them for their own t.
  auto set_modes = [&] {
    for (Tape* tape : tapes) std::copy(modes.begin(), modes.end(), tape->inputs() + m.mode_register());
  };

  // Time events: instants known from the parameters, hit exactly.
  std::vector<double> time_events;
  for (const auto& mode : m.dae.modes) {
    if (!mode.time_event) continue;
    double te = evaluate(mode.event_time, leaf_value);
    if (std::isfinite(te) && te > options.t_start && te < options.t_end) time_events.push_back(te);
  }
  // A delay of a signal of time alone jumps T after its argument does. The
  // argument's relations are evaluated literally, so nothing else marks those
  // instants, and a relation on the delayed value sitting on its threshold
  // (root finding ignores it) would miss the jump: they are time events too.
  for (const Node* d : m.delays) {
    if (!unknown_leaves(Expr(d->arg[0])).empty()) continue;
    const double delay_time = evaluate(Expr(d->arg[1]), leaf_value);
    for_each_postorder(d->arg[0], [&](const Node* n) {
      if (n->op != Op::Lt && n->op != Op::Le && n->op != Op::Gt && n->op != Op::Ge) return;
      for (int side : {0, 1}) {
        if (n->arg[side]->op != Op::Time || !is_parametric(Expr(n->arg[1 - side]))) continue;
        double te = evaluate(Expr(n->arg[1 - side]), leaf_value) + delay_time;
        if (std::isfinite(te) && te > options.t_start && te < options.t_end) time_events.push_back(te);
      }
    });
  }
  // Sample instants: start + k·interval (a product, not a sum: no drift over many periods).
  std::vector<int> clocks;
  for (int k = 0; k < n_discretes; ++k) {
    const DaeDiscrete& d = m.dae.discretes[k];
    if (d.role != DaeDiscrete::Role::sample) continue;
    clocks.push_back(k);
    const double start = evaluate(d.clock.start, leaf_value), interval = evaluate(d.clock.interval, leaf_value);
    if (!std::isfinite(start) || !std::isfinite(interval) || !(interval > 0))
      throw ModelError("simulate(" + model_name + "): " + m.dae.print(d.clock.start) + " = " + format_number(start) +
                       " and " + m.dae.print(d.clock.interval) + " = " + format_number(interval) + " in " +
                       m.dae.origins[d.origin] + "'s sample(start, interval): the interval must be positive, both finite");
    const double first = std::max(0.0, std::ceil((options.t_start - start) / interval));
    for (double i = first;; ++i) {
      const double te = start + i * interval;
      if (te >= options.t_end) break;
      if (te > options.t_start) time_events.push_back(te);
      if (time_events.size() > 50'000'000) break;  // the row budget refuses such a run below
    }
  }
  auto ticks = [&](int k, double t) {
    const DaeDiscrete& d = m.dae.discretes[k];
    const double start = evaluate(d.clock.start, leaf_value), interval = evaluate(d.clock.interval, leaf_value);
    const double i = std::round((t - start) / interval);
    return i >= 0 && std::fabs(start + i * interval - t) <= 1e-12 * (1.0 + std::fabs(t));
  };
  std::sort(time_events.begin(), time_events.end());
  time_events.erase(std::unique(time_events.begin(), time_events.end()), time_events.end());

  // Row 0 is the initial point; with given output times it is dropped at the
  // end unless t_start is one of them.
  const bool drop_initial_row = given_times && options.output_times.front() > options.t_start;
  const long n_outputs =
      given_times ? static_cast<long>(options.output_times.size()) - (drop_initial_row ? 0 : 1)
                  : static_cast<long>(std::ceil((options.t_end - options.t_start) / options.output_interval - 1e-9));
  auto output_time = [&](long k) {
    if (given_times) return k == 0 ? options.t_start : options.output_times[k - (drop_initial_row ? 1 : 0)];
    return std::min(options.t_start + k * options.output_interval, options.t_end);
  };
  auto finished = [&]() -> Result {
    if (drop_initial_row && !result.time_.empty()) {
      const std::size_t n_frozen = result.modes_.size() / result.time_.size();
      result.time_.erase(result.time_.begin());
      result.y_.erase(result.y_.begin(), result.y_.begin() + n);
      result.yp_.erase(result.yp_.begin(), result.yp_.begin() + n);
      result.modes_.erase(result.modes_.begin(), result.modes_.begin() + n_frozen);
    }
    return std::move(result);
  };
  // No NaN or infinity reaches a result silently. Observed variables are
  // checked in solve order, so the message names where a non-finite value
  // arose rather than what it spread to. `observed` holds the row's inputs.
  auto check_observed = [&](double t) {
    observed.run();
    for (std::size_t k = 0; k < m.observed_variables.size(); ++k) {
      double value = observed.output(k);
      if (std::isfinite(value)) continue;
      const DaeVariable& v = m.dae.variables[m.observed_variables[k]];
      const int from = v.solved_from >= 0 ? v.solved_from : v.fixed_by;
      throw SimulationError("simulate(" + model_name + "): " + v.name + " = " + format_number(value) + " at t = " +
                                format_number(t) + ", from " +
                                (from >= 0 ? m.dae.describe(m.dae.consumed_equations[from])
                                           : "its alias " + m.dae.print(Expr(v.definition))),
                            t, 0, "", result);
    }
  };

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
    for (long k = 0; k <= n_outputs; ++k) {
      const double t = output_time(k);
      update_delayed(t);  // all exact: arguments of time and parameters
      relations.inputs()[0] = t;
      std::copy(modes.begin() + delay_offset, modes.end(), relations.inputs() + m.delay_register());
      relations.run();
      for (int i = 0; i < n_modes; ++i) modes[i] = relations.output(i) != 0.0 ? 1.0 : 0.0;
      observed.inputs()[0] = t;
      std::copy(modes.begin(), modes.end(), observed.inputs() + m.mode_register());
      check_observed(t);
      result.time_.push_back(t);
      result.modes_.insert(result.modes_.end(), modes.begin(), modes.end());
    }
    return finished();
  }

  Sundials s;
  auto fail = [&](const std::string& what, int flag, double t) {
    if (integ.interrupted())
      throw SimulationInterrupted("simulate(" + model_name + "): interrupted at t = " + format_number(t), t, flag,
                                  "interrupted", result);
    std::string nonfinite;
    if (integ.nonfinite_equation >= 0)
      nonfinite = "; the residual of " + m.dae.describe(m.dae.equations[integ.nonfinite_equation]) +
                  " was not finite at t = " + format_number(integ.nonfinite_time);
    throw SimulationError("simulate(" + model_name + "): " + what + " at t = " + format_number(t) + ": " +
                              flag_name(flag) + (integ.last_message.empty() ? "" : " (" + integ.last_message + ")") +
                              nonfinite,
                          t, flag, integ.last_message, result);
  };
  auto check = [&](int flag, const char* what) {
    if (flag < 0) fail(std::string(what) + " failed", flag, options.t_start);
  };
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::runtime_error("SUNContext_Create failed");
  s.y = N_VNew_Serial(n, s.context);
  s.yp = N_VNew_Serial(n, s.context);
  s.id = N_VNew_Serial(n, s.context);
  double* y = N_VGetArrayPointer(s.y);
  double* yp = N_VGetArrayPointer(s.yp);
  for (int k = 0; k < n; ++k) {
    y[k] = m.dae.variables[m.variable_of_slot[k]].start;
    yp[k] = 0.0;
    NV_Ith_S(s.id, k) = m.differential[k];
  }

  auto make_exact = [&](double t) {
    auto started = std::chrono::steady_clock::now();
    ExactOutputs::Outcome outcome = exact.solve(y, yp, [&](Tape& tape, double cj, const double* y_, const double* yp_) {
      integ.load(t, cj, y_, yp_, tape);
    });
    stats.exact_outputs_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ++(outcome.exact ? stats.exact_rows : stats.inexact_rows);
    stats.exact_iterations += outcome.iterations;
    stats.exact_factorizations = exact.factorizations();
    if (outcome.nonfinite_equation >= 0)
      throw SimulationError("simulate(" + model_name + "): " + m.dae.describe(m.dae.equations[outcome.nonfinite_equation]) +
                                " is not finite at t = " + format_number(t),
                            t, 0, "", result);
  };
  auto record = [&](double t) {
    update_delayed(t);
    if (options.exact_outputs) make_exact(t);
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(y[i]) || !std::isfinite(yp[i]))
        throw SimulationError("simulate(" + model_name + "): " + (std::isfinite(y[i]) ? "der(" : "") +
                                  m.dae.variables[m.variable_of_slot[i]].name + (std::isfinite(y[i]) ? ")" : "") +
                                  " is not finite at t = " + format_number(t),
                              t, 0, "", result);
    integ.load(t, 0.0, y, yp, observed);
    check_observed(t);
    integ.nonfinite_equation = -1;  // a trial point IDA recovered from is no cause of a later failure
    if (result.time_.size() >= max_rows)
      throw SimulationError("simulate(" + model_name + "): the result reached max_output_bytes = " +
                                format_number(options.max_output_bytes) + " at t = " + format_number(t) + " (" +
                                std::to_string(result.event_times_.size()) + " events so far add two rows each)",
                            t, 0, "", result);
    result.time_.push_back(t);
    result.y_.insert(result.y_.end(), y, y + n);
    result.yp_.insert(result.yp_.end(), yp, yp + n);
    result.modes_.insert(result.modes_.end(), modes.begin(), modes.end());
  };
  // IDAReInit zeroes IDA's counters: the counts of earlier segments are kept aside.
  SolverStatistics before_reinit;
  auto statistics = [&] {
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
  };
  // Relations evaluated from the current values (at t0 and at time events).
  // Modes that a root just switched keep the value the crossing gave them: at
  // the root their relation sits on its threshold and could read either way.
  std::vector<char> switched_by_root(n_modes, 0);
  // The modes whose relation reads pre() of each discrete: when that pre()
  // moves at an event, the relation's threshold moved with it (time >=
  // pre(next_breakpoint)), and the value a root gave it no longer holds.
  std::vector<std::vector<int>> modes_reading_pre(n_discretes);
  for (int k = 0; k < n_modes; ++k)
    for_each_postorder(m.dae.modes[k].relation.node(), [&](const Node* leaf) {
      if (leaf->op != Op::Discrete) return;
      auto it = m.dae.discrete_of.find(leaf);
      if (it != m.dae.discrete_of.end() && leaf == m.dae.discretes[it->second].pre)
        modes_reading_pre[it->second].push_back(k);
    });
  auto evaluate_relations = [&](double t, bool only_time_events) {
    bool changed = false;
    integ.load(t, 0.0, y, yp, relations);
    relations.run();
    for (int k = 0; k < n_modes; ++k) {
      if (switched_by_root[k] || (only_time_events && !m.dae.modes[k].time_event)) continue;
      double value = relations.output(k) != 0.0 ? 1.0 : 0.0;
      changed |= value != modes[k];
      modes[k] = value;
    }
    set_modes();
    return changed;
  };

  auto t_init = std::chrono::steady_clock::now();
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

  // The equations a failed solve leaves most violated, with their unknowns,
  // at y and y' as they are (IDA leaves the values it started from).
  auto worst_residuals = [&](double t) {
    integ.load(t, 0.0, y, yp, integ.residual);
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
        unknowns += (unknowns.empty() ? "" : ", ") + name + " = " +
                    format_number(leaf->op == Op::Der ? yp[slot] : y[slot]);
      }
      out += std::string(k ? "; " : "") + m.dae.describe(eq) + " (residual " +
             format_number(integ.residual.output(order[k])) + (unknowns.empty() ? "" : ", with " + unknowns) + ")";
    }
    return out.empty() ? std::string("(every residual is zero there)") : out;
  };

  // Consistent values after the start or an event: the initialization plan at
  // t0 when it needs one, otherwise states stay and IDA computes the rest.
  auto make_consistent = [&](double t, bool at_start) {
    double t_next = std::min(t + options.output_interval, options.t_end);
    // An event at the end itself (a root on t_end): IDACalcIC still needs a step to look along.
    if (!(t_next - t > 1e-10 * (1.0 + std::fabs(t)))) t_next = t + options.output_interval;
    if (at_start && m.initialization.custom) {
      initialize(m, t, parameters_, modes, y, yp);
      check(IDAReInit(s.ida, t, s.y, s.yp), "IDAReInit");
      return;
    }
    if (!at_start) {
      statistics();
      before_reinit = stats;
    }
    check(IDAReInit(s.ida, t, s.y, s.yp), "IDAReInit");
    check(IDASetStopTime(s.ida, t_next), "IDASetStopTime");
    int flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
    // IDACalcIC's Newton test is 100 times stricter than the integrator's. A
    // value that is zero at the consistent point carries the residual's
    // roundoff, which a tight atol (1e-12 on forces of 1e4 N) weighs above that
    // test: the iteration cannot converge though the point is as consistent as
    // doubles allow. The integrator's own test then decides.
    if (flag == IDA_LINESEARCH_FAIL || flag == IDA_CONV_FAIL) {
      check(IDAReInit(s.ida, t, s.y, s.yp), "IDAReInit");
      check(IDASetNonlinConvCoefIC(s.ida, 0.33), "IDASetNonlinConvCoefIC");
      flag = IDACalcIC(s.ida, IDA_YA_YDP_INIT, t_next);
      check(IDASetNonlinConvCoefIC(s.ida, 0.0033), "IDASetNonlinConvCoefIC");
    }
    if (flag < 0) {
      statistics();
      fail((at_start ? "could not find consistent initial values" : "could not re-initialize after an event") +
               std::string("; the equations furthest from holding at the values it started from: ") +
               worst_residuals(t),
           flag, t);
    }
    check(IDAGetConsistentIC(s.ida, s.y, s.yp), "IDAGetConsistentIC");
  };
  // The discrete part (Modelica's event iteration). With pre() fixed, the
  // mixed system is solved by fixed point: the discrete equations and
  // when-clauses are evaluated from the relations as they stand, the
  // continuous part is made consistent with the result, and the relations are
  // read again, until neither changes. Relations thus keep their values until
  // a solution contradicts them (a clutch that reaches zero slip is first
  // tried locked, and breaks away only if the locked torque exceeds its
  // limit). Then pre(x) := x and again, until x = pre(x) for every discrete x.
  // pre() of each condition of each when-clause: a clause fires when any of
  // its conditions becomes true (Modelica's when {c1, c2}), so a condition
  // already true does not mask the rising edge of another (initial()).
  std::vector<std::vector<char>> condition_before(m.whens.size());
  for (std::size_t w = 0; w < m.whens.size(); ++w) condition_before[w].assign(m.whens[w].n_conditions, 0);
  auto remember_conditions = [&] {
    for (std::size_t w = 0; w < m.whens.size(); ++w)
      for (int i = 0; i < m.whens[w].n_conditions; ++i)
        condition_before[w][i] = hybrid.output(m.whens[w].first_condition + i) != 0.0;
  };
  auto run_hybrid = [&](double t) {
    integ.load(t, 0.0, y, yp, hybrid);
    hybrid.run();
  };
  auto rising_edge = [&](std::size_t w) {
    for (int i = 0; i < m.whens[w].n_conditions; ++i)
      if (hybrid.output(m.whens[w].first_condition + i) != 0.0 && !condition_before[w][i]) return true;
    return false;
  };
  std::vector<int> changed_discretes;
  auto discrete_pass = [&](double t) {
    run_hybrid(t);
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
            throw SimulationError("simulate(" + model_name + "): reinit of " +
                                      m.dae.variables[m.variable_of_slot[a.slot]].name + " to " +
                                      format_number(value) + " at t = " + format_number(t) + " in " +
                                      m.dae.origins[m.dae.whens[w].origin] + " is not finite",
                                  t, 0, "", result);
        }
      }
    }
    remember_conditions();
    changed_discretes.clear();
    for (int k = 0; k < n_discretes; ++k) {
      if (!std::isfinite(next[k]))
        throw SimulationError("simulate(" + model_name + "): discrete variable " + m.dae.discretes[k].name + " = " +
                                  format_number(next[k]) + " at t = " + format_number(t) + " (" +
                                  m.dae.origins[m.dae.discretes[k].origin] + ")",
                              t, 0, "", result);
      if (next[k] != modes[discrete_offset + k]) changed_discretes.push_back(k);
      modes[discrete_offset + k] = next[k];
    }
    set_modes();
    return reinitialized || !changed_discretes.empty();
  };
  const bool has_hybrid = m.hybrid.n_outputs() > 0 || n_discretes > 0;
  constexpr int max_event_iterations = 100;
  // A fixed point that cycles (a clutch at zero slip: assumed breaking away
  // forward, the solution says backward, and back) is searched instead: the
  // relations that changed in the cycle take each combination of values,
  // fewest true first (the element stays stuck unless it must break away),
  // until one is consistent with the solution it gives.
  auto settle_cycle = [&](double t, bool at_start, const std::vector<int>& cycling) {
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
      discrete_pass(t);
      make_consistent(t, at_start);
      integ.load(t, 0.0, y, yp, relations);
      relations.run();
      bool consistent = true;
      for (int k = 0; k < n_modes && consistent; ++k)
        consistent = switched_by_root[k] || (relations.output(k) != 0.0 ? 1.0 : 0.0) == modes[k];
      if (consistent && !discrete_pass(t)) return true;
    }
    return false;
  };
  auto event_iteration = [&](double t, bool at_start) {
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
        throw SimulationError("simulate(" + model_name + "): the event iteration at t = " + format_number(t) +
                                  " did not settle after " + std::to_string(max_event_iterations) +
                                  " passes; still changing: " + (changing.empty() ? "(a reinit)" : changing),
                              t, 0, "", result);
      }
      std::copy(modes.begin(), modes.begin() + n_modes, modes_before.begin());
      if (pass == 0) make_consistent(t, at_start);
      // Relations that depend on the consistent values may switch once more.
      const bool relations_changed = n_modes > 0 && evaluate_relations(t, false);
      const bool discretes_changed = has_hybrid && discrete_pass(t);
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
        if (!cycle || cycling.size() > 10 || !settle_cycle(t, at_start, cycling)) {
          visited.push_back(std::move(state));
          make_consistent(t, at_start);
          continue;
        }
        visited.clear();
      }
      if (!has_hybrid || std::equal(modes.begin() + discrete_offset, modes.begin() + pre_offset,
                                    modes.begin() + pre_offset))
        break;
      for (int k = 0; k < n_discretes; ++k)
        if (modes[discrete_offset + k] != modes[pre_offset + k])
          for (int mode : modes_reading_pre[k]) switched_by_root[mode] = 0;
      std::copy(modes.begin() + discrete_offset, modes.begin() + pre_offset, modes.begin() + pre_offset);
      set_modes();
      visited.clear();
    }
  };
  // initial() and sample() are true only while the event iteration of their instant runs.
  auto set_instant_flags = [&](double t, bool initializing) {
    for (int k = 0; k < n_discretes; ++k) {
      const DaeDiscrete& d = m.dae.discretes[k];
      double& value = modes[discrete_offset + k];
      if (d.role == DaeDiscrete::Role::initial) value = initializing ? 1.0 : 0.0;
      if (d.role == DaeDiscrete::Role::sample) value = ticks(k, t) ? 1.0 : 0.0;
    }
    set_modes();
  };
  auto clear_instant_flags = [&](double t) {
    if (!has_hybrid) return;
    for (int k = 0; k < n_discretes; ++k)
      if (m.dae.discretes[k].role != DaeDiscrete::Role::declared)
        modes[discrete_offset + k] = modes[pre_offset + k] = 0.0;
    set_modes();
    run_hybrid(t);
    remember_conditions();
  };

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
      throw SimulationError("simulate(" + model_name + "): the values of the delayed signals at the start (" +
                                "a delay's value before start + T is its argument at the start) did not settle",
                            options.t_start, 0, "", result);
  }
  record(options.t_start);
  auto t_integrate = std::chrono::steady_clock::now();
  stats.initialization_seconds = std::chrono::duration<double>(t_integrate - t_init).count();

  // With delays, the solver goes step by step so that each step's solution is recorded.
  std::vector<double> scratch_y(delays.empty() ? 0 : n), scratch_yp(delays.empty() ? 0 : n);
  N_Vector dky = delays.empty() ? nullptr : N_VMake_Serial(n, scratch_y.data(), s.context);
  N_Vector dkyp = delays.empty() ? nullptr : N_VMake_Serial(n, scratch_yp.data(), s.context);
  struct Release {
    N_Vector a, b;
    ~Release() {
      if (a) N_VDestroy(a);
      if (b) N_VDestroy(b);
    }
  } release{dky, dkyp};
  double t = options.t_start;
  // The stop time is the target itself, so no step passes an output time
  // (whose row reads the delays) or hides a root beyond it.
  auto advance = [&](double target) {
    if (delays.empty()) return IDASolve(s.ida, target, &t, s.y, s.yp, IDA_NORMAL);
    if (int flag = IDASetStopTime(s.ida, target); flag < 0) return flag;
    // IDA counts max_steps per IDASolve call, and here each call is one step.
    for (long steps = 1;; ++steps) {
      if (steps > options.max_steps) {
        integ.last_message = "more than max_steps = " + std::to_string(options.max_steps) + " steps toward t = " +
                             format_number(target);
        return IDA_TOO_MUCH_WORK;
      }
      const double t_before = t;
      int flag = IDASolve(s.ida, target, &t, s.y, s.yp, IDA_ONE_STEP);
      if (flag < 0) return flag;
      constexpr int samples_per_step = 4;
      for (int j = 1; j <= samples_per_step; ++j) {
        double tj = t_before + (t - t_before) * j / samples_per_step;
        IDAGetDky(s.ida, tj, 0, dky);
        IDAGetDky(s.ida, tj, 1, dkyp);
        delays.record(tj, scratch_y.data(), scratch_yp.data());
      }
      if (flag == IDA_ROOT_RETURN || flag == IDA_TSTOP_RETURN) return flag;
    }
  };

  // A root function exactly zero where the integration restarts (a clutch
  // locked at exactly zero slip, a mass set onto its stop by reinit) would
  // leave zero unseen: IDA reports sign changes, not departures from zero.
  // Such a function is shifted by a hysteresis so that its relation switches
  // when the value has moved that far to the side where it changes (Modelica
  // tools do the same).
  constexpr double hysteresis = 1e-10;
  integ.root_offset.assign(m.state_event_modes.size(), 0.0);
  auto arm_roots = [&](double t) {
    if (m.state_event_modes.empty()) return;
    integ.load(t, 0.0, y, yp, integ.indicators);
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
  };
  arm_roots(options.t_start);
  // The left-limit row of an event. An event at the instant of the one just
  // handled (a time event and a root function that jumps with it) continues
  // that one: its right-limit row is recorded again rather than a second event.
  double continued_event = std::numeric_limits<double>::quiet_NaN();
  std::string cause;  // of the event being handled
  auto begin_event = [&](double t, std::string why) {
    continued_event = std::numeric_limits<double>::quiet_NaN();
    cause = std::move(why);
    if (result.event_times_.empty() || t - result.event_times_.back() > 1e-12 * (1.0 + std::fabs(t))) {
      record(t);
      return;
    }
    continued_event = result.event_times_.back();  // the rows keep its instant
    result.time_.pop_back();
    result.y_.resize(result.y_.size() - n);
    result.yp_.resize(result.yp_.size() - n);
    result.modes_.resize(result.modes_.size() - modes.size());
    result.event_times_.pop_back();
    cause = result.event_causes_.back() + "; " + cause;
    result.event_causes_.pop_back();
  };
  // After modes switched at an event: consistent values, then the event
  // iteration (relations of values the switch changed, such as a gear read from
  // a shift schedule, or states a jump moved across a threshold, follow at the
  // same instant until nothing changes), then the right limit.
  auto finish_event = [&](double t_event) {
    event_iteration(t_event, false);
    clear_instant_flags(t_event);
    std::fill(switched_by_root.begin(), switched_by_root.end(), 0);
    arm_roots(t_event);
    delays.record(t_event, y, yp);
    record(t_event);
    if (!std::isnan(continued_event)) result.time_.back() = continued_event;
    result.event_times_.push_back(std::isnan(continued_event) ? t_event : continued_event);
    result.event_causes_.push_back(cause);
  };
  std::size_t next_event = 0;
  std::vector<int> roots(m.state_event_modes.size());
  constexpr int max_events_at_one_instant = 100;
  struct {
    double since;
    int events;
    std::set<std::string> relations;
  } chatter{options.t_start, 0, {}};
  // Zeno behaviour: state events ever closer together (a ball bouncing to
  // rest) accumulate at an instant the integration would never pass; past
  // it the model's assumptions (a ball above the floor) no longer hold.
  struct {
    double last = std::numeric_limits<double>::quiet_NaN();
    double gap = std::numeric_limits<double>::infinity();
    int shrinking = 0;
    std::set<std::string> relations;
  } accumulation;
  const double zeno_gap = 1e-6 * (options.t_end - options.t_start);
  constexpr int zeno_shrinking_gaps = 8;
  // Chattering that creeps forward (a sliding mode switched at every step):
  // this many state events within a millionth of the run.
  constexpr std::size_t dense_events = 200;
  std::deque<std::pair<double, std::string>> recent_events;
  long k = 1;
  while (k <= n_outputs) {
    if (integ.interrupted()) fail("interrupted", 0, t);
    double tout = output_time(k);
    // IDA stops exactly at the next time event (or the end) and interpolates outputs before it.
    double t_stop = next_event < time_events.size() ? time_events[next_event] : options.t_end;
    bool time_event_first = next_event < time_events.size() && t_stop <= tout;
    const double target = std::min(tout, t_stop);
    int flag = IDA_SUCCESS;
    if (target > t + 1e-12 * (1.0 + std::fabs(t))) {  // a root can land exactly on the next stop
      check(IDASetStopTime(s.ida, t_stop), "IDASetStopTime");
      flag = advance(target);
    }
    if (flag < 0) {
      statistics();
      double t_fail = t;
      IDAGetCurrentTime(s.ida, &t_fail);
      stats.integration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_integrate).count();
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
        throw SimulationError("simulate(" + model_name + "): chattering at t = " + format_number(t) + ": " + relations +
                                  " switched " + std::to_string(dense_events) + " times within " +
                                  format_number(t - recent_events.front().first) +
                                  " s (a sliding mode the model does not describe: smooth the switch, or model " +
                                  "the stuck mode)",
                              t, 0, "", result);
      }
      if (accumulation.shrinking >= zeno_shrinking_gaps && accumulation.gap < zeno_gap) {
        std::string relations;
        for (const auto& r : accumulation.relations) relations += (relations.empty() ? "" : ", ") + r;
        statistics();
        throw SimulationError("simulate(" + model_name + "): events accumulate at t = " + format_number(t) +
                                  " (Zeno behaviour): " + relations + " switched " +
                                  std::to_string(accumulation.shrinking + 1) +
                                  " times at ever shorter intervals, the last " + format_number(accumulation.gap) +
                                  " s apart; end the sequence with a when-clause (a ball at rest stops " +
                                  "bouncing: switch its dynamics off below a small speed)",
                              t, 0, "", result);
      }
      if (chatter.events > max_events_at_one_instant) {
        std::string relations;
        for (const auto& r : chatter.relations) relations += (relations.empty() ? "" : ", ") + r;
        statistics();
        throw SimulationError("simulate(" + model_name + "): chattering at t = " + format_number(t) + ": " +
                                  relations + " switched " + std::to_string(chatter.events) +
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
      for (const auto& mode : m.dae.modes)
        if (mode.time_event && std::fabs(evaluate(mode.event_time, leaf_value) - t) <= 1e-12 * (1.0 + std::fabs(t)))
          timed += (timed.empty() ? "" : ", ") + mode.description;
      for (int k : clocks)
        if (ticks(k, t)) timed += (timed.empty() ? "" : ", ") + m.dae.discretes[k].name;
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
      continue;
    }
    record(tout);
    ++k;
  }
  statistics();
  stats.integration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_integrate).count();
  return finished();
}

}  // namespace acausal
