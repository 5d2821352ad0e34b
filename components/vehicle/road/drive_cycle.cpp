#include "components/vehicle/road/drive_cycle.hpp"

#include <cstdlib>
#include <filesystem>

namespace acausal::vehicle {

std::vector<std::string> drive_cycle_names() { return {"wltc3b", "nedc", "udds", "ftp75", "hwfet", "us06"}; }

std::string drive_cycle_file(const std::string& name) {
  std::string known;
  bool found = false;
  for (const auto& n : drive_cycle_names()) {
    known += (known.empty() ? "" : ", ") + n;
    found |= n == name;
  }
  if (!found) throw ModelError("no drive cycle named '" + name + "'; the shipped cycles are " + known);
  namespace fs = std::filesystem;
  std::vector<fs::path> directories;
  if (const char* dir = std::getenv("ACAUSAL_DATA_DIR")) directories.emplace_back(dir);
  directories.emplace_back(ACAUSAL_INSTALLED_DATA_DIR);
  directories.emplace_back(ACAUSAL_SOURCE_DATA_DIR);
  std::string searched;
  for (const auto& dir : directories) {
    const fs::path file = dir / "cycles" / (name + ".csv");
    if (fs::exists(file)) return file.string();
    searched += (searched.empty() ? "" : ", ") + dir.string();
  }
  throw ModelError("drive cycle '" + name + "': no cycles/" + name + ".csv in " + searched +
                   " (set ACAUSAL_DATA_DIR to the directory holding cycles/)");
}

}  // namespace acausal::vehicle
