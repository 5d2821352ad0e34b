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

/// Something compile() accepted that is probably not what the user meant.
/// Kinds (docs/architecture.md, "Warnings"):
///   default_start  a state starts at a start value nobody set (neither the
///                  user nor its component): usually 0, often a forgotten set_start
///   unit           a dimensional contradiction in an equation (an error
///                  instead with CompileOptions::units = UnitCheck::error)
///   no_load        a wheel whose vertical load is zero from the parameters
///                  alone (its contact's normal axis unconnected, or loaded by 0)
/// Mistakes that make the model singular or meaningless are errors, not
/// warnings: parameter bounds (Mass m > 0), unbalanced or underdetermined models.
struct CompileWarning {
  std::string kind;
  std::string component;  // dotted path ("car.wheel_rl"); the model's name for model-level equations
  std::string variable;   // full dotted name, or the equation for a unit warning
  std::string message;    // one line, naming component and variable
};

/// The compile report a user can print: one entry per pass, plus the chosen states.
struct CompileReport {
  std::vector<PassReport> passes;
  std::vector<std::string> states;
  std::vector<std::string> algebraic;  // unknowns integrated by IDA that are not states
  /// Dimensional contradictions between declared units, one line each (the units pass).
  std::vector<std::string> unit_errors;
  /// In the order found: units, then expectations (no_load), then default starts.
  std::vector<CompileWarning> warnings;

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
