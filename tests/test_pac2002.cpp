// The PAC2002 pure longitudinal slip force (components/vehicle/tires/pac2002.hpp):
// its expression against the formulas written out again here, its physics
// (peak, slip stiffness, shifts, load dependence, an airborne tire), and the
// .TIR reader on a good file and on bad ones.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/components/vehicle/tires/pac2002.hpp>
#include <acausal/components/vehicle/tires/tir_file.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "msl_reference.hpp"  // data_dir()
#include "support.hpp"

namespace test_pac2002 {

using namespace acausal;
using namespace acausal::vehicle;
using Catch::Contains;

namespace {

// The coefficients of tests/data/tires/example_pac2002.tir.
Pac2002Longitudinal example_tire() {
  return {.FNOMIN = 4500,
          .PCX1 = 1.65,
          .PDX1 = 1.2,
          .PDX2 = -0.1,
          .PEX1 = 0.3,
          .PEX2 = 0.1,
          .PEX3 = 0.05,
          .PEX4 = 0.1,
          .PKX1 = 22,
          .PKX2 = 13,
          .PKX3 = -0.4,
          .PHX1 = 0.0005,
          .PHX2 = 0.0003,
          .PVX1 = 2e-5,
          .PVX2 = 1e-5,
          .LFZO = 1,
          .LCX = 1,
          .LMUX = 0.95,
          .LEX = 1,
          .LKX = 1.05,
          .LHX = 1,
          .LVX = 1};
}

// Pacejka, Tire and Vehicle Dynamics, 4.E9-4.E18 (no camber), with the
// guards pac2002.hpp documents: a negative load read as 0, 1e-6 N added to
// Bx's denominator, Ex at most 1.
struct Hand {
  double dfz, SHx, kx, Cx, mux, Dx, Ex, Kx, Bx, SVx, Fx;
};
Hand by_hand(const Pac2002Longitudinal& p, double kappa, double Fz, double mu_scale) {
  Hand h;
  const double load = std::max(Fz, 0.0);
  const double Fz0_prime = p.LFZO * p.FNOMIN;
  h.dfz = (load - Fz0_prime) / Fz0_prime;
  h.SHx = (p.PHX1 + p.PHX2 * h.dfz) * p.LHX;
  h.kx = kappa + h.SHx;
  h.Cx = p.PCX1 * p.LCX;
  h.mux = (p.PDX1 + p.PDX2 * h.dfz) * p.LMUX * mu_scale;
  h.Dx = h.mux * load;
  const double sgn = h.kx > 0 ? 1.0 : (h.kx < 0 ? -1.0 : 0.0);
  h.Ex = std::min((p.PEX1 + p.PEX2 * h.dfz + p.PEX3 * h.dfz * h.dfz) * (1.0 - p.PEX4 * sgn) * p.LEX, 1.0);
  h.Kx = load * (p.PKX1 + p.PKX2 * h.dfz) * std::exp(p.PKX3 * h.dfz) * p.LKX;
  h.Bx = h.Kx / (std::max(h.Cx * h.Dx, 0.0) + 1e-6);
  h.SVx = load * (p.PVX1 + p.PVX2 * h.dfz) * p.LVX * p.LMUX * mu_scale;
  const double x = h.Bx * h.kx;
  h.Fx = h.Dx * std::sin(h.Cx * std::atan(x - h.Ex * (x - std::atan(x)))) + h.SVx;
  return h;
}

// The library's expression built once on symbols, as the Wheel builds it on
// its Parameters and unknowns, then evaluated at numbers.
class Symbolic {
 public:
  Symbolic() : kappa_(make_variable_symbol("kappa")), Fz_(make_variable_symbol("Fz")), mu_(make_variable_symbol("mu")) {
    std::map<std::string, Expr> symbols;
    for (const auto& field : Pac2002Longitudinal::fields()) {
      symbols[field.name] = make_parameter_symbol(field.name);
      members_[symbols[field.name].node()] = field.member;
    }
    terms_ = pac2002_longitudinal([&](const char* name) { return symbols.at(name); }, kappa_, Fz_, mu_);
    dFx_dkappa_ = diff(terms_.Fx, kappa_);
    dFx_dFz_ = diff(terms_.Fx, Fz_);
  }
  double eval(const Expr& e, const Pac2002Longitudinal& p, double kappa, double Fz, double mu = 1.0) const {
    return evaluate(e, [&](const Node* n) {
      if (n == kappa_.node()) return kappa;
      if (n == Fz_.node()) return Fz;
      if (n == mu_.node()) return mu;
      return p.*members_.at(n);
    });
  }
  double fx(const Pac2002Longitudinal& p, double kappa, double Fz, double mu = 1.0) const {
    return eval(terms_.Fx, p, kappa, Fz, mu);
  }
  const Pac2002Terms& terms() const { return terms_; }
  const Expr& dFx_dkappa() const { return dFx_dkappa_; }
  const Expr& dFx_dFz() const { return dFx_dFz_; }

