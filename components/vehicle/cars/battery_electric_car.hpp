#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "components/electrical/batteries/cell_stack.hpp"
#include "components/electrical/ground.hpp"
#include "components/vehicle/bodies/vehicle_body.hpp"
#include "components/vehicle/cars/car_driveline.hpp"
#include "components/vehicle/cars/passenger_car.hpp"
#include "components/vehicle/control/abs_controller.hpp"
#include "components/vehicle/control/ev_controller.hpp"
#include "components/vehicle/driveline/brake.hpp"
#include "components/vehicle/driveline/differential.hpp"
#include "components/vehicle/electric/motor_drive.hpp"
#include "components/vehicle/tires/wheel.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// A battery-electric compact car on the chassis of PassengerCarOf (the same
/// VehicleBody with load transfer, four 205/55R16 Wheels with μ 0.9, four
/// Brakes of 1600 N.m front and 800 N.m rear, ABS optional): a
/// CellStack pack → MotorDrive → single-speed reducer and open differential
/// (one Differential of the total ratio, 9.0, efficiency 0.98) → the driven
/// axle's brakes → its wheels, the front ones by default. An EVController
/// sits between the pedals and the drive: `throttle` (accelerator, 0…1) asks
/// for a share of the drive torque the motor's envelope and the pack's
/// discharge limit allow; `brake_pedal` (0…1, 0…1, T_brake_max = 4800 N.m at the
/// wheels at full pedal, the brakes' sum) brakes regeneratively first, up to
/// the motor's envelope and the pack's charge limit and fading linearly to
/// nothing below v_fade = 2.5 m/s, and the friction brakes (or their ABS,
/// which then acts on the friction share only) take the rest. `clutch_pedal` is
/// accepted and ignored: the car has no clutch, the input is there so that
/// the PassengerCar family's drivers (CycleDriver, harness::drive_launch)
/// wire to it unchanged; like any input of a part it must be connected to
/// something. `speed` is the body's. The pack's chemical energy is stored,
/// not supplied: the energy books see the pack give energy and take it back;
/// a run that empties the pack (or overfills it) ends with the pack's
/// "battery exhausted" ("battery overcharged") error.
///
/// Parameters (a compact EV, illustrative, not one car's data):
///  - body: m 1600 kg, L 2.7 m, the CG a = 1.05 m behind the front axle (61 %
///    of the static load on the front wheels; 1.35 m, 50 %, with rear drive)
///    and h_cg = 0.50 m (the pack lies in the floor), Cd 0.28, A 2.3 m²
///    (compact hatchbacks and crossovers lie at 0.27–0.30 and 2.2–2.4 m²),
///    Crr 0.009 on the body (tyres of EU label class B–C plus bearing drag);
///    the wheels' Crr stays 0, as the chassis requires.
///  - motor: MotorDrive of 250 N.m and 100 kW (base speed 400 rad/s, 50 km/h
///    here), T_c 0.02 s, rotor J 0.05 kg.m2, its default loss model
///    (96.7 % at the corner of the envelope).
///  - reducer and differential: 9.0 in one Differential: 100 km/h is
///    7550 rpm at the motor, the WLTC's 131.3 km/h 9900 rpm; full motor
///    torque gives 6980 N at the wheels, within μ·N of the front axle at the
///    launch's load transfer.
///  - pack: 96 cells in series × 3 in parallel of 50 Ah NMC/graphite cells
///    (Qnom 180000 A.s per cell): 150 Ah, 288–403 V (3.0–4.2 V per cell),
///    362 V mean open-circuit voltage, 54.3 kWh of ∫OCV dQ from SOC 0 to 1;
///    Ri 3.125 mΩ per cell, 0.1 Ω for the pack; SOC0 0.9 (a daily charge,
///    which leaves room for regeneration). The OCV table, nmc_ocv_table(), is
///    the typical shape of an NMC/graphite cell's open-circuit voltage, rounded
///    (a steep knee below 10 %, a plateau near 3.6–3.8 V, a rise to 4.2 V);
///    compare the pseudo-OCV of the LG M50 (NMC811) in Chen et al., J.
///    Electrochem. Soc. 167 (2020) 080534. Not a fit to one cell.
///  - controller: EVController with the reducer's ratio and the brakes' sum
///    (relations of the car refuse a mismatch when either is changed).
///
/// Published figures to compare with: front-drive compact EVs of 1.5–1.7 t
/// and 100–150 kW, their manufacturers' WLTP combined consumption (collected
/// in "WLTP range and efficiency of electric cars", pushevs.com, 2019-09-23):
/// Hyundai IONIQ Electric (38.3 kWh) 13.8 kWh/100 km, Hyundai Kona Electric
/// (64 kWh) 15.4 kWh/100 km, Renault Zoe R110 (52 kWh) 17.2 kWh/100 km. WLTP
/// figures are energy drawn from the mains: they include the charger's and
/// the battery's charging losses (about 10–15 %), so such cars use roughly
/// 12–15 kWh/100 km at the battery. This model has no auxiliaries (no heating,
/// air conditioning or 12 V loads) and drives the cycle at the battery
/// terminals: a quasi-static estimate of its WLTC gives about 11 kWh/100 km
/// (tests/test_battery_electric_car.cpp checks the simulated figure).
///
/// The parts are children (`body`, `pack`, `ground`, `motor`, `controller`,
/// `differential`, `brake_fl` … `brake_rr`, `wheel_fl` … `wheel_rr`, with
/// ABS `abs_fl` … `abs_rr`): change their parameters there (`car.pack.SOC0`,
/// `car.motor.P_max`). Starts at rest.
struct BatteryElectricCar : Component {
  RealInput throttle{*this, "throttle"}, brake_pedal{*this, "brake_pedal"}, clutch_pedal{*this, "clutch_pedal"};
  RealOutput speed{*this, "speed", {.unit = "m/s"}};

