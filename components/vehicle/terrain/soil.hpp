#pragma once
// Soil as data: the terramechanics parameters of a deformable soil (Bekker's
// pressure–sinkage law, Mohr–Coulomb strength, Janosi–Hanamoto shear
// deformation, Wong–Reece's position of the maximum stress under a wheel),
// a table of standard soils shipped in data/soils/soils.csv (its sources in
// data/soils/SOURCE.md), and the reader of such tables.
//
// The table file is CSV: lines starting with '#' are comments, the first
// other line is a header of column names (any order), then one soil a line:
//   name            a word ([a-z0-9_]), unique in the file
//   moisture_pct    moisture content [%]            (optional)
//   n               sinkage exponent [-]
//   k_c_kN          cohesive modulus k_c [kN/m^(n+1)]
//   k_phi_kN        frictional modulus k_phi [kN/m^(n+2)]
//   c_kPa           cohesion [kPa]
//   phi_deg         angle of internal shearing resistance [deg]
//   K_m             Janosi shear deformation modulus [m]
//   c1, c2          θm = (c1 + c2·i)·θ1 (optional; 0.43 and 0.32 when empty)
//   k_c_reece, k_phi_reece   Reece's dimensionless moduli (optional)
//   gamma_s_kN_m3   unit weight for Reece's law [kN/m3] (optional)
//   source          a short key of the row's source (see SOURCE.md) (optional)
// The units are those of the published tables (kN, kPa, degrees); Soil holds SI.
// Every mistake is a ModelError "path:line: field 'x': what is wrong".

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "components/common/text_file.hpp"
#include "solver/modeling/component.hpp"

namespace acausal::vehicle {

/// A soil's terramechanics parameters, in SI units.
struct Soil {
  static constexpr double absent = std::numeric_limits<double>::quiet_NaN();

  std::string name = "dry_sand";
  double moisture = absent;  // moisture content [%], where the source gives one
  // Bekker's pressure–sinkage law p = (k_c/b + k_phi)·z^n for a plate (or wheel) of width b.
  double n = 1.1;            // sinkage exponent [-]
  double k_c = 0.99e3;       // cohesive modulus [N/m^(n+1)]
  double k_phi = 1528.43e3;  // frictional modulus [N/m^(n+2)]
  // Mohr–Coulomb shear strength c + σ·tan(phi), reached over the Janosi–Hanamoto
  // shear displacement: τ = (c + σ·tan(phi))·(1 - exp(-j/K)).
  double c = 1.04e3;                      // cohesion [Pa]
  double phi = 28.0 * 3.14159265358979323846 / 180.0;  // internal friction angle [rad]
  double K = 0.025;                       // shear deformation modulus [m]
  // Wong–Reece: the normal stress under a driven rigid wheel peaks at θm = (c1 + c2·i)·θ1.
  double c1 = 0.43, c2 = 0.32;
  // Reece's form p = (c·k'_c + gamma_s·b·k'_phi)·(z/b)^n (optional: NaN when absent).
  double k_c_reece = absent;    // k'_c [-]
  double k_phi_reece = absent;  // k'_phi [-]
  double gamma_s = absent;      // unit weight of the soil [N/m3]
  std::string source;           // the key of the row's source in data/soils/SOURCE.md

  /// Reece's moduli and the unit weight are all given.
  bool has_reece() const { return std::isfinite(k_c_reece) && std::isfinite(k_phi_reece) && std::isfinite(gamma_s); }
  /// Bekker's sinkage modulus k_c/b + k_phi of a plate or wheel of width b [m] (N/m^(n+2)).
  double modulus(double b) const { return k_c / b + k_phi; }
  /// Sinkage of a plate of width b [m] under the pressure p [Pa]: (p / (k_c/b + k_phi))^(1/n) [m].
  double plate_sinkage(double p, double b) const { return std::pow(p / modulus(b), 1.0 / n); }
  /// Pressure under a plate of width b [m] sunk z [m]: (k_c/b + k_phi)·z^n [Pa].
  double plate_pressure(double z, double b) const { return modulus(b) * std::pow(z, n); }

