// Sorting and tearing: explicit assignments leave the system, algebraic loops are torn.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <cmath>

namespace test_sorting {

using namespace acausal;

TEST_CASE("a nonlinear algebraic loop is torn to one unknown", "[sorting]") {
  Model m("loop");
  Variable x = m.variable("x"), y = m.variable("y"), z = m.variable("z");
  m.equation(x + y == 3.0);
  m.equation(x == y * y * y);
  m.equation(der(z) == x);
  m.set_start("z", 0.0);
  m.set_start("y", 1.0, false);  // a guess for the iteration
  Simulator sim = m.compile();
  INFO(sim.report().str());
  CHECK(sim.report().count("sorting", "largest_block") == 2);
  CHECK(sim.report().count("sorting", "torn") == 1);
  CHECK(sim.report().count("evaluation", "unknowns") == 2);  // z and the torn variable
  SimulationOptions opt;
  opt.t_end = 1.0;
  opt.output_interval = 0.1;
  Result r = sim.simulate(opt);
  double xv = r["x"].back(), yv = r["y"].back();
  CHECK(std::fabs(xv + yv - 3.0) < 1e-10);
  CHECK(std::fabs(xv - yv * yv * yv) < 1e-8);
  CHECK(r["z"].back() == Approx(xv).epsilon(1e-6));
}

TEST_CASE("the 1000-gear chain's torque loop is solved in sequence: only the states remain", "[sorting]") {
  Model m("gears");
  auto& k = m.add<blocks::Constant>("k", {{"k", 1.0}});
  auto& motor = m.add<rotational::Torque>("motor");
  auto& first = m.add<rotational::Inertia>("j0");
  m.connect(k.y, motor.tau);
  m.connect(motor.flange, first.flange_a);
  Connector* previous = &first.flange_b;
  for (int i = 1; i < 1000; ++i) {
    auto& gear = m.add<rotational::IdealGear>("g" + std::to_string(i), {{"ratio", 1.001}});
    auto& j = m.add<rotational::Inertia>("j" + std::to_string(i));
    m.connect(*previous, gear.flange_a);
    m.connect(gear.flange_b, j.flange_a);
    previous = &j.flange_b;
  }
  m.set_start("j0.phi", 0.0);
  m.set_start("j0.w", 0.0);
  Simulator sim = m.compile();
  CHECK(sim.report().count("evaluation", "unknowns") == 2);
  CHECK(sim.report().count("sorting", "torn") == 0);
}

}  // namespace test_sorting
