// Every bad input of DESIGN section 8 that exists at this stage raises a
// ModelError whose message names the component and the variable or parameter.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>
#include <limits>

namespace test_errors {

using namespace acausal;
using Catch::Matchers::Contains;

TEST_CASE("connecting rotational to translational names both connectors", "[errors]") {
  Model m("bad");
  auto& j = m.add<rotational::Inertia>("wheel_inertia");
  auto& mass = m.add<translational::Mass>("body");
  CHECK_THROWS_WITH(m.connect(j.flange_b, mass.flange_a),
                    Contains("wheel_inertia.flange_b") && Contains("body.flange_a") && Contains("incompatible"));
}

TEST_CASE("connecting two outputs is an error", "[errors]") {
  Model m("bad");
  auto& a = m.add<blocks::Constant>("a");
  auto& b = m.add<blocks::Sine>("b");
  CHECK_THROWS_WITH(m.connect(a.y, b.y), Contains("a.y") && Contains("b.y") && Contains("outputs"));
}

TEST_CASE("a connector of another model cannot be connected", "[errors]") {
  Model m1("one"), m2("two");
  auto& a = m1.add<rotational::Inertia>("a");
  auto& b = m2.add<rotational::Inertia>("b");
  CHECK_THROWS_WITH(m1.connect(a.flange_b, b.flange_a), Contains("b.flange_a") && Contains("another model"));
}

TEST_CASE("duplicate component names are rejected", "[errors]") {
  Model m("dup");
  m.add<rotational::Inertia>("shaft");
  CHECK_THROWS_WITH(m.add<rotational::Spring>("shaft"), Contains("duplicate") && Contains("shaft"));
}

TEST_CASE("unknown parameter names list the known ones", "[errors]") {
  Model m("p");
  CHECK_THROWS_WITH(m.add<rotational::Inertia>("inertia", {{"mass", 1.0}}),
                    Contains("'mass'") && Contains("inertia") && Contains("J"));
  CHECK(m.children().empty());  // a failed add leaves nothing behind
}

TEST_CASE("non-finite and out-of-bounds parameters name the parameter and its bounds", "[errors]") {
  Model m("p");
  CHECK_THROWS_WITH(m.add<translational::Mass>("body", {{"m", -1200.0}}),
                    Contains("body.m") && Contains("-1200") && Contains(">= 0"));
  CHECK_THROWS_WITH(m.add<translational::Mass>("body", {{"m", std::nan("")}}),
                    Contains("body.m") && Contains("not a finite number"));
  m.add<translational::Mass>("car", {{"m", 1.0}});
  Simulator sim = m.compile();
  CHECK_THROWS_WITH(sim.set_parameter("car.m", std::numeric_limits<double>::infinity()),
                    Contains("car.m") && Contains("finite"));
  CHECK_THROWS_WITH(sim.set_parameter("car.m", -3.0), Contains("car.m") && Contains("out of bounds"));
  CHECK_THROWS_WITH(sim.set_parameter("car.mass", 3.0), Contains("car.mass"));
  CHECK(sim.parameter("car.m") == 1.0);
}

TEST_CASE("an unconnected input makes the model underdetermined, naming the input", "[errors]") {
  Model m("under");
  auto& torque = m.add<rotational::Torque>("motor");
  auto& j = m.add<rotational::Inertia>("rotor");
  m.connect(torque.flange, j.flange_a);
  CHECK_THROWS_WITH(m.compile(), Contains("underdetermined") && Contains("motor.tau") && Contains("unconnected input"));
}

TEST_CASE("an extra equation makes the model over-determined, naming the equation", "[errors]") {
  Model m("over");
  auto& j = m.add<rotational::Inertia>("rotor");
  m.equation(j.w == 3.0);
  m.equation(j.a == 1.0);
  try {
    m.compile();
    FAIL("compile should have thrown");
  } catch (const ModelError& e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK_THAT(msg, Contains("over-determined") && Contains("rotor.a = der(rotor.w)") &&
                        Contains("rotor.w by rotor.w = 3  [over]"));
  }
}

TEST_CASE("a redundant equation is reported as such", "[errors]") {
  Model m("redundant");
  auto& a = m.add<translational::Mass>("a");
  auto& b = m.add<translational::Mass>("b");
  m.connect(a.flange_b, b.flange_a);
  m.equation(a.s == b.s);  // already implied by the connection
  CHECK_THROWS_WITH(m.compile(), Contains("over-determined") && Contains("a.s") && Contains("redundant"));
}

TEST_CASE("conflicting fixed start values of one quantity are named", "[errors]") {
  Model m("starts");
  auto& a = m.add<translational::Mass>("a");
  auto& b = m.add<translational::Mass>("b");
  m.connect(a.flange_b, b.flange_a);
  m.set_start("a.s", 1.0);
  m.set_start("b.s", 2.0);
  CHECK_THROWS_WITH(m.compile(), Contains("a.s") && Contains("b.s") && Contains("inconsistent"));
}

TEST_CASE("set_start on an unknown variable names it", "[errors]") {
  Model m("s");
  m.add<translational::Mass>("a");
  CHECK_THROWS_WITH(m.set_start("a.speed", 1.0), Contains("a.speed"));
  CHECK_THROWS_WITH(m.set_start("nobody.s", 1.0), Contains("nobody.s"));
}

namespace {
// Thrust that becomes undefined once its flange passes s = 1: sqrt of a negative number.
struct Thruster : Component {
  translational::Flange flange{*this, "flange"};
  Variable thrust = variable("thrust", {.unit = "N"});
  explicit Thruster(std::string name) : Component(std::move(name)) {
    equation(thrust == sqrt(1.0 - flange.s));
    equation(flange.f == -thrust);
  }
};
}  // namespace

TEST_CASE("a NaN in the residual fails the simulation with time, message and partial result", "[errors]") {
  Model m("blowup");
  auto& body = m.add<translational::Mass>("body");
  auto& thruster = m.add<Thruster>("thruster");
  m.connect(thruster.flange, body.flange_a);
  m.set_start("body.s", 0.0);
  m.set_start("body.v", 1.0);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 0.01;
  try {
    sim.simulate(opt);
    FAIL("simulate should have thrown");
  } catch (const SimulationError& e) {
    INFO(e.what());
    CHECK(e.time_reached() > 0.3);
    CHECK(e.time_reached() < 1.5);
    CHECK(e.return_code() < 0);
    CHECK_THAT(std::string(e.what()), Contains("blowup") && Contains("t ="));
    const Result& partial = e.partial_result();
    REQUIRE(partial.size() > 10);
    CHECK(partial.time().back() <= e.time_reached());
    CHECK(partial["body.s"].back() < 1.0);
  }
}

TEST_CASE("invalid simulation options are rejected", "[errors]") {
  Model m("opts");
  m.add<translational::Mass>("a");
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = -1.0;
  CHECK_THROWS_WITH(sim.simulate(opt), Contains("t_end"));
}

TEST_CASE("component names must be identifiers", "[errors]") {
  Model m("n");
  CHECK_THROWS_WITH(m.add<translational::Mass>("front wheel"), Contains("front wheel"));
}

namespace {

// der(x) is a sum of 60 terms: printed whole, one equation is about 1400 characters.
struct LongEquation : Component {
  Variable x = variable("x", {.start = 0.0});
  explicit LongEquation(std::string name) : Component(std::move(name)) {
    Expr sum(0.0);
    for (int k = 1; k <= 60; ++k) sum = sum + sin(x + double(k)) / double(k);
    equation(der(x) == sum);
    initial_equation(der(x) == 1000.0);  // the sum never reaches it
  }
};

}  // namespace

TEST_CASE("an error names a long equation by its beginning and its component, not the whole expression",
          "[errors]") {
  Model m("long");
  m.add<LongEquation>("block");
  try {
    m.compile().simulate(SimulationOptions{});
    FAIL("the initialization cannot succeed");
  } catch (const ModelError& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK_THAT(message, Contains("der(block.x)") && Contains("...") && Contains("[block"));
    CHECK(message.size() < 900);  // it was about 1600 characters, one expression printed whole
  }
}

TEST_CASE("a name belongs to one kind in a component: a variable and a parameter cannot share it", "[errors]") {
  // Issue 30: both were accepted, and one silently shadowed the other in the flat model.
  struct Clash : Component {
    explicit Clash(std::string name, int kind) : Component(std::move(name)) {
      parameter("k", 1.0);
      if (kind == 0) variable("k");
      if (kind == 1) discrete("k");
      if (kind == 2) parameter("k", 2.0);
    }
  };
  CHECK_THROWS_WITH(Clash("c", 0), Catch::Contains("'k' as a parameter and as a variable"));
  CHECK_THROWS_WITH(Clash("c", 1), Catch::Contains("'k' as a parameter and as a discrete variable"));
  CHECK_THROWS_WITH(Clash("c", 2), Catch::Contains("declares parameter 'k' twice"));
}

TEST_CASE("a nominal that is not positive and finite is refused where the variable is declared, naming it",
          "[errors]") {
  // The nominal scales the variable's absolute tolerance: zero would make it 0, a negative one an invalid
  // tolerance the integrator reports without the variable's name.
  for (double nominal : {0.0, -5.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Model m("scaled");
    INFO("nominal " << nominal);
    CHECK_THROWS_WITH(m.variable("force", {.unit = "N", .nominal = nominal}),
                      Catch::Contains("variable 'scaled.force'") && Catch::Contains("must be positive and finite"));
  }
  Model m("scaled");
  CHECK_NOTHROW(m.variable("force", {.unit = "N", .nominal = 1e3}));
}

TEST_CASE("a message keeps every byte it quotes: invalid UTF-8 and NUL are escaped, never cut", "[errors]") {
  // Issue 30: a non-UTF-8 byte in a file emptied the ModelError message in
  // Python, a NUL byte cut it.
  const std::string quoted = std::string("line 3: 'ab\xff\xc0") + "cd" + std::string("\0ef", 3) + "' is not a number";
  const ModelError e(quoted);
  const std::string what = e.what();
  CHECK(what == "line 3: 'ab\\xFF\\xC0cd\\x00ef' is not a number");
  CHECK(printable_utf8("μ = 0.9 ✓") == "μ = 0.9 ✓");  // valid UTF-8 passes unchanged
}

TEST_CASE("a message is well-formed UTF-8: surrogates, overlong forms and code points past U+10FFFF are escaped",
          "[errors]") {
  // Found by tests/fuzz/fuzz_inputs.py: such bytes from a file passed a lenient
  // check and Python's strict decoder then emptied the message.
  CHECK(printable_utf8("\xed\xa0\x80") == "\\xED\\xA0\\x80");            // a surrogate
  CHECK(printable_utf8("\xe0\x80\xaf") == "\\xE0\\x80\\xAF");            // an overlong '/'
  CHECK(printable_utf8("\xf4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");   // past U+10FFFF
  CHECK(printable_utf8("\xf0\x9f\x9a\x97 car") == "\xf0\x9f\x9a\x97 car");  // U+1F697 stays
}

}  // namespace test_errors
