// Scaling benchmark: a chain of N spring∥damper→mass cells, compiled by
// acausal and simulated by IDA, beside a hand-written IDA residual of the same
// equations with the same settings (the baseline). Prints the time of each
// compiler phase and the simulation ratio acausal / baseline.
//
//   make bench                                # N = 100, 1000, 10000
//   ./build/bench/chain_bench 500 --repeat 5  # any list of N; median of 5 runs (default 3)
//
// Every run is a fresh process (the benchmark starts itself with --single N):
// expression nodes live as long as the process, so a run in a shared process
// would inherit the earlier runs' arena and warm allocator.
#include <acausal/acausal.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bench/baseline_chain.hpp"
#include "bench/chain_model.hpp"

using namespace acausal;

namespace {

const double t_end = 1.0, dt = 0.1, rel_tol = 1e-6, abs_tol = 1e-8;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What one run measures, in the order --single prints it.
enum Field {
  kEquationsFlat, kEquationsAlias, kUnknowns, kBuild, kFlatten, kAlias, kIndex, kMatch, kSort, kCodegen,
  kCompile, kSimulate, kBaseline, kDifference, kSteps, kBaselineSteps, kResiduals, kBaselineResiduals, kKlu,
  kFields
};
using Measurement = std::array<double, kFields>;

Measurement run_once(int n) {
  Measurement m{};
  auto t0 = std::chrono::steady_clock::now();
  Model model("chain");
  bench::build_chain(model, n);
  m[kBuild] = seconds_since(t0);
  auto t_compile = std::chrono::steady_clock::now();
  Simulator sim = model.compile();
  m[kCompile] = seconds_since(t_compile);
  const CompileReport& rep = sim.report();
  auto phase = [&](const char* pass) { return rep.find(pass) ? rep.find(pass)->seconds : 0.0; };
  m[kEquationsFlat] = static_cast<double>(rep.count("flatten", "equations"));
  m[kEquationsAlias] = static_cast<double>(rep.count("alias_elimination", "equations_after"));
  m[kFlatten] = phase("flatten");
  m[kAlias] = phase("alias_elimination");
  m[kIndex] = phase("index_reduction");
  m[kMatch] = phase("matching");
  m[kSort] = phase("sorting");
  m[kCodegen] = phase("evaluation");

  SimulationOptions opt;
  opt.t_end = t_end;
  opt.output_interval = dt;
  opt.rtol = rel_tol;
  opt.atol = abs_tol;
  Result r = sim.simulate(opt);
  const auto& stats = r.statistics();
  m[kUnknowns] = stats.unknowns;
  m[kSimulate] = stats.initialization_seconds + stats.integration_seconds;
  m[kSteps] = static_cast<double>(stats.steps);
  m[kResiduals] = static_cast<double>(stats.residual_evaluations);
  m[kKlu] = stats.linear_solver == "klu";

  acausal::bench::BaselineOptions b;
  b.n_cells = n;
  b.t_end = t_end;
  b.output_interval = dt;
  b.rtol = rel_tol;
  b.atol = abs_tol;
  b.sparse = stats.linear_solver == "klu";
  auto base = acausal::bench::run_baseline_chain(b);
  m[kBaseline] = base.wall_seconds;
  m[kBaselineSteps] = static_cast<double>(base.steps);
  m[kBaselineResiduals] = static_cast<double>(base.residual_evals);

  // Both must compute the same trajectory of the last mass.
  auto last = r["mass" + std::to_string(n) + ".s"];
  for (std::size_t k = 0; k < last.size() && k < base.last_position.size(); ++k)
    m[kDifference] = std::max(m[kDifference], std::fabs(last[k] - base.last_position[k]));
  return m;
}

bool run_in_child(const char* self, int n, Measurement& m) {
  std::string command = std::string(self) + " --single " + std::to_string(n);
  FILE* child = popen(command.c_str(), "r");
  if (!child) return false;
  int read = 0;
  for (double& x : m) read += std::fscanf(child, "%lf", &x) == 1;
  return pclose(child) == 0 && read == kFields;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  int repeats = 3;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--single" && i + 1 < argc) {
      const int n = std::atoi(argv[i + 1]);
      // The chain and its hand-written twin need at least one mass (the
      // comparison reads the last one); zero crashed the baseline.
      if (n < 1) {
        std::fprintf(stderr, "chain_bench: a chain needs at least 1 element, got '%s'\n", argv[i + 1]);
        return 2;
      }
      for (double x : run_once(n)) std::printf("%.17g\n", x);
      return 0;
    }
    if (arg == "--repeat" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else {
      sizes.push_back(std::atoi(argv[i]));
      if (sizes.back() < 1) {
        std::fprintf(stderr, "chain_bench: a chain needs at least 1 element, got '%s'\n", argv[i]);
        return 2;
      }
    }
  }
  if (sizes.empty()) sizes = {100, 1000, 10000};

  std::printf("%7s %9s %9s %8s | %7s %7s %7s %7s %7s %7s %7s %7s | %7s %8s %6s | %9s\n", "N", "eq_flat",
              "eq_alias", "unknowns", "build", "flatten", "alias", "index", "match", "sort", "codegen", "compile",
              "sim", "baseline", "ratio", "max|ds|");
  std::map<int, double> compile_of;
  double worst_ratio = 0;
  for (int n : sizes) {
    std::vector<Measurement> runs(repeats);
    for (auto& m : runs) {
      if (!run_in_child(argv[0], n, m)) {
        std::fprintf(stderr, "chain_bench: the run with N = %d failed\n", n);
        return 1;
      }
    }
    // Each figure is the median of the runs (the simulation ratio is that of the medians).
    Measurement med;
    for (int f = 0; f < kFields; ++f) {
      std::vector<double> values;
      for (const auto& m : runs) values.push_back(m[f]);
      med[f] = median(values);
    }
    const double ratio = med[kSimulate] / med[kBaseline];
    compile_of[n] = med[kCompile];
    if (n >= 1000) worst_ratio = std::max(worst_ratio, ratio);
    std::printf("%7d %9.0f %9.0f %8.0f | %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f | %7.3f %8.3f %6.2f | %9.2e\n",
                n, med[kEquationsFlat], med[kEquationsAlias], med[kUnknowns], med[kBuild], med[kFlatten],
                med[kAlias], med[kIndex], med[kMatch], med[kSort], med[kCodegen], med[kCompile], med[kSimulate],
                med[kBaseline], ratio, med[kDifference]);
    std::printf("%7s steps acausal %.0f / baseline %.0f, residual evaluations %.0f / %.0f, linear solver %s\n", "",
                med[kSteps], med[kBaselineSteps], med[kResiduals], med[kBaselineResiduals],
                med[kKlu] != 0.0 ? "klu" : "dense");
  }
  std::printf("times in seconds, each the median of %d runs in fresh processes; ratio = acausal simulate / "
              "hand-written IDA baseline (same settings: t_end=%g, rtol=%g, atol=%g)\n",
              repeats, t_end, rel_tol, abs_tol);
  if (compile_of.count(1000) && compile_of.count(10000))
    std::printf("targets: compile at N = 10000 %.3f s (< 3 s); growth N = 1000 -> 10000 %.1fx (<= 15x); "
                "simulation ratio for N >= 1000 at most %.2f (<= 2)\n",
                compile_of[10000], compile_of[10000] / compile_of[1000], worst_ratio);
}
