#include "solver/lower/initialization.hpp"

#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/lower/evaluation.hpp"
#include "solver/structure/matching.hpp"

namespace acausal {

namespace {

std::string list(const std::vector<std::string>& items, std::size_t limit = 8) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? "; " : "") + items[i];
  if (items.size() > limit) out += "; ... (" + std::to_string(items.size() - limit) + " more)";
  return out;
}

}  // namespace

InitializationPlan plan_initialization(const CompiledModel& m) {
  InitializationPlan plan;
  const DaeSystem& dae = m.dae;
  plan.state_of_slot.assign(m.n, -1);
  for (int s = 0; s < m.n; ++s)
    if (m.differential[s] != 0.0) plan.state_of_slot[s] = plan.n_states++;

  for (int v = 0; v < static_cast<int>(dae.variables.size()); ++v) {
    const DaeVariable& var = dae.variables[v];
    if (!var.fixed) continue;
    int slot = m.slot_of_variable[v];
    bool state = slot >= 0 && plan.state_of_slot[slot] >= 0;
    plan.custom |= !state;
    plan.conditions.push_back({m.value_of(v) - var.start, var.name + " = " + format_number(var.start) + " (fixed start)"});
  }
  for (const auto& eq : dae.initial_equations) {
    plan.custom = true;
    plan.conditions.push_back({eq.residual, "initial equation " + dae.describe(eq)});
  }
  if (!plan.custom || m.n == 0) {
    // IDACalcIC keeps every state at its start value: the fixed ones as asked, the others by default.
    for (int s = 0; s < m.n; ++s)
      if (plan.state_of_slot[s] >= 0 && !dae.variables[m.variable_of_slot[s]].fixed)
        plan.default_starts.push_back(m.variable_of_slot[s]);
    return plan;
  }

  // Columns: y (n), then y' of the states.
  const int n = m.n;
  const int columns = n + plan.n_states;
  auto column_of = [&](const Node* leaf, const std::string& where) {
    int v = dae.variable_index(leaf);
    int slot = v >= 0 ? m.slot_of_variable[v] : -1;
    if (slot < 0) return -1;
    if (leaf->op == Op::Var) return slot;
    if (leaf->arg[0]->op != Op::Var)
      throw ModelError(where + " needs " + dae.print(Expr(leaf)) + ", a higher derivative of " + dae.variables[v].name +
                       " than the compiled model computes (it integrates " + dae.variables[v].name +
                       " and its first derivative only); write the condition on a variable defined as that derivative");
    if (plan.state_of_slot[slot] < 0)
      throw ModelError(where + " uses " + dae.print(Expr(leaf)) + ", but " + dae.variables[v].name +
                       " is an algebraic unknown of the compiled model, so its derivative is not available at t0");
    return n + plan.state_of_slot[slot];
  };
  std::vector<std::vector<int>> rows;
  for (const auto& eq : dae.equations) {
    std::vector<int> r;
    for (const Node* leaf : unknown_leaves(eq.residual))
      if (int c = column_of(leaf, dae.describe(eq)); c >= 0) r.push_back(c);
    rows.push_back(std::move(r));
  }
  for (const auto& c : plan.conditions) {
    std::vector<int> r;
    for (const Node* leaf : unknown_leaves(c.residual))
      if (int col = column_of(leaf, c.description); col >= 0) r.push_back(col);
    plan.condition_columns.push_back(r);
    rows.push_back(std::move(r));
  }
  // Only conditions may leave a state's value open, so first cover the y' of
  // the states and the algebraic y, then match every DAE row, then the
  // conditions; each matching starts from the previous one and keeps it.
  auto restricted = [&](auto keep) {
    std::vector<std::vector<int>> r(rows.size());
    for (int row = 0; row < static_cast<int>(rows.size()); ++row)
      for (int c : rows[row])
        if (keep(row, c)) r[row].push_back(c);
    return r;
  };
  std::vector<int> match = maximum_matching(
      columns, restricted([&](int, int c) { return c >= n || plan.state_of_slot[c] < 0; }));
  match = maximum_matching(columns, restricted([&](int row, int) { return row < n; }), std::move(match));
  match = maximum_matching(columns, rows, std::move(match));
  plan.row_of_column.assign(columns, -1);
  for (int r = 0; r < static_cast<int>(rows.size()); ++r)
    if (match[r] >= 0) plan.row_of_column[match[r]] = r;
  for (int r = 0; r < n; ++r)
    if (match[r] < 0)
      throw ModelError("initialization of '" + dae.model_name + "' is over-determined: " +
                       dae.describe(dae.equations[r]) + " cannot hold together with the initial conditions: " +
                       [&] {
                         std::vector<std::string> d;
                         for (const auto& c : plan.conditions) d.push_back(c.description);
                         return list(d);
                       }());
  for (int k = 0; k < static_cast<int>(plan.conditions.size()); ++k)
    (match[n + k] >= 0 ? plan.used : plan.redundant).push_back(k);

  std::vector<std::string> defaults, undetermined;
  for (int c = 0; c < columns; ++c) {
    if (plan.row_of_column[c] >= 0) continue;
    if (c < n && plan.state_of_slot[c] >= 0) {
      int v = m.variable_of_slot[c];
      const DaeVariable& var = dae.variables[v];
      int k = static_cast<int>(plan.conditions.size());
      plan.conditions.push_back({Expr(var.symbol) - var.start,
                                 var.name + " = " + format_number(var.start) + " (start value, not fixed)"});
      plan.condition_columns.push_back({c});
      plan.used.push_back(k);
      plan.row_of_column[c] = n + k;
      defaults.push_back(var.name);
      plan.default_starts.push_back(v);
    } else {
      int slot = c < n ? c : static_cast<int>(std::find(plan.state_of_slot.begin(), plan.state_of_slot.end(), c - n) -
                                              plan.state_of_slot.begin());
      std::string name = dae.variables[m.variable_of_slot[slot]].name;
      undetermined.push_back(c < n ? name : "der(" + name + ")");
    }
  }
  if (!undetermined.empty())
    throw ModelError("initialization of '" + dae.model_name + "' is underdetermined: nothing determines " +
                     list(undetermined) + " at t0; add an initial equation");
  if (!defaults.empty())
    plan.notes.push_back("initialization: " + std::to_string(defaults.size()) +
                         " state(s) start at their start value: " + list(defaults, 10));
  for (int k : plan.redundant) plan.notes.push_back("initialization: redundant, checked for consistency: " +
                                                     plan.conditions[k].description);

  std::vector<Expr> residuals, values;
  for (int k = 0; k < static_cast<int>(plan.conditions.size()); ++k) {
    residuals.push_back(plan.conditions[k].residual);
    for (const Node* leaf : unknown_leaves(plan.conditions[k].residual)) {
      int col = column_of(leaf, plan.conditions[k].description);
      if (col < 0) continue;
      plan.entries.emplace_back(k, col);
      values.push_back(diff(plan.conditions[k].residual, Expr(leaf)));
    }
  }
  plan.residuals = m.observer(residuals);
  plan.jacobian = m.observer(values);
  return plan;
}