  VehicleBody& body;
  electrical::CellStack& pack = add<electrical::CellStack>("pack", {{"Ns", 96.0},
                                                                    {"Np", 3.0},
                                                                    {"Qnom", 50.0 * 3600.0},
                                                                    {"OCVmax", 4.2},
                                                                    {"OCVmin", 3.0},
                                                                    {"Ri", 3.125e-3},
                                                                    {"SOC0", 0.9}});
  electrical::Ground& ground = add<electrical::Ground>("ground");
  MotorDrive& motor = add<MotorDrive>("motor", {{"tau_max", 250.0}, {"P_max", 100e3}, {"T_c", 0.02}, {"J", 0.05}});
  EVController& controller =
      add<EVController>("controller", {{"ratio", reducer_ratio}, {"T_brake_max", 4800.0}, {"v_fade", 2.5}});
  Differential& differential =
      add<Differential>("differential", {{"ratio", reducer_ratio}, {"efficiency", 0.98}});
  std::array<Brake*, 4> brakes = add_car_brakes(*this);
  std::array<Wheel*, 4> wheels = add_car_wheels(*this);
  std::array<ABSController*, 4> abs{};  // fl, fr, rl, rr; null without ABS

  explicit BatteryElectricCar(std::string name, CarOptions options = {}, DrivenAxle driven = DrivenAxle::front)
      : Component(std::move(name)), body(add<VehicleBody>("body", body_parameters(driven))) {
    if (options.esc)
      throw ModelError("car '" + this->name() + "': a stability control (esc) needs yaw: use the planar car, vehicle.PlanarCar");
    pack.set_ocv_table(nmc_ocv_table());
    // Static axle loads as the first guess of the initialization: from zero
    // loads its Newton iteration fails with the energy books on.
    const ParameterValues geometry = body_parameters(driven);
    const auto value = [&](const char* name) {
      for (const auto& [key, v] : geometry)
        if (key == name) return v;
      return 0.0;
    };
    const double weight = value("m") * 9.81, L = value("L");
    for (int k = 0; k < 4; ++k)
      set_start(wheels[k]->name() + ".N", 0.5 * weight * (k < 2 ? value("b") : value("a")) / L);
    const int left = driven == DrivenAxle::front ? 0 : 2;
    connect(body.speed, speed);
    connect(throttle, controller.accelerator);
    connect(brake_pedal, controller.brake);
    connect(body.speed, controller.v);
    connect(motor.w, controller.w_motor);
    connect(motor.tau_max_available, controller.tau_available);
    connect(pack.P_dis_max, controller.P_discharge_max);
    connect(pack.P_chg_max, controller.P_charge_max);
    connect(controller.tau_ref, motor.tau_ref);
    connect(pack.p, motor.p);
    connect(pack.n, motor.n);
    connect(pack.n, ground.p);
    connect(motor.flange, differential.flange_input);
    wire_half_shafts(*this, differential, *brakes[left], *brakes[left + 1], options);
    abs = wire_car_corners(*this, body, brakes, wheels, controller.brake_demand, options.abs);
    require_rolling_resistance_once(*this, body, wheels);
    // The controller splits the pedal's torque between the motor and the
    // brakes by these two numbers; stale copies would brake harder or softer
    // than the pedal asks.
    require(acausal::abs(controller.ratio - differential.ratio) <= 1e-12 * differential.ratio,
            "the controller's ratio is the reducer's: set controller.ratio with differential.ratio");
    require(acausal::abs(controller.T_brake_max -
                         (brakes[0]->tau_max + brakes[1]->tau_max + brakes[2]->tau_max + brakes[3]->tau_max)) <=
                1e-12 * controller.T_brake_max,
            "the controller's T_brake_max is the four brakes' tau_max together: change it with them");
    set_start("body.s", 0.0);
    set_start("body.v", 0.0);
    // Parts at rest by design (angles, speeds 0 as declared): no default_start warnings for them.
    intend_default_starts();
  }

