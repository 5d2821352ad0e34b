#include "solver/modeling/component.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace acausal {

namespace {

bool valid_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

// What `name` already is in c (a variable, parameter or discrete variable), or nullptr.
const char* declared_kind(const Component& c, const std::string& name) {
  const char* kind = nullptr;
  for (const auto& v : c.variables())
    if (v.name == name) kind = "variable";
  for (const auto& p : c.parameters())
    if (p.name == name) kind = "parameter";
  for (const auto& d : c.discretes())
    if (d.name == name) kind = "discrete variable";
  return kind;
}

}  // namespace

// --- Connector ---

Connector::Connector(Component& owner, std::string name, std::string type, PortPower power)
    : owner_(&owner), name_(std::move(name)), type_(std::move(type)), power_(power) {
  if (!valid_identifier(name_))
    throw ModelError("connector name '" + name_ + "' in '" + owner.name() + "' is not an identifier");
  if (owner.child(name_))
    throw ModelError("component '" + owner.name() + "' (" + owner.type_name() + ") declares connector '" + name_ +
                     "' and a part of that name: a name belongs to one of them");
  owner.connectors_.push_back(this);
}

void Connector::unbooked(const std::string& member) {
  for (auto& m : members_)
    if (m.name == member) {
      m.booked = false;
      return;
    }
  throw ModelError("connector " + path() + " has no member '" + member + "' to leave out of the energy books");
}

std::string Connector::path() const { return join(owner_->path(), name_); }

Variable Connector::declare(const std::string& member, VariableAttributes attributes, Causality causality) {
  std::string local = member.empty() ? name_ : name_ + "." + member;
  Variable v = owner_->variable(local, std::move(attributes));
  owner_->variables_.back().causality = causality;
  members_.push_back({member, v, causality});
  return v;
}

Variable Connector::potential(const std::string& member, VariableAttributes attributes) {
  return declare(member, std::move(attributes), Causality::potential);
}
Variable Connector::flow(const std::string& member, VariableAttributes attributes) {
  return declare(member, std::move(attributes), Causality::flow);
}
Variable Connector::signal(Causality direction, const std::string& member, VariableAttributes attributes) {
  if (direction != Causality::input && direction != Causality::output)
    throw ModelError("signal member of connector " + path() + " must be an input or an output");
  return declare(member, std::move(attributes), direction);
}

Discrete Connector::discrete_signal(Causality direction, const std::string& member, DiscreteAttributes attributes) {
  if (direction != Causality::input && direction != Causality::output)
    throw ModelError("signal member of connector " + path() + " must be an input or an output");
  Discrete d = owner_->discrete(member.empty() ? name_ : name_ + "." + member, std::move(attributes));
  members_.push_back({member, d, direction});
  return d;
}

// --- Component ---

Component::Component(std::string name) : name_(std::move(name)) {
  if (!valid_identifier(name_))
    throw ModelError("component name '" + name_ +
                     "' is not an identifier (letters, digits and '_', not starting with a digit)");
}

Component::~Component() = default;

std::string Component::path() const {
  if (!parent_) return "";
  return join(parent_->path(), name_);
}

std::string Component::type_name() const {
  if (!type_name_.empty()) return type_name_;
  int status = 0;
  const char* mangled = typeid(*this).name();
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string result = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  const std::string ns = "acausal::";
  if (result.rfind(ns, 0) == 0) result = result.substr(ns.size());
  return result;
}

void Component::check_child_name(const std::string& name) const {
  if (child(name))
    throw ModelError("duplicate component name '" + join(path(), name) + "': '" +
                     (name_.empty() ? std::string("model") : name_) + "' already has a component of that name");
  // `car.clutch` must name one thing: a part that shares a name with a
  // connector or a variable would hide it (or be hidden) in paths and in Python.
  const char* taken = declared_kind(*this, name);
  for (const Connector* k : connectors_)  // last: a signal connector is also a variable of its name
    if (k->name() == name) taken = "connector";
  if (taken)
    throw ModelError("component '" + (path().empty() ? name_ : path()) + "' (" + type_name() + ") has a " + taken +
                     " '" + name + "' and adds a part of that name: a name belongs to one of them");
}

Component* Component::child(const std::string& name) const {
  auto it = child_by_name_.find(name);
  return it == child_by_name_.end() ? nullptr : it->second;
}

VariableDecl* Component::find_variable(const std::string& local_name) {
  for (auto& v : variables_)
    if (v.name == local_name) return &v;
  return nullptr;
}

