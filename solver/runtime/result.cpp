#include "solver/runtime/result.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>


#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "solver/lower/evaluation.hpp"
#include "solver/runtime/atomic_file.hpp"

namespace acausal {

bool Result::has(const std::string& name) const {
  return model_ && model_->variable_by_name.count(name) > 0;
}

std::vector<std::string> Result::names() const {
  return model_ ? model_->variable_names() : std::vector<std::string>{};
}

std::vector<std::vector<double>> Result::columns(const std::vector<std::string>& names) const {
  if (!model_) throw ModelError("empty result has no variables");
  const CompiledModel& m = *model_;
  std::vector<Expr> values;
  for (const auto& name : names) {
    auto it = m.variable_by_name.find(name);
    if (it == m.variable_by_name.end())
      throw UnknownNameError("the result of model '" + m.dae.model_name + "'", "variable", name, Result::names());
    values.push_back(m.value_of(it->second));
  }
  return tabulate(values);
}

std::vector<std::vector<double>> Result::evaluate(const std::vector<Expr>& expressions) const {
  if (!model_) throw ModelError("empty result has no variables");
  const CompiledModel& m = *model_;
  // Variables become what the compiled model computes them from; a derivative
  // of one, the time derivative of that.
  auto value = [&](const Node* leaf) -> const Node* {
    int v = m.dae.variable_index(leaf);
    if (v < 0)
      throw ModelError("evaluate: " + to_string(Expr(leaf), [](const Node* n) { return symbol_name(n); }) +
                       " is not a variable of model '" + m.dae.model_name + "'");
    Expr x = m.value_of(v);
    for (const Node* d = leaf; d->op == Op::Der; d = d->arg[0]) x = der(x);
    return x.node();
  };
  Rewriter substitute([&](const Node* leaf) -> const Node* {
    if (leaf->op == Op::Var || leaf->op == Op::Der) return value(leaf);
    if (leaf->op == Op::Param && !m.dae.parameter_of.contains(leaf))
      throw ModelError("evaluate: parameter " + symbol_name(leaf) + " is not a parameter of model '" +
                       m.dae.model_name + "'");
    return nullptr;
  });
  std::vector<Expr> values;
  for (const auto& e : expressions) values.push_back(substitute(e));
  return tabulate(values);
}

std::vector<double> Result::evaluate(const Expr& e) const { return evaluate(std::vector<Expr>{e}).front(); }

std::string Result::describe(const Expr& e) const { return model_ ? model_->dae.print(e) : e.str(); }

namespace {

const DaeVariable& variable_named(const CompiledModel& m, const std::string& name, const Result& r, int* index) {
  auto it = m.variable_by_name.find(name);
  if (it == m.variable_by_name.end())
    throw UnknownNameError("the result of model '" + m.dae.model_name + "'", "variable", name, r.names());
  *index = it->second;
  return m.dae.variables[it->second];
}

}  // namespace

std::string Result::describe(const std::string& name) const {
  if (!model_) throw ModelError("an empty result has no variables");
  const CompiledModel& m = *model_;
  int index = -1;
  const DaeVariable& v = variable_named(m, name, *this, &index);
  const std::string head = v.name + (v.unit.empty() ? "" : " [" + v.unit + "]");
  if (const int slot = m.slot_of_variable[index]; slot >= 0)
    return head + (m.differential[slot] != 0 ? ": a state" : ": an algebraic unknown") + ", integrated by IDA";
  const std::string definition = m.dae.print(Expr(v.definition), 300);
  if (v.solved_from >= 0)
    return head + ": observed, = " + definition + ", solved from " +
           m.dae.describe(m.dae.consumed_equations[v.solved_from]);
  if (v.fixed_by >= 0) return head + ": fixed by parameters, = " + definition;
  return head + ": an alias, = " + definition;
}

std::string Result::unit(const std::string& name) const {
  if (!model_) throw ModelError("an empty result has no variables");
  int index = -1;
  return variable_named(*model_, name, *this, &index).unit;
}

std::vector<ParameterInfo> Result::parameters() const {
  return model_ ? parameter_table(*model_, parameters_) : std::vector<ParameterInfo>{};
}

OperatingPoint Result::point(double t) const {
  if (!model_ || time_.empty()) throw ModelError("an empty result has no rows");
  // NaN compares false with every time, so the search below would land past
  // the last row, and the tolerance test (also false) would accept it.
  if (!std::isfinite(t))
    throw ModelError(fmt::format("point(t = {}): the result of model '{}' has rows only at finite times", t,
                                 model_->dae.model_name));
  auto after = std::upper_bound(time_.begin(), time_.end(), t);
  const double tolerance = 1e-12 * (1.0 + std::fabs(t));
  if (after == time_.begin() || std::fabs(*(after - 1) - t) > tolerance)
    throw ModelError(fmt::format("the result of model '{}' has no row at t = {} (its rows span [{}, {}]); simulate "
                                 "with t_eval including {} to have one",
                                 model_->dae.model_name, format_number(t), format_number(time_.front()),
                                 format_number(time_.back()), format_number(t)));
  const std::size_t row = static_cast<std::size_t>(after - time_.begin()) - 1;
  const std::size_t n = model_->n, n_frozen = model_->n_frozen();
  OperatingPoint p;
  p.time = time_[row];
  p.y.assign(y_.begin() + row * n, y_.begin() + (row + 1) * n);
  p.yp.assign(yp_.begin() + row * n, yp_.begin() + (row + 1) * n);
  p.frozen.assign(modes_.begin() + row * n_frozen, modes_.begin() + (row + 1) * n_frozen);
  p.parameters = parameters_;  // as this row read them: a session may have changed some before it
  for (const auto& [first, values] : parameter_changes_)
    if (first <= row) p.parameters = values;
  return p;
}

std::vector<ParameterInfo> parameter_table(const CompiledModel& m, const std::vector<double>& values) {
  std::vector<ParameterInfo> out;
  out.reserve(m.dae.parameters.size());
  for (std::size_t k = 0; k < m.dae.parameters.size(); ++k) {
    const DaeParameter& p = m.dae.parameters[k];
    out.push_back({p.name, values[k], p.attributes.unit, p.attributes.min, p.attributes.max, p.attributes.description,
                   p.attributes.structural || !p.attributes.choices.empty(), p.attributes.input});
  }
  return out;
}

// Rows are loaded in order: `change` follows the session's parameter changes (start it at 0).
void Result::load_row(std::size_t row, std::size_t& change, double* in) const {
  const CompiledModel& m = *model_;
  if (row == 0) std::copy(parameters_.begin(), parameters_.end(), in + m.parameter_register());
  for (; change < parameter_changes_.size() && parameter_changes_[change].first <= row; ++change)
    std::copy(parameter_changes_[change].second.begin(), parameter_changes_[change].second.end(),
              in + m.parameter_register());
  in[0] = time_[row];
  in[1] = 0.0;
  // copy_n, not memcpy: a model without unknowns has empty (null) rows
  std::copy_n(y_.data() + row * m.n, m.n, in + 2);
  std::copy_n(yp_.data() + row * m.n, m.n, in + 2 + m.n);
  const std::size_t n_frozen = m.n_frozen();
  std::copy_n(modes_.data() + row * n_frozen, n_frozen, in + m.mode_register());
}

std::vector<std::vector<double>> Result::tabulate(const std::vector<Expr>& values) const {
  Tape tape = model_->observer(values);
  std::vector<std::vector<double>> out(values.size(), std::vector<double>(time_.size()));
  std::size_t change = 0;
  for (std::size_t row = 0; row < time_.size(); ++row) {
    load_row(row, change, tape.inputs());
    tape.run();
    for (std::size_t c = 0; c < values.size(); ++c) out[c][row] = tape.output(c);
  }
  return out;
}

// The chain rule on the variable's expression: its partials by the unknowns it
// reads times their sensitivities, plus its partial by the parameter itself.
std::vector<double> Result::sensitivity(const std::string& variable, const std::string& parameter) const {
  if (!model_) throw ModelError("an empty result has no sensitivities");
  const CompiledModel& m = *model_;
  const auto which = std::find(sensitivity_parameters_.begin(), sensitivity_parameters_.end(), parameter);
  if (which == sensitivity_parameters_.end()) {
    if (sensitivity_parameters_.empty())
      throw ModelError("sensitivity(" + variable + ", " + parameter + "): the run computed no sensitivities; " +
                       "simulate with sensitivities = {\"" + parameter + "\"}");
    throw UnknownNameError("sensitivity(" + variable + ")", "parameter whose sensitivity the run computed", parameter,
                           sensitivity_parameters_);
  }
  const std::size_t j = which - sensitivity_parameters_.begin();
  auto v = m.variable_by_name.find(variable);
  if (v == m.variable_by_name.end())
    throw UnknownNameError("sensitivity(" + variable + ", " + parameter + ")", "variable", variable, names());
  const Expr value = m.value_of(v->second);
  std::vector<Expr> partials;
  std::vector<std::pair<int, bool>> leaves;  // (slot, derivative)
  for (const auto& [leaf, d] : gradient(value)) {
    leaves.emplace_back(m.slot_of_variable[m.dae.variable_index(leaf)], leaf->op == Op::Der);
    partials.push_back(d);
  }
  partials.push_back(diff(value, Expr(m.dae.parameters[m.parameter_by_name.at(parameter)].symbol)));
  Tape tape = m.observer(partials);
  const std::size_t n = m.n, per_row = 2 * n * sensitivity_parameters_.size();
  std::vector<double> out(time_.size());
  std::size_t change = 0;
  for (std::size_t row = 0; row < time_.size(); ++row) {
    load_row(row, change, tape.inputs());
    tape.run();
    const double* s = sensitivities_.data() + row * per_row + j * 2 * n;
    double total = tape.output(leaves.size());
    for (std::size_t l = 0; l < leaves.size(); ++l)
      total += tape.output(l) * s[(leaves[l].second ? n : 0) + leaves[l].first];
    out[row] = total;
  }
  return out;
}

std::vector<double> Result::operator[](const std::string& name) const { return columns({name}).front(); }


void Result::write_csv(const std::string& path, const std::vector<std::string>& wanted) const {
  std::vector<std::string> header = wanted.empty() ? names() : wanted;
  auto data = columns(header);
  write_file_atomically(path, "write_csv", [&](std::FILE* out) {
    // Shortest round-trip form: the file reads back to the same doubles, in a
    // fraction of the time (and size) of 17 fixed digits.
    std::string text;
    bool written = true;
    auto flush = [&] {
      written = written && std::fwrite(text.data(), 1, text.size(), out) == text.size();
      text.clear();
    };
    text = fmt::format("time,{}\n", fmt::join(header, ","));
    char number[32];
    auto append = [&](double x) { text.append(number, fmt::format_to(number, FMT_COMPILE("{}"), x)); };
    for (std::size_t row = 0; row < time_.size(); ++row) {
      append(time_[row]);
      for (const auto& column : data) {
        text.push_back(',');
        append(column[row]);
      }
      text.push_back('\n');
      if (text.size() > (1u << 20)) flush();
    }
    flush();
    return written;
  });
}

namespace {

// One MAT v4 matrix: the header (type, rows, columns, no imaginary part, name length with its NUL), the name, the
// values column by column. type: 0 double, 20 int32, 51 text (uint8), little-endian (M = 0).
void mat_matrix(std::string& out, const char* name, int type, int rows, int cols, const void* data, std::size_t bytes) {
  const std::int32_t header[5] = {type, rows, cols, 0, static_cast<std::int32_t>(std::strlen(name) + 1)};
  out.append(reinterpret_cast<const char*>(header), sizeof header);
  out.append(name, std::strlen(name) + 1);
  out.append(static_cast<const char*>(data), bytes);
}

// Strings as a text matrix of one column per string (binTrans), padded with blanks.
void mat_strings(std::string& out, const char* name, const std::vector<std::string>& strings) {
  std::size_t length = 1;
  for (const auto& s : strings) length = std::max(length, s.size());
  std::string text;
  for (const auto& s : strings) text += s + std::string(length - s.size(), ' ');
  mat_matrix(out, name, 51, static_cast<int>(length), static_cast<int>(strings.size()), text.data(), text.size());
}

}  // namespace

void Result::write_mat(const std::string& path) const {
  static_assert(std::endian::native == std::endian::little, "write_mat writes little-endian MAT v4");
  const std::vector<std::string> variables = names();
  std::vector<ParameterInfo> parameters;
  for (auto& p : this->parameters())
    if (!p.structural && std::find(variables.begin(), variables.end(), p.name) == variables.end())
      parameters.push_back(std::move(p));
  std::vector<std::string> all{"time"}, descriptions{"Simulation time [s]"};
  std::vector<std::int32_t> info{0, 1, 0, -1};  // time: the abscissa of both data matrices
  for (std::size_t k = 0; k < parameters.size(); ++k) {
    all.push_back(parameters[k].name);
    descriptions.push_back(parameters[k].unit.empty() ? parameters[k].description
                                                      : fmt::format("{} [{}]", parameters[k].description,
                                                                    parameters[k].unit));
    info.insert(info.end(), {1, static_cast<std::int32_t>(k + 2), 0, 0});
  }
  for (std::size_t k = 0; k < variables.size(); ++k) {
    all.push_back(variables[k]);
    const std::string u = unit(variables[k]);
    descriptions.push_back(u.empty() ? "" : fmt::format("[{}]", u));
    info.insert(info.end(), {2, static_cast<std::int32_t>(k + 2), 0, -1});
  }
  const double t0 = time_.empty() ? 0.0 : time_.front(), t1 = time_.empty() ? 0.0 : time_.back();
  // Column-major (MAT v4), one column per instant: t0 and the parameters, then t1 and the same.
  std::vector<double> data1;
  for (double t : {t0, t1}) {
    data1.push_back(t);
    for (const auto& p : parameters) data1.push_back(p.value);
  }
  const auto columns_of = columns(variables);
  const std::size_t width = variables.size() + 1;
  std::vector<double> data2(width * time_.size());
  for (std::size_t row = 0; row < time_.size(); ++row) {
    data2[row * width] = time_[row];
    for (std::size_t k = 0; k < variables.size(); ++k) data2[row * width + k + 1] = columns_of[k][row];
  }
  std::string bytes;
  // Aclass is read row-wise: its four strings are its rows, not its columns.
  {
    const std::int32_t rows = 4, cols = 11;
    std::string text(rows * cols, ' ');
    const char* lines[] = {"Atrajectory", "1.1", "", "binTrans"};
    for (int r = 0; r < rows; ++r)
      for (int c = 0; lines[r][c]; ++c) text[static_cast<std::size_t>(c) * rows + r] = lines[r][c];
    mat_matrix(bytes, "Aclass", 51, rows, cols, text.data(), text.size());
  }
  mat_strings(bytes, "name", all);
  mat_strings(bytes, "description", descriptions);
  mat_matrix(bytes, "dataInfo", 20, 4, static_cast<int>(all.size()), info.data(), info.size() * sizeof(std::int32_t));
  mat_matrix(bytes, "data_1", 0, static_cast<int>(parameters.size() + 1), 2, data1.data(), data1.size() * sizeof(double));
  mat_matrix(bytes, "data_2", 0, static_cast<int>(width), static_cast<int>(time_.size()), data2.data(),
             data2.size() * sizeof(double));

  write_file_atomically(path, "write_mat", [&](std::FILE* out) {
    return std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  });
}

}  // namespace acausal
