#include "solver/runtime/model_file.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "solver/lower/evaluation.hpp"
#include "solver/modeling/hybrid.hpp"
#include "solver/symbolic/errors.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal {

namespace {

// Every expression the DAE holds, in the order the file writes them. Sample
// clocks come first: reading a sample() leaf builds its clock from nodes
// already read.
template <class Visit>
void for_each_expression(const DaeSystem& dae, Visit&& visit) {
  for (const DaeDiscrete& d : dae.discretes)
    if (d.role == DaeDiscrete::Role::sample) visit(d.clock.start), visit(d.clock.interval);
  for (const DaeVariable& v : dae.variables)
    if (v.definition) visit(Expr(v.definition));
  for (const auto* list : {&dae.equations, &dae.initial_equations, &dae.consumed_equations})
    for (const DaeEquation& eq : *list) visit(eq.residual), visit(eq.source.lhs), visit(eq.source.rhs);
  for (const NonzeroCondition& c : dae.nonzero_conditions) visit(c.value);
  for (const ParameterCondition& c : dae.parameter_conditions) visit(c.condition);
  for (const EventMode& m : dae.modes) visit(m.relation), visit(m.indicator), visit(m.event_time);
  for (const DaeDiscrete& d : dae.discretes) visit(d.definition);
  for (const DaeWhen& w : dae.whens) {
    for (const Expr& c : w.conditions) visit(c);
    for (const DaeWhen::Action& a : w.actions) visit(a.value);
  }
  for (const auto& [der, alias] : dae.derivative_aliases) visit(Expr(der)), visit(Expr(alias));
}

class Writer {
 public:
  void word(std::string_view w) { out_.append(w).push_back(' '); }
  void number(double v) { fmt::format_to(std::back_inserter(out_), "{:a} ", v); }
  void integer(long v) { fmt::format_to(std::back_inserter(out_), "{} ", v); }
  void flag(bool b) { out_.append(b ? "1 " : "0 "); }
  void text(std::string_view s) {
    fmt::format_to(std::back_inserter(out_), "{}:", s.size());
    out_.append(s).push_back(' ');
  }
  void end_line() { out_.back() = '\n'; }
  std::string& str() { return out_; }

 private:
  std::string out_;
};

class ModelWriter {
 public:
  ModelWriter(const Simulator& simulator) : dae_(simulator.compiled().dae) {
    for (const ParameterInfo& p : simulator.parameters()) values_.push_back(p.value);
    for (int k = 0; k < static_cast<int>(dae_.modes.size()); ++k) mode_of_[dae_.modes[k].symbol] = k;
  }

  std::string write() {
    index_nodes();
    w_.word(kCompiledModelMagic), w_.integer(kCompiledModelVersion), w_.end_line();
    w_.word("model"), w_.text(dae_.model_name), w_.end_line();
    header();
    tables();
    w_.word("nodes"), w_.integer(static_cast<long>(node_index_.size())), w_.end_line();
    w_.str() += nodes_.str();
    expressions();
    report();
    w_.word("end"), w_.end_line();
    return std::move(w_.str());
  }

 private:
  void header() {
    w_.word("origins"), w_.integer(static_cast<long>(dae_.origins.size()));
    for (const std::string& o : dae_.origins) w_.text(o);
    w_.end_line();
    w_.word("variables"), w_.integer(static_cast<long>(dae_.variables.size())), w_.end_line();
    for (const DaeVariable& v : dae_.variables) {
      w_.text(v.name), w_.text(v.unit), w_.number(v.start), w_.flag(v.fixed), w_.flag(v.start_given);
      w_.number(v.nominal), w_.integer(static_cast<int>(v.state)), w_.integer(static_cast<int>(v.causality));
      w_.integer(v.fixed_by), w_.integer(v.solved_from), w_.end_line();
    }
    w_.word("parameters"), w_.integer(static_cast<long>(dae_.parameters.size())), w_.end_line();
    for (std::size_t k = 0; k < dae_.parameters.size(); ++k) {
      const DaeParameter& p = dae_.parameters[k];
      const ParameterAttributes& a = p.attributes;
      w_.text(p.name), w_.number(values_[k]), w_.text(a.unit), w_.number(a.min), w_.number(a.max);
      w_.text(a.description), w_.flag(a.structural), w_.flag(a.input), w_.integer(static_cast<long>(a.choices.size()));
      for (const std::string& c : a.choices) w_.text(c);
      w_.end_line();
    }
    w_.word("modes"), w_.integer(static_cast<long>(dae_.modes.size())), w_.end_line();
    w_.word("discretes"), w_.integer(static_cast<long>(dae_.discretes.size())), w_.end_line();
    for (const DaeDiscrete& d : dae_.discretes) {
      const bool sample = d.role == DaeDiscrete::Role::sample;
      w_.text(d.name), w_.integer(static_cast<int>(d.role)), w_.integer(static_cast<int>(d.attributes.kind));
      w_.text(d.attributes.unit), w_.number(d.attributes.start), w_.text(d.attributes.description);
      w_.integer(sample ? index(d.clock.start) : -1), w_.integer(sample ? index(d.clock.interval) : -1);
      w_.end_line();
    }
  }

