#pragma once
// The tractor of seed 003 (the Webots Kubota / McCormick tractor PROTO) as an
// assembly of the library's vehicle components, on soft soil or on a road.

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <type_traits>

#include "components/blocks/discrete/quantizer.hpp"
#include "components/blocks/math/add.hpp"
#include "components/blocks/noise/normal_noise.hpp"
#include "components/vehicle/bodies/vehicle_body.hpp"
#include "components/vehicle/bodies/wheel_contact_breakout.hpp"
#include "components/vehicle/driveline/brake.hpp"
#include "components/vehicle/driveline/clutch.hpp"
#include "components/vehicle/driveline/differential.hpp"
#include "components/vehicle/driveline/gearbox.hpp"
#include "components/vehicle/engines/engine.hpp"
#include "components/vehicle/terrain/soft_soil_wheel.hpp"
#include "components/vehicle/tractor/sensors.hpp"
#include "components/vehicle/tires/wheel.hpp"
#include "connectors/signal.hpp"
#include "connectors/translational.hpp"

namespace acausal::vehicle {

/// Seed 003's PROTO fields that the tractor takes over as they are.
struct TractorSeed {
  static constexpr double engineMinRPM = 1500, engineMaxRPM = 4500;
  /// engineFunctionCoefficients "150 1 0" = a, b, c of torque = c·rpm² + b·rpm + a [N.m].
  static constexpr double a = 150, b = 1, c = 0;
  /// gearRatio: the total ratio engine speed / wheel speed, reverse first, then gears 1..5.
  static constexpr std::array<double, 6> gearRatio = {-12, 8, 12, 16, 20, 24};
  /// brakeCoefficient: the largest damping constant the brake puts on a wheel joint [N.m.s/rad].
  static constexpr double brakeCoefficient = 700;
};

/// The tractor's Engine parameters: seed 003's torque law c·rpm² + b·rpm + a
/// (a = 150, b = 1, c = 0), held at its engineMinRPM value below 1500 rpm and
/// faded to 0 above engineMaxRPM = 4500 rpm over 100 rpm (the seed cuts it at once).
inline ParameterValues tractor_engine_parameters() {
  return {{"torque_model", 0},
          {"torque_a", TractorSeed::a},
          {"torque_b", TractorSeed::b},
          {"torque_c", TractorSeed::c},
          {"engineMinRPM", TractorSeed::engineMinRPM},
          {"engineMaxRPM", TractorSeed::engineMaxRPM},
          {"rpm_blend", 100.0},
          {"J", 1.5}};
}

/// The seed's gear number (-1 reverse, 0 neutral, 1..5 forward, their total
/// ratios rising 8, 12, …, 24) as the Gearbox's, whose forward ratios fall
/// with the gear number: forward gear g is the Gearbox's gear 6 - g.
struct SeedGearOrder : Component {
  RealInput gear{*this, "gear"};
  RealOutput gearbox_gear{*this, "gearbox_gear"};
  explicit SeedGearOrder(std::string name) : Component(std::move(name)) {
    equation(gearbox_gear == ifelse(gear < 0.5, gear, 6.0 - gear));
  }
};

/// Equipment chosen when a tractor is built.
struct TractorOptions {
  /// A GPS speed with noise and resolution on `gps_speed` (seed 003's sensor
  /// slot): the body's speed plus NormalNoise (gps_noise, σ 0.05 m/s) sampled
  /// every 0.1 s and rounded to 0.02 m/s by a Quantizer (gps_quantizer).
  /// Without it gps_speed is the body's speed, ideal.
  bool gps = false;
  /// Seed 003's other sensors (sensors.hpp), each sampled at 100 Hz with noise
  /// and resolution: an Accelerometer on `acceleration` (the specific force
  /// along the body, a_x + g·sin θ), a Gyro on `pitch_rate` (dθ/dt, the body's
  /// angle on the ground: on a height profile the chord between the axles'
  /// contact heights; the body does not pitch on a suspension of its own) and
  /// an InertialUnit on `pitch` (θ). Without them these outputs are ideal.
  bool sensors = false;
};

/// The tractor of seed 003 (WheelType: SoftSoilWheel on a soil, Wheel on a
/// road): engine (seed 003's torque law, tractor_engine_parameters) → clutch
/// → gearbox with the seed's total ratios → open differential (ratio 1: the
/// gearbox ratios are total) → a brake per rear wheel → the rear wheels; free
/// front wheels; a VehicleBody (4500 kg, L = 2.5 m, the CG 1.6 m behind the
/// front axle: 64 % of the static load on the rear axle, h_cg = 0.9 m); the
/// hitch, a translational flange at the rear axle (through a
/// WheelContactBreakout on the rear contact; it adds no load transfer: the
/// drawbar sits at ground level in this longitudinal model).
/// Driver's inputs: `throttle` (0…1), `brake_pedal` (0…1, both rear brakes),
/// `clutch_pedal` (engagement 0…1), `gear` (-1 reverse, 0 neutral, 1..5).
/// Gears: the seed's gearRatio [-12, 8, 12, 16, 20, 24] (reverse first) is
/// the ratio engine speed / wheel speed. The Gearbox wants forward ratios
/// falling with its gear number, so it holds them in the opposite order:
/// gearbox.ratio_1 = 24 (seed gear 5) … gearbox.ratio_5 = 8 (seed gear 1),
/// ratio_reverse = -12; `gear` reaches it through SeedGearOrder.
/// Brakes: seed 003's brakeCoefficient is a damping constant (700 N.m.s/rad
/// at full demand); here each rear Brake uses the smooth law
/// brake·tau_max·tanh(w/w_eps) with w_eps = 10 rad/s and
/// tau_max = 700·10 N.m, whose slope at standstill is the seed's coefficient
/// and which saturates at tau_max. Not modelled: the front suspension
/// (the body has no pitch or heave), steering.
/// Rear wheels 0.8 m radius, front 0.55 m; on soil 0.45 m and 0.3 m wide on
/// sandy loam (Wong's Table 2.3; set_soil for another), with the body's
/// rolling resistance Crr = 0 (the soil is the rolling resistance); on a
/// road μ 0.8 and the body's Crr 0.015. Starts at rest, the engine idling at
/// engineMinRPM; set_initial_speed() starts it rolling.
template <class WheelType>
struct TractorOf : Component {
  static constexpr bool on_soil = std::is_same_v<WheelType, SoftSoilWheel>;
  static constexpr double radius_rear = 0.8, radius_front = 0.55;

