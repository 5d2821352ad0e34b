#include "solver/passes/flatten.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace acausal {

namespace {

// Each connector takes part in connections in two roles: "inside" (connected
// by its owner's parent) and "outside" (connected from within its owner).
// Flows enter a connection set's sum with + inside and - outside, as in Modelica.
struct Role {
  const Connector* connector;
  bool outside;
};

class UnionFind {
 public:
  int make() {
    parent_.push_back(static_cast<int>(parent_.size()));
    return parent_.back();
  }
  int find(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void unite(int a, int b) { parent_[find(a)] = find(b); }

 private:
  std::vector<int> parent_;
};

class Flattener {
 public:
  explicit Flattener(DaeSystem& dae) : dae_(dae) {}

  void component(const Component& c, const std::string& prefix, bool top) {
    int where = origin(top ? dae_.model_name : prefix + " (" + c.type_name() + ")");
    for (const auto& v : c.variables()) {
      DaeVariable dv;
      dv.name = prefix.empty() ? v.name : prefix + "." + v.name;
      dv.unit = v.attributes.unit;
      dv.start = v.attributes.start;
      dv.fixed = v.attributes.fixed;
      dv.start_given = v.start_given;
      dv.nominal = v.attributes.nominal;
      dv.state = v.attributes.state;
      dv.causality = v.causality;
      dv.symbol = v.symbol.node();
      dae_.variable_of.set(dv.symbol, static_cast<int>(dae_.variables.size()));
      dae_.variables.push_back(std::move(dv));
      if (top && v.causality == Causality::input) model_input(dae_.variables.back(), where);
      if (top && v.causality == Causality::output) dae_.outputs.push_back(static_cast<int>(dae_.variables.size()) - 1);
    }
    for (const auto& p : c.parameters()) {
      dae_.parameter_of.set(p.symbol.node(), static_cast<int>(dae_.parameters.size()));
      dae_.parameters.push_back({prefix.empty() ? p.name : prefix + "." + p.name, p.value, p.attributes,
                                 p.symbol.node()});
    }
    for (const auto& d : c.discretes()) {
      DaeDiscrete dd;
      dd.name = prefix.empty() ? d.name : prefix + "." + d.name;
      dd.symbol = d.symbol.node();
      dd.pre = pre_symbol(dd.symbol);
      dd.attributes = d.attributes;
      dd.origin = where;
      add_discrete(std::move(dd));
    }
    // A top-level Boolean or Integer output is an output of the model, like a RealOutput.
    if (top)
      for (const Connector* k : c.connectors())
        for (const ConnectorMember& member : k->members())
          if (member.causality == Causality::output && member.symbol.op() == Op::Discrete)
            dae_.outputs.push_back(readout_of_.at(member.symbol.node()));
    for (const auto& eq : c.equations()) {
      // `x == expr` on a discrete x defines it (evaluated at events), outside the DAE.
      if (eq.lhs.op() == Op::Discrete && !pre_of(eq.lhs.node())) {
        discrete_equations_.push_back({eq, where});
        continue;
      }
      dae_.equations.push_back({eq.residual(), eq, where});
    }
    for (const auto& w : c.whens()) whens_.push_back({&w, where});
    for (const auto& init : c.initial_equations()) {
      if (!active(init, where)) continue;
      // A fixed start value the user set replaces the component's own initial value.
      if (init.start_of && dae_.variables[dae_.variable_of.at(init.start_of)].start_given &&
          dae_.variables[dae_.variable_of.at(init.start_of)].fixed)
        continue;
      dae_.initial_equations.push_back({init.equation.residual(), init.equation, where});
    }
    for (const auto& [condition, requirement] : c.requirements())
      dae_.parameter_conditions.push_back({condition, dae_.origins[where] + ": " + requirement});
    for (const auto& conditional : c.conditional_connectors())
      if (!structural_condition(conditional.active, where, "a conditional connector's condition"))
        inactive_connectors_.push_back(&conditional);
    for (const auto& [a, b] : c.connections()) {
      uf_.unite(role(a, &a->owner() == &c), role(b, &b->owner() == &c));
    }
    if (!top) {
      for (const Connector* k : c.connectors()) inside_connectors_.push_back(k);
    }
    for (const Connector* k : c.connectors())
      for (const auto& m : k->members())
        if (m.causality == Causality::input && m.symbol.op() == Op::Discrete) discrete_inputs_[m.symbol.node()] = k;
    for (const auto& child : c.children()) component(*child, prefix.empty() ? child->name() : prefix + "." + child->name(), false);
  }

