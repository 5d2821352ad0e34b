#pragma once
// Numeric tables read from files for the interpolation table blocks (the
// "tableOnFile" of MSL CombiTimeTable, CombiTable1D and CombiTable2D): CSV with
// a header of column names, and the Modelica text format of
// ModelicaStandardTables, so that tables written for Modelica load unchanged.
// Every failure is a ModelError "path:line: what is wrong", since a table file
// is edited by hand and the message is all the user has to find the mistake.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "components/common/text_file.hpp"
#include "solver/symbolic/errors.hpp"

namespace acausal::blocks {

/// A matrix read from a file: rows of equal length; `names` are the column
/// names (a CSV header) or empty (the MSL text format has none); `source`
/// is "path" or "path:table_name", for messages; `first_line[i]` is the
/// file line number of rows[i] (1-based), for messages.
struct TableFile {
  std::string source;
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  std::vector<int> first_line;
  /// The column with this name (CSV header), or "1", "2", ... (1-based index
  /// as text) — as a vector of that column's values. Unknown name or index out
  /// of range: ModelError naming the source and listing the known columns.
  std::vector<double> column(const std::string& name_or_index) const;
  /// 0-based index of a column by the same rule (same errors).
  std::size_t column_index(const std::string& name_or_index) const;
};

namespace table_file_detail {

using text_file::trim;

inline bool is_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

inline std::vector<std::string> read_lines(const std::string& path) {
  return text_file::lines(text_file::read(path, "table file"));
}

// The field as a number, or a message: strtod must consume all of it, and a
// NaN or infinity would only surface later as a failed simulation.
inline std::string parse_number(std::string_view field, double& value) {
  const std::string text(field);
  char* end = nullptr;
  value = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return fmt::format("'{}' is not a number", text);
  if (!std::isfinite(value)) return fmt::format("'{}' is not finite", text);
  return {};
}

inline std::vector<std::string_view> split(std::string_view line, std::string_view separators, bool skip_empty) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t end = line.find_first_of(separators, start);
    const std::string_view field = line.substr(start, end - start);
    if (!(skip_empty && field.empty())) fields.push_back(trim(field));
    if (end == std::string_view::npos) return fields;
    start = end + 1;
  }
}

inline std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace table_file_detail

inline std::size_t TableFile::column_index(const std::string& name_or_index) const {
  const auto named = std::find(names.begin(), names.end(), name_or_index);
  if (!name_or_index.empty() && named != names.end()) return static_cast<std::size_t>(named - names.begin());
  const std::size_t count = !names.empty() ? names.size() : rows.empty() ? 0 : rows.front().size();
  std::size_t index = 0;
  const char* end = name_or_index.data() + name_or_index.size();
  if (table_file_detail::is_digits(name_or_index) &&
      std::from_chars(name_or_index.data(), end, index).ptr == end && index >= 1 && index <= count)
    return index - 1;
  if (names.empty())
    throw ModelError(fmt::format("{}: no column '{}': the columns are numbered 1 to {}", source, name_or_index, count));
  throw ModelError(fmt::format("{}: no column '{}': the columns are {} (or their numbers 1 to {})", source,
                               name_or_index, table_file_detail::join(names), count));
}

inline std::vector<double> TableFile::column(const std::string& name_or_index) const {
  const std::size_t index = column_index(name_or_index);
  std::vector<double> values;
  values.reserve(rows.size());
  for (const auto& row : rows) values.push_back(row[index]);
  return values;
}

