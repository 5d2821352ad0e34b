#pragma once

#include "solver/modeling/component.hpp"

namespace acausal::planar {

/// Planar frame (Modelica PlanarMechanics.Interfaces.Frame): the position x, y
/// of the frame's origin and its orientation phi in the world frame
/// (potentials), and the cut force fx, fy (world coordinates) and torque tau
/// (flows, positive when they act on the component that owns the frame).
/// Members are declared potential/flow pairwise in the same order (x with fx,
/// y with fy, phi with tau): the energy books pair the k-th potential with the
/// k-th flow, so the port power is der(x)·fx + der(y)·fy + der(phi)·tau.
struct Frame : Connector {
  Variable x = potential("x", {.unit = "m"});
  Variable y = potential("y", {.unit = "m"});
  Variable phi = potential("phi", {.unit = "rad"});
  Variable fx = flow("fx", {.unit = "N"});
  Variable fy = flow("fy", {.unit = "N"});
  Variable tau = flow("tau", {.unit = "N.m"});
  Frame(Component& owner, std::string name) : Connector(owner, std::move(name), "planar.Frame") {}
};

}  // namespace acausal::planar