  void connection_equations() {
    std::unordered_map<int, std::vector<int>> sets;
    for (int i = 0; i < static_cast<int>(roles_.size()); ++i) sets[uf_.find(i)].push_back(i);
    std::vector<int> roots;
    for (const auto& [root, members] : sets) roots.push_back(members.front());
    std::sort(roots.begin(), roots.end());  // deterministic equation order
    for (int first : roots) connection_set(sets[uf_.find(first)]);

    for (const Component::ConditionalConnector* conditional : inactive_connectors_) {
      auto it = inside_role_.find(conditional->connector);
      if (it == inside_role_.end()) continue;
      std::string partner;
      for (int member : sets[uf_.find(it->second)])
        if (roles_[member].connector != conditional->connector) partner = roles_[member].connector->path();
      throw ModelError("connect(" + conditional->connector->path() + ", " + partner + "): the connector exists only when " +
                       conditional->condition + " (set that parameter of '" + conditional->connector->owner().path() +
                       "' first)");
    }
    for (const Connector* k : inside_connectors_) {
      if (inside_role_.count(k)) continue;
      for (const auto& m : k->members()) {
        if (m.causality != Causality::flow) continue;
        Equation eq{m.symbol, Expr(0.0)};
        dae_.equations.push_back({eq.residual(), eq, origin("unconnected " + k->path() + ": flow is zero")});
      }
    }
  }

 // Discrete definitions and when-clauses may name discretes of any component
  // of the model: they are resolved once all are known.
  void hybrid() {
    for (const auto& [eq, where] : discrete_equations_) {
      DaeDiscrete& d = discrete(eq.lhs.node(), where, "its equation " + eq.lhs.str() + " == " + eq.rhs.str());
      if (d.defined)
        throw ModelError(dae_.origins[where] + ": discrete variable " + d.name + " has two defining equations (" +
                         d.name + " == " + dae_.print(d.definition) + " and " + d.name + " == " + dae_.print(eq.rhs) + ")");
      d.definition = eq.rhs;
      d.defined = true;
      special_leaves(eq.rhs, where);
    }
    for (const auto& [clause, where] : whens_) {
      DaeWhen w;
      w.origin = where;
      w.conditions = clause->conditions;
      w.assertion = clause->assertion;
      for (const auto& c : w.conditions) special_leaves(c, where);
      for (const auto& action : clause->actions) {
        DaeWhen::Action a;
        a.value = action.value;
        special_leaves(a.value, where);
        const Node* target = action.target.node();
        if (action.reinit) {
          a.variable = target->op == Op::Var ? dae_.variable_of.find(target) : -1;
          if (a.variable < 0)
            throw ModelError(dae_.origins[where] + ": reinit(" + dae_.print(action.target) +
                             ", ...) must name a variable of the model (a state)");
        } else {
          if (target->op != Op::Discrete || pre_of(target))
            throw ModelError(dae_.origins[where] + ": a when-clause assigns discrete variables (x == value) or " +
                             "reinitializes states (reinit(x, value)); " + dae_.print(action.target) + " == " +
                             dae_.print(action.value) + " is neither");
          discrete(target, where, "a when-clause");
          a.discrete = dae_.discrete_of.at(target);
          dae_.discretes[a.discrete].assigned = true;
        }
        w.actions.push_back(std::move(a));
      }
      if (clause->call.function) external_call(clause->call, where, w);
      dae_.whens.push_back(std::move(w));
    }
    for (const auto& eq : dae_.equations) {
      special_leaves(eq.residual, eq.origin);
      no_floor_of_continuous(eq);
    }
    for (auto& d : dae_.discretes) {
      if (d.role != DaeDiscrete::Role::declared) continue;
      if (d.defined && d.assigned)
        throw ModelError(dae_.origins[d.origin] + ": discrete variable " + d.name +
                         " is defined by an equation and assigned in a when-clause; use one or the other");
      auto input = discrete_inputs_.find(d.symbol);
      if (!d.defined && input != discrete_inputs_.end())
        throw ModelError(dae_.origins[d.origin] + ": input " + input->second->path() + " (" + input->second->type() +
                         ") is not connected; connect it to an output (a source such as blocks::" +
                         (input->second->type() == "signal.Boolean" ? "BooleanConstant" : "IntegerConstant") + ")");
      if (!d.defined && !d.assigned)
        throw ModelError(dae_.origins[d.origin] + ": nothing determines discrete variable " + d.name +
                         "; define it (" + d.name + " == expr) or assign it in a when-clause");
    }
  }