/// CSV: the first non-empty line is a header of column names separated by commas
/// (names trimmed of spaces and optional double quotes); each following non-empty line
/// is a row of numbers separated by commas (spaces around fields allowed; lines
/// starting with '#' are comments; a trailing '\r' is ignored).
inline TableFile read_csv_table(const std::string& path) {
  namespace d = table_file_detail;
  const std::vector<std::string> lines = d::read_lines(path);
  TableFile table{path, {}, {}, {}};
  bool have_header = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line_number = static_cast<int>(i) + 1;
    auto fail = [&](const std::string& what) { return ModelError(fmt::format("{}:{}: {}", path, line_number, what)); };
    const std::string_view line = d::trim(lines[i]);
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> fields = d::split(line, ",", false);
    if (!have_header) {
      have_header = true;
      for (std::size_t k = 0; k < fields.size(); ++k) {
        std::string_view name = fields[k];
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = d::trim(name.substr(1, name.size() - 2));
        // An empty name is allowed: a 2-D table's CSV often leaves the corner blank.
        const auto twice = std::find(table.names.begin(), table.names.end(), name);
        if (!name.empty() && twice != table.names.end())
          throw fail(fmt::format("field {}: column name '{}' is given twice (first as field {})", k + 1, name,
                                 twice - table.names.begin() + 1));
        table.names.emplace_back(name);
      }
      continue;
    }
    if (fields.size() != table.names.size())
      throw fail(fmt::format("the row has {} fields, the header has {}", fields.size(), table.names.size()));
    std::vector<double> row(fields.size());
    for (std::size_t k = 0; k < fields.size(); ++k)
      if (const std::string wrong = d::parse_number(fields[k], row[k]); !wrong.empty())
        throw fail(fmt::format("field {} ({}): {}", k + 1, table.names[k], wrong));
    table.rows.push_back(std::move(row));
    table.first_line.push_back(line_number);
  }
  const int last_line = std::max<int>(1, static_cast<int>(lines.size()));
  if (!have_header) throw ModelError(fmt::format("{}:{}: no header line: the file is empty or holds only comments", path, last_line));
  if (table.rows.empty())
    throw ModelError(fmt::format("{}:{}: no rows after the header ({})", path, last_line, d::join(table.names)));
  return table;
}

