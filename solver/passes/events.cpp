#include "solver/passes/events.hpp"

#include <algorithm>
#include <unordered_map>

namespace acausal {

namespace {

bool generates_event(Op op) {
  switch (op) {
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Abs: case Op::Sign: case Op::Min: case Op::Max:
      return true;
    default:
      return false;
  }
}

bool time_varying(const Expr& e) {
  bool varying = false;
  for_each_postorder(e.node(), [&](const Node* n) {
    varying |= n->op == Op::Var || n->op == Op::Der || n->op == Op::Time;
  });
  return varying;
}

class EventExtractor {
 public:
  explicit EventExtractor(DaeSystem& dae)
      : dae_(dae), aliases_(dae.derivative_aliases.begin(), dae.derivative_aliases.end()),
        without_derivative_aliases_([this](const Node* leaf) -> const Node* {
          auto it = aliases_.find(leaf);
          return it == aliases_.end() ? nullptr : it->second;
        }) {}

  void run() {
    // Discrete definitions and when-clauses were written on variables that
    // earlier passes may have removed: they read what replaced them.
    Rewriter current([this](const Node* leaf) -> const Node* {
      const bool derivative = leaf->op == Op::Der && leaf->arg[0]->op == Op::Var;
      if (leaf->op != Op::Var && !derivative) return nullptr;
      const int v = dae_.variable_of.find(derivative ? leaf->arg[0] : leaf);
      if (v < 0 || !dae_.variables[v].definition) return nullptr;
      const Expr value(dae_.variables[v].definition);
      return derivative ? der(value).node() : value.node();
    });
    std::vector<Expr*> hybrid;
    for (auto& d : dae_.discretes)
      if (d.defined) hybrid.push_back(&d.definition);
    for (auto& w : dae_.whens) {
      for (auto& c : w.conditions) hybrid.push_back(&c);
      for (auto& a : w.actions) hybrid.push_back(&a.value);
    }
    for (Expr* e : hybrid) *e = current(*e);

    // What no_event() wraps is left alone: no_event() wraps each relation
    // written in it on its own (expr.hpp), so what the compiler substituted
    // into a wrapped node's arguments since (a driver's "standing" test read
    // through a pedal clamp) keeps its events.
    std::vector<const Node*> delayed_roots;
    std::vector<const Node*> roots;
    for (const auto& eq : dae_.equations) roots.push_back(eq.residual.node());
    for (const auto& v : dae_.variables)
      if (v.definition) roots.push_back(v.definition);
    for (const Expr* e : hybrid) roots.push_back(e->node());
    bool any_event = false;
    for_each_postorder(roots, [&](const Node* n) {
      if (n->op == Op::NoEvent) quiet_.set(n->arg[0], n->arg[0]);
      // A delayed argument is evaluated literally at past instants, never frozen.
      if (is_delay(n->op)) delayed_roots.push_back(n);
      any_event |= generates_event(n->op);
    });
    if (!any_event) return;
    for_each_postorder(delayed_roots, [&](const Node* n) {
      quiet_.set(n, n);
      delayed_.set(n, n);
    });
    // Definitions first: an observed variable's equation is where its relation
    // was written; the equations IDA solves may read it through several of them.
    // In solve order, a relation is met first in the variable computed from it,
    // before the variables whose definitions read that one.
    auto origin = [&](int index) { return index >= 0 ? dae_.origins[index] : std::string(); };
    std::vector<DaeVariable*> defined;
    for (auto& v : dae_.variables)
      if (v.definition) defined.push_back(&v);
    std::stable_sort(defined.begin(), defined.end(), [](const DaeVariable* a, const DaeVariable* b) {
      return static_cast<unsigned>(a->solved_from) < static_cast<unsigned>(b->solved_from);  // unsolved last
    });
    for (DaeVariable* v : defined) {
      origin_ = v->solved_from >= 0 ? origin(dae_.consumed_equations[v->solved_from].origin) : std::string();
      v->definition = rewrite(Expr(v->definition)).node();
    }
    for (auto& eq : dae_.equations) {
      origin_ = origin(eq.origin);
      eq.residual = rewrite(eq.residual);
    }
    for (auto& d : dae_.discretes) {
      origin_ = origin(d.origin);
      if (d.defined) d.definition = rewrite(d.definition);
    }
    for (auto& w : dae_.whens) {
      origin_ = origin(w.origin);
      for (auto& c : w.conditions) c = rewrite(c);
      for (auto& a : w.actions) a.value = rewrite(a.value);
    }
  }

