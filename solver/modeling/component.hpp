// Components, connectors, variables and parameters: the modeling vocabulary.
//
// A component declares its parameters, variables and connectors as members
// and writes its equations in the constructor:
//
//   struct Inertia : Component {
//     rotational::Flange flange_a{*this, "flange_a"}, flange_b{*this, "flange_b"};
//     Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 0});
//     Variable w = variable("w", {.unit = "rad/s"});
//     ...
//     explicit Inertia(std::string name) : Component(std::move(name)) { equation(...); }
//   };
#pragma once

#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/symbolic/errors.hpp"
#include "solver/symbolic/expr.hpp"
#include "solver/modeling/hybrid.hpp"

namespace acausal {

class Component;
class Connector;

/// How strongly a variable should (not) be chosen as a state by index reduction.
enum class StateSelect { never, avoid, default_, prefer, always };

struct VariableAttributes {
  std::string unit;
  double start = 0.0;
  bool fixed = false;  // fixed = true makes `var = start` an initial equation
  double nominal = 1.0;
  StateSelect state = StateSelect::default_;
  std::string description;
};

struct ParameterAttributes {
  std::string unit;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::string description;
  /// Fixed at compile(): the equations chosen by it are decided then, and
  /// Simulator::set_parameter refuses to change it.
  bool structural = false;
  /// Named values ({"NoInit", "SteadyState", ...}): the parameter's value is
  /// the index of one (0-based). A parameter with choices is structural.
  std::vector<std::string> choices;
  /// Made by compile() for each unconnected top-level RealInput: the model's
  /// input, set from outside like a parameter (a value, or step by step).
  bool input = false;
};

/// An initial equation, applied when `active` (an expression of structural
/// parameters) is true at compile(). One that sets a variable's value
/// (`start_of`) gives way to a start value the user sets on that variable.
struct InitialEquation {
  Equation equation;
  Expr active;
  NodeRef start_of;
};

/// A time-varying unknown; use it in expressions like any Expr.
class Variable : public Expr {
 public:
  Variable() = default;
  explicit Variable(Expr symbol) : Expr(symbol) {}
};

/// A named constant that can be changed after compilation.
class Parameter : public Expr {
 public:
  Parameter() = default;
  explicit Parameter(Expr symbol) : Expr(symbol) {}
};

/// How a connector member takes part in connections.
enum class Causality { potential, flow, input, output, internal };

struct VariableDecl {
  std::string name;  // local to its component, e.g. "w" or "flange_a.phi"
  Expr symbol;
  VariableAttributes attributes;
  Causality causality = Causality::internal;
  bool start_given = false;
};

struct ParameterDecl {
  std::string name;
  Expr symbol;
  double value;
  ParameterAttributes attributes;
};

struct DiscreteDecl {
  std::string name;
  Expr symbol;
  DiscreteAttributes attributes;
};

struct ConnectorMember {
  std::string name;  // within the connector ("phi"); empty for a plain signal
  Expr symbol;
  Causality causality;
  bool booked = true;  // its pair's power enters the energy books (see Connector::unbooked)
};

/// How the energy books read the power through a connector from its k-th
/// potential and k-th flow: mechanics carries der(potential)·flow (phi, tau),
/// an electrical pin potential·flow (v·i), a heat port the flow itself
/// (Q_flow is already a power).
enum class PortPower { rate_of_potential_times_flow, potential_times_flow, flow };

/// A group of variables through which components interact. Subclasses declare
/// members with potential(), flow() or signal(); connect() joins connectors of
/// the same type.
class Connector {
 public:
  Connector(Component& owner, std::string name, std::string type,
            PortPower power = PortPower::rate_of_potential_times_flow);
  Connector(const Connector&) = delete;
  Connector& operator=(const Connector&) = delete;
  virtual ~Connector() = default;

  Component& owner() const { return *owner_; }
  const std::string& name() const { return name_; }
  const std::string& type() const { return type_; }
  const std::vector<ConnectorMember>& members() const { return members_; }
  PortPower port_power() const { return power_; }
  /// "inertia.flange_a"
  std::string path() const;