/// The Modelica text table format (MSL Modelica.Blocks.Tables, ModelicaStandardTables):
///   #1                                  <- first line must be "#1" (may have trailing text/comments)
///   double tab1(6,2)   # comment        <- header: "double" or "float", name, (rows, cols)
///     0   -1                            <- rows: numbers separated by spaces, tabs, commas or ';'
///     1   -2                            <- (a row may span lines: numbers are read until rows*cols are read)
///   double tab2(2,2)                    <- several tables in one file
///     ...
/// '#' starts a comment anywhere on a line; empty lines are ignored. Reads the table named `table_name`.
/// Every table of the file is checked, not only the one read: a file that is
/// wrong anywhere is a mistake its author wants to hear about.
inline TableFile read_msl_table(const std::string& path, const std::string& table_name) {
  namespace d = table_file_detail;
  const std::string content = text_file::read(path, "table file");
  const std::vector<std::string> lines = text_file::lines(content);
  // A number takes at least one byte and the next one a separator, so a
  // header that declares more than this cannot be filled by the file: said at
  // the header, before its rows*cols is used for anything.
  const std::size_t most_numbers = content.size() / 2 + 1;
  if (lines.empty() || lines.front().rfind("#1", 0) != 0 ||
      (lines.front().size() > 2 && std::isdigit(static_cast<unsigned char>(lines.front()[2]))))
    throw ModelError(fmt::format("{}:1: the first line must be \"#1\" (the Modelica text table format){}", path,
                                 lines.empty() ? ", the file is empty" : fmt::format(", not '{}'", lines.front())));

  struct Declared {
    std::string name;
    int line;
    std::size_t rows, cols;
    std::vector<double> numbers;
    std::vector<int> number_lines;
    bool complete() const { return numbers.size() == rows * cols; }
  };
  std::vector<Declared> tables;
  auto check_complete = [&](int line_number, const char* before) {
    if (tables.empty() || tables.back().complete()) return;
    const Declared& t = tables.back();
    throw ModelError(fmt::format("{}:{}: table '{}' (line {}) declares {}x{} = {} numbers but has only {} before {}", path,
                                 line_number, t.name, t.line, t.rows, t.cols, t.rows * t.cols, t.numbers.size(), before));
  };

  for (std::size_t i = 1; i < lines.size(); ++i) {
    const int line_number = static_cast<int>(i) + 1;
    auto fail = [&](const std::string& what) { return ModelError(fmt::format("{}:{}: {}", path, line_number, what)); };
    const std::string_view line = d::trim(std::string_view(lines[i]).substr(0, lines[i].find('#')));
    if (line.empty()) continue;

    const std::string_view word = line.substr(0, line.find_first_of(" \t("));
    if (word == "double" || word == "float") {
      check_complete(line_number, "the next table header");
      const std::string_view rest = d::trim(line.substr(word.size()));
      const std::size_t open = rest.find('('), close = rest.find(')');
      const std::string_view name = d::trim(rest.substr(0, open));
      const std::vector<std::string_view> size =
          open < close && close != std::string_view::npos ? d::split(rest.substr(open + 1, close - open - 1), ",", false)
                                                          : std::vector<std::string_view>{};
      Declared table{std::string(name), line_number, 0, 0, {}, {}};
      const bool well_formed = !name.empty() && name.find_first_of(" \t") == std::string_view::npos &&
                               size.size() == 2 && close + 1 == rest.size() && d::is_digits(size[0]) &&
                               d::is_digits(size[1]);
      if (!well_formed) throw fail(fmt::format("'{}' is not a table header \"double name(rows,cols)\"", line));
      auto too_large = [&] {
        return fail(fmt::format("table '{}' declares size ({},{}), more numbers than the file's {} bytes can hold",
                                name, size[0], size[1], content.size()));
      };
      // Digits beyond size_t are a size too large, not a malformed header.
      if (std::from_chars(size[0].data(), size[0].data() + size[0].size(), table.rows).ec != std::errc() ||
          std::from_chars(size[1].data(), size[1].data() + size[1].size(), table.cols).ec != std::errc())
        throw too_large();
      if (table.rows == 0 || table.cols == 0)
        throw fail(fmt::format("table '{}' has size ({},{}): rows and columns must be at least 1", name, table.rows, table.cols));
      // rows*cols is checked before it is computed: a product that wraps
      // around (2^63 x 2 is 0 in 64 bits) would let the table pass as complete
      // with no numbers and then be cut into rows that do not exist.
      if (table.cols > most_numbers / table.rows) throw too_large();
      for (const Declared& other : tables)
        if (other.name == table.name) throw fail(fmt::format("table '{}' is declared twice (first on line {})", name, other.line));
      tables.push_back(std::move(table));
      continue;
    }

    const std::vector<std::string_view> fields = d::split(line, " \t,;", true);
    for (std::size_t k = 0; k < fields.size(); ++k) {
      double value = 0.0;
      const std::string wrong = d::parse_number(fields[k], value);
      if (tables.empty() || tables.back().complete()) {
        if (!wrong.empty() && k == 0)
          throw fail(fmt::format("'{}' is not a table header \"double name(rows,cols)\"", line));
        if (!wrong.empty()) throw fail(fmt::format("field {}: {}", k + 1, wrong));
        if (tables.empty()) throw fail(fmt::format("field {}: numbers before the first table header", k + 1));
        const Declared& t = tables.back();
        throw fail(fmt::format("field {}: more numbers than the {}x{} = {} that table '{}' (line {}) declares", k + 1,
                               t.rows, t.cols, t.rows * t.cols, t.name, t.line));
      }
      Declared& t = tables.back();
      if (!wrong.empty())
        throw fail(fmt::format("field {}: {} (table '{}', row {}, column {})", k + 1, wrong, t.name,
                               t.numbers.size() / t.cols + 1, t.numbers.size() % t.cols + 1));
      t.numbers.push_back(value);
      t.number_lines.push_back(line_number);
    }
  }
  check_complete(static_cast<int>(lines.size()), "the end of the file");

  std::vector<std::string> found;
  for (const Declared& t : tables) {
    found.push_back(fmt::format("{} (line {})", t.name, t.line));
    if (t.name != table_name) continue;
    TableFile table{path + ":" + table_name, {}, {}, {}};
    for (std::size_t r = 0; r < t.rows; ++r) {
      table.rows.emplace_back(t.numbers.begin() + static_cast<std::ptrdiff_t>(r * t.cols),
                              t.numbers.begin() + static_cast<std::ptrdiff_t>((r + 1) * t.cols));
      table.first_line.push_back(t.number_lines[r * t.cols]);
    }
    return table;
  }
  const std::string holds = found.empty() ? "the file declares no table" : "the file has: " + d::join(found);
  if (table_name.empty()) throw ModelError(fmt::format("{}: no table name given; {}", path, holds));
  throw ModelError(fmt::format("{}: no table named '{}'; {}", path, table_name, holds));
}

