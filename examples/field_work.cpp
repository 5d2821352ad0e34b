// Field work (issue 38 item 5): seed 003's Tractor on sandy loam pulling a
// chisel plow (ASABE D497, 2 shovels 6 cm deep in a medium soil: 1.55 kN) at 2 m/s
// held by a PI governor on the throttle, in gear 5, over a field whose height
// profile (a file of s,z rows, or by default a 1.5 m rise between s = 30 m
// and 80 m, up to 4.5 % steep: on sandy loam this tractor spins out beyond
// about 5 % with this load) sets the grade. Prints every 5 s the position, height, speed,
// rear-wheel slip, draft and engine power (mechanical, at the flywheel: no
// fuel map), then what the hill cost: the extra engine work against the same
// run on flat ground, at equal distance, beside m·g·Δz.
//   field_work [profile.csv]
#include <acausal/acausal.hpp>
#include <acausal/harness/rigs.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace acausal;
using namespace acausal::vehicle;

namespace {

constexpr double v_ref = 2.0, t_end = 60.0, s_compare = 110.0;

Result plow(const HeightProfile& profile) {
  Model m("field_work");
  harness::field_work_rig(m, profile, v_ref);
  SimulationOptions options;
  options.t_end = t_end;
  options.output_interval = 0.05;
  options.rtol = 1e-6;
  return m.compile().simulate(options);
}

/// The engine's work from the start until the tractor reaches s.
double engine_work_to(const Result& r, double s_end) {
  return harness::work_until(r, {"tractor.engine.P_out"}, "tractor.body.s", s_end);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const HeightProfile field = argc > 1 ? load_height_profile(argv[1])
                                         : HeightProfile({{0, 0}, {30, 0}, {80, 1.5}, {300, 1.5}});
    const HeightProfile flat({{0, 0}, {300, 0}});
    const Result hill = plow(field), level = plow(flat);
    std::printf("%6s %8s %7s %7s %9s %10s %10s\n", "t [s]", "s [m]", "z [m]", "v [m/s]", "slip_rl", "draft [N]",
                "P_eng [kW]");
    const auto t = hill.time();
    for (std::size_t k = 0; k < hill.size(); k += 100) {
      const double s = hill["tractor.body.s"][k];
      std::printf("%6.1f %8.2f %7.3f %7.3f %9.3f %10.0f %10.1f\n", t[k], s, field.height(Expr(s)).value(),
                  hill["tractor.body.v"][k], hill["tractor.wheel_rl.slip"][k], hill["plow.F_draft"][k],
                  hill["tractor.engine.P_out"][k] / 1e3);
    }
    const double m_g_dz = 4500 * 9.81 * (field.height(Expr(s_compare)).value() - field.height(Expr(0.0)).value());
    const double extra = engine_work_to(hill, s_compare) - engine_work_to(level, s_compare);
    std::printf("field work to s = %.0f m: the hill cost the engine %.1f kJ, m·g·dz = %.1f kJ (%.2f x: driveline "
                "losses and the extra slip)\n",
                s_compare, extra / 1e3, m_g_dz / 1e3, extra / m_g_dz);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "field_work: %s\n", e.what());
    return 1;
  }
  return 0;
}
