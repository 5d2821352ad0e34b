#pragma once

#include <string>
#include <vector>

#include "solver/modeling/component.hpp"

namespace acausal {

/// The stuck / sliding forward / sliding backward / free state machine of the
/// Modelica Standard Library's PartialFriction, shared by every friction
/// element (rotational and translational: `w` is a relative speed, `f0` the
/// sliding force at zero speed, `f0_max` the break-away force).
///
/// The path parameter `sa` keeps the equations' structure fixed across modes:
/// stuck, the relative acceleration is zero and the force is `sa`, whatever
/// holds it there (solved with the DAE: no stiffness, no creep); sliding, `sa`
/// is the acceleration offset by the break-away force. The discrete variables
/// change only at events; the event iteration settles them (starting forward
/// from stuck once `sa > f0_max`, stuck again when `w` crosses zero).
struct FrictionModes {
  enum Mode { Stuck = 0, Forward = 1, Backward = -1, Free = 2, Unknown = 3 };
  /// How far (in unit_force) a held force must pass the limit to break away:
  /// 0 (MSL) by default; a vehicle brake, whose limit fades to zero when the
  /// driver releases it at standstill with nothing loading it, sets a margin
  /// above round-off so that sa's noise does not switch it at every step.
  double breakaway_margin = 0.0;

  // sa is a number: a force when stuck, an acceleration when sliding (MSL's
  // unitTorque, unitAngularAcceleration and their translational kin).
  Parameter unit_force, unit_acceleration;
  Variable sa;
  Discrete startForward, startBackward, locked, mode;

  /// Declares the unit constants, sa and the discrete variables on `c`.
  FrictionModes(Component& c, const std::string& force_unit, const std::string& acceleration_unit)
      : unit_force(c.parameter("unit_force", 1.0, {.unit = force_unit, .description = "unit constant", .structural = true})),
        unit_acceleration(c.parameter("unit_acceleration", 1.0,
                                      {.unit = acceleration_unit, .description = "unit constant", .structural = true})),
        sa(c.variable("sa", {.unit = "1", .description = "path parameter: the force when stuck (in unit_force)"})),
        startForward(c.discrete("startForward", {.kind = DiscreteKind::boolean})),
        startBackward(c.discrete("startBackward", {.kind = DiscreteKind::boolean})),
        locked(c.discrete("locked", {.kind = DiscreteKind::boolean})),
        mode(c.discrete("mode", {.start = Unknown,
                                 .kind = DiscreteKind::integer,
                                 .description = "-1 backward, 0 stuck, 1 forward, 2 free"})) {}

  /// The mode equations and `a == ...`. `can_move_forward/backward` restrict
  /// sliding (hard stops); `w_small` is the speed beyond which a reversal
  /// skips the stuck mode (after a jump by reinit).
  void equations(Component& c, const Expr& w, const Expr& a, const Expr& f0, const Expr& f0_max, const Expr& free,
                 const Expr& w_small, const Expr& can_move_forward = Expr(1.0),
                 const Expr& can_move_backward = Expr(1.0)) const {
    equations_when(Expr(1.0), c, w, a, f0, f0_max, free, w_small, can_move_forward, can_move_backward);
  }

  /// The same, in force only where `active` (a structural choice between this
  /// and a smooth law): elsewhere sa = 0 and the discrete values stay 0, and
  /// folding the choice at compile() removes the machine and its events.
  void equations_when(const Expr& active, Component& c, const Expr& w, const Expr& a, const Expr& f0,
                      const Expr& f0_max, const Expr& free, const Expr& w_small,
                      const Expr& can_move_forward = Expr(1.0), const Expr& can_move_backward = Expr(1.0)) const {
    auto when_active = [&](const Expr& e) { return ifelse(active, e, 0.0); };
    const Expr f_start = f0 / unit_force, f_break = f0_max / unit_force;
    // A constant w_small of 1e10 or more switches the reversals off, and their root functions with them.
    const bool reversals = !(w_small.is_const() && w_small.value() >= 1e10);
    const Expr reverses_forward = reversals ? Expr(w > w_small) : Expr(0.0);
    const Expr reverses_backward = reversals ? Expr(w < -w_small) : Expr(0.0);
    const Expr was = pre(mode);
    const Expr was_stuck = equal(was, Stuck), was_forward = equal(was, Forward), was_backward = equal(was, Backward),
               was_free = equal(was, Free);
    // sa is a force only while stuck: elsewhere (an acceleration) its
    // thresholds decide nothing, and reading 0 there spares the events its
    // crossings would cause.
    const Expr held = ifelse(was_stuck, sa, 0.0);
    const Expr over_break = f_break + breakaway_margin, over_start = f_start + breakaway_margin;
    c.equation(startForward == when_active((was_stuck && ((held > over_break && can_move_forward) ||
                                                          (pre(startForward) && held > over_start && can_move_forward))) ||
                                           (was_backward && reverses_forward) || (initial() && w > 0.0)));
    c.equation(startBackward == when_active((was_stuck && ((held < -over_break && can_move_backward) ||
                                                           (pre(startBackward) && held < -over_start && can_move_backward))) ||
                                            (was_forward && reverses_backward) || (initial() && w < 0.0)));
    c.equation(locked == when_active(!free && !(was_forward || startForward || was_backward || startBackward)));
    c.equation(0.0 == ifelse(active,
                             a / unit_acceleration - ifelse(locked, 0.0,
                                        ifelse(free, sa,
                                               ifelse(startForward, sa - f_break,
                                                      ifelse(startBackward, sa + f_break,
                                                             ifelse(was_forward, sa - f_break, sa + f_break))))),
                             sa));
    c.equation(mode == when_active(ifelse(
                           free, Free,
                           ifelse((was_forward || was_free || startForward) && w > 0.0 && can_move_forward, Forward,
                                  ifelse((was_backward || was_free || startBackward) && w < 0.0 && can_move_backward,
                                         Backward, Stuck)))));
  }

  /// The friction force: `sa` when locked, 0 when free, otherwise the sliding
  /// law for the direction of motion (or of the start).
  Expr force(const Expr& free, const Expr& forward, const Expr& backward) const {
    return ifelse(
        locked, sa * unit_force,
        ifelse(free, 0.0,
               ifelse(startForward, forward,
                      ifelse(startBackward, backward, ifelse(equal(pre(mode), Forward), forward, backward)))));
  }
};

/// Writes equations a table setter may later rewrite (a friction
/// characteristic): the first call adds them and records where, later calls
/// replace them there.
inline void set_equations(Component& c, std::vector<std::size_t>& at, const std::vector<Equation>& equations) {
  if (at.empty()) {
    for (const auto& eq : equations) at.push_back(c.equation(eq));
    return;
  }
  for (std::size_t i = 0; i < equations.size(); ++i) c.replace_equation(at[i], equations[i]);
}

}  // namespace acausal
