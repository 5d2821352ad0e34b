#pragma once

#include <array>
#include <string>
#include <vector>

#include "components/vehicle/terrain/height_map.hpp"
#include "connectors/planar.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// A car's body moving in the road plane (three degrees of freedom: x, y and
/// yaw psi), with the wheels' vertical loads from quasi-static load transfer.
/// The CG lies a behind the front axle and b ahead of the rear one, h_cg above
/// the road; the wheel mounts frame_fl … frame_rr sit at (a, ±track_f/2) and
/// (−b, ±track_r/2) in body axes (x forward, y left, ISO 8855), turned with the
/// body. In body axes, with the wheels' forces F_i on the mounts,
///   m·(der(v_x) − r·v_y) = Σ F_x,i − F_drag,   m·(der(v_y) + r·v_x) = Σ F_y,i,
///   Iz·der(r) = Σ (x_i·F_y,i − y_i·F_x,i + tau_i),
/// drag 0.5·rho·Cd·A·v_x²·tanh(v_x/v_eps) at CG height. The road may be a
/// plane inclined by `grade` (rad) whose steepest ascent points along the
/// world direction `grade_heading` (rad from the x axis; x, y are coordinates
/// in the inclined plane): gravity's component in the plane, m·g·sin(grade)
/// downhill, acts at the CG, (F_grade_x, F_grade_y) in body axes, added to the
/// wheels' forces above, and m·g·cos(grade) presses the car onto the road.
/// Or the road is a height map z(x, y) (set_height_map), read under each wheel.
/// The loads (outputs N_fl … N_rr, to the wheels' N inputs) follow from the
/// road's forces on the tires, F_road,x = m·a_x + F_drag − F_grade_x and
/// F_road,y = m·a_y − F_grade_y, acting h_cg below the CG: the axles carry
///   N_front = (m·g·cos(grade)·b − F_road,x·h_cg)/L,   N_rear = m·g·cos(grade) − N_front,
/// (traction, braking and a climb pitch the load rearwards, as in VehicleBody)
/// and F_road,y·h_cg moves load from the inner to the outer wheels (on a cross
/// slope standing still, to the downhill ones), split between the axles by the
/// roll-stiffness share roll_share_front (roll centres at the road,
/// quasi-static roll): the front axle's outer wheel gains
/// roll_share_front·F_road,y·h_cg/track_f. Loads are not clipped (a wheel
/// reads a negative load as 0); no pitch motion.
/// Roll (roll_dynamics, structural): off (default), the transfer above is
/// quasi-static and phi_roll reports the body's steady roll angle
/// F_road,y·h_cg/(K_roll − m·g·h_cg); on, the body rolls about an axis on
/// the road (ISO 8855: positive right side down, so a left turn rolls it
/// positive) as a side degree of freedom driven by the planar motion,
///   Ix·der(w_roll) = F_road,y·h_cg + m·g·h_cg·phi_roll − K_roll·phi_roll − C_roll·w_roll,
/// (small angles; Ix about that axis, m·h_cg² included) and the suspension's
/// moment M_roll = K_roll·phi_roll + C_roll·w_roll, split by
/// roll_share_front, is what moves load across: the front outer wheel gains
/// roll_share_front·M_roll/track_f. In a steady turn that is K/(K − m·g·h)
/// times the quasi-static transfer (the rolled CG leans outward); the roll
/// does not act back on the planar motion (the CG's sideways swing h·der(w_roll)
/// is left out), so the driving moment's work F_road,y·h_cg·w_roll is booked
/// as supplied. Gravity's work is supplied
/// from outside, as VehicleBody books its grade force. The states are v_x,
/// v_y, r and the pose x, y, psi.
struct PlanarVehicleBody : Component {
  planar::Frame frame_fl{*this, "frame_fl"}, frame_fr{*this, "frame_fr"}, frame_rl{*this, "frame_rl"},
      frame_rr{*this, "frame_rr"};
  RealOutput N_fl{*this, "N_fl", {.unit = "N"}}, N_fr{*this, "N_fr", {.unit = "N"}},
      N_rl{*this, "N_rl", {.unit = "N"}}, N_rr{*this, "N_rr", {.unit = "N"}};
  Parameter m = parameter("m", 1500.0, {.unit = "kg", .min = 0});
  Parameter Iz = parameter("Iz", 2500.0, {.unit = "kg.m2", .min = 0, .description = "yaw inertia"});
  Parameter a = parameter("a", 1.2, {.unit = "m", .min = 0, .description = "front axle to CG"});
  Parameter b = parameter("b", 1.5, {.unit = "m", .min = 0, .description = "CG to rear axle"});
  Parameter h_cg = parameter("h_cg", 0.55, {.unit = "m", .min = 0});
  Parameter track_f = parameter("track_f", 1.55, {.unit = "m", .min = 0, .description = "front track width"});
  Parameter track_r = parameter("track_r", 1.55, {.unit = "m", .min = 0, .description = "rear track width"});
  Parameter roll_share_front =
      parameter("roll_share_front", 0.55, {.min = 0, .max = 1, .description = "front axle's share of the roll stiffness"});
  Parameter roll_dynamics = parameter("roll_dynamics", 0.0,
                                      {.description = "the body rolls on its suspension (off: quasi-static, on)",
                                       .choices = {"off", "on"}});
  Parameter K_roll =
      parameter("K_roll", 1.0e5, {.unit = "N.m/rad", .min = 0, .description = "roll stiffness of both axles"});
  Parameter C_roll =
      parameter("C_roll", 6500.0, {.unit = "N.m.s/rad", .min = 0, .description = "roll damping of both axles"});
  Parameter Ix = parameter("Ix", 700.0, {.unit = "kg.m2", .min = 0, .description = "roll inertia about the road"});
  Parameter Cd = parameter("Cd", 0.3, {.min = 0});
  Parameter A = parameter("A", 2.2, {.unit = "m2", .min = 0});
  Parameter rho = parameter("rho", 1.225, {.unit = "kg/m3", .min = 0});
  Parameter g = parameter("g", 9.81, {.unit = "m/s2", .min = 0});
  Parameter v_eps = parameter("v_eps", 0.1, {.unit = "m/s", .min = 1e-9});
  Parameter grade =
      parameter("grade", 0.0, {.unit = "rad", .min = -1.5, .max = 1.5, .description = "the road plane's slope angle"});
  Parameter grade_heading = parameter(
      "grade_heading", 0.0, {.unit = "rad", .description = "world direction of the steepest ascent, from the x axis"});

