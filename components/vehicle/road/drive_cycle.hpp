#pragma once

#include <string>
#include <utility>
#include <vector>

#include "components/blocks/sources/combi_time_table.hpp"
#include "components/blocks/tables/table_file.hpp"
#include "connectors/signal.hpp"

namespace acausal::vehicle {

/// The standard cycles shipped with the library (data/cycles; sources and
/// checks in data/cycles/SOURCE.md): wltc3b, nedc, udds, ftp75, hwfet, us06.
std::vector<std::string> drive_cycle_names();
/// The CSV file of a shipped cycle (`time_s,speed_kmh`, 1 Hz); a ModelError
/// listing the names for an unknown one. The data directory is
/// $ACAUSAL_DATA_DIR, else the installed share/acausal, else the source tree's data/.
std::string drive_cycle_file(const std::string& name);

/// A drive cycle's speed trace as a source: v_ref (linear between the
/// cycle's points, read on its current segment: each point is an event, so
/// the integrator never steps across a kink), a_ref (its slope, constant on
/// each segment: the feed-forward a test driver reads off the trace) and
/// v_preview, the reference `preview` seconds ahead (a driver's look-ahead;
/// read without events). Before the start and after the end the first and
/// last speeds hold. set_cycle(), load() or set_table() before compiling.
struct DriveCycle : Component {
  RealOutput v_ref{*this, "v_ref", {.unit = "m/s"}};
  RealOutput a_ref{*this, "a_ref", {.unit = "m/s2"}};
  RealOutput v_preview{*this, "v_preview", {.unit = "m/s"}};
  Parameter preview = parameter("preview", 0.5, {.unit = "s", .min = 0, .description = "look-ahead of v_preview"});
  blocks::CombiTimeTable& table =
      add<blocks::CombiTimeTable>("table", {{"extrapolation", blocks::Extrapolation::HoldLastPoint}});
  double duration = 0;  // s, the cycle's last time
  std::string cycle_name;  // the shipped cycle's name, or the file read

  explicit DriveCycle(std::string name) : Component(std::move(name)) {}

  /// A shipped cycle by name (drive_cycle_names()).
  void set_cycle(const std::string& name) {
    std::string file;
    try {
      file = drive_cycle_file(name);
    } catch (const ModelError& e) {
      throw ModelError("DriveCycle '" + path() + "': " + e.what());
    }
    load(file);
    cycle_name = name;
  }

  /// A CSV with a header: time [s] and speed in speed_unit ("km/h", "m/s" or "mph").
  void load(const std::string& file, const std::string& time_column = "1", const std::string& speed_column = "2",
            const std::string& speed_unit = "km/h") {
    const double scale = speed_unit == "km/h" ? 1 / 3.6
                         : speed_unit == "m/s" ? 1.0
                         : speed_unit == "mph" ? 0.44704
                                               : throw ModelError("DriveCycle '" + path() + "': speed unit '" +
                                                                  speed_unit + "' is not km/h, m/s or mph");
    const blocks::TableFile read = blocks::read_csv_table(file);
    const auto times = read.column(time_column), speeds = read.column(speed_column);
    std::vector<std::pair<double, double>> points;
    for (std::size_t k = 0; k < times.size(); ++k) points.emplace_back(times[k], speeds[k] * scale);
    set_table(points);
    cycle_name = file;
  }

  /// (time [s], speed [m/s]) points; times must increase.
  void set_table(const std::vector<std::pair<double, double>>& points) {
    std::vector<std::vector<double>> rows;
    Table1D trace;
    for (std::size_t k = 0; k < points.size(); ++k) {
      if (k > 0 && !(points[k].first > points[k - 1].first))
        throw ModelError("DriveCycle '" + path() + "': the times must increase (point " + std::to_string(k + 1) + ")");
      rows.push_back({points[k].first, points[k].second});
      trace.x.push_back(points[k].first);
      trace.y.push_back(points[k].second);
    }
    table.set_table(rows);
    duration = points.back().first;
    cycle_name = "a table of " + std::to_string(points.size()) + " points";
    equation(v_ref == *table.y[0]);
    equation(a_ref == table.rate(0));
    equation(v_preview == acausal::table(time_symbol() + preview, trace));
  }
};

}  // namespace acausal::vehicle
