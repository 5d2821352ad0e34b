#pragma once

#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// Lumped thermal element storing heat (MSL
/// HeatTransfer.Components.HeatCapacitor): C·der(T) = port.Q_flow, with C = cp·m the heat capacity.
/// Stores C·T: an energy relative to 0 K, which the books only ever read as
/// differences. T starts at 293.15 K; set_start() changes it.
struct HeatCapacitor : Component {
  HeatPort port{*this, "port"};
  Parameter C = parameter("C", 1.0, {.unit = "J/K", .min = 0, .description = "heat capacity (cp·m)"});
  Variable T = variable("T", {.unit = "K", .start = 293.15, .nominal = 300.0, .state = StateSelect::prefer});
  Variable der_T = variable("der_T", {.unit = "K/s", .description = "time derivative of T"});

  explicit HeatCapacitor(std::string name) : Component(std::move(name)) {
    stored_energy(C * T);
    // C·der(T) with C = 0 leaves der(T) undetermined: IDA would fail on a singular matrix.
    require(C > 0, "the heat capacity C must be positive");
    equation(T == port.T);
    equation(der_T == der(T));
    equation(C * der_T == port.Q_flow);
  }
};

}  // namespace acausal::thermal
