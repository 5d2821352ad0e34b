// Coast-down: the car rolls out from 100 km/h on a level road with no driveline
// (four free wheels under the body). From the deceleration, a least-squares
// fit of the road load F(v) = f0 + f2·v² recovers the body's rolling
// resistance Crr·m·g and drag ½·ρ·Cd·A, as a coast-down test on a track does.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <acausal/acausal.hpp>

using namespace acausal;

int main() {
  const double m_car = 1500, v0 = 100 / 3.6, radius = vehicle::radius_from_tire_size("205/55R16");
  Model m("coast_down");
  auto& body = m.add<vehicle::VehicleBody>("body", {{"m", m_car}, {"L", 2.7}, {"a", 1.2}, {"b", 1.5}, {"h_cg", 0.55}});
  for (const char* name : {"wheel_fl", "wheel_fr", "wheel_rl", "wheel_rr"}) {
    auto& wheel = m.add<vehicle::Wheel>(name, {{"radius", radius}, {"J", 1e-3}, {"mu", 0.9}});
    m.connect(wheel.contact, name[6] == 'f' ? body.contact_front : body.contact_rear);
    m.set_start(std::string(name) + ".omega", v0 / radius);
  }
  m.set_start("body.s", 0.0);
  m.set_start("body.v", v0);
  SimulationOptions opt;
  opt.t_end = 120.0;
  opt.output_interval = 0.1;
  Result r = m.compile().simulate(opt);

  // Least squares of m·(-a) = f0 + f2·v² over the samples between 100 and 20 km/h.
  auto v = r["body.v"], a = r["body.a_x"];
  double s00 = 0, s01 = 0, s11 = 0, b0 = 0, b1 = 0, t_20 = NAN;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (v[k] < 20 / 3.6) {
      if (std::isnan(t_20)) t_20 = r.time()[k];
      continue;
    }
    const double x = v[k] * v[k], F = -m_car * a[k];
    s00 += 1, s01 += x, s11 += x * x, b0 += F, b1 += F * x;
  }
  const double det = s00 * s11 - s01 * s01;
  const double f0 = (b0 * s11 - b1 * s01) / det, f2 = (s00 * b1 - s01 * b0) / det;
  std::printf("coast-down 100 -> 20 km/h in %.1f s\n", t_20);
  std::printf("%-28s %12s %12s\n", "road load", "fitted", "model");
  std::printf("%-28s %12.2f %12.2f\n", "f0 = Crr*m*g [N]", f0, 0.015 * m_car * 9.81);
  std::printf("%-28s %12.4f %12.4f\n", "f2 = rho*Cd*A/2 [N.s2/m2]", f2, 0.5 * 1.225 * 0.3 * 2.2);
  std::filesystem::create_directories("out");
  r.write_csv("out/coast_down.csv", {"body.v", "body.a_x", "body.F_drag", "body.F_roll_front", "body.F_roll_rear"});
  std::printf("trajectory: out/coast_down.csv\n");
}
