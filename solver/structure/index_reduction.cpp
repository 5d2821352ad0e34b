#include "solver/structure/index_reduction.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>


namespace acausal {

namespace {

// (variable, derivative order): x, der(x), der(der(x)), ...
struct Level {
  int variable;
  int order;
  int derivative = -1;  // level of order + 1, once it exists
  bool dummy = false;
};

struct IrEquation {
  Expr residual;
  int source;       // index of the DaeEquation it derives from
  int parent = -1;  // the equation this one is the derivative of
  int derivative = -1;
  int order = 0;
  std::vector<int> levels;
};

constexpr int kMaxDifferentiations = 6;

class IndexReducer {
 public:
  explicit IndexReducer(DaeSystem& dae) : dae_(dae), level_of_(dae.variables.size()) {}

  // Returns a note on why nothing was changed, or empty when reduced (or nothing to do).
  std::string run() {
    int unknowns = 0;
    for (int v = 0; v < static_cast<int>(dae_.variables.size()); ++v)
      if (dae_.is_unknown(v)) {
        level(v, 0);
        ++unknowns;
      }
    for (int e = 0; e < static_cast<int>(dae_.equations.size()); ++e)
      add_equation(dae_.equations[e].residual, e, -1, 0);
    if (static_cast<int>(eqs_.size()) != unknowns) return "skipped: not square";
    if (!pantelides()) return "gave up: structurally singular";
    bool second_order = std::any_of(levels_.begin(), levels_.end(), [](const Level& l) { return l.order >= 2; });
    if (differentiated_ == 0 && !second_order) return "";  // already index 1 and first order
    if (!select_dummies()) return "gave up: no nonsingular choice of dummy derivatives";
    write_back();
    return "";
  }

  void report(PassReport& r, const std::string& note) const {
    r.counts = {{"differentiated_equations", differentiated_},
                {"dummy_derivatives", dummies_},
                {"equations_after", static_cast<long>(dae_.equations.size())}};
    if (!note.empty()) r.notes.push_back(note);
    if (!dummy_names_.empty()) {
      std::string list;
      for (std::size_t i = 0; i < dummy_names_.size() && i < 10; ++i) list += (i ? ", " : "") + dummy_names_[i];
      if (dummy_names_.size() > 10) list += ", ...";
      r.notes.push_back("dummy derivatives (algebraic, not states): " + list);
    }
  }

 private:
  int level(int variable, int order) {
    auto& chain = level_of_[variable];
    while (static_cast<int>(chain.size()) <= order) {
      int id = static_cast<int>(levels_.size());
      levels_.push_back({variable, static_cast<int>(chain.size())});
      if (!chain.empty()) levels_[chain.back()].derivative = id;
      chain.push_back(id);
    }
    return chain[order];
  }

  int level_of_leaf(const Node* leaf) {
    int order = 0;
    while (leaf->op == Op::Der) {
      leaf = leaf->arg[0];
      ++order;
    }
    int v = dae_.variable_of.find(leaf);
    if (v < 0 || v >= static_cast<int>(level_of_.size()) || !dae_.is_unknown(v)) return -1;
    return level(v, order);
  }

  // The level of a leaf if it exists (no creation), else -1.
  int find_level(const Node* leaf) const {
    int order = 0;
    while (leaf->op == Op::Der) {
      leaf = leaf->arg[0];
      ++order;
    }
    int v = dae_.variable_of.find(leaf);
    if (v < 0 || v >= static_cast<int>(level_of_.size())) return -1;
    const auto& chain = level_of_[v];
    return order < static_cast<int>(chain.size()) ? chain[order] : -1;
  }

  int add_equation(const Expr& residual, int source, int parent, int order) {
    IrEquation eq{residual, source, parent, -1, order, {}};
    for (const Node* leaf : unknown_leaves(residual))
      if (int l = level_of_leaf(leaf); l >= 0) eq.levels.push_back(l);
    std::sort(eq.levels.begin(), eq.levels.end());
    eq.levels.erase(std::unique(eq.levels.begin(), eq.levels.end()), eq.levels.end());
    eqs_.push_back(std::move(eq));
    return static_cast<int>(eqs_.size()) - 1;
  }

  bool highest(int l) const { return levels_[l].derivative < 0; }

  // One augmenting path search from equation `root` over highest derivatives,
  // coloring what it visits (iterative: paths can be as long as the model).
  bool augment(int root) {
    struct Frame {
      int eq;
      std::size_t next;
      int via;
    };
    std::vector<Frame> stack{{root, 0, -1}};
    eq_color_[root] = true;
    colored_eqs_.push_back(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto& ls = eqs_[f.eq].levels;
      if (f.next == 0) {
        for (int l : ls) {
          if (highest(l) && assign_[l] < 0) {
            assign_[l] = f.eq;
            for (std::size_t k = stack.size() - 1; k-- > 0;) assign_[stack[k].via] = stack[k].eq;
            return true;
          }
        }
      }
      bool descended = false;
      while (f.next < ls.size()) {
        int l = ls[f.next++];
        if (!highest(l) || level_color_[l]) continue;
        level_color_[l] = true;
        colored_levels_.push_back(l);
        int e2 = assign_[l];
        if (e2 < 0 || eq_color_[e2]) continue;
        eq_color_[e2] = true;
        colored_eqs_.push_back(e2);
        f.via = l;
        stack.push_back({e2, 0, -1});
        descended = true;
        break;
      }
      if (!descended) stack.pop_back();
    }
    return false;
  }

