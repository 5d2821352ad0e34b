// The table file reader (components/blocks/tables/table_file.hpp): CSV with a header
// and the Modelica text format read to exact values, columns found by name and
// by number, and every bad file (tests/data/tables) a ModelError naming the
// file, the line and what is wrong.
#include <catch2/catch.hpp>

#include <acausal/components/blocks/tables/table_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "msl_reference.hpp"  // data_dir()

namespace test_table_file {

using namespace acausal;
using namespace acausal::blocks;
using Catch::Contains;

namespace {

std::string table_path(const std::string& file) { return (test::data_dir() / "tables" / file).string(); }

// A file of this text in the temporary folder, removed at the end of the scope.
struct TemporaryFile {
  std::string path;
  TemporaryFile(const std::string& name, const std::string& text)
      : path((std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name)).string()) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TemporaryFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("Table files: a CSV with a header, comments, blank lines and CRLF", "[tables]") {
  const TableFile t = read_csv_table(table_path("engine.csv"));
  CHECK(t.source == table_path("engine.csv"));
  CHECK(t.names == std::vector<std::string>{"time", "speed", "torque"});  // spaces and quotes trimmed
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0] == std::vector<double>{0.0, 0.0, 0.0});
  CHECK(t.rows[1] == std::vector<double>{1.5, 100.0, -25.0});  // the line ending in "\r\n"
  CHECK(t.rows[2] == std::vector<double>{2.0, 2000.0, 150.0});
  CHECK(t.first_line == std::vector<int>{3, 6, 7});

  CHECK(t.column("speed") == std::vector<double>{0.0, 100.0, 2000.0});
  CHECK(t.column("3") == std::vector<double>{0.0, -25.0, 150.0});
  CHECK(t.column_index("time") == 0);
  CHECK(t.column_index("torque") == 2);
  CHECK(t.column_index("2") == 1);
  REQUIRE_THROWS_WITH(t.column("rpm"), Contains("engine.csv") && Contains("no column 'rpm'") &&
                                           Contains("time, speed, torque") && Contains("1 to 3"));
  REQUIRE_THROWS_WITH(t.column_index("4"), Contains("no column '4'"));
  REQUIRE_THROWS_WITH(t.column_index("0"), Contains("no column '0'"));
  REQUIRE_THROWS_WITH(t.column_index(""), Contains("no column ''"));

  // The same file by extension; a CSV has no table names.
  CHECK(read_table_file(table_path("engine.csv")).rows == t.rows);
  REQUIRE_THROWS_WITH(read_table_file(table_path("engine.csv"), "tab1"),
                      Contains("engine.csv") && Contains("'tab1' does not apply"));
}

TEST_CASE("Table files: the Modelica text format with two tables", "[tables]") {
  const TableFile tab1 = read_msl_table(table_path("msl_tables.txt"), "tab1");
  CHECK(tab1.source == table_path("msl_tables.txt") + ":tab1");
  CHECK(tab1.names.empty());
  const std::vector<std::vector<double>> expected{{0, -1}, {1, -2}, {2, -3}, {3, -4}, {4, -5}, {5, -6}};
  CHECK(tab1.rows == expected);  // tabs, commas, ';', a comment and a row split over two lines
  CHECK(tab1.first_line == std::vector<int>{4, 5, 6, 7, 9, 11});
  CHECK(tab1.column("2") == std::vector<double>{-1, -2, -3, -4, -5, -6});
  CHECK(tab1.column_index("1") == 0);
  REQUIRE_THROWS_WITH(tab1.column("time"), Contains("msl_tables.txt:tab1") && Contains("no column 'time'") &&
                                               Contains("numbered 1 to 2"));

  const TableFile map = read_table_file(table_path("msl_tables.txt"), "speed_map");  // "float", by extension
  CHECK(map.rows == std::vector<std::vector<double>>{{0, 1.5, 2}, {10, 11.5, 12}});
  CHECK(map.first_line == std::vector<int>{14, 15});

  REQUIRE_THROWS_WITH(read_msl_table(table_path("msl_tables.txt"), "tab3"),
                      Contains("msl_tables.txt") && Contains("no table named 'tab3'") &&
                          Contains("tab1 (line 3), speed_map (line 13)"));
  REQUIRE_THROWS_WITH(read_table_file(table_path("msl_tables.txt")),
                      Contains("msl_tables.txt") && Contains("no table name given") && Contains("tab1"));
}