  /// The pack's cells: open-circuit voltage over SOC, normalized by OCVmax =
  /// 4.2 V (points in V: 3.00 at SOC 0, 3.50 at 0.1, 3.76 at 0.5, 4.08 at
  /// 0.9, 4.20 at 1; see the paragraph above for what it is based on).
  static std::vector<std::pair<double, double>> nmc_ocv_table() {
    static const std::array<std::pair<double, double>, 12> volts{{{0.00, 3.00},
                                                                  {0.05, 3.40},
                                                                  {0.10, 3.50},
                                                                  {0.20, 3.59},
                                                                  {0.30, 3.65},
                                                                  {0.40, 3.70},
                                                                  {0.50, 3.76},
                                                                  {0.60, 3.83},
                                                                  {0.70, 3.91},
                                                                  {0.80, 3.99},
                                                                  {0.90, 4.08},
                                                                  {1.00, 4.20}}};
    std::vector<std::pair<double, double>> normalized;
    for (const auto& [soc, v] : volts) normalized.emplace_back(soc, v / 4.2);
    return normalized;
  }

  /// The body: 1600 kg, L 2.7 m, h_cg 0.50 m, Cd 0.28, A 2.3 m², Crr 0.009;
  /// the CG 1.05 m behind the front axle with front drive (61 % of the static
  /// load on the driven wheels, the drive unit ahead of the front axle), 1.35 m
  /// with rear drive (the drive unit at the rear axle: 50 %).
  static ParameterValues body_parameters(DrivenAxle driven) {
    const double L = 2.7, a = driven == DrivenAxle::front ? 1.05 : 1.35;
    return {{"m", 1600.0}, {"L", L}, {"a", a}, {"b", L - a}, {"h_cg", 0.50}, {"Cd", 0.28}, {"A", 2.3}, {"Crr", 0.009}};
  }

  /// Motor speed over the driven wheels' mean speed.
  static constexpr double reducer_ratio = 9.0;
};

}  // namespace acausal::vehicle
