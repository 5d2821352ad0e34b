#pragma once

#include "connectors/thermal.hpp"

namespace acausal::thermal {

/// MSL's useHeatPort (Mechanics' PartialElementaryConditionalHeatPort), shared
/// by every mechanical element with losses. A member of the owner, it adds the
/// structural parameter use_heat_port, the fixed temperature T, the connector
/// heat_port and the variable lossPower [W] to the owner; equations() ties
/// them to the owner's loss. Declared last and called last, so that the
/// owner's own declarations and equations keep their order (and, with the
/// port off, their results).
///
/// Off (the default), the port's temperature is T, its flow is zero (an
/// unconnected flow), connecting it is refused at compile(), and the loss is
/// dissipated as before. On, the loss leaves through the port as heat
/// (heat_port.Q_flow = -lossPower) and the element dissipates nothing: its
/// energy books close with the heat counted as port power, and what heats up
/// is whatever the port is connected to. Since use_heat_port is structural,
/// compile() folds the choice: off, the equations are those of an element
/// without a port plus the eliminated aliases of the port.
struct ConditionalHeatPort {
  Parameter use_heat_port;
  Parameter T;
  HeatPort heat_port;
  Variable lossPower;

  explicit ConditionalHeatPort(Component& c)
      : use_heat_port(c.parameter("use_heat_port", 0.0,
                                  {.min = 0,
                                   .max = 1,
                                   .description = "1: the loss power leaves through heat_port (MSL useHeatPort)",
                                   .structural = true})),
        T(c.parameter("T", 293.15,
                      {.unit = "K",
                       .min = 0,
                       .description = "fixed temperature of the heat port when use_heat_port = 0"})),
        heat_port(c, "heat_port"),
        lossPower(c.variable("lossPower", {.unit = "W", .description = "loss power, leaving as heat (>= 0)"})) {}

  /// Defines lossPower as `loss` (the power the element turns into heat, the
  /// expression it declared as dissipated before it had a port) and declares
  /// the port's equations and the owner's dissipation. Call once, at the end
  /// of the owner's constructor.
  void equations(Component& c, const Expr& loss) const {
    const Expr on = use_heat_port > 0.5;
    c.conditional_connector(heat_port, on, "use_heat_port = 1");
    c.equation(lossPower == loss);
    // Off: the port temperature is defined and its unconnected flow is zero by flattening.
    c.equation(0.0 == ifelse(on, heat_port.Q_flow + lossPower, heat_port.T - T));
    c.dissipated_power(ifelse(on, 0.0, lossPower));
  }
};

}  // namespace acausal::thermal