  Variable potential(const std::string& member, VariableAttributes attributes = {});
  Variable flow(const std::string& member, VariableAttributes attributes = {});
  /// A signal member; an empty member name makes the connector itself the signal.
  Variable signal(Causality direction, const std::string& member, VariableAttributes attributes = {});
  /// A Boolean or Integer signal member: a discrete variable of the owner. An
  /// input is defined by its connection (an unconnected one is a ModelError);
  /// an output by the owner's equation or when-clauses.
  Discrete discrete_signal(Causality direction, const std::string& member, DiscreteAttributes attributes);
  /// Leaves the pair of `member` (a potential or a flow) out of the energy
  /// books' port power: a quasi-static pair whose work the components on
  /// either side book in closed form instead (a tire's vertical spring), so
  /// that the books never ask for der() of a potential that the model only
  /// knows algebraically (that would raise the index of the model).
  void unbooked(const std::string& member);

 private:
  Variable declare(const std::string& member, VariableAttributes attributes, Causality causality);

  Component* owner_;
  std::string name_;
  std::string type_;
  PortPower power_;
  std::vector<ConnectorMember> members_;
};

using ParameterValues = std::vector<std::pair<std::string, double>>;

/// What a component declares about energy, for the harness's books: the
/// power entering through its connectors (by each connector's PortPower rule, summed) plus
/// `supplied` equals der(`stored`) + `dissipated`. A component that declares
/// nothing is lossless. An ideal source (`source`) supplies whatever its
/// connectors deliver.
struct EnergyDeclaration {
  Expr stored;      // J
  Expr dissipated;  // W, >= 0
  Expr supplied;    // W, from outside the model: fuel, gravity, a quasi-static support
  Expr dissipated_at_events;  // J, lost at once at events (an impact by reinit), a discrete sum
  bool source = false;
};

class Component {
 public:
  explicit Component(std::string name);
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;
  virtual ~Component();

  const std::string& name() const { return name_; }
  /// Dotted path from the top model (empty for the model itself).
  std::string path() const;
  /// Class name for messages ("rotational::Inertia").
  virtual std::string type_name() const;
  /// Overrides type_name() (components defined in Python give their class name).
  void set_type_name(std::string name) { type_name_ = std::move(name); }

  /// Adds a sub-component constructed as T(name, options...), then assigns
  /// parameter values by name. The options choose what T is built of
  /// (vehicle::CarOptions: a car with ABS).
  template <class T, class... Options>
  T& add(const std::string& name, const ParameterValues& values = {}, Options&&... options) {
    check_child_name(name);
    auto child = std::make_unique<T>(name, std::forward<Options>(options)...);
    T& ref = *child;
    adopt(ref, std::move(child), values);
    return ref;
  }
  /// Adds an already constructed sub-component, owned from now on by this one.
  Component& add_component(std::unique_ptr<Component> child, const ParameterValues& values = {});
  /// Adds a sub-component owned elsewhere (a component defined in Python); the
  /// caller keeps it alive as long as this component.
  Component& add_external(Component& child);
  /// Keeps a connector created at run time (by the Python bindings) alive with its owner.
  Connector& keep_connector(std::unique_ptr<Connector> connector);

  /// Joins two connectors of this component or of any component below it: a
  /// model can connect a sensor to `car.body.contact_front` directly (the
  /// connection belongs to the closest component that contains both ends).
  void connect(Connector& a, Connector& b);

  /// Assigns a parameter of this component by its local name, or of a part by
  /// its dotted path ("body.Crr"), checking bounds.
  void set_parameter(const std::string& name, double value);
  /// Assigns a parameter with choices by the choice's name
  /// (set_parameter("wheel_rl.tire_law", "pacejka")); an unknown name is a
  /// ModelError listing the choices.
  void set_parameter(const std::string& name, const std::string& choice);
  /// Assigns `value` to every parameter of this component and its parts whose
  /// dotted path (relative to this component) matches `pattern`: `*` matches
  /// within one name segment ("wheel_*.mu"), `**` across segments ("**.mu"),
  /// `?` one character. Returns how many were set; none matching is a ModelError.
  int set_parameters(const std::string& pattern, double value);