 private:
  void add_discrete(DaeDiscrete d) {
    const int index = static_cast<int>(dae_.discretes.size());
    dae_.discrete_of[d.symbol] = index;
    dae_.discrete_of[d.pre] = index;
    if (d.role != DaeDiscrete::Role::declared) {
      dae_.discretes.push_back(std::move(d));
      return;
    }
    // A column of the result, like any variable.
    DaeVariable readout;
    readout.name = d.name;
    readout.unit = d.attributes.unit;
    readout.start = d.attributes.start;
    readout.symbol = derived_symbol(Op::Var, d.symbol, "readout", d.name).node();
    readout.definition = d.symbol;
    readout_of_[d.symbol] = static_cast<int>(dae_.variables.size());
    dae_.variable_of.set(readout.symbol, static_cast<int>(dae_.variables.size()));
    dae_.variables.push_back(std::move(readout));
    dae_.discretes.push_back(std::move(d));
  }

  // The call's arguments become argument actions, in order; its results are assigned discretes.
  void external_call(const ExternalCall& call, int where, DaeWhen& w) {
    for (const Expr& argument : call.arguments) {
      DaeWhen::Action a;
      a.value = argument;
      special_leaves(a.value, where);
      w.actions.push_back(std::move(a));
    }
    w.call = call.function;
    for (const Discrete& result : call.results) {
      const Node* target = result.node();
      if (target->op != Op::Discrete || pre_of(target))
        throw ModelError(dae_.origins[where] + ": an external call's result must be a discrete variable, not " +
                         dae_.print(result));
      discrete(target, where, "an external call");
      const int k = dae_.discrete_of.at(target);
      dae_.discretes[k].assigned = true;
      w.call_results.push_back(k);
    }
  }

  DaeDiscrete& discrete(const Node* symbol, int where, const std::string& context) {
    auto it = dae_.discrete_of.find(symbol);
    if (it == dae_.discrete_of.end())
      throw ModelError(dae_.origins[where] + ": " + context + " names discrete variable '" + symbol_name(symbol) +
                       "', which belongs to no component of model '" + dae_.model_name + "'");
    return dae_.discretes[it->second];
  }

  // initial() and sample() become discretes the simulator sets; any other
  // discrete leaf must be one of the model's.
  void special_leaves(const Expr& e, int where) {
    for_each_postorder(e.node(), [&](const Node* n) {
      if (n->op != Op::Discrete || dae_.discrete_of.count(n)) return;
      DaeDiscrete d;
      d.symbol = n;
      d.pre = pre_symbol(n);
      d.attributes.kind = DiscreteKind::boolean;
      d.origin = where;
      if (is_initial_symbol(n)) {
        d.role = DaeDiscrete::Role::initial;
        d.name = "initial()";
      } else if (const auto clock = sample_clock(n)) {
        d.role = DaeDiscrete::Role::sample;
        d.clock = *clock;
        d.name = "sample(" + dae_.print(clock->start) + ", " + dae_.print(clock->interval) + ")";
        for (const Expr& p : {clock->start, clock->interval})
          for_each_postorder(p.node(), [&](const Node* leaf) {
            if (leaf->op == Op::Param && !dae_.parameter_of.contains(leaf))
              throw ModelError(dae_.origins[where] + ": " + symbol_name(n) + " reads parameter '" +
                               symbol_name(leaf) + "', which belongs to no component of this model");
          });
      } else {
        const Node* of = pre_of(n);
        discrete(of ? of : n, where, dae_.print(e));
        return;
      }
      add_discrete(std::move(d));
    });
  }

  // floor() jumps where its argument crosses a whole number and raises no event
  // there: in the DAE, IDA would step across the jump blindly. Parameters and
  // discretes hold still between events, so floor() of them may stay.
  void no_floor_of_continuous(const DaeEquation& eq) {
    for_each_postorder(eq.residual.node(), [&](const Node* n) {
      if (n->op != Op::Floor) return;
      bool varies = false;
      for_each_postorder(n->arg[0], [&](const Node* leaf) {
        varies |= leaf->op == Op::Var || leaf->op == Op::Der || leaf->op == Op::Time;
      });
      if (varies)
        throw ModelError(dae_.origins[eq.origin] + ": floor() in a continuous equation: use it in a when-clause or a " +
                         "discrete equation, whose values change only at events (in " + dae_.print(eq.source.lhs) +
                         " = " + dae_.print(eq.source.rhs) + ")");
    });
  }

  // Whether an initial equation applies: its condition may read only
  // structural parameters, whose values are final at compile().
  bool active(const InitialEquation& init, int where) {
    return structural_condition(init.active, where, "an initial equation's condition");
  }

  bool structural_condition(const Expr& condition, int where, const char* what) {
    if (condition.is_const()) return condition.value() != 0.0;
    return evaluate(condition, [&](const Node* leaf) {
      int p = dae_.parameter_of.find(leaf);
      if (p < 0 || !dae_.parameters[p].attributes.structural)
        throw ModelError(dae_.origins[where] + ": " + what + " " + condition.str() +
                         " may only read structural parameters (declared with .structural or .choices)");
      return dae_.parameters[p].value;
    }) != 0.0;
  }

