#include "solver/runtime/simulator.hpp"

#include <fmt/format.h>

#include <cmath>

#include "solver/lower/evaluation.hpp"

namespace acausal {

Simulator::Simulator(std::shared_ptr<const CompiledModel> model) : model_(std::move(model)) {
  for (const auto& p : model_->dae.parameters) parameters_.push_back(p.value);
}

int Simulator::parameter_index(const std::string& name) const {
  auto it = model_->parameter_by_name.find(name);
  if (it == model_->parameter_by_name.end())
    throw UnknownNameError("model '" + model_->dae.model_name + "'", "parameter", name, parameter_names());
  return it->second;
}

void check_parameter_change(const CompiledModel& m, int p, double current, double value) {
  const std::string& name = m.dae.parameters[p].name;
  if (m.dae.parameters[p].attributes.structural)
    throw ModelError("parameter " + name + " is structural: the compiled model was specialized for " + name + " = " +
                     format_number(current) + "; set it before compile() (Model::add or set_parameter)");
  check_parameter_value(name, value, m.dae.parameters[p].attributes);
}

void Simulator::set_parameter(const std::string& name, double value) {
  int p = parameter_index(name);
  check_parameter_change(*model_, p, parameters_[p], value);
  parameters_[p] = value;
}

void Simulator::set_parameter(const std::string& name, const std::string& choice) {
  int p = parameter_index(name);
  const double index = choice_index(name, model_->dae.parameters[p].attributes, choice);
  if (index == parameters_[p]) return;  // the compiled choice: nothing changes
  check_parameter_change(*model_, p, parameters_[p], index);
  parameters_[p] = index;
}

int Simulator::set_parameters(const std::string& pattern, double value) {
  std::vector<int> matched;
  for (int p = 0; p < static_cast<int>(model_->dae.parameters.size()); ++p)
    if (path_matches(pattern, model_->dae.parameters[p].name)) matched.push_back(p);
  if (matched.empty())
    throw ModelError(fmt::format("set_parameters(\"{}\"): no parameter of model '{}' matches (`*` matches within a "
                                 "name, `**` across parts)", pattern, model_->dae.model_name));
  for (int p : matched) check_parameter_change(*model_, p, parameters_[p], value);
  for (int p : matched) parameters_[p] = value;
  return static_cast<int>(matched.size());
}

double Simulator::parameter(const std::string& name) const { return parameters_[parameter_index(name)]; }

std::vector<std::string> Simulator::parameter_names() const {
  std::vector<std::string> names;
  for (const auto& p : model_->dae.parameters) names.push_back(p.name);
  return names;
}

std::vector<ParameterInfo> Simulator::parameters() const { return parameter_table(*model_, parameters_); }

std::vector<std::string> Simulator::inputs() const {
  std::vector<std::string> names;
  for (const auto& p : model_->dae.parameters)
    if (p.attributes.input) names.push_back(p.name);
  return names;
}

std::vector<std::string> Simulator::outputs() const {
  std::vector<std::string> names;
  for (int v : model_->dae.outputs) names.push_back(model_->dae.variables[v].name);
  return names;
}

const CompileReport& Simulator::report() const { return model_->dae.report; }

void validate(const SimulationOptions& o, const std::string& model_name) {
  auto refuse = [&](const std::string& field, double value, const std::string& need) {
    throw ModelError("simulate(" + model_name + "): " + field + " = " + format_number(value) + ", but it must be " + need);
  };
  if (!std::isfinite(o.t_start)) refuse("t_start", o.t_start, "finite");
  if (!std::isfinite(o.t_end) || !(o.t_end > o.t_start))
    refuse("t_end", o.t_end, "finite and greater than t_start = " + format_number(o.t_start));
  if (!std::isfinite(o.output_interval) || !(o.output_interval > 0))
    refuse("output_interval", o.output_interval, "positive and finite");
  if (!std::isfinite(o.rtol) || !(o.rtol > 0) || !(o.rtol < 1)) refuse("rtol", o.rtol, "in (0, 1)");
  if (!std::isfinite(o.atol) || !(o.atol > 0)) refuse("atol", o.atol, "positive and finite");
  if (o.dense_threshold < 0) refuse("dense_threshold", o.dense_threshold, "at least 0");
  if (o.max_steps < 1) refuse("max_steps", static_cast<double>(o.max_steps), "at least 1");
  if (!std::isfinite(o.max_step) || o.max_step < 0) refuse("max_step", o.max_step, "finite and at least 0 (0: no limit)");
  if (!(o.max_output_bytes > 0)) refuse("max_output_bytes", o.max_output_bytes, "positive");
  if (!std::isfinite(o.initial_step) || o.initial_step < 0)
    refuse("initial_step", o.initial_step, "finite and at least 0 (0: IDA's estimate)");
  if (!std::isfinite(o.realtime_factor) || o.realtime_factor < 0)
    refuse("realtime_factor", o.realtime_factor, "finite and at least 0 (0: as fast as possible)");
  for (std::size_t k = 0; k < o.output_times.size(); ++k) {
    const double t = o.output_times[k];
    const std::string field = fmt::format("output_times[{}]", k);
    if (!std::isfinite(t) || t < o.t_start || t > o.t_end)
      refuse(field, t, fmt::format("within [t_start, t_end] = [{}, {}]", format_number(o.t_start), format_number(o.t_end)));
    if (k > 0 && !(t > o.output_times[k - 1]))
      refuse(field, t, "greater than the time before it, " + format_number(o.output_times[k - 1]));
  }
}

Session Simulator::start(const SimulationOptions& options) const { return Session(model_, parameters_, options, "session"); }

Result Simulator::simulate(const SimulationOptions& options) const {
  return Session(model_, parameters_, options, "simulate").finish();
}

}  // namespace acausal