Component& Component::add_component(std::unique_ptr<Component> child, const ParameterValues& values) {
  check_child_name(child->name());
  Component& ref = *child;
  adopt(ref, std::move(child), values);
  return ref;
}

Component& Component::add_external(Component& child) {
  check_child_name(child.name());
  adopt(child, nullptr, {});
  return child;
}

Connector& Component::keep_connector(std::unique_ptr<Connector> connector) {
  if (&connector->owner() != this)
    throw ModelError("connector " + connector->path() + " belongs to another component than '" + name_ + "'");
  owned_connectors_.push_back(std::move(connector));
  return *owned_connectors_.back();
}

void Component::adopt(Component& c, std::unique_ptr<Component> owned, const ParameterValues& values) {
  if (c.parent_) throw ModelError("component '" + c.name() + "' already belongs to a model");
  c.parent_ = this;  // first, so that messages name the full path
  try {
    for (const auto& [name, value] : values) c.set_parameter(name, value);
  } catch (...) {
    c.parent_ = nullptr;  // a failed add leaves the model as it was
    throw;
  }
  children_.push_back(&c);
  child_by_name_[c.name()] = &c;
  if (owned) owned_children_.push_back(std::move(owned));
}

void check_parameter_value(const std::string& path, double value, const ParameterAttributes& a) {
  std::string unit = a.unit.empty() ? "" : " " + a.unit;
  if (!std::isfinite(value))
    throw ModelError("parameter " + path + " = " + format_number(value) + " is not a finite number");
  if (!a.choices.empty() && (value != std::floor(value) || value < 0 || value >= static_cast<double>(a.choices.size()))) {
    std::string named;
    for (std::size_t i = 0; i < a.choices.size(); ++i)
      named += (i ? ", " : "") + std::to_string(i) + " " + a.choices[i];
    throw ModelError("parameter " + path + " = " + format_number(value) + " is not one of its choices: " + named);
  }
  if (value < a.min || value > a.max) {
    std::string bounds;
    if (std::isfinite(a.min) && std::isfinite(a.max))
      bounds = "between " + format_number(a.min) + " and " + format_number(a.max);
    else if (std::isfinite(a.min))
      bounds = ">= " + format_number(a.min);
    else
      bounds = "<= " + format_number(a.max);
    throw ModelError("parameter " + path + " = " + format_number(value) + unit + " is out of bounds: it must be " +
                     bounds + unit);
  }
}

void Component::set_parameter(const std::string& name, double value) {
  // "body.Crr": a parameter of a part, as the flat model names it.
  if (const auto dot = name.find('.'); dot != std::string::npos) {
    const std::string part = name.substr(0, dot);
    auto it = child_by_name_.find(part);
    if (it == child_by_name_.end()) {
      std::vector<std::string> known;
      for (const Component* c : children_) known.push_back(c->name());
      throw UnknownNameError("component '" + (path().empty() ? name_ : path()) + "' (" + type_name() + ")", "part",
                             part, known, "");
    }
    it->second->set_parameter(name.substr(dot + 1), value);
    return;
  }
  for (auto& p : parameters_) {
    if (p.name == name) {
      check_parameter_value(join(path(), name), value, p.attributes);
      p.value = value;
      return;
    }
  }
  std::vector<std::string> known;
  std::string listed;
  for (const auto& p : parameters_) {
    known.push_back(p.name);
    listed += (listed.empty() ? "" : ", ") + p.name;
  }
  throw UnknownNameError("component '" + (path().empty() ? name_ : path()) + "' (" + type_name() + ")", "parameter",
                         name, known, "; its parameters are: " + (listed.empty() ? "(none)" : listed));
}

double choice_index(const std::string& path, const ParameterAttributes& a, const std::string& choice) {
  for (std::size_t i = 0; i < a.choices.size(); ++i)
    if (a.choices[i] == choice) return static_cast<double>(i);
  std::string listed;
  for (const auto& c : a.choices) listed += (listed.empty() ? "" : ", ") + c;
  throw ModelError("parameter " + path + " = '" + choice + "': " +
                   (a.choices.empty() ? std::string("it takes a number, not a choice name")
                                      : "not one of its choices: " + listed));
}

bool path_matches(std::string_view pattern, std::string_view path) {
  if (pattern.empty()) return path.empty();
  if (pattern.substr(0, 2) == "**") {
    for (std::size_t k = 0; k <= path.size(); ++k)
      if (path_matches(pattern.substr(2), path.substr(k))) return true;
    return false;
  }
  if (pattern[0] == '*') {
    for (std::size_t k = 0; k <= path.size(); ++k) {
      if (path_matches(pattern.substr(1), path.substr(k))) return true;
      if (k < path.size() && path[k] == '.') break;  // one segment only
    }
    return false;
  }
  if (path.empty()) return false;
  if (pattern[0] == '?' ? path[0] == '.' : pattern[0] != path[0]) return false;
  return path_matches(pattern.substr(1), path.substr(1));
}

