#include "solver/analysis/steady_state.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "solver/lower/evaluation.hpp"

namespace acausal {

namespace {

// The largest entries of v, by magnitude, named: "body.v, der(body.s)".
std::string largest(const Eigen::VectorXd& v, const std::vector<std::string>& names, int count) {
  std::vector<int> order(v.size());
  for (int i = 0; i < v.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return std::fabs(v[a]) > std::fabs(v[b]); });
  std::string out;
  for (int i = 0; i < count && i < v.size() && std::fabs(v[order[i]]) > 1e-8 * std::fabs(v[order[0]]); ++i)
    out += (i ? "; " : "") + names[order[i]];
  return out;
}

}  // namespace

SteadyState steady_state(const Simulator& sim, const OperatingPoint& guess, const SteadyStateOptions& options) {
  const CompiledModel& m = sim.compiled();
  const int n = m.n;
  const std::string where = "steady_state(" + m.dae.model_name + ")";
  if (guess.y.size() != static_cast<std::size_t>(n) || guess.parameters.size() != m.dae.parameters.size())
    throw ModelError(where + ": the guess is not a point of this model");

  std::vector<int> free;
  for (const auto& name : options.free) {
    auto it = m.parameter_by_name.find(name);
    if (it == m.parameter_by_name.end()) throw UnknownNameError(where, "parameter", name, sim.parameter_names());
    const DaeParameter& p = m.dae.parameters[it->second];
    if (p.attributes.structural || !p.attributes.choices.empty())
      throw ModelError(where + ": " + name + " is structural (folded at compile()): it cannot be free");
    free.push_back(it->second);
  }
  std::vector<Expr> conditions;
  if (!std::isfinite(guess.time)) throw ModelError(where + ": the guess's time " + format_number(guess.time) + " is not finite");
  if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
    throw ModelError(where + ": tolerance = " + format_number(options.tolerance) + " must be positive and finite");
  for (const auto& [name, value] : options.conditions) {
    // A NaN target would make every residual NaN, and Newton return NaN as the answer.
    if (!std::isfinite(value))
      throw ModelError(where + ": the condition " + name + " = " + format_number(value) + " is not finite");
    auto it = m.variable_by_name.find(name);
    if (it == m.variable_by_name.end()) throw UnknownNameError(where, "variable", name, m.variable_names());
    conditions.push_back(m.value_of(it->second) - value);
  }
  const int k = static_cast<int>(free.size());
  if (conditions.size() != free.size())
    throw ModelError(fmt::format("{}: {} free parameter(s) and {} condition(s): each free parameter needs a condition "
                                 "that fixes it (body.v = 27.78 for a throttle)",
                                 where, free.size(), conditions.size()));

  OperatingPoint point = guess;
  Tape jacobian = m.jacobian;
  std::vector<double> d_dy, d_dyp;
  auto jacobians = [&] {
    jacobian_parts(m, jacobian, [&](double cj) { load_point(m, point, cj, jacobian); }, d_dy, d_dyp);
  };
  // Moving states: those named, and those whose value no equation reads (a position).
  std::vector<char> moving(n, 0), named(n, 0), pinned(n, 0);
  for (const auto& name : options.moving) {
    auto it = m.variable_by_name.find(name);
    const int slot = it == m.variable_by_name.end() ? -1 : m.slot_of_variable[it->second];
    if (slot < 0 || m.differential[slot] == 0.0)
      throw ModelError(where + ": '" + name + "' in moving is not a state of the model; its states are: " +
                       fmt::format("{}", fmt::join(sim.report().states, ", ")));
    moving[slot] = named[slot] = 1;
  }
  jacobians();
  for (int s = 0; s < n; ++s) {
    if (m.differential[s] == 0.0 || moving[s]) continue;
    bool read = false;
    for (long e = m.column_start[s]; e < m.column_start[s + 1] && !read; ++e) read = d_dy[e] != 0.0;
    moving[s] = !read;
  }
  for (int s = 0; s < n; ++s)
    if (m.differential[s] != 0.0 && !moving[s]) point.yp[s] = 0.0;

  // Unknown j < n: y of slot j, or y' of slot j when that state moves; then the free parameters.
  std::vector<std::string> unknowns, equations;
  for (int s = 0; s < n; ++s) {
    const std::string& name = m.dae.variables[m.variable_of_slot[s]].name;
    unknowns.push_back(moving[s] ? "der(" + name + ")" : name);
  }
  for (int p : free) unknowns.push_back(m.dae.parameters[p].name);
  for (const auto& eq : m.dae.equations) equations.push_back(m.dae.describe(eq));
  for (const auto& [name, value] : options.conditions) equations.push_back(name + " = " + format_number(value));

  // One tape for what the integrator's tapes lack: residuals by the free
  // parameters, the conditions, and their partials.
  std::vector<Expr> extra = residual_parameter_partials(m, free);
  struct Entry {
    int row, column;
  };
  std::vector<Entry> condition_entries;
  for (int c = 0; c < k; ++c) {
    extra.push_back(conditions[c]);
    for (const auto& [leaf, d] : gradient(conditions[c])) {
      const int slot = m.slot_of_variable[m.dae.variable_index(leaf)];
      if ((leaf->op == Op::Der) != static_cast<bool>(moving[slot])) continue;  // not an unknown here
      condition_entries.push_back({n + c, slot});
      extra.push_back(d);
    }
    for (int j = 0; j < k; ++j) {
      condition_entries.push_back({n + c, n + j});
      extra.push_back(diff(conditions[c], Expr(m.dae.parameters[free[j]].symbol)));
    }
  }
  Tape extras = m.observer(extra);
  Tape residual = m.residual;

  const int size = n + k;
  Eigen::VectorXd G(size), row_scale(size);
  Eigen::MatrixXd J(size, size);
  // Positions of each condition's value and partials in the extra tape.
  std::vector<std::size_t> condition_value(k);
  {
    std::size_t next = static_cast<std::size_t>(n) * k;
    std::size_t entry = 0;
    for (int c = 0; c < k; ++c) {
      condition_value[c] = next++;
      while (entry < condition_entries.size() && condition_entries[entry].row == n + c) ++entry, ++next;
    }
  }
  auto residuals = [&] {
    load_point(m, point, 0.0, residual);
    residual.run();
    load_point(m, point, 0.0, extras);
    extras.run();
    for (int i = 0; i < n; ++i) G[i] = residual.output(i);
    for (int c = 0; c < k; ++c) G[n + c] = extras.output(condition_value[c]);
  };
  auto assemble = [&] {
    jacobians();
    J.setZero();
    for (int s = 0; s < n; ++s)
      for (long e = m.column_start[s]; e < m.column_start[s + 1]; ++e)
        J(m.row_index[e], s) = moving[s] ? d_dyp[e] : d_dy[e];
    std::size_t next = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < k; ++j) J(i, n + j) = extras.output(next++);
    std::size_t entry = 0;
    for (int c = 0; c < k; ++c) {
      ++next;  // the condition's value
      for (; entry < condition_entries.size() && condition_entries[entry].row == n + c; ++entry)
        J(n + c, condition_entries[entry].column) += extras.output(next++);
    }
  };
  auto unknown = [&](int j) -> double& {
    if (j >= n) return point.parameters[free[j - n]];
    return moving[j] ? point.yp[j] : point.y[j];
  };
  auto worst = [&] {
    double w = 0.0;
    for (int i = 0; i < size; ++i) w = std::max(w, std::fabs(G[i]) / (1.0 + row_scale[i]));
    return w;
  };

  SteadyState out;
  residuals();
  assemble();
  // Each equation's scale: the size of its terms at the guess, so the
  // tolerance is relative for a force balance of kN and a speed of mm/s alike.
  for (int i = 0; i < size; ++i) {
    double scale = 0.0;
    for (int j = 0; j < size; ++j) scale += std::fabs(J(i, j) * unknown(j));
    row_scale[i] = scale;
  }
  double standing = 0.0;  // a rate this small beside the others is a coordinate standing still
  for (int s = 0; s < n; ++s) standing = std::max(standing, std::fabs(guess.yp[s]));
  standing = 1e-6 * (1.0 + standing);
  std::vector<int> active(size);  // the columns of the unknowns still free
  for (int j = 0; j < size; ++j) active[j] = j;
  for (out.iterations = 0;; ++out.iterations) {
    if (worst() <= options.tolerance) break;
    if (out.iterations >= options.max_iterations) {
      Eigen::VectorXd scaled(size);
      for (int i = 0; i < size; ++i) scaled[i] = G[i] / (1.0 + row_scale[i]);
      throw ModelError(fmt::format("{}: no steady state found after {} Newton iterations (largest scaled residual "
                                   "{}); the equations furthest from holding: {}. Start from a nearer guess (a row "
                                   "of a run close to it) or check that one exists",
                                   where, out.iterations, format_number(worst()), largest(scaled, equations, 4)));
    }
    Eigen::MatrixXd Ja(size, active.size());
    for (std::size_t c = 0; c < active.size(); ++c) Ja.col(c) = J.col(active[c]);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(Ja);
    if (lu.rank() < static_cast<Eigen::Index>(active.size())) {
      const Eigen::VectorXd right = lu.kernel().col(0);
      // A coordinate no equation reads that stands still at the guess (a locked
      // clutch's angle) whose rate only an acceleration constrains: it stays
      // as it is, at rate 0, and one equation then holds by itself.
      bool pinned_one = false;
      for (std::size_t c = 0; c < active.size(); ++c) {
        const int j = active[c];
        if (j < n && moving[j] && !named[j] && std::fabs(guess.yp[j]) <= standing &&
            std::fabs(right[c]) > 1e-6 * right.cwiseAbs().maxCoeff()) {
          moving[j] = 0, pinned[j] = 1, pinned_one = true;
          point.yp[j] = 0.0;
        }
      }
      if (pinned_one && out.iterations == 0) {
        active.erase(std::remove_if(active.begin(), active.end(), [&](int j) { return j < n && pinned[j]; }),
                     active.end());
        --out.iterations;
        continue;
      }
      std::vector<std::string> names;
      for (int j : active) names.push_back(unknowns[j]);
      const Eigen::MatrixXd left = Eigen::FullPivLU<Eigen::MatrixXd>(Ja.transpose()).kernel();
      throw ModelError(fmt::format("{}: the Jacobian is singular (rank {} of {}): nothing fixes {}; dependent "
                                   "equations: {}. Free fewer parameters, add conditions, or name states that keep "
                                   "moving in `moving`",
                                   where, lu.rank(), active.size(), largest(right, names, 4),
                                   largest(left.col(0), equations, 4)));
    }
    // Square, or with pinned coordinates one equation per pin more than unknowns (consistent): least squares.
    const Eigen::VectorXd reduced = Ja.colPivHouseholderQr().solve(-G);
    Eigen::VectorXd step = Eigen::VectorXd::Zero(size);
    for (std::size_t c = 0; c < active.size(); ++c) step[active[c]] = reduced[c];
    std::vector<double> start(size);
    for (int j = 0; j < size; ++j) start[j] = unknown(j);
    const double before = G.norm();
    double lambda = 1.0;
    for (;;) {  // damped: halve the step until the residual falls
      for (int j = 0; j < size; ++j) unknown(j) = start[j] + lambda * step[j];
      residuals();
      if ((std::isfinite(G.norm()) && G.norm() <= (1.0 - 1e-4 * lambda) * before) || lambda < 1e-4) break;
      lambda /= 2;
    }
    assemble();
  }
  out.residual = G.cwiseAbs().maxCoeff();
  out.point = point;
  for (int j = 0; j < k; ++j) out.free_values.emplace_back(m.dae.parameters[free[j]].name, point.parameters[free[j]]);
  for (int s = 0; s < n; ++s)
    if (moving[s]) out.moving.push_back(m.dae.variables[m.variable_of_slot[s]].name);
  return out;
}

}  // namespace acausal
