#pragma once

#include "connectors/electrical.hpp"

namespace acausal::electrical {

/// Base of elements coupling two ports (MSL Interfaces.TwoPort): port 1
/// between p1 and n1, port 2 between p2 and n2, each passing its own current
/// (i1 into p1 and out of n1, i2 into p2 and out of n2). The power taken from
/// the circuit is v1·i1 + v2·i2.
struct TwoPort : Component {
  PositivePin p1{*this, "p1"};
  NegativePin n1{*this, "n1"};
  PositivePin p2{*this, "p2"};
  NegativePin n2{*this, "n2"};
  Variable v1 = variable("v1", {.unit = "V", .description = "voltage drop of port 1, p1.v - n1.v"});
  Variable v2 = variable("v2", {.unit = "V", .description = "voltage drop of port 2, p2.v - n2.v"});
  Variable i1 = variable("i1", {.unit = "A", .description = "current into p1 (out of n1)"});
  Variable i2 = variable("i2", {.unit = "A", .description = "current into p2 (out of n2)"});

  explicit TwoPort(std::string name) : Component(std::move(name)) {
    equation(v1 == p1.v - n1.v);
    equation(v2 == p2.v - n2.v);
    equation(0.0 == p1.i + n1.i);
    equation(0.0 == p2.i + n2.i);
    equation(i1 == p1.i);
    equation(i2 == p2.i);
  }
};

}  // namespace acausal::electrical
