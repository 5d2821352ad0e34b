#include "solver/symbolic/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace acausal {

std::string printable_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char byte) { out += fmt::format("\\x{:02X}", byte); };
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    bool valid = length > 0 && lead != 0 && i + length <= text.size();
    for (int k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (valid && length == 2) valid = lead >= 0xC2;  // no overlong forms
    if (!valid) {
      escape(lead);
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
