#pragma once

#include <string>

#include "connectors/translational.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// A vehicle body reduced to what a single-wheel test bench gives a wheel:
/// the constant vertical load W on its `contact`, and the contact's traction
/// axis handed on to `flange_traction`, where the bench prescribes the hull's
/// motion and reads the drawbar pull (Wong's single-wheel tester, a tire
/// test trailer). The load does no work: the contact's normal axis does not move.
struct AxleLoad : Component {
  WheelContact contact{*this, "contact"};
  translational::Flange flange_traction{*this, "flange_traction"};
  Parameter W = parameter("W", 1000.0, {.unit = "N", .min = 0, .description = "vertical load on the wheel"});

  explicit AxleLoad(std::string name) : Component(std::move(name)) {
    equation(flange_traction.s == contact.s_traction);
    equation(contact.f_traction + flange_traction.f == 0.0);
    equation(contact.f_normal == W);
  }
};

}  // namespace acausal::vehicle