  Variable variable(const std::string& name, VariableAttributes attributes = {});
  Parameter parameter(const std::string& name, double default_value, ParameterAttributes attributes = {});
  /// A variable that changes only at events (hybrid models): define it by one
  /// equation `x == expr`, or assign it in when-clauses.
  Discrete discrete(const std::string& name, DiscreteAttributes attributes = {});
  /// when(condition, {x == expr, reinit(state, expr)}): the actions happen once,
  /// at the instant the condition becomes true (any of several conditions).
  void when(const Expr& condition, std::vector<WhenAction> actions);
  void when(std::vector<Expr> conditions, std::vector<WhenAction> actions);
  /// when(condition, call): call.function runs once at each such instant with
  /// the arguments' values and assigns its results (hybrid.hpp, ExternalFunction).
  void when(const Expr& condition, ExternalCall call);
  /// Modelica's assert(condition, message) at level error: the run ends with
  /// a SimulationError naming this component and `message` at the instant
  /// `condition` stops holding (an event: the crossing is located, not
  /// stepped over), or at the start if it never held. The rows up to that
  /// instant stay in the error's partial result.
  void assertion(const Expr& condition, std::string message);
  /// Adds an equation; the index lets a component swap it later (replace_equation).
  std::size_t equation(const Equation& eq);
  /// An initial equation; with `active`, only when that condition on structural
  /// parameters holds at compile() (an MSL initType choice).
  void initial_equation(const Equation& eq, const Expr& active = Expr(1.0));
  /// The initial condition `v = value` (value: an expression of parameters),
  /// when `active`; a start value the user sets on v (Model::set_start)
  /// replaces it instead of conflicting with it.
  void initial_value(const Expr& v, const Expr& value, const Expr& active = Expr(1.0));
  /// Replaces an equation written in the constructor (a law a setter can
  /// change before compilation, like a road friction table).
  void replace_equation(std::size_t index, const Equation& eq);
  /// A condition on parameters that every run must satisfy ("a + b = L");
  /// checked at compile() and at each simulate(), naming the values involved.
  void require(const Expr& condition, std::string requirement);
  /// A condition a sensible model meets but that is not a law of the
  /// component (a wheel carries a load). Where compile() can decide it from
  /// the parameters alone (the variables in it reduce to constants and
  /// parameters, as an unconnected flow does to 0) and finds it false, the
  /// compile report gets a warning of this `kind` naming this component,
  /// `variable` and `message`. Otherwise it is not checked.
  void expect(const Expr& condition, std::string kind, const Expr& variable, std::string message);
  /// Declares the start values of every state inside this component (its
  /// parts' too) intended as declared, 0 included: an assembly that starts at
  /// rest by design. compile() then gives no default_start warning for them.
  void intend_default_starts() { default_starts_intended_ = true; }
  bool default_starts_intended() const { return default_starts_intended_; }
  struct Expectation {
    Expr condition;
    std::string kind;
    Expr variable;
    std::string message;
  };
  /// Declares a connector that exists only while `active` holds, a condition
  /// on structural parameters (MSL's conditional connectors: a heat port with
  /// useHeatPort). The component writes its equations so that, inactive, the
  /// connector's potentials are defined and its flows are left to the
  /// "unconnected flow is zero" rule; connecting it while inactive is refused
  /// at compile(), naming `condition` ("use_heat_port = true").
  void conditional_connector(const Connector& k, const Expr& active, std::string condition);

