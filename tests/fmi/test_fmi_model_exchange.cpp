// Model Exchange by hand: the calls a master makes, checked against what the
// model's equations say (derivatives, feedthrough, indicators, events), the
// launch car integrated by the checker's CVODE against the library's own run,
// and misuse of the Model Exchange functions.
#include <acausal/harness/rigs.hpp>

#include <cmath>

#include "tests/fmi/fmi_support.hpp"
#include "tests/fmi/reference_models.hpp"

namespace test_fmi_model_exchange {

using namespace acausal;
using test::column;
using test::Interface;

namespace {

std::vector<std::string> messages;

void collect(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String message, ...) {
  messages.emplace_back(message);
}

std::string last_message() { return messages.empty() ? std::string() : messages.back(); }

/// The Model Exchange functions, and an instance brought to continuous-time mode.
struct ModelExchangeInstance {
  explicit ModelExchangeInstance(const fmi::check::UnpackedFmu& fmu, double stop = 10.0) : fmi2(fmu) {
    const auto get = [&]<class F>(const char* name, F*& f) {
      f = fmu.function<F>(name);
      REQUIRE(f);
    };
    get("fmi2EnterEventMode", enter_event_mode);
    get("fmi2NewDiscreteStates", new_discrete_states);
    get("fmi2EnterContinuousTimeMode", enter_continuous_time_mode);
    get("fmi2CompletedIntegratorStep", completed_integrator_step);
    get("fmi2SetTime", set_time);
    get("fmi2SetContinuousStates", set_states);
    get("fmi2GetDerivatives", get_derivatives);
    get("fmi2GetEventIndicators", get_indicators);
    get("fmi2GetContinuousStates", get_states);
    get("fmi2GetNominalsOfContinuousStates", get_nominals);
    c = fmi2.instantiate("me", fmi2ModelExchange, fmu.description().guid.c_str(), fmu.resource_uri().c_str(),
                         &callbacks, fmi2False, fmi2False);
    REQUIRE(c);
    REQUIRE(fmi2.setup(c, fmi2True, 1e-8, 0.0, fmi2True, stop) == fmi2OK);
    REQUIRE(fmi2.enter(c) == fmi2OK);
  }
  ~ModelExchangeInstance() { fmi2.free_instance(c); }

  /// Ends initialization: the event iteration of the start, then continuous-time mode.
  fmi2EventInfo start() {
    REQUIRE(fmi2.exit(c) == fmi2OK);
    fmi2EventInfo info{};
    REQUIRE(new_discrete_states(c, &info) == fmi2OK);
    CHECK(info.newDiscreteStatesNeeded == fmi2False);
    REQUIRE(enter_continuous_time_mode(c) == fmi2OK);
    return info;
  }

  double get(fmi2ValueReference reference) {
    double value = 0;
    REQUIRE(fmi2.get_real(c, &reference, 1, &value) == fmi2OK);
    return value;
  }