/// By extension: ".csv" -> read_csv_table (table_name must be empty), anything else ->
/// read_msl_table(path, table_name) (table_name required, else ModelError).
inline TableFile read_table_file(const std::string& path, const std::string& table_name = "") {
  std::string extension = std::filesystem::path(path).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".csv") return read_msl_table(path, table_name);
  if (!table_name.empty())
    throw ModelError(fmt::format("{}: a CSV file holds one table; the table name '{}' does not apply", path, table_name));
  return read_csv_table(path);
}

/// Rows of (abscissa, the chosen columns...) from a file read: `abscissa` and
/// `columns` name CSV columns or give 1-based numbers as text; no columns: all
/// but the abscissa. The abscissa must increase (`strictly`) or not decrease
/// (a repeated time is a jump), else a ModelError names the file and line.
inline std::vector<std::vector<double>> abscissa_and_columns(const TableFile& read, const std::string& abscissa,
                                                             const std::vector<std::string>& columns, bool strictly) {
  const std::size_t x = read.column_index(abscissa);
  std::vector<std::size_t> picked;
  for (const auto& c : columns) picked.push_back(read.column_index(c));
  if (columns.empty())
    for (std::size_t k = 0; k < read.rows.front().size(); ++k)
      if (k != x) picked.push_back(k);
  std::vector<std::vector<double>> rows;
  for (std::size_t r = 0; r < read.rows.size(); ++r) {
    const double here = read.rows[r][x];
    if (r > 0 && (strictly ? !(here > read.rows[r - 1][x]) : here < read.rows[r - 1][x]))
      throw ModelError(fmt::format("{}:{}: {} {} {} the row above's ({})", read.source, read.first_line[r],
                                   read.names.empty() ? "abscissa" : read.names[x], here,
                                   strictly ? "does not increase on" : "is below", read.rows[r - 1][x]));
    std::vector<double> row{here};
    for (std::size_t k : picked) row.push_back(read.rows[r][k]);
    rows.push_back(std::move(row));
  }
  return rows;
}

/// Writes tables in the Modelica text format (`#1`, then `double name(rows,cols)`
/// and the rows), each number in full precision ({} of fmt: reads back exactly),
/// so tables made here load unchanged in a Modelica tool.
inline void write_msl_tables(const std::string& path,
                             const std::vector<std::pair<std::string, std::vector<std::vector<double>>>>& tables) {
  std::string text = "#1\n";
  for (const auto& [name, rows] : tables) {
    const std::size_t columns = rows.empty() ? 0 : rows.front().size();
    if (rows.empty() || columns == 0) throw ModelError(fmt::format("{}: table '{}' is empty", path, name));
    text += fmt::format("double {}({},{})\n", name, rows.size(), columns);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows[r].size() != columns)
        throw ModelError(fmt::format("{}: table '{}' row {} has {} values, the first {}", path, name, r + 1,
                                     rows[r].size(), columns));
      text += fmt::format("  {}\n", fmt::join(rows[r], "\t"));
    }
  }
  std::ofstream out(path, std::ios::binary);
  if (!(out << text)) throw ModelError(fmt::format("{}: cannot write the table file", path));
}

}  // namespace acausal::blocks
