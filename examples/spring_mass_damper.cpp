// A mass on a spring and a damper, pushed by a constant force: the classic
// damped oscillator, built from library components and written to CSV.
#include "examples/spring_mass_damper_model.hpp"

#include <filesystem>
#include <iostream>

using namespace acausal;

int main() {
  Model m("spring_mass_damper");
  examples::build_spring_mass_damper(m);  // m = 1 kg, c = 100 N/m, d = 4 N.s/m, F = 10 N

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
