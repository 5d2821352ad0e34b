// The FMI standard's reference models, written here as acausal models,
// exported as FMUs and run by the checker in both interfaces (Co-Simulation:
// the FMU's own solver; Model Exchange: the checker's CVODE) against closed forms.
#include <cmath>

#include "tests/fmi/fmi_support.hpp"
#include "tests/fmi/reference_models.hpp"

namespace test_fmi_reference_models {

using namespace acausal;
using test::Interface;
using test::run_fmu;
using test::column;

namespace {
Interface any_interface() { return GENERATE(Interface::co_simulation, Interface::model_exchange); }

void ignore_messages(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...) {}
}  // namespace

TEST_CASE("FMI Dahlquist: x(1) = exp(-1) within 1e-6 at every communication point", "[fmi]") {
  const test::TemporaryFmu file(test::Dahlquist().compile(), "dahlquist", {.stop_time = 1.0, .tolerance = 1e-8});
  const fmi::check::Fmu fmu(file.path());
  const Interface interface = any_interface();
  INFO(interface_name(interface));
  const auto run = run_fmu(fmu, interface, 1.0, 0.1, {}, 1e-8);
  const auto y = column(run, "y");
  REQUIRE(run.table.times.size() == 11);
  for (std::size_t k = 0; k < y.size(); ++k) CHECK(y[k] == Approx(std::exp(-run.table.times[k])).margin(1e-6));
  CHECK(run.table.times.back() == 1.0);
  CHECK(y.back() == Approx(std::exp(-1.0)).margin(1e-6));
}

TEST_CASE("FMI BouncingBall: heights at the communication points follow the closed-form bounces", "[fmi]") {
  const double g = 9.81, e = 0.7, h0 = 1.0;
  const test::TemporaryFmu file(test::BouncingBallFmu().compile(), "bouncing_ball",
                                {.stop_time = 3.0, .tolerance = 1e-10});
  const fmi::check::Fmu fmu(file.path());
  const Interface interface = any_interface();
  INFO(interface_name(interface));
  const auto run = run_fmu(fmu, interface, 2.5, 0.01, {}, 1e-10);
  auto exact = [&](double t) { return test::bouncing_ball_height(t, g, e, h0); };
  const auto h = column(run, "height");
  double worst = 0;
  for (std::size_t k = 0; k < h.size(); ++k) worst = std::max(worst, std::fabs(h[k] - exact(run.table.times[k])));
  CHECK(worst < 1e-5);
  // Five bounces happen inside the run, each handled inside fmi2DoStep.
  int bounces = 0;
  const auto v = column(run, "speed");
  for (std::size_t k = 1; k < v.size(); ++k) bounces += v[k - 1] < 0 && v[k] > 0;
  CHECK(bounces >= 5);
}

TEST_CASE("FMI VanDerPol (mu = 1): the limit cycle's period within 1e-4", "[fmi]") {
  // The period of the relaxation oscillation for mu = 1 (a published value: 6.663286859...).
  const double period = 6.6632868593231;
  const test::TemporaryFmu file(test::VanDerPol().compile(), "van_der_pol", {.stop_time = 60.0, .tolerance = 1e-10});
  const fmi::check::Fmu fmu(file.path());
  const Interface interface = any_interface();
  INFO(interface_name(interface));
  const auto run = run_fmu(fmu, interface, 60.0, 0.01, {}, 1e-10);
  const auto x = column(run, "y0");
  const auto& t = run.table.times;
  std::vector<double> crossings;  // upward zero crossings, interpolated quadratically between three points
  for (std::size_t k = 1; k + 1 < x.size(); ++k)
    if (t[k] > 20 && x[k - 1] < 0 && x[k] >= 0) {
      // Quadratic through (t[k-1], t[k], t[k+1]) solved near t[k] by Newton from the linear guess.
      const double h = t[k] - t[k - 1];
      double s = -x[k] / ((x[k + 1] - x[k - 1]) / (2 * h));
      for (int it = 0; it < 5; ++it) {
        const double d1 = (x[k + 1] - x[k - 1]) / (2 * h), d2 = (x[k + 1] - 2 * x[k] + x[k - 1]) / (h * h);
        s -= (x[k] + d1 * s + 0.5 * d2 * s * s) / (d1 + d2 * s);
      }
      crossings.push_back(t[k] + s);
    }
  REQUIRE(crossings.size() >= 5);
  const double measured = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  CHECK(measured == Approx(period).epsilon(1e-4));
}

TEST_CASE("FMI Stair: the counter is exact at every communication point", "[fmi]") {
  const test::TemporaryFmu file(test::Stair().compile(), "stair", {.stop_time = 10.0});
  const fmi::check::Fmu fmu(file.path());
  const Interface interface = any_interface();
  INFO(interface_name(interface));
  const auto run = run_fmu(fmu, interface, 10.0, 0.25);
  const auto y = column(run, "y");
  // The Integer and Boolean outputs, typed as such and read with fmi2GetInteger and fmi2GetBoolean.
  for (const auto& [name, type] : {std::pair{"n", fmi::check::VariableType::integer},
                                   std::pair{"odd", fmi::check::VariableType::boolean}}) {
    const auto& variables = fmu.description().variables;
    const auto found = std::find_if(variables.begin(), variables.end(), [&](const auto& v) { return v.name == name; });
    REQUIRE(found != variables.end());
    CHECK(found->type == type);
    CHECK(found->causality == fmi::check::Causality::output);
    CHECK(found->variability == fmi::check::Variability::discrete);
  }
  const auto n = column(run, "n"), odd = column(run, "odd");
  for (std::size_t k = 0; k < y.size(); ++k) {
    const double t = run.table.times[k];
    INFO("t = " << t);
    // The time event at a whole second is handled by the step (or the integration) that ends there.
    CHECK(y[k] == std::floor(t));
    CHECK(n[k] == std::floor(t));
    CHECK(odd[k] == static_cast<double>(static_cast<long>(std::floor(t)) % 2));
  }
}

TEST_CASE("FMI Feedthrough: inputs set between steps reach the outputs", "[fmi]") {
  const test::TemporaryFmu file(test::Feedthrough().compile(), "feedthrough", {.stop_time = 2.0});
  fmi::check::UnpackedFmu fmu(file.path());
  REQUIRE(fmu.load_findings().empty());
  const fmi2ValueReference u = test::value_reference(fmu, "u"), w = test::value_reference(fmu, "w"),
                           y = test::value_reference(fmu, "y"), z = test::value_reference(fmu, "z");
  fmi2CallbackFunctions callbacks{ignore_messages, nullptr, nullptr, nullptr, nullptr};
  const test::Fmi2Functions fmi2(fmu);
  fmi2Component c = fmi2.instantiate("feedthrough", fmi2CoSimulation, fmu.description().guid.c_str(),
                                fmu.resource_uri().c_str(), &callbacks, fmi2False, fmi2False);
  REQUIRE(c);
  REQUIRE(fmi2.setup(c, fmi2False, 0.0, 0.0, fmi2True, 2.0) == fmi2OK);
  REQUIRE(fmi2.enter(c) == fmi2OK);
  const double one = 1.0;
  REQUIRE(fmi2.set_real(c, &w, 1, &one) == fmi2OK);
  REQUIRE(fmi2.exit(c) == fmi2OK);
  const double T = 0.1;
  for (int k = 0; k < 20; ++k) {
    const double t = 0.1 * k, input = 0.5 * k - 3.0;
    REQUIRE(fmi2.set_real(c, &u, 1, &input) == fmi2OK);
    REQUIRE(fmi2.do_step(c, t, 0.1, fmi2True) == fmi2OK);
    double values[2];
    const fmi2ValueReference outputs[2] = {y, z};
    REQUIRE(fmi2.get_real(c, outputs, 2, values) == fmi2OK);
    CHECK(values[0] == 2 * input);
    CHECK(values[1] == Approx(1 - std::exp(-(t + 0.1) / T)).margin(1e-5));
  }
  fmi2.free_instance(c);
}

}  // namespace test_fmi_reference_models
