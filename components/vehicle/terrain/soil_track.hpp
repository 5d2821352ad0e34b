#pragma once

#include <string>
#include <utility>

#include "components/vehicle/terrain/gauss_legendre.hpp"
#include "components/vehicle/terrain/partial_soil_contact.hpp"
#include "connectors/rotational.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// A track (one side of a tracked vehicle) on soft soil with a uniform
/// ground pressure p = W/(b·L) over its contact length L (Janosi and
/// Hanamoto, 1961; Wong, Theory of Ground Vehicles, ch. 2): the sprocket
/// (flange_rot, radius) drives the track, contact carries the hull like a
/// wheel's. Slip = (ω·radius - v)/v_roll (v_roll as for the SoftSoilWheel:
/// the larger of |ω·radius| and |v|, smoothed over v_eps); a point x behind
/// the front of the contact has sheared j = slip·x, so the thrust is
///   F = b·∫0..L (c + p·tan φ)·(1 - exp(-j/K)) dx,
/// a Gauss–Legendre sum of gauss_points (a constructor argument) in the
/// equations; its closed form is (A·c + W·tan φ)·(1 - K/(slip·L)·(1 - exp(-slip·L/K))),
/// A = b·L. The track sinks as a plate, z = (p/k_eq)^(1/n), and pays the
/// compaction resistance R_c = b·k_eq·z^(n+1)/(n+1) while it moves:
/// DP = F - tanh(v/v_eps)·R_c. The sprocket carries T = F·radius (a track
/// without internal losses), and the soil dissipates P_soil = T·ω - DP·v.
struct SoilTrack : PartialSoilContact {
  rotational::Flange flange_rot{*this, "flange_rot"};
  WheelContact contact{*this, "contact"};
  Parameter L = parameter("L", 2.0, {.unit = "m", .min = 1e-6, .description = "contact length"});
  Parameter radius = parameter("radius", 0.3, {.unit = "m", .min = 1e-6, .description = "sprocket radius"});
  Parameter J = parameter("J", 1.0, {.unit = "kg.m2", .min = 1e-9, .description = "inertia of sprocket and track"});
  Parameter v_eps = parameter("v_eps", 0.01, {.unit = "m/s", .min = 1e-9, .description = "speed below which the slip is regularized"});

  Variable phi = variable("phi", {.unit = "rad"});
  Variable omega = variable("omega", {.unit = "rad/s", .state = StateSelect::prefer});
  Variable v = variable("v", {.unit = "m/s"});
  Variable W = variable("W", {.unit = "N", .description = "vertical load"});
  Variable p = variable("p", {.unit = "Pa", .description = "ground pressure"});
  Variable z = variable("z", {.unit = "m", .description = "sinkage"});
  Variable v_roll = variable("v_roll", {.unit = "m/s", .description = "the speed the slip is relative to"});
  Variable slip = variable("slip", {.description = "(ω·radius - v)/v_roll"});
  Variable F = variable("F", {.unit = "N", .description = "thrust of the shear stress"});
  Variable R_c = variable("R_c", {.unit = "N", .description = "compaction resistance"});
  Variable DP = variable("DP", {.unit = "N", .description = "drawbar pull"});
  Variable T = variable("T", {.unit = "N.m", .description = "torque of the track against the sprocket"});
  Variable P_soil = variable("P_soil", {.unit = "W", .description = "power dissipated in the soil"});

  explicit SoilTrack(std::string name, int points = 24) : PartialSoilContact(std::move(name)) {
    const GaussLegendre rule = gauss_legendre(points);
    stored_energy(0.5 * J * omega * omega);
    dissipated_power(P_soil);
    const Expr rim_speed = omega * radius, k_eq = sinkage_modulus();
    equation(phi == flange_rot.phi);
    equation(omega == der(phi));
    equation(v == der(contact.s_traction));
    equation(W == -contact.f_normal);
    equation(p == W / (b * L));
    equation(z == pow(no_event(max(p, 0.0)) / k_eq, 1.0 / n));
    equation(contact.s_normal == -z);
    equation(v_roll == slip_reference_speed(rim_speed, v, v_eps));
    equation(slip == (rim_speed - v) / v_roll);
    // x = u·L behind the front, u ∈ [0, 1].
    Expr mobilised = 0.0;
    for (std::size_t k = 0; k < rule.nodes.size(); ++k) {
      const double u = 0.5 * (1.0 + rule.nodes[k]), weight = 0.5 * rule.weights[k];
      mobilised = mobilised + weight * janosi_mobilisation(slip * u * L / K);
    }
    equation(F == b * L * (c + p * tan(phi_soil)) * mobilised);
    equation(R_c == b * k_eq * pow(z, n + 1.0) / (n + 1.0));
    equation(DP == F - tanh(v / v_eps) * R_c);
    equation(T == F * radius);
    equation(contact.f_traction == -DP);
    equation(J * der(omega) == flange_rot.tau - T);
    equation(P_soil == T * omega - DP * v);
  }
};

}  // namespace acausal::vehicle
