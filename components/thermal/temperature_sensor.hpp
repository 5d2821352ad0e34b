#pragma once

#include "connectors/signal.hpp"
#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Absolute temperature of the port as a signal [K] (MSL
/// HeatTransfer.Sensors.TemperatureSensor); an ideal sensor: no heat flows into it.
struct TemperatureSensor : Component {
  HeatPort port{*this, "port"};
  RealOutput T{*this, "T", {.unit = "K"}};

  explicit TemperatureSensor(std::string name) : Component(std::move(name)) {
    equation(T == port.T);
    equation(port.Q_flow == 0.0);
  }
};

}  // namespace acausal::thermal
