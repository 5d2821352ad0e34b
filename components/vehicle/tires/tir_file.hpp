#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "components/vehicle/tires/pac2002.hpp"
#include "components/vehicle/tires/pac2002_aligning.hpp"
#include "components/vehicle/tires/pac2002_lateral.hpp"
#include "components/common/text_file.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal::vehicle {

namespace detail {

using text_file::trim;

inline std::string upper_tir(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

// A line without its `$` or `!` comment; a quoted string may hold either.
inline std::string_view strip_tir_comment(std::string_view line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quote) {
      if (ch == quote) quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '$' || ch == '!') {
      return line.substr(0, i);
    }
  }
  return line;
}

// The whole of `text` as a number ("1.65", "-4e-1", "+0.3"), or false.
inline bool parse_tir_number(std::string_view text, double& value) {
  if (text.size() > 1 && text.front() == '+' && text[1] != '-') text.remove_prefix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

// The section of the .TIR file that holds each longitudinal coefficient.
inline const char* tir_section_of(std::string_view name) {
  if (name == "FNOMIN") return "VERTICAL";
  return name.front() == 'L' ? "SCALING_COEFFICIENTS" : "LONGITUDINAL_COEFFICIENTS";
}

// ... and each lateral one: R*X*, the reduction of Fx by side slip, sits with
// the longitudinal force.
inline const char* tir_lateral_section_of(std::string_view name) {
  if (name.front() == 'L') return "SCALING_COEFFICIENTS";
  return name.size() > 2 && name[0] == 'R' && name[2] == 'X' ? "LONGITUDINAL_COEFFICIENTS" : "LATERAL_COEFFICIENTS";
}

// ... and each aligning one: R0 is a dimension of the tire.
inline const char* tir_aligning_section_of(std::string_view name) {
  if (name == "UNLOADED_RADIUS") return "DIMENSION";
  return name.front() == 'L' ? "SCALING_COEFFICIENTS" : "ALIGNING_COEFFICIENTS";
}

// Where one set of coefficients lives in a .TIR file, and the values its
// formula cannot take besides non-numbers.
struct TirLayout {
  const char* force;                  // "longitudinal": the message for a file with none of the set names it
  const char* subject;                // "the longitudinal force": ... and what such a file is not for
  std::vector<std::string> sections;  // those read, in the order that message lists them
  const char* (*section_of)(std::string_view name);
  // Why `name` cannot be `value` (the end of "[SECTION] NAME = value ..."), or "".
  std::string (*refuse)(std::string_view name, double value);
};

inline std::string refuse_longitudinal(std::string_view name, double value) {
  if ((name == "FNOMIN" || name == "LFZO") && !(value > 0.0))
    return "must be positive (the nominal load Fz0' = LFZO·FNOMIN divides the load)";
  return "";
}

inline std::string refuse_lateral(std::string_view name, double value) {
  if (name == "PKY1" && value > 0.0)
    return "must not be positive (ISO signs: a positive cornering stiffness would push the tire along its slip)";
  if (name == "PKY2" && !(value > 0.0))
    return "must be positive (PKY2·Fz0' divides the load in the cornering stiffness)";
  return "";
}

inline std::string refuse_aligning(std::string_view name, double value) {
  if (name == "UNLOADED_RADIUS" && !(value > 0.0))
    return "must be positive (the trail, the residual moment and the arm of Fx scale with it)";
  return "";
}

// The coefficients of `layout` in a .TIR file's text; see parse_tir_longitudinal.
template <class Coefficients>
Coefficients parse_tir(std::string_view content, const std::string& source, const TirLayout& layout) {
  using Field = typename Coefficients::Field;
  Coefficients result;
  std::map<std::string, std::map<std::string, int>> seen;  // section -> key -> line first given
  std::string section;
  bool relevant = false;
  int line_number = 0, coefficients = 0;
  auto fail = [&](const std::string& what) -> ModelError {
    return ModelError(fmt::format("{}:{}: {}", source, line_number, what));
  };
  for (const std::string& raw : text_file::lines(std::string(content))) {
    ++line_number;
    const std::string_view text = trim(strip_tir_comment(raw));
    if (text.empty()) continue;
    if (text.front() == '[') {
      if (text.back() != ']') throw fail(fmt::format("section header '{}' lacks its closing ']'", text));
      section = upper_tir(trim(text.substr(1, text.size() - 2)));
      relevant = std::find(layout.sections.begin(), layout.sections.end(), section) != layout.sections.end();
      continue;
    }
    if (section.empty())  // random bytes or another format: a .TIR file is sections of NAME = value lines
      throw fail(fmt::format("'{}' stands before any [SECTION] header: not a .TIR tire property file", text));
    if (!relevant) continue;  // other sections hold tables and strings we do not read
    const std::size_t equals = text.find('=');
    const std::string name = equals == std::string_view::npos ? std::string() : upper_tir(trim(text.substr(0, equals)));
    if (name.empty() || name.find_first_of(" \t") != std::string::npos)
      throw fail(fmt::format("[{}] '{}' is not NAME = number", section, text));
    const std::string_view value_text = trim(text.substr(equals + 1));
    const auto [first, inserted] = seen[section].emplace(name, line_number);
    if (!inserted) throw fail(fmt::format("[{}] {} is given twice (first on line {})", section, name, first->second));

    const Field* field = nullptr;
    for (const auto& candidate : Coefficients::fields())
      if (name == candidate.name && section == layout.section_of(candidate.name)) field = &candidate;
    double value = 0.0;
    const bool number = parse_tir_number(value_text, value);
    const bool quoted = value_text.size() >= 2 && (value_text.front() == '\'' || value_text.front() == '"') &&
                        value_text.back() == value_text.front();
    if (!number && !(quoted && !field))
      throw fail(fmt::format("[{}] {} = '{}' is not a number", section, name, value_text));
    if (!field) {
      // A coefficient we read, in a section where it does not belong, would be silently left out.
      for (const auto& candidate : Coefficients::fields())
        if (name == candidate.name)
          throw fail(fmt::format("{} belongs in [{}], not in [{}]", name, layout.section_of(candidate.name), section));
      continue;
    }
    if (!std::isfinite(value)) throw fail(fmt::format("[{}] {} = {} is not finite", section, name, value_text));
    if (const std::string why = layout.refuse(name, value); !why.empty())
      throw fail(fmt::format("[{}] {} = {} {}", section, name, value_text, why));
    result.*(field->member) = value;
    ++coefficients;
  }
  if (coefficients == 0) {
    std::string listed;
    for (std::size_t i = 0; i < layout.sections.size(); ++i)
      listed += (i == 0 ? "[" : i + 1 == layout.sections.size() ? " or [" : ", [") + layout.sections[i] + "]";
    throw ModelError(fmt::format("{}: no PAC2002 {} coefficient in {}: not a .TIR file for {}", source,
                                 layout.force, listed, layout.subject));
  }
  return result;
}

}  // namespace detail

