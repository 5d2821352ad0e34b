// The DESIGN section 6 example: a torque step drives an inertia that rolls a
// mass through an ideal wheel against quadratic drag. The ideal wheel couples
// two inertias rigidly (index reduction), the step is a time event, and the
// closed form is v(t) = 5·tanh(t - 0.1).
#include "examples/rolling_wheel_model.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

using namespace acausal;

int main() {
  Model m("rolling_wheel");
  examples::build_rolling_wheel(m);

  Simulator sim = m.compile();
  std::cout << sim.report().str() << '\n';
  SimulationOptions opt;
  opt.t_end = 5.0;
  opt.output_interval = 1e-3;
  Result r = sim.simulate(opt);

  auto v = r["mass.v"];
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    if (r.time()[k] > 0.1) worst = std::max(worst, std::fabs(v[k] - 5.0 * std::tanh(r.time()[k] - 0.1)));
  std::filesystem::create_directories("out");
  r.write_csv("out/rolling_wheel.csv");
  const auto& st = r.statistics();
  std::cout << "v(5 s) = " << v.back() << " m/s; max |v - 5 tanh(t - 0.1)| = " << worst << '\n'
            << "events at t =";
  for (double t : r.event_times()) std::cout << ' ' << t;
  std::cout << "\nIDA: " << st.steps << " steps, " << st.residual_evaluations << " residual evaluations, "
            << st.jacobian_evaluations << " Jacobians, " << st.unknowns << " unknowns (" << st.linear_solver
            << ")\nwrote out/rolling_wheel.csv (" << r.size() << " rows, " << r.names().size() << " variables)\n";
}
