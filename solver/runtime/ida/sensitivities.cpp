#include "solver/runtime/ida/sensitivities.hpp"

#include <fmt/format.h>
#include <idas/idas.h>

#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "solver/lower/evaluation.hpp"

namespace acausal {

namespace {

bool reads(const Expr& e, const std::function<bool(const Node*)>& leaf) {
  bool found = false;
  for_each_postorder(e.node(), [&](const Node* n) { found = found || leaf(n); });
  return found;
}

}  // namespace

ForwardSensitivities::ForwardSensitivities(const CompiledModel& m, std::vector<int> parameters, SUNContext context,
                                           const std::string& where)
    : m_(m), parameters_(std::move(parameters)) {
  const DaeSystem& dae = m.dae;
  auto refuse = [&](const std::string& what) {
    throw ModelError(where + ": sensitivities are not tracked across " + what + " in this version");
  };
  if (!m.delays.empty()) refuse("a delay() (their sensitivities would need the delayed sensitivities)");
  std::vector<const Node*> symbols;
  for (int p : parameters_) symbols.push_back(dae.parameters[p].symbol);
  auto is_sensitivity_parameter = [&](const Node* n) {
    return std::find(symbols.begin(), symbols.end(), n) != symbols.end();
  };
  for (const auto& when : dae.whens)
    if (when.call)
      refuse("an external call (" + (when.origin >= 0 ? dae.origins[when.origin] : std::string("a when-clause")) + ")");
  for (const auto& when : dae.whens)
    for (const auto& action : when.actions)
      if (action.variable >= 0)
        refuse("the reinit() of " + dae.variables[action.variable].name +
               (when.origin >= 0 ? " (" + dae.origins[when.origin] + ")" : std::string()));
  // A Real discrete that takes a value of the solution (a sampled speed, the
  // time of a state event) moves with the parameters; Booleans and Integers
  // (modes, gears) do not.
  const bool state_events = !m.state_event_modes.empty();
  auto follows_solution = [&](const Expr& value) {
    return reads(value, [&](const Node* n) {
      return n->op == Op::Var || n->op == Op::Der || is_sensitivity_parameter(n) ||
             (n->op == Op::Time && state_events);
    });
  };
  for (std::size_t k = 0; k < dae.discretes.size(); ++k) {
    const DaeDiscrete& d = dae.discretes[k];
    if (d.role == DaeDiscrete::Role::sample) {
      if (reads(d.clock.start, is_sensitivity_parameter) || reads(d.clock.interval, is_sensitivity_parameter))
        refuse("a sample() clock whose start or interval is a parameter asked for (" + d.name + ")");
      continue;
    }
    if (d.role != DaeDiscrete::Role::declared || d.attributes.kind != DiscreteKind::real) continue;
    bool moves = d.defined && follows_solution(d.definition);
    for (const auto& when : dae.whens)
      for (const auto& action : when.actions)
        moves = moves || (action.discrete == static_cast<int>(k) && follows_solution(action.value));
    if (moves) refuse("the Real discrete " + d.name + ", which takes a value of the solution at events");
  }

  scale_.assign(parameters_.size(), 1.0);
  jacobian_ = m.jacobian;
  std::vector<Expr> partials;
  const std::vector<Expr> all = residual_parameter_partials(m, parameters_);
  for (std::size_t e = 0; e < all.size(); ++e) {
    if (all[e].is_const(0.0)) continue;
    partial_entries_.emplace_back(static_cast<int>(e / parameters_.size()), static_cast<int>(e % parameters_.size()));
    partials.push_back(all[e]);
  }
  partials_ = m.observer(partials);

  std::vector<Expr> event_partials;
  for (int mode : m.state_event_modes) {
    const Expr& g = dae.modes[mode].indicator;
    IndicatorTerms terms;
    terms.first_output = static_cast<int>(event_partials.size());
    std::vector<Expr> by_leaf;
    for (const auto& [leaf, d] : gradient(g)) {
      const int slot = m.slot_of_variable[dae.variable_index(leaf)];
      terms.leaves.emplace_back(slot, leaf->op == Op::Der);
      by_leaf.push_back(d);
    }
    event_partials.insert(event_partials.end(), by_leaf.begin(), by_leaf.end());
    event_partials.push_back(diff(g, time_symbol()));
    for (const Node* p : symbols) event_partials.push_back(diff(g, Expr(p)));
    indicator_terms_.push_back(std::move(terms));
  }
  event_partials_ = m.observer(event_partials);
  for (const auto& mode : dae.modes) {
    event_time_partials_.emplace_back();
    if (mode.time_event)
      for (const Node* p : symbols) event_time_partials_.back().push_back(diff(mode.event_time, Expr(p)));
  }

  N_Vector model = N_VNew_Serial(m.n, context);
  yS_ = N_VCloneVectorArray(count(), model);
  ypS_ = N_VCloneVectorArray(count(), model);
  N_VDestroy(model);
  for (int j = 0; j < count(); ++j) {
    N_VConst(0.0, yS_[j]);
    N_VConst(0.0, ypS_[j]);
  }
}

ForwardSensitivities::~ForwardSensitivities() {
  if (yS_) N_VDestroyVectorArray(yS_, count());
  if (ypS_) N_VDestroyVectorArray(ypS_, count());
}

void ForwardSensitivities::attach(void* ida, IDASensResFn residual_fn, const std::vector<double>& parameter_values) {
  for (int j = 0; j < count(); ++j) {
    const double value = std::fabs(parameter_values[parameters_[j]]);
    scale_[j] = value > 0 ? value : 1.0;
  }
  auto check = [](int flag, const char* what) {
    if (flag < 0) throw std::runtime_error(fmt::format("{} failed ({})", what, flag));
  };
  check(IDASensInit(ida, count(), IDA_STAGGERED, residual_fn, yS_, ypS_), "IDASensInit");
  check(IDASetSensParams(ida, nullptr, scale_.data(), nullptr), "IDASetSensParams");
  check(IDASensEEtolerances(ida), "IDASensEEtolerances");
  check(IDASetSensErrCon(ida, SUNTRUE), "IDASetSensErrCon");
}

void ForwardSensitivities::suspend(void* ida) { IDASensToggleOff(ida); }

void ForwardSensitivities::reinit(void* ida) {
  if (IDASensReInit(ida, IDA_STAGGERED, yS_, ypS_) < 0) throw std::runtime_error("IDASensReInit failed");
}

void ForwardSensitivities::fetch(void* ida, double t) {
  double reached = t;
  IDAGetSens(ida, &reached, yS_);
  for (int j = 0; j < count(); ++j) IDAGetSensDky1(ida, t, 1, j, ypS_[j]);
}

// F_y and F_y' at (t, y, y'), kept while the point stays: the staggered
// corrector evaluates the sensitivity residual several times at one point.
void ForwardSensitivities::evaluate_jacobian_parts(double t, const double* y, const double* yp) {
  const int n = m_.n;
  if (point_.size() == static_cast<std::size_t>(1 + 2 * n) && point_[0] == t &&
      std::memcmp(point_.data() + 1, y, sizeof(double) * n) == 0 &&
      std::memcmp(point_.data() + 1 + n, yp, sizeof(double) * n) == 0)
    return;
  jacobian_parts(m_, jacobian_, [&](double cj) { load_unknowns(m_, t, cj, y, yp, jacobian_); }, d_dy_, d_dyp_);
  load_unknowns(m_, t, 0.0, y, yp, partials_);
  partials_.run();
  point_.assign(1, t);
  point_.insert(point_.end(), y, y + n);
  point_.insert(point_.end(), yp, yp + n);
}

int ForwardSensitivities::residual(double t, N_Vector y, N_Vector yp, N_Vector* yS, N_Vector* ypS, N_Vector* rrS) {
  evaluate_jacobian_parts(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp));
  for (int j = 0; j < count(); ++j) {
    const double* s = N_VGetArrayPointer(yS[j]);
    const double* sp = N_VGetArrayPointer(ypS[j]);
    double* r = N_VGetArrayPointer(rrS[j]);
    std::fill(r, r + m_.n, 0.0);
    for (int c = 0; c < m_.n; ++c)
      for (long k = m_.column_start[c]; k < m_.column_start[c + 1]; ++k)
        r[m_.row_index[k]] += d_dy_[k] * s[c] + d_dyp_[k] * sp[c];
  }
  for (std::size_t e = 0; e < partial_entries_.size(); ++e)
    N_VGetArrayPointer(rrS[partial_entries_[e].second])[partial_entries_[e].first] += partials_.output(e);
  for (int j = 0; j < count(); ++j) {
    const double* r = N_VGetArrayPointer(rrS[j]);
    for (int i = 0; i < m_.n; ++i)
      if (!std::isfinite(r[i])) return 1;  // recoverable: a smaller step
  }
  return 0;
}

