// Drive-cycle runs: a car following a standard cycle, and what a vehicle
// engineer reads off such a run — distance, fuel and CO2, the tractive energy
// at the wheels, where the fuel's energy went, and whether the driven speed
// stayed within the regulation's tolerance band.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "components/vehicle/control/cycle_driver.hpp"
#include "components/vehicle/road/drive_cycle.hpp"
#include "components/vehicle/cars/automatic_car.hpp"
#include "components/vehicle/cars/battery_electric_car.hpp"
#include "components/vehicle/cars/mapped_car.hpp"
#include "harness/energy.hpp"
#include "solver/modeling/model.hpp"

namespace acausal::harness {

/// The WLTP speed tolerance (UN GTR No. 15, Annex 6): the driven speed stays
/// between the lowest and the highest reference speed within ±`time` of each
/// instant, widened by ±`speed`.
struct SpeedTolerance {
  double speed = 2.0 / 3.6;  // m/s
  double time = 1.0;         // s
};

struct BandVerdict {
  double worst_excursion = 0;  // m/s outside the band, 0 when inside throughout
  double worst_time = 0;       // s
  double seconds_outside = 0;  // s, summed over the rows outside
  bool inside() const { return worst_excursion == 0; }
};

/// The band check on output rows (an output interval of 0.1 s resolves a 1 Hz trace).
BandVerdict speed_band(const std::vector<double>& time, const std::vector<double>& v,
                       const std::vector<double>& v_ref, SpeedTolerance tolerance = {});

/// The gearbox of a cycle test's car: a MappedCar's clutch and five gears,
/// or an AutomaticCar's torque converter.
enum class Transmission { manual, automatic };

/// A car with a mapped engine ("car": a MappedCar, or an AutomaticCar)
/// driven by a CycleDriver ("driver") along a DriveCycle ("cycle") set to a
/// shipped cycle, with energy books on every part; the parts a report reads
/// beside it.
struct CycleTest {
  Component& car;
  vehicle::VehicleBody& body;
  vehicle::MappedEngine& engine;
  std::array<vehicle::Wheel*, 4> wheels;
  vehicle::DriveCycle& cycle;
  vehicle::CycleDriver& driver;
  EnergyBooks books;
};
CycleTest cycle_test(Model& m, const std::string& cycle_name, Transmission transmission = Transmission::manual);

/// What a cycle run comes to.
struct CycleReport {
  std::string cycle;
  double duration = 0;          // s
  double distance = 0;          // km
  double fuel = 0;              // kg
  double fuel_per_100km = 0;    // L/100 km
  double co2 = 0;               // g/km
  double fuel_energy = 0;       // MJ
  double positive_tractive_energy = 0;  // kJ/km: the wheels' positive work on the road, per km
  /// Where the fuel's energy went (MJ): engine, driveline, tires, brakes, aero
  /// drag, rolling resistance, and what is still stored (kinetic) at the end.
  std::vector<std::pair<std::string, double>> energy_split;
  double split_closure = 0;  // |Σ split − fuel energy| / fuel energy
  BandVerdict band;
  /// One line: "wltc3b: 23.27 km, 6.1 L/100 km, 141 g/km CO2, ..."
  std::string line() const;
};

/// The report of a CycleTest's run. co2_per_fuel: g of CO2 per g of fuel
/// burnt (gasoline 3.17: 86.5 % carbon by mass, times 44/12).
CycleReport cycle_report(const Result& r, const CycleTest& test, double co2_per_fuel = 3.17);

/// A BatteryElectricCar ("car") driven by a CycleDriver ("driver") along a
/// DriveCycle ("cycle") set to a shipped cycle, with energy books on every
/// part. The driver's clutch output goes to the car's (ignored) clutch input.
struct ElectricCycleTest {
  vehicle::BatteryElectricCar& car;
  vehicle::DriveCycle& cycle;
  vehicle::CycleDriver& driver;
  EnergyBooks books;
};
ElectricCycleTest electric_cycle_test(Model& m, const std::string& cycle_name);
/// The same along a trace of your own: (time s, speed m/s) points, as DriveCycle::set_table.
ElectricCycleTest electric_cycle_test(Model& m, const std::vector<std::pair<double, double>>& trace);

/// What an electric car's cycle run comes to. Energies in kWh; "at the
/// battery" is the net energy out of the pack's terminals.
struct ElectricCycleReport {
  std::string cycle;
  double duration = 0;  // s
  double distance = 0;  // km
  double cells_energy = 0;     // kWh: the cells' stored energy used, -ΔE_chem (pack losses included)
  double battery_energy = 0;   // kWh: net out of the terminals, ∫-v·i dt (the pack's books)
  double consumption = 0;      // kWh/100 km at the battery (terminals)
  double wheel_consumption = 0;  // kWh/100 km: the wheels' positive work on the road
  double regenerated = 0;      // kWh back into the terminals (charging power only; trapezoid over the rows)
  /// regenerated / energy drawn from the terminals (gross): the share of the
  /// drive energy that braking returned.
  double regen_share = 0;
  /// km on a full pack (SOCmax to SOCmin) at this cycle's charge per km:
  /// distance · (SOCmax − SOCmin) / (SOC used).
  double range = 0;
  /// Where the cells' energy went (kWh): battery losses, motor and inverter,
  /// driveline, tires, brakes, aero drag, rolling resistance, and what is
  /// still stored outside the pack at the end (kinetic).
  std::vector<std::pair<std::string, double>> energy_split;
  double split_closure = 0;  // |Σ split − cells' energy| / cells' energy
  BandVerdict band;
  /// One line: "wltc3b (electric): 23.27 km, 13.1 kWh/100 km at the battery, ..."
  std::string line() const;
};

ElectricCycleReport cycle_report(const Result& r, const ElectricCycleTest& test);

}  // namespace acausal::harness