  // Numbers every node once, children first, and writes its line to nodes_.
  void index_nodes() {
    std::vector<const Node*> roots;
    for_each_expression(dae_, [&](const Expr& e) { roots.push_back(e.node()); });
    for_each_postorder(roots, [&](const Node* n) {
      node_index_[n] = static_cast<long>(node_index_.size());
      node_line(n);
    });
  }

  void node_line(const Node* n) {
    Writer& w = nodes_;
    switch (n->op) {
      case Op::Const: w.word("c"), w.number(n->value); break;
      case Op::Time: w.word("t"); break;
      case Op::Var: w.word("v"), w.integer(known(dae_.variable_of.find(n), n)); break;
      case Op::Param:
        if (int p = dae_.parameter_of.find(n); p >= 0)
          w.word("p"), w.integer(p);
        else
          w.word("m"), w.integer(known(mode_of_.count(n) ? mode_of_.at(n) : -1, n));
        break;
      case Op::Discrete: {
        const int d = known(dae_.discrete_of.count(n) ? dae_.discrete_of.at(n) : -1, n);
        w.word(dae_.discretes[d].symbol == n ? "d" : "q"), w.integer(d);
        break;
      }
      case Op::Table: {
        auto [it, added] = table_index_.emplace(n->symbol, static_cast<long>(table_entries_.size()));
        if (added) table_entries_.push_back(n->symbol);
        w.word("T"), w.integer(it->second), w.integer(index(n->arg[0])), w.integer(index(n->arg[1]));
        break;
      }
      default:
        w.word("o"), w.integer(static_cast<int>(n->op));
        for (int i = 0; i < n->arity(); ++i) w.integer(index(n->arg[i]));
    }
    w.end_line();
  }

  int known(int k, const Node* leaf) const {
    if (k < 0)
      throw ModelError(fmt::format("model '{}': writing the compiled model met symbol '{}', which belongs to no part of it",
                                   dae_.model_name, symbol_name(leaf)));
    return k;
  }

  void tables() {
    w_.word("tables"), w_.integer(static_cast<long>(table_entries_.size())), w_.end_line();
    auto numbers = [&](const std::vector<double>& v) {
      w_.integer(static_cast<long>(v.size()));
      for (double x : v) w_.number(x);
    };
    for (std::uint32_t entry : table_entries_) {
      const TableEntryData t = table_entry_data(entry);
      w_.integer(t.function), w_.integer(t.order), w_.integer(t.order2), w_.flag(t.two_dimensional);
      if (t.two_dimensional) {
        numbers(t.grid.u1), numbers(t.grid.u2), numbers(t.grid.y);
        w_.integer(static_cast<int>(t.grid.extrapolation)), w_.integer(static_cast<int>(t.grid.smoothness));
      } else {
        numbers(t.column.x), numbers(t.column.y);
        w_.integer(static_cast<int>(t.column.smoothness)), w_.integer(static_cast<int>(t.column.extrapolation));
      }
      w_.end_line();
    }
  }