 private:
  Expr rewrite(const Expr& e) {
    for_each_postorder(e.node(), [&](const Node* n) {
      if (n->arity() == 0 || n->op == Op::Der) {
        memo_.set(n, n);
        return;
      }
      // Nodes are shared by content, so a node under no_event() may stand
      // outside one too (a steering angle read in a wheel's noEvent speed
      // regularization and in its heading). Such nodes make no state events
      // (their root functions would chase what no_event() hides), but a
      // relation on time alone is still a time event: the integrator must stop
      // at the input's corner wherever the input is read (issue 31).
      const bool quiet = quiet_.get(n) != nullptr;
      Expr x[3];
      bool unchanged = true;
      for (int i = 0; i < n->arity(); ++i) {
        x[i] = Expr(memo_.get(n->arg[i]));
        unchanged &= x[i].node() == n->arg[i];
      }
      Expr rebuilt = unchanged ? Expr(n) : remake(n, x);
      if (generates_event(n->op) && time_varying(Expr(n)) && (!quiet || (is_time_relation(n) && !delayed_.get(n))))
        rebuilt = with_mode(n, x);
      memo_.set(n, rebuilt.node());
    }, [&](const Node* n) { return memo_.get(n) != nullptr; });
    return Expr(memo_.get(e.node()));
  }

  // The frozen form of an event-generating node; children already rewritten.
  Expr with_mode(const Node* n, const Expr* x) {
    Expr a(n->arg[0]);
    Expr b = n->arity() > 1 ? Expr(n->arg[1]) : Expr(0.0);
    // Relations and indicators read the relations nested in them through their
    // modes: the event iteration settles inner modes first, then the outer ones
    // (a gearbox reading a gear that a shift schedule just switched).
    Expr xa = x[0], xb = n->arity() > 1 ? x[1] : Expr(0.0);
    switch (n->op) {
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return mode(Expr(n), make(n->op, xa, xb), xa - xb, false);
      // abs, min and max choose between two values that are equal where the
      // choice switches: continuous across their events.
      case Op::Abs: return ifelse(mode(a >= 0.0, xa >= 0.0, xa, true), x[0], -x[0]);
      case Op::Sign:
        return ifelse(mode(a > 0.0, xa > 0.0, xa, false), 1.0, ifelse(mode(a < 0.0, xa < 0.0, xa, false), -1.0, 0.0));
      case Op::Min: return ifelse(mode(a < b, xa < xb, xa - xb, true), x[0], x[1]);
      case Op::Max: return ifelse(mode(a > b, xa > xb, xa - xb, true), x[0], x[1]);
      default: return Expr(n);
    }
  }

  // A relation whose indicator is c·time + p (c a nonzero number, p parametric): a time event.
  // With `frozen_allowed`, p may also read values frozen between events
  // (time >= pre(next_breakpoint)): an instant the runtime reads anew after
  // each event, still hit exactly instead of located by root finding.
  bool time_event_indicator(const Expr& indicator, Expr* event_time = nullptr, bool frozen_allowed = false) const {
    if (!unknown_leaves(indicator).empty()) return false;
    bool only_parameters = true;
    for_each_postorder(indicator.node(), [&](const Node* leaf) {  // a frozen relation inside is not a parameter
      if (leaf->op == Op::Param && !dae_.parameter_of.contains(leaf)) only_parameters = false;
    });
    const Expr slope = diff(indicator, time_symbol());
    if ((!only_parameters && !frozen_allowed) || !slope.is_const() || slope.value() == 0.0) return false;
    Rewriter at_zero([](const Node* leaf) { return leaf->op == Op::Time ? Expr(0.0).node() : nullptr; });
    const Expr offset = at_zero(indicator);
    bool frozen = !only_parameters;
    for_each_postorder(offset.node(), [&](const Node* leaf) { frozen |= leaf->op == Op::Discrete; });
    if (frozen ? !frozen_allowed || time_varying(offset) || contains_delay(offset.node()) : !is_parametric(offset))
      return false;
    if (event_time) *event_time = -offset / slope;
    return true;
  }
  bool is_time_relation(const Node* n) const {
    switch (n->op) {
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return time_event_indicator(Expr(n->arg[0]) - Expr(n->arg[1]));
      default: return false;
    }
  }

  // `original` names the relation (one mode per distinct relation); `relation`
  // is its form over the modes of the relations nested in it; `continuous`:
  // made for abs, min or max (EventMode::continuous).
  Expr mode(const Expr& original, const Expr& relation, const Expr& indicator, bool continuous) {
    // One mode, one root function for relations that are the same once
    // derivative aliases are read (`v > 0` and `der(s) > 0` with v = der(s)),
    // and for `b < a` and `a > b`.
    Expr canonical = without_derivative_aliases_(original);
    if (canonical.op() == Op::Gt) canonical = make(Op::Lt, canonical.arg(1), canonical.arg(0));
    if (canonical.op() == Op::Ge) canonical = make(Op::Le, canonical.arg(1), canonical.arg(0));
    if (auto it = mode_of_.find(canonical.node()); it != mode_of_.end()) {
      if (dae_.modes[it->second].origin.empty()) dae_.modes[it->second].origin = origin_;
      dae_.modes[it->second].continuous &= continuous;  // shared with a relation written as such: not only continuous
      return Expr(dae_.modes[it->second].symbol);
    }
    EventMode m;
    const std::string mode_name = "mode" + std::to_string(dae_.modes.size());
    m.symbol = derived_symbol(Op::Param, nullptr, mode_name, mode_name).node();
    // Root functions read states rather than their derivatives where a
    // derivative alias allows (der(phi) is w): IDA's y' comes from its
    // interpolating polynomial and moves when an event re-initializes it, so a
    // relation on it can switch back and forth at one instant (a clutch at
    // zero slip would chatter).
    m.relation = without_derivative_aliases_(relation);
    m.indicator = without_derivative_aliases_(indicator);
    m.description = dae_.print(without_derivative_aliases_(original));
    m.time_event = time_event_indicator(m.indicator, &m.event_time, true);
    m.follows_modes = !time_varying(m.indicator) && !contains_delay(m.indicator.node());
    m.continuous = continuous;
    mode_of_[canonical.node()] = dae_.modes.size();
    m.origin = origin_;
    dae_.modes.push_back(std::move(m));
    return Expr(dae_.modes.back().symbol);
  }

