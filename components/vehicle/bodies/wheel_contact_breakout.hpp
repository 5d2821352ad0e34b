#pragma once

#include "connectors/translational.hpp"
#include "connectors/wheel_contact.hpp"

namespace acausal::vehicle {

/// Test adapter: the two axes of a WheelContact as plain translational
/// flanges, so standard masses, forces and fixtures can load a wheel or a
/// body (flange_traction carries s_traction / f_traction, flange_normal
/// s_normal / f_normal, unchanged in sign).
struct WheelContactBreakout : Component {
  WheelContact contact{*this, "contact"};
  translational::Flange flange_traction{*this, "flange_traction"};
  translational::Flange flange_normal{*this, "flange_normal"};

  explicit WheelContactBreakout(std::string name) : Component(std::move(name)) {
    // On a wheel it takes the body's side of the contact, whose books hold
    // the tire's vertical spring (WheelContact); on a body's contact over a
    // fixed ground that energy is 0 (s_normal = 0).
    stored_energy(contact.tire_spring_energy());
    equation(flange_traction.s == contact.s_traction);
    equation(flange_normal.s == contact.s_normal);
    equation(contact.f_traction + flange_traction.f == 0.0);
    equation(contact.f_normal + flange_normal.f == 0.0);
  }
};

}  // namespace acausal::vehicle
