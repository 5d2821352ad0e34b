// Robustness: valid models compile whatever their construction order, bad
// options and runaway requests are refused, non-finite values never reach a
// result silently, and outputs satisfy the model's own equations to rounding.
#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>

#include "support.hpp"

using namespace acausal;
using test::run_for;

namespace {

// Sine -> delay block -> FirstOrder, the three components added in the order `order`.
Result delayed_lag(const std::array<int, 3>& order, bool dead_time) {
  Model m("delayed_lag");
  std::function<void()> add[3] = {
      [&] { m.add<blocks::Sine>("sine", {{"amplitude", 1.0}, {"f", 1.0}}); },
      [&] {
        if (dead_time)
          m.add<blocks::DeadTime>("delay", {{"dead_time", 0.2}});
        else
          m.add<blocks::FixedDelay>("delay", {{"delayTime", 0.2}});
      },
      [&] { m.add<blocks::FirstOrder>("lag", {{"T", 0.1}}); },
  };
  for (int k : order) add[k]();
  auto* sine = static_cast<blocks::Sine*>(m.child("sine"));
  auto* lag = static_cast<blocks::FirstOrder*>(m.child("lag"));
  Component* delay = m.child("delay");
  auto& u = *delay->connectors()[0];
  auto& y = *delay->connectors()[1];
  m.connect(sine->y, u);
  m.connect(y, lag->u);
  return m.compile().simulate(run_for(1.0, 0.01, 1e-8));
}

}  // namespace

TEST_CASE("a delay model compiles and gives one result in every construction order", "[robustness][delay]") {
  for (bool dead_time : {false, true}) {
    std::array<int, 3> order{0, 1, 2};
    Result reference = delayed_lag(order, dead_time);
    auto expected = reference["lag.y"];
    do {
      INFO("order " << order[0] << order[1] << order[2] << (dead_time ? " DeadTime" : " FixedDelay"));
      Result r = delayed_lag(order, dead_time);
      auto y = r["lag.y"];
      REQUIRE(y.size() == expected.size());
      double worst = 0;
      for (std::size_t k = 0; k < y.size(); ++k) worst = std::max(worst, std::fabs(y[k] - expected[k]));
      CHECK(worst < 1e-9);
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

TEST_CASE("a delay fed back to itself without a state is refused, naming the variable", "[robustness][delay]") {
  Model m("delay_loop");
  auto& delay = m.add<blocks::FixedDelay>("delay", {{"delayTime", 0.2}});
  auto& gain = m.add<blocks::Gain>("gain", {{"k", 0.5}});
  m.connect(delay.y, gain.u);
  m.connect(gain.y, delay.u);
  CHECK_THROWS_WITH(m.compile(), Catch::Contains("delay() of itself") && Catch::Contains("needs a state"));
}
