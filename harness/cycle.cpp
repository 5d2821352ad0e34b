#include "harness/cycle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>

namespace acausal::harness {

BandVerdict speed_band(const std::vector<double>& time, const std::vector<double>& v,
                       const std::vector<double>& v_ref, SpeedTolerance tolerance) {
  BandVerdict verdict;
  std::size_t lo = 0, hi = 0;
  for (std::size_t k = 0; k < time.size(); ++k) {
    while (time[lo] < time[k] - tolerance.time - 1e-9) ++lo;
    while (hi + 1 < time.size() && time[hi + 1] <= time[k] + tolerance.time + 1e-9) ++hi;
    const auto [low, high] = std::minmax_element(v_ref.begin() + lo, v_ref.begin() + hi + 1);
    const double excursion = std::max({*low - tolerance.speed - v[k], v[k] - *high - tolerance.speed, 0.0});
    if (excursion > 0 && k > 0) verdict.seconds_outside += time[k] - time[k - 1];
    if (excursion > verdict.worst_excursion) verdict.worst_excursion = excursion, verdict.worst_time = time[k];
  }
  return verdict;
}

namespace {

// The car, the cycle and its driver, wired; the car's type chooses the powertrain.
template <class Car>
std::tuple<Car&, vehicle::DriveCycle&, vehicle::CycleDriver&> driven_car(
    Model& m, const std::function<void(vehicle::DriveCycle&)>& set_trace) {
  auto& car = m.add<Car>("car");
  auto& cycle = m.add<vehicle::DriveCycle>("cycle");
  set_trace(cycle);
  auto& driver = m.add<vehicle::CycleDriver>("driver");
  m.connect(cycle.v_ref, driver.v_ref);
  m.connect(cycle.a_ref, driver.a_ref);
  m.connect(cycle.v_preview, driver.v_preview);
  m.connect(car.speed, driver.v);
  m.connect(driver.throttle, car.throttle);
  m.connect(driver.brake, car.brake_pedal);
  if constexpr (requires { car.clutch_pedal; }) m.connect(driver.clutch, car.clutch_pedal);
  return {car, cycle, driver};
}

}  // namespace

CycleTest cycle_test(Model& m, const std::string& cycle_name, Transmission transmission) {
  const auto set_trace = [&](vehicle::DriveCycle& c) { c.set_cycle(cycle_name); };
  const auto test = [&m](auto& car, vehicle::DriveCycle& cycle, vehicle::CycleDriver& driver) {
    return CycleTest{car, car.body, car.engine, car.wheels, cycle, driver, EnergyBooks(m)};
  };
  if (transmission == Transmission::automatic)
    return std::apply(test, driven_car<vehicle::AutomaticCar>(m, set_trace));
  return std::apply(test, driven_car<vehicle::MappedCar>(m, set_trace));
}

ElectricCycleTest electric_cycle_test(Model& m, const std::string& cycle_name) {
  auto [car, cycle, driver] =
      driven_car<vehicle::BatteryElectricCar>(m, [&](vehicle::DriveCycle& c) { c.set_cycle(cycle_name); });
  return ElectricCycleTest{car, cycle, driver, EnergyBooks(m)};
}

ElectricCycleTest electric_cycle_test(Model& m, const std::vector<std::pair<double, double>>& trace) {
  auto [car, cycle, driver] =
      driven_car<vehicle::BatteryElectricCar>(m, [&](vehicle::DriveCycle& c) { c.set_table(trace); });
  return ElectricCycleTest{car, cycle, driver, EnergyBooks(m)};
}

namespace {

double trapezoid(const std::vector<double>& t, const std::vector<double>& y) {
  double sum = 0;
  for (std::size_t k = 1; k < t.size(); ++k) sum += 0.5 * (y[k] + y[k - 1]) * (t[k] - t[k - 1]);
  return sum;
}

// The part of the car a component of the books belongs to, by its name in the car.
std::string category(const std::string& path) {
  const std::string part = path.substr(path.find('.') + 1);
  if (part.rfind("engine", 0) == 0) return "engine";
  if (part.rfind("clutch", 0) == 0 || part.rfind("converter", 0) == 0 || part.rfind("gearbox", 0) == 0 ||
      part.rfind("differential", 0) == 0)
    return "driveline";
  if (part.rfind("wheel", 0) == 0) return "tires";
  if (part.rfind("brake", 0) == 0) return "brakes";
  if (part.rfind("body", 0) == 0) return "body";
  if (part.rfind("pack", 0) == 0) return "battery";
  if (part.rfind("motor", 0) == 0) return "motor";
  return "other";
}

// The wheels' positive work on the road (J): the road's reaction on the
// tires while it drives the car.
double positive_wheel_work(const Result& r, const std::array<vehicle::Wheel*, 4>& wheels) {
  std::vector<double> wheel_power(r.size(), 0.0);
  for (const vehicle::Wheel* w : wheels) {
    const auto p = r.evaluate(w->F_traction * w->v);
    for (std::size_t k = 0; k < r.size(); ++k) wheel_power[k] += p[k];
  }
  for (double& p : wheel_power) p = std::max(p, 0.0);
  return trapezoid(r.time(), wheel_power);
}

// Summed over the books' accounts: energy supplied (J), the change of what
// is stored in parts other than those of `stored_category`, and what each
// category dissipated.
struct Ledger {
  double supplied = 0, stored = 0;
  std::map<std::string, double> dissipated;
};
Ledger ledger(const Result& r, const EnergyBooks& books, const std::string& source_category = "") {
  Ledger l;
  for (const auto& account : books.accounts()) {
    const auto b = r.evaluate(std::vector<Expr>{account.W_supplied, account.W_dissipated, account.stored});
    l.supplied += b[0].back();
    if (category(account.component) != source_category) l.stored += b[2].back() - b[2].front();
    l.dissipated[category(account.component)] += b[1].back();
  }
  return l;
}

std::string band_text(const BandVerdict& band) {
  return band.inside() ? "within the ±2 km/h, ±1 s band"
                       : fmt::format("{:.2f} km/h outside the band at {:.1f} s", band.worst_excursion * 3.6,
                                     band.worst_time);
}

}  // namespace

CycleReport cycle_report(const Result& r, const CycleTest& test, double co2_per_fuel) {
  CycleReport report;
  const auto& t = r.time();
  const auto& body = test.body;
  const auto& engine = test.engine;
  report.cycle = test.cycle.cycle_name;
  report.duration = t.back() - t.front();
  const auto s = r.evaluate(body.s);
  report.distance = (s.back() - s.front()) / 1000;
  const auto fuel = r.evaluate(engine.fuel_mass);
  report.fuel = fuel.back() - fuel.front();
  const auto litres = r.evaluate(engine.fuel_volume);
  report.fuel_per_100km = (litres.back() - litres.front()) / report.distance * 100;
  report.co2 = report.fuel * 1000 * co2_per_fuel / report.distance;
  report.positive_tractive_energy = positive_wheel_work(r, test.wheels) / 1000 / report.distance;

  auto [supplied, stored, dissipated] = ledger(r, test.books);
  const double aero = trapezoid(t, r.evaluate(body.F_drag * body.v));
  report.fuel_energy = r.evaluate(engine.fuel_mass * engine.LHV).back() / 1e6;
  report.energy_split = {{"engine", dissipated["engine"] / 1e6},
                         {"driveline", dissipated["driveline"] / 1e6},
                         {"tires", dissipated["tires"] / 1e6},
                         {"brakes", dissipated["brakes"] / 1e6},
                         {"aero drag", aero / 1e6},
                         {"rolling resistance", (dissipated["body"] - aero) / 1e6},
                         {"stored at the end", stored / 1e6}};
  double total = 0;
  for (const auto& [name, value] : report.energy_split) total += value;
  report.split_closure = std::fabs(total - supplied / 1e6) / std::max(report.fuel_energy, 1e-12);
  report.band = speed_band(t, r.evaluate(body.v), r.evaluate(test.cycle.v_ref));
  return report;
}

std::string CycleReport::line() const {
  std::string split;
  for (const auto& [name, value] : energy_split)
    split += fmt::format("{}{} {:.0f} %", split.empty() ? "" : ", ", name, 100 * value / fuel_energy);
  return fmt::format(
      "{}: {:.2f} km in {:.0f} s, fuel {:.2f} L/100 km ({:.0f} g/km CO2), wheels {:.0f} kJ/km; {}; speed {}",
      cycle, distance, duration, fuel_per_100km, co2, positive_tractive_energy, split, band_text(band));
}

ElectricCycleReport cycle_report(const Result& r, const ElectricCycleTest& test) {
  constexpr double kWh = 3.6e6;
  ElectricCycleReport report;
  const auto& t = r.time();
  const auto& car = test.car;
  report.cycle = test.cycle.cycle_name;
  report.duration = t.back() - t.front();
  const auto s = r.evaluate(car.body.s);
  report.distance = (s.back() - s.front()) / 1000;
  const auto E_chem = r.evaluate(car.pack.E_chem);
  report.cells_energy = (E_chem.front() - E_chem.back()) / kWh;
  // The pack's power is v·i with i into p: negative while it drives.
  const auto power = r.evaluate(car.pack.power);
  std::vector<double> in(power.size());
  for (std::size_t k = 0; k < power.size(); ++k) in[k] = std::max(power[k], 0.0);
  // The net energy exactly, from the pack's books (the power into its ports);
  // its charging part by the trapezoid over the output rows.
  const std::string pack = test.car.pack.path();
  for (const auto& account : test.books.accounts())
    if (account.component == pack) report.battery_energy = -r.evaluate(account.W_ports).back() / kWh;
  report.regenerated = trapezoid(t, in) / kWh;
  const double drawn = report.battery_energy + report.regenerated;
  report.regen_share = drawn > 0 ? report.regenerated / drawn : 0.0;
  report.consumption = report.battery_energy / report.distance * 100;
  report.wheel_consumption = positive_wheel_work(r, car.wheels) / kWh / report.distance * 100;
  const auto soc = r.evaluate(car.pack.SOC);
  const double soc_window = r.evaluate(car.pack.SOCmax - car.pack.SOCmin).back();
  report.range = soc.front() > soc.back() ? report.distance * soc_window / (soc.front() - soc.back()) : 0.0;

  auto [supplied, stored, dissipated] = ledger(r, test.books, "battery");
  const double aero = trapezoid(t, r.evaluate(car.body.F_drag * car.body.v));
  report.energy_split = {{"battery", dissipated["battery"] / kWh},
                         {"motor and inverter", dissipated["motor"] / kWh},
                         {"driveline", dissipated["driveline"] / kWh},
                         {"tires", dissipated["tires"] / kWh},
                         {"brakes", dissipated["brakes"] / kWh},
                         {"aero drag", aero / kWh},
                         {"rolling resistance", (dissipated["body"] - aero) / kWh},
                         {"stored at the end", stored / kWh}};
  double total = 0;
  for (const auto& [name, value] : report.energy_split) total += value;
  // Nothing is supplied from outside on a level road: the cells pay for it all.
  report.split_closure =
      std::fabs(total - supplied / kWh - report.cells_energy) / std::max(std::fabs(report.cells_energy), 1e-12);
  report.band = speed_band(t, r.evaluate(car.body.v), r.evaluate(test.cycle.v_ref));
  return report;
}

std::string ElectricCycleReport::line() const {
  std::string split;
  for (const auto& [name, value] : energy_split)
    split += fmt::format("{}{} {:.0f} %", split.empty() ? "" : ", ", name, 100 * value / cells_energy);
  return fmt::format(
      "{} (electric): {:.2f} km in {:.0f} s, {:.1f} kWh/100 km at the battery, wheels {:.1f} kWh/100 km, "
      "regenerated {:.0f} % of the drive energy, range {:.0f} km; {}; speed {}",
      cycle, distance, duration, consumption, wheel_consumption, 100 * regen_share, range, split, band_text(band));
}

}  // namespace acausal::harness
