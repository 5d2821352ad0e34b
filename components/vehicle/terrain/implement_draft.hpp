#pragma once
// Tillage implement draft (ASABE D497, the draft equation of Agricultural
// Machinery Management Data) and a table of its published parameters.

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "connectors/translational.hpp"
#include "solver/modeling/component.hpp"

namespace acausal::vehicle {

/// Soil texture classes of ASABE D497 (the index i of its F_i).
enum class SoilTexture : int { fine = 0, medium = 1, coarse = 2 };

/// One row of ASABE D497 Table 1: F = F_i·[A + B·S + C·S²]·W·T, with F in N,
/// S the speed in km/h, W the width in m (per_tool = false) or the number of
/// tools or rows (per_tool = true), T the tillage depth in cm. A in N per
/// width unit per cm, B in N·h/km and C in N·h²/km² per width unit per cm.
struct TillageImplement {
  const char* name;
  bool per_tool;
  double A, B, C;
  std::array<double, 3> F;  // F_1 fine, F_2 medium, F_3 coarse textured soil
  double range_pct;         // the standard's expected spread of measured drafts, ±%
};

/// Rows of ASABE D497.7 (2015, R2020), "Agricultural Machinery Management
/// Data", Table 1 "Draft parameters and expected range in drafts estimated by
/// the equation" (the same values appear in D497.4 (2003) and D497.5),
/// transcribed for the main primary and secondary tillage tools. Source:
/// ASABE Standards, American Society of Agricultural and Biological Engineers,
/// St. Joseph, MI. The standard's drafts are averages for typical conditions;
/// measured drafts spread by ±range_pct.
inline const std::vector<TillageImplement>& asabe_d497_implements() {
  static const std::vector<TillageImplement> rows = {
      // name                           per_tool  A     B     C    F fine, medium, coarse   ±%
      {"subsoiler_narrow_point", true, 226.0, 0.0, 1.8, {1.0, 0.70, 0.45}, 50},
      {"moldboard_plow", false, 652.0, 0.0, 5.1, {1.0, 0.70, 0.45}, 40},
      {"chisel_plow_straight_point", true, 91.0, 5.4, 0.0, {1.0, 0.85, 0.65}, 50},
      {"chisel_plow_shovel", true, 107.0, 6.3, 0.0, {1.0, 0.85, 0.65}, 50},
      {"chisel_plow_twisted_shovel", true, 123.0, 7.3, 0.0, {1.0, 0.85, 0.65}, 50},
      {"sweep_plow_primary", false, 390.0, 19.0, 0.0, {1.0, 0.85, 0.65}, 45},
      {"sweep_plow_secondary", false, 273.0, 13.3, 0.0, {1.0, 0.85, 0.65}, 35},
      {"disk_harrow_tandem_primary", false, 309.0, 16.0, 0.0, {1.0, 0.88, 0.78}, 50},
      {"disk_harrow_tandem_secondary", false, 216.0, 11.2, 0.0, {1.0, 0.88, 0.78}, 30},
      {"disk_harrow_offset_primary", false, 364.0, 18.8, 0.0, {1.0, 0.88, 0.78}, 50},
      {"disk_harrow_offset_secondary", false, 254.0, 13.2, 0.0, {1.0, 0.88, 0.78}, 30},
      {"field_cultivator_primary", true, 46.0, 2.8, 0.0, {1.0, 0.85, 0.65}, 30},
      {"field_cultivator_secondary", true, 32.0, 1.9, 0.0, {1.0, 0.85, 0.65}, 25},
  };
  return rows;
}

/// The row of asabe_d497_implements() named `name`; a ModelError listing the rows for another.
inline const TillageImplement& asabe_d497_implement(const std::string& name) {
  std::string names;
  for (const TillageImplement& row : asabe_d497_implements()) {
    if (row.name == name) return row;
    names += (names.empty() ? "" : ", ") + std::string(row.name);
  }
  throw ModelError("no ASABE D497 implement named '" + name + "'; the table has " + names);
}

/// An implement's A, B, C and the F_i of the soil texture as ImplementDraft
/// parameter values, for Model::add:
/// `m.add<ImplementDraft>("plow", d497_parameters("moldboard_plow", SoilTexture::medium, {{"width", 1.6}}))`.
inline ParameterValues d497_parameters(const std::string& implement, SoilTexture texture, ParameterValues values = {}) {
  const TillageImplement& row = asabe_d497_implement(implement);
  ParameterValues from_table = {
      {"A", row.A}, {"B", row.B}, {"C", row.C}, {"F_i", row.F[static_cast<int>(texture)]}};
  values.insert(values.begin(), from_table.begin(), from_table.end());
  return values;
}

/// Draft of a tillage implement pulled through the soil at the hitch
/// (`flange`, the implement's side; connect it to a vehicle's hitch), ASABE
/// D497's equation
///   F_draft = F_i·[A + B·S + C·S²]·width·T·tanh(v/v_eps),
/// S = 3.6·v·tanh(v/v_eps) the speed in km/h (|v| smoothed), T = 100·depth the
/// tillage depth in cm, width in m or in tools (as the table's row says).
/// The soil holds the implement back with F_draft; the implement has no mass,
/// so the hitch pulls it with flange.f = F_draft. The draft opposes motion
/// and passes smoothly through zero speed (tanh over v_eps, no event): below
/// about v_eps the implement pulls nothing (a plow at rest holds no static
/// draft in this model). The defaults are a moldboard plow 1.6 m wide
/// (four 40 cm bottoms) 20 cm deep in a medium-textured soil. The soil takes
/// all the work: dissipated power F_draft·v ≥ 0.
struct ImplementDraft : Component {
  translational::Flange flange{*this, "flange"};
  Parameter F_i = parameter("F_i", 0.70, {.min = 0, .description = "soil texture factor (1 fine, medium, coarse: D497 Table 1)"});
  Parameter A = parameter("A", 652.0, {.min = 0, .description = "speed-independent draft [N per width unit per cm depth]"});
  Parameter B = parameter("B", 0.0, {.min = 0, .description = "linear speed term [N.h/km per width unit per cm depth]"});
  Parameter C = parameter("C", 5.1, {.min = 0, .description = "quadratic speed term [N.h2/km2 per width unit per cm depth]"});
  Parameter width = parameter("width", 1.6, {.min = 0, .description = "working width [m], or number of tools or rows"});
  Parameter depth = parameter("depth", 0.20, {.unit = "m", .min = 0, .description = "tillage depth"});
  Parameter v_eps = parameter("v_eps", 0.01, {.unit = "m/s", .min = 1e-9, .description = "speed over which the draft builds up"});
  Variable v = variable("v", {.unit = "m/s"});
  Variable S = variable("S", {.description = "speed [km/h], |v| smoothed"});
  Variable F_draft = variable("F_draft", {.unit = "N", .description = "draft, signed with the motion"});
  Variable P_draft = variable("P_draft", {.unit = "W", .description = "power the soil takes"});

  explicit ImplementDraft(std::string name) : Component(std::move(name)) {
    dissipated_power(P_draft);
    const Expr direction = tanh(v / v_eps);
    equation(v == der(flange.s));
    equation(S == 3.6 * v * direction);
    equation(F_draft == F_i * (A + B * S + C * S * S) * width * (100.0 * depth) * direction);
    equation(flange.f == F_draft);
    equation(P_draft == F_draft * v);
  }
};

}  // namespace acausal::vehicle
