#include "introspection.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <unordered_map>

namespace py = pybind11;

namespace acausal::python {
namespace {

// Symbols are named as results name them: a part's path, or the component's
// own name before it is added to a model; a model's own variables have no prefix.
std::string symbol_name(const Component& c, const std::string& local) {
  if (c.parent()) return c.path() + "." + local;
  if (dynamic_cast<const Model*>(&c)) return local;
  return c.name() + "." + local;
}

const char* causality_name(Causality c) {
  switch (c) {
    case Causality::potential: return "potential";
    case Causality::flow: return "flow";
    case Causality::input: return "input";
    case Causality::output: return "output";
    case Causality::internal: break;
  }
  return "variable";
}

const char* state_select_name(StateSelect s) {
  switch (s) {
    case StateSelect::never: return "never";
    case StateSelect::avoid: return "avoid";
    case StateSelect::prefer: return "prefer";
    case StateSelect::always: return "always";
    case StateSelect::default_: break;
  }
  return "default";
}

const char* discrete_kind_name(DiscreteKind k) {
  switch (k) {
    case DiscreteKind::boolean: return "boolean";
    case DiscreteKind::integer: return "integer";
    case DiscreteKind::real: break;
  }
  return "real";
}

std::optional<double> finite(double x) { return std::isfinite(x) ? std::optional<double>(x) : std::nullopt; }

// What Python reads of each declared leaf, keyed by the leaf. The entries hold
// no handle: a leaf's entry goes when collect_expressions() frees the leaf.
class Registry final : public detail::WeakNodeMap {
 public:
  Registry() { detail::register_weak_node_map(this); }
  bool keep(detail::Marks&) override { return false; }
  void sweep(const detail::Marks& marks) override {
    std::erase_if(symbols, [&](const auto& entry) { return !marks.live(entry.first); });
  }
  std::unordered_map<const Node*, Symbol> symbols;
};

std::unordered_map<const Node*, Symbol>& registry() {
  static Registry* instance = new Registry();  // never destroyed: registered with the arena
  return instance->symbols;
}

Expr remember(Symbol s) {
  Expr e = std::move(s.expr);
  s.expr = Expr();
  registry()[e.node()] = std::move(s);
  return e;
}

const Symbol& symbol_of(const Expr& e, const char* attribute) {
  auto it = registry().find(e.node());
  if (it == registry().end())
    throw py::attribute_error("'" + e.str() + "' has no ." + attribute +
                              ": only a declared parameter or variable (inertia.J, inertia.w) has one");
  return it->second;
}

const VariableDecl* declaration_of(const Component& c, const Expr& symbol) {
  for (const auto& v : c.variables())
    if (v.symbol.same(symbol)) return &v;
  return nullptr;
}

}  // namespace

Expr parameter_symbol(const Component& c, const ParameterDecl& p) {
  Symbol s{p.symbol};
  s.name = symbol_name(c, p.name);
  s.kind = "parameter";
  s.unit = p.attributes.unit;
  s.description = p.attributes.description;
  s.value = p.value;
  s.min = finite(p.attributes.min);
  s.max = finite(p.attributes.max);
  return remember(std::move(s));
}

Expr variable_symbol(const Component& c, const VariableDecl& v) {
  Symbol s{v.symbol};
  s.name = symbol_name(c, v.name);
  s.kind = causality_name(v.causality);
  s.unit = v.attributes.unit;
  s.description = v.attributes.description;
  s.start = v.attributes.start;
  s.fixed = v.attributes.fixed;
  return remember(std::move(s));
}

Expr discrete_symbol(const Component& c, const DiscreteDecl& d) {
  Symbol s{d.symbol};
  s.name = symbol_name(c, d.name);
  s.kind = "discrete";
  s.unit = d.attributes.unit;
  s.description = d.attributes.description;
  s.start = d.attributes.start;
  return remember(std::move(s));
}

Expr member_symbol(const Connector& k, const ConnectorMember& member) {
  if (const VariableDecl* v = declaration_of(k.owner(), member.symbol)) return variable_symbol(k.owner(), *v);
  Symbol s{member.symbol};
  s.name = symbol_name(k.owner(), member.name.empty() ? k.name() : k.name() + "." + member.name);
  s.kind = causality_name(member.causality);
  return remember(std::move(s));
}

py::dict component_info(const Component& c) {
  py::list connectors, parameters, variables, discretes, children, equations, requirements;
  for (const Connector* k : c.connectors()) {
    py::list members;
    for (const auto& member : k->members()) {
      const Symbol& s = registry().at(member_symbol(*k, member).node());
      members.append(py::dict(py::arg("name") = member.name, py::arg("kind") = s.kind, py::arg("unit") = s.unit));
    }
    connectors.append(py::dict(py::arg("name") = k->name(), py::arg("type") = k->type(), py::arg("members") = members));
  }
  for (const auto& p : c.parameters())
    parameters.append(py::dict(py::arg("name") = p.name, py::arg("value") = p.value,
                               py::arg("unit") = p.attributes.unit, py::arg("min") = p.attributes.min,
                               py::arg("max") = p.attributes.max, py::arg("description") = p.attributes.description,
                               py::arg("structural") = p.attributes.structural || !p.attributes.choices.empty(),
                               py::arg("choices") = p.attributes.choices));
  for (const auto& v : c.variables())
    if (v.causality == Causality::internal)
      variables.append(py::dict(py::arg("name") = v.name, py::arg("unit") = v.attributes.unit,
                                py::arg("start") = v.attributes.start, py::arg("fixed") = v.attributes.fixed,
                                py::arg("state") = state_select_name(v.attributes.state),
                                py::arg("description") = v.attributes.description));
  for (const auto& d : c.discretes())
    discretes.append(py::dict(py::arg("name") = d.name, py::arg("kind") = discrete_kind_name(d.attributes.kind),
                              py::arg("unit") = d.attributes.unit, py::arg("start") = d.attributes.start,
                              py::arg("description") = d.attributes.description));
  for (const Component* child : c.children())
    children.append(py::dict(py::arg("name") = child->name(), py::arg("type") = child->type_name()));
  // An assembly's parts' parameters by path ("wheel_rl.mu"), with the values the assembly gives them.
  py::list part_parameters;
  auto parts = [&](auto& self, const Component& parent, const std::string& prefix) -> void {
    for (const Component* child : parent.children()) {
      const std::string part = prefix + child->name();
      for (const auto& p : child->parameters())
        part_parameters.append(py::dict(
            py::arg("name") = part + "." + p.name, py::arg("part") = part, py::arg("type") = child->type_name(),
            py::arg("value") = p.value, py::arg("unit") = p.attributes.unit, py::arg("min") = p.attributes.min,
            py::arg("max") = p.attributes.max, py::arg("description") = p.attributes.description,
            py::arg("structural") = p.attributes.structural || !p.attributes.choices.empty(),
            py::arg("choices") = p.attributes.choices));
      self(self, *child, part + ".");
    }
  };
  parts(parts, c, "");
  for (const auto& eq : c.equations()) equations.append(eq.lhs.str() + " = " + eq.rhs.str());
  for (const auto& [condition, text] : c.requirements()) requirements.append(text);
  return py::dict(py::arg("type") = c.type_name(), py::arg("connectors") = connectors,
                  py::arg("parameters") = parameters, py::arg("variables") = variables,
                  py::arg("discretes") = discretes, py::arg("children") = children,
                  py::arg("part_parameters") = part_parameters, py::arg("equations") = equations,
                  py::arg("requirements") = requirements);
}

py::list member_names(const Component& c) {
  py::list names;
  for (const Connector* k : c.connectors()) names.append(k->name());
  for (const auto& v : c.variables())
    if (v.causality == Causality::internal) names.append(v.name);
  for (const auto& p : c.parameters()) names.append(p.name);
  for (const auto& d : c.discretes()) names.append(d.name);
  for (const Component* child : c.children()) names.append(child->name());
  return names;
}

void bind_introspection(py::module_& m, py::class_<Expr>& expr) {
  auto text = [](std::string Symbol::*field, const char* name) {
    return [field, name](const Expr& e) { return symbol_of(e, name).*field; };
  };
  auto number = [](std::optional<double> Symbol::*field, const char* name) {
    return [field, name](const Expr& e) { return symbol_of(e, name).*field; };
  };
  expr.def_property_readonly("name", text(&Symbol::name, "name"), "a declared symbol's name, as results name it")
      .def_property_readonly("kind", text(&Symbol::kind, "kind"),
                             "parameter, variable, discrete, input, output, potential or flow")
      .def_property_readonly("unit", text(&Symbol::unit, "unit"))
      .def_property_readonly("description", text(&Symbol::description, "description"))
      .def_property_readonly("value", number(&Symbol::value, "value"), "a parameter's value (None for variables)")
      .def_property_readonly("start", number(&Symbol::start, "start"), "a variable's start value (None for parameters)")
      .def_property_readonly("fixed", [](const Expr& e) { return symbol_of(e, "fixed").fixed; })
      .def_property_readonly("min", number(&Symbol::min, "min"))
      .def_property_readonly("max", number(&Symbol::max, "max"))
      .def("__repr__", [](const Expr& e) {
        auto it = registry().find(e.node());
        if (it == registry().end()) return e.str();
        const Symbol& s = it->second;
        std::string text = "<" + s.kind + " " + s.name;
        if (!s.unit.empty()) text += " [" + s.unit + "]";
        if (s.value) text += " = " + format_number(*s.value);
        else if (s.start) text += ", start " + format_number(*s.start);
        return text + ">";
      });
  m.def("_component_info", &component_info, py::arg("component"));
}

}  // namespace acausal::python
