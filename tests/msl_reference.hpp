// MSL reference results (tests/data/msl, see the README files there): a CSV
// reader and interpolation of a trajectory at the reference's times.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace acausal::test {

// The data folder: given by the build (ACAUSAL_TEST_DATA_DIR), else next to this file.
inline std::filesystem::path data_dir() {
#ifdef ACAUSAL_TEST_DATA_DIR
  return ACAUSAL_TEST_DATA_DIR;
#else
  return std::filesystem::path(__FILE__).parent_path() / "data";
#endif
}

struct Table {
  std::vector<std::string> names;           // header, time first
  std::vector<std::vector<double>> columns;  // one per name
  const std::vector<double>& column(const std::string& name) const {
    auto it = std::find(names.begin(), names.end(), name);
    INFO("column " << name);
    REQUIRE(it != names.end());
    return columns[static_cast<std::size_t>(it - names.begin())];
  }
};

inline Table read_csv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) FAIL("cannot open " << path.string());
  Table table;
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) {
      cell.erase(std::remove(cell.begin(), cell.end(), '"'), cell.end());
      cell.erase(std::remove(cell.begin(), cell.end(), '\r'), cell.end());
      cells.push_back(cell);
    }
    return cells;
  };
  std::string line;
  std::getline(in, line);
  table.names = split(line);
  table.columns.resize(table.names.size());
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto cells = split(line);
    REQUIRE(cells.size() == table.names.size());
    for (std::size_t j = 0; j < cells.size(); ++j) table.columns[j].push_back(std::stod(cells[j]));
  }
  return table;
}

// v(t) from an output trajectory, linear between rows (an event instant appears
// twice in t; the signals compared here are continuous there).
inline double at(const std::vector<double>& t, const std::vector<double>& v, double time) {
  auto k = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), time) - t.begin());
  if (k == t.size()) return v.back();
  if (k == 0 || std::fabs(t[k] - time) < 1e-12) return v[k];
  double s = (time - t[k - 1]) / (t[k] - t[k - 1]);
  return v[k - 1] + s * (v[k] - v[k - 1]);
}

}  // namespace acausal::test