 private:
  Expr kappa_, Fz_, mu_;
  std::map<const Node*, double Pac2002Longitudinal::*> members_;
  Pac2002Terms terms_;
  Expr dFx_dkappa_, dFx_dFz_;
};

const Symbolic& symbolic() {
  static const Symbolic instance;
  return instance;
}

bool agrees(double value, double expected, double relative) {
  return std::fabs(value - expected) <= relative * std::fabs(expected) + 1e-12;
}

// The slip of the largest |Fx| on one side (sign +1 driving, -1 braking): a
// scan, then golden-section search on the bracket around the best point.
double peak_slip(const Pac2002Longitudinal& p, double Fz, double mu, double side) {
  auto force = [&](double k) { return side * symbolic().fx(p, side * k, Fz, mu); };
  double best = 0.0;
  for (double k = 0.0; k <= 1.0; k += 1e-3)
    if (force(k) > force(best)) best = k;
  double a = std::max(best - 1e-3, 0.0), b = best + 1e-3;
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  while (b - a > 1e-12) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (force(c) > force(d))
      b = d;
    else
      a = c;
  }
  return side * 0.5 * (a + b);
}

// The force in a compiled model, its coefficients Parameters as the Wheel
// declares them: the slip sweeps -1..1 while the load swings through zero.
struct Pac2002Rig : Component {
  std::map<std::string, Parameter> coefficients;
  Parameter mu_scale = parameter("mu_scale", 1.0, {.min = 0});
  Variable kappa = variable("kappa", {.start = -1.0, .fixed = true});
  Variable Fz = variable("Fz", {.unit = "N"});
  Variable Fx = variable("Fx", {.unit = "N"});
  explicit Pac2002Rig(std::string name) : Component(std::move(name)) {
    for (const auto& f : Pac2002Longitudinal::fields())
      coefficients.emplace(f.name, parameter(f.name, Pac2002Longitudinal{}.*f.member,
                                             {.unit = f.unit, .min = f.min, .description = f.description}));
    equation(der(kappa) == 0.5);
    equation(Fz == 2000.0 + 3000.0 * sin(2.0 * time_symbol()));
    equation(Fx == pac2002_fx([&](const char* n) -> Expr { return coefficients.at(n); }, kappa, Fz, mu_scale));
  }
};

}  // namespace

