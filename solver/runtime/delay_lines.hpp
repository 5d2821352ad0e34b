// The past that delay(u, T) reads. An argument that depends on time and
// parameters only is evaluated exactly at time - T. Any other argument is
// sampled along the solution (several points per solver step, from IDA's
// interpolating polynomial) and read back by cubic interpolation; the solver's
// step is then limited to the shortest such delay, so that every value a step
// needs lies in the recorded past. Before start + T the value is u(start).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "solver/lower/tape.hpp"

namespace acausal {

struct CompiledModel;

class DelayLines {
 public:
  DelayLines(const CompiledModel& m, const std::vector<double>& parameters, double t_start);

  bool empty() const { return lines_.empty(); }
  /// The shortest delay read from a recorded past (0 when none is).
  double shortest_recorded_delay() const;
  /// Delayed values at time t, one per delay of the model, written to out.
  void values_at(double t, double* out);
  /// Forgets the past: the arguments' values from (y, y') at the start are all of it.
  void restart(const double* y, const double* yp);
  /// Records the arguments at t, from the solution (y, y') there.
  void record(double t, const double* y, const double* yp);
  /// The recorded past still needed, (time, value) per line (none for an exact
  /// line), and back: to save and restore a run.
  std::vector<std::vector<std::pair<double, double>>> history() const;
  void set_history(const std::vector<std::vector<std::pair<double, double>>>& history);
  /// New values of the parameters the arguments read (the delay times stay).
  void set_parameters(const std::vector<double>& parameters);

 private:
  struct Sample {
    double t, u;
  };
  struct Line {
    Tape argument;
    double delay_time = 0.0;
    bool exact = false;             // argument of time and parameters only
    bool derivative = false;        // the rate of a delayed signal: 0 before start + T
    std::vector<Sample> past;       // recorded samples, times nondecreasing
    std::size_t first = 0;          // samples before this one are no longer needed
  };
  double exact_value(std::size_t k, double t);
  double recorded_value(const Line& line, double t) const;
  void fill(double t, double* out, std::size_t count);
  void load(std::size_t k, double t, const double* y, const double* yp);

  const CompiledModel& model_;
  double t_start_;
  std::vector<Line> lines_;
};

}  // namespace acausal
