// Hybrid models (Modelica semantics, Language Specification chapter 8):
// discrete variables that change only at events, the operators on them, and
// when-clauses. A component declares them (Component::discrete, ::when); the
// simulator's event iteration computes them.
#pragma once

#include <optional>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "solver/symbolic/expr.hpp"

namespace acausal {

/// Real, Boolean and Integer discrete variables are all doubles: a Boolean
/// holds 0 or 1, an Integer a whole number. The kind is for reports and checks.
enum class DiscreteKind { real, boolean, integer };

struct DiscreteAttributes {
  std::string unit;
  double start = 0.0;  // the value before the first event, and pre(x) at initialization
  DiscreteKind kind = DiscreteKind::real;
  std::string description;
};

/// A variable that changes only at events; use it in expressions like any Expr.
/// It is defined by one equation `x == expr` (evaluated at every event
/// iteration) or assigned in when-clauses (holding its value in between).
class Discrete : public Expr {
 public:
  Discrete() = default;
  explicit Discrete(Expr symbol) : Expr(symbol) {}
};

/// pre(e): e just before the event. Every discrete variable in e is read as
/// its value before the current event instant (`x.start` at initialization);
/// continuous variables are continuous until a reinit, so they read as they are.
Expr pre(const Expr& e);
/// edge(b) = b and not pre(b): true at the instant b becomes true.
Expr edge(const Expr& b);
/// change(x) = x <> pre(x).
Expr change(const Expr& x);
/// a == b as a condition (Modelica's == on Integers and Booleans: a mode
/// compared with Stuck). Exact, so meant for discrete values.
Expr equal(const Expr& a, const Expr& b);
/// True during initialization (the event iteration at the start), false after.
Expr initial();
/// True at the instants start + k·interval (k = 0, 1, ...), which are time
/// events; false in between. start and interval: parameter expressions, interval > 0.
Expr sample(const Expr& start, const Expr& interval);

/// One statement of a when-clause: `x == value` assigns a discrete variable,
/// reinit(state, value) sets a state.
struct WhenAction {
  WhenAction(const Equation& assignment);  // NOLINT: written as `x == value` in a list
  WhenAction(Expr target, Expr value, bool reinit) : target(std::move(target)), value(std::move(value)), reinit(reinit) {}
  Expr target;
  Expr value;
  bool reinit = false;
};
WhenAction reinit(const Expr& state, const Expr& value);

/// A function with state of its own outside the model's equations (an
/// imported FMU): a when-clause calls it once at each instant it fires, with
/// the values of its arguments, and its results assign discrete variables.
/// Each run makes its own instance, so runs of one model stay independent.
class ExternalFunction {
 public:
  class Instance {
   public:
    virtual ~Instance() = default;
    /// Throws std::runtime_error saying what went wrong; the run ends with it.
    virtual void call(double time, std::span<const double> arguments, std::span<double> results) = 0;
  };
  virtual ~ExternalFunction() = default;
  /// One run's instance; the run spans [t_start, t_end].
  virtual std::unique_ptr<Instance> instantiate(double t_start, double t_end) const = 0;
};

struct ExternalCall {
  std::shared_ptr<const ExternalFunction> function;  // none: the clause calls nothing
  std::vector<Expr> arguments;
  std::vector<Discrete> results;
};

/// Acts once at the instant one of its conditions becomes true: its
/// assignments, then its external call. An assertion (Component::assertion)
/// is a clause without actions whose `assertion` message ends the run
/// whenever its condition holds.
struct WhenClause {
  std::vector<Expr> conditions;
  std::vector<WhenAction> actions;
  std::string assertion;
  ExternalCall call;
};

// For the compiler: what a Discrete leaf stands for.
/// The pre() leaf of a discrete leaf (made on first use), and back.
const Node* pre_symbol(const Node* discrete);
const Node* pre_of(const Node* pre);  // null unless `pre` is a pre() leaf
bool is_initial_symbol(const Node* leaf);
struct SampleClock {
  Expr start, interval;
};
std::optional<SampleClock> sample_clock(const Node* leaf);  // empty unless a sample() leaf

}  // namespace acausal
