#pragma once

#include "connectors/signal.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// Test adapter standing in for the body: applies the traction force
/// f_traction_input (forward positive) and the normal load f_normal_input
/// (pressing the wheel onto the road) on the wheel connected to `contact`.
struct WheelContactForceSource : Component {
  WheelContact contact{*this, "contact"};
  RealInput f_traction_input{*this, "f_traction_input", {.unit = "N"}};
  RealInput f_normal_input{*this, "f_normal_input", {.unit = "N"}};

  explicit WheelContactForceSource(std::string name) : Component(std::move(name)) {
    energy_source();
    equation(contact.f_traction == -f_traction_input);
    equation(contact.f_normal == f_normal_input);
  }
};

}  // namespace acausal::vehicle
