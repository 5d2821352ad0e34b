#pragma once

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "components/vehicle/tires/pac2002.hpp"
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

// The section of the .TIR file that holds each coefficient.
inline const char* tir_section_of(std::string_view name) {
  if (name == "FNOMIN") return "VERTICAL";
  return name.front() == 'L' ? "SCALING_COEFFICIENTS" : "LONGITUDINAL_COEFFICIENTS";
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
  Pac2002Longitudinal result;
  std::map<std::string, std::map<std::string, int>> seen;  // section -> key -> line first given
  std::string section;
  bool relevant = false;
  int line_number = 0, coefficients = 0;
  auto fail = [&](const std::string& what) -> ModelError {
    return ModelError(fmt::format("{}:{}: {}", source, line_number, what));
  };
  for (const std::string& raw : text_file::lines(std::string(content))) {
    ++line_number;
    const std::string_view text = detail::trim(detail::strip_tir_comment(raw));
    if (text.empty()) continue;
    if (text.front() == '[') {
      if (text.back() != ']') throw fail(fmt::format("section header '{}' lacks its closing ']'", text));
      section = detail::upper_tir(detail::trim(text.substr(1, text.size() - 2)));
      relevant = section == "VERTICAL" || section == "LONGITUDINAL_COEFFICIENTS" || section == "SCALING_COEFFICIENTS";
      continue;
    }
    if (section.empty())  // random bytes or another format: a .TIR file is sections of NAME = value lines
      throw fail(fmt::format("'{}' stands before any [SECTION] header: not a .TIR tire property file", text));
    if (!relevant) continue;  // other sections hold tables and strings we do not read
    const std::size_t equals = text.find('=');
    const std::string name =
        equals == std::string_view::npos ? std::string() : detail::upper_tir(detail::trim(text.substr(0, equals)));
    if (name.empty() || name.find_first_of(" \t") != std::string::npos)
      throw fail(fmt::format("[{}] '{}' is not NAME = number", section, text));
    const std::string_view value_text = detail::trim(text.substr(equals + 1));
    const auto [first, inserted] = seen[section].emplace(name, line_number);
    if (!inserted) throw fail(fmt::format("[{}] {} is given twice (first on line {})", section, name, first->second));

    const Pac2002Longitudinal::Field* field = nullptr;
    for (const auto& candidate : Pac2002Longitudinal::fields())
      if (name == candidate.name && section == detail::tir_section_of(candidate.name)) field = &candidate;
    double value = 0.0;
    const bool number = detail::parse_tir_number(value_text, value);
    const bool quoted = value_text.size() >= 2 && (value_text.front() == '\'' || value_text.front() == '"') &&
                        value_text.back() == value_text.front();
    if (!number && !(quoted && !field))
      throw fail(fmt::format("[{}] {} = '{}' is not a number", section, name, value_text));
    if (!field) {
      // A coefficient we read, in a section where it does not belong, would be silently left out.
      for (const auto& candidate : Pac2002Longitudinal::fields())
        if (name == candidate.name)
          throw fail(fmt::format("{} belongs in [{}], not in [{}]", name, detail::tir_section_of(candidate.name),
                                 section));
      continue;
    }
    if (!std::isfinite(value)) throw fail(fmt::format("[{}] {} = {} is not finite", section, name, value_text));
    if ((name == "FNOMIN" || name == "LFZO") && !(value > 0.0))
      throw fail(fmt::format("[{}] {} = {} must be positive (the nominal load Fz0' = LFZO·FNOMIN divides the load)",
                             section, name, value_text));
    result.*(field->member) = value;
    ++coefficients;
  }
  if (coefficients == 0)
    throw ModelError(fmt::format("{}: no PAC2002 longitudinal coefficient in [VERTICAL], [LONGITUDINAL_COEFFICIENTS] "
                                 "or [SCALING_COEFFICIENTS]: not a .TIR file for the longitudinal force",
                                 source));
  return result;
}

/// The PAC2002 longitudinal coefficients of the .TIR file at `path` (see
/// parse_tir_longitudinal); a file that cannot be read is a ModelError naming it.
inline Pac2002Longitudinal read_tir_longitudinal(const std::string& path) {
  return parse_tir_longitudinal(text_file::read(path, "tire property file"), path);
}

}  // namespace acausal::vehicle
