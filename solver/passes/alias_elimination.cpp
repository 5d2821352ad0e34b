#include "solver/passes/alias_elimination.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

namespace acausal {

namespace {

// c1*x1 + c2*x2 + offset with numeric coefficients and a parametric offset.
struct LinearForm {
  int terms = 0;
  double coef[2] = {0, 0};
  const Node* var[2] = {nullptr, nullptr};
  std::vector<std::pair<double, const Node*>> offset_terms;  // built into `offset` only on success
  Expr offset{0.0};
};

bool add_term(LinearForm& f, double c, const Node* v) {
  for (int i = 0; i < f.terms; ++i) {
    if (f.var[i] == v) {
      f.coef[i] += c;
      return true;
    }
  }
  if (f.terms == 2) return false;
  f.coef[f.terms] = c;
  f.var[f.terms++] = v;
  return true;
}

// Collects scale*node into f; false if the expression is not of the alias shape.
bool collect(const Node* n, double scale, LinearForm& f, int depth) {
  if (depth > 16) return false;
  switch (n->op) {
    case Op::Var: case Op::Der: return add_term(f, scale, n);
    case Op::Const: case Op::Param:
      f.offset_terms.emplace_back(scale, n);
      return true;
    case Op::Neg: return collect(n->arg[0], -scale, f, depth + 1);
    case Op::Add: return collect(n->arg[0], scale, f, depth + 1) && collect(n->arg[1], scale, f, depth + 1);
    case Op::Sub: return collect(n->arg[0], scale, f, depth + 1) && collect(n->arg[1], -scale, f, depth + 1);
    case Op::Mul:
      if (n->arg[0]->op == Op::Const) return collect(n->arg[1], scale * n->arg[0]->value, f, depth + 1);
      if (n->arg[1]->op == Op::Const) return collect(n->arg[0], scale * n->arg[1]->value, f, depth + 1);
      break;
    case Op::Div:
      if (n->arg[1]->op == Op::Const && n->arg[1]->value != 0.0)
        return collect(n->arg[0], scale / n->arg[1]->value, f, depth + 1);
      break;
    default: break;
  }
  if (is_parametric(Expr(n))) {
    f.offset_terms.emplace_back(scale, n);
    return true;
  }
  return false;
}

std::optional<LinearForm> alias_form(const Expr& residual) {
  LinearForm f;
  if (!collect(residual.node(), 1.0, f, 0)) return std::nullopt;
  // drop cancelled terms
  LinearForm g;
  for (int i = 0; i < f.terms; ++i)
    if (f.coef[i] != 0.0) add_term(g, f.coef[i], f.var[i]);
  if (g.terms == 0) return std::nullopt;
  for (const auto& [scale, n] : f.offset_terms) g.offset = g.offset + scale * Expr(n);
  if (g.terms == 2 && !g.offset.is_const(0)) return std::nullopt;
  return g;
}

// Weighted union-find: x = factor[x] * parent[x]; a root may be bound to a
// parametric value.
class AliasSets {
 public:
  explicit AliasSets(std::size_t n)
      : parent_(n), factor_(n, 1.0), size_(n, 1), bound_(n, nullptr), bound_by_(n, -1) {
    for (std::size_t i = 0; i < n; ++i) parent_[i] = static_cast<int>(i);
  }

  // Returns root r and factor f with x = f * r.
  std::pair<int, double> find(int x) {
    double f = 1.0;
    int r = x;
    while (parent_[r] != r) {
      f *= factor_[r];
      r = parent_[r];
    }
    // compress
    double g = f;
    int y = x;
    while (parent_[y] != y) {
      int next = parent_[y];
      double fy = factor_[y];
      parent_[y] = r;
      factor_[y] = g;
      g /= fy;
      y = next;
    }
    return {r, f};
  }

  // x1 = k * x2. False if it cannot be used to eliminate (cycle or two bound sets).
  bool unite(int x1, double k, int x2) {
    auto [r1, f1] = find(x1);
    auto [r2, f2] = find(x2);
    if (r1 == r2) return false;
    if (bound_[r1] && bound_[r2]) return false;
    // f1 r1 = k f2 r2
    if (size_[r1] < size_[r2]) {
      attach(r1, k * f2 / f1, r2);
    } else {
      attach(r2, f1 / (k * f2), r1);
    }
    return true;
  }

