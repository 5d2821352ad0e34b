// Models equivalent to the FMI standard's reference FMUs (Dahlquist,
// BouncingBall, VanDerPol, Stair, Feedthrough), written as acausal models
// whose top-level RealOutputs are the FMU's outputs.
#pragma once

#include <acausal/acausal.hpp>

#include <cmath>

namespace acausal::test {

/// der(x) = -k·x, x(0) = 1: x(t) = exp(-k·t).
struct Dahlquist : Model {
  Parameter k = parameter("k", 1.0, {.unit = "1/s"});
  Variable x = variable("x", {.start = 1.0, .fixed = true});
  RealOutput y{*this, "y"};
  Dahlquist() : Model("Dahlquist") {
    equation(der(x) == -k * x);
    equation(y == x);
  }
};

/// A ball dropped from h0 onto the floor, bouncing with restitution e.
struct BouncingBallFmu : Model {
  Parameter g = parameter("g", 9.81, {.unit = "m/s2"});
  Parameter e = parameter("e", 0.7, {.min = 0, .max = 1});
  Variable h = variable("h", {.unit = "m", .start = 1.0, .fixed = true});
  Variable v = variable("v", {.unit = "m/s", .start = 0.0, .fixed = true});
  RealOutput height{*this, "height", {.unit = "m"}};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};
  BouncingBallFmu() : Model("BouncingBall") {
    equation(der(h) == v);
    equation(der(v) == -g);
    when(h < 0.0, {reinit(v, -e * pre(v))});
    equation(height == h);
    equation(speed == v);
  }
};

/// The ball's height at t in closed form: impact k at t_k, t_1 = sqrt(2 h0 / g),
/// then flights of 2 v_k / g with v_k = e^k v_1.
inline double bouncing_ball_height(double t, double g, double e, double h0) {
  double impact = std::sqrt(2 * h0 / g), v = g * impact;
  if (t <= impact) return h0 - 0.5 * g * t * t;
  for (;;) {
    v *= e;
    const double flight = 2 * v / g;
    if (t <= impact + flight) {
      const double s = t - impact;
      return v * s - 0.5 * g * s * s;
    }
    impact += flight;
  }
}

/// Van der Pol: der(x0) = x1, der(x1) = mu·(1 - x0²)·x1 - x0.
struct VanDerPol : Model {
  Parameter mu = parameter("mu", 1.0);
  Variable x0 = variable("x0", {.start = 2.0, .fixed = true});
  Variable x1 = variable("x1", {.start = 0.0, .fixed = true});
  RealOutput y0{*this, "y0"};
  RealOutput y1{*this, "y1"};
  VanDerPol() : Model("VanDerPol") {
    equation(der(x0) == x1);
    equation(der(x1) == mu * (1 - x0 * x0) * x1 - x0);
    equation(y0 == x0);
    equation(y1 == x1);
  }
};

/// A counter incremented by a time event every second, from t = 1 s on; no
/// continuous state, like the reference FMU (the compiled model integrates its
/// hidden event clock). Also as an Integer output n and a Boolean output odd.
struct Stair : Model {
  Discrete counter = discrete("counter", {.kind = DiscreteKind::integer});
  RealOutput y{*this, "y"};
  IntegerOutput n{*this, "n"};
  BooleanOutput odd{*this, "odd"};
  Stair() : Model("Stair") {
    when(sample(1.0, 1.0), {counter == pre(counter) + 1});
    equation(y == counter);
    equation(n == counter);
    equation(odd == (counter - 2 * floor(counter / 2) > 0.5));
  }
};

/// Inputs straight to outputs, and one through a first-order lag.
struct Feedthrough : Model {
  RealInput u{*this, "u"};
  RealInput w{*this, "w"};
  RealOutput y{*this, "y"};
  RealOutput z{*this, "z"};
  Parameter T = parameter("T", 0.1, {.unit = "s"});
  // A nominal the FMU passes on: x's magnitude, for the master's error weights.
  Variable x = variable("x", {.start = 0.0, .fixed = true, .nominal = 20.0});
  Feedthrough() : Model("Feedthrough") {
    equation(y == 2 * u);
    equation(T * der(x) == w - x);
    equation(z == x);
  }
};

}  // namespace acausal::test
