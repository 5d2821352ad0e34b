#include "solver/lower/evaluation.hpp"

#include "solver/passes/event_clock.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace acausal {

namespace {
// The Jacobian's cj (IDA's coefficient of dF/dy') is an input like any parameter.
const Expr& cj_symbol() {
  static const Expr cj = make_parameter_symbol("cj");
  return cj;
}
// Every delay node anywhere in the model, inner ones first (postorder).
void collect_delays(CompiledModel& m) {
  if (!delays_exist()) return;
  std::vector<const Node*> roots;
  for (const auto& eq : m.dae.equations) roots.push_back(eq.residual.node());
  for (const auto& v : m.dae.variables)
    if (v.definition) roots.push_back(v.definition);
  for (const auto& mode : m.dae.modes) roots.insert(roots.end(), {mode.relation.node(), mode.indicator.node()});
  for_each_postorder(roots, [&](const Node* n) {
    if (!is_delay(n->op)) return;
    m.delay_of[n] = static_cast<int>(m.delays.size());
    m.delays.push_back(n);
  });
  for (const Node* d : m.delays) {
    try {
      m.delay_arguments.push_back(m.observer({Expr(d->arg[0])}));
    } catch (const std::logic_error&) {
      // The past is recorded as y and y': a second derivative of it is not.
      throw ModelError("'" + m.dae.model_name + "': " + m.dae.print(Expr(d)) +
                       " needs a higher derivative of its argument's past than the solver records (values and " +
                       "first derivatives); smooth the delayed signal (a FirstOrder or SecondOrder after the " +
                       "delay) before a component that differentiates it, such as a Position or Speed source");
    }
  }
}

// The hybrid tape (see CompiledModel::hybrid).
void compile_hybrid(CompiledModel& m) {
  const DaeSystem& dae = m.dae;
  // A discrete defined by an equation is read, within one event iteration, as
  // its definition: equations that read each other settle in one pass.
  Rewriter inline_definitions(
      [&](const Node* leaf) -> const Node* {
        if (leaf->op != Op::Discrete) return nullptr;
        auto it = dae.discrete_of.find(leaf);
        if (it == dae.discrete_of.end() || leaf != dae.discretes[it->second].symbol) return nullptr;
        const DaeDiscrete& d = dae.discretes[it->second];
        return d.defined ? d.definition.node() : nullptr;
      },
      [&](const Node* leaf) {
        throw ModelError("'" + dae.model_name + "': discrete variable " + dae.print(Expr(leaf)) +
                         " is defined through itself without pre() (" + dae.print(Expr(leaf)) + " = " +
                         dae.print(dae.discretes[dae.discrete_of.at(leaf)].definition) +
                         "); an equation between discrete variables needs pre() in the loop");
      });
  std::vector<Expr> outputs;
  for (int k = 0; k < static_cast<int>(dae.discretes.size()); ++k) {
    if (!dae.discretes[k].defined) continue;
    m.defined_discretes.push_back(k);
    outputs.push_back(inline_definitions(dae.discretes[k].definition));
  }
  for (const auto& w : dae.whens) {
    CompiledModel::When cw;
    cw.first_condition = static_cast<int>(outputs.size());
    cw.n_conditions = static_cast<int>(w.conditions.size());
    for (const auto& c : w.conditions) outputs.push_back(inline_definitions(c));
    for (const auto& a : w.actions) {
      CompiledModel::When::Action ca;
      ca.output = static_cast<int>(outputs.size());
      outputs.push_back(inline_definitions(a.value));
      ca.discrete = a.discrete;
      if (a.variable >= 0) {
        // The target is a state or, after alias elimination, scale·state + offset.
        const Expr target = m.value_of(a.variable);
        const auto leaves = unknown_leaves(target);
        const DaeVariable& v = dae.variables[a.variable];
        int slot = leaves.size() == 1 && leaves[0]->op == Op::Var ? m.slot_of_variable[dae.variable_index(leaves[0])] : -1;
        Expr scale = slot >= 0 ? diff(target, Expr(leaves[0])) : Expr(0.0);
        if (slot < 0 || m.differential[slot] == 0.0 || !is_parametric(scale)) {
          std::string states;
          for (const auto& s : dae.report.states) states += (states.empty() ? "" : ", ") + s;
          throw ModelError(dae.origins[w.origin] + ": reinit(" + v.name + ", ...) needs a state, and " + v.name +
                           " is not one in the compiled model (it is computed as " + dae.print(target) +
                           "); the states are: " + (states.empty() ? "none" : states));
        }
        Rewriter at_zero([&](const Node* leaf) { return leaf == leaves[0] ? Expr(0.0).node() : nullptr; });
        outputs.push_back(scale);
        outputs.push_back(at_zero(target));
        ca.slot = slot;
      }
      cw.actions.push_back(ca);
    }
    cw.call = w.call;
    cw.call_results = w.call_results;
    m.whens.push_back(std::move(cw));
  }
  m.hybrid = m.observer(outputs);
}

}  // namespace