/// The PAC2002 longitudinal coefficients of a .TIR tire property file's text
/// (ADAMS / MF-Tyre format), `source` naming it in errors: FNOMIN from
/// [VERTICAL], PCX1..PVX2 from [LONGITUDINAL_COEFFICIENTS], LFZO..LVX from
/// [SCALING_COEFFICIENTS]. Coefficients the file does not give keep the
/// defaults of Pac2002Longitudinal; other keys (PDX3 among them: no camber
/// here) and other sections are ignored. Names and section headers are read
/// case-insensitively; `$` and `!` start comments. In the three sections every
/// line must be `NAME = number` (a quoted string is allowed for a key not
/// read), with no key twice; a number must be finite and FNOMIN and LFZO
/// positive. A violation is a ModelError "source:line: ...".
inline Pac2002Longitudinal parse_tir_longitudinal(std::string_view content, const std::string& source) {
  static const detail::TirLayout layout = {"longitudinal",
                                           "the longitudinal force",
                                           {"VERTICAL", "LONGITUDINAL_COEFFICIENTS", "SCALING_COEFFICIENTS"},
                                           detail::tir_section_of,
                                           detail::refuse_longitudinal};
  return detail::parse_tir<Pac2002Longitudinal>(content, source, layout);
}

/// The PAC2002 longitudinal coefficients of the .TIR file at `path` (see
/// parse_tir_longitudinal); a file that cannot be read is a ModelError naming it.
inline Pac2002Longitudinal read_tir_longitudinal(const std::string& path) {
  return parse_tir_longitudinal(text_file::read(path, "tire property file"), path);
}

