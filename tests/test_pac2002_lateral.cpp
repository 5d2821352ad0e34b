// The PAC2002 lateral force and combined-slip weighting functions
// (components/vehicle/tires/pac2002_lateral.hpp): the expressions against the
// formulas written out again here, the sign and slope of Fy, pure slip
// recovered exactly, the weights' bounds, and the .TIR reader of the lateral
// coefficients on a good file and on bad ones.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>
#include <acausal/components/vehicle/tires/pac2002_lateral.hpp>
#include <acausal/components/vehicle/tires/tir_file.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "msl_reference.hpp"  // data_dir()
#include "support.hpp"

namespace test_pac2002_lateral {

using namespace acausal;
using namespace acausal::vehicle;
using Catch::Contains;

namespace {

// Both coefficient sets: the lateral formulas take FNOMIN and LFZO from the longitudinal one.
struct Tire {
  Pac2002Longitudinal q;
  Pac2002Lateral p;
};

// The coefficients of tests/data/tires/example_pac2002.tir (its longitudinal
// ones as tests/test_pac2002.cpp lists them).
Tire example_tire() {
  Tire t;
  t.q = {.FNOMIN = 4500, .PCX1 = 1.65, .PDX1 = 1.2, .PDX2 = -0.1, .PEX1 = 0.3, .PEX2 = 0.1, .PEX3 = 0.05,
         .PEX4 = 0.1, .PKX1 = 22, .PKX2 = 13, .PKX3 = -0.4, .PHX1 = 0.0005, .PHX2 = 0.0003, .PVX1 = 2e-5,
         .PVX2 = 1e-5, .LFZO = 1, .LCX = 1, .LMUX = 0.95, .LEX = 1, .LKX = 1.05, .LHX = 1, .LVX = 1};
  t.p = {.PCY1 = 1.337, .PDY1 = 0.8785, .PDY2 = -0.06452, .PEY1 = -0.8057, .PEY2 = -0.6046, .PEY3 = 0.09854,
         .PKY1 = -15.324, .PKY2 = 1.715, .PHY1 = -0.001806, .PHY2 = 0.00352, .PVY1 = -0.00661, .PVY2 = 0.03592,
         .LCY = 1, .LMUY = 0.9, .LEY = 1, .LKY = 1.1, .LHY = 1, .LVY = 1,
         .RBX1 = 13.046, .RBX2 = 9.718, .RCX1 = 0.9995, .REX1 = -0.4403, .REX2 = -0.4663, .RHX1 = -9.968e-5,
         .RBY1 = 10.622, .RBY2 = 7.82, .RBY3 = 0.002037, .RCY1 = 1.0587, .REY1 = 0.3148, .REY2 = 0.004867,
         .RHY1 = 0.009472, .RHY2 = 0.009754, .RVY1 = 0.05187, .RVY2 = 4.853e-4, .RVY4 = 94.63, .RVY5 = 1.8914,
         .RVY6 = 23.8, .LXAL = 1.2, .LYKA = 0.8, .LVYKA = 1};
  return t;
}

// Pacejka, Tire and Vehicle Dynamics, 4.E19-4.E30 and 4.E50-4.E67 (no
// camber), with the guards pac2002_lateral.hpp documents: a negative load read
// as 0, 1e-6 N added to By's denominator, Ey, Exa and Eyk at most 1, the
// weights at least 0.
struct Hand {
  double dfz, SHy, alpha_y, Cy, muy, Dy, Ey, Kya, By, SVy, Fy, Gxa, Gyk, Gyk_unclamped, SVyk;
};
double cosine_curve(double B, double C, double E, double s) {
  const double Bs = B * s;
  return std::cos(C * std::atan(Bs - E * (Bs - std::atan(Bs))));
}
Hand by_hand(const Tire& tire, double kappa, double alpha, double Fz, double mu_scale) {
  const Pac2002Longitudinal& q = tire.q;
  const Pac2002Lateral& p = tire.p;
  Hand h;
  const double load = std::max(Fz, 0.0);
  const double Fz0_prime = q.LFZO * q.FNOMIN;
  const double a = std::tan(alpha);  // alpha*
  h.dfz = (load - Fz0_prime) / Fz0_prime;
  h.SHy = (p.PHY1 + p.PHY2 * h.dfz) * p.LHY;
  h.alpha_y = a + h.SHy;
  h.Cy = p.PCY1 * p.LCY;
  h.muy = (p.PDY1 + p.PDY2 * h.dfz) * (p.LMUY * mu_scale);
  h.Dy = h.muy * load;
  const double sgn = h.alpha_y > 0 ? 1.0 : (h.alpha_y < 0 ? -1.0 : 0.0);
  h.Ey = std::min((p.PEY1 + p.PEY2 * h.dfz) * (1.0 - p.PEY3 * sgn) * p.LEY, 1.0);
  h.Kya = p.PKY1 * Fz0_prime * std::sin(2.0 * std::atan(load / (p.PKY2 * Fz0_prime))) * p.LKY;
  h.By = h.Kya / (std::max(h.Cy * h.Dy, 0.0) + 1e-6);
  h.SVy = load * (p.PVY1 + p.PVY2 * h.dfz) * p.LVY * (p.LMUY * mu_scale);
  const double x = h.By * h.alpha_y;
  h.Fy = h.Dy * std::sin(h.Cy * std::atan(x - h.Ey * (x - std::atan(x)))) + h.SVy;

  const double Bxa = p.RBX1 * std::cos(std::atan(p.RBX2 * kappa)) * p.LXAL;
  const double Exa = std::min(p.REX1 + p.REX2 * h.dfz, 1.0);
  h.Gxa = std::max(cosine_curve(Bxa, p.RCX1, Exa, a + p.RHX1) / cosine_curve(Bxa, p.RCX1, Exa, p.RHX1), 0.0);
  const double Byk = p.RBY1 * std::cos(std::atan(p.RBY2 * (a - p.RBY3))) * p.LYKA;
  const double Eyk = std::min(p.REY1 + p.REY2 * h.dfz, 1.0);
  const double SHyk = p.RHY1 + p.RHY2 * h.dfz;
  h.Gyk_unclamped = cosine_curve(Byk, p.RCY1, Eyk, kappa + SHyk) / cosine_curve(Byk, p.RCY1, Eyk, SHyk);
  h.Gyk = std::max(h.Gyk_unclamped, 0.0);
  const double DVyk = h.muy * load * (p.RVY1 + p.RVY2 * h.dfz) * std::cos(std::atan(p.RVY4 * a));
  h.SVyk = DVyk * std::sin(p.RVY5 * std::atan(p.RVY6 * kappa)) * p.LVYKA;
  return h;
}

// The library's expressions built once on symbols, as a wheel builds them on
// its Parameters and unknowns, then evaluated at numbers.
class Symbolic {
 public:
  Symbolic()
      : kappa_(make_variable_symbol("kappa")),
        alpha_(make_variable_symbol("alpha")),
        Fz_(make_variable_symbol("Fz")),
        mu_(make_variable_symbol("mu")) {
    std::map<std::string, Expr> symbols;
    for (const auto& field : Pac2002Longitudinal::fields()) {
      symbols[field.name] = make_parameter_symbol(field.name);
      longitudinal_[symbols[field.name].node()] = field.member;
    }
    for (const auto& field : Pac2002Lateral::fields()) {
      symbols[field.name] = make_parameter_symbol(field.name);
      lateral_[symbols[field.name].node()] = field.member;
    }
    const auto c = [&](const char* name) { return symbols.at(name); };
    terms_ = pac2002_lateral(c, alpha_, Fz_, mu_);
    Gxa_ = pac2002_gx_alpha(c, kappa_, alpha_, Fz_);
    Gyk_ = pac2002_gy_kappa(c, kappa_, alpha_, Fz_);
    SVyk_ = pac2002_svy_kappa(c, kappa_, alpha_, Fz_, mu_);
    Fy_combined_ = Gyk_ * terms_.Fy + SVyk_;
    dFy_dalpha_ = diff(terms_.Fy, alpha_);
  }
  double eval(const Expr& e, const Tire& tire, double kappa, double alpha, double Fz, double mu = 1.0) const {
    return evaluate(e, [&](const Node* n) {
      if (n == kappa_.node()) return kappa;
      if (n == alpha_.node()) return alpha;
      if (n == Fz_.node()) return Fz;
      if (n == mu_.node()) return mu;
      if (const auto it = lateral_.find(n); it != lateral_.end()) return tire.p.*(it->second);
      return tire.q.*longitudinal_.at(n);
    });
  }
  double fy(const Tire& tire, double alpha, double Fz, double mu = 1.0) const {
    return eval(terms_.Fy, tire, 0.0, alpha, Fz, mu);
  }
  const Pac2002LateralTerms& terms() const { return terms_; }
  const Expr& Gxa() const { return Gxa_; }
  const Expr& Gyk() const { return Gyk_; }
  const Expr& SVyk() const { return SVyk_; }
  const Expr& Fy_combined() const { return Fy_combined_; }
  const Expr& dFy_dalpha() const { return dFy_dalpha_; }

