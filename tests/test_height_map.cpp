// Height-map terrain (issue 38 item 3): a profile z(s) under the
// longitudinal bodies and a grid z(x, y) under the planar one, checked
// against the constant-grade bodies they generalize, against energy
// conservation, and the CSV loader's errors. Tolerances are stated per check.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/harness/energy.hpp>
#include <acausal/harness/rigs.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "support.hpp"

namespace test_height_map {

using namespace acausal;
using namespace acausal::vehicle;

namespace {

constexpr double g = 9.81;

/// A VehicleBody with its contacts on fixed ground and no wheel forces, starting at s = 0 with speed v0.
struct CoastRig {
  Model model{"coast"};
  VehicleBody& body;
  CoastRig(ParameterValues parameters, double v0) : body(model.add<VehicleBody>("body", std::move(parameters))) {
    harness::body_rig(model, body.contact_front, body.contact_rear, 0.0, 0.0);
    model.set_start("body.s", 0.0);
    model.set_start("body.v", v0);
  }
};

/// A PlanarVehicleBody (no drag) on four free-rolling PlanarWheels, heading psi0 at v0.
struct PlanarRig : Model {
  PlanarVehicleBody& body;
  PlanarRig(ParameterValues parameters, double psi0, double v0)
      : Model("planar_rig"), body(add<PlanarVehicleBody>("body", std::move(parameters))) {
    const std::array<std::string, 4> corners{"fl", "fr", "rl", "rr"};
    const std::array<planar::Frame*, 4> mounts{&body.frame_fl, &body.frame_fr, &body.frame_rl, &body.frame_rr};
    const std::array<RealOutput*, 4> loads{&body.N_fl, &body.N_fr, &body.N_rl, &body.N_rr};
    for (int k = 0; k < 4; ++k) {
      auto& wheel = add<PlanarWheel>("wheel_" + corners[k], {{"radius", 0.3}, {"J", 1.2}, {"Crr", 0.0}});
      connect(*mounts[k], wheel.frame);
      connect(*loads[k], wheel.N);
      set_start("wheel_" + corners[k] + ".omega", v0 / 0.3);
    }
    set_start("body.psi", psi0);
    set_start("body.v_x", v0);
  }
};

/// z(x, y) sampled on the square grid [from, to]² every `step` metres.
template <class Height>
HeightMap sampled_map(double from, double to, double step, Height z) {
  std::vector<double> nodes;
  for (double u = from; u <= to; u += step) nodes.push_back(u);
  std::vector<std::vector<double>> heights;
  for (double x : nodes) {
    heights.emplace_back();
    for (double y : nodes) heights.back().push_back(z(x, y));
  }
  return HeightMap(nodes, nodes, heights);
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("Height profile: a constant slope reproduces the constant grade's run to 1e-9", "[vehicle][terrain][height_map]") {
  const double grade = 0.06;
  const ParameterValues parameters{{"m", 1200}, {"grade", grade}};
  CoastRig plane(parameters, 15.0);
  const Result expected = plane.model.compile().simulate(test::run_for(6.0, 0.01, 1e-9));

  CoastRig mapped({{"m", 1200}}, 15.0);  // grade 0: only the profile can slow it
  std::vector<std::pair<double, double>> points;
  for (double s = -50; s <= 200; s += 25) points.emplace_back(s, s * std::sin(grade));
  mapped.body.set_height_profile(HeightProfile(points));
  const Result r = mapped.model.compile().simulate(test::run_for(6.0, 0.01, 1e-9));
  REQUIRE(r.size() == expected.size());
  double worst = 0;
  for (std::size_t k = 0; k < r.size(); ++k)
    worst = std::max(worst, std::fabs(r["body.v"][k] - expected["body.v"][k]));
  CHECK(worst <= 1e-9);
  CHECK(r["body.theta"].back() == Approx(grade).epsilon(1e-12));
  CHECK(r["body.v"].back() < 15.0 - 3.0);  // it did climb (about 3.5 m/s lost)
}

TEST_CASE("Height profile: coasting from rest down a cosine hill trades the potential energy of where the body "
          "reads the road for kinetic energy to 1e-6",
          "[vehicle][terrain][height_map]") {
  // z = h·cos(2π s/λ) sampled every 2.5 m, a monotone cubic between: the car starts at rest on the flank
  // at s = λ/8 and rolls down into the valley and up the other side. No drag, no rolling resistance. Read
  // under the wheels, the potential is m·g·(b·z(s + a) + a·z(s − b))/L; under the CG, m·g·z(s). They differ by
  // about m·g·z''·a·b/2 ≈ 40 J in the valley: 5e-4 of the energy traded, so each check tells them apart.
  const double h = 4.0, lambda = 200.0, m = 1200.0, a = 1.2, b = 1.5, L = a + b;
  std::vector<std::pair<double, double>> points;
  for (double s = -100; s <= 300; s += 2.5) points.emplace_back(s, h * std::cos(2 * std::numbers::pi * s / lambda));
  const HeightProfile profile(points);
  const auto z = [&](double s) { return profile.height(Expr(s)).value(); };
  for (const TerrainSampling sampling : {TerrainSampling::wheels, TerrainSampling::cg}) {
    const bool wheels = sampling == TerrainSampling::wheels;
    const auto potential = [&](double s) { return m * g * (wheels ? (b * z(s + a) + a * z(s - b)) / L : z(s)); };
    CoastRig rig({{"m", m}, {"a", a}, {"b", b}, {"L", L}, {"Cd", 0.0}, {"Crr", 0.0}}, 0.0);
    rig.body.set_height_profile(profile, sampling);
    rig.model.set_start("body.s", lambda / 8);
    const Result r = rig.model.compile().simulate(test::run_for(30.0, 0.05, 1e-10));
    const auto s = r["body.s"], v = r["body.v"];
    const double E0 = potential(lambda / 8);
    double worst = 0, s_max = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      worst = std::max(worst, std::fabs(0.5 * m * v[k] * v[k] + potential(s[k]) - E0));
      s_max = std::max(s_max, s[k]);
    }
    // Relative to the energy that changes hands, m·g·(z(λ/8) − z(λ/2)) ≈ 80 kJ.
    const double traded = m * g * (z(lambda / 8) - z(lambda / 2));
    INFO((wheels ? "wheels" : "cg") << ": worst energy error " << worst << " J of " << traded << " J");
    CHECK(worst <= 1e-6 * traded);
    CHECK(s_max > lambda / 2 + 50);  // through the valley and up the far side
  }
}

TEST_CASE("Height profile: a trough between the axles does not move a car at rest on its wheels, read under the CG "
          "it would",
          "[vehicle][terrain][height_map]") {
  // A 20 cm deep, 1.2 m wide cosine trough at s = 0, flat elsewhere (sampled every 0.1 m: the monotone cubic is
  // flat beyond the trough's first flat node). The CG stands on its flank at s = 0.3, the axles on the flat at
  // 1.5 and −1.2.
  std::vector<std::pair<double, double>> points;
  for (int i = -100; i <= 100; ++i) {
    const double s = 0.1 * i;
    points.emplace_back(s, std::fabs(s) < 0.6 ? -0.1 * (1 + std::cos(std::numbers::pi * s / 0.6)) : 0.0);
  }
  const HeightProfile trough(points);
  CoastRig flat({}, 0.0);
  flat.model.set_start("body.s", 0.3);
  const Result level = flat.model.compile().simulate(test::run_for(1.0, 0.01, 1e-9));
  for (const TerrainSampling sampling : {TerrainSampling::wheels, TerrainSampling::cg}) {
    CoastRig rig({}, 0.0);
    rig.body.set_height_profile(trough);  // the last setter called decides: this one is replaced
    rig.body.set_height_profile(trough, sampling);
    rig.model.set_start("body.s", 0.3);
    const Result r = rig.model.compile().simulate(test::run_for(1.0, 0.01, 1e-9));
    if (sampling == TerrainSampling::wheels) {
      // At rest as on the level, with the level's axle loads (1e-9 of the weight).
      CHECK(std::fabs(r["body.s"].back() - 0.3) <= 1e-12);
      CHECK(r["body.theta"].back() == 0.0);
      CHECK(r["body.N_front"].back() == Approx(level["body.N_front"].back()).margin(1e-9 * 1500 * g));
    } else {
      // The CG's slope (dz/ds ≈ 0.52) pulls it back into the trough: more than 10 cm in a second.
      CHECK(r["body.s"].back() < 0.2);
    }
  }
}

TEST_CASE("Height map: a planar body on a tilted-plane map equals the grade/grade_heading body to 1e-9",
          "[vehicle][terrain][height_map][planar]") {
  const double grade = 0.1, heading = 0.7, psi0 = 0.3, v0 = 15.0;
  PlanarRig plane({{"Cd", 0.0}, {"grade", grade}, {"grade_heading", heading}}, psi0, v0);
  const Result expected = test::compile_checked(plane).simulate(test::run_for(3.0, 0.01, 1e-9));

  // The plane z = tan(grade)·(x·cos χ + y·sin χ) on a coarse grid: the bicubic reproduces a plane exactly.
  PlanarRig mapped({{"Cd", 0.0}}, psi0, v0);
  mapped.body.set_height_map(sampled_map(-40, 120, 20, [&](double x, double y) {
    return std::tan(grade) * (x * std::cos(heading) + y * std::sin(heading));
  }));
  const Result r = test::compile_checked(mapped).simulate(test::run_for(3.0, 0.01, 1e-9));
  REQUIRE(r.size() == expected.size());
  for (const char* name : {"body.x", "body.y", "body.v_x", "body.v_y", "body.psi", "body.N_fl", "body.N_rr"}) {
    double worst = 0, scale = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      worst = std::max(worst, std::fabs(r[name][k] - expected[name][k]));
      scale = std::max(scale, std::fabs(expected[name][k]));
    }
    // The loads are read through der(v_x), der(v_y), which IDA solves to its Newton tolerance: 1e-8 for them.
    const double tolerance = name[5] == 'N' ? 1e-8 : 1e-9;
    INFO(name << ": worst difference " << worst << " of " << scale);
    CHECK(worst <= tolerance * std::max(scale, 1.0));
  }
  CHECK(std::fabs(r["body.F_grade_y"].back()) > 100.0);  // the slope pulls it sideways: the test can fail
}

TEST_CASE("Height map: a trough across the road between the axles does not move a planar car at rest, read under "
          "the CG it would",
          "[vehicle][terrain][height_map][planar]") {
  // The longitudinal test's trough as a grid z(x) (every 0.1 m; the centred-difference bicubic is flat from
  // the second flat node on): the CG at x = 0.3 on its flank, the axles at 1.5 and −1.2 on the flat.
  std::vector<double> xs, ys{-10, 0, 10};
  std::vector<std::vector<double>> z;
  for (int i = -100; i <= 100; ++i) {
    xs.push_back(0.1 * i);
    const double height = std::fabs(xs.back()) < 0.6 ? -0.1 * (1 + std::cos(std::numbers::pi * xs.back() / 0.6)) : 0;
    z.push_back({height, height, height});
  }
  const HeightMap trough(xs, ys, z);
  for (const TerrainSampling sampling : {TerrainSampling::wheels, TerrainSampling::cg}) {
    PlanarRig rig({{"Cd", 0.0}}, 0.0, 0.0);
    rig.body.set_height_map(trough, sampling);
    rig.set_start("body.x", 0.3);
    const Result r = test::compile_checked(rig).simulate(test::run_for(0.3, 0.01, 1e-9));
    if (sampling == TerrainSampling::wheels) {
      CHECK(std::fabs(r["body.x"].back() - 0.3) <= 1e-12);
      CHECK(r["body.N_fl"].back() + r["body.N_fr"].back() == Approx(1500 * g * 1.5 / 2.7).epsilon(1e-9));
    } else {
      CHECK(r["body.x"].back() < 0.28);  // the CG's slope: about 0.25 m/s² into the trough
    }
  }
}

TEST_CASE("Height map under the wheels: gravity's work, yaw moment included, is the drop of m·g·Σ share·z, within "
          "the planar model's 1/cos(slope)",
          "[vehicle][terrain][height_map][planar]") {
  // Rolling hills z = h·sin(2πx/λx)·sin(2πy/λy) (slopes up to 2.4 %), crossed obliquely at 15 m/s on free-rolling
  // wheels: the body's supplied work (gravity's pull and its yaw moment, from its energy books) against the
  // potential read where the weight rests, m·g·Σ w_i·z(p_i) with w = b/(2L) at the front wheels and a/(2L) at
  // the rear. The planar model's 1/sqrt(1 + |∇z|²) ≤ 3e-4 off 1 bounds the mismatch.
  const double h = 0.12, lx = 40.0, ly = 30.0, m = 1500.0, a = 1.2, b = 1.5, L = a + b, t_f = 1.55, t_r = 1.55;
  const HeightMap hills = sampled_map(-20, 200, 2.5, [&](double x, double y) {
    return h * std::sin(2 * std::numbers::pi * x / lx) * std::sin(2 * std::numbers::pi * y / ly);
  });
  const std::array<double, 4> along{a, a, -b, -b}, across{t_f / 2, -t_f / 2, t_r / 2, -t_r / 2},
      share{b / (2 * L), b / (2 * L), a / (2 * L), a / (2 * L)};
  // Driving across at 15 m/s, and spinning in place at 2 rad/s (the tires' scrub stops it; while it turns only the
  // yaw moment does work, up a slope under one wheel and down under another).
  struct Run {
    const char* what;
    double x0, y0, psi0, v0, r0, t_end, least_swing;
  };
  for (const Run run : {Run{"driving", 0.0, 0.0, 0.6, 15.0, 0.0, 6.0, 1000.0},
                        Run{"spinning", 10.0, 3.75, 0.0, 0.0, 2.0, 1.0, 10.0}}) {
    PlanarRig rig({{"Cd", 0.0}}, run.psi0, run.v0);
    rig.body.set_height_map(hills);
    rig.set_start("body.x", run.x0);
    rig.set_start("body.y", run.y0);
    rig.set_start("body.r", run.r0);
    harness::EnergyBooks books(rig);
    const Result r = test::compile_checked(rig).simulate(test::run_for(run.t_end, 0.01, 1e-9));
    const auto potential = [&](std::size_t k) {
      const double x = r["body.x"][k], y = r["body.y"][k], c = std::cos(r["body.psi"][k]), s = std::sin(r["body.psi"][k]);
      double sum = 0;
      for (int i = 0; i < 4; ++i)
        sum += share[i] *
               hills.height(Expr(x + along[i] * c - across[i] * s), Expr(y + along[i] * s + across[i] * c)).value();
      return m * g * sum;
    };
    const auto W = r["body.energy.W_supplied"];
    double worst = 0, swing = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      worst = std::max(worst, std::fabs(W[k] + potential(k) - potential(0)));
      swing = std::max(swing, std::fabs(potential(k) - potential(0)));
    }
    INFO(run.what << ": worst " << worst << " J of a " << swing << " J swing; turned "
                  << r["body.psi"].back() - run.psi0 << " rad");
    CHECK(swing > run.least_swing);
    CHECK(worst <= 1e-3 * swing);
  }
}