  // c * x + offset = 0, recorded as coming from `equation`.
  bool bind(int x, double c, const Expr& offset, int equation) {
    auto [r, f] = find(x);
    if (bound_[r]) return false;
    bound_[r] = (-offset / (c * f)).node();
    bound_by_[r] = equation;
    return true;
  }

  const Node* bound(int root) const { return bound_[root]; }
  int bound_by(int root) const { return bound_by_[root]; }

 private:
  void attach(int child, double factor, int root) {  // child = factor * root
    parent_[child] = root;
    factor_[child] = factor;
    size_[root] += size_[child];
    if (bound_[child]) {
      bound_[root] = (Expr(bound_[child]) / factor).node();
      bound_by_[root] = bound_by_[child];
    }
  }

  std::vector<int> parent_;
  std::vector<double> factor_;
  std::vector<int> size_;
  std::vector<const Node*> bound_;
  std::vector<int> bound_by_;
};

// Which member of an alias set stays an unknown: the one a user would look for.
long preference(const DaeVariable& v, bool differentiated) {
  long score = 0;
  if (v.state == StateSelect::always) score += 1000;
  if (v.state == StateSelect::prefer) score += 500;
  if (v.state == StateSelect::avoid) score -= 500;
  if (v.state == StateSelect::never) score -= 1000;
  if (differentiated) score += 200;
  if (v.fixed) score += 100;
  if (v.causality == Causality::internal) score += 50;
  score -= static_cast<long>(std::count(v.name.begin(), v.name.end(), '.'));
  return score;
}

// One sweep over the equations; returns the number of variables eliminated.
long alias_round(DaeSystem& dae) {
  std::vector<bool> differentiated(dae.variables.size(), false);
  std::vector<const Node*> residuals;
  residuals.reserve(dae.equations.size());
  for (const auto& eq : dae.equations) residuals.push_back(eq.residual.node());
  for_each_postorder(residuals, [&](const Node* n) {
    if (n->op == Op::Der) differentiated[dae.variable_index(n)] = true;
  });

  AliasSets sets(dae.variables.size());
  std::vector<DaeEquation> kept;
  kept.reserve(dae.equations.size());
  // x = k*der(y) written twice (rigidly joined bodies each define their speed)
  // makes the two x's aliases; the first such equation stays.
  std::unordered_map<const Node*, std::pair<int, double>> derivative_definition;
  for (auto& eq : dae.equations) {
    bool used = false;
    if (auto f = alias_form(eq.residual)) {
      bool der0 = f->var[0]->op == Op::Der, der1 = f->terms == 2 && f->var[1]->op == Op::Der;
      if (f->terms == 1 && !der0) {
        used = sets.bind(dae.variable_of.at(f->var[0]), f->coef[0], f->offset,
                         static_cast<int>(dae.consumed_equations.size()));
      } else if (f->terms == 2 && !der0 && !der1) {
        int x1 = dae.variable_of.at(f->var[0]);
        int x2 = dae.variable_of.at(f->var[1]);
        used = sets.unite(x1, -f->coef[1] / f->coef[0], x2);
      } else if (f->terms == 2 && der0 != der1) {
        int i = der0 ? 1 : 0;
        int x = dae.variable_of.at(f->var[i]);
        double k = -f->coef[1 - i] / f->coef[i];  // x = k * der(y)
        auto [it, first] = derivative_definition.try_emplace(f->var[1 - i], x, k);
        if (!first) used = sets.unite(x, k / it->second.second, it->second.first);
      }
    }
    (used ? dae.consumed_equations : kept).push_back(std::move(eq));
  }
  dae.equations = std::move(kept);

  // Choose each set's representative and define every other member from it.
  const std::size_t n = dae.variables.size();
  std::vector<int> representative(n, -1);
  std::vector<long> best(n, 0);
  std::vector<double> factor(n, 1.0);
  std::vector<int> root(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!dae.is_unknown(static_cast<int>(i))) continue;
    auto [r, f] = sets.find(static_cast<int>(i));
    root[i] = r;
    factor[i] = f;
    long score = preference(dae.variables[i], differentiated[i]);
    if (representative[r] < 0 || score > best[r]) {
      representative[r] = static_cast<int>(i);
      best[r] = score;
    }
  }

