// The Modelica Standard Library's example Translational.Examples.Vehicle
// (MSL 4.0.0) rebuilt with our components and compared with its reference
// result (MAP-LIB, Dymola, DASSL at 1e-6; tests/data/msl, see the README files
// there). A CombiTimeTable with jumps (hit as time events) drives two vehicles;
// the second pulls a trailer. Every compared signal must stay within 1e-3 of
// its range.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "components/blocks/sources/combi_time_table.hpp"
#include "msl_reference.hpp"
#include "support.hpp"

namespace test_msl_vehicle {

using namespace acausal;
using namespace acausal::test;

namespace {

constexpr double g_n = 9.80665;     // Modelica.Constants.g_n

// MSL Translational.Components.RollingResistance with useInclinationInput =
// true, useCrInput = false and reg = Regularization.Linear: the force
// f = flange.f = Cr·fWeight·cos(atan(inclination))·(sign(v) if |v| >= v0, else v/v0)
// holds the flange back. As in Modelica, abs and sign are literal
// (noEvent); the relation |v| >= v0 is an event.
struct RollingResistance : Component {
  translational::Flange flange{*this, "flange"};
  RealInput inclination{*this, "inclination"};
  Parameter fWeight = parameter("fWeight", 0.0, {.unit = "N", .min = 0});
  Parameter CrConstant = parameter("CrConstant", 0.01, {.min = 0});
  Parameter v0 = parameter("v0", 0.1, {.unit = "m/s", .min = 1e-15});
  Variable v = variable("v", {.unit = "m/s"});
  Variable f = variable("f", {.unit = "N"});
  Variable f_nominal = variable("f_nominal", {.unit = "N"});

  explicit RollingResistance(std::string name) : Component(std::move(name)) {
    dissipated_power(f * v);
    equation(v == der(flange.s));
    equation(f_nominal == -CrConstant * fWeight * cos(atan(inclination)));
    equation(f == -f_nominal * ifelse(no_event(abs(v)) >= v0, no_event(sign(v)), v / v0));
    equation(flange.f == f);
  }
};

struct VehicleData {
  double m, R, A, Cd, CrConstant;
  double rho = 1.2;   // the component's default: the example does not pass its rho = 1.18 on
  double vReg = 1e-3;
};

// MSL Translational.Components.Vehicle(J = 0, useInclinationInput = true,
// vWindConstant = 0): a mass driven through an ideal rolling wheel at flangeR,
// coupled at flangeT, held back by drag (QuadraticSpeedDependentForce with
// f_nominal = -Cd·A·rho/2 at 1 m/s), rolling resistance and the slope's
// gravity (a Force of -m·g·sin(atan(inclination))). Left out, as they change
// nothing here: the inertia J = 0 between flangeR and the wheel, and the wind
// speed source under the drag (its speed stays exactly 0).
struct MslVehicle : Component {
  rotational::Flange flangeR{*this, "flangeR"};
  translational::Flange flangeT{*this, "flangeT"};
  RealInput inclination{*this, "inclination"};
  Variable s = variable("s", {.unit = "m"});
  Variable v = variable("v", {.unit = "m/s"});
  Variable a = variable("a", {.unit = "m/s2"});

