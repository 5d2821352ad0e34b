#pragma once

#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Fixed temperature boundary condition (MSL
/// HeatTransfer.Sources.FixedTemperature): port.T = T, whatever heat flows. An ideal source or sink
/// (ambient air, a cooling bath): for the energy books it supplies whatever
/// enters or leaves through its port.
struct FixedTemperature : Component {
  HeatPort port{*this, "port"};
  Parameter T = parameter("T", 293.15, {.unit = "K", .min = 0, .description = "fixed temperature at port"});

  explicit FixedTemperature(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(port.T == T);
  }
};

}  // namespace acausal::thermal
