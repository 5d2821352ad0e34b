#pragma once

#include "components/blocks/continuous/init.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// Which parts a LimPID has (MSL Blocks.Types.SimpleController).
enum class SimpleController { P, PI, PD, PID };

/// P, PI, PD or PID controller with a limited output, anti-windup and set-point
/// weighting (MSL Blocks.Continuous.LimPID):
/// y = clamp(y_unlimited, yMin, yMax), y_unlimited = k·(wp·u_s - u_m + yd + xi).
/// Integral part (PI, PID): der(xi) = (u_s - u_m + (y - y_unlimited)/(k·Ni))/Ti,
/// so a saturated output bleeds the integrator with time constant Ni·Ti.
/// Derivative part (PD, PID), filtered with Tf = max(Td/Nd, 1e-14):
/// der(xd) = (wd·u_s - u_m - xd)/Tf, yd = Td/Tf·(wd·u_s - u_m - xd).
/// controllerType and initType are structural. The states xi and xd exist
/// whatever the controller type; a part that is absent reads 0 and its state
/// stays at 0. initType sets the initial conditions as in MSL: SteadyState
/// (der(xi) = der(xd) = 0), InitialState (xi = xi_start, xd = xd_start),
/// InitialOutput (y_unlimited = y_start, der(xd) = 0), NoInit (none: the states
/// start from their start values unless the model fixes them otherwise).
/// Unlike MSL, yMin does not follow yMax (set both), Td must be positive for a
/// D part, and there is no feed-forward input nor homotopy or strict option.
struct LimPID : Component {
  RealInput u_s{*this, "u_s"}, u_m{*this, "u_m"};
  RealOutput y{*this, "y"};
  Parameter controllerType = parameter("controllerType", static_cast<double>(SimpleController::PID),
                                       {.choices = {"P", "PI", "PD", "PID"}});
  Parameter k = parameter("k", 1.0, {.unit = "1", .min = 0});
  Parameter Ti = parameter("Ti", 0.5, {.unit = "s", .min = 1e-15});
  Parameter Td = parameter("Td", 0.1, {.unit = "s", .min = 0});
  Parameter yMax = parameter("yMax", 1.0);
  Parameter yMin = parameter("yMin", -1.0);
  Parameter wp = parameter("wp", 1.0, {.unit = "1", .min = 0});
  Parameter wd = parameter("wd", 0.0, {.unit = "1", .min = 0});
  Parameter Ni = parameter("Ni", 0.9, {.unit = "1", .min = 1e-14});
  Parameter Nd = parameter("Nd", 10.0, {.unit = "1", .min = 1e-14});
  Parameter initType = parameter("initType", static_cast<double>(InitialState),
                                 {.choices = {"NoInit", "SteadyState", "InitialState", "InitialOutput"}});
  Parameter xi_start = parameter("xi_start", 0.0);
  Parameter xd_start = parameter("xd_start", 0.0);
  Parameter y_start = parameter("y_start", 0.0);
  Variable controlError = variable("controlError");  // u_s - u_m
  Variable xi = variable("xi");                      // integral part (MSL: I.y)
  Variable xd = variable("xd");                      // derivative filter state (MSL: D.x)
  Variable yd = variable("yd");                      // derivative part (MSL: D.y)
  Variable y_unlimited = variable("y_unlimited");    // limiter input (MSL: limiter.u)

  explicit LimPID(std::string name) : Component(std::move(name)) {
    Expr with_I = is(controllerType, SimpleController::PI) || is(controllerType, SimpleController::PID);
    Expr with_D = is(controllerType, SimpleController::PD) || is(controllerType, SimpleController::PID);
    Expr Tf = max(Td / Nd, 1e-14);
    Expr ud = wd * u_s - u_m;

    equation(controlError == u_s - u_m);
    equation(der(xd) == ifelse(with_D, (ud - xd) / Tf, 0.0));
    equation(yd == ifelse(with_D, Td / Tf * (ud - xd), 0.0));
    equation(y_unlimited == k * (wp * u_s - u_m + yd + ifelse(with_I, xi, 0.0)));
    equation(y == max(min(y_unlimited, yMax), yMin));
    equation(der(xi) == ifelse(with_I, (controlError + (y - y_unlimited) / (k * Ni)) / Ti, 0.0));

    require(yMax >= yMin, "the output limits need yMax >= yMin");
    require(!with_I || k > 0, "an I part (PI, PID) needs k > 0: the anti-windup gain is 1/(k*Ni)");
    require(!with_D || Td > 0, "a D part (PD, PID) needs Td > 0; choose P or PI for none");
    require(!is(initType, InitialOutput) || (y_start >= yMin && y_start <= yMax),
            "initType = InitialOutput needs y_start between yMin and yMax");

    // The I part as MSL's integrator: SteadyState or InitialState, else free.
    initial_equation(der(xi) == 0.0, with_I && is(initType, SteadyState));
    // An absent part's state is held at 0 (one initial_value per variable).
    initial_value(xi, ifelse(with_I, xi_start, 0.0), !with_I || is(initType, InitialState));
    // The D part as MSL's derivative block: InitialOutput starts it in steady state.
    initial_equation(der(xd) == 0.0, with_D && (is(initType, SteadyState) || is(initType, InitialOutput)));
    initial_value(xd, ifelse(with_D, xd_start, 0.0), !with_D || is(initType, InitialState));
    initial_equation(y_unlimited == y_start, is(initType, InitialOutput));
  }

 private:
  /// True when a choice parameter holds the given choice (its index).
  template <class Choice>
  static Expr is(const Expr& choice, Choice value) {
    return chosen(choice, static_cast<int>(value));
  }
};

}  // namespace acausal::blocks