// F_y'·s' + F_y·s + F_p = 0 with the states' s given: the unknowns are s' of
// the states and s of the algebraic unknowns, the same matrix the index-1
// system makes nonsingular (as in linearize).
void ForwardSensitivities::make_consistent(double t, const double* y, const double* yp) {
  const int n = m_.n;
  point_.clear();  // the session may have changed modes or parameters since
  evaluate_jacobian_parts(t, y, yp);
  std::vector<Eigen::Triplet<double>> triplets;
  for (int c = 0; c < n; ++c)
    for (long k = m_.column_start[c]; k < m_.column_start[c + 1]; ++k)
      triplets.emplace_back(static_cast<int>(m_.row_index[k]), c, m_.differential[c] != 0.0 ? d_dyp_[k] : d_dy_[k]);
  Eigen::SparseMatrix<double> M(n, n);
  M.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(M);
  if (lu.info() != Eigen::Success)
    throw std::runtime_error(fmt::format("the sensitivities of the algebraic unknowns are not determined at t = {} ({})",
                                         format_number(t), lu.lastErrorMessage()));
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n, count());
  for (std::size_t e = 0; e < partial_entries_.size(); ++e)
    rhs(partial_entries_[e].first, partial_entries_[e].second) -= partials_.output(e);
  for (int j = 0; j < count(); ++j) {
    const double* s = values(j);
    for (int c = 0; c < n; ++c) {
      if (m_.differential[c] == 0.0) continue;
      for (long k = m_.column_start[c]; k < m_.column_start[c + 1]; ++k) rhs(m_.row_index[k], j) -= d_dy_[k] * s[c];
    }
  }
  const Eigen::MatrixXd w = lu.solve(rhs);
  for (int j = 0; j < count(); ++j) {
    double* s = N_VGetArrayPointer(yS_[j]);
    double* sp = N_VGetArrayPointer(ypS_[j]);
    for (int c = 0; c < n; ++c) {
      if (m_.differential[c] != 0.0) {
        sp[c] = w(c, j);
      } else {
        s[c] = w(c, j);
        sp[c] = 0.0;
      }
    }
  }
}

