#include "components/vehicle/terrain/height_map.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

namespace acausal::vehicle {

namespace height_map_detail {

std::vector<double> csv_numbers(const std::string& line, const std::string& file, int line_number,
                                int first_field) {
  std::vector<double> values;
  std::size_t start = 0;
  for (int field = first_field;; ++field) {
    const std::size_t comma = line.find(',', start);
    std::string text = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto first = text.find_first_not_of(" \t\r"), last = text.find_last_not_of(" \t\r");
    text = first == std::string::npos ? "" : text.substr(first, last - first + 1);
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
      throw ModelError(fmt::format("{}:{}: field {} ('{}') is not a finite number", file, line_number, field, text));
    values.push_back(value);
    if (comma == std::string::npos) return values;
    start = comma + 1;
  }
}

std::vector<std::pair<int, std::string>> csv_data_lines(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw ModelError("cannot open the terrain file " + file);
  std::vector<std::pair<int, std::string>> lines;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    lines.emplace_back(number, line);
  }
  if (lines.empty()) throw ModelError(file + ": no data (a terrain file needs rows of numbers)");
  return lines;
}

}  // namespace height_map_detail

HeightProfile load_height_profile(const std::string& file, TableSmoothness smoothness) {
  using namespace height_map_detail;
  auto lines = csv_data_lines(file);
  // A header is a first line whose first field does not start like a number.
  const std::string& head = lines.front().second;
  const auto c = head.find_first_not_of(" \t");
  if (c != std::string::npos && std::string("+-.0123456789").find(head[c]) == std::string::npos)
    lines.erase(lines.begin());
  std::vector<std::pair<double, double>> points;
  for (const auto& [number, line] : lines) {
    const auto row = csv_numbers(line, file, number);
    if (row.size() != 2)
      throw ModelError(fmt::format("{}:{}: {} fields; a height profile row is s,z", file, number, row.size()));
    if (!points.empty() && !(row[0] > points.back().first))
      throw ModelError(fmt::format("{}:{}: field 1: s = {} does not increase (after {})", file, number, row[0],
                                   points.back().first));
    points.emplace_back(row[0], row[1]);
  }
  return HeightProfile(points, smoothness, file);
}

HeightMap load_height_map(const std::string& file, TableSmoothness smoothness) {
  using namespace height_map_detail;
  const auto lines = csv_data_lines(file);
  // The corner cell of the first line labels the axes: only the y values after it are read.
  const auto& [first_number, first_line] = lines.front();
  const auto comma = first_line.find(',');
  if (comma == std::string::npos)
    throw ModelError(fmt::format("{}:{}: the first line is a corner cell and the y values, comma separated", file,
                                 first_number));
  std::vector<double> y = csv_numbers(first_line.substr(comma + 1), file, first_number, 2);
  for (std::size_t j = 1; j < y.size(); ++j)
    if (!(y[j] > y[j - 1]))
      throw ModelError(fmt::format("{}:{}: field {}: y = {} does not increase (after {})", file, first_number, j + 2,
                                   y[j], y[j - 1]));
  std::vector<double> x;
  std::vector<std::vector<double>> z;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const auto& [number, line] = lines[k];
    auto row = csv_numbers(line, file, number);
    if (row.size() != y.size() + 1)
      throw ModelError(fmt::format("{}:{}: {} fields; a row is x and {} heights", file, number, row.size(), y.size()));
    if (!x.empty() && !(row[0] > x.back()))
      throw ModelError(fmt::format("{}:{}: field 1: x = {} does not increase (after {})", file, number, row[0],
                                   x.back()));
    x.push_back(row[0]);
    z.emplace_back(row.begin() + 1, row.end());
  }
  return HeightMap(std::move(x), std::move(y), z, smoothness, file);
}

}  // namespace acausal::vehicle
