#pragma once

#include <string>

#include "components/electrical/conditional_heat_port.hpp"
#include "connectors/rotational.hpp"

namespace acausal::vehicle {

/// Permanent-magnet DC machine on the electrical domain (the physics of MSL
/// Machines.BasicMachines.DCMachines.DC_PermanentMagnet without its core,
/// friction and stray losses): armature resistance Ra and inductance La in
/// series with the back EMF k·w, and a rotor of inertia J driving `flange`
/// (housing fixed), so
///   v = Ra·i + La·der(i) + k·w,   J·der(w) = k·i + flange.tau.
/// One component rather than an assembly of Resistor, Inductor, EMF and
/// Inertia, so that Ra, La, k and J are its own parameters. Under a constant
/// voltage V and a load torque tau_load (flange.tau = -tau_load) it settles
/// at i = tau_load/k and w = (V - Ra·i)/k. Motoring when v·i > 0 and the
/// shaft turns the load; it generates (i < 0, power back to the source)
/// when the load drives it above the no-load speed V/k. Reversing the supply
/// while it turns (plugging) brakes it with the source still delivering
/// power: both the source and the shaft feed Ra's loss. The copper loss
/// LossPower = Ra·i² heats the armature: dissipated, or through heat_port
/// with use_heat_port = 1. Defaults near MSL's DC_PermanentMagnet (100 V,
/// 100 A, 1425 rpm): Ra 0.05 Ohm, La 1.5 mH, k 0.6366 V.s/rad, J 0.29 kg.m2.
struct DCMotor : electrical::ConditionalHeatPort {
  rotational::Flange flange{*this, "flange"};
  Parameter Ra = parameter("Ra", 0.05, {.unit = "Ohm", .min = 0, .description = "armature resistance"});
  // V.s/A is the henry, written in symbols the unit check knows.
  Parameter La = parameter("La", 1.5e-3, {.unit = "V.s/A", .min = 0, .description = "armature inductance"});
  Parameter k = parameter("k", 0.6366, {.unit = "N.m/A", .description = "EMF and torque constant (V.s/rad)"});
  Parameter J = parameter("J", 0.29, {.unit = "kg.m2", .min = 0, .description = "rotor inertia"});
  Variable phi = variable("phi", {.unit = "rad", .description = "rotor angle against the housing"});
  Variable w = variable("w", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable v_emf = variable("v_emf", {.unit = "V", .description = "back EMF, k·w"});
  Variable tau_el = variable("tau_el", {.unit = "N.m", .description = "air-gap torque on the rotor, k·i"});

  explicit DCMotor(std::string name) : ConditionalHeatPort(std::move(name), 293.15) {
    // Zero La or J leaves der(i) or der(w) undetermined: IDA would fail on a singular matrix.
    require(La > 0, "the inductance La must be positive");
    require(J > 0, "the inertia J must be positive");
    stored_energy(0.5 * La * i * i + 0.5 * J * w * w);
    equation(phi == flange.phi);
    equation(w == der(phi));
    equation(v_emf == k * w);
    equation(tau_el == k * i);
    equation(v == Ra * i + La * der(i) + v_emf);
    equation(J * der(w) == tau_el + flange.tau);
    equation(LossPower == Ra * i * i);
  }
};

}  // namespace acausal::vehicle