  bool pantelides() {
    const int original = static_cast<int>(eqs_.size());
    for (int k0 = 0; k0 < original; ++k0) {
      int k = k0;
      for (;;) {
        assign_.resize(levels_.size(), -1);
        level_color_.resize(levels_.size(), false);
        eq_color_.resize(eqs_.size(), false);
        for (int l : colored_levels_) level_color_[l] = false;  // reset only what the last search touched
        for (int e : colored_eqs_) eq_color_[e] = false;
        colored_levels_.clear();
        colored_eqs_.clear();
        if (augment(k)) break;
        for (int l : colored_levels_) level(levels_[l].variable, levels_[l].order + 1);
        for (int e : colored_eqs_) {
          if (eqs_[e].order >= kMaxDifferentiations) return false;
          int d = add_equation(der(eqs_[e].residual), eqs_[e].source, e, eqs_[e].order + 1);
          eqs_[e].derivative = d;
          ++differentiated_;
        }
        assign_.resize(levels_.size(), -1);
        for (int l : colored_levels_) assign_[levels_[l].derivative] = eqs_[assign_[l]].derivative;
        k = eqs_[k].derivative;
      }
    }
    return true;
  }

  // How good a dummy (an algebraic unknown rather than a state derivative) a level makes.
  long dummy_score(int l) const {
    const Level& lv = levels_[l];
    const DaeVariable& v = dae_.variables[lv.variable];
    long score = 1000L * (lv.order - 1);
    switch (v.state) {
      case StateSelect::never: score += 600; break;
      case StateSelect::avoid: score += 300; break;
      case StateSelect::prefer: score -= 300; break;
      case StateSelect::always: score -= 2000; break;
      default: break;
    }
    if (v.fixed) score -= 200;
    return score;
  }

  bool select_dummies() {
    std::vector<int> g;
    std::vector<int> candidates;
    for (int e = 0; e < static_cast<int>(eqs_.size()); ++e)
      if (eqs_[e].order >= 1 && eqs_[e].derivative < 0) g.push_back(e);
    for (int e : g)
      for (int l : eqs_[e].levels)
        if (highest(l) && levels_[l].order >= 1) candidates.push_back(l);
    while (!g.empty()) {
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      // Columns matchable into g form a transversal matroid, so adding the
      // best-scoring candidates greedily, each kept only if an augmenting path
      // still matches it, yields the best set of dummies.
      std::stable_sort(candidates.begin(), candidates.end(),
                       [&](int a, int b) { return dummy_score(a) > dummy_score(b); });
      std::unordered_map<int, std::vector<int>> rows_of;  // candidate level -> rows of g containing it
      for (std::size_t i = 0; i < g.size(); ++i)
        for (int l : eqs_[g[i]].levels) rows_of[l].push_back(static_cast<int>(i));
      std::vector<int> match(g.size(), -1);  // row of g -> chosen level
      std::size_t matched = 0;
      for (int c : candidates) {
        if (matched == g.size()) break;
        if (try_augment(c, rows_of, match)) ++matched;
      }
      std::vector<int> next_g, next_candidates;
      for (std::size_t i = 0; i < g.size(); ++i) {
        if (match[i] < 0) return false;  // singular constraint: the matching pass reports it
        int l = match[i];
        levels_[l].dummy = true;
        ++dummies_;
        if (levels_[l].order >= 2) next_candidates.push_back(level_of_[levels_[l].variable][levels_[l].order - 1]);
        int parent = eqs_[g[i]].parent;
        if (parent >= 0 && eqs_[parent].order >= 1) next_g.push_back(parent);
      }
      g = std::move(next_g);
      candidates = std::move(next_candidates);
    }
    return true;
  }

  // Alternating path from a new column (level) to a free row of g.
  static bool try_augment(int column, const std::unordered_map<int, std::vector<int>>& rows_of,
                          std::vector<int>& column_of_row) {
    struct Frame {
      int column;
      std::size_t next;
      int row;
    };
    static const std::vector<int> none;
    std::vector<char> visited_row(column_of_row.size(), false);
    std::vector<Frame> stack{{column, 0, -1}};
    while (!stack.empty()) {
      Frame& f = stack.back();
      auto it = rows_of.find(f.column);
      const auto& rows = it == rows_of.end() ? none : it->second;
      bool moved = false;
      while (f.next < rows.size()) {
        int r = rows[f.next++];
        if (visited_row[r]) continue;
        visited_row[r] = true;
        f.row = r;
        if (column_of_row[r] < 0) {
          for (const auto& frame : stack) column_of_row[frame.row] = frame.column;
          return true;
        }
        stack.push_back({column_of_row[r], 0, -1});
        moved = true;
        break;
      }
      if (!moved) stack.pop_back();
    }
    return false;
  }

