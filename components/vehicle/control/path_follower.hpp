#pragma once

#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "connectors/signal.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal::vehicle {

/// Pure-pursuit driver: steers a car along a path given as points (x_i, y_i)
/// of its centerline in the world frame (set_path() before compiling). The
/// inputs are the pose of the car's reference point (x, y, yaw psi) and its
/// speed v; the reference point is the rear axle for the pure-pursuit law
/// (vehicle::KinematicBicycle's x, y, psi). The path is read by its arc
/// length: s_i, the cumulative length of its segments, and x(s), y(s)
/// linear between the points, held beyond the ends; heading(s), the segments'
/// headings (unwrapped) linear between the segments' midpoints, so that it is
/// continuous where x(s), y(s) turn a corner.
/// The state s is the car's progress, its projection on the path: the foot
/// point's speed along the path plus a correction that drives the residual
/// along the tangent to zero (time constant 1/k_track),
///   der(s) = v·cos(psi − heading(s)) + k_track·((x − x(s))·cos(heading(s)) + (y − y(s))·sin(heading(s))),
/// where the exact projection would divide the first term by 1 − κ·e (κ the
/// path's curvature, e the lateral error): the correction absorbs that and
/// the car's sideslip, which v·cos(psi − heading) leaves out.
///   lateral_error = −(x − x(s))·sin(heading(s)) + (y − y(s))·cos(heading(s))   (positive left of the path)
/// The lookahead point is the path L_d further on, (x(s + L_d), y(s + L_d)),
/// with L_d = max(L_min, t_preview·|v|); eta is its bearing in the car's
/// frame, atan2 of its body-frame offset, and pure pursuit steers on the arc
/// through it: curvature 2·sin(eta)/L_d, delta = atan(2·L·sin(eta)/L_d),
/// clamped to ±delta_max (a kink, an event). L_d is the distance along the
/// path, not the chord to the point: on a circle of radius R the two differ
/// by L_d³/(24·R²), which leaves the car 0.5 mm outside a 30 m circle at
/// L_d = 5 m (the steady state solves 2·sin(eta)/L_d = 1/R_v). On a straight
/// path the linearized loop is second order with natural frequency
/// √2·|v|/L_d and damping 1/√2 for any lookahead: the lateral error
/// overshoots by e^−π ≈ 4.3 % and settles to 2 % in about 4·L_d of travel.
/// The path is read with a table search (no events at its points: a kink in
/// x(s) is smooth enough for the integrator, and a path of many points would
/// otherwise watch several relations per point). Past the path's end the
/// lookahead point stays at the last point: give the path on beyond where
/// the run ends. s starts at 0 (set_start moves it).
struct PathFollower : Component {
  RealInput x{*this, "x", {.unit = "m"}};
  RealInput y{*this, "y", {.unit = "m"}};
  RealInput psi{*this, "psi", {.unit = "rad"}};
  RealInput v{*this, "v", {.unit = "m/s"}};
  RealOutput delta{*this, "delta", {.unit = "rad"}};
  RealOutput lateral_error{*this, "lateral_error", {.unit = "m"}};
  RealOutput s{*this, "s", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  Parameter L = parameter("L", 2.7, {.unit = "m", .min = 0, .description = "wheelbase"});
  Parameter t_preview = parameter(
      "t_preview", 0.5, {.unit = "s", .min = 0, .description = "lookahead time: L_d = max(L_min, t_preview·|v|)"});
  Parameter L_min = parameter("L_min", 3.0, {.unit = "m", .min = 0, .description = "shortest lookahead distance"});
  Parameter delta_max = parameter(
      "delta_max", 0.6, {.unit = "rad", .min = 0, .max = std::numbers::pi / 2, .description = "steering limit"});
  Parameter k_track = parameter(
      "k_track", 5.0, {.unit = "1/s", .min = 0, .description = "gain of the progress s towards the car's projection"});
  Variable L_d = variable("L_d", {.unit = "m", .description = "lookahead distance along the path"});
  Variable x_path = variable("x_path", {.unit = "m", .description = "the path at s"});
  Variable y_path = variable("y_path", {.unit = "m", .description = "the path at s"});
  Variable heading = variable("heading", {.unit = "rad", .description = "the path's heading at s"});
  Variable x_goal = variable("x_goal", {.unit = "m", .description = "the lookahead point, the path at s + L_d"});
  Variable y_goal = variable("y_goal", {.unit = "m", .description = "the lookahead point, the path at s + L_d"});
  Variable eta = variable("eta", {.unit = "rad", .description = "bearing of the lookahead point from the car's axis"});
  Variable delta_pursuit = variable("delta_pursuit", {.unit = "rad", .description = "pure pursuit's angle, unlimited"});
  double length = 0;  // m, the path's length (set_path)

  explicit PathFollower(std::string name) : Component(std::move(name)) {
    require(L_min > 0, "the shortest lookahead distance L_min must be positive (the steering law divides by L_d)");
    equation(L_d == max(L_min, t_preview * abs(v)));
    const Expr c = cos(heading), n = sin(heading);
    equation(der(s) == v * cos(psi - heading) + k_track * ((x - x_path) * c + (y - y_path) * n));
    equation(lateral_error == -(x - x_path) * n + (y - y_path) * c);
    const Expr dx = x_goal - x, dy = y_goal - y;
    equation(eta == atan2(-sin(psi) * dx + cos(psi) * dy, cos(psi) * dx + sin(psi) * dy));
    equation(delta_pursuit == atan(2 * L * sin(eta) / L_d));
    equation(delta == min(max(delta_pursuit, -delta_max), delta_max));
  }

  /// The path's points (x, y) [m] in the world frame, in the order driven: at
  /// least two, consecutive ones distinct. A second call replaces the path.
  void set_path(const std::vector<std::pair<double, double>>& points) {
    const std::string owner = fmt::format("PathFollower '{}'", path());
    if (points.size() < 2)
      throw ModelError(fmt::format("{}: a path needs at least two points, {} given", owner, points.size()));
    Table1D px, py, ph;  // x(s), y(s); the segments' headings at their midpoints
    double arc = 0, previous = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto [xi, yi] = points[i];
      if (!std::isfinite(xi) || !std::isfinite(yi))
        throw ModelError(fmt::format("{}: point {} ({}, {}) is not finite", owner, i + 1, xi, yi));
      if (i > 0) {
        const double dx = xi - points[i - 1].first, dy = yi - points[i - 1].second, ds = std::hypot(dx, dy);
        if (!(ds > 0))
          throw ModelError(fmt::format("{}: points {} and {} are both ({}, {}): consecutive points must be distinct",
                                       owner, i, i + 1, xi, yi));
        if (!(arc + ds > arc) || !std::isfinite(arc + ds))
          throw ModelError(
              fmt::format("{}: the segment from point {} to {} is too short or too long to measure "
                          "along a path {} m long",
                          owner, i, i + 1, arc));
        double h = std::atan2(dy, dx);
        if (i > 1) h = previous + std::remainder(h - previous, 2 * std::numbers::pi);  // unwrapped
        ph.x.push_back(arc + ds / 2);
        ph.y.push_back(h);
        previous = h;
        arc += ds;
      }
      px.x.push_back(arc);
      px.y.push_back(xi);
      py.x.push_back(arc);
      py.y.push_back(yi);
    }
    length = arc;
    const Expr ahead = s + L_d;
    const std::vector<Equation> reads = {x_path == acausal::table(s, px), y_path == acausal::table(s, py),
                                         heading == (ph.x.size() == 1 ? Expr(ph.y.front()) : acausal::table(s, ph)),
                                         x_goal == acausal::table(ahead, px), y_goal == acausal::table(ahead, py)};
    if (path_equations_.empty())
      for (const Equation& e : reads) path_equations_.push_back(equation(e));
    else
      for (std::size_t k = 0; k < reads.size(); ++k) replace_equation(path_equations_[k], reads[k]);
  }

 private:
  std::vector<std::size_t> path_equations_;  // the equations reading the path, in set_path's order
};

}  // namespace acausal::vehicle