TEST_CASE("PAC2002 Fx: the expression equals the formulas written out by hand", "[pac2002]") {
  Pac2002Longitudinal clamped = example_tire();  // Ex above 1 at light loads, where it is cut to 1
  clamped.PEX1 = 0.95;
  clamped.PEX2 = -0.6;
  const std::vector<std::pair<const char*, Pac2002Longitudinal>> tires = {
      {"example", example_tire()}, {"defaults", Pac2002Longitudinal{}}, {"Ex clamped", clamped}};
  int compared = 0, clamped_cases = 0;
  for (const auto& [label, p] : tires)
    for (double Fz : {2000.0, 4000.0, 6000.0})
      for (double kappa : {-1.0, -0.1, -0.02, 0.0, 0.05, 0.2, 1.0})
        for (double mu : {1.0, 0.6}) {
          INFO(label << ": Fz = " << Fz << " N, kappa = " << kappa << ", mu_scale = " << mu);
          const Hand h = by_hand(p, kappa, Fz, mu);
          const auto& t = symbolic().terms();
          CHECK(agrees(symbolic().fx(p, kappa, Fz, mu), h.Fx, 1e-9));
          CHECK(agrees(symbolic().eval(t.Dx, p, kappa, Fz, mu), h.Dx, 1e-12));
          CHECK(agrees(symbolic().eval(t.Kx, p, kappa, Fz, mu), h.Kx, 1e-12));
          CHECK(agrees(symbolic().eval(t.Ex, p, kappa, Fz, mu), h.Ex, 1e-12));
          CHECK(agrees(symbolic().eval(t.SVx, p, kappa, Fz, mu), h.SVx, 1e-12));
          ++compared;
          if (h.Ex == 1.0) ++clamped_cases;
        }
  CHECK(compared == 126);
  CHECK(clamped_cases > 0);  // the cut at Ex = 1 was exercised

  // The constant lookup gives the same numbers.
  const Pac2002Longitudinal p = example_tire();
  const Expr folded = pac2002_fx(pac2002_constants(p), 0.07, 5200.0, 0.8);
  REQUIRE(folded.is_const());
  CHECK(agrees(folded.value(), by_hand(p, 0.07, 5200.0, 0.8).Fx, 1e-9));
}

TEST_CASE("PAC2002 Fx: compiled with Parameters, without events, changed without recompiling", "[pac2002]") {
  Pac2002Longitudinal p = example_tire();
  ParameterValues values;
  for (const auto& field : Pac2002Longitudinal::fields()) values.emplace_back(field.name, p.*field.member);
  Model m("pac2002_rig");
  m.add<Pac2002Rig>("tire", values);
  Simulator sim = m.compile();
  SimulationOptions opt;
  opt.t_end = 4.0;
  opt.output_interval = 0.01;
  for (auto [mu, PDX1] : {std::pair{1.0, 1.2}, std::pair{0.7, 1.2}, std::pair{0.7, 0.9}}) {
    sim.set_parameter("tire.mu_scale", mu);
    sim.set_parameter("tire.PDX1", PDX1);
    p.PDX1 = PDX1;
    const Result r = sim.simulate(opt);
    CHECK(r.event_times().empty());  // sign, min and the load clamp switch without events
    const auto kappa = r["tire.kappa"], Fz = r["tire.Fz"], Fx = r["tire.Fx"];
    int airborne = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      const double want = by_hand(p, kappa[i], Fz[i], mu).Fx;
      worst = std::max(worst, std::fabs(Fx[i] - want) / (std::fabs(want) + 1e-6 * p.FNOMIN));
      if (Fz[i] < 0) {
        ++airborne;
        CHECK(Fx[i] == 0.0);
      }
    }
    INFO("mu_scale = " << mu << ", PDX1 = " << PDX1 << ": worst relative difference " << worst);
    CHECK(worst < 1e-9);
    CHECK(airborne > 10);
    CHECK(std::fabs(kappa.back() - 1.0) < 1e-6);
  }
}

