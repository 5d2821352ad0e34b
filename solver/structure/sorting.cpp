#include "solver/structure/sorting.hpp"

#include <algorithm>
#include <cmath>

namespace acausal {

std::vector<std::vector<int>> strongly_connected_components(const std::vector<std::vector<int>>& successors) {
  const int n = static_cast<int>(successors.size());
  std::vector<int> index(n, -1), low(n, 0), edge(n, 0), stack;
  std::vector<bool> on_stack(n, false);
  std::vector<std::vector<int>> components;
  std::vector<int> call;
  int counter = 0;
  for (int start = 0; start < n; ++start) {
    if (index[start] >= 0) continue;
    call.push_back(start);
    index[start] = low[start] = counter++;
    stack.push_back(start);
    on_stack[start] = true;
    while (!call.empty()) {
      int v = call.back();
      if (edge[v] < static_cast<int>(successors[v].size())) {
        int w = successors[v][edge[v]++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          call.push_back(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      call.pop_back();
      if (!call.empty()) low[call.back()] = std::min(low[call.back()], low[v]);
      if (low[v] == index[v]) {
        std::vector<int> component;
        int w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          component.push_back(w);
        } while (w != v);
        components.push_back(std::move(component));
      }
    }
  }
  return components;
}

void sort_and_eliminate(DaeSystem& dae, const StructuralSystem& s) {
  const int n_eq = static_cast<int>(dae.equations.size());
  std::vector<int> equation_of_unknown(s.unknown_variable.size(), -1);
  for (int e = 0; e < n_eq; ++e) equation_of_unknown[s.matched_unknown[e]] = e;
  // e depends on e2 when e contains the unknown that e2 determines.
  std::vector<std::vector<int>> depends(n_eq);
  for (int e = 0; e < n_eq; ++e)
    for (int u : s.incidence[e])
      if (int e2 = equation_of_unknown[u]; e2 != e) depends[e].push_back(e2);
  // Tarjan emits a component after everything it depends on: a valid solve order.
  auto blocks = strongly_connected_components(depends);

  auto parameters = [&](const Node* p) { return dae.parameter_value(p); };
  std::vector<const Node*> raw(dae.variables.size(), nullptr);
  std::vector<int> solved_order, solved_equation;
  std::vector<bool> removed(n_eq, false);
  std::vector<std::string> torn_names;
  std::size_t largest_block = 0;

  // Solves equation e for variable v when it is linear in v with a coefficient
  // that cannot depend on the solution (only such a pivot is safe to divide by).
  auto try_solve = [&](int e, int v) {
    Expr x(dae.variables[v].symbol);
    const Expr& r = dae.equations[e].residual;
    // x inside a delay() is its past value, which solving for x now must not touch.
    if (delays_exist()) {
      bool delayed_x = false;
      for_each_postorder(r.node(), [&](const Node* n) {
        if (is_delay(n->op)) for_each_postorder(n->arg[0], [&](const Node* m) { delayed_x |= m == x.node(); });
      });
      if (delayed_x) return false;
    }
    Expr a = diff(r, x);
    if (!a.is_const() && !is_parametric(a)) return false;
    double a_value = a.is_const() ? a.value() : evaluate(a, parameters);
    if (!std::isfinite(a_value) || a_value == 0.0) return false;
    Rewriter zero([&](const Node* leaf) { return leaf == x.node() ? Expr(0.0).node() : nullptr; });
    raw[v] = (-zero(r) / a).node();
    if (!a.is_const())
      dae.nonzero_conditions.push_back(
          {a, "solving " + dae.describe(dae.equations[e]) + " for " + dae.variables[v].name});
    solved_order.push_back(v);
    solved_equation.push_back(e);
    removed[e] = true;
    return true;
  };

  // Tearing, block by block: solve equations with one unknown left for it;
  // when none is left, tear the unknown that appears in most open equations
  // (it stays an IDA unknown) and go on. Derivatives of states always stay.
  const std::size_t n_unknowns = s.unknown_variable.size();
  std::vector<char> known(n_unknowns, false), in_block(n_unknowns, false);
  std::vector<int> open_count(n_eq, 0);
  std::vector<std::vector<int>> equations_with(n_unknowns);
  for (const auto& block : blocks) {
    largest_block = std::max(largest_block, block.size());
    std::vector<int> unknowns;
    for (int e : block) {
      unknowns.push_back(s.matched_unknown[e]);
      in_block[s.matched_unknown[e]] = true;
    }
    for (int e : block)
      for (int u : s.incidence[e])
        if (in_block[u]) {
          equations_with[u].push_back(e);
          ++open_count[e];
        }
    std::vector<int> ready;
    auto make_known = [&](int u) {
      known[u] = true;
      for (int e : equations_with[u])
        if (!removed[e] && --open_count[e] == 1) ready.push_back(e);
    };
    std::size_t remaining = unknowns.size();
    for (int u : unknowns)
      if (s.unknown_is_derivative[u]) {  // IDA needs the derivatives of states
        make_known(u);
        --remaining;
      }
    for (int e : block)
      if (open_count[e] == 1) ready.push_back(e);
    while (remaining > 0) {
      while (!ready.empty() && remaining > 0) {
        int e = ready.back();
        ready.pop_back();
        if (removed[e] || open_count[e] != 1) continue;
        int left = -1;
        for (int u : s.incidence[e])
          if (in_block[u] && !known[u]) left = u;
        if (left < 0 || !try_solve(e, s.unknown_variable[left])) continue;
        make_known(left);
        --remaining;
      }
      if (remaining == 0) break;
      int tear = -1;
      std::size_t best = 0;
      for (int u : unknowns) {
        if (known[u]) continue;
        std::size_t open = 0;
        for (int e : equations_with[u]) open += !removed[e];
        if (tear < 0 || open >= best) {
          tear = u;
          best = open;
        }
      }
      if (block.size() > 1) torn_names.push_back(dae.variables[s.unknown_variable[tear]].name);
      make_known(tear);
      --remaining;
    }
    for (int u : unknowns) {
      in_block[u] = false;
      equations_with[u].clear();
    }
  }

  // A definition may read variables solved after it inside a delay(), whose
  // argument is no dependency of the sort: all raw definitions are set before
  // the recursive rewrite makes each explicit.
  for (int v : solved_order) dae.variables[v].definition = raw[v];
  {
    Rewriter explicit_form = definition_rewriter(dae);
    for (int v : solved_order) dae.variables[v].definition = explicit_form(Expr(raw[v])).node();
  }
  // Solved equations are kept for messages (a non-finite observed variable names its equation).
  for (std::size_t k = 0; k < solved_order.size(); ++k) {
    dae.variables[solved_order[k]].solved_from = static_cast<int>(dae.consumed_equations.size());
    dae.consumed_equations.push_back(dae.equations[solved_equation[k]]);
  }
  std::vector<DaeEquation> kept;
  for (const auto& block : blocks)
    for (int e : block)
      if (!removed[e]) kept.push_back(std::move(dae.equations[e]));
  dae.equations = std::move(kept);
  substitute_definitions(dae);

  PassReport& r = dae.report.add("sorting");
  r.counts = {{"blocks", static_cast<long>(blocks.size())},
              {"largest_block", static_cast<long>(largest_block)},
              {"torn", static_cast<long>(torn_names.size())},
              {"solved_explicitly", static_cast<long>(solved_order.size())},
              {"equations_after", static_cast<long>(dae.equations.size())}};
  if (!torn_names.empty()) {
    std::string list;
    for (std::size_t i = 0; i < torn_names.size() && i < 10; ++i) list += (i ? ", " : "") + torn_names[i];
    if (torn_names.size() > 10) list += ", ...";
    r.notes.push_back("torn variables (iterated by IDA within algebraic loops): " + list);
  }
}

}  // namespace acausal
