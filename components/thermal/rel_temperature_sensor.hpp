#pragma once

#include "connectors/signal.hpp"
#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Temperature difference T_rel = port_a.T - port_b.T as a signal [K] (MSL
/// HeatTransfer.Sensors.RelTemperatureSensor); no heat flows into it.
struct RelTemperatureSensor : Component {
  HeatPort port_a{*this, "port_a"}, port_b{*this, "port_b"};
  RealOutput T_rel{*this, "T_rel", {.unit = "K"}};

  explicit RelTemperatureSensor(std::string name) : Component(std::move(name)) {
    equation(T_rel == port_a.T - port_b.T);
    equation(port_a.Q_flow == 0.0);
    equation(port_b.Q_flow == 0.0);
  }
};

}  // namespace acausal::thermal
