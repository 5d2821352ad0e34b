// The shipped checklists: one per vehicle component, from its seed
// specification, and one for the integrated car. Each component checklist
// takes the builder of the component under test, so the same checklist
// validates a variant of it (the tests feed it deliberately broken ones).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "components/vehicle/driveline/brake.hpp"
#include "components/vehicle/driveline/clutch.hpp"
#include "components/vehicle/driveline/differential.hpp"
#include "components/vehicle/engines/engine.hpp"
#include "components/vehicle/driveline/gearbox.hpp"
#include "components/vehicle/cars/passenger_car.hpp"
#include "components/vehicle/bodies/vehicle_body.hpp"
#include "components/vehicle/tires/wheel.hpp"
#include "harness/checklist.hpp"

namespace acausal::harness {

/// Adds the component under test to a rig's model.
template <class T>
using Builder = std::function<T&(Model&, const std::string& name, const ParameterValues&)>;

template <class T>
T& library_component(Model& m, const std::string& name, const ParameterValues& values) {
  return m.add<T>(name, values);
}

Checklist wheel_checklist(const Builder<vehicle::Wheel>& make = library_component<vehicle::Wheel>);
Checklist body_checklist(const Builder<vehicle::VehicleBody>& make = library_component<vehicle::VehicleBody>,
                         const ParameterValues& body = {});
Checklist differential_checklist(const Builder<vehicle::Differential>& make =
                                     library_component<vehicle::Differential>);
Checklist brake_checklist(const Builder<vehicle::Brake>& make = library_component<vehicle::Brake>);
Checklist clutch_checklist(const Builder<vehicle::Clutch>& make = library_component<vehicle::Clutch>);
Checklist engine_checklist(const Builder<vehicle::Engine>& make = library_component<vehicle::Engine>);
Checklist gearbox_checklist(const Builder<vehicle::Gearbox>& make = library_component<vehicle::Gearbox>);
/// The rear-drive car (vehicle::RearDriveCar, the flagship): launch and braking.
Checklist car_checklist();
/// A MappedCar on the WLTC class 3b (harness/cycle.hpp): speed band, fuel, energy books.
Checklist cycle_checklist();

/// The planar car (vehicle::PlanarCar) on ISO 4138, ISO 7401, FMVSS 126, split-μ braking (with and
/// without ESC), the ISO 3888-2 double lane change and braking in a turn (ISO 7975).
Checklist handling_checklist();

/// "wheel", "body", "differential", "brake", "clutch", "engine", "gearbox", "car", "cycle", "handling".
std::vector<std::string> checklist_names();
/// The shipped checklist of that name; ModelError listing the names otherwise.
Checklist checklist(const std::string& name);

/// The options the shipped rigs run with: output every dt, rtol 1e-8.
SimulationOptions run_options(double t_end, double dt);

}  // namespace acausal::harness
