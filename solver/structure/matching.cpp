#include "solver/structure/matching.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

namespace acausal {

std::vector<int> maximum_matching(int unknowns, const std::vector<std::vector<int>>& adj, std::vector<int> start) {
  const int n_eq = static_cast<int>(adj.size());
  const int INF = std::numeric_limits<int>::max();
  std::vector<int> unknown_of = start.empty() ? std::vector<int>(n_eq, -1) : std::move(start);
  std::vector<int> equation_of(unknowns, -1), dist(n_eq), next(n_eq);
  for (int e = 0; e < n_eq; ++e)
    if (unknown_of[e] >= 0) equation_of[unknown_of[e]] = e;
  for (int e = 0; e < n_eq; ++e) {  // greedy start
    if (unknown_of[e] >= 0) continue;
    for (int u : adj[e])
      if (equation_of[u] < 0) {
        unknown_of[e] = u;
        equation_of[u] = e;
        break;
      }
  }
  std::vector<int> queue, stack;
  for (;;) {
    // BFS layers from the free equations.
    queue.clear();
    for (int e = 0; e < n_eq; ++e) {
      dist[e] = unknown_of[e] < 0 ? 0 : INF;
      if (unknown_of[e] < 0) queue.push_back(e);
    }
    bool found = false;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      int e = queue[q];
      for (int u : adj[e]) {
        int e2 = equation_of[u];
        if (e2 < 0) {
          found = true;
        } else if (dist[e2] == INF) {
          dist[e2] = dist[e] + 1;
          queue.push_back(e2);
        }
      }
    }
    if (!found) break;
    // Layered DFS, iterative: augmenting paths can be as long as the model.
    std::fill(next.begin(), next.end(), 0);
    for (int root = 0; root < n_eq; ++root) {
      if (unknown_of[root] >= 0) continue;
      stack.assign(1, root);
      while (!stack.empty()) {
        int e = stack.back();
        if (next[e] == static_cast<int>(adj[e].size())) {
          dist[e] = INF;
          stack.pop_back();  // the parent sees dist INF and moves on
          continue;
        }
        int u = adj[e][next[e]];
        int e2 = equation_of[u];
        if (e2 < 0) {
          for (int k : stack) {
            int uk = adj[k][next[k]];
            unknown_of[k] = uk;
            equation_of[uk] = k;
          }
          break;
        }
        if (dist[e2] != INF && dist[e2] == dist[e] + 1) {
          stack.push_back(e2);
        } else {
          ++next[e];
        }
      }
    }
  }
  return unknown_of;
}

namespace {

std::string name_list(const std::vector<std::string>& names, std::size_t limit = 12) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += ", ... (" + std::to_string(names.size() - limit) + " more)";
  return out;
}


