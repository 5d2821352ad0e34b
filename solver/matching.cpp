#include "solver/matching.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <sstream>

namespace acausal {

std::vector<int> maximum_matching(int unknowns, const std::vector<std::vector<int>>& adj) {
  const int n_eq = static_cast<int>(adj.size());
  const int INF = std::numeric_limits<int>::max();
  std::vector<int> unknown_of(n_eq, -1), equation_of(unknowns, -1), dist(n_eq), next(n_eq);
  for (int e = 0; e < n_eq; ++e)  // greedy start
    for (int u : adj[e])
      if (equation_of[u] < 0) {
        unknown_of[e] = u;
        equation_of[u] = e;
        break;
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

}  // namespace

StructuralSystem match_equations(DaeSystem& dae) {
  auto t0 = std::chrono::steady_clock::now();
  StructuralSystem s;
  const int n_var = static_cast<int>(dae.variables.size());
  std::vector<bool> differentiated(n_var, false);
  for (const auto& eq : dae.equations)
    for (const Node* leaf : unknown_leaves(eq.residual)) {
      if (leaf->op != Op::Der) continue;
      if (leaf->arg[0]->op == Op::Der)
        throw ModelError("second derivative " + dae.print(Expr(leaf)) + " in " + dae.describe(eq) +
                         ": index reduction is not available yet; write the model in first-order form");
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

  std::vector<bool> unknown_matched(n_unknowns, false);
  std::vector<std::string> free_unknowns, free_equations;
  for (std::size_t e = 0; e < s.matched_unknown.size(); ++e) {
    if (s.matched_unknown[e] >= 0) {
      unknown_matched[s.matched_unknown[e]] = true;
    } else {
      std::string vars;
      for (int u : s.incidence[e]) vars += (vars.empty() ? "" : ", ") + dae.variables[s.unknown_variable[u]].name;
      free_equations.push_back(dae.describe(dae.equations[e]) +
                               (vars.empty() ? " (no unknowns left: redundant or contradictory)"
                                             : " (its unknowns " + vars + " are determined by other equations)"));
    }
  }
  for (int u = 0; u < n_unknowns; ++u) {
    if (unknown_matched[u]) continue;
    const DaeVariable& v = dae.variables[s.unknown_variable[u]];
    std::string hint = v.causality == Causality::input ? " (an unconnected input: connect it to a signal source)" : "";
    free_unknowns.push_back((s.unknown_is_derivative[u] ? "der(" + v.name + ")" : v.name) + hint);
  }

  PassReport& r = dae.report.add("matching");
  r.counts = {{"equations", static_cast<long>(dae.equations.size())}, {"unknowns", n_unknowns}};
  if (!free_unknowns.empty() || !free_equations.empty()) {
    std::ostringstream msg;
    long n_eq = static_cast<long>(dae.equations.size());
    msg << "model '" << dae.model_name << "' ";
    if (n_eq < n_unknowns)
      msg << "is underdetermined: " << n_eq << " equations for " << n_unknowns << " unknowns";
    else if (n_eq > n_unknowns)
      msg << "is over-determined: " << n_eq << " equations for " << n_unknowns << " unknowns";
    else
      msg << "is structurally singular: " << n_eq
          << " equations for as many unknowns, but they cannot all be solved (some equations fix the same "
             "variables; if they are constraints between states, the DAE has index > 1, which needs index "
             "reduction, not available yet)";
    if (!free_unknowns.empty()) msg << ";\n  nothing determines: " << name_list(free_unknowns);
    if (!free_equations.empty()) {
      msg << ";\n  equations left over:";
      for (std::size_t i = 0; i < free_equations.size() && i < 8; ++i) msg << "\n    " << free_equations[i];
      if (free_equations.size() > 8) msg << "\n    ... (" << free_equations.size() - 8 << " more)";
    }
    throw ModelError(msg.str());
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

}  // namespace acausal
