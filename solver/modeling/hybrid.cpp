#include "solver/modeling/hybrid.hpp"

#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace acausal {

namespace {

// Process-wide, like the expression arena: a discrete leaf's pre() leaf and a
// sample() leaf's clock are facts about the leaf, whichever model uses it. A
// discrete and its pre() leaf live and die together; collect_expressions()
// drops the entries of dead leaves (it runs with no other thread making nodes,
// so it takes no lock here: pre_symbol() holds this one while it interns).
struct Registry final : detail::WeakNodeMap {
  std::mutex lock;
  std::unordered_map<const Node*, const Node*> pre_of_discrete, discrete_of_pre;
  struct Clock {
    const Node* start;
    const Node* interval;
  };
  std::unordered_map<const Node*, Clock> clocks;  // a live sample() leaf keeps its start and interval

  Registry() { detail::register_weak_node_map(this); }
  bool keep(detail::Marks& marks) override {
    bool changed = false;
    for (const auto& [discrete, pre] : pre_of_discrete)
      if (marks.live(discrete) || marks.live(pre)) changed |= marks.keep(discrete) | marks.keep(pre);
    for (const auto& [leaf, clock] : clocks)
      if (marks.live(leaf)) changed |= marks.keep(clock.start) | marks.keep(clock.interval);
    return changed;
  }
  void sweep(const detail::Marks& marks) override {
    auto dead = [&](const auto& entry) { return !marks.live(entry.first); };
    std::erase_if(pre_of_discrete, dead);
    std::erase_if(discrete_of_pre, dead);
    std::erase_if(clocks, dead);
  }
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
  r.clocks[symbol.node()] = {start.node(), interval.node()};
  return symbol;
}

std::optional<SampleClock> sample_clock(const Node* leaf) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  auto it = r.clocks.find(leaf);
  if (it == r.clocks.end()) return std::nullopt;
  return SampleClock{Expr(it->second.start), Expr(it->second.interval)};
}

WhenAction::WhenAction(const Equation& assignment) : target(assignment.lhs), value(assignment.rhs) {}

WhenAction reinit(const Expr& state, const Expr& value) { return WhenAction(state, value, true); }

}  // namespace acausal