TEST_CASE("Height map queries: height, gradient, grade along a direction and normal of a plane",
          "[vehicle][terrain][height_map]") {
  const HeightMap map({0, 10, 20}, {0, 10}, {{0, 1}, {2, 3}, {4, 5}});  // z = 0.2·x + 0.1·y
  CHECK(map.height(Expr(5.0), Expr(5.0)).value() == Approx(1.5).epsilon(1e-12));
  const auto [zx, zy] = map.gradient(Expr(7.0), Expr(3.0));
  CHECK(zx.value() == Approx(0.2).epsilon(1e-12));
  CHECK(zy.value() == Approx(0.1).epsilon(1e-12));
  const double n = std::sqrt(1 + 0.05);
  CHECK(map.grade_along(Expr(7.0), Expr(3.0), Expr(0.0)).value() == Approx(0.2 / n).epsilon(1e-12));
  const auto normal = map.normal(Expr(7.0), Expr(3.0));
  CHECK(normal[2].value() == Approx(1 / n).epsilon(1e-12));
  CHECK(normal[0].value() == Approx(-0.2 / n).epsilon(1e-12));
}

TEST_CASE("Height profile and map files: loaded, and errors name the file, line and field",
          "[vehicle][terrain][height_map]") {
  const std::string good = write_file("acausal_profile_good.csv", "s,z\n# a 5 % ramp\n0, 0\n100, 5\n200,5\n");
  const HeightProfile profile = load_height_profile(good);
  CHECK(profile.height(Expr(100.0)).value() == Approx(5.0).epsilon(1e-12));

  const std::string bad_field = write_file("acausal_profile_bad.csv", "s,z\n0,0\n10,abc\n");
  const std::string message = test::model_error_of([&] { load_height_profile(bad_field); });
  CHECK_THAT(message, Catch::Contains(bad_field + ":3: field 2 ('abc')"));
  const std::string back = write_file("acausal_profile_back.csv", "0,0\n10,1\n5,2\n");
  CHECK_THAT(test::model_error_of([&] { load_height_profile(back); }),
             Catch::Contains(back + ":3: field 1: s = 5 does not increase"));
  const std::string wide = write_file("acausal_profile_wide.csv", "0,0,1\n");
  CHECK_THAT(test::model_error_of([&] { load_height_profile(wide); }), Catch::Contains(wide + ":1: 3 fields"));
  CHECK_THAT(test::model_error_of([] { load_height_profile("/nonexistent/profile.csv"); }),
             Catch::Contains("/nonexistent/profile.csv"));

  // A wall: 20 m up over 10 m of road is beyond any body.
  CoastRig rig({}, 0.0);
  CHECK_THAT(test::model_error_of([&] { rig.body.set_height_profile(HeightProfile({{0, 0}, {10, 20}, {20, 20}})); }),
             Catch::Contains("body: height profile climbs at dz/ds"));

  const std::string grid = write_file("acausal_map_good.csv", "x\\y, 0, 10\n0, 0, 1\n10, 2, 3\n20, 4, 5\n");
  const HeightMap map = load_height_map(grid);
  CHECK(map.height(Expr(10.0), Expr(5.0)).value() == Approx(2.5).epsilon(1e-12));
  const std::string short_row = write_file("acausal_map_short.csv", "x\\y, 0, 10\n0, 0, 1\n10, 2\n");
  CHECK_THAT(test::model_error_of([&] { load_height_map(short_row); }),
             Catch::Contains(short_row + ":3: 2 fields; a row is x and 2 heights"));
  const std::string bad_y = write_file("acausal_map_bad_y.csv", "x\\y, 0, a\n0, 0, 1\n");
  CHECK_THAT(test::model_error_of([&] { load_height_map(bad_y); }), Catch::Contains(bad_y + ":1: field 3 ('a')"));
  const std::string nan_field = write_file("acausal_map_nan.csv", "x\\y, 0, 10\n0, 0, nan\n10, 2, 3\n");
  CHECK_THAT(test::model_error_of([&] { load_height_map(nan_field); }),
             Catch::Contains(nan_field + ":2: field 3 ('nan') is not a finite number"));
}