TEST_CASE("PAC2002 Fx: peak, slip stiffness, shifts, signs and load dependence", "[pac2002]") {
  const Pac2002Longitudinal p = example_tire();
  const double Fz0 = p.LFZO * p.FNOMIN;
  double previous_mu = std::numeric_limits<double>::infinity(), previous_peak = 0.0;
  for (double Fz : {2000.0, 4000.0, 6000.0}) {
    INFO("Fz = " << Fz << " N");
    // The load-dependent characteristics, from the coefficients directly.
    const double dfz = (Fz - Fz0) / Fz0;
    const double mux = (p.PDX1 + p.PDX2 * dfz) * p.LMUX;
    const double Dx = mux * Fz;
    const double Kx = Fz * (p.PKX1 + p.PKX2 * dfz) * std::exp(p.PKX3 * dfz) * p.LKX;
    const double SHx = (p.PHX1 + p.PHX2 * dfz) * p.LHX;
    const double SVx = Fz * (p.PVX1 + p.PVX2 * dfz) * p.LVX * p.LMUX;

    // Cx > 1, so sin(...) reaches 1: the peak is Dx + SVx driving, -Dx + SVx braking.
    const double drive = peak_slip(p, Fz, 1.0, +1), brake = peak_slip(p, Fz, 1.0, -1);
    CHECK(agrees(symbolic().fx(p, drive, Fz), Dx + SVx, 1e-9));
    CHECK(agrees(symbolic().fx(p, brake, Fz), -Dx + SVx, 1e-9));
    CHECK((drive > 0.03 && drive < 0.3));
    CHECK((brake < -0.03 && brake > -0.3));
    // A locked wheel slides below the peak.
    const double locked = symbolic().fx(p, -1.0, Fz);
    CHECK((locked < -0.6 * Dx && locked > -Dx));

    // Near zero slip Fx is the shifted line SVx + Kx·(kappa + SHx).
    CHECK(agrees(symbolic().fx(p, 0.0, Fz), SVx + Kx * SHx, 1e-3));
    CHECK(agrees(symbolic().fx(p, -SHx, Fz), SVx, 1e-12));
    // Its slope there is Kx: by a central difference, and by the Jacobian's derivative.
    const double h = 1e-6;
    const double slope = (symbolic().fx(p, -SHx + h, Fz) - symbolic().fx(p, -SHx - h, Fz)) / (2 * h);
    CHECK(agrees(slope, Kx, 1e-4));
    CHECK(agrees(symbolic().eval(symbolic().dFx_dkappa(), p, -SHx, Fz), Kx, 1e-9));

    // Driving pushes, braking pulls.
    for (double kappa : {0.02, 0.05, 0.2, 1.0}) CHECK(symbolic().fx(p, kappa, Fz) > 0.0);
    for (double kappa : {-0.02, -0.1, -1.0}) CHECK(symbolic().fx(p, kappa, Fz) < 0.0);

    // PDX2 < 0: the peak grows with the load, the friction coefficient falls.
    const double peak = symbolic().fx(p, drive, Fz);
    CHECK(peak > previous_peak);
    CHECK(peak / Fz < previous_mu);
    previous_peak = peak;
    previous_mu = peak / Fz;

    // Half the road friction, half the peak (at its own, smaller slip).
    const double half = symbolic().fx(p, peak_slip(p, Fz, 0.5, +1), Fz, 0.5);
    CHECK(agrees(half, 0.5 * (Dx + SVx), 1e-9));
  }

  // A tire without shifts: Fx(0) = 0 and the slope at 0 is Kx = PKX1·Fz at the nominal load.
  const Pac2002Longitudinal plain;
  CHECK(symbolic().fx(plain, 0.0, plain.FNOMIN) == 0.0);
  CHECK(agrees(symbolic().eval(symbolic().dFx_dkappa(), plain, 0.0, plain.FNOMIN), plain.PKX1 * plain.FNOMIN, 1e-9));
  CHECK(symbolic().fx(plain, 0.1, 4000.0) == -symbolic().fx(plain, -0.1, 4000.0));  // odd without PEX4 and shifts

  // An airborne tire carries nothing, with finite derivatives.
  for (double Fz : {0.0, -300.0})
    for (double kappa : {-1.0, 0.0, 0.1}) {
      INFO("Fz = " << Fz << ", kappa = " << kappa);
      CHECK(symbolic().fx(p, kappa, Fz) == 0.0);
      CHECK(symbolic().fx(p, kappa, Fz, 0.0) == 0.0);
      CHECK(std::isfinite(symbolic().eval(symbolic().dFx_dkappa(), p, kappa, Fz)));
      CHECK(std::isfinite(symbolic().eval(symbolic().dFx_dFz(), p, kappa, Fz)));
    }
  // A frictionless road: no force, still finite.
  CHECK(symbolic().fx(p, 0.2, 4000.0, 0.0) == 0.0);
  CHECK(std::isfinite(symbolic().eval(symbolic().dFx_dkappa(), p, 0.2, 4000.0, 0.0)));
}

