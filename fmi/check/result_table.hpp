// Sampled results of an FMU run as a table of columns over time, its CSV form, and the comparison of a result
// with a reference result.
#pragma once

#include <string>
#include <vector>

namespace acausal::fmi::check {

struct ResultTable {
  std::vector<std::string> names;         // the value columns; time is implied as the first
  std::vector<double> times;              // non-decreasing
  std::vector<std::vector<double>> rows;  // rows[k][j]: column j at times[k]
};

// Writes `time,<names>` and one line per row, every value with 17 significant digits so that reading it back
// gives the same double. Names holding a comma, quote or line break are quoted as RFC 4180 says. Throws
// std::runtime_error if the file cannot be written.
void write_csv(const std::string& path, const ResultTable& table);

// Reads a CSV file whose first column is time (whatever its header says) and whose other columns are numbers.
// Throws std::runtime_error naming the file and line on a short row or a value that is not a number.
ResultTable read_csv(const std::string& path);

struct ColumnComparison {
  std::string name;
  double largest_error = 0;  // |result - reference| / max(range of the reference column, tiny)
  double worst_time = 0;     // the reference time where largest_error occurs
  bool passed = false;
  std::string problem;  // why the column could not be compared (missing, times out of range), else empty
};

struct Comparison {
  std::vector<ColumnComparison> columns;  // one per reference column, in the reference's order
  bool passed = false;                    // every column passed
};

// For each reference column, interpolates the result's column of the same name linearly at the reference
// times and finds the largest error relative to the reference column's range; a column passes when that error
// is below `tolerance`. A NaN on either side counts as an infinite error unless both are NaN.
Comparison compare_with_reference(const ResultTable& result, const ResultTable& reference, double tolerance);

}  // namespace acausal::fmi::check
