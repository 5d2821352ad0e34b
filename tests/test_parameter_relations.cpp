// Relations between parameters (Component::require) across the library. The
// table is what each component checks: a component that adds or loses a
// relation fails here. Every relation refuses a model that violates it at
// compile(), and again at simulate() when the value is set after compiling.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/components/library.hpp>
#include <acausal/harness/rigs.hpp>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_parameter_relations {

using namespace acausal;
using Catch::Matchers::Contains;

namespace {

struct Relation {
  std::string text;
  ParameterValues violation;            // set on top of the defaults, in this order
  std::vector<std::string> parameters;  // the values the message names
};

const std::map<std::string, std::vector<Relation>> relations = {
    // MSL's Integer parameters: a fraction would make an Integer signal that is not one.
    {"blocks::IntegerConstant", {{"k is a whole number (an Integer)", {{"k", 1.5}}, {"k"}}}},
    {"blocks::IntegerStep",
     {{"height is a whole number (an Integer)", {{"height", 0.5}}, {"height"}},
      {"offset is a whole number (an Integer)", {{"offset", 0.5}}, {"offset"}}}},
    {"blocks::IntegerSum",
     {{"k_1 is a whole number (an Integer)", {{"k_1", 0.5}}, {"k_1"}},
      {"k_2 is a whole number (an Integer)", {{"k_2", 0.5}}, {"k_2"}}}},
    {"blocks::IntegerMultiSwitch",
     {{"y_default is a whole number (an Integer)", {{"y_default", 0.5}}, {"y_default"}},
      {"expr_1 is a whole number (an Integer)", {{"expr_1", 0.5}}, {"expr_1"}},
      {"expr_2 is a whole number (an Integer)", {{"expr_2", 0.5}}, {"expr_2"}}}},
    {"blocks::TriggeredAdd", {{"y_start is a whole number (an Integer)", {{"y_start", 0.5}}, {"y_start"}}}},
    {"blocks::BooleanTable",
     {{"the instants increase strictly (table_2 > table_1)", {{"table_2", -1.0}}, {"table_1", "table_2"}}}},
    {"blocks::RadioButtonSource",
     {{"the instants increase strictly (buttonTimeTable_2 > buttonTimeTable_1)", {{"buttonTimeTable_2", -1.0}},
       {"buttonTimeTable_1", "buttonTimeTable_2"}}}},
    {"blocks::Hysteresis", {{"uHigh > uLow", {{"uHigh", -1.0}}, {"uHigh", "uLow"}}}},
    {"rotational::IdealGear", {{"ratio must not be 0", {{"ratio", 0.0}}, {"ratio"}}}},
    // A zero mass or inertia passed its bound (min = 0) and then failed inside IDA (issue 30).
    {"rotational::Inertia", {{"the inertia J must be positive", {{"J", 0.0}}, {"J"}}}},
    {"translational::Mass", {{"the mass m must be positive", {{"m", 0.0}}, {"m"}}}},
    {"thermal::HeatCapacitor", {{"the heat capacity C must be positive", {{"C", 0.0}}, {"C"}}}},
    {"translational::MassWithStopAndFriction", {{"the mass m must be positive", {{"m", 0.0}}, {"m"}}}},
    {"planar::Body", {{"the mass m must be positive", {{"m", 0.0}}, {"m"}},
                      {"the inertia I must be positive", {{"I", 0.0}}, {"I"}}}},
    // C = 0 or L = 0 leaves der(v) or der(i) undetermined, as J = 0 does der(w).
    {"electrical::Capacitor", {{"the capacitance C must be positive", {{"C", 0.0}}, {"C"}}}},
    {"electrical::Inductor", {{"the inductance L must be positive", {{"L", 0.0}}, {"L"}}}},
    // MSL's asserts; Inom = 0 would divide Ipar/Inom by zero.
    {"electrical::SaturatingInductor",
     {{"the nominal current Inom must be positive", {{"Inom", 0.0}}, {"Inom"}},
      {"Lzer must be greater than Lnom", {{"Lzer", 1.0}}, {"Lzer", "Lnom"}},
      {"Linf must be less than Lnom", {{"Linf", 1.0}}, {"Linf", "Lnom"}}}},
    {"electrical::DCDCAveraged", {{"the efficiency eta must be positive", {{"eta", 0.0}}, {"eta"}}}},
    {"electrical::DCDCVoltageControlled", {{"the efficiency eta must be positive", {{"eta", 0.0}}, {"eta"}}}},
    {"vehicle::KinematicBicycle", {{"the wheelbase L must be positive", {{"L", 0.0}}, {"L"}}}},
    {"vehicle::SingleTrack",
     {{"the mass m must be positive", {{"m", 0.0}}, {"m"}},
      {"the yaw inertia Iz must be positive", {{"Iz", 0.0}}, {"Iz"}},
      {"the wheelbase l_f + l_r must be positive", {{"l_f", 0.0}, {"l_r", 0.0}}, {"l_f", "l_r"}},
      {"the tanh tire law needs mu, g, l_f and l_r positive (it divides by the axle's friction limit)",
       {{"tire_law", vehicle::LateralTireLaw::tanh}, {"mu", 0.0}},
       {"tire_law", "mu", "g", "l_f", "l_r"}}}},
    {"vehicle::PlanarVehicleBody",
     {{"the mass m must be positive", {{"m", 0.0}}, {"m"}},
      {"the yaw inertia Iz must be positive", {{"Iz", 0.0}}, {"Iz"}},
      {"the wheelbase a + b must be positive", {{"a", 0.0}, {"b", 0.0}}, {"a", "b"}},
      {"the track widths must be positive (the load transfer divides by them)", {{"track_f", 0.0}},
       {"track_f", "track_r"}},
      {"the roll stiffness K_roll must exceed m·g·h_cg (or the body tips over)", {{"K_roll", 1000.0}},
       {"K_roll", "m", "h_cg"}},
      {"the roll inertia Ix must be positive", {{"Ix", 0.0}}, {"Ix"}}}},
    {"vehicle::Steering",
     {{"the steering ratio must be positive", {{"ratio", 0.0}}, {"ratio"}},
      {"the wheelbase L must be positive", {{"L", 0.0}}, {"L"}}}},
    {"vehicle::DifferentialDrive", {{"the wheel radius must be positive", {{"radius", 0.0}}, {"radius"}}}},
    {"vehicle::SteeringRobot",
     {{"the step and the ramp need a positive rate (they rise to the amplitude at it)", {{"rate", 0.0}},
       {"profile", "rate"}},
      {"the sine profiles need a positive frequency (their corners are at 1/frequency)",
       {{"profile", vehicle::SteeringProfile::sine_with_dwell}, {"frequency", 0.0}},
       {"profile", "frequency"}}}},
    {"vehicle::PathFollower",
     {{"the shortest lookahead distance L_min must be positive (the steering law divides by L_d)", {{"L_min", 0.0}},
       {"L_min"}}}},
    {"vehicle::StabilityControl",
     {{"the wheelbase L must be positive", {{"L", 0.0}}, {"L"}},
      {"the deadband must be positive (it is also the width of the smooth transitions)", {{"deadband", 0.0}},
       {"deadband"}},
      {"max_demand must be positive (active is the ESC's demand over it)", {{"max_demand", 0.0}}, {"max_demand"}}}},
    {"rotational::IdealGearWithSupport", {{"ratio must not be 0", {{"ratio", 0.0}}, {"ratio"}}}},
    {"rotational::LossyGear", {{"ratio must not be 0", {{"ratio", 0.0}}, {"ratio"}}}},
    {"rotational::LossyGearWithSupport", {{"ratio must not be 0", {{"ratio", 0.0}}, {"ratio"}}}},
    {"blocks::DeadZone", {{"uMax must be at least uMin", {{"uMax", -1.0}, {"uMin", 1.0}}, {"uMax", "uMin"}}}},
    {"blocks::Quantizer", {{"the resolution q must be positive", {{"q", 0.0}}, {"q"}}}},
    {"blocks::UniformNoise", {{"y_max must exceed y_min", {{"y_max", 0.0}}, {"y_max", "y_min"}}}},
    {"vehicle::WheelSpeedSensor",
     {{"pulses_per_revolution must be a whole number", {{"pulses_per_revolution", 47.5}}, {"pulses_per_revolution"}}}},
    {"blocks::Limiter", {{"uMax must be at least uMin", {{"uMax", -1.0}, {"uMin", 1.0}}, {"uMax", "uMin"}}}},
    {"blocks::PI", {{"the output limits need yMax >= yMin", {{"yMax", -1.0}, {"yMin", 1.0}}, {"yMax", "yMin"}}}},
    {"blocks::PID", {{"the output limits need yMax >= yMin", {{"yMax", -1.0}, {"yMin", 1.0}}, {"yMax", "yMin"}}}},
    {"blocks::LimPID",
     {{"the output limits need yMax >= yMin", {{"yMax", -1.0}, {"yMin", 1.0}}, {"yMax", "yMin"}},
      {"an I part (PI, PID) needs k > 0: the anti-windup gain is 1/(k*Ni)", {{"k", 0.0}}, {"k", "controllerType"}},
      {"a D part (PD, PID) needs Td > 0; choose P or PI for none", {{"Td", 0.0}}, {"Td", "controllerType"}},
      {"initType = InitialOutput needs y_start between yMin and yMax",
       {{"initType", blocks::InitialOutput}, {"y_start", 5.0}},
       {"initType", "y_start", "yMin", "yMax"}}}},
    {"vehicle::Engine",
     {{"omega_max must exceed omega_peak", {{"omega_max", 420.0}}, {"omega_max", "omega_peak"}},
      {"engineMaxRPM must exceed engineMinRPM", {{"engineMaxRPM", 900.0}}, {"engineMaxRPM", "engineMinRPM"}},
      {"w_fire must exceed w_stall: an engine that fires runs above its stall speed", {{"w_fire", 20.0}},
       {"w_fire", "w_stall"}}}},
    {"vehicle::GearSelector",
     {{"v_23 must be 0 (unused) or exceed v_12 > 0", {{"v_23", 12.0}}, {"v_12", "v_23"}},
      {"v_34 must be 0 (unused) or exceed v_23 > 0", {{"v_34", 15.0}}, {"v_23", "v_34"}},
      {"v_45 must be 0 (unused) or exceed v_34 > 0", {{"v_34", 0.0}, {"v_45", 30.0}}, {"v_34", "v_45"}}}},
    {"vehicle::Gearbox",
     {{"ratio_2 must be 0 (absent) or below ratio_1 > 0", {{"ratio_2", 3.6}}, {"ratio_1", "ratio_2"}},
      {"ratio_3 must be 0 (absent) or below ratio_2 > 0", {{"ratio_3", 2.5}}, {"ratio_2", "ratio_3"}},
      {"ratio_4 must be 0 (absent) or below ratio_3 > 0", {{"ratio_3", 0.0}}, {"ratio_3", "ratio_4"}},
      {"ratio_5 must be 0 (absent) or below ratio_4 > 0", {{"ratio_5", 1.0}}, {"ratio_4", "ratio_5"}},
      {"ratio_6 must be 0 (absent) or below ratio_5 > 0", {{"ratio_6", 0.9}}, {"ratio_5", "ratio_6"}}}},
    {"vehicle::VehicleBody",
     {{"the mass m must be positive", {{"m", 0.0}}, {"m"}},
      {"the CG height h_cg must be positive", {{"h_cg", -0.5}}, {"h_cg"}},
      {"the wheelbase L must be positive", {{"L", 0.0}, {"a", 0.0}, {"b", 0.0}}, {"L"}},
      {"a + b must equal the wheelbase L", {{"a", 1.0}}, {"a", "b", "L"}}}},
    {"vehicle::ABSController",
     {{"kappa_high must be below kappa_low (a deeper slip)", {{"kappa_high", 0.0}}, {"kappa_high", "kappa_low"}}}},
    {"vehicle::TractionControl",
     {{"kappa_low must be below kappa_high", {{"kappa_low", 0.5}}, {"kappa_low", "kappa_high"}}}},
    {"vehicle::PitchingBody",
     {{"the mass m must be positive", {{"m", 0.0}}, {"m"}},
      {"the CG height h_cg must be positive", {{"h_cg", -0.5}}, {"h_cg"}},
      {"the wheelbase L must be positive", {{"L", 0.0}, {"a", 0.0}, {"b", 0.0}}, {"L"}},
      {"a + b must equal the wheelbase L", {{"a", 1.0}}, {"a", "b", "L"}},
      {"the pitch inertia J_pitch must be positive", {{"J_pitch", 0.0}}, {"J_pitch"}},
      {"the suspension springs c_front and c_rear must be positive", {{"c_rear", 0.0}}, {"c_front", "c_rear"}},
      {"the suspension dampers d_front and d_rear must be positive", {{"d_front", 0.0}}, {"d_front", "d_rear"}}}},
    {"vehicle::ShiftMap",
     {{"v_23 must be 0 (unused) or exceed v_12 > 0", {{"v_23", 5.0}}, {"v_12", "v_23"}},
      {"v_34 must be 0 (unused) or exceed v_23 > 0", {{"v_34", 8.0}}, {"v_23", "v_34"}},
      {"v_45 must be 0 (unused) or exceed v_34 > 0", {{"v_34", 0.0}, {"v_45", 30.0}}, {"v_34", "v_45"}}}},
    {"vehicle::MappedEngine",
     {{"bsfc_min·LHV must be at least 3.6e9 (the map's best point at most 100 % efficient): raise LHV or "
       "set a BSFC map burning more fuel", {{"LHV", 1e7}}, {"bsfc_min", "LHV"}},
      {"the rev limit w_limit must exceed the idle speed w_idle", {{"w_limit", 50.0}}, {"w_limit", "w_idle"}}}},
    {"vehicle::Wheel",
     {{"patch_end must be at least patch_start", {{"patch_start", 5.0}}, {"patch_start", "patch_end"}}}},
    {"electrical::CellStack",
     {{"0 <= OCVmin < OCVmax", {{"OCVmin", 5.0}}, {"OCVmax", "OCVmin"}},
      {"0 <= SOCmin < SOCmax <= 1", {{"SOCmin", 1.0}}, {"SOCmax", "SOCmin"}},
      {"the nominal charge Qnom must be positive", {{"Qnom", 0.0}}, {"Qnom"}},
      {"the inner resistance Ri must be positive", {{"Ri", 0.0}}, {"Ri"}}}},
    {"electrical::CellRCStack",
     {{"0 <= OCVmin < OCVmax", {{"OCVmin", 5.0}}, {"OCVmax", "OCVmin"}},
      {"0 <= SOCmin < SOCmax <= 1", {{"SOCmin", 1.0}}, {"SOCmax", "SOCmin"}},
      {"the nominal charge Qnom must be positive", {{"Qnom", 0.0}}, {"Qnom"}},
      {"the resistance R_1 of an RC pair must be positive", {{"R_1", 0.0}}, {"R_1"}},
      {"the capacitance C_1 of an RC pair must be positive", {{"C_1", 0.0}}, {"C_1"}},
      {"the series resistance R0 = Ri - sum of R_k must be positive", {{"R_1", 1.0}}, {"Ri", "R_1"}}}},
    {"electrical::CCCVCharger", {{"the ramp time rampTime must be positive", {{"rampTime", 0.0}}, {"rampTime"}}}},
    {"vehicle::DCMotor",
     {{"the inductance La must be positive", {{"La", 0.0}}, {"La"}},
      {"the inertia J must be positive", {{"J", 0.0}}, {"J"}}}},
    // The body's Crr and a wheel's Crr both active counted rolling resistance twice (issue 30).
    {"vehicle::RearDriveCar",
     {{"rolling resistance is counted once: set body.Crr or the wheels' Crr, not both", {{"wheel_rl.Crr", 0.01}},
       {"body.Crr", "wheel_rl.Crr"}}}},
    {"vehicle::FrontDriveCar",
     {{"rolling resistance is counted once: set body.Crr or the wheels' Crr, not both", {{"wheel_fl.Crr", 0.01}},
       {"body.Crr", "wheel_fl.Crr"}}}},
    {"vehicle::BatteryElectricCar",
     {{"rolling resistance is counted once: set body.Crr or the wheels' Crr, not both", {{"wheel_fl.Crr", 0.01}},
       {"body.Crr", "wheel_fl.Crr"}},
      {"the controller's ratio is the reducer's: set controller.ratio with differential.ratio",
       {{"differential.ratio", 8.0}}, {"controller.ratio", "differential.ratio"}},
      {"the controller's T_brake_max is the four brakes' tau_max together: change it with them",
       {{"brake_rr.tau_max", 900.0}},
       {"controller.T_brake_max", "brake_fl.tau_max", "brake_fr.tau_max", "brake_rl.tau_max", "brake_rr.tau_max"}}}},
    {"vehicle::MappedCar",
     {{"rolling resistance is counted once: set body.Crr or the wheels' Crr, not both", {{"wheel_rr.Crr", 0.01}},
       {"body.Crr", "wheel_rr.Crr"}}}},
    {"vehicle::AutomaticCar",
     {{"rolling resistance is counted once: set body.Crr or the wheels' Crr, not both", {{"wheel_rr.Crr", 0.01}},
       {"body.Crr", "wheel_rr.Crr"}}}},
};

/// "vehicle::GearSelector" -> "gear_selector", the component's name in the models below.
std::string instance_name(const std::string& type) {
  std::string name;
  for (char ch : type.substr(type.rfind(':') + 1)) {
    if (std::isupper(static_cast<unsigned char>(ch)) && !name.empty()) name += '_';
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return name;
}

/// What a component needs around it to compile: a source on each input, or
/// its standard rig.
void rig(Model& m, Component& c) {
  electrical::Ground* ground = nullptr;
  for (Connector* k : c.connectors()) {
    if (k->members()[0].causality == Causality::input) {
      if (k->type() == "signal.Boolean")
        m.connect(m.add<blocks::BooleanConstant>(k->name()).y, *k);
      else if (k->type() == "signal.Integer")
        m.connect(m.add<blocks::IntegerConstant>(k->name()).y, *k);
      else
        m.connect(m.add<blocks::Constant>(k->name()).y, *k);
    }
    // A pin goes through 1 Ω to ground: every potential is then defined.
    if (k->type() == "electrical.Pin") {
      if (!ground) ground = &m.add<electrical::Ground>("rig_ground");
      auto& r = m.add<electrical::Resistor>("rig_" + k->name());
      m.connect(*k, r.p);
      m.connect(r.n, ground->p);
    }
  }
}
void rig(Model& m, vehicle::VehicleBody& body) {
  harness::body_rig(m, body.contact_front, body.contact_rear, 0.0, 0.0);
}
void rig(Model& m, rotational::PartialIdealGear& gear) {
  harness::rotational_rig(m, gear.flange_a, gear.flange_b, 1.0, 1.0, 1.0, 1.0);
}
void rig(Model& m, rotational::IdealGearWithSupport& gear) {
  m.connect(gear.support, m.add<rotational::Fixed>("housing").flange);
  rig(m, static_cast<rotational::PartialIdealGear&>(gear));
}
void rig(Model& m, rotational::PartialLossyGear& gear) {
  harness::rotational_rig(m, gear.flange_a, gear.flange_b, 1.0, 1.0, 1.0, 1.0);
}
void rig(Model& m, rotational::LossyGearWithSupport& gear) {
  m.connect(gear.support, m.add<rotational::Fixed>("housing").flange);
  rig(m, static_cast<rotational::PartialLossyGear&>(gear));
}
void rig(Model& m, vehicle::WheelSpeedSensor& s) { m.connect(s.flange, m.add<rotational::Inertia>("inertia").flange_a); }
void rig(Model& m, vehicle::TractionControl& tcs) {
  rig(m, static_cast<Component&>(tcs));
}
void rig(Model& m, vehicle::ShiftMap& selector) {
  rig(m, static_cast<Component&>(selector));
}
void rig(Model& m, vehicle::MappedEngine& engine) {
  rig(m, static_cast<Component&>(engine));
  m.connect(engine.flange, m.add<rotational::Inertia>("load").flange_a);
}
void rig(Model& m, vehicle::PathFollower& follower) {
  rig(m, static_cast<Component&>(follower));
  follower.set_path({{0.0, 0.0}, {100.0, 0.0}});  // its outputs exist once it has a path
}
void rig(Model& m, vehicle::Wheel& wheel) {
  harness::wheel_rig(m, wheel.flange_rot, wheel.contact, 0.0, 1000.0, 100.0);
}

/// The message of the ModelError that `run` throws, empty if it throws none.
template <class F>
std::string model_error(F run) {
  try {
    run();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

template <class T>
void check_declared(std::set<std::string>& library) {
  T component("c");
  const std::string type = component.type_name();
  library.insert(type);
  std::vector<std::string> declared, expected;
  for (const auto& [condition, text] : component.requirements()) declared.push_back(text);
  if (auto it = relations.find(type); it != relations.end())
    for (const Relation& r : it->second) expected.push_back(r.text);
  INFO(type);
  CHECK(declared == expected);
}

template <class T>
void check_refused() {
  const std::string type = T("c").type_name();
  auto it = relations.find(type);
  if (it == relations.end()) return;
  const std::string name = instance_name(type);
  for (const Relation& r : it->second) {
    INFO(type << ": " << r.text);
    auto names_the_relation = [&](const std::string& message) {
      CHECK_THAT(message, Contains(name + " (" + type + "): " + r.text));
      for (const auto& p : r.parameters) CHECK_THAT(message, Contains(name + "." + p + " = "));
    };
    Model violating("violating");
    rig(violating, violating.add<T>(name, r.violation));
    names_the_relation(model_error([&] { violating.compile(); }));

    // A structural parameter cannot change after compile(): compile() is the check.
    T probe("c");
    bool structural = false;
    for (const auto& p : probe.parameters())
      for (const auto& [violated, value] : r.violation) structural |= p.name == violated && p.attributes.structural;
    if (structural) continue;
    Model valid("valid");
    rig(valid, valid.add<T>(name));
    Simulator sim = valid.compile();
    for (const auto& [p, value] : r.violation) sim.set_parameter(name + "." + p, value);
    names_the_relation(model_error([&] { sim.simulate(test::run_for(0.1, 0.01)); }));
  }
}

}  // namespace

TEST_CASE("each library component declares the parameter relations of the table", "[errors][relations]") {
  std::set<std::string> library;
#define ACAUSAL_DECLARED(domain, Name) check_declared<domain::Name>(library);
  ACAUSAL_LIBRARY(ACAUSAL_DECLARED)
#undef ACAUSAL_DECLARED
  for (const auto& [type, declared] : relations) {
    INFO(type << " is in the table but not in components/library.hpp");
    CHECK(library.count(type) == 1);
  }
}

TEST_CASE("a violated relation is refused at compile() and at simulate(), naming the component and the values",
          "[errors][relations]") {
#define ACAUSAL_REFUSED(domain, Name) check_refused<domain::Name>();
  ACAUSAL_LIBRARY(ACAUSAL_REFUSED)
#undef ACAUSAL_REFUSED
}

}  // namespace test_parameter_relations
