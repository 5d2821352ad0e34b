#pragma once

#include "components/vehicle/control/anti_windup.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// A test driver following a drive cycle (vehicle::DriveCycle's outputs):
/// the pedal command is feed-forward from the trace's acceleration plus PI
/// feedback on the look-ahead error,
///   u = k_ff·a_ref + k·(v_preview − v) + k·xi/Ti,  der(xi) = v_ref − v (anti-windup as DriverController),
/// split into throttle = clamp(u, 0, 1) and brake = k_brake·max(−u − brake_dead_band, 0)
/// (the brake pedal is stronger than the throttle); standing with nothing to
/// follow, it holds the car with hold_brake. The clutch: open at a
/// standstill with nothing to follow (the engine idles), open when the trace comes
/// below v_declutch as the trace slows (before the engine drops under idle), else engaged
/// in proportion to speed up to v_engaged (a launch lets it slip).
struct CycleDriver : Component {
  RealInput v_ref{*this, "v_ref", {.unit = "m/s"}};
  RealInput a_ref{*this, "a_ref", {.unit = "m/s2"}};
  RealInput v_preview{*this, "v_preview", {.unit = "m/s"}};
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealOutput throttle{*this, "throttle"}, brake{*this, "brake"}, clutch{*this, "clutch"};
  Parameter k_ff = parameter("k_ff", 0.25, {.unit = "s2/m", .min = 0, .description = "pedal per m/s2 of the trace"});
  Parameter k = parameter("k", 1.0, {.unit = "s/m", .min = 0});
  Parameter Ti = parameter("Ti", 10.0, {.unit = "s", .min = 1e-9});
  Parameter Tt = parameter("Tt", 1.0, {.unit = "s", .min = 1e-9});
  Parameter k_brake = parameter("k_brake", 0.5, {.min = 0});
  Parameter brake_dead_band =
      parameter("brake_dead_band", 0.02, {.min = 0, .description = "pedal command lifted off both pedals"});
  Parameter hold_brake = parameter("hold_brake", 0.3, {.min = 0, .max = 1, .description = "pedal while standing"});
  Parameter v_declutch = parameter("v_declutch", 3.0, {.unit = "m/s", .min = 0});
  Parameter v_engaged = parameter("v_engaged", 2.0, {.unit = "m/s", .min = 1e-6});
  Parameter engagement_min = parameter("engagement_min", 0.15, {.min = 0, .max = 1,
                                                                .description = "clutch at the start of a launch"});
  Variable e = variable("e", {.unit = "m/s"});
  Variable xi = variable("xi", {.unit = "m"});
  Variable u = variable("u");
  Variable u_sat = variable("u_sat");

  explicit CycleDriver(std::string name) : Component(std::move(name)) {
    equation(e == v_ref - v);
    equation(u == k_ff * a_ref + k * (v_preview - v) + k * xi / Ti);
    equation(u_sat == max(min(u, 1.0), -1.0 / k_brake));
    // Standing with nothing to follow, the driver holds the car on the brake;
    // with nothing ahead to follow, it lets go of what the feedback integrated.
    // Declutching reads the trace (slowing below v_declutch), not the pedal
    // command: a clutch switched by the sign of u, which the clutch itself
    // moves, would chatter.
    const Expr standing = v_preview < 0.01 && v < 0.5, stopping = v_ref < v_declutch && (a_ref < 0.0 || v_ref < 0.01);
    equation(der(xi) == anti_windup_rate(e, u, u_sat, k, Ti, Tt));
    initial_equation(xi == 0.0);
    when(v_preview < 0.01, {reinit(xi, 0.0)});
    equation(throttle == ifelse(v_preview < 0.01, 0.0, max(u_sat, 0.0)));  // nothing ahead: no throttle
    equation(brake == max(k_brake * max(-u_sat - brake_dead_band, 0.0), ifelse(standing, hold_brake, 0.0)));
    equation(clutch == ifelse(standing || stopping, 0.0, min(max(v / v_engaged, engagement_min), 1.0)));
  }
};

}  // namespace acausal::vehicle