TEST_CASE("Table files: a missing file or a directory cannot be opened", "[tables]") {
  REQUIRE_THROWS_WITH(read_csv_table(table_path("no_such_file.csv")),
                      Contains("no_such_file.csv") && Contains("cannot open"));
  REQUIRE_THROWS_WITH(read_table_file(table_path("no_such_file.txt"), "tab1"),
                      Contains("no_such_file.txt") && Contains("cannot open"));
  REQUIRE_THROWS_WITH(read_csv_table(table_path("")), Contains("cannot open"));  // the folder
}

TEST_CASE("Table files: bad CSV files name the file, the line and the field", "[tables]") {
  auto read = [](const std::string& file) { read_csv_table(table_path(file)); };
  REQUIRE_THROWS_WITH(read("bad_number.csv"), Contains("bad_number.csv:4:") && Contains("field 3 (torque)") &&
                                                  Contains("'12x' is not a number"));
  REQUIRE_THROWS_WITH(read("not_finite.csv"),
                      Contains("not_finite.csv:3:") && Contains("field 2") && Contains("'inf' is not finite"));
  REQUIRE_THROWS_WITH(read("ragged.csv"),
                      Contains("ragged.csv:4:") && Contains("the row has 2 fields, the header has 3"));
  REQUIRE_THROWS_WITH(read("empty.csv"), Contains("empty.csv:1:") && Contains("no header line"));
  REQUIRE_THROWS_WITH(read("header_only.csv"),
                      Contains("header_only.csv:2:") && Contains("no rows after the header") && Contains("time, speed"));
  REQUIRE_THROWS_WITH(read("duplicate_name.csv"), Contains("duplicate_name.csv:1:") && Contains("field 3") &&
                                                      Contains("'time' is given twice (first as field 1)"));
}

TEST_CASE("Table files: bad Modelica text files name the file, the line and the field", "[tables]") {
  auto read = [](const std::string& file) { read_msl_table(table_path(file), "tab1"); };
  REQUIRE_THROWS_WITH(read("no_hash1.txt"),
                      Contains("no_hash1.txt:1:") && Contains("first line must be \"#1\"") && Contains("double tab1(1,2)"));
  REQUIRE_THROWS_WITH(read("bad_header.txt"), Contains("bad_header.txt:3:") && Contains("'double tab1(2 2)'") &&
                                                  Contains("is not a table header"));
  REQUIRE_THROWS_WITH(read("short_table.txt"), Contains("short_table.txt:7:") && Contains("table 'tab1' (line 2)") &&
                                                   Contains("3x2 = 6 numbers but has only 5") &&
                                                   Contains("before the next table header"));
  REQUIRE_THROWS_WITH(read("short_at_end.txt"), Contains("short_at_end.txt:4:") &&
                                                    Contains("2x2 = 4 numbers but has only 3") &&
                                                    Contains("before the end of the file"));
  REQUIRE_THROWS_WITH(read("long_table.txt"), Contains("long_table.txt:6:") && Contains("field 1") &&
                                                  Contains("more numbers than the 2x2 = 4 that table 'tab1'"));
  REQUIRE_THROWS_WITH(read("zero_size.txt"), Contains("zero_size.txt:2:") && Contains("table 'empty' has size (0,2)") &&
                                                 Contains("at least 1"));
  REQUIRE_THROWS_WITH(read("msl_bad_number.txt"), Contains("msl_bad_number.txt:4:") && Contains("field 3") &&
                                                      Contains("'six' is not a number") &&
                                                      Contains("table 'tab1', row 2, column 3"));
  REQUIRE_THROWS_WITH(read("msl_not_finite.txt"),
                      Contains("msl_not_finite.txt:4:") && Contains("field 2") && Contains("'nan' is not finite"));
  REQUIRE_THROWS_WITH(read("duplicate_table.txt"), Contains("duplicate_table.txt:4:") &&
                                                       Contains("table 'tab1' is declared twice (first on line 2)"));
}