  std::string derivative_name(const std::string& name, int order) const {
    std::string s = name;
    for (int k = 0; k < order; ++k) s = "der(" + s + ")";
    return s;
  }

  int new_variable(int of, int order, bool dummy) {
    const DaeVariable& base = dae_.variables[of];
    DaeVariable v;
    v.name = derivative_name(base.name, order);
    v.unit = base.unit.empty() ? "" : base.unit + (order == 1 ? "/s" : "/s" + std::to_string(order));
    v.nominal = base.nominal;
    v.state = dummy ? StateSelect::never : StateSelect::default_;
    const std::string role = fmt::format("der^{}{}", order, dummy ? " dummy" : "");
    v.symbol = derived_symbol(Op::Var, base.symbol, role, v.name).node();
    int id = static_cast<int>(dae_.variables.size());
    dae_.variable_of.set(v.symbol, id);
    dae_.variables.push_back(std::move(v));
    if (dummy) dummy_names_.push_back(dae_.variables.back().name);
    return id;
  }

  void write_back() {
    std::vector<const Node*> replacement(levels_.size(), nullptr);
    std::vector<DaeEquation> chain_equations;
    int chain_origin = -1;
    const std::size_t n_var = level_of_.size();
    for (std::size_t v = 0; v < n_var; ++v) {
      const auto& chain = level_of_[v];
      if (chain.empty()) continue;
      int top = 0;  // highest order that is a true derivative
      for (int k = 1; k < static_cast<int>(chain.size()); ++k)
        if (!levels_[chain[k]].dummy) top = k;
      std::vector<const Node*> x{dae_.variables[v].symbol};  // x, der(x), ... below `top`
      for (int k = 1; k < top; ++k) {
        x.push_back(dae_.variables[new_variable(static_cast<int>(v), k, false)].symbol);
        if (chain_origin < 0) {
          dae_.origins.push_back("index reduction: a derivative kept as a state");
          chain_origin = static_cast<int>(dae_.origins.size()) - 1;
        }
        Equation eq{Expr(x[k]), der(Expr(x[k - 1]))};
        chain_equations.push_back({eq.residual(), eq, chain_origin});
      }
      for (int k = 0; k < static_cast<int>(chain.size()); ++k) {
        int l = chain[k];
        if (levels_[l].dummy)
          replacement[l] = dae_.variables[new_variable(static_cast<int>(v), k, true)].symbol;
        else if (k < top || k == 0)
          replacement[l] = x[k];
        else
          replacement[l] = der(Expr(x[k - 1])).node();
      }
    }
    Rewriter rewrite([&](const Node* leaf) -> const Node* {
      if (leaf->op != Op::Var && leaf->op != Op::Der) return nullptr;
      int l = find_level(leaf);
      return l < 0 ? nullptr : replacement[l];
    });
    std::unordered_map<long, int> differentiated_origin;
    std::vector<DaeEquation> out;
    out.reserve(eqs_.size() + chain_equations.size());
    for (const auto& e : eqs_) {
      const DaeEquation& src = dae_.equations[e.source];
      int origin = src.origin;
      if (e.order > 0) {
        long key = static_cast<long>(src.origin) * 16 + e.order;
        auto [it, fresh] = differentiated_origin.try_emplace(key, 0);
        if (fresh) {
          dae_.origins.push_back((src.origin >= 0 ? dae_.origins[src.origin] : std::string("?")) +
                                 ", differentiated " + std::to_string(e.order) + "x by index reduction");
          it->second = static_cast<int>(dae_.origins.size()) - 1;
        }
        origin = it->second;
      }
      out.push_back({rewrite(e.residual), src.source, origin});
    }
    for (auto& eq : chain_equations) out.push_back(std::move(eq));
    dae_.equations = std::move(out);
    for (auto& eq : dae_.initial_equations) eq.residual = rewrite(eq.residual);
  }

  DaeSystem& dae_;
  std::vector<Level> levels_;
  std::vector<std::vector<int>> level_of_;
  std::vector<IrEquation> eqs_;
  std::vector<int> assign_;
  std::vector<char> level_color_, eq_color_;
  std::vector<int> colored_levels_, colored_eqs_;
  long differentiated_ = 0, dummies_ = 0;
  std::vector<std::string> dummy_names_;
};

}  // namespace

void reduce_index(DaeSystem& dae) {
  IndexReducer reducer(dae);
  std::string note = reducer.run();
  PassReport& r = dae.report.add("index_reduction");
  reducer.report(r, note);
}

}  // namespace acausal
