#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "solver/lower/evaluation.hpp"
#include "solver/modeling/hybrid.hpp"
#include "solver/runtime/model_file.hpp"
#include "solver/symbolic/errors.hpp"
#include "solver/symbolic/table.hpp"

namespace acausal {

namespace {

constexpr int kOps = static_cast<int>(Op::Table) + 1;

// Whitespace-separated tokens; strings are <length>:<bytes>, so they may hold any byte.
class Reader {
 public:
  explicit Reader(std::string text) : s_(std::move(text)) {}

  std::string_view token() {
    skip_space();
    const std::size_t begin = pos_;
    while (pos_ < s_.size() && !is_space(s_[pos_])) ++pos_;
    if (begin == pos_) fail("more data", "the end of the file");
    return std::string_view(s_).substr(begin, pos_ - begin);
  }
  void expect(std::string_view word) {
    const std::string_view t = token();
    if (t != word) fail(fmt::format("'{}'", word), t);
  }
  double number() {
    const std::string t(token());
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size()) fail("a number", t);
    return v;
  }
  long integer(long lo = std::numeric_limits<long>::min(), long hi = std::numeric_limits<long>::max()) {
    const std::string t(token());
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(t.c_str(), &end, 10);
    if (end != t.c_str() + t.size() || errno) fail("a whole number", t);
    if (v < lo || v > hi) fail(fmt::format("a whole number in [{}, {}]", lo, hi), t);
    return v;
  }
  int index(std::size_t size) { return static_cast<int>(integer(0, static_cast<long>(size) - 1)); }
  int index_or_none(std::size_t size) { return static_cast<int>(integer(-1, static_cast<long>(size) - 1)); }
  std::size_t count() { return static_cast<std::size_t>(integer(0, static_cast<long>(s_.size()))); }
  bool flag() { return integer(0, 1) != 0; }
  std::string text() {
    skip_space();
    const std::size_t colon = s_.find(':', pos_);
    if (colon == std::string::npos) fail("a string", "the end of the file");
    const std::string length(s_, pos_, colon - pos_);
    char* end = nullptr;
    const unsigned long n = std::strtoul(length.c_str(), &end, 10);
    if (length.empty() || end != length.c_str() + length.size() || n > s_.size() - colon - 1) fail("a string", length);
    pos_ = colon + 1 + n;
    return s_.substr(colon + 1, n);
  }
  [[noreturn]] void fail(std::string_view wanted, std::string_view found) const {
    std::size_t line = 1;
    for (std::size_t k = 0; k < pos_ && k < s_.size(); ++k) line += s_[k] == '\n';
    throw ModelError(fmt::format("compiled model file, line {}: expected {}, found '{}'", line, wanted,
                                 found.substr(0, 40)));
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
  void skip_space() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
  }
  std::string s_;
  std::size_t pos_ = 0;
};

class ModelReader {
 public:
  explicit ModelReader(std::string text) : r_(std::move(text)) {}

  DaeSystem read() {
    r_.expect(kCompiledModelMagic);
    if (long version = r_.integer(); version != kCompiledModelVersion)
      throw ModelError(fmt::format("compiled model file: version {}, this library reads version {}", version,
                                   kCompiledModelVersion));
    r_.expect("model");
    dae_.model_name = r_.text();
    header();
    tables();
    nodes();
    expressions();
    report();
    r_.expect("end");
    return std::move(dae_);
  }

 private:
  void header() {
    r_.expect("origins");
    for (std::size_t n = r_.count(); n > 0; --n) dae_.origins.push_back(r_.text());
    r_.expect("variables");
    dae_.variables.resize(r_.count());
    for (std::size_t k = 0; k < dae_.variables.size(); ++k) {
      DaeVariable& v = dae_.variables[k];
      v.name = r_.text(), v.unit = r_.text(), v.start = r_.number(), v.fixed = r_.flag(), v.start_given = r_.flag();
      v.nominal = r_.number();
      v.state = static_cast<StateSelect>(r_.integer(0, static_cast<int>(StateSelect::always)));
      v.causality = static_cast<Causality>(r_.integer(0, static_cast<int>(Causality::internal)));
      v.fixed_by = static_cast<int>(r_.integer(-1)), v.solved_from = static_cast<int>(r_.integer(-1));
      v.symbol = make_variable_symbol(v.name).node();
      dae_.variable_of.set(v.symbol, static_cast<int>(k));
    }
    r_.expect("parameters");
    dae_.parameters.resize(r_.count());
    for (std::size_t k = 0; k < dae_.parameters.size(); ++k) {
      DaeParameter& p = dae_.parameters[k];
      ParameterAttributes& a = p.attributes;
      p.name = r_.text(), p.value = r_.number(), a.unit = r_.text(), a.min = r_.number(), a.max = r_.number();
      a.description = r_.text(), a.structural = r_.flag(), a.input = r_.flag();
      for (std::size_t n = r_.count(); n > 0; --n) a.choices.push_back(r_.text());
      p.symbol = make_parameter_symbol(p.name).node();
      dae_.parameter_of.set(p.symbol, static_cast<int>(k));
    }
    r_.expect("modes");
    dae_.modes.resize(r_.count());
    for (std::size_t k = 0; k < dae_.modes.size(); ++k)
      dae_.modes[k].symbol = make_parameter_symbol(fmt::format("mode{}", k)).node();
    r_.expect("discretes");
    dae_.discretes.resize(r_.count());
    clocks_.resize(dae_.discretes.size());
    for (DaeDiscrete& d : dae_.discretes) {
      d.name = r_.text();
      d.role = static_cast<DaeDiscrete::Role>(r_.integer(0, static_cast<int>(DaeDiscrete::Role::sample)));
      d.attributes.kind = static_cast<DiscreteKind>(r_.integer(0, static_cast<int>(DiscreteKind::integer)));
      d.attributes.unit = r_.text(), d.attributes.start = r_.number(), d.attributes.description = r_.text();
      auto& clock = clocks_[&d - dae_.discretes.data()];
      clock.first = r_.integer(-1), clock.second = r_.integer(-1);
    }
  }