  RealOutput x{*this, "x", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput y{*this, "y", {.unit = "m", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput psi{*this, "psi", {.unit = "rad", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput v_x{*this, "v_x", {.unit = "m/s", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput v_y{*this, "v_y", {.unit = "m/s", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  RealOutput r{*this, "r", {.unit = "rad/s", .start = 0.0, .fixed = true, .state = StateSelect::prefer}};
  Variable a_x = variable("a_x", {.unit = "m/s2"});
  RealOutput a_y{*this, "a_y", {.unit = "m/s2"}};
  RealOutput beta{*this, "beta", {.unit = "rad", .description = "sideslip atan(v_y/|v_x|)"}};
  // Forces and moments declare their magnitude (nominal): the integrator's absolute tolerance scales
  // with it, so the round-off of a zero lateral force at an oblique heading is not held to a speed's atol.
  Variable F_x = variable("F_x", {.unit = "N", .nominal = 1e3, .description = "wheels' force along the body"});
  Variable F_y = variable("F_y", {.unit = "N", .nominal = 1e3, .description = "wheels' force across the body"});
  Variable M_z = variable("M_z", {.unit = "N.m", .nominal = 1e3, .description = "wheels' yaw moment about the CG"});
  Variable F_drag = variable("F_drag", {.unit = "N", .nominal = 1e3});
  Variable F_grade_x = variable("F_grade_x", {.unit = "N", .nominal = 1e3,
                                              .description = "gravity in the road plane, along the body"});
  Variable F_grade_y = variable("F_grade_y", {.unit = "N", .nominal = 1e3,
                                              .description = "gravity in the road plane, across the body"});
  Variable M_grade = variable("M_grade", {.unit = "N.m", .nominal = 1e3,
                                          .description = "gravity's yaw moment about the CG (a height map under the wheels)"});
  Variable N_front = variable("N_front", {.unit = "N", .nominal = 1e3});
  Variable N_rear = variable("N_rear", {.unit = "N", .nominal = 1e3});
  Variable phi_roll = variable("phi_roll", {.unit = "rad", .description = "roll angle, positive right side down"});
  Variable w_roll = variable("w_roll", {.unit = "rad/s", .description = "roll rate (roll_dynamics)"});
  Variable M_roll = variable("M_roll", {.unit = "N.m", .nominal = 1e3,
                                        .description = "the suspension's roll moment on the wheels"});

  explicit PlanarVehicleBody(std::string name) : Component(std::move(name)) {
    stored_energy(0.5 * m * (v_x * v_x + v_y * v_y) + 0.5 * Iz * r * r);
    dissipated_power(F_drag * v_x);
    supplied_power(F_grade_x * v_x + F_grade_y * v_y + M_grade * r);
    require(m > 0, "the mass m must be positive");
    require(Iz > 0, "the yaw inertia Iz must be positive");
    require(a + b > 0, "the wheelbase a + b must be positive");
    require(track_f > 0 && track_r > 0, "the track widths must be positive (the load transfer divides by them)");
    // The roll angle divides by the net roll stiffness; rolling, der(w_roll) needs a roll inertia.
    require(K_roll > m * g * h_cg, "the roll stiffness K_roll must exceed m·g·h_cg (or the body tips over)");
    require(Ix > 0, "the roll inertia Ix must be positive");
    const Expr c = cos(psi), s = sin(psi), L = a + b;
    equation(der(x) == v_x * c - v_y * s);
    equation(der(y) == v_x * s + v_y * c);
    equation(der(psi) == r);
    Expr sum_x(0.0), sum_y(0.0), moment(0.0);
    const std::array<planar::Frame*, 4> mounts{&frame_fl, &frame_fr, &frame_rl, &frame_rr};
    const std::array<Expr, 4> along{a, a, -b, -b}, across{0.5 * track_f, -0.5 * track_f, 0.5 * track_r, -0.5 * track_r};
    for (int k = 0; k < 4; ++k) {
      planar::Frame& f = *mounts[k];
      equation(f.x == x + along[k] * c - across[k] * s);
      equation(f.y == y + along[k] * s + across[k] * c);
      equation(f.phi == psi);
      const Expr fx_body = f.fx * c + f.fy * s, fy_body = -f.fx * s + f.fy * c;
      sum_x = sum_x + fx_body;
      sum_y = sum_y + fy_body;
      moment = moment + along[k] * fy_body - across[k] * fx_body + f.tau;
    }
    equation(F_x == sum_x);
    equation(F_y == sum_y);
    equation(M_z == moment);
    equation(F_drag == 0.5 * rho * Cd * A * v_x * v_x * tanh(v_x / v_eps));
    // The downhill direction, −(cos χ, sin χ) in world axes, seen from the body turned by psi.
    const Expr downhill = -m * g * sin(grade);
    grade_x_law_ = equation(F_grade_x == downhill * cos(grade_heading - psi));
    grade_y_law_ = equation(F_grade_y == downhill * sin(grade_heading - psi));
    equation(a_x == der(v_x) - r * v_y);
    equation(a_y == der(v_y) + r * v_x);
    equation(m * a_x == F_x - F_drag + F_grade_x);
    equation(m * a_y == F_y + F_grade_y);
    grade_yaw_law_ = equation(M_grade == 0.0);
    equation(Iz * der(r) == M_z + M_grade);
    // |v_x| regularized below v_eps as in the wheels' slips: exact above it.
    equation(beta == atan(v_y / no_event(ifelse(abs(v_x) >= v_eps, abs(v_x), 0.5 * (v_x * v_x / v_eps + v_eps)))));
    const Expr weight = m * g * cos(grade), road_x = m * a_x + F_drag - F_grade_x, road_y = m * a_y - F_grade_y;
    front_law_ = equation(N_front == (weight * b - road_x * h_cg) / L);
    rear_law_ = equation(N_rear == weight - N_front);
    // Roll: off, every roll term folds away and the transfer is road_y·h_cg.
    const Expr rolls = chosen(roll_dynamics, 1), net_stiffness = K_roll - m * g * h_cg;
    stored_energy(ifelse(rolls, 0.5 * Ix * w_roll * w_roll + 0.5 * net_stiffness * phi_roll * phi_roll, 0.0));
    dissipated_power(ifelse(rolls, C_roll * w_roll * w_roll, 0.0));
    supplied_power(ifelse(rolls, road_y * h_cg * w_roll, 0.0));
    equation(0.0 == ifelse(rolls, w_roll - der(phi_roll), phi_roll - road_y * h_cg / net_stiffness));
    equation(0.0 == ifelse(rolls, Ix * der(w_roll) - road_y * h_cg + net_stiffness * phi_roll + C_roll * w_roll,
                           w_roll));
    equation(M_roll == ifelse(rolls, K_roll * phi_roll + C_roll * w_roll, road_y * h_cg));
    const Expr shift_front = roll_share_front * M_roll / track_f;
    const Expr shift_rear = (1.0 - roll_share_front) * M_roll / track_r;
    equation(N_fl == 0.5 * N_front - shift_front);
    equation(N_fr == 0.5 * N_front + shift_front);
    equation(N_rl == 0.5 * N_rear - shift_rear);
    equation(N_rr == 0.5 * N_rear + shift_rear);
  }

  /// The road as a height map z(x, y) (HeightMap, load_height_map) in place
  /// of the inclined plane (`grade`, `grade_heading` are then unused). The
  /// map's x, y are read at horizontal positions, the planar motion being the
  /// horizontal projection of the motion on the surface. Each point the body
  /// reads the map at carries a share w of the weight: under each wheel
  /// (TerrainSampling::wheels, default) the static shares b/(2L) at the front
  /// wheels and a/(2L) at the rear ones; under the CG alone (::cg) all of it.
  /// At each point gravity's part along the surface, −w·m·g·∇z/sqrt(1 + |∇z|²)
  /// in world axes, acts on the body, and w·m·g/sqrt(1 + |∇z|²) presses it onto
  /// the road (the normal load that the axles share as on the plane). Applied
  /// at the wheels, those pulls also turn the body (M_grade): a slope under one
  /// side's front wheel yaws it. On a tilted plane the forces are the `grade`
  /// plane's exactly and M_grade is zero (the shares balance about the CG); a
  /// trough or bump between the axles is felt only as the wheels cross it.
  /// Over curved ground, distances along the surface are longer by
  /// 1/cos(slope), which the planar model leaves out, so gravity's work
  /// equals the drop of m·g·Σ w·z to within that factor. Throws when the map
  /// is steeper than 1.5 rad at a node or cell centre. Call before compiling.
  void set_height_map(const HeightMap& map, TerrainSampling sampling = TerrainSampling::wheels) {
    map.require_max_angle(1.5, path());
    const Expr c = cos(psi), s = sin(psi), L = a + b;
    struct Point {
      Expr along, across, share;
    };
    std::vector<Point> points;
    if (sampling == TerrainSampling::cg)
      points.push_back({Expr(0.0), Expr(0.0), Expr(1.0)});
    else
      points = {{a, 0.5 * track_f, 0.5 * b / L},
                {a, -0.5 * track_f, 0.5 * b / L},
                {-b, 0.5 * track_r, 0.5 * a / L},
                {-b, -0.5 * track_r, 0.5 * a / L}};
    Expr fx_body(0.0), fy_body(0.0), yaw(0.0), weight(0.0);
    for (const Point& p : points) {
      const auto [zx, zy] = map.gradient(x + p.along * c - p.across * s, y + p.along * s + p.across * c);
      const Expr secant = sqrt(1.0 + zx * zx + zy * zy), pull = -m * g * p.share / secant;
      const Expr fx = pull * (zx * c + zy * s), fy = pull * (-zx * s + zy * c);  // in body axes
      fx_body = fx_body + fx;
      fy_body = fy_body + fy;
      yaw = yaw + p.along * fy - p.across * fx;
      weight = weight + m * g * p.share / secant;
    }
    replace_equation(grade_x_law_, F_grade_x == fx_body);
    replace_equation(grade_y_law_, F_grade_y == fy_body);
    replace_equation(grade_yaw_law_, M_grade == yaw);
    const Expr road_x = m * a_x + F_drag - F_grade_x;
    replace_equation(front_law_, N_front == (weight * b - road_x * h_cg) / L);
    replace_equation(rear_law_, N_rear == weight - N_front);
  }

 private:
  std::size_t grade_x_law_ = 0, grade_y_law_ = 0, grade_yaw_law_ = 0, front_law_ = 0, rear_law_ = 0;
};

}  // namespace acausal::vehicle