  RealInput throttle{*this, "throttle"}, brake_pedal{*this, "brake_pedal"}, clutch_pedal{*this, "clutch_pedal"};
  RealInput gear{*this, "gear"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};
  RealOutput gps_speed{*this, "gps_speed", {.unit = "m/s"}};
  RealOutput acceleration{*this, "acceleration", {.unit = "m/s2"}};
  RealOutput pitch_rate{*this, "pitch_rate", {.unit = "rad/s"}};
  RealOutput pitch{*this, "pitch", {.unit = "rad"}};
  translational::Flange hitch{*this, "hitch"};

  VehicleBody& body = add<VehicleBody>(
      "body", {{"m", 4500}, {"L", 2.5}, {"a", 1.6}, {"b", 0.9}, {"h_cg", 0.9}, {"Cd", 0.8}, {"A", 4.0},
               {"Crr", on_soil ? 0.0 : 0.015}});
  Engine& engine = add<Engine>("engine", tractor_engine_parameters());
  Clutch& clutch = add<Clutch>("clutch", {{"tau_max", 5000}});
  SeedGearOrder& gear_order = add<SeedGearOrder>("gear_order");
  Gearbox& gearbox = add<Gearbox>("gearbox", {{"ratio_reverse", TractorSeed::gearRatio[0]},
                                              {"ratio_1", TractorSeed::gearRatio[5]},
                                              {"ratio_2", TractorSeed::gearRatio[4]},
                                              {"ratio_3", TractorSeed::gearRatio[3]},
                                              {"ratio_4", TractorSeed::gearRatio[2]},
                                              {"ratio_5", TractorSeed::gearRatio[1]},
                                              {"efficiency_reverse", 0.97},
                                              {"efficiency_1", 0.97},
                                              {"efficiency_2", 0.97},
                                              {"efficiency_3", 0.97},
                                              {"efficiency_4", 0.97},
                                              {"efficiency_5", 0.97},
                                              {"tau_sync", 20000},
                                              {"J_in", 0.1}});
  Differential& differential = add<Differential>("differential", {{"ratio", 1.0}, {"efficiency", 0.98}});
  std::array<Brake*, 2> brakes{&rear_brake("brake_rl"), &rear_brake("brake_rr")};
  std::array<WheelType*, 4> wheels{&add_wheel("wheel_fl", false), &add_wheel("wheel_fr", false),
                                   &add_wheel("wheel_rl", true), &add_wheel("wheel_rr", true)};
  WheelContactBreakout& hitch_point = add<WheelContactBreakout>("hitch_point");