TEST_CASE("PAC2002: the .TIR reader loads the longitudinal coefficients", "[pac2002]") {
  const auto path = test::data_dir() / "tires" / "example_pac2002.tir";
  const Pac2002Longitudinal loaded = read_tir_longitudinal(path.string());
  const Pac2002Longitudinal expected = example_tire(), defaults;
  std::vector<std::string> names;
  for (const auto& field : Pac2002Longitudinal::fields()) {
    INFO(field.name);
    CHECK(loaded.*field.member == expected.*field.member);
    names.push_back(field.name);
  }
  // Every coefficient is listed once (22 members).
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  CHECK(names.size() == 22);
  CHECK(sizeof(Pac2002Longitudinal) == 22 * sizeof(double));
  CHECK(loaded.LVX == defaults.LVX);  // left out of the file

  // Only what is given changes; names are read in any case; unknown keys are
  // ignored (a known key in the wrong section is an error: see the bad files).
  const Pac2002Longitudinal partial = parse_tir_longitudinal(
      "[longitudinal_coefficients]  $ lower case\r\n"
      "  pcx1 = +1.7   ! inline comment\r\n"
      "PDX3 = 0.5\n"
      "PTX1 = 'unknown string value'\n"
      "[Scaling_Coefficients]\n"
      "LMUX=0.8$\n",
      "partial");
  for (const auto& field : Pac2002Longitudinal::fields()) {
    INFO(field.name);
    const std::string name = field.name;
    const double want = name == "PCX1" ? 1.7 : name == "LMUX" ? 0.8 : defaults.*field.member;
    CHECK(partial.*field.member == want);
  }
}