  DaeSystem& dae_;
  std::unordered_map<const Node*, const Node*> aliases_;
  Rewriter without_derivative_aliases_;
  std::unordered_map<const Node*, std::size_t> mode_of_;  // relation (as a < or <=) -> index in modes
  std::string origin_;  // the component of the equation being rewritten
  NodeMemo quiet_;    // nodes no_event() wraps or under a delay (and perhaps read elsewhere too)
  NodeMemo delayed_;  // under a delay: evaluated literally at past instants
  NodeMemo memo_;
};

}  // namespace

void extract_events(DaeSystem& dae) {
  EventExtractor(dae).run();
  long time_events = 0, following = 0;
  for (const auto& m : dae.modes) {
    time_events += m.time_event;
    following += m.follows_modes;
  }
  PassReport& r = dae.report.add("events");
  r.counts = {{"modes", static_cast<long>(dae.modes.size())},
              {"time_events", time_events},
              {"following_modes", following},
              {"state_events", static_cast<long>(dae.modes.size()) - time_events - following}};
  // Each root function IDA will watch, and where it comes from: the list a
  // user reads to see why a model steps where it does.
  const long listed = 50;
  for (const auto& m : dae.modes) {
    if (m.time_event || m.follows_modes) continue;
    if (static_cast<long>(r.notes.size()) == listed) {
      r.notes.push_back("... (" + std::to_string(dae.modes.size() - time_events - following - listed) +
                        " more root functions)");
      break;
    }
    r.notes.push_back("root function: " + m.description + (m.origin.empty() ? "" : "  [" + m.origin + "]") +
                      (m.continuous ? "  (continuous: abs, min or max)" : ""));
  }
}

// What the event iteration computes: the discrete variables, the when-clauses, the clocks.
void report_hybrid(DaeSystem& dae) {
  if (dae.discretes.empty() && dae.whens.empty()) return;
  PassReport& r = dae.report.add("hybrid");
  // A noise block's generator, printed out in full, would fill megabytes.
  auto print = [&](const Expr& e) { return dae.print(e, 240); };
  long declared = 0, samples = 0;
  const char* kinds[] = {"Real", "Boolean", "Integer"};
  for (const auto& d : dae.discretes) {
    const std::string origin = d.origin >= 0 ? "  [" + dae.origins[d.origin] + "]" : "";
    switch (d.role) {
      case DaeDiscrete::Role::declared:
        ++declared;
        r.notes.push_back("discrete " + std::string(kinds[static_cast<int>(d.attributes.kind)]) + " " + d.name +
                          (d.defined ? " = " + print(d.definition) : " (assigned in when-clauses)") + origin);
        break;
      case DaeDiscrete::Role::sample:
        ++samples;
        r.notes.push_back("sample: every " + print(d.clock.interval) + " s from " + print(d.clock.start) +
                          " s" + origin);
        break;
      case DaeDiscrete::Role::initial: break;
    }
  }
  for (const auto& w : dae.whens) {
    std::string text = "when ";
    for (std::size_t i = 0; i < w.conditions.size(); ++i) text += (i ? " or " : "") + print(w.conditions[i]);
    text += ":";
    std::string arguments;
    for (const auto& a : w.actions) {
      if (a.is_argument())
        arguments += (arguments.empty() ? "" : ", ") + print(a.value);
      else
        text += a.discrete >= 0 ? " " + dae.discretes[a.discrete].name + " := " + print(a.value) + ";"
                                : " reinit(" + dae.variables[a.variable].name + ", " + print(a.value) + ");";
    }
    if (w.call) {
      std::string results;
      for (int k : w.call_results) results += (results.empty() ? "" : ", ") + dae.discretes[k].name;
      text += " (" + results + ") := external(" + arguments + ");";
    }
    r.notes.push_back(text + "  [" + dae.origins[w.origin] + "]");
  }
  r.counts = {{"discrete_variables", declared}, {"when_clauses", static_cast<long>(dae.whens.size())},
              {"samples", samples}};
}

}  // namespace acausal
