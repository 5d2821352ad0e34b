#include "solver/passes/units.hpp"

#include <cmath>
#include <map>
#include <unordered_map>

namespace acausal {

namespace {

using MaybeDimension = std::optional<Dimension>;

constexpr Dimension kDimensionless{};

Dimension base(int index) {
  Dimension d{};
  d[index] = 1;
  return d;
}

Dimension combine(const Dimension& a, const Dimension& b, double sign_b) {
  Dimension d;
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = a[i] + sign_b * b[i];
  return d;
}

Dimension scaled(const Dimension& a, double power) {
  Dimension d;
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = a[i] * power;
  return d;
}

bool same(const Dimension& a, const Dimension& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > 1e-9) return false;
  return true;
}

// Symbols by dimension; scale factors (rpm, km, g) do not matter to the check.
const std::map<std::string, Dimension>& symbols() {
  static const std::map<std::string, Dimension> table = [] {
    const Dimension m = base(0), kg = base(1), s = base(2), A = base(3), K = base(4), mol = base(5), cd = base(6);
    const Dimension N = combine(combine(kg, m, 1), s, -2), J = combine(N, m, 1), W = combine(J, s, -1);
    const Dimension per_s = scaled(s, -1), V = combine(W, A, -1);
    return std::map<std::string, Dimension>{
        {"m", m}, {"kg", kg}, {"g", kg}, {"s", s}, {"min", s}, {"h", s}, {"A", A}, {"K", K}, {"degC", K},
        {"mol", mol}, {"cd", cd}, {"rad", kDimensionless}, {"deg", kDimensionless}, {"sr", kDimensionless},
        {"rev", kDimensionless}, {"N", N}, {"J", J}, {"W", W}, {"Pa", combine(N, m, -2)},
        {"bar", combine(N, m, -2)}, {"Hz", per_s}, {"rpm", per_s}, {"V", V}, {"Ohm", combine(V, A, -1)},
        {"C", combine(A, s, 1)}, {"F", combine(combine(A, s, 1), V, -1)}, {"l", scaled(m, 3)},
    };
  }();
  return table;
}

std::optional<Dimension> parse_symbol(const std::string& symbol) {
  const auto& table = symbols();
  if (auto it = table.find(symbol); it != table.end()) return it->second;
  // An SI prefix in front of a known symbol: "km", "mm", "kN", "MW".
  static const std::string prefixes = "kMGmunpcd";
  if (symbol.size() > 1 && prefixes.find(symbol[0]) != std::string::npos)
    if (auto it = table.find(symbol.substr(1)); it != table.end()) return it->second;
  return std::nullopt;
}

// "kg.m2" or "N.m.s": factors joined by '.', each a symbol with an optional signed integer power.
std::optional<Dimension> parse_product(const std::string& text) {
  if (text.empty() || text == "1") return kDimensionless;
  Dimension d{};
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t dot = text.find('.', pos);
    std::string factor = text.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    std::size_t digits = factor.find_first_of("-+0123456789");
    std::string symbol = factor.substr(0, digits);
    double power = 1;
    if (digits != std::string::npos) {
      try {
        std::size_t used = 0;
        power = std::stoi(factor.substr(digits), &used);
        if (used != factor.size() - digits) return std::nullopt;
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
    auto unit = symbol.empty() && factor == "1" ? std::optional<Dimension>(kDimensionless) : parse_symbol(symbol);
    if (!unit) return std::nullopt;
    d = combine(d, *unit, power);
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return d;
}

std::string format_power(const std::string& symbol, double power) {
  if (power == 1) return symbol;
  double rounded = std::round(power);
  return symbol + (std::fabs(power - rounded) < 1e-9 ? std::to_string(static_cast<long>(rounded))
                                                      : "^" + format_number(power));
}

}  // namespace

std::optional<Dimension> parse_unit(const std::string& unit) {
  std::size_t slash = unit.find('/');
  auto numerator = parse_product(unit.substr(0, slash));
  if (!numerator || slash == std::string::npos) return numerator;
  std::string rest = unit.substr(slash + 1);
  if (rest.size() > 1 && rest.front() == '(' && rest.back() == ')') rest = rest.substr(1, rest.size() - 2);
  // "N.m.s/rad", "m/s/s": every further '/' divides again.
  Dimension d = *numerator;
  std::size_t pos = 0;
  while (true) {
    std::size_t next = rest.find('/', pos);
    auto denominator = parse_product(rest.substr(pos, next == std::string::npos ? std::string::npos : next - pos));
    if (!denominator || rest.empty()) return std::nullopt;
    d = combine(d, *denominator, -1);
    if (next == std::string::npos) return d;
    pos = next + 1;
  }
}

std::string dimension_string(const Dimension& d) {
  static const char* names[] = {"m", "kg", "s", "A", "K", "mol", "cd"};
  // kg first, as engineers write it (kg.m2/s2).
  static const int order[] = {1, 0, 2, 3, 4, 5, 6};
  std::string up, down;
  for (int i : order) {
    if (std::fabs(d[i]) < 1e-9) continue;
    std::string& side = d[i] > 0 ? up : down;
    if (!side.empty()) side += '.';
    side += format_power(names[i], std::fabs(d[i]));
  }
  std::string text = (up.empty() ? "1" : up) + (down.empty() ? "" : "/" + down);
  for (const char* named : {"N", "N.m", "Pa", "m/s", "m/s2", "1/s", "1/s2", "N/m", "N.s/m", "kg.m2"}) {
    if (same(*parse_unit(named), d) && text != named) return std::string(named) + " (" + text + ")";
  }
  return text;
}

namespace {

// "car.wheel (vehicle::Wheel)" -> "car.wheel"; a connection or the model's own equations keep their text.
std::string component_of(const std::string& origin) {
  const std::size_t open = origin.find(" (");
  return open != std::string::npos && origin.back() == ')' ? origin.substr(0, open) : origin;
}

class UnitChecker {
 public:
  explicit UnitChecker(DaeSystem& dae) : dae_(dae) {
    for (const auto& v : dae.variables) declare(v.symbol, v.unit, v.name);
    for (const auto& p : dae.parameters) declare(p.symbol, p.attributes.unit, p.name);
  }

  void equation(const DaeEquation& eq) {
    problems_.clear();
    MaybeDimension lhs = dimension(eq.source.lhs), rhs = dimension(eq.source.rhs);
    if (lhs && rhs && !same(*lhs, *rhs))
      problems_.push_back("left side " + dae_.print(eq.source.lhs) + " in " + dimension_string(*lhs) +
                          ", right side " + dae_.print(eq.source.rhs) + " in " + dimension_string(*rhs));
    for (const auto& problem : problems_) {
      std::string line = "equation " + dae_.describe(eq) + ": " + problem;
      dae_.report.unit_errors.push_back(line);
      const std::string origin = eq.origin >= 0 ? dae_.origins[eq.origin] : dae_.model_name;
      dae_.report.warnings.push_back({"unit", component_of(origin),
                                      dae_.print(eq.source.lhs) + " = " + dae_.print(eq.source.rhs), line});
    }
    ++checked_;
  }

  long checked() const { return checked_; }

 private:
  // A declared symbol's dimension is known before any equation is read.
  void declare(const Node* symbol, const std::string& unit, const std::string& name) {
    if (unit.empty()) return;
    auto [parsed, first] = parsed_.try_emplace(unit);
    if (first) parsed->second = parse_unit(unit);
    if (parsed->second) {
      memo_.set(symbol, store(parsed->second));
    } else {
      dae_.report.unit_errors.push_back(name + ": unit '" + unit +
                                        "' is not understood (write SI symbols joined by '.' and '/', "
                                        "powers as digits: \"N.m\", \"kg.m2\", \"rad/s2\")");
      const std::size_t dot = name.rfind('.');
      dae_.report.warnings.push_back({"unit", dot == std::string::npos ? dae_.model_name : name.substr(0, dot), name,
                                      dae_.report.unit_errors.back()});
    }
  }

  MaybeDimension dimension(const Expr& root) {
    for_each_postorder(
        root.node(), [&](const Node* n) { memo_.set(n, store(infer(n))); },
        [&](const Node* n) { return memo_.contains(n); });
    return of(root.node());
  }

  // Dimensions live in one array; the node table holds 1 + their index, 0 for "unknown".
  std::uint32_t store(const MaybeDimension& d) {
    if (!d) return 0;
    dimensions_.push_back(*d);
    return static_cast<std::uint32_t>(dimensions_.size());
  }
  MaybeDimension of(const Node* n) const {
    std::uint32_t k = memo_.get(n);
    return k ? MaybeDimension(dimensions_[k - 1]) : std::nullopt;
  }

  // Both operands must agree when both are known; the result is the known one.
  MaybeDimension agree(const Node* n, const Node* a, const Node* b, const char* what) {
    MaybeDimension da = of(a), db = of(b);
    if (da && db && !same(*da, *db)) {
      problems_.push_back(std::string(what) + " " + dae_.print(Expr(a)) + " in " + dimension_string(*da) + " and " +
                          dae_.print(Expr(b)) + " in " + dimension_string(*db) + " (in " + dae_.print(Expr(n)) + ")");
      return std::nullopt;
    }
    return da ? da : db;
  }

  // The value of a condition that reads only structural parameters (and constants), else nothing.
  std::optional<bool> structural_choice(const Node* condition) const {
    bool structural = true;
    for_each_postorder(condition, [&](const Node* leaf) {
      if (leaf->arity() != 0 || leaf->op == Op::Const) return;
      const int p = dae_.parameter_of.find(leaf);
      structural &= p >= 0 && dae_.parameters[p].attributes.structural;
    });
    if (!structural) return std::nullopt;
    return evaluate(Expr(condition), [&](const Node* leaf) { return dae_.parameters[dae_.parameter_of.find(leaf)].value; }) != 0.0;
  }

  MaybeDimension dimensionless_argument(const Node* n) {
    MaybeDimension d = of(n->arg[0]);
    if (d && !same(*d, kDimensionless))
      problems_.push_back("the argument of " + dae_.print(Expr(n)) + " must be dimensionless, it is in " +
                          dimension_string(*d));
    return kDimensionless;
  }

  MaybeDimension infer(const Node* n) {
    switch (n->op) {
      case Op::Const: return std::nullopt;
      case Op::Var:
      case Op::Param:
      case Op::Discrete: return std::nullopt;  // declared ones are in the table already
      case Op::Time: return base(2);
      case Op::Der: {
        MaybeDimension d = of(n->arg[0]);
        return d ? MaybeDimension(combine(*d, base(2), -1)) : std::nullopt;
      }
      case Op::Neg: case Op::Abs: case Op::Floor: case Op::NoEvent: case Op::Delay: case Op::DelayRate:
        return of(n->arg[0]);
      case Op::Add: case Op::Sub: return agree(n, n->arg[0], n->arg[1], "adding");
      case Op::Min: case Op::Max: return agree(n, n->arg[0], n->arg[1], "comparing");
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
        agree(n, n->arg[0], n->arg[1], "comparing");
        return kDimensionless;
      case Op::Atan2:
        agree(n, n->arg[0], n->arg[1], "comparing");
        return kDimensionless;
      case Op::IfElse:
        // A choice on structural parameters is made at compile(): only the branch taken is an equation.
        if (auto taken = structural_choice(n->arg[0])) return of(*taken ? n->arg[1] : n->arg[2]);
        return agree(n, n->arg[1], n->arg[2], "choosing between");
      case Op::Mul: case Op::Div: {
        // A literal number in a product scales: it is dimensionless (2·f is a force).
        auto factor = [&](const Node* x) { return x->op == Op::Const ? MaybeDimension(kDimensionless) : of(x); };
        MaybeDimension a = factor(n->arg[0]), b = factor(n->arg[1]);
        if (!a || !b) return std::nullopt;
        return combine(*a, *b, n->op == Op::Mul ? 1 : -1);
      }
      case Op::Pow: {
        MaybeDimension a = of(n->arg[0]);
        if (a && same(*a, kDimensionless)) return kDimensionless;
        if (a && n->arg[1]->op == Op::Const) return scaled(*a, n->arg[1]->value);
        return std::nullopt;
      }
      case Op::Sqrt: {
        MaybeDimension a = of(n->arg[0]);
        return a ? MaybeDimension(scaled(*a, 0.5)) : std::nullopt;
      }
      case Op::Exp: case Op::Log: case Op::Sin: case Op::Cos: case Op::Tan: case Op::Asin: case Op::Acos:
      case Op::Atan: case Op::Sinh: case Op::Cosh: case Op::Tanh:
        return dimensionless_argument(n);
      case Op::Sign: case Op::And: case Op::Or: case Op::Not: return kDimensionless;
      case Op::Table: return std::nullopt;  // tables hold numbers: their unit is the block's to declare
    }
    return std::nullopt;
  }

  DaeSystem& dae_;
  std::unordered_map<std::string, MaybeDimension> parsed_;  // by unit text
  std::vector<Dimension> dimensions_;
  NodeTable<std::uint32_t> memo_;
  std::vector<std::string> problems_;
  long checked_ = 0;
};

}  // namespace

void check_units(DaeSystem& dae) {
  UnitChecker checker(dae);
  for (const auto& eq : dae.equations) checker.equation(eq);
  for (const auto& eq : dae.initial_equations) checker.equation(eq);
  PassReport& r = dae.report.add("units");
  r.counts = {{"equations_checked", checker.checked()}, {"unit_errors", static_cast<long>(dae.report.unit_errors.size())}};
  r.notes = dae.report.unit_errors;
}

}  // namespace acausal