namespace {

/// Seed 003's Tractor on sandy loam plowing (a D497 chisel plow, 2 shovels 6 cm deep: 1.55 kN at 2 m/s, as much as
/// the tractor pulls up 5 % on this soil at a rear slip near 0.3) at 2 m/s held by a PI
/// governor on the throttle, in gear 5, over `profile`.
Result plow_over(const HeightProfile& profile, double t_end) {
  Model m("field_work");
  harness::field_work_rig(m, profile, 2.0);
  Simulator sim = m.compile();
  SimulationOptions options;  // the default atol: a hundredth of rtol makes the soil wheels crawl (minutes)
  options.t_end = t_end;
  options.output_interval = 0.05;
  options.rtol = 1e-6;
  return sim.simulate(options);
}

/// ∫ Σ signals dt from the start until body.s reaches s_end.
double work_to(const Result& r, const std::vector<std::string>& powers, double s_end) {
  return harness::work_until(r, powers, "tractor.body.s", s_end);
}

}  // namespace

TEST_CASE("Field work: plowing up a hill from a height profile costs the engine m·g·Δz beyond the soil's extra "
          "losses, within 2 %",
          "[vehicle][terrain][height_map][tractor]") {
  // A 1.5 m rise between s = 30 m and 80 m (a smooth S); compared with the same run on
  // flat ground at equal distance, s = 110 m, back on the level. The 2 % covers what the governor's lag changes
  // between the runs: the plow's draft at a speed up to ~1 % lower on the climb (its B·S term), the kinetic
  // energy at s = 110 m and the time-based trapezoids; the engine's extra work is otherwise the climb plus the
  // extra slip and sinkage losses in the soil (ΣP_soil) and the extra losses of the driveline (its P_loss).
  const HeightProfile hill({{0, 0}, {30, 0}, {80, 1.5}, {300, 1.5}}), flat({{0, 0}, {300, 0}});
  const Result up = plow_over(hill, 60.0), level = plow_over(flat, 60.0);
  const double m_g_dz = 4500 * 9.81 * 1.5;
  // The soil's and the driveline's losses (the gear mesh and the differential: both runs lose in them).
  const std::vector<std::string> soil{"tractor.wheel_fl.P_soil", "tractor.wheel_fr.P_soil", "tractor.wheel_rl.P_soil",
                                      "tractor.wheel_rr.P_soil", "tractor.gearbox.P_loss", "tractor.differential.P_loss"};
  const double engine = work_to(up, {"tractor.engine.P_out"}, 110.0) - work_to(level, {"tractor.engine.P_out"}, 110.0);
  const double soil_losses = work_to(up, soil, 110.0) - work_to(level, soil, 110.0);
  INFO("extra engine work " << engine << " J, extra soil losses " << soil_losses << " J, m·g·Δz " << m_g_dz << " J");
  CHECK(std::fabs(engine - soil_losses - m_g_dz) <= 0.02 * m_g_dz);
  CHECK(soil_losses > 0.0);  // a climb pulls harder and slips more
  // The governor held the speed the comparison assumes from the foot of the hill on (the start settles first).
  double worst_speed = 0;
  const auto s = up["tractor.body.s"], v = up["tractor.body.v"];
  for (std::size_t k = 0; k < up.size(); ++k)
    if (s[k] >= 30.0) worst_speed = std::max(worst_speed, std::fabs(v[k] - 2.0));
  CHECK(worst_speed < 0.1);
}

}  // namespace test_height_map
