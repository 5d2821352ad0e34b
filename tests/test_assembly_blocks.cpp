// Assemblies (the library's cars) as blocks (issue 36, item 2): connecting
// to a part of an added assembly from the top model, setting many parameters
// by a pattern, choices by name, no name shared by a connector and a part.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/components/library.hpp>

#include <set>
#include <string>

namespace test_assembly_blocks {

using namespace acausal;

namespace {

// A minimal assembly: one inertia, no connector of its own.
struct Flywheel : Component {
  rotational::Inertia& disc = add<rotational::Inertia>("disc", {{"J", 2.0}});
  explicit Flywheel(std::string name) : Component(std::move(name)) {}
};

// The clash the cars had: an input and a part both called `clutch`.
struct Clashing : Component {
  RealInput clutch{*this, "clutch"};
  explicit Clashing(std::string name) : Component(std::move(name)) { add<rotational::Inertia>("clutch"); }
};

double value_of(const Component& c, const std::string& name) {
  for (const auto& p : c.parameters())
    if (p.name == name) return p.value;
  FAIL("no parameter " << name);
  return 0.0;
}

// The car's inputs held constant: a part's input must be connected.
void pedals(Model& m, vehicle::RearDriveCar& car) {
  m.connect(m.add<blocks::Constant>("throttle", {{"k", 0.0}}).y, car.throttle);
  m.connect(m.add<blocks::Constant>("brake", {{"k", 0.0}}).y, car.brake_pedal);
  m.connect(m.add<blocks::Constant>("clutch", {{"k", 0.0}}).y, car.clutch_pedal);  // open: coasting
}

}  // namespace

TEST_CASE("the top model connects a torque to a part of an added assembly, with the flow's sign", "[assembly]") {
  Model m("spin");
  auto& wheel = m.add<Flywheel>("wheel");
  auto& torque = m.add<rotational::ConstantTorque>("torque", {{"tau_constant", 3.0}});
  m.connect(torque.flange, wheel.disc.flange_a);  // a connector two levels down
  Simulator sim = m.compile();
  Result r = sim.simulate({.t_end = 2.0, .output_interval = 0.5, .rtol = 1e-10, .atol = 1e-12});
  // J·der(w) = τ from rest: w(2 s) = 3/2·2 = 3 rad/s (a wrong flow sign would give -3).
  CHECK(r["wheel.disc.w"].back() == Approx(3.0).margin(1e-8));
}

TEST_CASE("a sensor of the top model reads a wheel of the library car", "[assembly]") {
  Model m("launch");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  auto& sensor = m.add<rotational::SpeedSensor>("wheel_speed");
  REQUIRE_NOTHROW(m.connect(sensor.flange, car.wheels[2]->flange_rot));
  m.set_start("car.body.v", 5.0);
  const double radius = value_of(*car.wheels[2], "radius");
  for (const char* corner : {"fl", "fr", "rl", "rr"})
    m.set_start(std::string("car.wheel_") + corner + ".omega", 5.0 / radius);
  pedals(m, car);
  Simulator sim = m.compile();
  Result r = sim.simulate({.t_end = 0.5, .output_interval = 0.1});
  const auto w = r["wheel_speed.w"], omega = r["car.wheel_rl.omega"];
  for (std::size_t i = 0; i < w.size(); ++i) CHECK(w[i] == Approx(omega[i]).margin(1e-9));
  CHECK(omega.back() > 10.0);  // still rolling: the sensor reads a moving wheel, not zero
}

TEST_CASE("connecting a connector of a component outside the model says what to do", "[assembly]") {
  Model m("a"), other("b");
  auto& here = m.add<rotational::Inertia>("here");
  auto& there = other.add<rotational::Inertia>("there");
  CHECK_THROWS_WITH(m.connect(here.flange_a, there.flange_b),
                    Catch::Contains("there.flange_b") && Catch::Contains("is not inside 'a'") &&
                        Catch::Contains("add its component to this model first"));
}

TEST_CASE("set_parameters sets exactly the parameters matching a pattern", "[assembly]") {
  SECTION("on the car before compile()") {
    vehicle::RearDriveCar car("car");
    CHECK(car.set_parameters("wheel_*.mu", 0.3) == 4);
    for (const vehicle::Wheel* w : car.wheels) CHECK(value_of(*w, "mu") == 0.3);
    CHECK(value_of(*car.wheels[0], "mu_patch") == 0.1);  // another name: untouched
    CHECK(car.set_parameters("**.mu_patch", 0.2) == 4);
    CHECK_THROWS_WITH(car.set_parameters("*.mu", -1.0), Catch::Contains("out of bounds"));
    for (const vehicle::Wheel* w : car.wheels) CHECK(value_of(*w, "mu") == 0.3);  // all or nothing
    CHECK_THROWS_WITH(car.set_parameters("*mu", 0.5), Catch::Contains("set_parameters(\"*mu\")") &&
                                                         Catch::Contains("no parameter"));
  }
  SECTION("on the Simulator") {
    Model m("road");
    pedals(m, m.add<vehicle::RearDriveCar>("car"));
    Simulator sim = m.compile();
    CHECK(sim.set_parameters("car.wheel_*.mu", 0.3) == 4);
    for (const char* corner : {"fl", "fr", "rl", "rr"})
      CHECK(sim.parameter(std::string("car.wheel_") + corner + ".mu") == 0.3);
    CHECK(sim.parameter("car.wheel_rl.mu_patch") == 0.1);
    CHECK(sim.parameter("car.body.m") == 1500.0);
    CHECK_THROWS_WITH(sim.set_parameters("car.wheel_*.tire_law", 1.0), Catch::Contains("structural"));
    CHECK_THROWS_WITH(sim.set_parameters("car.wheel_?.mu", 0.5), Catch::Contains("car.wheel_?.mu"));
  }
}

TEST_CASE("path_matches: * stays within a name, ** crosses parts", "[assembly]") {
  CHECK(path_matches("car.wheel_*.mu", "car.wheel_rl.mu"));
  CHECK_FALSE(path_matches("car.wheel_*.mu", "car.wheel_rl.mu_patch"));
  CHECK_FALSE(path_matches("car.*", "car.wheel_rl.mu"));
  CHECK(path_matches("car.**", "car.wheel_rl.mu"));
  CHECK(path_matches("**.mu", "car.wheel_rl.mu"));
  CHECK(path_matches("car.wheel_r?.mu", "car.wheel_rl.mu"));
  CHECK_FALSE(path_matches("car.wheel_rl?mu", "car.wheel_rl.mu"));
}

TEST_CASE("a choice is set by its name on a part and on the Simulator", "[assembly]") {
  vehicle::RearDriveCar car("car");
  car.set_parameter("wheel_rl.tire_law", std::string("pacejka"));
  CHECK(value_of(*car.wheels[2], "tire_law") == 2.0);
  CHECK_THROWS_WITH(car.set_parameter("wheel_rl.tire_law", std::string("magic")),
                    Catch::Contains("wheel_rl.tire_law") && Catch::Contains("tanh, linear, pacejka, pac2002"));
  CHECK_THROWS_WITH(car.set_parameter("wheel_rl.mu", std::string("pacejka")), Catch::Contains("takes a number"));

  Model m("road");
  pedals(m, m.add<vehicle::RearDriveCar>("car", {{"wheel_rl.tire_law", 2.0}}));
  Simulator sim = m.compile();
  REQUIRE_NOTHROW(sim.set_parameter("car.wheel_rl.tire_law", std::string("pacejka")));  // the compiled one
  CHECK_THROWS_WITH(sim.set_parameter("car.wheel_rl.tire_law", std::string("linear")),
                    Catch::Contains("structural") && Catch::Contains("before compile()"));
  CHECK_THROWS_WITH(sim.set_parameter("car.wheel_rl.tire_law", std::string("magic")), Catch::Contains("pac2002"));
}

TEST_CASE("no library component has a connector and a part of the same name", "[assembly]") {
  std::string clashes;
#define ACAUSAL_CHECK_NAMES(domain, Name)                                                          \
  {                                                                                                \
    domain::Name c("c");                                                                           \
    std::set<std::string> parts;                                                                   \
    for (const Component* child : c.children()) parts.insert(child->name());                       \
    for (const Connector* k : c.connectors())                                                      \
      if (parts.count(k->name())) clashes += std::string(#domain "." #Name ": ") + k->name() + " "; \
  }
  ACAUSAL_LIBRARY(ACAUSAL_CHECK_NAMES)
#undef ACAUSAL_CHECK_NAMES
  CHECK(clashes.empty());
  CHECK_THROWS_WITH(Clashing("x"), Catch::Contains("has a connector 'clutch' and adds a part"));
}

}  // namespace test_assembly_blocks
