#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "connectors/signal.hpp"

namespace acausal::blocks {

/// nu Real inputs u1 … u_nu (MSL's u[nu]) and one Real output y: the base of
/// MultiSum and MultiProduct. nu is a build option (at least 1).
struct PartialRealMISO : Component {
  std::vector<RealInput*> u;
  RealOutput y{*this, "y"};

  PartialRealMISO(std::string name, int nu) : Component(std::move(name)), u(connector_array<RealInput>(*this, "u", nu)) {}
};

/// MSL Math.MultiSum: y = k_1·u1 + … + k_nu·u_nu (gains 1 by default).
struct MultiSum : PartialRealMISO {
  explicit MultiSum(std::string name, int nu = 2) : PartialRealMISO(std::move(name), nu) {
    Expr sum(0.0);
    for (int k = 1; k <= nu; ++k)
      sum = sum + parameter(fmt::format("k_{}", k), 1.0, {.description = fmt::format("gain of u{}", k)}) * *u[k - 1];
    equation(y == sum);
  }
};

/// MSL Math.MultiProduct: y = u1 · u2 · … · u_nu.
struct MultiProduct : PartialRealMISO {
  explicit MultiProduct(std::string name, int nu = 2) : PartialRealMISO(std::move(name), nu) {
    Expr product = *u.front();
    for (std::size_t k = 1; k < u.size(); ++k) product = product * *u[k];
    equation(y == product);
  }
};

/// MSL Math.LinearDependency: y = y0 + k1·u1 + k2·u2.
struct LinearDependency : Component {
  RealInput u1{*this, "u1"}, u2{*this, "u2"};
  RealOutput y{*this, "y"};
  Parameter y0 = parameter("y0", 0.0);
  Parameter k1 = parameter("k1", 0.0);
  Parameter k2 = parameter("k2", 0.0);
  explicit LinearDependency(std::string name) : Component(std::move(name)) { equation(y == y0 + k1 * u1 + k2 * u2); }
};

/// MSL Math.MinMax: yMax and yMin of the inputs u1 … u_nu (each switch of the
/// largest or smallest input is an event, as min and max are).
struct MinMax : Component {
  std::vector<RealInput*> u;
  RealOutput yMax{*this, "yMax"}, yMin{*this, "yMin"};

  explicit MinMax(std::string name, int nu = 2) : Component(std::move(name)) {
    u = connector_array<RealInput>(*this, "u", nu);
    Expr largest = *u.front(), smallest = *u.front();
    for (std::size_t k = 1; k < u.size(); ++k) {
      largest = max(largest, Expr(*u[k]));
      smallest = min(smallest, Expr(*u[k]));
    }
    equation(yMax == largest);
    equation(yMin == smallest);
  }
};

}  // namespace acausal::blocks