  void tables() {
    r_.expect("tables");
    auto numbers = [&] {
      std::vector<double> v(r_.count());
      for (double& x : v) x = r_.number();
      return v;
    };
    for (std::size_t n = r_.count(); n > 0; --n) {
      TableEntryData t;
      t.function = static_cast<int>(r_.integer()), t.order = static_cast<int>(r_.integer());
      t.order2 = static_cast<int>(r_.integer()), t.two_dimensional = r_.flag();
      if (t.two_dimensional) {
        t.grid.u1 = numbers(), t.grid.u2 = numbers(), t.grid.y = numbers();
        t.grid.extrapolation = static_cast<TableExtrapolation>(r_.integer(0, 3));
        t.grid.smoothness = static_cast<TableSmoothness>(r_.integer(0, 2));
      } else {
        t.column.x = numbers(), t.column.y = numbers();
        t.column.smoothness = static_cast<TableSmoothness>(r_.integer(0, 2));
        t.column.extrapolation = static_cast<TableExtrapolation>(r_.integer(0, 3));
      }
      entries_.push_back(table_entry(t));
    }
  }

  // The discrete's leaf, made on first use: a sample() leaf needs its clock,
  // whose nodes the file writes before any node that reads the leaf.
  const Node* discrete_symbol(int k) {
    DaeDiscrete& d = dae_.discretes[k];
    if (d.symbol) return d.symbol;
    switch (d.role) {
      case DaeDiscrete::Role::declared: d.symbol = make_discrete_symbol(d.name).node(); break;
      case DaeDiscrete::Role::initial: d.symbol = initial().node(); break;
      case DaeDiscrete::Role::sample: {
        const auto [start, interval] = clocks_[k];
        if (start < 0 || interval < 0 || start >= static_cast<long>(nodes_.size()) ||
            interval >= static_cast<long>(nodes_.size()))
          r_.fail(fmt::format("the clock of {} read before its leaf", d.name), "a leaf before its clock");
        d.clock = {nodes_[start], nodes_[interval]};
        d.symbol = sample(d.clock.start, d.clock.interval).node();
        break;
      }
    }
    d.pre = pre_symbol(d.symbol);
    dae_.discrete_of[d.symbol] = k;
    dae_.discrete_of[d.pre] = k;
    return d.symbol;
  }

  void nodes() {
    r_.expect("nodes");
    const std::size_t n = r_.count();
    nodes_.reserve(n);
    for (std::size_t k = 0; k < n; ++k) nodes_.push_back(node());
    for (int k = 0; k < static_cast<int>(dae_.discretes.size()); ++k) discrete_symbol(k);
  }

  Expr node() {
    const std::string_view kind = r_.token();
    if (kind == "c") return Expr(r_.number());
    if (kind == "t") return time_symbol();
    if (kind == "v") return Expr(dae_.variables[r_.index(dae_.variables.size())].symbol);
    if (kind == "p") return Expr(dae_.parameters[r_.index(dae_.parameters.size())].symbol);
    if (kind == "m") return Expr(dae_.modes[r_.index(dae_.modes.size())].symbol);
    if (kind == "d") return Expr(discrete_symbol(r_.index(dae_.discretes.size())));
    if (kind == "q") return Expr(pre_symbol(discrete_symbol(r_.index(dae_.discretes.size()))));
    if (kind == "T") {
      const std::uint32_t entry = entries_[r_.index(entries_.size())];
      const Expr a = argument(), b = argument();
      return make_table(entry, a, b);
    }
    if (kind != "o") r_.fail("a node", kind);
    const Op op = static_cast<Op>(r_.integer(0, kOps - 1));
    if (op == Op::Const || op == Op::Var || op == Op::Param || op == Op::Time || op == Op::Discrete || op == Op::Table)
      r_.fail("an operation", op_name(op));
    Expr args[3];
    for (int i = 0; i < arity(op); ++i) args[i] = argument();
    if (op == Op::Der) {
      if (args[0].op() != Op::Var && args[0].op() != Op::Der) r_.fail("der() of a variable", args[0].str());
      return make(op, args[0]);
    }
    if (op == Op::Delay) return delay(args[0], args[1]);
    switch (arity(op)) {
      case 1: return make(op, args[0]);
      case 2: return make(op, args[0], args[1]);
      default: return make(op, args[0], args[1], args[2]);
    }
  }

