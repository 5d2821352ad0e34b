#include "harness/cycle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

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

CycleTest cycle_test(Model& m, const std::string& cycle_name) {
  auto& car = m.add<vehicle::MappedCar>("car");
  auto& cycle = m.add<vehicle::DriveCycle>("cycle");
  cycle.set_cycle(cycle_name);
  auto& driver = m.add<vehicle::CycleDriver>("driver");
  m.connect(cycle.v_ref, driver.v_ref);
  m.connect(cycle.a_ref, driver.a_ref);
  m.connect(cycle.v_preview, driver.v_preview);
  m.connect(car.speed, driver.v);
  m.connect(driver.throttle, car.throttle);
  m.connect(driver.brake, car.brake);
  m.connect(driver.clutch, car.clutch_engagement);
  return CycleTest{car, cycle, driver, EnergyBooks(m)};
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
  if (part.rfind("clutch", 0) == 0 || part.rfind("gearbox", 0) == 0 || part.rfind("differential", 0) == 0)
    return "driveline";
  if (part.rfind("wheel", 0) == 0) return "tires";
  if (part.rfind("brake", 0) == 0) return "brakes";
  if (part.rfind("body", 0) == 0) return "body";
  return "other";
}

}  // namespace

CycleReport cycle_report(const Result& r, const CycleTest& test, double co2_per_fuel) {
  CycleReport report;
  const auto& t = r.time();
  const auto& car = test.car;
  const auto& body = car.body;
  report.cycle = test.cycle.cycle_name;
  report.duration = t.back() - t.front();
  const auto s = r.evaluate(body.s);
  report.distance = (s.back() - s.front()) / 1000;
  const auto fuel = r.evaluate(car.engine.fuel_mass);
  report.fuel = fuel.back() - fuel.front();
  const auto litres = r.evaluate(car.engine.fuel_volume);
  report.fuel_per_100km = (litres.back() - litres.front()) / report.distance * 100;
  report.co2 = report.fuel * 1000 * co2_per_fuel / report.distance;
  // The road's reaction on the tires, positive when it drives the car.
  std::vector<double> wheel_power(r.size(), 0.0);
  for (const vehicle::Wheel* w : car.wheels) {
    const auto p = r.evaluate(w->F_traction * w->v);
    for (std::size_t k = 0; k < r.size(); ++k) wheel_power[k] += p[k];
  }
  for (double& p : wheel_power) p = std::max(p, 0.0);
  report.positive_tractive_energy = trapezoid(t, wheel_power) / 1000 / report.distance;

  std::map<std::string, double> dissipated;
  double supplied = 0, stored = 0;
  for (const auto& account : test.books.accounts()) {
    const auto books = r.evaluate(std::vector<Expr>{account.W_supplied, account.W_dissipated, account.stored});
    supplied += books[0].back();
    stored += books[2].back() - books[2].front();
    dissipated[category(account.component)] += books[1].back();
  }
  const double aero = trapezoid(t, r.evaluate(body.F_drag * body.v));
  report.fuel_energy = r.evaluate(car.engine.fuel_mass * car.engine.LHV).back() / 1e6;
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
      cycle, distance, duration, fuel_per_100km, co2, positive_tractive_energy, split,
      band.inside() ? "within the ±2 km/h, ±1 s band"
                    : fmt::format("{:.2f} km/h outside the band at {:.1f} s", band.worst_excursion * 3.6,
                                  band.worst_time));
}

}  // namespace acausal::harness
