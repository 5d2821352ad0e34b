#pragma once

#include "connectors/electrical.hpp"

namespace acausal::electrical {

/// Ground node (MSL Basic.Ground): the reference potential p.v = 0; takes any
/// current. Every circuit needs one, or its potentials are defined only up to
/// a constant (a structurally singular model).
struct Ground : Component {
  Pin p{*this, "p"};

  explicit Ground(std::string name) : Component(std::move(name)) { equation(p.v == 0.0); }
};

}  // namespace acausal::electrical
