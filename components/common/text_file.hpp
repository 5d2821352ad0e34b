// Reading the library's text data files (table files, .TIR tire property
// files): one reader of the bytes and one splitter into lines, so that every
// format treats Windows line ends, a UTF-8 byte order mark and unreadable
// files the same way.
#pragma once

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "solver/symbolic/errors.hpp"

namespace acausal::text_file {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// The whole file; a path that is not a readable regular file is a ModelError
/// "path: cannot open the <kind>".
inline std::string read(const std::string& path, std::string_view kind) {
  std::error_code error;
  // Checked before opening: opening a FIFO waits for a writer, forever if none comes.
  if (!std::filesystem::is_regular_file(path, error))
    throw ModelError(fmt::format("{}: cannot open the {}", path, kind));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError(fmt::format("{}: cannot open the {}", path, kind));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw ModelError(fmt::format("{}: cannot read the {}", path, kind));
  return content.str();
}

/// The lines of `content` without their '\r' (files written on Windows) and
/// without a UTF-8 byte order mark (spreadsheets put one before the first line).
inline std::vector<std::string> lines(const std::string& content) {
  std::vector<std::string> out;
  std::istringstream text(content);
  for (std::string line; std::getline(text, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
  }
  if (!out.empty() && out.front().rfind("\xEF\xBB\xBF", 0) == 0) out.front().erase(0, 3);
  return out;
}

}  // namespace acausal::text_file
