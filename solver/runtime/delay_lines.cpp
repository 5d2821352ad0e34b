#include "solver/runtime/delay_lines.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "solver/symbolic/errors.hpp"
#include "solver/lower/evaluation.hpp"

namespace acausal {

DelayLines::DelayLines(const CompiledModel& m, const std::vector<double>& parameters, double t_start)
    : model_(m), t_start_(t_start) {
  auto parameter = [&](const Node* leaf) { return parameters[m.dae.parameter_of.at(leaf)]; };
  for (std::size_t k = 0; k < m.delays.size(); ++k) {
    const Node* d = m.delays[k];
    Line line{m.delay_arguments[k]};
    line.delay_time = evaluate(Expr(d->arg[1]), parameter);
    // Nested delays come first, so whether they are exact is already known.
    line.exact = unknown_leaves(Expr(d->arg[0])).empty();
    line.derivative = d->op == Op::DelayRate;
    for_each_postorder(d->arg[0], [&](const Node* n) {
      if (is_delay(n->op) && n != d) line.exact &= lines_[m.delay_of.at(n)].exact;
    });
    std::string what = m.dae.print(Expr(d));
    if (!std::isfinite(line.delay_time) || line.delay_time < 0 || (!line.exact && line.delay_time == 0))
      throw ModelError("with the current parameters the delay time of " + what + " is " +
                       format_number(line.delay_time) + "; it must be " + (line.exact ? "at least 0" : "positive"));
    std::copy(parameters.begin(), parameters.end(), line.argument.inputs() + m.parameter_register());
    lines_.push_back(std::move(line));
  }
}

double DelayLines::shortest_recorded_delay() const {
  double shortest = 0.0;
  for (const Line& line : lines_)
    if (!line.exact && (shortest == 0.0 || line.delay_time < shortest)) shortest = line.delay_time;
  return shortest;
}

// Inputs of argument k: its nested delays are the lines before it.
void DelayLines::load(std::size_t k, double t, const double* y, const double* yp) {
  Tape& tape = lines_[k].argument;
  double* in = tape.inputs();
  in[0] = t;
  in[1] = 0.0;
  if (y) {
    std::copy_n(y, model_.n, in + 2);
    std::copy_n(yp, model_.n, in + 2 + model_.n);
  }
  fill(t, in + model_.delay_register(), k);
}

double DelayLines::exact_value(std::size_t k, double t) {
  Line& line = lines_[k];
  double past = std::max(t - line.delay_time, t_start_);
  load(k, past, nullptr, nullptr);
  line.argument.run();
  return line.argument.output(0);
}

void DelayLines::values_at(double t, double* out) { fill(t, out, lines_.size()); }

void DelayLines::fill(double t, double* out, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) {
    const Line& line = lines_[k];
    if (line.derivative && t - line.delay_time < t_start_)
      out[k] = 0.0;
    else
      out[k] = line.exact ? exact_value(k, t) : recorded_value(line, t - line.delay_time);
  }
}

// Cubic (Lagrange) interpolation through the samples around t; a repeated
// time is a jump at an event, and the stencil never reaches across one.
double DelayLines::recorded_value(const Line& line, double t) const {
  const auto& s = line.past;
  if (s.empty()) return 0.0;
  auto begin = s.begin() + static_cast<long>(line.first);
  auto after = std::upper_bound(begin, s.end(), t, [](double q, const Sample& x) { return q < x.t; });
  if (after == begin) return begin->u;
  if (after == s.end()) return s.back().u;
  const std::size_t i = static_cast<std::size_t>(after - s.begin()) - 1;
  std::size_t lo = i > line.first ? i - 1 : i;
  std::size_t hi = std::min(i + 2, s.size() - 1);
  if (s[lo].t == s[i].t) lo = i;
  if (s[hi].t == s[i + 1].t) hi = i + 1;
  double value = 0.0;
  for (std::size_t a = lo; a <= hi; ++a) {
    double weight = 1.0;
    for (std::size_t b = lo; b <= hi; ++b)
      if (b != a) weight *= (t - s[b].t) / (s[a].t - s[b].t);
    value += weight * s[a].u;
  }
  return value;
}

void DelayLines::restart(const double* y, const double* yp) {
  for (Line& line : lines_) {
    line.past.clear();
    line.first = 0;
  }
  record(t_start_, y, yp);
}

void DelayLines::record(double t, const double* y, const double* yp) {
  for (std::size_t k = 0; k < lines_.size(); ++k) {
    Line& line = lines_[k];
    if (line.exact) continue;
    load(k, t, y, yp);
    line.argument.run();
    line.past.push_back({t, line.argument.output(0)});
    // Outputs are interpolated back within the last step (at most one delay
    // long), and each reads one delay further back.
    const double oldest_needed = t - 2 * line.delay_time;
    while (line.first + 4 < line.past.size() && line.past[line.first + 2].t < oldest_needed) ++line.first;
    if (line.first > 1024 && line.first > line.past.size() / 2) {
      line.past.erase(line.past.begin(), line.past.begin() + static_cast<long>(line.first));
      line.first = 0;
    }
  }
}

std::vector<std::vector<std::pair<double, double>>> DelayLines::history() const {
  std::vector<std::vector<std::pair<double, double>>> out;
  for (const Line& line : lines_) {
    auto& samples = out.emplace_back();
    for (std::size_t i = line.first; i < line.past.size(); ++i) samples.emplace_back(line.past[i].t, line.past[i].u);
  }
  return out;
}

void DelayLines::set_history(const std::vector<std::vector<std::pair<double, double>>>& history) {
  for (std::size_t k = 0; k < lines_.size(); ++k) {
    Line& line = lines_[k];
    line.past.clear();
    line.first = 0;
    for (const auto& [t, u] : history[k]) line.past.push_back({t, u});
  }
}

void DelayLines::set_parameters(const std::vector<double>& parameters) {
  for (Line& line : lines_)
    std::copy(parameters.begin(), parameters.end(), line.argument.inputs() + model_.parameter_register());
}

}  // namespace acausal