 protected:
  TractorOf(std::string name, TractorOptions options) : Component(std::move(name)) {
    connect(throttle, engine.throttle_input);
    connect(clutch_pedal, clutch.engagement_input);
    connect(gear, gear_order.gear);
    connect(gear_order.gearbox_gear, gearbox.gear_input);
    connect(engine.flange, clutch.flange_a);
    connect(clutch.flange_b, gearbox.flange_in);
    connect(gearbox.flange_out, differential.flange_input);
    connect(differential.flange_left, brakes[0]->flange_a);
    connect(differential.flange_right, brakes[1]->flange_a);
    for (int k = 0; k < 2; ++k) {
      connect(brake_pedal, brakes[k]->brake_input);
      connect(brakes[k]->flange_b, wheels[2 + k]->flange_rot);
    }
    for (int k = 0; k < 4; ++k) connect(wheels[k]->contact, k < 2 ? body.contact_front : body.contact_rear);
    connect(hitch_point.contact, body.contact_rear);
    connect(hitch_point.flange_traction, hitch);
    connect(body.speed, speed);
    if (options.gps) add_gps();
    else connect(body.speed, gps_speed);
    add_sensors(options.sensors);
    guess_sinkage();
    set_start("engine.w", TractorSeed::engineMinRPM * std::numbers::pi / 30.0);  // idling
    set_start("body.s", 0.0);
    set_start("body.v", 0.0);
    // Parts at rest by design (angles, speeds 0 as declared): no default_start warnings for them.
    intend_default_starts();
  }

 public:
  /// Starts the tractor rolling at v0 [m/s] with the rear wheels at the slip
  /// `slip_rear` (ω·r = v0/(1 - slip_rear)), the front wheels rolling freely,
  /// the gearbox's input shaft in mesh with the gear it is in and the engine
  /// turning with it. Call before compiling; a model that prescribes the
  /// body's speed (a speed source on the hitch) unfixes body.v afterwards.
  void set_initial_speed(double v0, double slip_rear = 0.0) {
    set_start("body.v", v0);
    for (int k = 0; k < 4; ++k)
      set_start(wheels[k]->name() + ".omega", k < 2 ? v0 / radius_front : v0 / (radius_rear * (1.0 - slip_rear)));
    set_start("gearbox.w_in", 0.0, false);
    set_start("engine.w", 0.0, false);
    initial_equation(gearbox.w_in == gearbox.ratio * gearbox.w_out);
    initial_equation(engine.w == gearbox.w_in);
  }

  /// The static axle loads of the body's current parameters (N), front and rear.
  std::array<double, 2> static_axle_loads() const {
    const auto value = [this](const std::string& p) {
      for (const auto& decl : body.parameters())
        if (decl.name == p) return decl.value;
      throw ModelError(path() + ": no body parameter " + p);
    };
    const double weight = value("m") * value("g");
    return {weight * value("b") / value("L"), weight * value("a") / value("L")};
  }

