#pragma once

#include "connectors/signal.hpp"
#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Heat flow rate from port_a to port_b as a signal [W] (MSL
/// HeatTransfer.Sensors.HeatFlowSensor): put in series, it passes the heat through at one
/// temperature (port_a.T = port_b.T) and measures it.
struct HeatFlowSensor : Component {
  HeatPort port_a{*this, "port_a"}, port_b{*this, "port_b"};
  RealOutput Q_flow{*this, "Q_flow", {.unit = "W"}};

  explicit HeatFlowSensor(std::string name) : Component(std::move(name)) {
    equation(port_a.T == port_b.T);
    equation(port_a.Q_flow + port_b.Q_flow == 0.0);
    equation(Q_flow == port_a.Q_flow);
  }
};

}  // namespace acausal::thermal
