#pragma once

#include "components/electrical/two_port.hpp"

namespace acausal::electrical {

/// Ideal transformer (MSL Ideal.IdealTransformer with considerMagnetization =
/// false): v1 = n·v2 and, with no magnetizing current, i2 = -n·i1. Lossless:
/// v1·i1 + v2·i2 = 0 at every instant.
struct IdealTransformer : TwoPort {
  Parameter n = parameter("n", 1.0, {.unit = "1", .description = "turns ratio primary:secondary voltage"});

  explicit IdealTransformer(std::string name) : TwoPort(std::move(name)) {
    equation(v1 == n * v2);
    equation(i2 == -n * i1);
  }
};

}  // namespace acausal::electrical
