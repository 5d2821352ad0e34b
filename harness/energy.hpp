// Energy accounting: the books of every component and of the whole model.
//
// Each component states what it stores, dissipates and takes from outside
// the model (Component::stored_energy, dissipated_power, supplied_power,
// energy_source); the power through a connector is der(potential)·flow for
// each potential/flow pair of mechanics, v·i for an electrical pin and Q_flow
// for a heat port (Connector::port_power), positive into the component. Over a run, for
// every component
//     W_ports + W_supplied = ΔE_stored + W_dissipated,
// and since connections neither store nor lose energy, for the whole model
//     Σ W_supplied = Σ ΔE_stored + Σ W_dissipated.
// A component whose own books do not close leaks (or creates) energy.
#pragma once

#include <string>
#include <vector>

#include "harness/check.hpp"
#include "solver/modeling/model.hpp"

namespace acausal::harness {

class EnergyBooks {
 public:
  /// Adds to each component of `model` without sub-components the integrals
  /// its books need (variables energy.W_ports, energy.W_supplied,
  /// energy.W_dissipated, in J, zero at the start). Call before compiling.
  explicit EnergyBooks(Model& model);

  /// Level 3 checks: every component's books close, and the whole model's,
  /// each within `tolerance` relative to the energy that went through.
  Check components_close(double tolerance) const;
  Check model_closes(double tolerance) const;

  struct Account {
    std::string component;  // dotted path
    Expr stored, W_ports, W_supplied, W_dissipated;
  };
  const std::vector<Account>& accounts() const { return accounts_; }

 private:
  std::vector<Account> accounts_;
};

}  // namespace acausal::harness