TEST_CASE("PAC2002: bad .TIR files are ModelErrors naming the file and the line", "[pac2002]") {
  const auto tires = test::data_dir() / "tires";
  auto read = [](const std::filesystem::path& file) {
    return test::model_error_of([&] { read_tir_longitudinal(file.string()); });
  };
  CHECK_THAT(read(tires / "bad_number.tir"), Contains("bad_number.tir:7:") && Contains("PKX1") && Contains("22,5"));
  CHECK_THAT(read(tires / "duplicate_key.tir"),
             Contains("duplicate_key.tir:11:") && Contains("PDX1") && Contains("line 9"));
  CHECK_THAT(read(tires / "no_such_tire.tir"), Contains("no_such_tire.tir") && Contains("cannot open"));
  CHECK_THAT(read(tires), Contains("cannot open"));  // a directory

  // More bad content, written to files: (name, text, what the message must hold).
  const auto dir = std::filesystem::temp_directory_path() / "acausal_test_pac2002";
  std::filesystem::create_directories(dir);
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
      {"not_finite.tir",
       "[MODEL]\nX = 1\n[LONGITUDINAL_COEFFICIENTS]\nPCX1 = 1.6\nPDX1 = nan\n",
       {":5:", "PDX1", "finite"}},
      {"infinite.tir", "[SCALING_COEFFICIENTS]\nLKX = -inf $ comment\n", {":2:", "LKX", "finite"}},
      {"fnomin_zero.tir", "[VERTICAL]\n\n$ comment\nFNOMIN = 0\n", {":4:", "FNOMIN", "positive"}},
      {"fnomin_negative.tir", "[VERTICAL]\nFNOMIN = -4000\n", {":2:", "FNOMIN", "positive"}},
      {"lfzo_zero.tir", "[SCALING_COEFFICIENTS]\nLFZO = 0.0\n", {":2:", "LFZO", "positive"}},
      {"no_equals.tir", "[LONGITUDINAL_COEFFICIENTS]\nPCX1 = 1.6\nPDX1 1.2\n", {":3:", "PDX1 1.2", "NAME = number"}},
      {"no_value.tir", "[LONGITUDINAL_COEFFICIENTS]\nPKX1 =   $ forgotten\n", {":2:", "PKX1", "not a number"}},
      {"string_value.tir", "[LONGITUDINAL_COEFFICIENTS]\nPEX1 = 'x'\n", {":2:", "PEX1", "not a number"}},
      {"two_numbers.tir", "[VERTICAL]\nFNOMIN = 4000 5000\n", {":2:", "FNOMIN", "not a number"}},
      {"unknown_word.tir", "[VERTICAL]\nVERTICAL_STIFFNESS = stiff\n", {":2:", "VERTICAL_STIFFNESS"}},
      {"duplicate_scaling.tir",
       "[SCALING_COEFFICIENTS]\nLMUX = 1\n[MODEL]\n[SCALING_COEFFICIENTS]\nlmux = 0.9\n",
       {":5:", "LMUX", "line 2"}},
      {"open_header.tir", "[MODEL]\nA = 1\n[VERTICAL\nFNOMIN = 4000\n", {":3:", "VERTICAL"}},
      // Issue 30: random bytes and misplaced keys loaded silently.
      {"random_bytes.tir", "\x13\x9c\xf1 garbage \x01\n\x7f\x80\n", {":1:", "before any [SECTION]", "\\x9C"}},
      {"misplaced_key.tir", "[VERTICAL]\nFNOMIN = 4000\nPKX1 = 22\n", {":3:", "PKX1 belongs in [LONGITUDINAL_COEFFICIENTS]"}},
      {"nothing_read.tir", "[MODEL]\nPROPERTY_FILE_FORMAT = 'PAC2002'\n", {"no PAC2002 longitudinal coefficient"}},
  };
  for (const auto& [name, text, needles] : cases) {
    const auto file = dir / name;
    std::ofstream(file) << text;
    const std::string message = read(file);
    INFO(name << ": " << message);
    CHECK_THAT(message, Contains(name));
    for (const auto& needle : needles) CHECK_THAT(message, Contains(needle));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("PAC2002: a .TIR file the wheel refuses leaves its coefficients as they were", "[pac2002]") {
  // Issue 30: after an error half of the file was already applied.
  const auto file = std::filesystem::temp_directory_path() / "acausal_half_applied.tir";
  // PCX1 is set before PDX1, which the wheel refuses (its bound is 0).
  std::ofstream(file) << "[LONGITUDINAL_COEFFICIENTS]\nPCX1 = 1.2\nPDX1 = -1\n";
  vehicle::Wheel wheel("wheel");
  double pcx1_before = 0.0;
  for (const ParameterDecl& p : wheel.parameters())
    if (p.name == "PCX1") pcx1_before = p.value;
  bool refused = false;
  try {
    wheel.load_tir(file.string());
  } catch (const ModelError&) {
    refused = true;
  }
  std::filesystem::remove(file);
  double pcx1_after = 0.0;
  for (const ParameterDecl& p : wheel.parameters())
    if (p.name == "PCX1") pcx1_after = p.value;
  CHECK(refused);
  CHECK(pcx1_before != 1.2);
  CHECK(pcx1_after == pcx1_before);  // all or nothing
}

}  // namespace test_pac2002
