#pragma once

#include <string>
#include <utility>
#include <vector>

namespace acausal {

/// What one compiler pass did: counts before/after, choices made, time taken.
struct PassReport {
  std::string pass;
  double seconds = 0.0;
  std::vector<std::pair<std::string, long>> counts;
  std::vector<std::string> notes;
};

/// The compile report a user can print: one entry per pass, plus the chosen states.
struct CompileReport {
  std::vector<PassReport> passes;
  std::vector<std::string> states;
  std::vector<std::string> algebraic;  // unknowns integrated by IDA that are not states
  /// Dimensional contradictions between declared units, one line each (the units pass).
  std::vector<std::string> unit_errors;

  PassReport& add(std::string pass) {
    passes.push_back({std::move(pass), 0.0, {}, {}});
    return passes.back();
  }
  const PassReport* find(const std::string& pass) const {
    for (const auto& p : passes)
      if (p.pass == pass) return &p;
    return nullptr;
  }
  long count(const std::string& pass, const std::string& what) const {
    if (const PassReport* p = find(pass))
      for (const auto& [name, n] : p->counts)
        if (name == what) return n;
    return -1;
  }
  std::string str() const;
};

}  // namespace acausal