int CompiledModel::input_register(const Node* leaf) const {
  switch (leaf->op) {
    case Op::Time: return 0;
    case Op::Param: {
      if (leaf == cj_symbol().node()) return 1;
      if (int p = dae.parameter_of.find(leaf); p >= 0) return parameter_register() + p;
      auto it = mode_of.find(leaf);
      return it == mode_of.end() ? -1 : mode_register() + it->second;
    }
    case Op::Var: {
      int v = dae.variable_index(leaf);
      return v < 0 || slot_of_variable[v] < 0 ? -1 : 2 + slot_of_variable[v];
    }
    case Op::Der: {
      if (leaf->arg[0]->op != Op::Var) return -1;
      int v = dae.variable_index(leaf);
      return v < 0 || slot_of_variable[v] < 0 ? -1 : 2 + n + slot_of_variable[v];
    }
    case Op::Delay: case Op::DelayRate: {
      auto it = delay_of.find(leaf);
      return it == delay_of.end() ? -1 : delay_register() + it->second;
    }
    case Op::Discrete: {
      auto it = dae.discrete_of.find(leaf);
      if (it == dae.discrete_of.end()) return -1;
      return (leaf == dae.discretes[it->second].pre ? pre_register() : discrete_register()) + it->second;
    }
    default: return -1;
  }
}

Expr CompiledModel::value_of(int variable) const {
  const DaeVariable& v = dae.variables[variable];
  return v.definition ? Expr(v.definition) : Expr(v.symbol);
}

std::vector<std::string> CompiledModel::variable_names() const {
  std::vector<std::string> names;
  names.reserve(dae.variables.size());
  for (const auto& v : dae.variables)
    if (v.name != event_clock_name) names.push_back(v.name);
  return names;
}

double CompiledModel::absolute_tolerance(int slot, double atol) const {
  return atol * dae.variables[variable_of_slot[slot]].nominal;
}

Tape CompiledModel::observer(const std::vector<Expr>& outputs) const {
  return Tape(outputs, n_inputs(), [this](const Node* leaf) { return input_register(leaf); });
}

void jacobian_parts(const CompiledModel& m, Tape& jacobian, const std::function<void(double cj)>& load,
                    std::vector<double>& d_dy, std::vector<double>& d_dyp) {
  const std::size_t nnz = m.row_index.size();
  d_dy.resize(nnz);
  d_dyp.resize(nnz);
  load(0.0);
  jacobian.run();
  for (std::size_t k = 0; k < nnz; ++k) d_dy[k] = jacobian.output(k);
  load(1.0);
  jacobian.run();
  for (std::size_t k = 0; k < nnz; ++k) d_dyp[k] = jacobian.output(k) - d_dy[k];
}

std::vector<Expr> residual_parameter_partials(const CompiledModel& m, const std::vector<int>& parameters) {
  std::vector<Expr> partials;
  partials.reserve(m.dae.equations.size() * parameters.size());
  for (const auto& eq : m.dae.equations)
    for (int p : parameters) partials.push_back(diff(eq.residual, Expr(m.dae.parameters[p].symbol)));
  return partials;
}

void load_unknowns(const CompiledModel& m, double t, double cj, const double* y, const double* yp, Tape& tape) {
  double* in = tape.inputs();
  in[0] = t;
  in[1] = cj;
  std::memcpy(in + 2, y, sizeof(double) * m.n);
  std::memcpy(in + 2 + m.n, yp, sizeof(double) * m.n);
}

void load_point(const CompiledModel& m, const OperatingPoint& point, double cj, Tape& tape) {
  double* in = tape.inputs();
  in[0] = point.time;
  in[1] = cj;
  std::copy(point.y.begin(), point.y.end(), in + 2);
  std::copy(point.yp.begin(), point.yp.end(), in + 2 + m.n);
  std::copy(point.parameters.begin(), point.parameters.end(), in + m.parameter_register());
  std::copy(point.frozen.begin(), point.frozen.end(), in + m.mode_register());
}

