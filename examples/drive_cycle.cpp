// Drive cycle: the DriverController follows a speed table (accelerate, cruise,
// accelerate, cruise, brake to a stop) with throttle and brake; the gearbox
// shifts on its schedule. Prints the tracking error and the energy used.
#include <acausal/acausal.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

using namespace acausal;

int main() {
  const std::vector<std::pair<double, double>> cycle{{0, 0},   {2, 0},   {12, 15}, {30, 15},
                                                     {40, 25}, {60, 25}, {72, 0},  {80, 0}};
  Model m("drive_cycle");
  // The clutch engages over the first second and stays closed (the engine
  // is dragged down with the car when it stops).
  auto& car = m.add<vehicle::RearDriveCar>("car");
  auto& reference = m.add<blocks::TimeTable>("cycle");
  reference.set_table(cycle);
  auto& driver = m.add<vehicle::DriverController>("driver");
  auto& engage = m.add<blocks::Ramp>("engage", {{"height", 1.0}, {"duration", 1.0}});
  m.connect(reference.y, driver.v_ref);
  m.connect(car.speed, driver.v);
  m.connect(driver.throttle, car.throttle);
  m.connect(driver.brake, car.brake);
  m.connect(engage.y, car.clutch_engagement);
  SimulationOptions opt;
  opt.t_end = 80.0;
  opt.output_interval = 0.05;
  Result r = m.compile().simulate(opt);

  auto e = r["driver.e"], P = r["car.engine.P_out"], brake = r["driver.brake"];
  double worst = 0, square = 0, work = 0;
  std::size_t n = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (k > 0) work += 0.5 * (P[k] + P[k - 1]) * (r.time()[k] - r.time()[k - 1]);
    if (r.time()[k] < 3.0) continue;  // the clutch is still engaging
    worst = std::max(worst, std::fabs(e[k]));
    square += e[k] * e[k];
    ++n;
  }
  std::printf(
      "speed tracking: rms %.3f m/s, worst %.3f m/s; peak brake %.2f; "
      "engine work %.2f MJ; %zu events\n",
      std::sqrt(square / n), worst, *std::max_element(brake.begin(), brake.end()), work / 1e6, r.event_times().size());
  std::filesystem::create_directories("out");
  r.write_csv("out/drive_cycle.csv",
              {"cycle.y", "car.body.v", "driver.throttle", "driver.brake", "car.selector.gear", "car.engine.rpm"});
  std::printf("trajectory: out/drive_cycle.csv\n");
}
