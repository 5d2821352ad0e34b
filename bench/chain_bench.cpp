// Scaling benchmark: a chain of N spring∥damper→mass cells, compiled by
// acausal and simulated by IDA, beside a hand-written IDA residual of the same
// equations with the same settings (the baseline). Prints the time of each
// compiler phase and the simulation ratio acausal / baseline.
//
//   make bench                     # N = 100, 1000, 10000
//   ./build/bench/chain_bench 500  # any list of N
#include <acausal/acausal.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/baseline_chain.hpp"
#include "bench/chain_model.hpp"

using namespace acausal;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {100, 1000, 10000};
  const double t_end = 1.0, dt = 0.1, rtol = 1e-6, atol = 1e-8;

  std::printf("%7s %9s %9s %8s | %7s %7s %7s %7s %7s %7s %7s %7s | %7s %8s %6s | %9s\n", "N", "eq_flat",
              "eq_alias", "unknowns", "build", "flatten", "alias", "index", "match", "sort", "codegen", "compile",
              "sim", "baseline", "ratio", "max|ds|");
  for (int n : sizes) {
    auto t0 = std::chrono::steady_clock::now();
    Model model("chain");
    bench::build_chain(model, n);
    double build = seconds_since(t0);
    auto t_compile = std::chrono::steady_clock::now();
    Simulator sim = model.compile();
    double compile = seconds_since(t_compile);
    const CompileReport& rep = sim.report();
    auto phase = [&](const char* pass) { return rep.find(pass) ? rep.find(pass)->seconds : 0.0; };

    SimulationOptions opt;
    opt.t_end = t_end;
    opt.output_interval = dt;
    opt.rtol = rtol;
    opt.atol = atol;
    Result r = sim.simulate(opt);
    double simulate = r.statistics().initialization_seconds + r.statistics().integration_seconds;

    acausal::bench::BaselineOptions b;
    b.n_cells = n;
    b.t_end = t_end;
    b.output_interval = dt;
    b.rtol = rtol;
    b.atol = atol;
    b.sparse = r.statistics().linear_solver == "klu";
    auto base = acausal::bench::run_baseline_chain(b);

    // Both must compute the same trajectory of the last mass.
    auto last = r["mass" + std::to_string(n) + ".s"];
    double diff = 0;
    for (std::size_t k = 0; k < last.size() && k < base.last_position.size(); ++k)
      diff = std::max(diff, std::fabs(last[k] - base.last_position[k]));

    std::printf("%7d %9ld %9ld %8d | %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f | %7.3f %8.3f %6.2f | %9.2e\n",
                n, rep.count("flatten", "equations"), rep.count("alias_elimination", "equations_after"),
                r.statistics().unknowns, build, phase("flatten"), phase("alias_elimination"),
                phase("index_reduction"), phase("matching"), phase("sorting"), phase("evaluation"), compile,
                simulate, base.wall_seconds, simulate / base.wall_seconds, diff);
    std::printf("%7s steps acausal %ld / baseline %ld, residual evaluations %ld / %ld, linear solver %s\n", "",
                r.statistics().steps, base.steps, r.statistics().residual_evaluations, base.residual_evals,
                r.statistics().linear_solver.c_str());
  }
  std::printf("times in seconds; ratio = acausal simulate / hand-written IDA baseline (same settings: t_end=%g, "
              "rtol=%g, atol=%g)\n",
              t_end, rtol, atol);
}