void Component::set_parameter(const std::string& name, const std::string& choice) {
  const auto dot = name.rfind('.');
  Component* owner = this;
  if (dot != std::string::npos) {
    for (std::size_t pos = 0; pos < dot;) {
      const std::size_t next = std::min(name.find('.', pos), dot);
      Component* part = owner->child(name.substr(pos, next - pos));
      if (!part) return set_parameter(name, 0.0);  // throws, naming the missing part and the known ones
      owner = part;
      pos = next + 1;
    }
  }
  const std::string local = dot == std::string::npos ? name : name.substr(dot + 1);
  for (const auto& p : owner->parameters_)
    if (p.name == local) return owner->set_parameter(local, choice_index(join(owner->path(), local), p.attributes, choice));
  owner->set_parameter(local, 0.0);  // throws: no such parameter, listing those it has
}

int Component::set_parameters(const std::string& pattern, double value) {
  std::vector<std::pair<Component*, ParameterDecl*>> matched;
  auto collect = [&](auto& self, Component& c, const std::string& prefix) -> void {
    for (auto& p : c.parameters_)
      if (path_matches(pattern, prefix + p.name)) matched.emplace_back(&c, &p);
    for (Component* child : c.children_) self(self, *child, prefix + child->name() + ".");
  };
  collect(collect, *this, "");
  if (matched.empty())
    throw ModelError("set_parameters(\"" + pattern + "\"): no parameter of '" + (path().empty() ? name_ : path()) +
                     "' (" + type_name() + ") matches (`*` matches within a name, `**` across parts)");
  // All or nothing: a value out of one match's bounds leaves every one unchanged.
  for (auto& [c, p] : matched) check_parameter_value(join(c->path(), p->name), value, p->attributes);
  for (auto& [c, p] : matched) p->value = value;
  return static_cast<int>(matched.size());
}

// One name, one thing: a variable and a parameter of the same name would both
// be `component.name` in the flat model, and one would silently shadow the other.
void Component::claim_name(const std::string& name, const char* kind) const {
  const char* taken = declared_kind(*this, name);
  if (!taken) return;
  if (std::string_view(taken) == kind)
    throw ModelError("component '" + name_ + "' declares " + kind + " '" + name + "' twice");
  throw ModelError("component '" + name_ + "' declares '" + name + "' as a " + taken + " and as a " + kind +
                   ": a name belongs to one of them");
}

Variable Component::variable(const std::string& name, VariableAttributes attributes) {
  claim_name(name, "variable");
  if (!(attributes.nominal > 0 && std::isfinite(attributes.nominal)))
    throw ModelError("variable '" + join(name_, name) + "': nominal = " + format_number(attributes.nominal) +
                     " must be positive and finite (it scales the variable's absolute tolerance)");
  Expr symbol = make_variable_symbol(name);
  bool start_given = attributes.start != 0.0 || attributes.fixed;
  variables_.push_back({name, symbol, std::move(attributes), Causality::internal, start_given});
  return Variable(symbol);
}

Parameter Component::parameter(const std::string& name, double default_value, ParameterAttributes attributes) {
  claim_name(name, "parameter");
  attributes.structural |= !attributes.choices.empty();
  check_parameter_value(join(name_, name), default_value, attributes);
  Expr symbol = make_parameter_symbol(name);
  parameters_.push_back({name, symbol, default_value, std::move(attributes)});
  return Parameter(symbol);
}

Discrete Component::discrete(const std::string& name, DiscreteAttributes attributes) {
  claim_name(name, "discrete variable");
  if (!std::isfinite(attributes.start))
    throw ModelError("discrete variable '" + join(name_, name) + "': start = " + format_number(attributes.start) +
                     " is not finite");
  Expr symbol = make_discrete_symbol(name);
  discretes_.push_back({name, symbol, std::move(attributes)});
  return Discrete(symbol);
}

void Component::when(const Expr& condition, std::vector<WhenAction> actions) {
  when(std::vector<Expr>{condition}, std::move(actions));
}

void Component::when(std::vector<Expr> conditions, std::vector<WhenAction> actions) {
  if (conditions.empty()) throw ModelError("component '" + name_ + "': a when-clause needs a condition");
  whens_.push_back({std::move(conditions), std::move(actions)});
}