  /// The soil as parameter values of the soil contacts (SoftSoilWheel,
  /// SoilTrack, SoilPlate), for Model::add: n, k_c, k_phi, c, phi_soil (the
  /// friction angle; `phi` is a wheel's angle of rotation), K, and c1, c2 with
  /// `wheel`, and Reece's k_c_reece, k_phi_reece, gamma_s when given.
  ParameterValues parameters(bool wheel = false) const {
    ParameterValues values = {{"n", n}, {"k_c", k_c}, {"k_phi", k_phi}, {"c", c}, {"phi_soil", phi}, {"K", K}};
    if (wheel) values.insert(values.end(), {{"c1", c1}, {"c2", c2}});
    if (has_reece())
      values.insert(values.end(), {{"k_c_reece", k_c_reece}, {"k_phi_reece", k_phi_reece}, {"gamma_s", gamma_s}});
    return values;
  }
};

/// `values` followed by the soil's parameter values (Soil::parameters): what
/// Model::add takes, `m.add<SoftSoilWheel>("wheel", with_soil(soil, {{"radius", 0.5}}, true))`.
inline ParameterValues with_soil(const Soil& soil, ParameterValues values = {}, bool wheel = false) {
  const ParameterValues from_soil = soil.parameters(wheel);
  values.insert(values.begin(), from_soil.begin(), from_soil.end());
  return values;
}

/// The soils of a table file (format above), in the file's order.
inline std::vector<Soil> read_soil_table(const std::string& path) {
  const std::vector<std::string> lines = text_file::lines(text_file::read(path, "soil table"));
  struct Column {
    bool required;
  };
  static const std::map<std::string, Column> known = {
      {"name", {true}},      {"moisture_pct", {false}},  {"n", {true}},           {"k_c_kN", {true}},
      {"k_phi_kN", {true}},  {"c_kPa", {true}},          {"phi_deg", {true}},     {"K_m", {true}},
      {"c1", {false}},       {"c2", {false}},            {"k_c_reece", {false}},  {"k_phi_reece", {false}},
      {"gamma_s_kN_m3", {false}}, {"source", {false}}};
  const auto split = [](const std::string& line) {
    std::vector<std::string> fields;
    std::string_view rest(line);
    for (;;) {
      const std::size_t comma = rest.find(',');
      fields.emplace_back(text_file::trim(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    return fields;
  };
  const auto is_blank = [](const std::string& line) {
    const std::string_view t = text_file::trim(line);
    return t.empty() || t.front() == '#';
  };

  std::size_t row = 0;
  while (row < lines.size() && is_blank(lines[row])) ++row;
  if (row == lines.size()) throw ModelError(fmt::format("{}: no header line (the soil table is empty)", path));
  const std::vector<std::string> header = split(lines[row]);
  const int header_line = static_cast<int>(row) + 1;
  std::map<std::string, std::size_t> column_of;
  for (std::size_t k = 0; k < header.size(); ++k) {
    if (!known.count(header[k])) {
      std::string names;
      for (const auto& [name, column] : known) names += (names.empty() ? "" : ", ") + name;
      throw ModelError(fmt::format("{}:{}: unknown column '{}' (the columns are {})", path, header_line, header[k],
                                   names));
    }
    if (!column_of.emplace(header[k], k).second)
      throw ModelError(fmt::format("{}:{}: column '{}' appears twice", path, header_line, header[k]));
  }
  for (const auto& [name, column] : known)
    if (column.required && !column_of.count(name))
      throw ModelError(fmt::format("{}:{}: the header has no column '{}'", path, header_line, name));

  std::vector<Soil> soils;
  std::set<std::string> names;
  for (++row; row < lines.size(); ++row) {
    if (is_blank(lines[row])) continue;
    const int line = static_cast<int>(row) + 1;
    const std::vector<std::string> fields = split(lines[row]);
    if (fields.size() != header.size())
      throw ModelError(fmt::format("{}:{}: {} fields, the header has {}", path, line, fields.size(), header.size()));
    const auto text = [&](const std::string& column) -> std::string {
      const auto it = column_of.find(column);
      return it == column_of.end() ? std::string() : fields[it->second];
    };
    const auto fail = [&](const std::string& column, const std::string& what) {
      return ModelError(fmt::format("{}:{}: field '{}' = '{}': {}", path, line, column, text(column), what));
    };
    // A number; an empty optional field is NaN (absent).
    const auto number = [&](const std::string& column) {
      const std::string value = text(column);
      if (value.empty()) {
        if (known.at(column).required) throw fail(column, "a value is required");
        return Soil::absent;
      }
      char* end = nullptr;
      errno = 0;
      const double x = std::strtod(value.c_str(), &end);
      if (end != value.c_str() + value.size() || errno == ERANGE || !std::isfinite(x))
        throw fail(column, "not a finite number");
      return x;
    };
    // A number that, when given, must satisfy `ok` (scaled to SI by `scale`).
    const auto value = [&](const std::string& column, double scale, auto ok, const char* rule) {
      const double x = number(column);
      if (std::isfinite(x) && !ok(x)) throw fail(column, rule);
      return scale * x;
    };
    const auto positive = [](double x) { return x > 0; };
    const auto non_negative = [](double x) { return x >= 0; };
    const auto fraction = [](double x) { return x >= 0 && x < 1; };

    Soil s;
    s.name = text("name");
    if (s.name.empty()) throw fail("name", "a value is required");
    for (char ch : s.name)
      if (!(std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_'))
        throw fail("name", "a name is lower-case letters, digits and '_'");
    if (!names.insert(s.name).second) throw fail("name", "this name appears twice in the file");
    s.moisture = value("moisture_pct", 1.0, [](double x) { return x >= 0 && x <= 100; }, "must be in [0, 100]");
    s.n = value("n", 1.0, positive, "the sinkage exponent must be positive");
    s.k_c = value("k_c_kN", 1e3, non_negative, "must be at least 0");
    s.k_phi = value("k_phi_kN", 1e3, non_negative, "must be at least 0");
    if (!(s.k_c + s.k_phi > 0)) throw fail("k_phi_kN", "k_c and k_phi cannot both be 0 (the soil would carry no load)");
    s.c = value("c_kPa", 1e3, non_negative, "must be at least 0");
    s.phi = value("phi_deg", 3.14159265358979323846 / 180.0, [](double x) { return x >= 0 && x < 90; },
                  "must be in [0, 90) degrees");
    s.K = value("K_m", 1.0, positive, "the shear deformation modulus must be positive");
    const double c1 = value("c1", 1.0, fraction, "must be in [0, 1)");
    const double c2 = value("c2", 1.0, fraction, "must be in [0, 1)");
    if (std::isfinite(c1)) s.c1 = c1;
    if (std::isfinite(c2)) s.c2 = c2;
    s.k_c_reece = value("k_c_reece", 1.0, non_negative, "must be at least 0");
    s.k_phi_reece = value("k_phi_reece", 1.0, non_negative, "must be at least 0");
    s.gamma_s = value("gamma_s_kN_m3", 1e3, positive, "must be positive");
    const int reece_given = std::isfinite(s.k_c_reece) + std::isfinite(s.k_phi_reece) + std::isfinite(s.gamma_s);
    if (reece_given != 0 && reece_given != 3)
      throw fail("k_c_reece", "Reece's law needs all of k_c_reece, k_phi_reece and gamma_s_kN_m3, or none");
    s.source = text("source");
    soils.push_back(std::move(s));
  }
  if (soils.empty()) throw ModelError(fmt::format("{}: the soil table has a header but no soil", path));
  return soils;
}

/// The soil `name` of a table file; a ModelError listing the file's soils when it has none of that name.
inline Soil read_soil(const std::string& path, const std::string& name) {
  std::vector<std::string> have;
  for (Soil& s : read_soil_table(path)) {
    if (s.name == name) return s;
    have.push_back(s.name);
  }
  throw ModelError(fmt::format("{}: no soil named '{}'; the file has {}", path, name, fmt::join(have, ", ")));
}

/// The shipped table, data/soils/soils.csv: found in $ACAUSAL_DATA_DIR, else
/// the installed share/acausal, else the source tree's data/.
std::string soil_table_file();
/// The names of the shipped soils, in the table's order.
std::vector<std::string> soil_names();
/// A shipped soil by name (soil_names()); a ModelError listing them for an unknown one.
Soil soil(const std::string& name);

}  // namespace acausal::vehicle
