#include "solver/sorting.hpp"

#include <algorithm>
#include <chrono>
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
  auto t0 = std::chrono::steady_clock::now();
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
  std::vector<int> solved_order;
  std::vector<bool> removed(n_eq, false);
  std::size_t largest_block = 0;
  for (const auto& block : blocks) {
    largest_block = std::max(largest_block, block.size());
    if (block.size() != 1) continue;
    int e = block[0];
    int u = s.matched_unknown[e];
    if (s.unknown_is_derivative[u]) continue;  // IDA needs the derivatives of states
    int v = s.unknown_variable[u];
    Expr x(dae.variables[v].symbol);
    const Expr& r = dae.equations[e].residual;
    Expr a = diff(r, x);
    // Only a pivot that cannot depend on the solution is safe to divide by.
    if (!a.is_const() && !is_parametric(a)) continue;
    double a_value = a.is_const() ? a.value() : evaluate(a, parameters);
    if (!std::isfinite(a_value) || a_value == 0.0) continue;
    Rewriter zero([&](const Node* leaf) { return leaf == x.node() ? Expr(0.0).node() : nullptr; });
    Expr b = zero(r);
    raw[v] = (-b / a).node();
    if (!a.is_const()) dae.nonzero_conditions.push_back({a, "solving " + dae.describe(dae.equations[e]) + " for " + dae.variables[v].name});
    solved_order.push_back(v);
    removed[e] = true;
  }

  // Definitions refer only to variables solved before them, so one memoized
  // rewrite in solve order makes every definition explicit.
  {
    Rewriter explicit_form([&](const Node* leaf) -> const Node* {
      if (leaf->op != Op::Var) return nullptr;
      auto it = dae.variable_of.find(leaf);
      return it == dae.variable_of.end() ? nullptr : dae.variables[it->second].definition;
    });
    for (int v : solved_order) dae.variables[v].definition = explicit_form(Expr(raw[v])).node();
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
              {"solved_explicitly", static_cast<long>(solved_order.size())},
              {"equations_after", static_cast<long>(dae.equations.size())}};
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace acausal
