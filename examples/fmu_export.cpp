// The flagship car leaves the library: exported as an FMI 2.0 FMU
// (out/launch_and_brake.fmu), checked and run by the in-repo FMU checker (as a
// host tool would load it: unzipped, dlopen'ed, called through the fmi2
// functions) in both interfaces, Co-Simulation (the FMU's own solver) and
// Model Exchange (the checker's CVODE integrates the states), and compared
// with the library's own run.
#include <acausal/acausal.hpp>
#include <acausal/fmi/check/runner.hpp>
#include <acausal/harness/rigs.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

using namespace acausal;

int main() {
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car, 1.0, 12.0);
  const Simulator sim = m.compile();

  const double stop = 20.0, step = 0.01;
  std::filesystem::create_directories("out");
  const std::string path = "out/launch_and_brake.fmu";
  export_fmu(sim, path, {.stop_time = stop, .tolerance = 1e-6, .step_size = step});
  std::printf("FMU export: %s (%.1f MB), FMI 2.0 Model Exchange and Co-Simulation\n", path.c_str(),
              static_cast<double>(std::filesystem::file_size(path)) / 1e6);

  const fmi::check::Fmu fmu(path);
  const auto findings = check_description(fmu.description());
  std::printf("  checker: %zu variables, %zu findings in the description, %zu loading the binary\n",
              fmu.description().variables.size(), findings.size(), fmu.load_findings().size());
  fmi::check::RunOptions options;
  options.stop_time = stop;
  options.step_size = step;
  options.recorded_names = {"car.body.v", "car.body.s"};
  auto timed = [&](auto run_interface) {
    const auto started = std::chrono::steady_clock::now();
    auto run = run_interface();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    for (const auto& f : run.findings) std::printf("  %s: %s\n", f.rule.c_str(), f.message.c_str());
    return std::pair{std::move(run), seconds};
  };
  const auto [run, seconds] = timed([&] { return fmu.run_co_simulation(options); });
  const auto [me_run, me_seconds] = timed([&] { return fmu.run_model_exchange(options); });
  if (!run.completed || !me_run.completed) return 1;

  // The library's own run, advanced through the same communication points.
  SimulationOptions own;
  own.t_end = stop;
  own.output_times = {stop};
  Session session = sim.start(own);
  double worst = 0, me_worst = 0;
  for (std::size_t k = 1; k < run.table.times.size(); ++k) {
    session.advance(run.table.times[k]);
    for (std::size_t j = 0; j < options.recorded_names.size(); ++j) {
      const double mine = session.get(options.recorded_names[j]);
      const double scale = std::max(1.0, std::fabs(mine));
      worst = std::max(worst, std::fabs(mine - run.table.rows[k][j]) / scale);
      me_worst = std::max(me_worst, std::fabs(mine - me_run.table.rows[k][j]) / scale);
    }
  }
  std::printf("  co-simulation: %zu steps of %.0f ms in %.2f s, final s = %.2f m; largest difference from the "
              "library's run %.1e (relative)\n",
              run.steps, step * 1e3, seconds, run.table.rows.back()[1], worst);
  std::printf("  model exchange: CVODE, %zu steps and %zu events in %.2f s, final s = %.2f m; largest difference from "
              "the library's run %.1e (relative; both integrators at rtol 1e-6)\n",
              me_run.steps, me_run.event_times.size(), me_seconds, me_run.table.rows.back()[1], me_worst);
  return worst <= 1e-6 && me_worst <= 1e-3 && findings.empty() && fmu.load_findings().empty() ? 0 : 1;
}