  // Start values travel to the representative; conflicting fixed starts are an error.
  std::vector<int> fixed_from(n, -1);
  long eliminated = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!dae.is_unknown(static_cast<int>(i)) || representative[root[i]] < 0) continue;
    int r = root[i];
    int rep = representative[r];
    if (sets.bound(r)) {
      dae.variables[i].definition = (factor[i] * Expr(sets.bound(r))).node();
      dae.variables[i].fixed_by = sets.bound_by(r);
      ++eliminated;
      continue;
    }
    if (static_cast<int>(i) == rep) continue;
    double k = factor[i] / factor[rep];  // x_i = k * x_rep
    dae.variables[i].definition = (k * Expr(dae.variables[rep].symbol)).node();
    ++eliminated;
    DaeVariable& v = dae.variables[i];
    DaeVariable& target = dae.variables[rep];
    // The representative carries the set's largest declared magnitude (1 is the default, not a declaration).
    const double nominal_in_target_scale = v.nominal / std::fabs(k);
    if (v.nominal != 1.0 && (target.nominal == 1.0 || nominal_in_target_scale > target.nominal))
      target.nominal = nominal_in_target_scale;
    if (v.fixed) {
      double implied = v.start / k;
      if (target.fixed && std::fabs(implied - target.start) > 1e-12 * (1 + std::fabs(implied))) {
        std::string other = fixed_from[rep] >= 0 ? dae.variables[fixed_from[rep]].name : target.name;
        throw ModelError("inconsistent start values: " + v.name + " = " + format_number(v.start) + " (fixed) and " +
                         other + " = " + format_number(fixed_from[rep] >= 0 ? dae.variables[fixed_from[rep]].start
                                                                             : target.start) +
                         " (fixed) are the same quantity (" + v.name + " = " + format_number(k) + " * " +
                         target.name + ")");
      }
      target.fixed = true;
      target.start = implied;
      target.start_given = true;
      if (fixed_from[rep] < 0) fixed_from[rep] = static_cast<int>(i);
      v.fixed = false;  // the condition now lives on the representative
    } else if (v.start_given && !target.start_given) {
      target.start = v.start / k;
      target.start_given = true;
    }
  }

  // A fixed start on a variable that turned out to be a parameter expression must agree with it.
  for (auto& v : dae.variables) {
    if (!v.fixed || !v.definition || !is_parametric(Expr(v.definition))) continue;
    double value = evaluate(Expr(v.definition), [&](const Node* p) { return dae.parameter_value(p); });
    if (std::fabs(value - v.start) > 1e-9 * (1 + std::fabs(value)))
      throw ModelError("inconsistent start value: " + v.name + " = " + format_number(v.start) +
                       " (fixed) but the model fixes it to " + dae.print(Expr(v.definition)) + " = " +
                       format_number(value));
    v.fixed = false;  // satisfied by construction
  }

  if (eliminated > 0) substitute_definitions(dae);
  return eliminated;
}

}  // namespace

void eliminate_aliases(DaeSystem& dae) {
  PassReport& report = dae.report.add("alias_elimination");
  long equations_before = static_cast<long>(dae.equations.size());
  long unknowns_before = 0;
  for (std::size_t i = 0; i < dae.variables.size(); ++i) unknowns_before += dae.is_unknown(static_cast<int>(i));
  long eliminated = 0;
  int rounds = 0;
  // Substitution can turn longer equations into new aliases; a few sweeps reach the fixpoint.
  while (rounds < 8) {
    ++rounds;
    long e = alias_round(dae);
    eliminated += e;
    if (e == 0) break;
  }
  report.counts = {{"equations_before", equations_before},
                   {"equations_after", static_cast<long>(dae.equations.size())},
                   {"unknowns_before", unknowns_before},
                   {"unknowns_after", unknowns_before - eliminated},
                   {"rounds", rounds}};
}

}  // namespace acausal
