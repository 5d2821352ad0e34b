#pragma once

#include <string>
#include <utility>

#include "components/blocks/noise/xorshift.hpp"
#include "connectors/signal.hpp"

namespace acausal::blocks {

/// The sampled random source shared by the noise blocks (MSL
/// Blocks.Interfaces.PartialNoise, v4.0.0), drawing MSL's stream: the
/// generator is Xorshift128plus, its initial state
/// Xorshift128plus.initialState(localSeed, actualGlobalSeed) (through
/// Xorshift64star, see msl_random), and at startTime and every samplePeriod
/// after, (r_raw, state) = random(pre(state)) and r = distribution(r_raw) is
/// held; y = y_off before startTime (or with enableNoise = 0). The k-th sample
/// is MSL's k-th number for the same seeds, on [startTime + (k-1)·samplePeriod,
/// startTime + k·samplePeriod), as in MSL's results.
///
/// Seeds (MSL's GlobalSeed/PartialNoise options as plain parameters, changed
/// without recompiling): globalSeed is GlobalSeed's seed (default its fixedSeed
/// 67867967); useGlobalSeed = 0 uses 0 instead (MSL's useGlobalSeed = false);
/// localSeed is MSL's actual local seed: set it for MSL's
/// useAutomaticLocalSeed = false, fixedLocalSeed = n; its default is MSL's
/// automatic one, hashString of the name (MSL hashes getInstanceName(), the
/// model's name and the instance path, so names matter as in MSL but the
/// numbers match MSL only when localSeed is given). Seeds are Integers (taken
/// as signed 32-bit values).
struct PartialNoise : Component {
  RealOutput y{*this, "y"};
  Parameter samplePeriod = parameter("samplePeriod", 0.01, {.unit = "s", .min = 1e-15});
  Parameter startTime = parameter("startTime", 0.0, {.unit = "s"});
  Parameter y_off = parameter("y_off", 0.0, {.description = "the output before startTime or without noise"});
  Parameter enableNoise = parameter("enableNoise", 1.0, {.min = 0, .max = 1, .description = "1: y is noise; 0: y = y_off"});
  Parameter globalSeed =
      parameter("globalSeed", 67867967.0, {.description = "MSL GlobalSeed's seed (an Integer)"});
  Parameter useGlobalSeed =
      parameter("useGlobalSeed", 1.0, {.min = 0, .max = 1, .description = "1: use globalSeed; 0: use 0 instead"});
  Parameter localSeed = parameter("localSeed", static_cast<double>(msl_random::hash_string(name())),
                                  {.description = "the actual local seed (an Integer); default hashString(name)"});
  // MSL's Integer state[4]: the halves (low, high) of the two 64-bit words, unsigned.
  Discrete state_1 = discrete("state_1", {.kind = DiscreteKind::integer});
  Discrete state_2 = discrete("state_2", {.kind = DiscreteKind::integer});
  Discrete state_3 = discrete("state_3", {.kind = DiscreteKind::integer});
  Discrete state_4 = discrete("state_4", {.kind = DiscreteKind::integer});
  Discrete started = discrete("started", {.kind = DiscreteKind::boolean, .description = "a sample has been drawn"});
  Discrete r_raw = discrete("r_raw", {.description = "uniform random number in (0, 1]"});
  Discrete r = discrete("r", {.description = "the sample held until the next one"});

 protected:
  explicit PartialNoise(std::string name) : Component(std::move(name)) {
    equation(y == ifelse(started > 0.5 && enableNoise > 0.5, r, y_off));
  }

  /// The uniform number drawn at each sample, in (0, 1]; the derived block
  /// passes distribution(u) to draw().
  Expr raw_number() const { return msl_random::to_unit(next_state().s1); }

  /// At each sample: the next state, r_raw = raw_number() and r = value.
  void draw(const Expr& value) {
    const msl_random::State128 next = next_state();
    when(sample(startTime, samplePeriod), {state_1 == next.s0.lo, state_2 == next.s0.hi, state_3 == next.s1.lo,
                                           state_4 == next.s1.hi, started == 1.0, r_raw == raw_number(), r == value});
  }

 private:
  msl_random::State128 next_state() const {
    const msl_random::State128 seeded =
        msl_random::xorshift128plus_initial_state(localSeed, ifelse(useGlobalSeed > 0.5, globalSeed, 0.0));
    const Expr fresh = pre(started) < 0.5;
    const msl_random::State128 previous{{ifelse(fresh, seeded.s0.lo, pre(state_1)), ifelse(fresh, seeded.s0.hi, pre(state_2))},
                                        {ifelse(fresh, seeded.s1.lo, pre(state_3)), ifelse(fresh, seeded.s1.hi, pre(state_4))}};
    return msl_random::xorshift128plus(previous);
  }
};

}  // namespace acausal::blocks