namespace {

// The initialization's equations at t0: the DAE rows, then the conditions
// used; unknowns all of y, then y' of the states.
struct InitializationSystem {
  const CompiledModel& m;
  const InitializationPlan& plan;
  const int n, size;
  const double t0;
  Tape residual, jacobian, conditions, condition_jacobian;
  std::vector<int> slot_of_state, row_of_condition;
  std::vector<double> d_dy, d_dyp;

  InitializationSystem(const CompiledModel& model, double t, const std::vector<double>& parameters,
                       const std::vector<double>& modes)
      : m(model),
        plan(model.initialization),
        n(model.n),
        size(model.n + model.initialization.n_states),
        t0(t),
        residual(model.residual),
        jacobian(model.jacobian),
        conditions(plan.residuals),
        condition_jacobian(plan.jacobian),
        slot_of_state(plan.n_states),
        row_of_condition(plan.conditions.size(), -1) {
    for (Tape* tape : {&residual, &jacobian, &conditions, &condition_jacobian}) {
      std::copy(parameters.begin(), parameters.end(), tape->inputs() + m.parameter_register());
      std::copy(modes.begin(), modes.end(), tape->inputs() + m.mode_register());
    }
    for (int s = 0; s < n; ++s)
      if (plan.state_of_slot[s] >= 0) slot_of_state[plan.state_of_slot[s]] = s;
    for (std::size_t i = 0; i < plan.used.size(); ++i) row_of_condition[plan.used[i]] = n + static_cast<int>(i);
  }