  // A top-level input is a value the caller sets: a parameter of the same
  // name that the input equals (alias elimination then reads the parameter
  // wherever the input is used).
  void model_input(const DaeVariable& v, int where) {
    Expr value = derived_symbol(Op::Param, v.symbol, "input", v.name);
    ParameterAttributes attributes{.unit = v.unit, .description = "input of the model, set from outside"};
    attributes.input = true;
    dae_.parameter_of.set(value.node(), static_cast<int>(dae_.parameters.size()));
    dae_.parameters.push_back({v.name, v.start, std::move(attributes), value.node()});
    Equation eq{Expr(v.symbol), value};
    dae_.equations.push_back({eq.residual(), eq, where});
  }

  int origin(std::string text) {
    dae_.origins.push_back(std::move(text));
    return static_cast<int>(dae_.origins.size()) - 1;
  }

  int role(const Connector* c, bool outside) {
    auto& map = outside ? outside_role_ : inside_role_;
    if (auto it = map.find(c); it != map.end()) return it->second;
    int id = uf_.make();
    roles_.push_back({c, outside});
    map[c] = id;
    return id;
  }

  void connection_set(const std::vector<int>& members) {
    std::string text = "connect(";
    for (std::size_t i = 0; i < members.size(); ++i)
      text += (i ? ", " : "") + roles_[members[i]].connector->path();
    int origin = this->origin(text + ")");
    const Connector* proto = roles_[members.front()].connector;
    for (std::size_t k = 0; k < proto->members().size(); ++k) {
      Causality causality = proto->members()[k].causality;
      auto member = [&](int role) { return roles_[role].connector->members()[k].symbol; };
      if (causality == Causality::flow) {
        Expr sum(0.0);
        for (int r : members) sum = roles_[r].outside ? sum - member(r) : sum + member(r);
        Equation eq{sum, Expr(0.0)};
        dae_.equations.push_back({eq.residual(), eq, origin});
        continue;
      }
      // Potentials are equal across the set; a signal set is driven by its
      // one source (an inner output or an outside input).
      int driver = members.front();
      if (causality == Causality::input || causality == Causality::output) {
        for (int r : members) {
          bool is_output = roles_[r].connector->members()[k].causality == Causality::output;
          if (is_output != roles_[r].outside) {
            driver = r;
            break;
          }
        }
      }
      for (int r : members) {
        if (r == driver) continue;
        Equation eq{member(r), member(driver)};
        // A Boolean or Integer signal: the connection defines the discrete (evaluated at events).
        if (eq.lhs.op() == Op::Discrete)
          discrete_equations_.push_back({eq, origin});
        else
          dae_.equations.push_back({eq.residual(), eq, origin});
      }
    }
  }

  DaeSystem& dae_;
  UnionFind uf_;
  std::vector<Role> roles_;
  std::unordered_map<const Connector*, int> inside_role_, outside_role_;
  std::vector<const Component::ConditionalConnector*> inactive_connectors_;
  std::vector<const Connector*> inside_connectors_;
  std::vector<std::pair<Equation, int>> discrete_equations_;
  std::unordered_map<const Node*, const Connector*> discrete_inputs_;
  std::vector<std::pair<const WhenClause*, int>> whens_;
  std::unordered_map<const Node*, int> readout_of_;  // declared discrete -> the variable that reads it out
};

}  // namespace

DaeSystem flatten(const Component& model) {
  DaeSystem dae;
  dae.model_name = model.name();
  // Size the tables once: rehashing hundreds of thousands of entries shows up in large models.
  std::size_t n_variables = 0, n_parameters = 0, n_equations = 0;
  std::vector<const Component*> pending{&model};
  while (!pending.empty()) {
    const Component* c = pending.back();
    pending.pop_back();
    n_variables += c->variables().size();
    n_parameters += c->parameters().size();
    n_equations += c->equations().size() + c->variables().size() / 2;  // plus connection equations, roughly
    for (const Component* child : c->children()) pending.push_back(child);
  }
  dae.variables.reserve(n_variables);
  dae.parameters.reserve(n_parameters);
  dae.equations.reserve(n_equations);
  Flattener f(dae);
  f.component(model, "", true);
  f.connection_equations();
  f.hybrid();
  PassReport& r = dae.report.add("flatten");
  r.counts = {{"variables", static_cast<long>(dae.variables.size())},
              {"equations", static_cast<long>(dae.equations.size())},
              {"parameters", static_cast<long>(dae.parameters.size())},
              {"initial_equations", static_cast<long>(dae.initial_equations.size())}};
  return dae;
}

}  // namespace acausal
