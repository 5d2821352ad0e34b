#pragma once
// Seed 003's sensor slot (Webots Accelerometer, Gyro, InertialUnit, GPS):
// sampled sensors with Gaussian noise and a resolution, on one axis each.

#include <string>
#include <utility>

#include "components/blocks/noise/normal_noise.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// A sampled sensor: at startTime and every samplePeriod after, it reads the
/// true value u, adds a Gaussian noise of standard deviation sigma (drawn
/// from MSL's random stream, as blocks::NormalNoise, whose seeds it takes:
/// localSeed, globalSeed) and rounds the sum to the nearest multiple of
/// `resolution` (Webots' resolution, "the smallest change it is able to
/// measure"; -1 or any value ≤ 0: infinite resolution, seed 003's default),
/// holding the reading on `measured` until the next sample (0 before the
/// first). u_sampled holds the true value at the last sample, so that
/// measured - u_sampled is the sensor's error (noise plus rounding): its mean
/// is 0 and its variance sigma² + resolution²/12 (for resolution well below sigma).
/// Rounding happens only at samples: a continuous rounding would jump
/// wherever u crosses a step, which the integrator cannot follow.
/// y (of the noise base) is the noise of the last sample.
struct NoisySensor : blocks::PartialNoise {
  RealInput u{*this, "u"};
  RealOutput measured{*this, "measured"};
  Parameter sigma = parameter("sigma", 0.0, {.min = 0, .description = "standard deviation of the noise"});
  Parameter resolution =
      parameter("resolution", -1.0, {.description = "the step readings are rounded to; <= 0 (-1): infinite"});
  Discrete u_sampled = discrete("u_sampled", {.description = "the true value at the last sample"});
  Discrete reading = discrete("reading", {.description = "the reading held since the last sample"});

  explicit NoisySensor(std::string name) : blocks::PartialNoise(std::move(name)) {
    // The sample drawn at this event (draw() stores the same number in r).
    const Expr noise = blocks::msl_special::normal_quantile(raw_number(), 0.0, sigma);
    draw(noise);
    const Expr exact = u + ifelse(enableNoise > 0.5, noise, 0.0);
    const Expr step = ifelse(resolution > 0.0, resolution, 1.0);  // never divides by a non-positive step
    when(sample(startTime, samplePeriod),
         {u_sampled == u, reading == ifelse(resolution > 0.0, step * floor(exact / step + 0.5), exact)});
    equation(measured == reading);
  }

 protected:
  /// A sensor with its own defaults, for the named kinds below.
  NoisySensor(std::string name, double sigma_default, double resolution_default, double period)
      : NoisySensor(std::move(name)) {
    set_parameter("sigma", sigma_default);
    set_parameter("resolution", resolution_default);
    set_parameter("samplePeriod", period);
  }
};

/// Longitudinal accelerometer [m/s²]: u is the specific force along the
/// body's x axis, a_x + g·sin(grade) (at rest on a grade it reads g·sin θ,
/// Webots' "gravity-induced reaction force"). Defaults: sigma 0.05 m/s²,
/// resolution 0.01 m/s², 100 Hz.
struct Accelerometer : NoisySensor {
  explicit Accelerometer(std::string name) : NoisySensor(std::move(name), 0.05, 0.01, 0.01) {}
};

/// Pitch-rate gyro [rad/s]. Defaults: sigma 0.002 rad/s, resolution 0.001 rad/s, 100 Hz.
struct Gyro : NoisySensor {
  explicit Gyro(std::string name) : NoisySensor(std::move(name), 0.002, 0.001, 0.01) {}
};

/// Inertial unit's pitch angle [rad] (the longitudinal model has no roll or
/// yaw). Defaults: sigma 0.005 rad, resolution 0.001 rad, 100 Hz.
struct InertialUnit : NoisySensor {
  explicit InertialUnit(std::string name) : NoisySensor(std::move(name), 0.005, 0.001, 0.01) {}
};

}  // namespace acausal::vehicle
