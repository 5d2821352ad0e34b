#pragma once

#include <string>

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

  /// `loss_name`: MSL calls the loss lossPower in mechanics, LossPower in
  /// electrical components; `T_default` is the fixed temperature's default.
  explicit ConditionalHeatPort(Component& c, const std::string& loss_name = "lossPower", double T_default = 293.15)
      : use_heat_port(c.parameter("use_heat_port", 0.0,
                                  {.min = 0,
                                   .max = 1,
                                   .description = "1: the loss power leaves through heat_port (MSL useHeatPort)",
                                   .structural = true})),
        T(c.parameter("T", T_default,
                      {.unit = "K",
                       .min = 0,
                       .description = "fixed temperature of the heat port when use_heat_port = 0"})),
        heat_port(c, "heat_port"),
        lossPower(c.variable(loss_name, {.unit = "W", .description = "loss power, leaving as heat (>= 0)"})) {}

  /// Defines lossPower as `loss` (the power the element turns into heat, the
  /// expression it declared as dissipated before it had a port), then
  /// port_equations(). Call once, at the end of the owner's constructor.
  void equations(Component& c, const Expr& loss) const {
    c.equation(lossPower == loss);
    port_equations(c);
  }

  /// The port's equations and the owner's dissipation, for an owner that
  /// defines lossPower itself (the electrical elements, each by its own law).
  void port_equations(Component& c) const {
    const Expr on = use_heat_port > 0.5;
    c.conditional_connector(heat_port, on, "use_heat_port = 1");
    // Off: the port temperature is defined and its unconnected flow is zero by flattening.
    c.equation(0.0 == ifelse(on, heat_port.Q_flow + lossPower, heat_port.T - T));
    c.dissipated_power(ifelse(on, 0.0, lossPower));
  }
};

}  // namespace acausal::thermal