void Component::when(const Expr& condition, ExternalCall call) {
  if (!call.function) throw ModelError("component '" + name_ + "': a when-clause's external call needs a function");
  whens_.push_back({{condition}, {}, {}, std::move(call)});
}

void Component::assertion(const Expr& condition, std::string message) {
  whens_.push_back({{!condition}, {}, std::move(message)});
}

std::size_t Component::equation(const Equation& eq) {
  equations_.push_back(eq);
  return equations_.size() - 1;
}
void Component::replace_equation(std::size_t index, const Equation& eq) { equations_.at(index) = eq; }
void Component::initial_equation(const Equation& eq, const Expr& active) {
  initial_equations_.push_back({eq, active, nullptr});
}

void Component::initial_value(const Expr& v, const Expr& value, const Expr& active) {
  if (v.node()->op != Op::Var) throw ModelError(path() + ": initial_value needs a variable, not " + v.str());
  initial_equations_.push_back({v == value, active, v.node()});
}

void Component::require(const Expr& condition, std::string requirement) {
  if (!is_parametric(condition))
    throw ModelError(path() + ": require(" + requirement + ") must be a condition on parameters only");
  requirements_.emplace_back(condition, std::move(requirement));
}

void Component::expect(const Expr& condition, std::string kind, const Expr& variable, std::string message) {
  expectations_.push_back({condition, std::move(kind), variable, std::move(message)});
}

void Component::conditional_connector(const Connector& k, const Expr& active, std::string condition) {
  if (&k.owner() != this)
    throw ModelError("component '" + path() + "' declares connector '" + k.path() + "' conditional, which is not its own");
  conditional_connectors_.push_back({&k, active, std::move(condition)});
}

void Component::connect(Connector& a, Connector& b) {
  auto describe = [](const Connector& c) { return c.path() + " (" + c.type() + ")"; };
  for (Connector* c : {&a, &b}) {
    const Component* owner = &c->owner();
    while (owner && owner != this) owner = owner->parent_;
    if (!owner)
      throw ModelError("cannot connect " + c->path() + ": its component '" + c->owner().name() +
                       "' is not inside '" + (path().empty() ? name_ : path()) +
                       "' (a connector of another model? add its component to this model first, or connect from "
                       "the model that contains both ends)");
  }
  if (&a == &b) throw ModelError("cannot connect " + a.path() + " to itself");
  if (a.type() != b.type())
    throw ModelError("cannot connect " + describe(a) + " to " + describe(b) + ": incompatible connector types");
  // Signals: inside an enclosing component, an outside input drives inner inputs
  // and an inner output drives an outside output, so roles flip for outside connectors.
  auto drives = [this](const Connector& c) {
    bool outside = &c.owner() == this;
    for (const auto& m : c.members()) {
      if (m.causality == Causality::output) return !outside;
      if (m.causality == Causality::input) return outside;
    }
    return false;
  };
  bool is_signal = !a.members().empty() &&
                   (a.members()[0].causality == Causality::input || a.members()[0].causality == Causality::output);
  if (is_signal && drives(a) && drives(b))
    throw ModelError("cannot connect " + describe(a) + " to " + describe(b) +
                     ": both are outputs; a signal has exactly one source");
  connections_.emplace_back(&a, &b);
}

void Component::set_start(const std::string& variable_path, double value, bool fixed) {
  if (!std::isfinite(value))
    throw ModelError("set_start(" + variable_path + "): start value " + format_number(value) + " is not finite");
  // Descend through components as far as the path names them; the rest is the
  // variable's local name (which may itself contain a connector: "flange_a.phi").
  Component* c = this;
  std::size_t pos = 0;
  for (;;) {
    std::size_t dot = variable_path.find('.', pos);
    if (dot == std::string::npos) break;
    Component* next = c->child(variable_path.substr(pos, dot - pos));
    if (!next) break;
    c = next;
    pos = dot + 1;
  }
  VariableDecl* v = c->find_variable(variable_path.substr(pos));
  if (!v) {
    std::vector<std::string> known;
    auto collect = [&](auto& self, const Component& c, const std::string& prefix) -> void {
      for (const auto& var : c.variables()) known.push_back(prefix + var.name);
      for (const Component* child : c.children()) self(self, *child, prefix + child->name() + ".");
    };
    collect(collect, *this, "");
    throw UnknownNameError("set_start: " + type_name() + " '" + name() + "'", "variable", variable_path, known);
  }
  v->attributes.start = value;
  v->attributes.fixed = fixed;
  v->start_given = true;
}

}  // namespace acausal