  void expressions() {
    w_.word("definitions");
    long count = 0;
    for (const DaeVariable& v : dae_.variables) count += v.definition != nullptr;
    w_.integer(count), w_.end_line();
    for (std::size_t k = 0; k < dae_.variables.size(); ++k)
      if (const Node* d = dae_.variables[k].definition) w_.integer(static_cast<long>(k)), w_.integer(index(d)), w_.end_line();
    equations("equations", dae_.equations);
    equations("initial_equations", dae_.initial_equations);
    equations("consumed_equations", dae_.consumed_equations);
    w_.word("nonzero_conditions"), w_.integer(static_cast<long>(dae_.nonzero_conditions.size())), w_.end_line();
    for (const NonzeroCondition& c : dae_.nonzero_conditions) w_.integer(index(c.value)), w_.text(c.reason), w_.end_line();
    w_.word("parameter_conditions"), w_.integer(static_cast<long>(dae_.parameter_conditions.size())), w_.end_line();
    for (const ParameterCondition& c : dae_.parameter_conditions)
      w_.integer(index(c.condition)), w_.text(c.requirement), w_.end_line();
    w_.word("mode_data"), w_.end_line();
    for (const EventMode& m : dae_.modes) {
      w_.integer(index(m.relation)), w_.integer(index(m.indicator)), w_.integer(index(m.event_time));
      w_.flag(m.time_event), w_.flag(m.follows_modes), w_.flag(m.continuous), w_.text(m.description), w_.text(m.origin);
      w_.end_line();
    }
    w_.word("discrete_data"), w_.end_line();
    for (const DaeDiscrete& d : dae_.discretes)
      w_.integer(index(d.definition)), w_.flag(d.defined), w_.flag(d.assigned), w_.integer(d.origin), w_.end_line();
    w_.word("whens"), w_.integer(static_cast<long>(dae_.whens.size())), w_.end_line();
    for (const DaeWhen& when : dae_.whens) {
      w_.integer(static_cast<long>(when.conditions.size()));
      for (const Expr& c : when.conditions) w_.integer(index(c));
      w_.integer(static_cast<long>(when.actions.size()));
      for (const DaeWhen::Action& a : when.actions) w_.integer(a.discrete), w_.integer(a.variable), w_.integer(index(a.value));
      w_.text(when.assertion), w_.integer(when.origin), w_.end_line();
    }
    w_.word("outputs"), w_.integer(static_cast<long>(dae_.outputs.size()));
    for (int o : dae_.outputs) w_.integer(o);
    w_.end_line();
    w_.word("derivative_aliases"), w_.integer(static_cast<long>(dae_.derivative_aliases.size()));
    for (const auto& [der, alias] : dae_.derivative_aliases) w_.integer(index(der)), w_.integer(index(alias));
    w_.end_line();
  }

  void equations(std::string_view section, const std::vector<DaeEquation>& list) {
    w_.word(section), w_.integer(static_cast<long>(list.size())), w_.end_line();
    for (const DaeEquation& eq : list) {
      w_.integer(index(eq.residual)), w_.integer(index(eq.source.lhs)), w_.integer(index(eq.source.rhs));
      w_.integer(eq.origin), w_.end_line();
    }
  }

  void report() {
    // What the passes before lowering reported: reading the file lowers the
    // model again, which reports its own pass and the states.
    const CompileReport& r = dae_.report;
    std::vector<const PassReport*> passes;
    for (const PassReport& p : r.passes)
      if (p.pass != "evaluation" && p.pass != "native_code") passes.push_back(&p);
    w_.word("report"), w_.integer(static_cast<long>(passes.size())), w_.end_line();
    auto texts = [&](const std::vector<std::string>& list) {
      w_.integer(static_cast<long>(list.size()));
      for (const std::string& s : list) w_.text(s);
    };
    for (const PassReport* p : passes) {
      w_.text(p->pass), w_.number(p->seconds), w_.integer(static_cast<long>(p->counts.size()));
      for (const auto& [what, n] : p->counts) w_.text(what), w_.integer(n);
      texts(p->notes), w_.end_line();
    }
    texts(r.unit_errors), w_.end_line();
  }

  long index(const Expr& e) const { return index(e.node()); }
  long index(const Node* n) const { return node_index_.at(n); }

  const DaeSystem& dae_;
  std::vector<double> values_;
  std::unordered_map<const Node*, int> mode_of_;
  std::unordered_map<const Node*, long> node_index_;
  std::unordered_map<std::uint32_t, long> table_index_;
  std::vector<std::uint32_t> table_entries_;
  Writer w_, nodes_;
};

}  // namespace

void write_compiled_model(const Simulator& simulator, std::ostream& out) {
  const DaeSystem& dae = simulator.compiled().dae;
  for (const DaeWhen& w : dae.whens)
    if (w.call)
      throw ModelError(fmt::format("model '{}': {} calls an external function (an imported FMU), whose state and "
                                   "binary a compiled-model file cannot carry; it cannot be written or exported",
                                   dae.model_name, dae.origins[w.origin]));
  out << ModelWriter(simulator).write();
  if (!out) throw ModelError(fmt::format("model '{}': writing the compiled model failed", simulator.compiled().dae.model_name));
}

}  // namespace acausal
