#include "solver/symbolic/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace acausal {

std::string printable_utf8(const std::string& text) {
  // Well-formed UTF-8 as the Unicode standard defines it (table 3-7): no
  // overlong forms, no surrogates, nothing above U+10FFFF. Python's strict
  // decoder, which turns a message into a str, accepts exactly these.
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  auto in = [](unsigned char b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char lead = byte(i);
    int length = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (lead >= 0x01 && lead <= 0x7F) length = 1;
    else if (in(lead, 0xC2, 0xDF)) length = 2;
    else if (lead == 0xE0) length = 3, lo = 0xA0;
    else if (in(lead, 0xE1, 0xEC) || in(lead, 0xEE, 0xEF)) length = 3;
    else if (lead == 0xED) length = 3, hi = 0x9F;
    else if (lead == 0xF0) length = 4, lo = 0x90;
    else if (in(lead, 0xF1, 0xF3)) length = 4;
    else if (lead == 0xF4) length = 4, hi = 0x8F;
    bool valid = length > 0 && i + length <= text.size();
    if (valid && length > 1) valid = in(byte(i + 1), lo, hi);
    for (int k = 2; valid && k < length; ++k) valid = in(byte(i + k), 0x80, 0xBF);
    if (!valid) {
      out += fmt::format("\\x{:02X}", lead);
      ++i;
      continue;
    }
    out.append(text, i, length);
    i += length;
  }
  return out;
}

ModelError::ModelError(const std::string& message) : std::runtime_error(printable_utf8(message)) {}

std::string format_number(double value, int significant) { return fmt::format("{:.{}g}", value, significant); }

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row.back();
}

std::string quoted_alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}'{}'", i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
  return out;
}

}  // namespace

std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& known,
                                       std::size_t count) {
  const std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
  std::vector<std::pair<std::size_t, const std::string*>> near;
  for (const auto& candidate : known)
    if (std::size_t d = edit_distance(name, candidate, limit); d <= limit) near.emplace_back(d, &candidate);
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < near.size() && i < count; ++i) out.push_back(*near[i].second);
  return out;
}

UnknownNameError::UnknownNameError(const std::string& where, const std::string& kind, const std::string& name,
                                   const std::vector<std::string>& known, const std::string& more)
    : UnknownNameError(where, kind, name, closest_names(name, known), more, true) {}

UnknownNameError::UnknownNameError(const std::string& where, const std::string& kind, const std::string& name,
                                   std::vector<std::string> suggestions, const std::string& more, bool)
    : ModelError(fmt::format("{} has no {} '{}'{}{}", where, kind, name,
                             suggestions.empty() ? "" : "; did you mean " + quoted_alternatives(suggestions) + "?",
                             more)),
      name_(name),
      suggestions_(std::move(suggestions)) {}

}  // namespace acausal
