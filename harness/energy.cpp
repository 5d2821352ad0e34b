#include "harness/energy.hpp"

#include <algorithm>
#include <cmath>

#include "solver/symbolic/errors.hpp"

namespace acausal::harness {

namespace {

// The power entering a component through its connectors, pairing the k-th
// potential member of a connector with its k-th flow member by the
// connector's rule (PortPower).
Expr port_power(const Component& c) {
  Expr power(0.0);
  for (const Connector* k : c.connectors()) {
    std::vector<const ConnectorMember*> potentials, flows;
    for (const auto& m : k->members()) {
      if (m.causality == Causality::potential) potentials.push_back(&m);
      if (m.causality == Causality::flow) flows.push_back(&m);
    }
    if (k->port_power() == PortPower::flow) {
      for (const ConnectorMember* f : flows)
        if (f->booked) power = power + f->symbol;
      continue;
    }
    for (std::size_t i = 0; i < std::min(potentials.size(), flows.size()); ++i) {
      if (!potentials[i]->booked || !flows[i]->booked) continue;
      const Expr& p = potentials[i]->symbol;
      power = power + (k->port_power() == PortPower::potential_times_flow ? p : der(p)) * flows[i]->symbol;
    }
  }
  return power;
}

bool has_power_ports(const Component& c) {
  for (const Connector* k : c.connectors())
    for (const auto& m : k->members())
      if (m.causality == Causality::flow) return true;
  return false;
}

Variable integral_of(Component& c, const std::string& name, const Expr& rate) {
  Variable W = c.variable("energy." + name, {.unit = "J", .start = 0.0, .fixed = true});
  c.equation(der(W) == rate);
  return W;
}

void collect(Component& c, std::vector<EnergyBooks::Account>& accounts) {
  for (Component* child : c.children()) collect(*child, accounts);
  if (!c.children().empty()) return;  // a composite passes its connectors through to its parts
  const EnergyDeclaration& declared = c.energy();
  const bool declares = !declared.stored.is_const(0.0) || !declared.dissipated.is_const(0.0) ||
                        !declared.supplied.is_const(0.0) || !declared.dissipated_at_events.is_const(0.0) ||
                        declared.source;
  if (!declares && !has_power_ports(c)) return;  // a block: signals only
  const Expr ports = port_power(c);
  EnergyBooks::Account a;
  a.component = c.path();
  a.stored = declared.stored;
  a.W_ports = integral_of(c, "W_ports", ports);
  a.W_supplied = integral_of(c, "W_supplied", declared.source ? -ports : declared.supplied);
  a.W_dissipated = integral_of(c, "W_dissipated", declared.dissipated) + declared.dissipated_at_events;
  accounts.push_back(a);
}

struct Books {
  std::vector<std::vector<double>> imbalance;  // per account, per row
  std::vector<double> scale;                   // per account: the most energy that went through
  std::vector<std::vector<double>> columns;    // W_ports, W_supplied, ΔE, W_dissipated per account
};

Books read(const Result& r, const std::vector<EnergyBooks::Account>& accounts) {
  std::vector<Expr> wanted;
  for (const auto& a : accounts) wanted.insert(wanted.end(), {a.W_ports, a.W_supplied, a.stored, a.W_dissipated});
  Books b;
  b.columns = r.evaluate(wanted);
  for (std::size_t i = 0; i < accounts.size(); ++i) {
    auto& ports = b.columns[4 * i];
    auto& supplied = b.columns[4 * i + 1];
    auto& stored = b.columns[4 * i + 2];
    auto& dissipated = b.columns[4 * i + 3];
    const double E0 = stored.empty() ? 0.0 : stored.front();
    for (double& e : stored) e -= E0;
    std::vector<double> imbalance(r.size());
    double scale = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      imbalance[k] = ports[k] + supplied[k] - stored[k] - dissipated[k];
      scale = std::max({scale, std::fabs(ports[k]), std::fabs(supplied[k]), std::fabs(stored[k]),
                        std::fabs(dissipated[k])});
    }
    b.imbalance.push_back(std::move(imbalance));
    b.scale.push_back(scale);
  }
  return b;
}

// Scales below this are no energy at all (a fixture, an unloaded sensor): J.
constexpr double kNoEnergy = 1e-9;
// Relative round-off of the energies a run integrates (a few hundred ulps).
constexpr double kRoundOff = 1e-13;
// A component through which less than this fraction of the largest account's
// energy went is not reported as the worst of a passing run: J relative.
constexpr double kCarried = 1e-6;

}  // namespace

EnergyBooks::EnergyBooks(Model& model) { collect(model, accounts_); }

