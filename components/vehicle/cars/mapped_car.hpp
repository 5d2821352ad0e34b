#pragma once

#include <string>

#include "components/vehicle/engines/mapped_engine.hpp"
#include "components/vehicle/cars/passenger_car.hpp"
#include "components/vehicle/driveline/shift_map.hpp"

namespace acausal::vehicle {

/// The car for drive cycles: a 1250 kg front-drive PassengerCar (CG 1.0 m
/// behind the front axle) with a MappedEngine (full-load and drag curves, BSFC map, idle
/// governor: it idles at a stop) and a ShiftMap with hysteresis through five
/// gears (3.6/2.1/1.4/1.0/0.8). Drive it with a CycleDriver on a DriveCycle;
/// the engine's fuel_mass is the fuel used.
struct MappedCar : PassengerCarOf<MappedEngine, ShiftMap> {
  explicit MappedCar(std::string name, CarOptions options = {})
      : PassengerCarOf(std::move(name), DrivenAxle::front, 1.0, 1.7, options) {
    body.set_parameter("m", 1250.0);  // a compact car's test mass, for its 1.6 L engine
  }
};

}  // namespace acausal::vehicle