  MslVehicle(std::string name, const VehicleData& d) : Component(std::move(name)) {
    auto& wheel = add<rotational::IdealRollingWheel>("idealRollingWheel", {{"radius", d.R}});
    auto& mass = add<translational::Mass>("mass", {{"m", d.m}});
    auto& fDrag = add<translational::QuadraticSpeedDependentForce>(
        "fDrag", {{"f_nominal", -d.Cd * d.A * d.rho / 2}, {"v_nominal", 1.0}, {"ForceDirection", 0.0}});
    auto& fRoll = add<RollingResistance>("fRoll", {{"fWeight", d.m * g_n}, {"CrConstant", d.CrConstant}, {"v0", d.vReg}});
    auto& fGrav = add<translational::Force>("fGrav");
    connect(flangeR, wheel.flangeR);
    connect(wheel.flangeT, mass.flange_a);
    connect(mass.flange_b, flangeT);
    connect(mass.flange_b, fDrag.flange);
    connect(mass.flange_b, fRoll.flange);
    connect(mass.flange_b, fGrav.flange);
    connect(inclination, fRoll.inclination);
    const Parameter m = parameter("m", d.m, {.unit = "kg", .min = 0});
    const Parameter g = parameter("g", g_n, {.unit = "m/s2"});
    equation(fGrav.f == -m * g * sin(atan(inclination)));
    equation(s == mass.s);
    equation(v == mass.v);
    equation(a == mass.a);
  }
};

}  // namespace

TEST_CASE("MSL Translational.Examples.Vehicle: two vehicles and a trailer driven by a table with jumps", "[msl]") {
  // The example's parameters; its gain is the sum of the resistances at the
  // nominal speed vNom = 25/3.5 m/s (with its own rho = 1.18) times R.
  const double m = 100, R = 0.25, A = 1, Cd = 0.5, rho = 1.18, vWind = 0, Cr = 0.01, inclination = 0;
  const double vNom = 25 / 3.5;
  const double alpha = std::atan(inclination);
  const double fDrag = Cd * A * rho * (vNom - vWind) * (vNom - vWind) / 2;
  const double fRoll = Cr * m * g_n * std::cos(alpha), fGrav = m * g_n * std::sin(alpha);
  const VehicleData data{.m = m, .R = R, .A = A, .Cd = Cd, .CrConstant = Cr};

  Model model("Vehicle");
  auto& vehicle = model.add<MslVehicle>("vehicle", {}, data);
  auto& vehicle1 = model.add<MslVehicle>("vehicle1", {}, data);
  auto& trailer = model.add<MslVehicle>("trailer", {}, data);
  auto& table = model.add<blocks::CombiTimeTable>("timeTableTorqueInclination",
                                                  {{"extrapolation", blocks::Extrapolation::HoldLastPoint}});
  table.set_table({{0, 0, 0},
                   {5, 0, 0},
                   {5, 5.6, 0},
                   {10.8, 5.6, 0},
                   {10.8, 1, 0},
                   {20, 1, 0},
                   {20, 2.8, 0.05},
                   {25, 2.8, 0.05},
                   {25, 1, 0},
                   {50, 1, 0},
                   {50, -5, 0},
                   {55, -5, 0},
                   {55, 0, 0},
                   {60, 0, 0}});
  auto& torque = model.add<rotational::Torque>("torque");
  auto& torque1 = model.add<rotational::Torque>("torque1");
  auto& gain = model.add<blocks::Gain>("gain", {{"k", (fDrag + fRoll + fGrav) * R}});
  auto& gain1 = model.add<blocks::Gain>("gain1", {{"k", 2.0}});
  model.connect(*table.y[0], gain.u);
  model.connect(*table.y[1], vehicle.inclination);
  model.connect(gain.y, torque.tau);
  model.connect(torque.flange, vehicle.flangeR);
  model.connect(torque1.flange, vehicle1.flangeR);
  model.connect(vehicle.inclination, vehicle1.inclination);
  model.connect(vehicle1.inclination, trailer.inclination);
  model.connect(gain.y, gain1.u);
  model.connect(gain1.y, torque1.tau);
  // MSL measures the coupling with a MultiSensor, which passes the flange through.
  model.connect(vehicle1.flangeT, trailer.flangeT);
  for (const char* name : {"vehicle", "vehicle1"}) {
    model.set_start(std::string(name) + ".s", 0.0);
    model.set_start(std::string(name) + ".v", 0.0);
  }

  Simulator sim = model.compile();
  INFO(sim.report().str());
  Result r = sim.simulate(run_for(60.0, 0.005, 1e-8));
  for (std::size_t k = 0; k < r.event_times().size(); ++k)
    UNSCOPED_INFO("event at " << r.event_times()[k] << ": " << r.event_causes()[k]);
  compare_with_reference(r, "Translational_Vehicle.csv");
  // The trailer is carried along rigidly, and vehicle1's doubled torque gives
  // it the single vehicle's motion.
  const auto s1 = r["vehicle1.s"], v = r["vehicle.v"], v1 = r["vehicle1.v"];
  CHECK(worst(r, "trailer.s", [&](double, std::size_t k) { return s1[k]; }) < 1e-9);
  CHECK(worst(r, "vehicle1.v", [&](double, std::size_t k) { return v[k]; }) < 1e-6);
  // The six jumps of the table are time events at their exact instants.
  for (double jump : {5.0, 10.8, 20.0, 25.0, 50.0, 55.0}) {
    INFO("jump at " << jump);
    CHECK(std::count(r.event_times().begin(), r.event_times().end(), jump) == 1);
  }
}

}  // namespace test_msl_vehicle
