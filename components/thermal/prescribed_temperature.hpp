#pragma once

#include "connectors/signal.hpp"
#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Variable temperature boundary condition (MSL
/// HeatTransfer.Sources.PrescribedTemperature): port.T = T from the input signal [K], whatever heat
/// flows; an ideal source or sink for the energy books.
struct PrescribedTemperature : Component {
  HeatPort port{*this, "port"};
  RealInput T{*this, "T", {.unit = "K"}};

  explicit PrescribedTemperature(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(port.T == T);
  }
};

}  // namespace acausal::thermal