void ForwardSensitivities::set_states(const std::vector<std::vector<double>>& dy_dp) {
  for (int j = 0; j < count(); ++j) {
    double* s = N_VGetArrayPointer(yS_[j]);
    for (int c = 0; c < m_.n; ++c)
      if (m_.differential[c] != 0.0) s[c] = dy_dp[j][c];
  }
}

std::vector<double> ForwardSensitivities::root_time_partials(int indicator, double t, const double* y,
                                                             const double* yp, const double* ypp) {
  load_unknowns(m_, t, 0.0, y, yp, event_partials_);
  event_partials_.run();
  const IndicatorTerms& terms = indicator_terms_[indicator];
  const int n_leaves = static_cast<int>(terms.leaves.size());
  // dg/dt along the solution, and dg/dp_j at a fixed time.
  double rate = event_partials_.output(terms.first_output + n_leaves);
  for (int l = 0; l < n_leaves; ++l) {
    const auto [slot, derivative] = terms.leaves[l];
    rate += event_partials_.output(terms.first_output + l) * (derivative ? ypp[slot] : yp[slot]);
  }
  std::vector<double> dtau(count());
  for (int j = 0; j < count(); ++j) {
    double dg = event_partials_.output(terms.first_output + n_leaves + 1 + j);
    for (int l = 0; l < n_leaves; ++l) {
      const auto [slot, derivative] = terms.leaves[l];
      dg += event_partials_.output(terms.first_output + l) * (derivative ? derivatives(j)[slot] : values(j)[slot]);
    }
    dtau[j] = -dg / rate;  // a grazing root (rate 0) has no sensitivity: NaN or infinite, visibly
  }
  return dtau;
}

void ForwardSensitivities::jump(const double* yp_before, const double* yp_after, const std::vector<double>& dtau_dp) {
  for (int j = 0; j < count(); ++j) {
    if (dtau_dp[j] == 0.0) continue;
    double* s = N_VGetArrayPointer(yS_[j]);
    for (int c = 0; c < m_.n; ++c)
      if (m_.differential[c] != 0.0) s[c] += (yp_before[c] - yp_after[c]) * dtau_dp[j];
  }
}

}  // namespace acausal
