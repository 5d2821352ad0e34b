#include "fmi/check/result_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace acausal::fmi::check {

namespace {

// A constant reference column has no range to scale by: compare it absolutely, at a level far below any
// physical resolution but well above zero so the division stays finite.
constexpr double kSmallestScale = 1e-12;

// Reference times may sit just outside the result's span because of decimal printing; this fraction of the
// span is accepted as the same end point.
constexpr double kEndSlack = 1e-9;

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::vector<std::string> split_csv_line(std::string_view line, const std::string& path, std::size_t line_number) {
  std::vector<std::string> fields(1);
  bool in_quotes = false;
  for (std::size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (in_quotes && c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
      fields.back() += '"';
      ++k;
    } else if (c == '"') {
      in_quotes = !in_quotes;
    } else if (c == ',' && !in_quotes) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (in_quotes) throw std::runtime_error(fmt::format("{}:{}: unterminated quote", path, line_number));
  return fields;
}

double parse_value(std::string_view text, const std::string& path, std::size_t line_number) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);  // from_chars refuses a leading plus
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw std::runtime_error(fmt::format("{}:{}: '{}' is not a number", path, line_number, text));
  return value;
}

// Both NaN counts as agreement: a model that legitimately produces NaN should match its own reference.
double relative_error(double result, double reference, double scale) {
  if (std::isnan(result) && std::isnan(reference)) return 0;
  if (std::isnan(result) || std::isnan(reference)) return std::numeric_limits<double>::infinity();
  if (result == reference) return 0;  // equal infinities
  return std::abs(result - reference) / scale;
}

// Linear interpolation of column `column` of `result` at time t, which lies within the result's span.
double interpolate(const ResultTable& result, std::size_t column, double t) {
  const std::vector<double>& times = result.times;
  auto after = std::upper_bound(times.begin(), times.end(), t);
  if (after == times.begin()) return result.rows.front()[column];
  if (after == times.end()) return result.rows.back()[column];
  std::size_t upper = static_cast<std::size_t>(after - times.begin());
  std::size_t lower = upper - 1;
  double t0 = times[lower];
  double t1 = times[upper];
  double y0 = result.rows[lower][column];
  double y1 = result.rows[upper][column];
  if (t == t0 || t1 == t0) return y0;
  return y0 + (y1 - y0) * ((t - t0) / (t1 - t0));
}

ColumnComparison compare_column(const ResultTable& result, const ResultTable& reference, std::size_t column,
                                double tolerance) {
  ColumnComparison comparison;
  comparison.name = reference.names[column];
  auto found = std::find(result.names.begin(), result.names.end(), comparison.name);
  if (found == result.names.end()) {
    comparison.problem = "not in the result";
    return comparison;
  }
  std::size_t result_column = static_cast<std::size_t>(found - result.names.begin());
  double lowest = std::numeric_limits<double>::infinity();
  double highest = -std::numeric_limits<double>::infinity();
  for (const std::vector<double>& row : reference.rows) {
    if (std::isfinite(row[column])) {
      lowest = std::min(lowest, row[column]);
      highest = std::max(highest, row[column]);
    }
  }
  double scale = std::max(highest > lowest ? highest - lowest : 0.0, kSmallestScale);
  double first = result.times.front();
  double last = result.times.back();
  double slack = kEndSlack * std::max(last - first, std::abs(last));
  for (std::size_t k = 0; k < reference.times.size(); ++k) {
    double t = reference.times[k];
    if (t < first - slack || t > last + slack) {
      comparison.problem = fmt::format("the reference has time {} outside the result's [{}, {}]", t, first, last);
      return comparison;
    }
    double error = relative_error(interpolate(result, result_column, t), reference.rows[k][column], scale);
    if (error > comparison.largest_error || k == 0) {
      comparison.largest_error = error;
      comparison.worst_time = t;
    }
  }
  comparison.passed = comparison.largest_error < tolerance;
  return comparison;
}

}  // namespace

void write_csv(const std::string& path, const ResultTable& table) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot open for writing", path));
  std::string text = "time";
  for (const std::string& name : table.names) text += "," + csv_field(name);
  text += '\n';
  for (std::size_t k = 0; k < table.times.size(); ++k) {
    text += fmt::format("{:.17g}", table.times[k]);
    for (double value : table.rows[k]) text += fmt::format(",{:.17g}", value);
    text += '\n';
  }
  out << text;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path));
}

ResultTable read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", path));
  ResultTable table;
  std::string line;
  std::size_t line_number = 0;
  bool header_read = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::vector<std::string> fields = split_csv_line(line, path, line_number);
    if (!header_read) {
      table.names.assign(fields.begin() + 1, fields.end());
      header_read = true;
      continue;
    }
    if (fields.size() != table.names.size() + 1)
      throw std::runtime_error(fmt::format("{}:{}: {} values where the header names {} columns", path, line_number,
                                           fields.size(), table.names.size() + 1));
    double time = parse_value(fields[0], path, line_number);
    if (!table.times.empty() && time < table.times.back())
      throw std::runtime_error(
          fmt::format("{}:{}: time {} goes back from {}", path, line_number, time, table.times.back()));
    table.times.push_back(time);
    std::vector<double> row;
    row.reserve(table.names.size());
    for (std::size_t j = 1; j < fields.size(); ++j) row.push_back(parse_value(fields[j], path, line_number));
    table.rows.push_back(std::move(row));
  }
  if (!header_read) throw std::runtime_error(fmt::format("{}: empty, not even a header", path));
  return table;
}

Comparison compare_with_reference(const ResultTable& result, const ResultTable& reference, double tolerance) {
  Comparison comparison;
  comparison.passed = true;
  for (std::size_t column = 0; column < reference.names.size(); ++column) {
    if (result.times.empty() || reference.times.empty()) {
      ColumnComparison empty{reference.names[column], 0, 0, false, "no rows to compare"};
      comparison.columns.push_back(std::move(empty));
    } else {
      comparison.columns.push_back(compare_column(result, reference, column, tolerance));
    }
    comparison.passed = comparison.passed && comparison.columns.back().passed;
  }
  return comparison;
}

}  // namespace acausal::fmi::check
