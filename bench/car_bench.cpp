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
// acausal runs four ways: its tapes interpreted or as native code (built by
// the system's C compiler, CompileOptions::native_code), each with and without
// exact outputs. Instructions are counted when valgrind is on PATH (or with
// --instructions): the benchmark starts itself under callgrind with
// --single <variant>|baseline, which compiles and warms up uninstrumented and
// counts exactly one run.
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
#include <fmt/format.h>
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

Simulator compile_car(bool native) {
  Model model("launch_car");
  bench::build_launch_car(model);
  CompileOptions options;
  options.native_code = native;
  return model.compile(options);
}

struct Variant {
  const char* name;
  bool native, exact_outputs;
};
const Variant variants[] = {{"tape", false, true}, {"native", true, true},
                            {"tape_inexact", false, false}, {"native_inexact", true, false}};

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
  for (const Variant& v : variants) {
    if (which != v.name) continue;
    Simulator sim = compile_car(v.native);
    const SimulationOptions o = acausal_options(rel_tol, abs_tol, v.exact_outputs);
    sim.simulate(o);
    CALLGRIND_START_INSTRUMENTATION;
    sim.simulate(o);
    CALLGRIND_STOP_INSTRUMENTATION;
    return 0;
  }
  fmt::print(stderr, "car_bench: --single takes tape, native, tape_inexact, native_inexact or baseline\n");
  return 2;
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
      fmt::print(stderr, "usage: car_bench [--repeat N] [--instructions | --no-instructions]\n");
      return 2;
    }
  }

  auto t_compile = std::chrono::steady_clock::now();
  const Simulator tape = compile_car(false);
  const double compile_seconds = seconds_since(t_compile);
  t_compile = std::chrono::steady_clock::now();
  const Simulator native = compile_car(true);
  const double native_seconds = seconds_since(t_compile);
  fmt::print("car_bench: {:g} N.m through an open differential, rear tires tanh law, from rest to t = {:g} s, "
             "outputs every {:g} s, dense LU (compile {:.1f} ms; with native code {:.1f} ms, {})\n",
             bench::CarParameters{}.torque, t_end, dt, 1e3 * compile_seconds, 1e3 * native_seconds,
             native.report().count("native_code", "compiled") ? "C compiler run" : "loaded from the cache");

  // 1. The same trajectories, at tolerances tight enough that the two
  // integrations' own errors stay well below the agreement asked for; native
  // code computes what the tape computes, to the bit.
  {
    const double tight_rtol = 1e-10, tight_atol = 1e-12;
    const Result r = tape.simulate(acausal_options(tight_rtol, tight_atol, true));
    const Result rn = native.simulate(acausal_options(tight_rtol, tight_atol, true));
    const bench::CarBaselineResult base = bench::run_baseline_car(baseline_options(tight_rtol, tight_atol));
    bool agree = r.size() == base.time.size();
    for (std::size_t k = 0; agree && k < r.size(); ++k) agree = std::fabs(r.time()[k] - base.time[k]) <= 1e-12;
    if (!agree) {
      fmt::print("agreement: FAILED, acausal has {} output rows, the baseline {} (or their times differ)\n", r.size(),
                 base.time.size());
      return 1;
    }
    const std::vector<std::string> names = {"body.v", "wheel_fl.omega", "wheel_fr.omega", "wheel_rl.omega",
                                            "wheel_rr.omega"};
    const std::vector<const std::vector<double>*> theirs = {&base.v, &base.omega[0], &base.omega[1], &base.omega[2],
                                                            &base.omega[3]};
    const auto ours = r.columns(names);
    const auto ours_native = rn.columns(names);
    std::string line;
    double worst = 0;
    for (std::size_t j = 0; j < names.size(); ++j) {
      double scale = 0, deviation = 0;
      for (std::size_t k = 0; k < r.size(); ++k)
        scale = std::max({scale, std::fabs(ours[j][k]), std::fabs((*theirs[j])[k])});
      for (std::size_t k = 0; k < r.size(); ++k)
        deviation = std::max(deviation, std::fabs(ours[j][k] - (*theirs[j])[k]) / scale);
      worst = std::max(worst, deviation);
      fmt::format_to(std::back_inserter(line), "{}{} {:.1e}", j ? ", " : "", names[j], deviation);
    }
    fmt::print("agreement at rtol {:g}, atol {:g} over {} rows, max |acausal - baseline| / max |x|: {} -> {} (<= {:g})\n",
               tight_rtol, tight_atol, r.size(), line, worst <= agreement ? "ok" : "FAILED", agreement);
    const bool identical = ours == ours_native && r.time() == rn.time();
    fmt::print("native code and tape: {}\n", identical ? "identical trajectories" : "trajectories DIFFER");
    if (!(worst <= agreement) || !identical) return 1;
  }

  // 2. Time of whole calls (setup, integration, stored outputs), interleaved
  // so that drifts of the machine's speed hit every variant alike.
  const bench::CarBaselineOptions base_options = baseline_options(rel_tol, abs_tol);
  std::vector<Result> results;
  for (const Variant& v : variants)  // warm-up, and the statistics
    results.push_back((v.native ? native : tape).simulate(acausal_options(rel_tol, abs_tol, v.exact_outputs)));
  bench::CarBaselineResult base = bench::run_baseline_car(base_options);
  std::vector<std::vector<double>> times(std::size(variants));
  std::vector<double> t_base;
  for (int i = 0; i < repeats; ++i) {
    for (std::size_t k = 0; k < std::size(variants); ++k) {
      const Variant& v = variants[k];
      const SimulationOptions o = acausal_options(rel_tol, abs_tol, v.exact_outputs);
      const auto t0 = std::chrono::steady_clock::now();
      results[k] = (v.native ? native : tape).simulate(o);
      times[k].push_back(seconds_since(t0));
    }
    const auto t0 = std::chrono::steady_clock::now();
    base = bench::run_baseline_car(base_options);
    t_base.push_back(seconds_since(t0));
  }
  const double m_base = median(t_base);
  fmt::print("time per run, median of {} interleaved (rtol {:g}, atol {:g}): baseline {:.2f} ms\n", repeats, rel_tol,
             abs_tol, 1e3 * m_base);
  for (std::size_t k = 0; k < std::size(variants); ++k)
    fmt::print("  acausal {:<15} {:7.2f} ms  ratio {:.2f}\n", variants[k].name, 1e3 * median(times[k]),
               median(times[k]) / m_base);

  fmt::print("{:<23} {:>8} {:>6} {:>6} {:>10} {:>10} {:>11} {:>9}\n", "", "unknowns", "rows", "steps", "residuals",
             "jacobians", "root evals", "root fns");
  for (std::size_t k = 0; k < std::size(variants); ++k) {
    const SolverStatistics& s = results[k].statistics();
    fmt::print("acausal {:<15} {:>8} {:>6} {:>6} {:>10} {:>10} {:>11} {:>9}\n", variants[k].name, s.unknowns,
               results[k].size(), s.steps, s.residual_evaluations, s.jacobian_evaluations, s.root_evaluations,
               s.root_functions);
  }
  fmt::print("{:<23} {:>8} {:>6} {:>6} {:>10} {:>10} {:>11} {:>9}\n", "baseline", base.unknowns, base.time.size(),
             base.steps, base.residual_evals, base.jacobian_evals, 0, 0);
  const SolverStatistics& se = results[0].statistics();
  const CompileReport& report = tape.report();
  fmt::print("acausal: exact outputs {} rows, {} Newton iterations, {} factorizations; compile report: {} modes, "
             "{} state events, {} time events\n",
             se.exact_rows, se.exact_iterations, se.exact_factorizations, report.count("events", "modes"),
             report.count("events", "state_events"), report.count("events", "time_events"));

  // 3. Instructions: deterministic where time is noisy.
  if (instructions == -1) {
    fmt::print("instructions: {}, skipped\n",
               CAR_BENCH_CALLGRIND ? "valgrind is not on PATH" : "built without <valgrind/callgrind.h>");
  } else if (instructions == 1) {
    const double i_base = count_instructions("baseline");
    if (i_base <= 0) {
      fmt::print("instructions: the baseline's callgrind run failed, skipped\n");
      return 0;
    }
    fmt::print("instructions per run (callgrind): baseline {:.2f} M\n", i_base / 1e6);
    for (const Variant& v : variants) {
      const double i = count_instructions(v.name);
      if (i <= 0)
        fmt::print("  acausal {:<15} callgrind run failed\n", v.name);
      else
        fmt::print("  acausal {:<15} {:7.2f} M  ratio {:.2f}\n", v.name, i / 1e6, i / i_base);
    }
  }
}
