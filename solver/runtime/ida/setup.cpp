// A run's set-up: options and parameters checked, initialization at t_start,
// the clocks of sample() and the time events known from the parameters.
#include "solver/runtime/ida/session_run.hpp"

#include <algorithm>

namespace acausal {

double stored_row_bytes(const CompiledModel& m, const SimulationOptions& options) {
  return sizeof(double) * (1.0 + 2.0 * m.n * (1.0 + options.sensitivities.size()) + m.n_frozen());
}

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
      timed_modes([&] {
        std::vector<int> timed;
        for (int k = 0; k < static_cast<int>(m.dae.modes.size()); ++k)
          if (m.dae.modes[k].time_event) timed.push_back(k);
        return timed;
      }()),
      event_times(m.observer([&] {
        std::vector<Expr> instants;
        for (int k : timed_modes) instants.push_back(m.dae.modes[k].event_time);
        return instants;
      }())),
      exact(m, options_.rtol, options_.atol),
      has_hybrid(m.hybrid.n_outputs() > 0 || !m.dae.discretes.empty()),
      t(options_.t_start),
      chatter{options_.t_start, 0, {}},
      zeno_gap(1e-6 * (options_.t_end - options_.t_start)),
      continuous_chatter{options_.t_start, 0} {
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
           &observed,       &hybrid,         &exact.residual(), &exact.jacobian(), &event_times};
  for (int k : timed_modes) {
    bool reads_frozen = false;
    for_each_postorder(m.dae.modes[k].event_time.node(), [&](const Node* leaf) {
      reads_frozen |= leaf->op == Op::Discrete || (leaf->op == Op::Param && !m.dae.parameter_of.contains(leaf));
    });
    moving.push_back(reads_frozen);
    any_moving |= reads_frozen;
  }
  bool relations_read_derivatives = false;
  for (const auto& mode : m.dae.modes)
    for_each_postorder(mode.relation.node(),
                       [&](const Node* leaf) { relations_read_derivatives |= leaf->op == Op::Der; });
  // Without states nothing limits IDA's steps (the algebraic unknowns are
  // outside its error test), and a root located on algebraic unknowns
  // interpolated over a long step lands late (a diode switching 2.4 ms late):
  // root functions then read values solved at their own instant.
  const bool has_states = std::any_of(m.differential.begin(), m.differential.end(), [](double d) { return d != 0; });
  if (relations_read_derivatives || (!has_states && n > 0)) {
    // Its own matrix: the output rows' iterations stay as they were.
    exact_relations = std::make_unique<ExactOutputs>(m, options_.rtol, options_.atol);
    tapes.push_back(&exact_relations->residual());
    tapes.push_back(&exact_relations->jacobian());
    integ.exact_relations = exact_relations.get();
  }
  for (Tape* tape : tapes) std::copy(parameters.begin(), parameters.end(), tape->inputs() + m.parameter_register());
  residual_reads.assign(delay_offset, 0);
  std::vector<const Node*> residuals;
  for (const auto& eq : m.dae.equations) residuals.push_back(eq.residual.node());
  for_each_postorder(residuals, [&](const Node* node) {
    const int frozen = m.input_register(node) - m.mode_register();
    if (frozen >= 0 && frozen < delay_offset) residual_reads[frozen] = 1;
  });
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
  external_instances.resize(m.whens.size());
  for (std::size_t w = 0; w < m.whens.size(); ++w) condition_before[w].assign(m.whens[w].n_conditions, 0);
  integ.root_offset.assign(m.state_event_modes.size(), 0.0);
  roots.resize(m.state_event_modes.size());

  if (n == 0) {  // nothing to integrate: every variable is a function of time and parameters
    row_without_unknowns(options.t_start);
    wall_origin = Clock::now();
    return;
  }