  fmi2CallbackFunctions callbacks{collect, nullptr, nullptr, nullptr, nullptr};
  test::Fmi2Functions fmi2;
  fmi2Component c = nullptr;
  fmi2EnterEventModeTYPE* enter_event_mode = nullptr;
  fmi2NewDiscreteStatesTYPE* new_discrete_states = nullptr;
  fmi2EnterContinuousTimeModeTYPE* enter_continuous_time_mode = nullptr;
  fmi2CompletedIntegratorStepTYPE* completed_integrator_step = nullptr;
  fmi2SetTimeTYPE* set_time = nullptr;
  fmi2SetContinuousStatesTYPE* set_states = nullptr;
  fmi2GetDerivativesTYPE* get_derivatives = nullptr;
  fmi2GetEventIndicatorsTYPE* get_indicators = nullptr;
  fmi2GetContinuousStatesTYPE* get_states = nullptr;
  fmi2GetNominalsOfContinuousStatesTYPE* get_nominals = nullptr;
};

}  // namespace

TEST_CASE("Model Exchange: derivatives from the states set, inputs through to outputs without integration",
          "[fmi]") {
  const test::TemporaryFmu file(test::Feedthrough().compile(), "me_feedthrough", {.stop_time = 2.0});
  const fmi::check::UnpackedFmu fmu(file.path());
  REQUIRE(fmu.description().derivatives.size() == 1);
  CHECK(fmu.description().number_of_event_indicators == 0);
  ModelExchangeInstance me(fmu, 2.0);
  const fmi2ValueReference u = test::value_reference(fmu, "u"), w = test::value_reference(fmu, "w"),
                           y = test::value_reference(fmu, "y"), x = test::value_reference(fmu, "x"),
                           dx = test::value_reference(fmu, "der(x)");
  // The description ties der(x) to x.
  CHECK(fmu.description().variables[dx].derivative == x + 1);
  const double w0 = 0.5;
  REQUIRE(me.fmi2.set_real(me.c, &w, 1, &w0) == fmi2OK);
  const fmi2EventInfo info = me.start();
  CHECK(info.nextEventTimeDefined == fmi2False);
  // The state's declared nominal reaches the master, in the description and from the function.
  CHECK(fmu.description().variables[x].nominal == 20.0);
  CHECK(fmu.description().variables[y].nominal == std::nullopt);
  double nominal = 0;
  REQUIRE(me.get_nominals(me.c, &nominal, 1) == fmi2OK);
  CHECK(nominal == 20.0);
  for (int k = 0; k < 5; ++k) {
    const double t = 0.3 * k, state = 0.2 * k - 0.3, input = 1.5 - k;
    REQUIRE(me.set_time(me.c, t) == fmi2OK);
    REQUIRE(me.set_states(me.c, &state, 1) == fmi2OK);
    REQUIRE(me.fmi2.set_real(me.c, &u, 1, &input) == fmi2OK);  // a continuous input: no event
    double derivative = 0;
    const fmi2Status status = me.get_derivatives(me.c, &derivative, 1);
    INFO(last_message());
    REQUIRE(status == fmi2OK);
    // T·der(x) = w − x with T = 0.1.
    CHECK(derivative == Approx((w0 - state) / 0.1).margin(1e-12));
    CHECK(me.get(dx) == derivative);
    CHECK(me.get(y) == 2 * input);
    double read_back = 0;
    REQUIRE(me.get_states(me.c, &read_back, 1) == fmi2OK);
    CHECK(read_back == state);
  }
}

TEST_CASE("Model Exchange: an indicator's sign change, handled in event mode, reinitializes the bouncing ball",
          "[fmi]") {
  const test::TemporaryFmu file(test::BouncingBallFmu().compile(), "me_ball", {.stop_time = 3.0});
  const fmi::check::UnpackedFmu fmu(file.path());
  const std::size_t n_indicators = fmu.description().number_of_event_indicators;
  REQUIRE(n_indicators >= 1);
  ModelExchangeInstance me(fmu, 3.0);
  me.start();
  const fmi2ValueReference v = test::value_reference(fmu, "v"), h = test::value_reference(fmu, "h");
  std::vector<double> above(n_indicators), below(n_indicators);
  // States: h and v in the description's Derivatives order.
  std::vector<double> states(2);
  REQUIRE(me.get_states(me.c, states.data(), 2) == fmi2OK);
  CHECK(states[0] * states[1] == 0.0);  // h = 1, v = 0 (one of them is v)
  const bool h_first = me.get(h) == states[0];
  auto set = [&](double height, double speed) {
    std::vector<double> x = h_first ? std::vector<double>{height, speed} : std::vector<double>{speed, height};
    REQUIRE(me.set_states(me.c, x.data(), 2) == fmi2OK);
  };
  REQUIRE(me.set_time(me.c, 0.45) == fmi2OK);
  set(1e-3, -4.4);
  REQUIRE(me.get_indicators(me.c, above.data(), n_indicators) == fmi2OK);
  set(-1e-3, -4.5);
  REQUIRE(me.get_indicators(me.c, below.data(), n_indicators) == fmi2OK);
  int crossed = 0;
  for (std::size_t i = 0; i < n_indicators; ++i) crossed += (above[i] > 0) != (below[i] > 0);
  CHECK(crossed == 1);
  fmi2Boolean event = fmi2True, terminate = fmi2True;
  REQUIRE(me.completed_integrator_step(me.c, fmi2True, &event, &terminate) == fmi2OK);
  CHECK(event == fmi2False);
  CHECK(terminate == fmi2False);
  REQUIRE(me.enter_event_mode(me.c) == fmi2OK);
  fmi2EventInfo info{};
  REQUIRE(me.new_discrete_states(me.c, &info) == fmi2OK);
  CHECK(info.valuesOfContinuousStatesChanged == fmi2True);
  CHECK(info.newDiscreteStatesNeeded == fmi2False);
  // reinit(v, -e·pre(v)) with e = 0.7.
  CHECK(me.get(v) == Approx(0.7 * 4.5).epsilon(1e-12));
  REQUIRE(me.enter_continuous_time_mode(me.c) == fmi2OK);
  REQUIRE(me.get_states(me.c, states.data(), 2) == fmi2OK);
  CHECK(states[h_first ? 1 : 0] == Approx(0.7 * 4.5).epsilon(1e-12));
}

TEST_CASE("Model Exchange: the next time event is announced, and reached, at each tick of the stair", "[fmi]") {
  const test::TemporaryFmu file(test::Stair().compile(), "me_stair", {.stop_time = 5.0});
  const fmi::check::UnpackedFmu fmu(file.path());
  ModelExchangeInstance me(fmu, 5.0);
  const fmi2ValueReference y = test::value_reference(fmu, "y");
  fmi2EventInfo info = me.start();
  for (int tick = 1; tick <= 4; ++tick) {
    REQUIRE(info.nextEventTimeDefined == fmi2True);
    CHECK(info.nextEventTime == Approx(tick).margin(1e-12));
    REQUIRE(me.set_time(me.c, info.nextEventTime) == fmi2OK);
    CHECK(me.get(y) == tick - 1);  // the left limit
    REQUIRE(me.enter_event_mode(me.c) == fmi2OK);
    REQUIRE(me.new_discrete_states(me.c, &info) == fmi2OK);
    CHECK(me.get(y) == tick);
    REQUIRE(me.enter_continuous_time_mode(me.c) == fmi2OK);
  }
}

TEST_CASE("Model Exchange misuse: wrong interface, state or count is fmi2Error with a message", "[fmi][errors]") {
  const test::TemporaryFmu file(test::Feedthrough().compile(), "me_misuse", {.stop_time = 1.0});
  const fmi::check::UnpackedFmu fmu(file.path());
  ModelExchangeInstance me(fmu, 1.0);
  messages.clear();
  double x[2] = {0, 0};
  CHECK(me.set_states(me.c, x, 1) == fmi2Error);  // in initialization mode
  CHECK_THAT(last_message(), Catch::Contains("fmi2SetContinuousStates") && Catch::Contains("initialization mode"));
  CHECK(me.fmi2.do_step(me.c, 0.0, 0.1, fmi2True) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("Co-Simulation function"));
  me.start();
  CHECK(me.get_derivatives(me.c, x, 2) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("nx is 2, the model has 1 states"));
  const double nan = std::nan("");
  CHECK(me.set_states(me.c, &nan, 1) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("x[0]"));
  const fmi2ValueReference T = test::value_reference(fmu, "T");
  const double T1 = 0.2;
  CHECK(me.fmi2.set_real(me.c, &T, 1, &T1) == fmi2Error);  // a parameter in continuous-time mode
  CHECK_THAT(last_message(), Catch::Contains("event mode"));
  REQUIRE(me.enter_event_mode(me.c) == fmi2OK);
  CHECK(me.fmi2.set_real(me.c, &T, 1, &T1) == fmi2OK);  // in event mode it may change
  // The instance still works after each refusal.
  REQUIRE(me.enter_continuous_time_mode(me.c) == fmi2OK);
  const double state = 1.0;
  REQUIRE(me.set_states(me.c, &state, 1) == fmi2OK);
  double derivative = 0;
  REQUIRE(me.get_derivatives(me.c, &derivative, 1) == fmi2OK);
  CHECK(derivative == Approx((0.0 - 1.0) / 0.2).epsilon(1e-12));

  // A Co-Simulation instance refuses the Model Exchange functions.
  fmi2Component cs = me.fmi2.instantiate("cs", fmi2CoSimulation, fmu.description().guid.c_str(),
                                         fmu.resource_uri().c_str(), &me.callbacks, fmi2False, fmi2False);
  REQUIRE(cs);
  CHECK(me.enter_event_mode(cs) == fmi2Error);
  CHECK_THAT(last_message(), Catch::Contains("Model Exchange function"));
  me.fmi2.free_instance(cs);
}

TEST_CASE("The exported launch car in Model Exchange, integrated by CVODE, equals the library's run within 1e-6",
          "[fmi]") {
  Model m("launch_and_brake");
  auto& car = m.add<vehicle::RearDriveCar>("car");
  harness::drive_launch(m, car, 1.0, 12.0);
  const Simulator sim = m.compile();
  const double step = 0.01, stop = 18.0, tolerance = 1e-9;
  const test::TemporaryFmu file(sim, "launch_car_me", {.stop_time = stop, .tolerance = tolerance, .step_size = step});
  const fmi::check::Fmu fmu(file.path());
  const std::vector<std::string> names = {"car.body.v", "car.body.s", "car.engine.w", "car.wheel_rl.kappa"};
  const auto run = test::run_fmu(fmu, Interface::model_exchange, stop, step, names, tolerance);
  // The library's own run as the reference, read at the same points: at rtol 1e-9 IDA's global error in the
  // coasting engine's speed reaches 1.4e-5 (the library's converged solution, at rtol 1e-12, moves there by
  // that much), so the reference is converged further than the run it checks.
  const auto difference = test::difference_from_library(sim, {.rtol = 1e-12, .atol = 1e-12}, run);
  INFO("largest difference " << difference.relative << " (" << difference.where << "), " << run.steps
                             << " CVODE steps, " << run.event_times.size() << " events");
  CHECK(difference.relative <= 1e-6);
  CHECK(run.event_times.size() > 0);  // the shifts and the clutch's modes reach the master as events
}

}  // namespace test_fmi_model_exchange