  Expr argument() { return nodes_[r_.index(nodes_.size())]; }

  std::vector<DaeEquation> equations(std::string_view section) {
    r_.expect(section);
    std::vector<DaeEquation> list(r_.count());
    for (DaeEquation& eq : list) {
      eq.residual = argument(), eq.source.lhs = argument(), eq.source.rhs = argument();
      eq.origin = r_.index_or_none(dae_.origins.size());
    }
    return list;
  }

  void expressions() {
    r_.expect("definitions");
    for (std::size_t n = r_.count(); n > 0; --n) {
      DaeVariable& v = dae_.variables[r_.index(dae_.variables.size())];
      v.definition = argument().node();
    }
    dae_.equations = equations("equations");
    dae_.initial_equations = equations("initial_equations");
    dae_.consumed_equations = equations("consumed_equations");
    r_.expect("nonzero_conditions");
    for (std::size_t n = r_.count(); n > 0; --n) {
      Expr value = argument();
      dae_.nonzero_conditions.push_back({value, r_.text()});
    }
    r_.expect("parameter_conditions");
    for (std::size_t n = r_.count(); n > 0; --n) {
      Expr condition = argument();
      dae_.parameter_conditions.push_back({condition, r_.text()});
    }
    r_.expect("mode_data");
    for (EventMode& m : dae_.modes) {
      m.relation = argument(), m.indicator = argument(), m.event_time = argument();
      m.time_event = r_.flag(), m.follows_modes = r_.flag(), m.continuous = r_.flag();
      m.description = r_.text(), m.origin = r_.text();
    }
    r_.expect("discrete_data");
    for (DaeDiscrete& d : dae_.discretes) {
      d.definition = argument(), d.defined = r_.flag(), d.assigned = r_.flag();
      d.origin = r_.index_or_none(dae_.origins.size());
    }
    r_.expect("whens");
    dae_.whens.resize(r_.count());
    for (DaeWhen& when : dae_.whens) {
      for (std::size_t n = r_.count(); n > 0; --n) when.conditions.push_back(argument());
      for (std::size_t n = r_.count(); n > 0; --n) {
        DaeWhen::Action a;
        a.discrete = r_.index_or_none(dae_.discretes.size());
        a.variable = r_.index_or_none(dae_.variables.size());
        a.value = argument();
        when.actions.push_back(a);
      }
      when.assertion = r_.text(), when.origin = r_.index_or_none(dae_.origins.size());
    }
    r_.expect("outputs");
    for (std::size_t n = r_.count(); n > 0; --n) dae_.outputs.push_back(r_.index(dae_.variables.size()));
    r_.expect("derivative_aliases");
    for (std::size_t n = r_.count(); n > 0; --n) {
      const Node* der = argument().node();
      dae_.derivative_aliases.emplace_back(der, argument().node());
    }
  }

  void report() {
    r_.expect("report");
    CompileReport& report = dae_.report;
    auto texts = [&] {
      std::vector<std::string> list(r_.count());
      for (std::string& s : list) s = r_.text();
      return list;
    };
    for (std::size_t n = r_.count(); n > 0; --n) {
      PassReport& p = report.add(r_.text());
      p.seconds = r_.number();
      for (std::size_t c = r_.count(); c > 0; --c) {
        std::string what = r_.text();
        p.counts.emplace_back(std::move(what), r_.integer());
      }
      p.notes = texts();
    }
    report.unit_errors = texts();
  }

  Reader r_;
  DaeSystem dae_;
  std::vector<std::pair<long, long>> clocks_;  // node indices of each sample clock's start and interval
  std::vector<std::uint32_t> entries_;
  std::vector<Expr> nodes_;
};

}  // namespace

Simulator read_compiled_model(std::istream& in) {
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw ModelError("compiled model file: reading failed");
  DaeSystem dae = ModelReader(std::move(text)).read();
  return Simulator(std::make_shared<const CompiledModel>(build_evaluation(std::move(dae))));
}

}  // namespace acausal
