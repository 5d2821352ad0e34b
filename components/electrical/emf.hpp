#pragma once

#include "components/electrical/one_port.hpp"
#include "connectors/rotational.hpp"

namespace acausal::electrical {

/// Electromotive force (MSL Basic.RotationalEMF, useSupport = false: the
/// housing is fixed): the ideal converter between a circuit and a shaft of a
/// DC machine, v = k·w (back EMF) and flange.tau = -k·i (the torque on the
/// shaft is k·i). Lossless: the electrical power v·i leaves as mechanical
/// power, w·(-flange.tau) = k·w·i.
struct EMF : OnePort {
  rotational::Flange flange{*this, "flange"};
  Parameter k = parameter("k", 1.0, {.unit = "N.m/A", .description = "transformation coefficient (V.s/rad)"});
  Variable phi = variable("phi", {.unit = "rad", .description = "angle of the flange against the housing"});
  Variable w = variable("w", {.unit = "rad/s"});
  Variable tau = variable("tau", {.unit = "N.m", .description = "torque on the flange, flange.tau"});
  Variable tauElectrical = variable("tauElectrical", {.unit = "N.m", .description = "electrical torque, k·i"});

  explicit EMF(std::string name) : OnePort(std::move(name)) {
    equation(phi == flange.phi);
    equation(w == der(phi));
    equation(k * w == v);
    equation(tau == -k * i);
    equation(tauElectrical == -tau);
    equation(flange.tau == tau);
  }
};

}  // namespace acausal::electrical
