// Written against the DESIGN section 6 API only, compiled outside the source tree.
#include <acausal/acausal.hpp>

#include <cmath>
#include <cstdio>

using namespace acausal;

int main() {
  Model m("consumer");
  auto& push = m.add<blocks::Constant>("push", {{"k", 10.0}});
  auto& torque = m.add<rotational::Torque>("torque");
  auto& inertia = m.add<rotational::Inertia>("inertia", {{"J", 1.0}});
  m.connect(push.y, torque.tau);
  m.connect(torque.flange, inertia.flange_a);
  m.set_start("inertia.phi", 0.0);
  m.set_start("inertia.w", 0.0);
  Simulator sim = m.compile();
  sim.set_parameter("inertia.J", 2.0);
  SimulationOptions opt;
  opt.t_end = 1.0;
  opt.output_interval = 1e-2;
  Result r = sim.simulate(opt);
  std::vector<double> w = r["inertia.w"];
  double expected = 10.0 / 2.0 * r.time().back();  // w = tau/J * t
  std::printf("w(1) = %.9f, expected %.9f\n", w.back(), expected);
  return std::fabs(w.back() - expected) < 1e-6 ? 0 : 1;
}