Check EnergyBooks::components_close(double tolerance) const {
  const auto accounts = accounts_;
  return Check("each component's energy books close", tolerance,
               [accounts, tolerance](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
    c.detail = "for each of " + std::to_string(accounts.size()) +
               " components: W_ports + W_supplied = ΔE_stored + W_dissipated at every output time, relative to the "
               "most energy that went through it, within " + percent(tolerance);
    const Books b = read(r, accounts);
    // Energy below round-off of the model's largest account is no energy either:
    // a steering mount that passes 1e-12 J beside a car's 4e5 J carries only round-off.
    double largest = 0;
    for (double s : b.scale) largest = std::max(largest, s);
    const double no_energy = std::max(kNoEnergy, kRoundOff * largest);
    std::size_t worst_account = 0, worst_row = 0;
    c.error = 0;
    for (std::size_t i = 0; i < accounts.size(); ++i)
      for (std::size_t k = 0; k < r.size(); ++k) {
        const double e = std::fabs(b.imbalance[i][k]) / std::max(b.scale[i], no_energy);
        if (!(e <= c.error)) {
          c.error = e;
          worst_account = i;
          worst_row = k;
        }
      }
    c.passed = c.error <= tolerance;
    c.kind = "energy";
    if (accounts.empty() || r.size() == 0) {
      c.message = "FAILS: no component has power connectors or energy declarations";
      c.passed = false;
      return;
    }
    // A passing run is shown by the worst of the components that carried energy:
    // the "worst" relative error of an unused brake (1e-7 J through it) says nothing.
    // A failing component is shown whatever it carried: it is the culprit.
    std::size_t carriers = 0;
    if (c.passed) {
      double worst_carried = -1;
      for (std::size_t i = 0; i < accounts.size(); ++i) {
        if (b.scale[i] < kCarried * largest) continue;
        ++carriers;
        for (std::size_t k = 0; k < r.size(); ++k) {
          const double e = std::fabs(b.imbalance[i][k]) / std::max(b.scale[i], no_energy);
          if (e > worst_carried) worst_carried = e, worst_account = i, worst_row = k;
        }
      }
      c.error = std::max(worst_carried, 0.0);
    }
    const auto& name = accounts[worst_account].component;
    const char* terms[] = {"W_ports", "W_supplied", "ΔE_stored", "W_dissipated"};
    for (int j = 0; j < 4; ++j) {
      c.plot.push_back({name + " " + terms[j], b.columns[4 * worst_account + j], "J"});
      c.worst_values.push_back({name + " " + terms[j], b.columns[4 * worst_account + j][worst_row]});
    }
    c.plot.push_back({name + " imbalance", b.imbalance[worst_account], "J"});
    c.worst_time = c.time[worst_row];
    const std::string among = c.passed ? " of the " + std::to_string(carriers) + " components that carried energy (" +
                                             std::to_string(accounts.size() - carriers) + " carried less than " +
                                             format_number(kCarried) + " of the largest)"
                                       : "";
    c.message = std::string(c.passed ? "holds" : "FAILS") + ": " + (c.passed ? "worst" + among + ":" : "the books of") +
                " " + name + (c.passed ? "" : " do not close") + ": imbalance " +
                format_number(b.imbalance[worst_account][worst_row]) + " J of " +
                format_number(b.scale[worst_account]) + " J (relative " + format_number(c.error) + ", tolerance " +
                format_number(tolerance) + ") at t = " + format_number(c.worst_time) + " s";
  });
}

Check EnergyBooks::model_closes(double tolerance) const {
  const auto accounts = accounts_;
  return Check("the whole model conserves energy: work in = stored + dissipated", tolerance,
               [accounts, tolerance](const Result& r, const std::vector<std::size_t>&, CheckResult& c) {
    c.detail = "Σ W_supplied = Σ ΔE_stored + Σ W_dissipated over the " + std::to_string(accounts.size()) +
               " components at every output time, relative to the largest of the three, within " +
               percent(tolerance);
    const Books b = read(r, accounts);
    std::vector<double> work_in(r.size(), 0.0), stored(r.size(), 0.0), dissipated(r.size(), 0.0);
    for (std::size_t i = 0; i < accounts.size(); ++i)
      for (std::size_t k = 0; k < r.size(); ++k) {
        work_in[k] += b.columns[4 * i + 1][k];
        stored[k] += b.columns[4 * i + 2][k];
        dissipated[k] += b.columns[4 * i + 3][k];
      }
    double scale = kNoEnergy;
    for (std::size_t k = 0; k < r.size(); ++k)
      scale = std::max({scale, std::fabs(work_in[k]), std::fabs(stored[k]), std::fabs(dissipated[k])});
    std::size_t worst = 0;
    c.error = 0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      const double e = std::fabs(work_in[k] - stored[k] - dissipated[k]) / scale;
      if (!(e <= c.error)) {
        c.error = e;
        worst = k;
      }
    }
    c.passed = c.error <= tolerance && r.size() > 0 && !accounts.empty();
    c.kind = "energy";
    c.plot = {{"work in (Σ W_supplied)", work_in, "J"}, {"Σ ΔE_stored", stored, "J"},
              {"Σ W_dissipated", dissipated, "J"}};
    if (accounts.empty() || r.size() == 0) {
      c.message = "FAILS: no component has power connectors or energy declarations";
      return;
    }
    c.worst_time = c.time[worst];
    c.worst_values = {{"work in", work_in[worst]}, {"ΔE_stored", stored[worst]}, {"W_dissipated", dissipated[worst]}};
    c.message = std::string(c.passed ? "holds" : "FAILS") + ": work in " + format_number(work_in.back()) +
                " J, stored " + format_number(stored.back()) + " J, dissipated " + format_number(dissipated.back()) +
                " J at the end; worst relative imbalance " + format_number(c.error) + " (tolerance " +
                format_number(tolerance) + ") at t = " + format_number(c.worst_time) + " s";
    if (!c.passed) {
      // Name the component whose own books are furthest from closing.
      std::size_t leak = 0;
      double leak_error = -1;
      for (std::size_t i = 0; i < accounts.size(); ++i) {
        const double e = std::fabs(b.imbalance[i][worst]) / std::max(b.scale[i], kNoEnergy);
        if (e > leak_error) leak_error = e, leak = i;
      }
      c.message += "; the books of " + accounts[leak].component + " do not close (imbalance " +
                   format_number(b.imbalance[leak][worst]) + " J)";
    }
  });
}

}  // namespace acausal::harness