// Dulmage–Mendelsohn: what can be reached by alternating paths from the
// unmatched unknowns is the underdetermined part, from the unmatched equations
// the over-determined part. Those are the places a user has to look.
std::string structural_diagnosis(const DaeSystem& dae, const StructuralSystem& s, const std::vector<int>& equation_of) {
  const int n_unknowns = static_cast<int>(s.unknown_variable.size());
  const int n_eq = static_cast<int>(s.incidence.size());
  std::vector<std::vector<int>> equations_with(n_unknowns);
  for (int e = 0; e < n_eq; ++e)
    for (int u : s.incidence[e]) equations_with[u].push_back(e);

  // Names by which a user knows an unknown: itself and its aliases.
  std::vector<std::vector<int>> aliases(n_unknowns);
  for (int v = 0; v < static_cast<int>(dae.variables.size()); ++v) {
    const Node* d = dae.variables[v].definition;
    if (!d) continue;
    auto leaves = unknown_leaves(Expr(d));
    if (leaves.size() == 1 && leaves[0]->op == Op::Var) {
      int u = s.unknown_of_variable[dae.variable_index(leaves[0])];
      if (u >= 0) aliases[u].push_back(v);
    }
  }
  auto describe_unknown = [&](int u) {
    const DaeVariable& v = dae.variables[s.unknown_variable[u]];
    std::string text = s.unknown_is_derivative[u] ? "der(" + v.name + ")" : v.name;
    std::vector<std::string> names;
    bool input = v.causality == Causality::input;
    for (int a : aliases[u]) {
      names.push_back(dae.variables[a].name);
      input |= dae.variables[a].causality == Causality::input;
    }
    if (!names.empty()) text += " (= " + name_list(names, 4) + ")";
    if (input) text += " [an unconnected input: connect it to a signal source]";
    return text;
  };

  std::vector<int> free_unknowns;
  std::vector<bool> seen_u(n_unknowns, false), seen_e(n_eq, false);
  std::vector<int> queue;
  for (int u = 0; u < n_unknowns; ++u)
    if (equation_of[u] < 0) {
      seen_u[u] = true;
      queue.push_back(u);
    }
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (int e : equations_with[queue[q]]) {
      int u2 = s.matched_unknown[e];
      if (u2 >= 0 && !seen_u[u2]) {
        seen_u[u2] = true;
        queue.push_back(u2);
      }
    }
  std::vector<std::string> under;
  // Inputs first: an unconnected input is the most common cause.
  for (int pass = 0; pass < 2; ++pass)
    for (int u : queue) {
      std::string d = describe_unknown(u);
      bool is_input = d.find("unconnected input") != std::string::npos;
      if (is_input == (pass == 0)) under.push_back(d);
    }

  std::vector<int> over_eqs;
  for (int e = 0; e < n_eq; ++e)
    if (s.matched_unknown[e] < 0) {
      seen_e[e] = true;
      over_eqs.push_back(e);
    }
  for (std::size_t q = 0; q < over_eqs.size(); ++q)
    for (int u : s.incidence[over_eqs[q]]) {
      int e2 = equation_of[u];
      if (e2 >= 0 && !seen_e[e2]) {
        seen_e[e2] = true;
        over_eqs.push_back(e2);
      }
    }
  std::vector<std::string> over;
  for (int e : over_eqs) {
    const DaeEquation& eq = dae.equations[e];
    std::string text = dae.describe(eq);
    if (s.incidence[e].empty()) {
      text += "\n      has no unknowns left (redundant or contradictory)";
      std::vector<std::string> fixed;
      for (const Node* leaf : unknown_leaves(eq.source.lhs - eq.source.rhs)) {
        int v = dae.variable_index(leaf);
        if (v >= 0 && dae.variables[v].fixed_by >= 0)
          fixed.push_back(dae.variables[v].name + " by " + dae.describe(dae.consumed_equations[dae.variables[v].fixed_by]));
      }
      std::sort(fixed.begin(), fixed.end());
      fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
      if (!fixed.empty()) text += "; already fixed: " + name_list(fixed, 4);
    }
    over.push_back(text);
  }

  std::ostringstream msg;
  long n_eq_l = n_eq;
  msg << "model '" << dae.model_name << "' ";
  if (n_eq_l < n_unknowns)
    msg << "is underdetermined: " << n_eq_l << " equations for " << n_unknowns << " unknowns";
  else if (n_eq_l > n_unknowns)
    msg << "is over-determined: " << n_eq_l << " equations for " << n_unknowns << " unknowns";
  else
    msg << "is structurally singular: " << n_eq_l
        << " equations for as many unknowns, but some equations fix the same unknowns while others are left "
           "undetermined (index reduction could not resolve it)";
  if (!under.empty())
    msg << ";\n  nothing determines (one more equation or connection is needed among): " << name_list(under, 10);
  if (!over.empty()) {
    msg << ";\n  over-determined equations (one too many among them):";
    for (std::size_t i = 0; i < over.size() && i < 8; ++i) msg << "\n    " << over[i];
    if (over.size() > 8) msg << "\n    ... (" << over.size() - 8 << " more)";
  }
  return msg.str();
}

}  // namespace

StructuralSystem match_equations(DaeSystem& dae) {
  StructuralSystem s;
  const int n_var = static_cast<int>(dae.variables.size());
  std::vector<bool> differentiated(n_var, false);
  for (const auto& eq : dae.equations)
    for (const Node* leaf : unknown_leaves(eq.residual)) {
      if (leaf->op != Op::Der) continue;
      if (leaf->arg[0]->op == Op::Der)
        throw ModelError("second derivative " + dae.print(Expr(leaf)) + " in " + dae.describe(eq) +
                         ": left after index reduction (report this model: it should not happen)");
      differentiated[dae.variable_index(leaf)] = true;
    }
  s.unknown_of_variable.assign(n_var, -1);
  for (int v = 0; v < n_var; ++v) {
    if (!dae.is_unknown(v)) continue;
    s.unknown_of_variable[v] = static_cast<int>(s.unknown_variable.size());
    s.unknown_variable.push_back(v);
    s.unknown_is_derivative.push_back(differentiated[v]);
  }
  const int n_unknowns = static_cast<int>(s.unknown_variable.size());
  s.incidence.resize(dae.equations.size());
  for (std::size_t e = 0; e < dae.equations.size(); ++e) {
    auto& row = s.incidence[e];
    for (const Node* leaf : unknown_leaves(dae.equations[e].residual)) {
      int v = dae.variable_index(leaf);
      if (v < 0 || s.unknown_of_variable[v] < 0) continue;
      // A differentiated variable is known from integration; its derivative is the unknown.
      if ((leaf->op == Op::Der) == differentiated[v]) row.push_back(s.unknown_of_variable[v]);
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }

  s.matched_unknown = maximum_matching(n_unknowns, s.incidence);

  PassReport& r = dae.report.add("matching");
  r.counts = {{"equations", static_cast<long>(dae.equations.size())}, {"unknowns", n_unknowns}};
  std::vector<int> equation_of(n_unknowns, -1);
  for (std::size_t e = 0; e < s.matched_unknown.size(); ++e)
    if (s.matched_unknown[e] >= 0) equation_of[s.matched_unknown[e]] = static_cast<int>(e);
  bool complete = std::find(s.matched_unknown.begin(), s.matched_unknown.end(), -1) == s.matched_unknown.end() &&
                  std::find(equation_of.begin(), equation_of.end(), -1) == equation_of.end();
  if (!complete) throw ModelError(structural_diagnosis(dae, s, equation_of));
  return s;
}

}  // namespace acausal