  std::vector<Eigen::Triplet<double>> jacobian_entries(const double* y, const double* yp) {
    std::vector<Eigen::Triplet<double>> triplets;
    jacobian_parts(m, jacobian, [&](double cj) { load_unknowns(m, t0, cj, y, yp, jacobian); }, d_dy, d_dyp);
    for (int c = 0; c < n; ++c)
      for (long k = m.column_start[c]; k < m.column_start[c + 1]; ++k) {
        int row = static_cast<int>(m.row_index[k]);
        triplets.emplace_back(row, c, d_dy[k]);
        if (plan.state_of_slot[c] >= 0) triplets.emplace_back(row, n + plan.state_of_slot[c], d_dyp[k]);
      }
    load_unknowns(m, t0, 0.0, y, yp, condition_jacobian);
    condition_jacobian.run();
    for (std::size_t e = 0; e < plan.entries.size(); ++e) {
      int row = row_of_condition[plan.entries[e].first];
      if (row >= 0) triplets.emplace_back(row, plan.entries[e].second, condition_jacobian.output(e));
    }
    return triplets;
  }
};

}  // namespace

void initialize(const CompiledModel& m, double t0, const std::vector<double>& parameters,
                const std::vector<double>& modes, double* y, double* yp) {
  InitializationSystem system(m, t0, parameters, modes);
  const InitializationPlan& plan = m.initialization;
  const int n = m.n;
  const int size = system.size;
  Tape& residual = system.residual;
  Tape& conditions = system.conditions;
  const std::vector<int>& slot_of_state = system.slot_of_state;

  auto evaluate_residual = [&](Eigen::VectorXd& r) {
    load_unknowns(m, t0, 0.0, y, yp, residual);
    residual.run();
    load_unknowns(m, t0, 0.0, y, yp, conditions);
    conditions.run();
    for (int i = 0; i < n; ++i) r[i] = residual.output(i);
    for (std::size_t i = 0; i < plan.used.size(); ++i) r[n + i] = conditions.output(plan.used[i]);
    return r.lpNorm<Eigen::Infinity>();
  };
  auto apply = [&](const Eigen::VectorXd& dz, double step) {
    for (int i = 0; i < n; ++i) y[i] += step * dz[i];
    for (int k = 0; k < plan.n_states; ++k) yp[slot_of_state[k]] += step * dz[n + k];
  };

  Eigen::VectorXd r(size), dz(size);
  double norm = evaluate_residual(r);
  bool converged = false;
  for (int iteration = 0; iteration < 50 && !converged; ++iteration) {
    double scale = 1.0;
    for (int i = 0; i < n; ++i) scale = std::max({scale, std::fabs(y[i]), std::fabs(yp[i])});
    if (norm <= 1e-12 * scale) {
      converged = true;
      break;
    }
    std::vector<Eigen::Triplet<double>> triplets = system.jacobian_entries(y, yp);
    Eigen::SparseMatrix<double> J(size, size);
    J.setFromTriplets(triplets.begin(), triplets.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
    lu.compute(J);
    if (lu.info() != Eigen::Success) {
      // Name the unknowns no row depends on at this point (zero columns).
      // Name the unknowns no row depends on at this point (zero columns), or
      // whose partial derivatives are not finite there.
      std::vector<double> column_size(size, 0.0);
      for (const auto& t : triplets)
        column_size[t.col()] = std::isfinite(t.value()) ? std::max(column_size[t.col()], std::fabs(t.value()))
                                                        : std::numeric_limits<double>::infinity();
      std::vector<std::string> loose, nonfinite;
      for (int c = 0; c < size; ++c) {
        if (column_size[c] != 0.0 && std::isfinite(column_size[c])) continue;
        int slot = c < n ? c : slot_of_state[c - n];
        const std::string& name = m.dae.variables[m.variable_of_slot[slot]].name;
        (column_size[c] == 0.0 ? loose : nonfinite).push_back(c < n ? name : "der(" + name + ")");
      }
      std::string why = " (" + lu.lastErrorMessage() + ")";
      if (!loose.empty()) why = ": no equation or condition depends on " + list(loose) + " there";
      if (!nonfinite.empty()) why = ": the partial derivatives with respect to " + list(nonfinite) + " are not finite there";
      throw ModelError("initialization of '" + m.dae.model_name + "' failed: the model equations and the initial " +
                       "conditions are singular at t0" + why +
                       "; the conditions: " + [&] {
                         std::vector<std::string> d;
                         for (int k : plan.used) d.push_back(plan.conditions[k].description);
                         return list(d);
                       }());
    }
    dz = lu.solve(-r);
    // Damped step: halve until the residual decreases.
    double step = 1.0;
    for (int halving = 0; halving < 10; ++halving) {
      apply(dz, step);
      double trial = evaluate_residual(r);
      if (std::isfinite(trial) && trial < norm) {
        norm = trial;
        break;
      }
      apply(dz, -step);
      step *= 0.5;
      if (halving == 9) norm = evaluate_residual(r);
    }
    if (step < 1.0 / 512) break;
  }
  if (!converged) {
    double scale = 1.0;
    for (int i = 0; i < n; ++i) scale = std::max({scale, std::fabs(y[i]), std::fabs(yp[i])});
    converged = norm <= 1e-9 * scale;
  }
  if (!converged) {
    std::vector<std::string> worst;
    for (int i = 0; i < size; ++i)
      if (!(std::fabs(r[i]) <= 1e-9))  // NaN too
        worst.push_back((i < n ? m.dae.describe(m.dae.equations[i]) : plan.conditions[plan.used[i - n]].description) +
                        " (residual " + format_number(r[i]) + ")");
    throw ModelError("initialization of '" + m.dae.model_name + "' did not converge; unsatisfied: " + list(worst));
  }

  // Conditions left over must hold at the solution.
  load_unknowns(m, t0, 0.0, y, yp, conditions);
  conditions.run();
  double scale = 1.0;
  for (int i = 0; i < n; ++i) scale = std::max({scale, std::fabs(y[i]), std::fabs(yp[i])});
  for (int k : plan.redundant) {
    double residual_k = conditions.output(k);
    if (std::fabs(residual_k) <= 1e-8 * scale) continue;
    // Name the conditions it conflicts with: those reached by alternating paths.
    std::vector<std::string> conflicting;
    std::vector<char> seen(plan.row_of_column.size(), false);
    std::vector<int> queue(plan.condition_columns[k].begin(), plan.condition_columns[k].end());
    for (std::size_t q = 0; q < queue.size(); ++q) {
      int col = queue[q];
      if (seen[col]) continue;
      seen[col] = true;
      int row = plan.row_of_column[col];
      if (row < 0) continue;
      if (row >= n) {
        conflicting.push_back(plan.conditions[row - n].description);
        for (int c : plan.condition_columns[row - n]) queue.push_back(c);
      } else {
        for (const Node* leaf : unknown_leaves(m.dae.equations[row].residual)) {
          int v = m.dae.variable_index(leaf);
          int slot = m.slot_of_variable[v];
          if (slot < 0) continue;
          queue.push_back(leaf->op == Op::Var ? slot : n + plan.state_of_slot[slot]);
        }
      }
    }
    std::sort(conflicting.begin(), conflicting.end());
    conflicting.erase(std::unique(conflicting.begin(), conflicting.end()), conflicting.end());
    throw ModelError("inconsistent initial conditions in '" + m.dae.model_name + "': " +
                     plan.conditions[k].description + " is violated by " + format_number(residual_k) +
                     " once these hold: " + list(conflicting));
  }
}

std::vector<std::vector<double>> initialization_sensitivities(const CompiledModel& m, double t0,
                                                              const std::vector<double>& parameters,
                                                              const std::vector<double>& modes, const double* y,
                                                              const double* yp, const std::vector<int>& wrt) {
  InitializationSystem system(m, t0, parameters, modes);
  const InitializationPlan& plan = m.initialization;
  const int n = m.n;
  std::vector<Eigen::Triplet<double>> triplets = system.jacobian_entries(y, yp);
  Eigen::SparseMatrix<double> J(system.size, system.size);
  J.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(J);
  if (lu.info() != Eigen::Success)
    throw ModelError("sensitivities of the initialization of '" + m.dae.model_name +
                     "': its equations are singular at the solution (" + lu.lastErrorMessage() + ")");
  // G(z(p), p) = 0 gives dz/dp = -G_z^-1 G_p, with G_p differentiated symbolically.
  std::vector<Expr> partials = residual_parameter_partials(m, wrt);
  for (int k : plan.used)
    for (int p : wrt) partials.push_back(diff(plan.conditions[k].residual, Expr(m.dae.parameters[p].symbol)));
  Tape tape = m.observer(partials);
  std::copy(parameters.begin(), parameters.end(), tape.inputs() + m.parameter_register());
  std::copy(modes.begin(), modes.end(), tape.inputs() + m.mode_register());
  load_unknowns(m, t0, 0.0, y, yp, tape);
  tape.run();
  const int np = static_cast<int>(wrt.size());
  Eigen::MatrixXd rhs(system.size, np);
  for (int row = 0; row < system.size; ++row)
    for (int j = 0; j < np; ++j) rhs(row, j) = -tape.output(static_cast<std::size_t>(row) * np + j);
  const Eigen::MatrixXd dz = lu.solve(rhs);
  std::vector<std::vector<double>> dy(np, std::vector<double>(n));
  for (int j = 0; j < np; ++j)
    for (int s = 0; s < n; ++s) dy[j][s] = dz(s, j);
  return dy;
}

}  // namespace acausal
