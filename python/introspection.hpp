// What Python shows of a component: its declarations as data (help(), the
// .parameters tables, dir()) and symbols that know their name, unit and value.
#pragma once

#include <pybind11/pybind11.h>

#include <acausal/acausal.hpp>

#include <optional>
#include <string>

namespace acausal::python {

/// What a declared leaf is: inertia.J is a parameter in kg.m2 worth 1. Python
/// reads it as attributes of the expression (inertia.J.unit); a subclass of
/// Expr would not do, as Python hands `expr == symbol` to the subclass first and
/// turns the equation around.
struct Symbol {
  Expr expr;
  std::string name;  // as results name it: "inertia.J"
  std::string kind;  // parameter, variable, discrete, input, output, potential or flow
  std::string unit;
  std::string description;
  std::optional<double> value;  // a parameter's value
  std::optional<double> start;  // a variable's or discrete's start value
  std::optional<bool> fixed;
  std::optional<double> min, max;
};

// Each returns the declared leaf as an expression and records what it is, for
// the attributes Python reads from it.
Expr parameter_symbol(const Component& c, const ParameterDecl& p);
Expr variable_symbol(const Component& c, const VariableDecl& v);
Expr discrete_symbol(const Component& c, const DiscreteDecl& d);
/// A connector's member (flange_a.phi) or, for a signal, the connector's value.
Expr member_symbol(const Connector& k, const ConnectorMember& member);

/// Connectors, parameters, variables, discretes, children and equations of `c`, as Python data.
pybind11::dict component_info(const Component& c);
/// The names dir() adds to a component's methods: its connectors, variables, parameters and parts.
pybind11::list member_names(const Component& c);

/// Adds name, kind, unit, value, start, ... to the bound Expr class.
void bind_introspection(pybind11::module_& m, pybind11::class_<Expr>& expr);

}  // namespace acausal::python
