#include "solver/modeling/hybrid.hpp"

#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace acausal {

namespace {

// Process-wide, like the expression arena: a discrete leaf's pre() leaf and a
// sample() leaf's clock are facts about the leaf, whichever model uses it.
struct Registry {
  std::mutex lock;
  std::unordered_map<const Node*, const Node*> pre_of_discrete, discrete_of_pre;
  std::unordered_map<const Node*, SampleClock> clocks;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

const Node* pre_symbol(const Node* discrete) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  if (auto it = r.pre_of_discrete.find(discrete); it != r.pre_of_discrete.end()) return it->second;
  const Node* pre = make_discrete_symbol("pre(" + symbol_name(discrete) + ")").node();
  r.pre_of_discrete[discrete] = pre;
  r.discrete_of_pre[pre] = discrete;
  return pre;
}

const Node* pre_of(const Node* pre) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  auto it = r.discrete_of_pre.find(pre);
  return it == r.discrete_of_pre.end() ? nullptr : it->second;
}

Expr pre(const Expr& e) {
  Rewriter to_pre([](const Node* leaf) -> const Node* {
    if (leaf->op != Op::Discrete || pre_of(leaf)) return nullptr;  // pre(pre(x)) is pre(x)
    if (is_initial_symbol(leaf) || sample_clock(leaf)) return Expr(0.0).node();  // false before any event
    return pre_symbol(leaf);
  });
  return to_pre(e);
}

Expr edge(const Expr& b) { return b && !pre(b); }

Expr change(const Expr& x) {
  const Expr before = pre(x);
  return x < before || x > before;
}

Expr equal(const Expr& a, const Expr& b) { return !(a < b) && !(a > b); }

Expr initial() {
  static const Expr symbol = make_discrete_symbol("initial()");
  return symbol;
}

bool is_initial_symbol(const Node* leaf) { return leaf == initial().node(); }

Expr sample(const Expr& start, const Expr& interval) {
  if (!is_parametric(start) || !is_parametric(interval))
    throw std::invalid_argument("sample(start, interval): start and interval must be parameter expressions, not " +
                                start.str() + " and " + interval.str());
  Registry& r = registry();
  const Expr symbol = make_discrete_symbol("sample(" + start.str() + ", " + interval.str() + ")");
  std::lock_guard<std::mutex> guard(r.lock);
  r.clocks[symbol.node()] = {start, interval};
  return symbol;
}

const SampleClock* sample_clock(const Node* leaf) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  auto it = r.clocks.find(leaf);
  return it == r.clocks.end() ? nullptr : &it->second;
}

WhenAction::WhenAction(const Equation& assignment) : target(assignment.lhs), value(assignment.rhs) {}

WhenAction reinit(const Expr& state, const Expr& value) { return WhenAction(state, value, true); }

}  // namespace acausal
