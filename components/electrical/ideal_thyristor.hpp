#pragma once

#include "components/electrical/ideal_semiconductor.hpp"
#include "connectors/signal.hpp"

namespace acausal::electrical {

/// Ideal thyristor (MSL Ideal.IdealThyristor): a diode that, once blocking,
/// starts conducting only while fired (fire > 0.5; Boolean signals do not
/// exist yet) with a forward voltage above Vknee, and keeps conducting
/// without the gate until its current falls to the knee:
/// off = s < 0 or (pre(off) and not fire).
struct IdealThyristor : IdealSemiconductor {
  RealInput fire{*this, "fire", {.description = "> 0.5: the gate fires"}};

  explicit IdealThyristor(std::string name) : IdealSemiconductor(std::move(name)) {
    equation(off == (s < 0.0 || (pre(off) && !(fire > 0.5))));
  }
};

}  // namespace acausal::electrical
