// CAR benchmark: a car launched from rest by a constant torque through an open
// differential (bench/car_model.hpp), compiled by acausal and simulated by IDA,
// beside the same equations written by hand as an IDA residual in the fewest
// unknowns with the same settings (bench/baseline_car.cpp). Checks first that
// both compute the same trajectories, then prints the simulation ratio
// acausal / baseline in time and, under callgrind, in instructions.
//
//   make bench                               # with the other benchmarks
//   ./build/bench/car_bench --repeat 15      # interleaved runs for the medians (default 9)
//   ./build/bench/car_bench --no-instructions
//
// Instructions are counted when valgrind is on PATH (or with --instructions):
// the benchmark starts itself under callgrind with --single acausal|acausal_inexact|baseline,
// which compiles and warms up uninstrumented and counts exactly one run.
#include <acausal/acausal.hpp>

// The client requests are no-ops outside valgrind; without the header, no counts.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CAR_BENCH_CALLGRIND 1
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CAR_BENCH_CALLGRIND 0
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/baseline_car.hpp"
#include "bench/car_model.hpp"

using namespace acausal;

namespace {

const double t_end = 10.0, dt = 0.01, rel_tol = 1e-6;
const double abs_tol = SimulationOptions{}.atol;  // acausal's default, used by both
const double agreement = 1e-8;                     // relative to the signal's largest |value|

SimulationOptions acausal_options(double rtol, double atol, bool exact_outputs) {
  SimulationOptions o;
  o.t_end = t_end;
  o.output_interval = dt;
  o.rtol = rtol;
  o.atol = atol;
  o.linear_solver = LinearSolver::dense;
  o.exact_outputs = exact_outputs;
  return o;
}

bench::CarBaselineOptions baseline_options(double rtol, double atol) {
  bench::CarBaselineOptions o;
  o.torque = bench::CarParameters{}.torque;
  o.t_end = t_end;
  o.output_interval = dt;
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

Simulator compile_car() {
  Model model("launch_car");
  bench::build_launch_car(model);
  return model.compile();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One run under callgrind's instrumentation, after an uninstrumented warm-up
// (first-touch allocation and lazy binding are not what a simulation costs).
int run_single(const std::string& which) {
  if (which == "baseline") {
    bench::run_baseline_car(baseline_options(rel_tol, abs_tol));
    CALLGRIND_START_INSTRUMENTATION;
    bench::run_baseline_car(baseline_options(rel_tol, abs_tol));
    CALLGRIND_STOP_INSTRUMENTATION;
    return 0;
  }
  if (which != "acausal" && which != "acausal_inexact") {
    std::fprintf(stderr, "car_bench: --single takes acausal, acausal_inexact or baseline\n");
    return 2;
  }
  Simulator sim = compile_car();
  const SimulationOptions o = acausal_options(rel_tol, abs_tol, which == "acausal");
  sim.simulate(o);
  CALLGRIND_START_INSTRUMENTATION;
  sim.simulate(o);
  CALLGRIND_STOP_INSTRUMENTATION;
  return 0;
}

// Instructions of one --single run, from callgrind's "Collected : N" line; -1 if it failed.
double count_instructions(const std::string& which) {
  std::error_code ec;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return -1;
  const std::string command = "valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null '" + self +
                              "' --single " + which + " 2>&1 >/dev/null";
  FILE* child = popen(command.c_str(), "r");
  if (!child) return -1;
  double collected = -1;
  char line[512];
  while (std::fgets(line, sizeof line, child))
    if (const char* at = std::strstr(line, "Collected :")) collected = std::atof(at + std::strlen("Collected :"));
  return pclose(child) == 0 ? collected : -1;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 9;
  // -1: no valgrind, or built without its header.
  int instructions = CAR_BENCH_CALLGRIND && std::system("command -v valgrind >/dev/null 2>&1") == 0 ? 1 : -1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--single" && i + 1 < argc) return run_single(argv[i + 1]);
    if (arg == "--repeat" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--instructions") {
      instructions = CAR_BENCH_CALLGRIND ? 1 : -1;
    } else if (arg == "--no-instructions") {
      instructions = 0;
    } else {
      std::fprintf(stderr, "usage: car_bench [--repeat N] [--instructions | --no-instructions]\n");
      return 2;
    }
  }

  auto t_compile = std::chrono::steady_clock::now();
  const Simulator sim = compile_car();
  const double compile_seconds = seconds_since(t_compile);
  std::printf("car_bench: %g N.m through an open differential, rear tires tanh law, from rest to t = %g s, "
              "outputs every %g s, dense LU (compile %.1f ms)\n",
              bench::CarParameters{}.torque, t_end, dt, 1e3 * compile_seconds);

  // 1. The same trajectories, at tolerances tight enough that the two
  // integrations' own errors stay well below the agreement asked for.
  {
    const double tight_rtol = 1e-10;
    double tight_atol = 1e-12;
    Result r;
    try {
      r = sim.simulate(acausal_options(tight_rtol, tight_atol, true));
    } catch (const SimulationError& e) {
      // The known IDACalcIC line-search failure at very small atol; a looser atol still checks agreement.
      std::printf("agreement: acausal failed at atol 1e-12 (%s), so both run at atol 1e-10\n",
                  e.solver_message().empty() ? e.what() : e.solver_message().c_str());
      tight_atol = 1e-10;
      r = sim.simulate(acausal_options(tight_rtol, tight_atol, true));
    }
    const bench::CarBaselineResult base = bench::run_baseline_car(baseline_options(tight_rtol, tight_atol));
    bool agree = r.size() == base.time.size();
    for (std::size_t k = 0; agree && k < r.size(); ++k) agree = std::fabs(r.time()[k] - base.time[k]) <= 1e-12;
    if (!agree) {
      std::printf("agreement: FAILED, acausal has %zu output rows, the baseline %zu (or their times differ)\n",
                  r.size(), base.time.size());
      return 1;
    }
    const std::vector<std::string> names = {"body.v", "wheel_fl.omega", "wheel_fr.omega", "wheel_rl.omega",
                                            "wheel_rr.omega"};
    const std::vector<const std::vector<double>*> theirs = {&base.v, &base.omega[0], &base.omega[1], &base.omega[2],
                                                            &base.omega[3]};
    const auto ours = r.columns(names);
    std::string line;
    double worst = 0;
    for (std::size_t j = 0; j < names.size(); ++j) {
      double scale = 0, deviation = 0;
      for (std::size_t k = 0; k < r.size(); ++k)
        scale = std::max({scale, std::fabs(ours[j][k]), std::fabs((*theirs[j])[k])});
      for (std::size_t k = 0; k < r.size(); ++k)
        deviation = std::max(deviation, std::fabs(ours[j][k] - (*theirs[j])[k]) / scale);
      worst = std::max(worst, deviation);
      char item[96];
      std::snprintf(item, sizeof item, "%s%s %.1e", j ? ", " : "", names[j].c_str(), deviation);
      line += item;
    }
    std::printf("agreement at rtol %g, atol %g over %zu rows, max |acausal - baseline| / max |x|: %s -> %s (<= %g)\n",
                tight_rtol, tight_atol, r.size(), line.c_str(), worst <= agreement ? "ok" : "FAILED", agreement);
    if (!(worst <= agreement)) return 1;
  }

  // 2. Time of whole calls (setup, integration, stored outputs), interleaved
  // so that drifts of the machine's speed hit both sides alike.
  const SimulationOptions exact = acausal_options(rel_tol, abs_tol, true);
  const SimulationOptions inexact = acausal_options(rel_tol, abs_tol, false);
  const bench::CarBaselineOptions base_options = baseline_options(rel_tol, abs_tol);
  Result r_exact = sim.simulate(exact), r_inexact = sim.simulate(inexact);  // warm-up, and the statistics
  bench::CarBaselineResult base = bench::run_baseline_car(base_options);
  std::vector<double> t_exact, t_inexact, t_base;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    r_exact = sim.simulate(exact);
    t_exact.push_back(seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    base = bench::run_baseline_car(base_options);
    t_base.push_back(seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    r_inexact = sim.simulate(inexact);
    t_inexact.push_back(seconds_since(t0));
  }
  const double m_exact = median(t_exact), m_inexact = median(t_inexact), m_base = median(t_base);
  std::printf("time per run, median of %d interleaved (rtol %g, atol %g): acausal %.2f ms, baseline %.2f ms, "
              "ratio %.2f; with exact_outputs = false %.2f ms, ratio %.2f\n",
              repeats, rel_tol, abs_tol, 1e3 * m_exact, 1e3 * m_base, m_exact / m_base, 1e3 * m_inexact,
              m_inexact / m_base);

  std::printf("%-27s %8s %6s %6s %10s %10s %11s %9s\n", "", "unknowns", "rows", "steps", "residuals", "jacobians",
              "root evals", "root fns");
  for (auto [label, r] : {std::pair{"acausal", &r_exact}, std::pair{"acausal exact_outputs=false", &r_inexact}}) {
    const SolverStatistics& s = r->statistics();
    std::printf("%-27s %8d %6zu %6ld %10ld %10ld %11ld %9d\n", label, s.unknowns, r->size(), s.steps,
                s.residual_evaluations, s.jacobian_evaluations, s.root_evaluations, s.root_functions);
  }
  std::printf("%-27s %8d %6zu %6ld %10ld %10ld %11d %9d\n", "baseline", base.unknowns, base.time.size(), base.steps,
              base.residual_evals, base.jacobian_evals, 0, 0);
  const SolverStatistics& se = r_exact.statistics();
  const CompileReport& report = sim.report();
  std::printf("acausal: exact outputs %ld rows, %ld Newton iterations, %ld factorizations; compile report: %ld modes, "
              "%ld state events, %ld time events\n",
              se.exact_rows, se.exact_iterations, se.exact_factorizations, report.count("events", "modes"),
              report.count("events", "state_events"), report.count("events", "time_events"));

  // 3. Instructions: deterministic where time is noisy.
  if (instructions == -1) {
    std::printf("instructions: %s, skipped\n",
                CAR_BENCH_CALLGRIND ? "valgrind is not on PATH" : "built without <valgrind/callgrind.h>");
  } else if (instructions == 1) {
    const double i_exact = count_instructions("acausal"), i_inexact = count_instructions("acausal_inexact"),
                 i_base = count_instructions("baseline");
    if (i_exact <= 0 || i_inexact <= 0 || i_base <= 0) {
      std::printf("instructions: a callgrind run failed, skipped\n");
    } else {
      std::printf("instructions per run (callgrind): acausal %.2f M, baseline %.2f M, ratio %.2f; with exact_outputs "
                  "= false %.2f M, ratio %.2f\n",
                  i_exact / 1e6, i_base / 1e6, i_exact / i_base, i_inexact / 1e6, i_inexact / i_base);
    }
  }
}
