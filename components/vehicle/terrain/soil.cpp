#include "components/vehicle/terrain/soil.hpp"

#include <cstdlib>
#include <filesystem>

namespace acausal::vehicle {

std::string soil_table_file() {
  namespace fs = std::filesystem;
  std::vector<fs::path> directories;
  if (const char* dir = std::getenv("ACAUSAL_DATA_DIR")) directories.emplace_back(dir);
  directories.emplace_back(ACAUSAL_INSTALLED_DATA_DIR);
  directories.emplace_back(ACAUSAL_SOURCE_DATA_DIR);
  std::string searched;
  for (const auto& dir : directories) {
    const fs::path file = dir / "soils" / "soils.csv";
    if (fs::exists(file)) return file.string();
    searched += (searched.empty() ? "" : ", ") + dir.string();
  }
  throw ModelError("no soils/soils.csv in " + searched + " (set ACAUSAL_DATA_DIR to the directory holding soils/)");
}

std::vector<std::string> soil_names() {
  std::vector<std::string> names;
  for (const Soil& s : read_soil_table(soil_table_file())) names.push_back(s.name);
  return names;
}

Soil soil(const std::string& name) {
  const std::string file = soil_table_file();
  std::vector<std::string> names;
  for (Soil& s : read_soil_table(file)) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw ModelError("no shipped soil named '" + name + "'; the soils of " + file + " are " + known);
}

}  // namespace acausal::vehicle