TEST_CASE("Table files: the Modelica text format round trip keeps every number exactly", "[tables]") {
  const std::string path = (std::filesystem::temp_directory_path() / "acausal_round_trip.txt").string();
  const std::vector<std::vector<double>> map{{0, 1.5, 2.0}, {1000, 0.1, 1e-300}, {2500.25, -3.0 / 7.0, 1.0 / 3.0}};
  const std::vector<std::vector<double>> curve{{0, 0}, {1, 2}};
  write_msl_tables(path, {{"bsfc", map}, {"curve", curve}});
  const TableFile read = read_msl_table(path, "bsfc");
  CHECK(read.rows == map);  // exact: the shortest representation that reads back
  CHECK(read_table_file(path, "curve").rows == curve);
  std::filesystem::remove(path);
  CHECK_THROWS_WITH(write_msl_tables(path, {{"ragged", {{1, 2}, {3}}}}), Contains("row 2 has 1 values, the first 2"));
}

TEST_CASE("Table files: a header's size is checked against overflow and the file's length before use", "[tables]") {
  auto read = [](const std::string& name, const std::string& header, const std::string& rows = "0 1\n2 3\n") {
    const TemporaryFile file(name, "#1\n" + header + "\n" + rows);
    read_msl_table(file.path, "tab");
  };
  // 2^63 x 2 wraps to 0 numbers in 64 bits: the table passed as complete and
  // was cut into 2^63 rows that do not exist (a crash).
  REQUIRE_THROWS_WITH(read("wraps.txt", "double tab(9223372036854775808,2)", ""),
                      Contains("wraps.txt:2:") && Contains("table 'tab' declares size (9223372036854775808,2)") &&
                          Contains("more numbers than the file's"));
  REQUIRE_THROWS_WITH(read("wraps_rows.txt", "double tab(9223372036854775808,2)"),
                      Contains("wraps_rows.txt:2:") && Contains("declares size (9223372036854775808,2)"));
  // 2^32 x 2^32 wraps to 0 too (it was std::bad_alloc).
  REQUIRE_THROWS_WITH(read("square.txt", "double tab(4294967296,4294967296)", ""),
                      Contains("square.txt:2:") && Contains("declares size (4294967296,4294967296)"));
  // Digits beyond any size, and a size no file of this length can hold.
  REQUIRE_THROWS_WITH(read("digits.txt", "double tab(2,123456789012345678901234567890)"),
                      Contains("digits.txt:2:") && Contains("declares size (2,123456789012345678901234567890)"));
  REQUIRE_THROWS_WITH(read("long.txt", "float tab(1000000,2)"),
                      Contains("long.txt:2:") && Contains("declares size (1000000,2)") && Contains("bytes can hold"));
  // The size that the file does hold still reads.
  const TemporaryFile exact("exact.txt", "#1\ndouble tab(2,2)\n0 1\n2 3\n");
  CHECK(read_msl_table(exact.path, "tab").rows == std::vector<std::vector<double>>{{0, 1}, {2, 3}});
}

TEST_CASE("Table files: a FIFO is refused without waiting for a writer", "[tables]") {
  const std::string path = (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_fifo.txt")).string();
  std::filesystem::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  auto reading = std::async(std::launch::async, [&] {
    try {
      read_table_file(path, "tab");
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  });
  const bool answered = reading.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (!answered) {
    // Free the blocked reader (it waits in open) so the test ends.
    const int writer = ::open(path.c_str(), O_WRONLY);
    if (writer >= 0) ::close(writer);
  }
  const std::string message = reading.get();
  std::filesystem::remove(path);
  CHECK(answered);
  CHECK_THAT(message, Contains("_fifo.txt") && Contains("cannot open"));
}

}  // namespace test_table_file