  /// Energy bookkeeping (see EnergyDeclaration); each call adds to what a base declared.
  void stored_energy(const Expr& energy) { energy_.stored = energy_.stored + energy; }
  void dissipated_power(const Expr& power) { energy_.dissipated = energy_.dissipated + power; }
  void supplied_power(const Expr& power) { energy_.supplied = energy_.supplied + power; }
  /// Energy lost at once at events (an inelastic impact set by reinit), as the
  /// running total a discrete variable keeps.
  void dissipated_at_events(const Expr& energy) { energy_.dissipated_at_events = energy_.dissipated_at_events + energy; }
  void energy_source() { energy_.source = true; }
  const EnergyDeclaration& energy() const { return energy_; }

  // Read access for the compiler.
  Component* parent() const { return parent_; }
  const std::deque<VariableDecl>& variables() const { return variables_; }
  const std::deque<ParameterDecl>& parameters() const { return parameters_; }
  const std::vector<Equation>& equations() const { return equations_; }
  const std::deque<DiscreteDecl>& discretes() const { return discretes_; }
  const std::vector<WhenClause>& whens() const { return whens_; }
  const std::vector<InitialEquation>& initial_equations() const { return initial_equations_; }
  const std::vector<std::pair<Expr, std::string>>& requirements() const { return requirements_; }
  const std::vector<Expectation>& expectations() const { return expectations_; }
  struct ConditionalConnector {
    const Connector* connector;
    Expr active;
    std::string condition;
  };
  const std::vector<ConditionalConnector>& conditional_connectors() const { return conditional_connectors_; }
  const std::vector<Connector*>& connectors() const { return connectors_; }
  const std::vector<Component*>& children() const { return children_; }
  const std::vector<std::pair<Connector*, Connector*>>& connections() const { return connections_; }
  Component* child(const std::string& name) const;
  VariableDecl* find_variable(const std::string& local_name);

  /// Sets the start value of a variable by its dotted path below this
  /// component ("engine.w"); fixed = true makes `variable = value` an initial
  /// condition. An assembly sets its parts' starts this way.
  void set_start(const std::string& path, double value, bool fixed = true);

 private:
  friend class Connector;
  void check_child_name(const std::string& name) const;
  void claim_name(const std::string& name, const char* kind) const;
  void adopt(Component& child, std::unique_ptr<Component> owned, const ParameterValues& values);

  std::string name_;
  std::string type_name_;
  Component* parent_ = nullptr;
  std::deque<VariableDecl> variables_;
  std::deque<ParameterDecl> parameters_;
  std::vector<Equation> equations_;
  std::deque<DiscreteDecl> discretes_;
  std::vector<WhenClause> whens_;
  std::vector<InitialEquation> initial_equations_;
  std::vector<std::pair<Expr, std::string>> requirements_;
  std::vector<Expectation> expectations_;
  bool default_starts_intended_ = false;
  std::vector<ConditionalConnector> conditional_connectors_;
  EnergyDeclaration energy_;
  std::vector<Connector*> connectors_;
  std::vector<Component*> children_;
  std::vector<std::unique_ptr<Component>> owned_children_;
  std::vector<std::unique_ptr<Connector>> owned_connectors_;
  std::unordered_map<std::string, Component*> child_by_name_;
  std::vector<std::pair<Connector*, Connector*>> connections_;
};

/// 1 when a choice parameter (ParameterAttributes::choices) holds the choice
/// with this index, else 0: `initial_equation(der(y) == 0, chosen(initType, SteadyState))`.
inline Expr chosen(const Expr& parameter, int index) { return parameter > index - 0.5 && parameter < index + 0.5; }

/// Checks a parameter value against its bounds; `path` names it in the message.
void check_parameter_value(const std::string& path, double value, const ParameterAttributes& attributes);

/// The index of `choice` among the choices of parameter `path`; a ModelError
/// listing them when it is not one (or when the parameter takes a number).
double choice_index(const std::string& path, const ParameterAttributes& attributes, const std::string& choice);

/// Glob match of a dotted name: `*` within a segment, `**` across segments, `?` one character.
bool path_matches(std::string_view pattern, std::string_view path);

}  // namespace acausal