CompiledModel build_evaluation(DaeSystem dae) {
  CompiledModel m;
  const int n_var = static_cast<int>(dae.variables.size());
  std::vector<bool> differentiated(n_var, false);
  for (const auto& eq : dae.equations)
    for (const Node* leaf : unknown_leaves(eq.residual))
      if (leaf->op == Op::Der) differentiated[dae.variable_index(leaf)] = true;

  m.slot_of_variable.assign(n_var, -1);
  for (int v = 0; v < n_var; ++v) {
    if (!dae.is_unknown(v)) continue;
    m.slot_of_variable[v] = static_cast<int>(m.variable_of_slot.size());
    m.variable_of_slot.push_back(v);
    m.differential.push_back(differentiated[v] ? 1.0 : 0.0);
    (differentiated[v] ? dae.report.states : dae.report.algebraic).push_back(dae.variables[v].name);
    if (differentiated[v] && !dae.variables[v].fixed) m.free_states.push_back(dae.variables[v].name);
  }
  m.n = static_cast<int>(m.variable_of_slot.size());

  m.variable_by_name.reserve(n_var);
  m.parameter_by_name.reserve(dae.parameters.size());
  for (int v = 0; v < n_var; ++v) m.variable_by_name[dae.variables[v].name] = v;
  for (int p = 0; p < static_cast<int>(dae.parameters.size()); ++p) m.parameter_by_name[dae.parameters[p].name] = p;

  m.dae = std::move(dae);
  collect_delays(m);
  std::vector<Expr> relations, indicators;
  for (int k = 0; k < static_cast<int>(m.dae.modes.size()); ++k) {
    const EventMode& mode = m.dae.modes[k];
    m.mode_of[mode.symbol] = k;
    relations.push_back(mode.relation);
    if (!mode.time_event && !mode.follows_modes) {
      m.state_event_modes.push_back(k);
      indicators.push_back(mode.indicator);
    }
  }
  // Solved variables in solve order first (so a message names the cause),
  // then aliases and variables fixed to parameter expressions.
  for (int v = 0; v < n_var; ++v)
    if (m.dae.variables[v].solved_from >= 0) m.observed_variables.push_back(v);
  std::sort(m.observed_variables.begin(), m.observed_variables.end(),
            [&](int a, int b) { return m.dae.variables[a].solved_from < m.dae.variables[b].solved_from; });
  for (int v = 0; v < n_var; ++v)
    if (m.dae.variables[v].definition && m.dae.variables[v].solved_from < 0) m.observed_variables.push_back(v);
  std::vector<Expr> observed;
  observed.reserve(m.observed_variables.size());
  for (int v : m.observed_variables) observed.push_back(m.value_of(v));
  m.observed = m.observer(observed);
  m.relations = m.observer(relations);
  m.indicators = m.observer(indicators);
  std::vector<Expr> residuals;
  residuals.reserve(m.dae.equations.size());
  for (const auto& eq : m.dae.equations) residuals.push_back(eq.residual);
  m.residual = m.observer(residuals);

  // Jacobian entries (column = slot, row = equation).
  std::vector<std::tuple<long, long, Expr>> entries;
  const Expr& cj = cj_symbol();
  for (long row = 0; row < static_cast<long>(residuals.size()); ++row) {
    std::vector<std::pair<int, Expr>> by_slot;
    for (const auto& [leaf, d] : gradient(residuals[row])) {
      int slot = m.slot_of_variable[m.dae.variable_index(leaf)];
      by_slot.emplace_back(slot, leaf->op == Op::Der ? cj * d : d);
    }
    std::sort(by_slot.begin(), by_slot.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t k = 0; k < by_slot.size(); ++k) {
      if (k > 0 && by_slot[k].first == by_slot[k - 1].first) {
        std::get<2>(entries.back()) = std::get<2>(entries.back()) + by_slot[k].second;
      } else {
        entries.emplace_back(by_slot[k].first, row, by_slot[k].second);
      }
    }
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  m.column_start.assign(m.n + 1, 0);
  std::vector<Expr> values;
  values.reserve(entries.size());
  for (const auto& [col, row, value] : entries) {
    ++m.column_start[col + 1];
    m.row_index.push_back(row);
    values.push_back(value);
  }
  for (int c = 0; c < m.n; ++c) m.column_start[c + 1] += m.column_start[c];
  m.jacobian = m.observer(values);

  m.initialization = plan_initialization(m);
  compile_hybrid(m);

  PassReport& r = m.dae.report.add("evaluation");
  r.counts = {{"unknowns", m.n},
              {"states", static_cast<long>(m.dae.report.states.size())},
              {"jacobian_nonzeros", static_cast<long>(values.size())},
              {"residual_instructions", static_cast<long>(m.residual.n_instructions())},
              {"jacobian_instructions", static_cast<long>(m.jacobian.n_instructions())}};
  for (const auto& note : m.initialization.notes) r.notes.push_back(note);
  if (!m.initialization.custom && !m.free_states.empty()) {
    std::string list;
    for (std::size_t i = 0; i < m.free_states.size() && i < 10; ++i) list += (i ? ", " : "") + m.free_states[i];
    if (m.free_states.size() > 10) list += ", ...";
    r.notes.push_back(std::to_string(m.free_states.size()) + " state(s) without a fixed start begin at their start value: " + list);
  }
  return m;
}

}  // namespace acausal