 protected:
  /// The soil wheels' start guesses of their sinkage under the static loads.
  void guess_sinkage() {
    if constexpr (on_soil) {
      const auto loads = static_axle_loads();
      for (int k = 0; k < 4; ++k) wheels[k]->guess_sinkage(0.5 * loads[k < 2 ? 0 : 1]);
    }
  }

 private:
  Brake& rear_brake(const std::string& name) {
    const double w_eps = 10.0;
    return add<Brake>(name, {{"friction", FrictionLaw::smooth},
                             {"w_eps", w_eps},
                             {"tau_max", TractorSeed::brakeCoefficient * w_eps}});
  }
  WheelType& add_wheel(const std::string& name, bool rear) {
    const double radius = rear ? radius_rear : radius_front;
    if constexpr (on_soil) {
      const Soil sandy_loam{.name = "sandy_loam", .moisture = 15, .n = 0.7, .k_c = 5.27e3, .k_phi = 1515.04e3,
                            .c = 1.72e3, .phi = 29.0 * std::numbers::pi / 180.0, .K = 0.025};
      return add<WheelType>(name, with_soil(sandy_loam,
                                            {{"radius", radius}, {"b", rear ? 0.45 : 0.3}, {"J", rear ? 40.0 : 10.0}},
                                            true));
    } else {
      return add<WheelType>(name, {{"radius", radius}, {"J", rear ? 40.0 : 10.0}, {"mu", 0.8}, {"c_z", 6e5}});
    }
  }
  void add_sensors(bool noisy) {
    const Expr specific_force = body.a_x + body.g * sin(body.theta), rate = der(body.theta);
    if (!noisy) {
      equation(acceleration == specific_force);
      equation(pitch_rate == rate);
      equation(pitch == body.theta);
      return;
    }
    auto& accelerometer = add<Accelerometer>("accelerometer");
    auto& gyro = add<Gyro>("gyro");
    auto& inertial_unit = add<InertialUnit>("inertial_unit");
    equation(accelerometer.u == specific_force);
    equation(gyro.u == rate);
    equation(inertial_unit.u == body.theta);
    connect(accelerometer.measured, acceleration);
    connect(gyro.measured, pitch_rate);
    connect(inertial_unit.measured, pitch);
  }
  void add_gps() {
    auto& noise = add<blocks::NormalNoise>("gps_noise", {{"sigma", 0.05}, {"samplePeriod", 0.1}});
    auto& sum = add<blocks::Add>("gps_sum");
    auto& quantizer = add<blocks::Quantizer>("gps_quantizer", {{"q", 0.02}, {"samplePeriod", 0.1}});
    connect(body.speed, sum.u1);
    connect(noise.y, sum.u2);
    connect(sum.y, quantizer.u);
    connect(quantizer.y, gps_speed);
  }
};

/// Seed 003's tractor on soft soil: four SoftSoilWheels (Wong–Reece) on sandy
/// loam by default; set_soil() puts it on another soil.
struct Tractor : TractorOf<SoftSoilWheel> {
  explicit Tractor(std::string name, TractorOptions options = {}) : TractorOf(std::move(name), options) {}

  /// Puts the four wheels on `soil` (a row of data/soils/soils.csv, vehicle::soil(name)) and guesses their sinkage
  /// again. Call before compiling.
  void set_soil(const Soil& soil) {
    for (SoftSoilWheel* wheel : wheels) wheel->set_soil(soil);
    guess_sinkage();
  }
};

/// Seed 003's tractor on a road: four tyred Wheels (tanh law, μ 0.8).
struct RoadTractor : TractorOf<Wheel> {
  explicit RoadTractor(std::string name, TractorOptions options = {}) : TractorOf(std::move(name), options) {}
};

}  // namespace acausal::vehicle