 private:
  Expr kappa_, alpha_, Fz_, mu_;
  std::map<const Node*, double Pac2002Longitudinal::*> longitudinal_;
  std::map<const Node*, double Pac2002Lateral::*> lateral_;
  Pac2002LateralTerms terms_;
  Expr Gxa_, Gyk_, SVyk_, Fy_combined_, dFy_dalpha_;
};

const Symbolic& symbolic() {
  static const Symbolic instance;
  return instance;
}

bool agrees(double value, double expected, double relative) {
  return std::fabs(value - expected) <= relative * std::fabs(expected);
}

}  // namespace

TEST_CASE("PAC2002 Fy and combined slip: the expressions equal the formulas written out by hand", "[pac2002]") {
  Tire clamped = example_tire();  // Ey, Exa and Eyk above 1 at light loads, where they are cut to 1
  clamped.p.PEY1 = 0.9;
  clamped.p.PEY2 = -0.5;
  clamped.p.PEY3 = 0.2;
  clamped.p.REX1 = 0.9;
  clamped.p.REX2 = -0.5;
  clamped.p.REY1 = 0.95;
  clamped.p.REY2 = -0.2;
  const std::vector<std::pair<const char*, Tire>> tires = {
      {"example", example_tire()}, {"defaults", Tire{}}, {"E clamped", clamped}};
  const auto& s = symbolic();
  const auto& t = s.terms();
  int compared = 0, clamped_Ey = 0, clamped_Gyk = 0;
  for (const auto& [label, tire] : tires)
    for (double load_factor : {0.5, 1.0, 1.5})
      for (double alpha : {-0.8, -0.1, -0.01, 0.0, 0.02, 0.15, 0.6})
        for (double kappa : {-1.0, -0.05, 0.0, 0.1, 8.0})
          for (double mu : {1.0, 0.6}) {
            const double Fz = load_factor * tire.q.FNOMIN;
            INFO(label << ": Fz = " << Fz << " N, alpha = " << alpha << ", kappa = " << kappa << ", mu = " << mu);
            const Hand h = by_hand(tire, kappa, alpha, Fz, mu);
            auto value = [&](const Expr& e) { return s.eval(e, tire, kappa, alpha, Fz, mu); };
            CHECK(agrees(value(t.Fy), h.Fy, 1e-12));
            CHECK(agrees(value(t.Dy), h.Dy, 1e-12));
            CHECK(agrees(value(t.Kya), h.Kya, 1e-12));
            CHECK(agrees(value(t.By), h.By, 1e-12));
            CHECK(agrees(value(t.Ey), h.Ey, 1e-12));
            CHECK(agrees(value(t.SVy), h.SVy, 1e-12));
            CHECK(agrees(value(s.Gxa()), h.Gxa, 1e-12));
            CHECK(agrees(value(s.Gyk()), h.Gyk, 1e-12));
            CHECK(agrees(value(s.SVyk()), h.SVyk, 1e-12));
            CHECK(agrees(value(s.Fy_combined()), h.Gyk * h.Fy + h.SVyk, 1e-12));
            ++compared;
            if (h.Ey == 1.0) ++clamped_Ey;
            if (h.Gyk_unclamped < 0.0) ++clamped_Gyk;
          }
  CHECK(compared == 630);
  CHECK(clamped_Ey > 0);   // the cut at Ey = 1 was exercised
  CHECK(clamped_Gyk > 0);  // and the floor of Gyk at 0 (kappa = 8: a wheel spinning at 9 times its speed)

  // The constant lookups give the same numbers.
  const Tire tire = example_tire();
  const auto constants = pac2002_constants(tire.q, tire.p);
  const Hand h = by_hand(tire, 0.07, 0.05, 5200.0, 0.8);
  auto number = [](const Expr& e) {
    REQUIRE(e.is_const());
    return e.value();
  };
  CHECK(agrees(number(pac2002_fy(constants, 0.05, 5200.0, 0.8)), h.Fy, 1e-12));
  CHECK(agrees(number(pac2002_gx_alpha(constants, 0.07, 0.05, 5200.0)), h.Gxa, 1e-12));
  CHECK(agrees(number(pac2002_gy_kappa(constants, 0.07, 0.05, 5200.0)), h.Gyk, 1e-12));
  CHECK(agrees(number(pac2002_svy_kappa(constants, 0.07, 0.05, 5200.0, 0.8)), h.SVyk, 1e-12));
  CHECK(pac2002_lateral_constants(tire.p)("PKY1").value() == tire.p.PKY1);
  CHECK_THROWS_AS(pac2002_lateral_constants(tire.p)("FNOMIN"), std::logic_error);  // the longitudinal set's
}

TEST_CASE("PAC2002 Fy opposes the slip, with the cornering stiffness Kya as its slope", "[pac2002]") {
  const auto& s = symbolic();
  for (const auto& [label, tire] : {std::pair{"defaults", Tire{}}, std::pair{"example", example_tire()}}) {
    const Pac2002Lateral& p = tire.p;
    const double Fz0 = tire.q.LFZO * tire.q.FNOMIN;
    double previous_stiffness = 0.0;
    for (double load_factor : {0.5, 1.0, 1.5}) {
      const double Fz = load_factor * tire.q.FNOMIN;
      INFO(label << ": Fz = " << Fz << " N");
      const double dfz = (Fz - Fz0) / Fz0;
      const double Kya = p.PKY1 * Fz0 * std::sin(2.0 * std::atan(Fz / (p.PKY2 * Fz0))) * p.LKY;
      const double Dy = (p.PDY1 + p.PDY2 * dfz) * p.LMUY * Fz;
      const double SHy = (p.PHY1 + p.PHY2 * dfz) * p.LHY;
      const double SVy = Fz * (p.PVY1 + p.PVY2 * dfz) * p.LVY * p.LMUY;
      CHECK(Kya < 0.0);  // ISO signs, as the .TIR file gives PKY1
      CHECK(agrees(s.eval(s.terms().Kya, tire, 0.0, 0.0, Fz), Kya, 1e-12));
      // Up to Fz = PKY2·Fz0' the cornering stiffness grows with the load.
      CHECK(-Kya > previous_stiffness);
      previous_stiffness = -Kya;

      // Where alpha_y = tan(alpha) + SHy = 0 only the vertical shift is left,
      // and the slope there is Kya·d(tan alpha)/d(alpha): by a central
      // difference and by the Jacobian's derivative.
      const double zero = std::atan(-SHy), h = 1e-6;
      CHECK(agrees(s.fy(tire, zero, Fz), SVy, 1e-9));
      const double slope = (s.fy(tire, zero + h, Fz) - s.fy(tire, zero - h, Fz)) / (2 * h);
      CHECK(agrees(slope, Kya * (1 + SHy * SHy), 1e-6));
      CHECK(agrees(s.eval(s.dFy_dalpha(), tire, 0.0, zero, Fz), Kya * (1 + SHy * SHy), 1e-9));

      // The force opposes the sliding on either side, and its largest
      // magnitude is the peak Dy (Cy > 1: sin(...) reaches 1).
      double largest = 0.0;
      for (double alpha = 0.002; alpha < 1.5; alpha += 0.002) {
        const double left = s.fy(tire, zero + alpha, Fz), right = s.fy(tire, zero - alpha, Fz);
        CHECK(left - SVy < 0.0);
        CHECK(right - SVy > 0.0);
        largest = std::max({largest, std::fabs(left - SVy), std::fabs(right - SVy)});
      }
      CHECK(largest <= Dy * (1 + 1e-12));
      CHECK(largest > 0.999 * Dy);
      if (std::string(label) == "defaults") {  // no shifts, no asymmetry: Fy is odd
        CHECK(SVy == 0.0);
        for (double alpha : {0.01, 0.1, 0.5}) CHECK(s.fy(tire, alpha, Fz) == -s.fy(tire, -alpha, Fz));
      }
    }
  }
  // An airborne tire carries nothing, with a finite derivative; a frictionless road as well.
  const Tire tire = example_tire();
  for (double Fz : {0.0, -300.0})
    for (double alpha : {-0.3, 0.0, 0.1}) {
      INFO("Fz = " << Fz << ", alpha = " << alpha);
      CHECK(symbolic().fy(tire, alpha, Fz) == 0.0);
      CHECK(std::isfinite(symbolic().eval(symbolic().dFy_dalpha(), tire, 0.0, alpha, Fz)));
    }
  CHECK(symbolic().fy(tire, 0.2, 4000.0, 0.0) == 0.0);
  CHECK(std::isfinite(symbolic().eval(symbolic().dFy_dalpha(), tire, 0.0, 0.2, 4000.0, 0.0)));
}

TEST_CASE("PAC2002 combined slip: pure slip recovered exactly, the weights above 0 and at most 1", "[pac2002]") {
  const auto& s = symbolic();
  std::vector<double> slips;  // -1.4 .. 1.4
  for (int i = -28; i <= 28; ++i) slips.push_back(0.05 * i);
  for (const auto& [label, tire] : {std::pair{"defaults", Tire{}}, std::pair{"example", example_tire()}})
    for (double load_factor : {0.5, 1.0, 1.5}) {
      const double Fz = load_factor * tire.q.FNOMIN;
      INFO(label << ": Fz = " << Fz << " N");
      for (double slip : slips) {
        INFO("slip " << slip);
        CHECK(s.eval(s.Gxa(), tire, slip, 0.0, Fz) == 1.0);  // no side slip: Fx = Fx0
        CHECK(s.eval(s.Gyk(), tire, 0.0, slip, Fz) == 1.0);  // free rolling: Fy = Fy0
        CHECK(s.eval(s.SVyk(), tire, 0.0, slip, Fz, 0.7) == 0.0);
        CHECK(s.eval(s.Fy_combined(), tire, 0.0, slip, Fz, 0.7) == s.fy(tire, slip, Fz, 0.7));
      }
    }

  // Without offsets both weights stay in (0, 1] for |kappa| <= 1 and any slip
  // angle, and fall as the other slip grows.
  Tire plain;
  plain.p.RVY1 = 0.05187;  // with the published kappa-induced side force
  plain.p.RVY2 = 4.853e-4;
  int points = 0;
  for (double load_factor : {0.5, 1.0, 1.5}) {
    const double Fz = load_factor * plain.q.FNOMIN;
    for (double kappa : slips) {
      if (std::fabs(kappa) > 1.0) continue;
      double previous_Gxa = 1.0;
      for (double alpha : slips) {
        INFO("Fz = " << Fz << " N, kappa = " << kappa << ", alpha = " << alpha);
        const double Gxa = s.eval(s.Gxa(), plain, kappa, alpha, Fz);
        const double Gyk = s.eval(s.Gyk(), plain, kappa, alpha, Fz);
        CHECK((Gxa > 0.0 && Gxa <= 1.0));
        CHECK((Gyk > 0.0 && Gyk <= 1.0));
        if (alpha >= 0.0) CHECK(Gxa <= previous_Gxa);
        if (alpha >= 0.0) previous_Gxa = Gxa;
        if (kappa >= 0.0) CHECK(Gyk <= s.eval(s.Gyk(), plain, std::max(kappa - 0.05, 0.0), alpha, Fz));
        // Combined slip takes lateral force away, and adds at most SVyk.
        const double Fy = s.eval(s.Fy_combined(), plain, kappa, alpha, Fz);
        const double SVyk = s.eval(s.SVyk(), plain, kappa, alpha, Fz);
        CHECK(std::fabs(Fy) <= std::fabs(s.fy(plain, alpha, Fz)) + std::fabs(SVyk));
        ++points;
      }
    }
  }
  CHECK(points == 3 * 41 * 57);
  // A wheel spinning far beyond its grip keeps no lateral force rather than
  // one turned along the slip (RCY1 > 1: the cosine alone would go negative).
  const Tire tire = example_tire();
  CHECK(by_hand(tire, 8.0, 0.0, 4500.0, 1.0).Gyk_unclamped < 0.0);
  CHECK(s.eval(s.Gyk(), tire, 8.0, 0.0, 4500.0) == 0.0);
}

TEST_CASE("PAC2002: the .TIR reader loads the lateral coefficients", "[pac2002]") {
  const auto path = test::data_dir() / "tires" / "example_pac2002.tir";
  const Pac2002Lateral loaded = read_tir_lateral(path.string());
  const Pac2002Lateral expected = example_tire().p, defaults;
  std::set<std::string> names;
  for (const auto& field : Pac2002Lateral::fields()) {
    INFO(field.name);
    CHECK(loaded.*field.member == expected.*field.member);
    names.insert(field.name);
  }
  // Every coefficient is listed once (40 members), none shares a name with the longitudinal set.
  CHECK(names.size() == 40);
  CHECK(Pac2002Lateral::fields().size() == 40);
  CHECK(sizeof(Pac2002Lateral) == 40 * sizeof(double));
  for (const auto& field : Pac2002Longitudinal::fields()) CHECK(names.count(field.name) == 0);
  CHECK(loaded.LVYKA == defaults.LVYKA);  // left out of the file
  CHECK(read_tir_longitudinal(path.string()).PKX1 == example_tire().q.PKX1);

  // Only what is given changes; names are read in any case; unknown keys (the
  // camber coefficients among them) are ignored.
  const Pac2002Lateral partial = parse_tir_lateral(
      "[lateral_coefficients]  $ lower case\r\n"
      "  pky1 = -20   ! inline comment\r\n"
      "PDY3 = 0.5\n"
      "RVY3 = 0.1\n"
      "PTY1 = 'unknown string value'\n"
      "[Longitudinal_Coefficients]\n"
      "rbx1 = +11\n"
      "PCX1 = 1.6\n"
      "[SCALING_COEFFICIENTS]\n"
      "LMUY=0.8$\n"
      "LMUX = 0.9\n",
      "partial");
  for (const auto& field : Pac2002Lateral::fields()) {
    INFO(field.name);
    const std::string name = field.name;
    const double want = name == "PKY1" ? -20 : name == "RBX1" ? 11 : name == "LMUY" ? 0.8 : defaults.*field.member;
    CHECK(partial.*field.member == want);
  }
}

TEST_CASE("PAC2002: bad lateral .TIR content is a ModelError naming the source and the line", "[pac2002]") {
  const auto tires = test::data_dir() / "tires";
  auto read = [](const std::filesystem::path& file) {
    return test::model_error_of([&] { read_tir_lateral(file.string()); });
  };
  // The longitudinal section is read for R*X*, with the same strictness.
  CHECK_THAT(read(tires / "bad_number.tir"), Contains("bad_number.tir:7:") && Contains("PKX1") && Contains("22,5"));
  CHECK_THAT(read(tires / "duplicate_key.tir"),
             Contains("duplicate_key.tir:11:") && Contains("PDX1") && Contains("line 9"));
  CHECK_THAT(read(tires / "no_such_tire.tir"), Contains("no_such_tire.tir") && Contains("cannot open"));

  // (source, text, what the message must hold)
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
      {"lateral_in_longitudinal", "[LONGITUDINAL_COEFFICIENTS]\nPCX1 = 1.6\nPKY1 = -15\n",
       {":3:", "PKY1 belongs in [LATERAL_COEFFICIENTS], not in [LONGITUDINAL_COEFFICIENTS]"}},
      {"rx_in_lateral", "[LATERAL_COEFFICIENTS]\nPCY1 = 1.3\nRBX1 = 13\n",
       {":3:", "RBX1 belongs in [LONGITUDINAL_COEFFICIENTS], not in [LATERAL_COEFFICIENTS]"}},
      {"scaling_in_lateral", "[LATERAL_COEFFICIENTS]\nlmuy = 1\n",
       {":2:", "LMUY belongs in [SCALING_COEFFICIENTS], not in [LATERAL_COEFFICIENTS]"}},
      {"ry_in_scaling", "[SCALING_COEFFICIENTS]\nRBY1 = 10\n",
       {":2:", "RBY1 belongs in [LATERAL_COEFFICIENTS], not in [SCALING_COEFFICIENTS]"}},
      {"decimal_comma", "[MODEL]\nX = 1\n[LATERAL_COEFFICIENTS]\nPCY1 = 1.3\nPDY1 = 0,9\n",
       {":5:", "PDY1", "'0,9' is not a number"}},
      {"string_value", "[LATERAL_COEFFICIENTS]\nPEY1 = 'x'\n", {":2:", "PEY1", "not a number"}},
      {"no_equals", "[LATERAL_COEFFICIENTS]\nPCY1 1.3\n", {":2:", "PCY1 1.3", "NAME = number"}},
      {"duplicate", "[LATERAL_COEFFICIENTS]\nPCY1 = 1.3\n\nPDY1 = 0.9\npcy1 = 1.4\n", {":5:", "PCY1", "line 2"}},
      {"duplicate_scaling", "[SCALING_COEFFICIENTS]\nLMUY = 1\n[MODEL]\n[SCALING_COEFFICIENTS]\nLMUY = 0.9\n",
       {":5:", "LMUY", "line 2"}},
      {"not_finite", "[LONGITUDINAL_COEFFICIENTS]\nRBX1 = inf\n", {":2:", "RBX1", "finite"}},
      {"pky1_positive", "[LATERAL_COEFFICIENTS]\nPKY1 = 15.3\n", {":2:", "PKY1 = 15.3", "must not be positive"}},
      {"pky2_zero", "[LATERAL_COEFFICIENTS]\nPKY2 = 0\n", {":2:", "PKY2 = 0", "must be positive"}},
      {"random_bytes", "\x13\x9c\xf1 garbage \x01\n", {":1:", "before any [SECTION]"}},
      {"longitudinal_only", "[VERTICAL]\nFNOMIN = 4000\n[LONGITUDINAL_COEFFICIENTS]\nPCX1 = 1.6\n",
       {"no PAC2002 lateral coefficient in [LATERAL_COEFFICIENTS], [LONGITUDINAL_COEFFICIENTS] or "
        "[SCALING_COEFFICIENTS]"}},
  };
  for (const auto& [source, text, needles] : cases) {
    const std::string message = test::model_error_of([&] { parse_tir_lateral(text, source); });
    INFO(source << ": " << message);
    CHECK_THAT(message, Contains(source));
    for (const auto& needle : needles) CHECK_THAT(message, Contains(needle));
  }
  // The longitudinal reader still takes what the lateral one refuses in sections it does not read.
  CHECK(parse_tir_longitudinal("[LATERAL_COEFFICIENTS]\nPKY1 = 15\n[VERTICAL]\nFNOMIN = 4000\n", "x").FNOMIN == 4000);
}

}  // namespace test_pac2002_lateral
