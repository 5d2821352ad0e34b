// MSL reference results (tests/data/msl, see the README files there): a CSV
// reader and interpolation of a trajectory at the reference's times.
#pragma once

#include <catch2/catch.hpp>

#include <acausal/acausal.hpp>

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

// MSL's name of a vector element ("and1.u[1]") as the library names it
// ("and1.u1": connector names are identifiers).
inline std::string library_name(std::string name) {
  name.erase(std::remove(name.begin(), name.end(), '['), name.end());
  name.erase(std::remove(name.begin(), name.end(), ']'), name.end());
  return name;
}

// The worst deviation of each reference column over the reference's rows,
// relative to the column's range (at least 1), CHECKed against `tolerance`
// with a line per signal; `discrete_signals` are skipped near events (ours and
// the reference's). Returns the worst over the columns.
inline double compare_with_reference(const Result& r, const std::string& reference_file,
                                     const std::vector<std::string>& discrete_signals = {},
                                     double tolerance = 1e-3) {
  const Table ref = read_csv(data_dir() / "msl" / reference_file);
  const auto& t_ref = ref.column("time");
  // Instants near which the discrete signals may differ: the reference's
  // events (repeated times) and ours.
  std::vector<double> events = r.event_times();
  for (std::size_t k = 1; k < t_ref.size(); ++k)
    if (t_ref[k] == t_ref[k - 1]) events.push_back(t_ref[k]);
  auto near_event = [&](double t) {
    for (double e : events)
      if (std::fabs(t - e) < 2e-3) return true;
    return false;
  };
  double worst_overall = 0;
  for (std::size_t j = 1; j < ref.names.size(); ++j) {
    const std::string& name = ref.names[j];
    const bool discrete = std::find(discrete_signals.begin(), discrete_signals.end(), name) != discrete_signals.end();
    const auto& expected = ref.columns[j];
    const auto ours = r[library_name(name)];
    const auto [lo, hi] = std::minmax_element(expected.begin(), expected.end());
    const double range = std::max(*hi - *lo, 1.0);
    double worst = 0, worst_at = 0;
    for (std::size_t k = 0; k < t_ref.size(); ++k) {
      if (discrete && near_event(t_ref[k])) continue;
      // A reference row at an event (its time twice) is a left or a right
      // limit, of one of several events perhaps a picosecond apart: compared
      // with ours just before or just after (the two integrations place an
      // event up to about 1e-7 s apart), whichever it is.
      const double t = t_ref[k];
      auto deviation_at = [&](double time) { return std::fabs(at(r.time(), ours, time) - expected[k]) / range; };
      const bool event_row = (k + 1 < t_ref.size() && t_ref[k + 1] == t) || (k > 0 && t_ref[k - 1] == t);
      const double deviation =
          event_row ? std::min(deviation_at(t - 1e-5), deviation_at(t + 1e-5)) : deviation_at(t);
      if (deviation > worst) worst = deviation, worst_at = t_ref[k];
    }
    UNSCOPED_INFO(reference_file << ": " << name << " worst " << worst << " of its range at t = " << worst_at);
    CHECK(worst <= tolerance);
    worst_overall = std::max(worst_overall, worst);
  }
  return worst_overall;
}

}  // namespace acausal::test
