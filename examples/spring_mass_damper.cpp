// A mass on a spring and a damper, pushed by a constant force: the classic
// damped oscillator, built from library components and written to CSV.
#include <acausal/acausal.hpp>

#include <filesystem>
#include <iostream>

using namespace acausal;

int main() {
  Model m("spring_mass_damper");
  auto& wall = m.add<translational::Fixed>("wall");
  auto& spring = m.add<translational::Spring>("spring", {{"c", 100.0}});
  auto& damper = m.add<translational::Damper>("damper", {{"d", 4.0}});
  auto& mass = m.add<translational::Mass>("mass", {{"m", 1.0}});
  auto& push = m.add<blocks::Constant>("push", {{"k", 10.0}});
  auto& force = m.add<translational::Force>("force");
  m.connect(wall.flange, spring.flange_a);
  m.connect(wall.flange, damper.flange_a);
  m.connect(spring.flange_b, mass.flange_a);
  m.connect(damper.flange_b, mass.flange_a);
  m.connect(push.y, force.f);
  m.connect(force.flange, mass.flange_b);
  m.set_start("mass.s", 0.0);
  m.set_start("mass.v", 0.0);

  Simulator sim = m.compile();
  std::cout << sim.report().str();
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 0.01;
  Result r = sim.simulate(opt);

  std::filesystem::create_directories("out");
  r.write_csv("out/spring_mass_damper.csv");
  std::cout << "final position " << r["mass.s"].back() << " m (static deflection F/c = " << 10.0 / 100.0
            << " m)\nwrote out/spring_mass_damper.csv (" << r.size() << " rows, " << r.names().size()
            << " variables)\n";
}
