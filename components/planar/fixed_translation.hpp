#pragma once

#include "connectors/planar.hpp"

namespace acausal::planar {

/// Rigid massless bar (MSL PlanarMechanics.Parts.FixedTranslation): frame_b
/// sits at the offset r = (rx, ry), given in frame_a's coordinates, and turns
/// with frame_a: (x_b, y_b) = (x_a, y_a) + R(phi_a)·r, phi_b = phi_a. Massless,
/// so the forces balance and the torques balance about frame_a's origin,
/// where frame_b's force acts with the lever r0 = R(phi_a)·r:
/// tau_a + tau_b + r0 × f_b = 0. Lossless: no energy is stored or dissipated.
struct FixedTranslation : Component {
  Frame frame_a{*this, "frame_a"}, frame_b{*this, "frame_b"};
  Parameter rx = parameter("rx", 1.0, {.unit = "m", .description = "offset along frame_a's x axis"});
  Parameter ry = parameter("ry", 0.0, {.unit = "m", .description = "offset along frame_a's y axis"});

  explicit FixedTranslation(std::string name) : Component(std::move(name)) {
    // The lever in world coordinates, written inline (no variables): index
    // reduction differentiates these constraints, and fewer unknowns keep the
    // differentiated system small.
    const Expr r0x = cos(frame_a.phi) * rx - sin(frame_a.phi) * ry;
    const Expr r0y = sin(frame_a.phi) * rx + cos(frame_a.phi) * ry;
    equation(frame_b.x == frame_a.x + r0x);
    equation(frame_b.y == frame_a.y + r0y);
    equation(frame_b.phi == frame_a.phi);
    equation(frame_a.fx + frame_b.fx == 0.0);
    equation(frame_a.fy + frame_b.fy == 0.0);
    equation(frame_a.tau + frame_b.tau + r0x * frame_b.fy - r0y * frame_b.fx == 0.0);
  }
};

}  // namespace acausal::planar
