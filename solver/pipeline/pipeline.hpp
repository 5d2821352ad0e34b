// The model compiler as one ordered list of passes. Model::compile() runs
// them front to back; each is named, timed and reported under its name in the
// compile report (CompileReport::passes, in this order).
#pragma once

#include <string_view>
#include <vector>

namespace acausal {

/// A pass of the compiler: its name in the compile report, the stage folder
/// (solver/<stage>/) its code lives in, and what it does.
struct PassInfo {
  std::string_view name;
  std::string_view stage;
  std::string_view does;
};

/// Every pass, in the order compile() runs them (native_code only when asked for).
const std::vector<PassInfo>& compiler_passes();

}  // namespace acausal