  create_vectors();

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
  create_integrator();

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
  frozen_at_consistency = modes;  // what IDA integrates with (quiet events compare against it)
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

void SessionRun::check_clock(int k, double start, double interval, double from) const {
  const DaeDiscrete& d = m.dae.discretes[k];
  const std::string head = where + ": " + m.dae.print(d.clock.start) + " = " + format_number(start) + " and " +
                           m.dae.print(d.clock.interval) + " = " + format_number(interval) + " in " +
                           m.dae.origins[d.origin] + "'s sample(start, interval)";
  if (!std::isfinite(start) || !std::isfinite(interval) || !(interval > 0))
    throw ModelError(head + ": the interval must be positive, both finite");
  // Two instants closer than the event machinery's resolution are one event:
  // the clock would tick twice and then seem to stop. (This also keeps
  // start + i·interval exact enough: fewer than 1e9 intervals span the run.)
  const double span = std::max({1.0, std::fabs(start), std::fabs(options.t_end)});
  if (interval < 1e-9 * span)
    throw ModelError(fmt::format("{}: the interval is below the time resolution of the run ({} s at times up to {} s); "
                                 "choose a longer interval",
                                 head, format_number(1e-9 * span), format_number(span)));
  // Each tick is an event with rows on both sides: a budget in events and in
  // memory, checked before the run rather than found by filling memory.
  const double ticks = std::max(0.0, std::floor((options.t_end - std::max(start, from)) / interval)) + 1.0;
  const double bytes = 2.0 * ticks * stored_row_bytes(m, options);
  if (ticks > max_sample_ticks || bytes > options.max_output_bytes)
    throw ModelError(fmt::format("{}: {} ticks before t_end = {} make {} event rows ({} bytes), more than the budget of "
                                 "{} ticks and max_output_bytes = {}; choose a longer interval or a shorter run",
                                 head, format_number(ticks), format_number(options.t_end), format_number(2 * ticks),
                                 format_number(bytes), format_number(max_sample_ticks),
                                 format_number(options.max_output_bytes)));
}

// Time events: instants known from the parameters, hit exactly; those after
// `from`, up to and including t_end (an event at the stop time is handled and
// its right limit recorded, as Modelica tools do).
void SessionRun::schedule_time_events(double from) {
  const auto value = leaf_values();
  time_events.clear();
  next_event = 0;
  for (std::size_t i = 0; i < timed_modes.size(); ++i) {
    if (moving[i]) continue;
    double te = evaluate(m.dae.modes[timed_modes[i]].event_time, value);
    if (std::isfinite(te) && te > from && te <= options.t_end) time_events.push_back(te);
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
        if (std::isfinite(te) && te > from && te <= options.t_end) time_events.push_back(te);
      }
    });
  }
  // Sample instants: start + k·interval (a product, not a sum: no drift over many periods).
  for (int k : clocks) {
    const DaeDiscrete& d = m.dae.discretes[k];
    const double start = evaluate(d.clock.start, value), interval = evaluate(d.clock.interval, value);
    check_clock(k, start, interval, from);
    const double first = std::max(0.0, std::ceil((from - start) / interval));
    for (double i = first;; ++i) {
      const double te = start + i * interval;
      if (te > options.t_end + 1e-12 * (1.0 + std::fabs(options.t_end))) break;
      if (te > from) time_events.push_back(std::min(te, options.t_end));
    }
  }
  std::sort(time_events.begin(), time_events.end());
  time_events.erase(std::unique(time_events.begin(), time_events.end()), time_events.end());
}

double SessionRun::next_time_event() {
  double next = next_event < time_events.size() ? time_events[next_event] : std::numeric_limits<double>::infinity();
  if (!any_moving) return next;
  event_times.run();
  const double resolution = 1e-12 * (1.0 + std::fabs(t));
  for (std::size_t i = 0; i < timed_modes.size(); ++i) {
    const double te = event_times.output(i);
    if (moving[i] && te > t + resolution && te <= options.t_end && te < next) next = te;
  }
  return next;
}

bool SessionRun::ticks(int k, double at) const {
  const DaeDiscrete& d = m.dae.discretes[k];
  const auto value = leaf_values();
  const double start = evaluate(d.clock.start, value), interval = evaluate(d.clock.interval, value);
  const double i = std::round((at - start) / interval);
  return i >= 0 && std::fabs(start + i * interval - at) <= 1e-12 * (1.0 + std::fabs(at));
}

}  // namespace acausal