/// The PAC2002 lateral and combined-slip coefficients (Pac2002Lateral) of a
/// .TIR file's text, as strict as parse_tir_longitudinal: P*Y* and R*Y* from
/// [LATERAL_COEFFICIENTS], R*X* from [LONGITUDINAL_COEFFICIENTS], L* from
/// [SCALING_COEFFICIENTS]; in those three sections every line must be
/// `NAME = number` (a quoted string for a key not read), no key twice, a
/// coefficient read only in its own section, every number finite. PKY1 must
/// not be positive (the ISO signs of pac2002_lateral) and PKY2 must be
/// positive. FNOMIN and LFZO are read by parse_tir_longitudinal. A violation is
/// a ModelError "source:line: ...".
inline Pac2002Lateral parse_tir_lateral(std::string_view content, const std::string& source) {
  static const detail::TirLayout layout = {
      "lateral",
      "the lateral force",
      {"LATERAL_COEFFICIENTS", "LONGITUDINAL_COEFFICIENTS", "SCALING_COEFFICIENTS"},
      detail::tir_lateral_section_of,
      detail::refuse_lateral};
  return detail::parse_tir<Pac2002Lateral>(content, source, layout);
}

/// The PAC2002 lateral coefficients of the .TIR file at `path` (see
/// parse_tir_lateral); a file that cannot be read is a ModelError naming it.
inline Pac2002Lateral read_tir_lateral(const std::string& path) {
  return parse_tir_lateral(text_file::read(path, "tire property file"), path);
}

/// The PAC2002 aligning moment coefficients (Pac2002Aligning) of a .TIR
/// file's text, as strict as parse_tir_longitudinal: Q*Z* and SSZ* from
/// [ALIGNING_COEFFICIENTS], UNLOADED_RADIUS from [DIMENSION], LTR, LRES and LS
/// from [SCALING_COEFFICIENTS]; in those three sections every line must be
/// `NAME = number` (a quoted string for a key not read), no key twice, a
/// coefficient read only in its own section, every number finite, and
/// UNLOADED_RADIUS positive. The camber coefficients (QBZ4, QDZ3, ...) and
/// the other keys of [DIMENSION] are ignored. A violation is a ModelError
/// "source:line: ...".
inline Pac2002Aligning parse_tir_aligning(std::string_view content, const std::string& source) {
  static const detail::TirLayout layout = {"aligning moment",
                                           "the aligning moment",
                                           {"ALIGNING_COEFFICIENTS", "DIMENSION", "SCALING_COEFFICIENTS"},
                                           detail::tir_aligning_section_of,
                                           detail::refuse_aligning};
  return detail::parse_tir<Pac2002Aligning>(content, source, layout);
}

/// The PAC2002 aligning moment coefficients of the .TIR file at `path` (see
/// parse_tir_aligning); a file that cannot be read is a ModelError naming it.
inline Pac2002Aligning read_tir_aligning(const std::string& path) {
  return parse_tir_aligning(text_file::read(path, "tire property file"), path);
}

}  // namespace acausal::vehicle
