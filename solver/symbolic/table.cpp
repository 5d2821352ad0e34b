#include "solver/symbolic/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tuple>

#include "solver/symbolic/errors.hpp"

namespace acausal {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A 1-D table ready to evaluate: the data and, for the cubic, a slope per point.
struct Column {
  Table1D data;
  std::vector<double> slope;
};

struct Grid {
  Table2D data;
};

enum class Function : std::uint8_t { value, in_segment, segment, next_breakpoint, value_2d };

// What an Op::Table node computes: a function of one table, differentiated
// `order` times in its first argument (`order2` times in the second, for 2-D).
struct Entry {
  Function function;
  int order = 0, order2 = 0;
  const Column* column = nullptr;
  const Grid* grid = nullptr;
  std::uint32_t table_number = 0;  // for printing
};

// Fritsch–Butland slopes (as MATLAB's pchip): a weighted harmonic mean of the
// neighbouring secants inside, zero at a local extremum, a shape-preserving
// three-point formula at the ends. A run of strictly increasing abscissae
// ends at a jump, and each run gets its own slopes.
std::vector<double> monotone_slopes(const Table1D& t) {
  const std::size_t n = t.x.size();
  std::vector<double> d(n, 0.0);
  std::size_t begin = 0;
  while (begin < n) {
    std::size_t end = begin + 1;
    while (end < n && t.x[end] > t.x[end - 1]) ++end;
    const std::size_t m = end - begin;  // points in this run
    auto h = [&](std::size_t i) { return t.x[begin + i + 1] - t.x[begin + i]; };
    auto delta = [&](std::size_t i) { return (t.y[begin + i + 1] - t.y[begin + i]) / h(i); };
    if (m == 2) {
      d[begin] = d[begin + 1] = delta(0);
    } else if (m > 2) {
      for (std::size_t i = 1; i + 1 < m; ++i) {
        const double d0 = delta(i - 1), d1 = delta(i), h0 = h(i - 1), h1 = h(i);
        d[begin + i] = d0 * d1 <= 0.0 ? 0.0 : 3.0 * (h0 + h1) / ((2.0 * h1 + h0) / d0 + (h1 + 2.0 * h0) / d1);
      }
      auto end_slope = [](double h0, double h1, double d0, double d1) {
        double s = ((2.0 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
        if (s * d0 <= 0.0) return 0.0;
        if (d0 * d1 <= 0.0 && std::fabs(s) > 3.0 * std::fabs(d0)) return 3.0 * d0;
        return s;
      };
      d[begin] = end_slope(h(0), h(1), delta(0), delta(1));
      d[end - 1] = end_slope(h(m - 2), h(m - 3), delta(m - 2), delta(m - 3));
    }
    begin = end;
  }
  return d;
}

// Interns tables by content and entries by (function, orders, table), so a
// model built again in a loop (a sweep) reuses its entries. Entries are read
// without the lock: a chunk, once published, never moves. An entry lives while
// an Op::Table node names it (a tape holds its table nodes), a table while an
// entry uses it; collect_expressions() frees the rest and reuses their ids.
class Registry final : public detail::WeakNodeMap {
 public:
  Registry() { detail::register_weak_node_map(this); }

  std::uint32_t entry(Function function, int order, int order2, const Column* column, const Grid* grid) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::make_tuple(static_cast<int>(function), order, order2, column, grid);
    if (auto it = entry_ids_.find(key); it != entry_ids_.end()) return it->second;
    std::uint32_t id;
    if (!free_ids_.empty()) {
      id = free_ids_.back();
      free_ids_.pop_back();
    } else {
      id = count_;
      if ((id >> kChunkBits) >= kChunks) throw ModelError("too many table entries in one process");
      auto& chunk = chunks_[id >> kChunkBits];
      if (!chunk.load(std::memory_order_relaxed)) chunk.store(new Entry[1u << kChunkBits], std::memory_order_release);
      count_ = id + 1;
    }
    const std::uint32_t number = column ? table_number_.at(column) : table_number_.at(grid);
    chunk(id)[id & kChunkMask] = Entry{function, order, order2, column, grid, number};
    entry_ids_.emplace(key, id);
    return id;
  }

  const Column* column(const Table1D& t) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto key = std::make_tuple(t.x, t.y, static_cast<int>(t.smoothness), static_cast<int>(t.extrapolation));
    auto it = columns_.find(key);
    if (it == columns_.end()) {
      auto column = std::make_unique<Column>(Column{t, t.smoothness == TableSmoothness::monotone_cubic
                                                           ? monotone_slopes(t)
                                                           : std::vector<double>{}});
      table_number_[column.get()] = next_table_++;
      it = columns_.emplace(key, std::move(column)).first;
    }
    return it->second.get();
  }

  const Grid* grid(const Table2D& t) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto key = std::make_tuple(t.u1, t.u2, t.y, static_cast<int>(t.extrapolation) + 8 * static_cast<int>(t.smoothness));
    auto it = grids_.find(key);
    if (it == grids_.end()) {
      auto grid = std::make_unique<Grid>(Grid{t});
      table_number_[grid.get()] = next_table_++;
      it = grids_.emplace(key, std::move(grid)).first;
    }
    return it->second.get();
  }

  const Entry& at(std::uint32_t id) const { return chunk(id)[id & kChunkMask]; }

  bool keep(detail::Marks&) override { return false; }

  void sweep(const detail::Marks& marks) override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::uint8_t> named(count_, 0);
    marks.for_each_live([&](const Node* n) {
      if (n->op == Op::Table) named[n->symbol] = 1;
    });
    std::set<const void*> used;
    for (auto it = entry_ids_.begin(); it != entry_ids_.end();) {
      const Entry& e = at(it->second);
      if (named[it->second]) {
        used.insert(e.column ? static_cast<const void*>(e.column) : e.grid);
        ++it;
      } else {
        free_ids_.push_back(it->second);
        it = entry_ids_.erase(it);
      }
    }
    auto unused = [&](const auto& table) {
      if (used.contains(table.second.get())) return false;
      table_number_.erase(table.second.get());
      return true;
    };
    std::erase_if(columns_, unused);
    std::erase_if(grids_, unused);
  }

  std::size_t tables() {
    std::lock_guard<std::mutex> lock(mutex_);
    return columns_.size() + grids_.size();
  }

 private:
  static constexpr unsigned kChunkBits = 12, kChunks = 1024;
  static constexpr std::uint32_t kChunkMask = (1u << kChunkBits) - 1;
  Entry* chunk(std::uint32_t id) const { return chunks_[id >> kChunkBits].load(std::memory_order_acquire); }

  std::mutex mutex_;
  std::array<std::atomic<Entry*>, kChunks> chunks_{};
  std::uint32_t count_ = 0, next_table_ = 0;
  std::vector<std::uint32_t> free_ids_;
  std::map<std::tuple<int, int, int, const Column*, const Grid*>, std::uint32_t> entry_ids_;
  std::map<std::tuple<std::vector<double>, std::vector<double>, int, int>, std::unique_ptr<Column>> columns_;
  std::map<std::tuple<std::vector<double>, std::vector<double>, std::vector<double>, int>, std::unique_ptr<Grid>>
      grids_;
  std::map<const void*, std::uint32_t> table_number_;
};

Registry& registry() {
  static Registry* instance = new Registry();  // never destroyed: expressions outlive static destructors
  return *instance;
}

// The segment of x: i with x_i <= x < x_i+1 (a jump's later side at the jump
// itself), -1 before the table, n-1 at or after its last point; for periodic
// tables plus n times the number of whole periods x lies after the first one.
double segment_of(const Column& c, double x) {
  const auto& xs = c.data.x;
  const std::size_t n = xs.size();
  double cycles = 0.0;
  if (c.data.extrapolation == TableExtrapolation::periodic && n > 1) {
    const double period = xs.back() - xs.front();
    cycles = std::floor((x - xs.front()) / period);
    x -= cycles * period;
    if (x >= xs.back()) x = xs.front(), cycles += 1.0;  // rounding at a period's end
  }
  const double i = static_cast<double>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin()) - 1.0;
  return i + cycles * static_cast<double>(n);
}

// The k-th derivative in x of the column's piece on segment i (decoded from
// segment_of), at x.
double piece(const Column& c, double segment, double x, int k) {
  const auto& xs = c.data.x;
  const auto& ys = c.data.y;
  const std::size_t n = xs.size();
  if (std::isnan(segment) || std::isnan(x)) return kNaN;
  double cycles = 0.0;
  long i = static_cast<long>(segment);
  if (c.data.extrapolation == TableExtrapolation::periodic) {
    cycles = std::floor(segment / static_cast<double>(n));
    i = static_cast<long>(segment - cycles * static_cast<double>(n));
    x -= cycles * (xs.back() - xs.front());
  }
  const bool cubic = c.data.smoothness == TableSmoothness::monotone_cubic;
  auto end_slope = [&](bool first) {
    if (cubic) return first ? c.slope.front() : c.slope.back();
    if (n < 2 || c.data.smoothness == TableSmoothness::constant) return 0.0;
    // The slope of the nearest segment of nonzero length.
    if (first) {
      for (std::size_t j = 0; j + 1 < n; ++j)
        if (xs[j + 1] > xs[j]) return (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]);
    } else {
      for (std::size_t j = n - 1; j > 0; --j)
        if (xs[j] > xs[j - 1]) return (ys[j] - ys[j - 1]) / (xs[j] - xs[j - 1]);
    }
    return 0.0;
  };
  auto beyond = [&](bool first) {
    const double x_end = first ? xs.front() : xs.back(), y_end = first ? ys.front() : ys.back();
    if (x == x_end) return k == 0 ? y_end : (c.data.extrapolation == TableExtrapolation::linear ? end_slope(first) : 0.0);
    switch (c.data.extrapolation) {
      case TableExtrapolation::hold: case TableExtrapolation::periodic: return k == 0 ? y_end : 0.0;
      case TableExtrapolation::linear: {
        const double s = end_slope(first);
        return k == 0 ? y_end + s * (x - x_end) : k == 1 ? s : 0.0;
      }
      case TableExtrapolation::error: return kNaN;
    }
    return kNaN;
  };
  if (i < 0) return beyond(true);
  if (static_cast<std::size_t>(i) + 1 >= n) return beyond(false);
  const double x0 = xs[i], x1 = xs[i + 1], y0 = ys[i], y1 = ys[i + 1], h = x1 - x0;
  // A jump (x0 == x1) is a segment of no length: segment_of never picks it,
  // but a segment held by a discrete variable can name it before its first
  // event (its start value 0 when the table jumps at its first time), and the
  // formulas below would divide by h = 0. At a jump the later value holds.
  if (!(h > 0.0)) return k == 0 ? y1 : 0.0;
  switch (c.data.smoothness) {
    case TableSmoothness::constant: return k == 0 ? y0 : 0.0;
    case TableSmoothness::linear: return k == 0 ? y0 + (y1 - y0) * (x - x0) / h : k == 1 ? (y1 - y0) / h : 0.0;
    case TableSmoothness::monotone_cubic: {
      // Cubic Hermite in t = (x - x0)/h with end values y0, y1 and slopes m0, m1.
      const double t = (x - x0) / h, m0 = c.slope[i] * h, m1 = c.slope[i + 1] * h;
      const double a = 2 * y0 - 2 * y1 + m0 + m1, b = -3 * y0 + 3 * y1 - 2 * m0 - m1;  // y = a t³ + b t² + m0 t + y0
      switch (k) {
        case 0: return ((a * t + b) * t + m0) * t + y0;
        case 1: return ((3 * a * t + 2 * b) * t + m0) / h;
        case 2: return (6 * a * t + 2 * b) / (h * h);
        case 3: return 6 * a / (h * h * h);
        default: return 0.0;
      }
    }
  }
  return kNaN;
}

double next_breakpoint(const Column& c, double x) {
  const auto& xs = c.data.x;
  const std::size_t n = xs.size();
  const double segment = segment_of(c, x);
  const bool periodic = c.data.extrapolation == TableExtrapolation::periodic;
  const double cycles = periodic ? std::floor(segment / static_cast<double>(n)) : 0.0;
  const long i = static_cast<long>(segment - cycles * static_cast<double>(n));
  const double shift = cycles * (xs.back() - xs.front());
  if (static_cast<std::size_t>(i + 1) < n) return xs[i + 1] + shift;
  return std::numeric_limits<double>::max();  // finite: a discrete variable holds it
}

// Index of the cell of u on an increasing axis (0 .. size-2), and whether u is beyond it.
std::size_t cell_of(const std::vector<double>& axis, double u) {
  if (axis.size() < 2) return 0;
  const auto it = std::upper_bound(axis.begin(), axis.end(), u);
  const std::size_t i = it == axis.begin() ? 0 : static_cast<std::size_t>(it - axis.begin()) - 1;
  return std::min(i, axis.size() - 2);
}

// The k-th derivative in u of the interpolant along one axis, as weights on
// the grid values: Σ weight·y[index]. Linear, or the cubic Hermite whose slope
// at each point is the centred difference of its neighbours (one-sided at the
// ends): linear in the data, so the 2-D table is the tensor product and its
// partial derivatives are the products of the axes' weights. Beyond the axis:
// hold (the end value, derivatives 0), linear (the end value continued with
// the end slope), error (NaN).
std::vector<std::pair<std::size_t, double>> axis_weights(const std::vector<double>& x, double u, int k, bool cubic,
                                                         TableExtrapolation extrapolation) {
  const std::size_t n = x.size();
  if (n == 1) return {{0, k == 0 ? 1.0 : 0.0}};
  if (u < x.front() || u > x.back()) {
    if (extrapolation == TableExtrapolation::error) return {{0, kNaN}};
    const double end = u < x.front() ? x.front() : x.back();
    if (extrapolation == TableExtrapolation::hold) return k == 0 ? axis_weights(x, end, 0, cubic, extrapolation)
                                                                 : std::vector<std::pair<std::size_t, double>>{};
    auto value = axis_weights(x, end, 0, cubic, extrapolation), slope = axis_weights(x, end, 1, cubic, extrapolation);
    if (k == 1) return slope;
    if (k > 1) return {};
    for (auto& [index, w] : slope) value.emplace_back(index, w * (u - end));
    return value;
  }
  const std::size_t i = cell_of(x, u);
  const double h = x[i + 1] - x[i], t = (u - x[i]) / h, scale = std::pow(h, -k);
  if (!cubic) {
    if (k == 0) return {{i, 1.0 - t}, {i + 1, t}};
    if (k == 1) return {{i, -1.0 / h}, {i + 1, 1.0 / h}};
    return {};
  }
  // The Hermite basis h00, h10, h01, h11 and its derivatives in t.
  auto basis = [&](int which) {
    static constexpr double c[4][4] = {{1, 0, -3, 2}, {0, 1, -2, 1}, {0, 0, 3, -2}, {0, 0, -1, 1}};  // 1, t, t², t³
    double sum = 0;
    for (int p = k; p < 4; ++p) {
      double falling = 1;
      for (int q = 0; q < k; ++q) falling *= p - q;
      sum += c[which][p] * falling * std::pow(t, p - k);
    }
    return sum * scale;
  };
  // Slope at point p as weights: centred difference inside, one-sided at the ends.
  auto slope = [&](std::size_t p, double factor, std::vector<std::pair<std::size_t, double>>& out) {
    const std::size_t lo = p == 0 ? 0 : p - 1, hi = p + 1 == n ? p : p + 1;
    out.emplace_back(hi, factor / (x[hi] - x[lo]));
    out.emplace_back(lo, -factor / (x[hi] - x[lo]));
  };
  std::vector<std::pair<std::size_t, double>> w{{i, basis(0)}, {i + 1, basis(2)}};
  slope(i, basis(1) * h, w);
  slope(i + 1, basis(3) * h, w);
  return w;
}

double grid_value(const Grid& g, double u1, double u2, int k1, int k2) {
  const Table2D& t = g.data;
  if (std::isnan(u1) || std::isnan(u2)) return kNaN;
  const bool cubic = t.smoothness != TableSmoothness::linear;
  const std::size_t n2 = t.u2.size();
  double sum = 0;
  for (const auto& [a, wa] : axis_weights(t.u1, u1, k1, cubic, t.extrapolation))
    for (const auto& [b, wb] : axis_weights(t.u2, u2, k2, cubic, t.extrapolation)) sum += wa * wb * t.y[a * n2 + b];
  return sum;
}

// The highest derivative order that is not identically zero.
int highest_order(const Column& c) {
  switch (c.data.smoothness) {
    case TableSmoothness::constant: return 0;
    case TableSmoothness::linear: return 1;
    case TableSmoothness::monotone_cubic: return 3;
  }
  return 0;
}

Expr column_node(Function function, int order, const Column* column, const Expr& a, const Expr& b) {
  if (order > highest_order(*column)) return Expr(0.0);
  return make_table(registry().entry(function, order, 0, column, nullptr), a, b);
}

const Column* prepared(const Table1D& table) {
  check_table(table, "table");
  return registry().column(table);
}

}  // namespace

void check_table(const Table1D& t, const std::string& owner) {
  if (t.x.empty()) throw ModelError(owner + ": the table is empty");
  if (t.x.size() != t.y.size())
    throw ModelError(fmt::format("{}: {} abscissae but {} values", owner, t.x.size(), t.y.size()));
  for (std::size_t i = 0; i < t.x.size(); ++i) {
    if (!std::isfinite(t.x[i]) || !std::isfinite(t.y[i]))
      throw ModelError(fmt::format("{}: row {} ({}, {}) is not finite", owner, i + 1, t.x[i], t.y[i]));
    if (i > 0 && t.x[i] < t.x[i - 1])
      throw ModelError(fmt::format("{}: the abscissae must not decrease (row {}: {} after {})", owner, i + 1, t.x[i],
                                   t.x[i - 1]));
    if (i > 1 && t.x[i] == t.x[i - 1] && t.x[i] == t.x[i - 2])
      throw ModelError(fmt::format("{}: abscissa {} appears three times (rows {} to {}); a jump takes two", owner,
                                   t.x[i], i - 1, i + 1));
  }
  if (t.extrapolation == TableExtrapolation::periodic && !(t.x.back() > t.x.front()))
    throw ModelError(owner + ": a periodic table needs a period (its last abscissa above its first)");
}

void check_table(const Table2D& t, const std::string& owner) {
  if (t.u1.empty() || t.u2.empty()) throw ModelError(owner + ": the table is empty");
  if (t.y.size() != t.u1.size() * t.u2.size())
    throw ModelError(fmt::format("{}: {} values for a {} x {} grid", owner, t.y.size(), t.u1.size(), t.u2.size()));
  for (auto [axis, name] : {std::pair{&t.u1, "u1"}, std::pair{&t.u2, "u2"}})
    for (std::size_t i = 0; i < axis->size(); ++i) {
      if (!std::isfinite((*axis)[i])) throw ModelError(fmt::format("{}: {}[{}] is not finite", owner, name, i + 1));
      if (i > 0 && !((*axis)[i] > (*axis)[i - 1]))
        throw ModelError(fmt::format("{}: {} must increase ({}[{}] = {} after {})", owner, name, name, i + 1,
                                     (*axis)[i], (*axis)[i - 1]));
    }
  for (std::size_t k = 0; k < t.y.size(); ++k)
    if (!std::isfinite(t.y[k]))
      throw ModelError(fmt::format("{}: the value at u1[{}], u2[{}] is not finite", owner, k / t.u2.size() + 1,
                                   k % t.u2.size() + 1));
  if (t.extrapolation == TableExtrapolation::periodic)
    throw ModelError(owner + ": a 2-D table extrapolates by hold, linear or error, not periodic");
  if (t.smoothness == TableSmoothness::constant)
    throw ModelError(owner + ": a 2-D table is bilinear (linear) or a smooth cubic (monotone_cubic), not constant");
}

Expr table(const Expr& x, const Table1D& t) { return column_node(Function::value, 0, prepared(t), x, Expr(0.0)); }

Expr table_in_segment(const Expr& x, const Expr& segment, const Table1D& t) {
  return column_node(Function::in_segment, 0, prepared(t), x, segment);
}

Expr table_segment(const Expr& x, const Table1D& t) {
  return make_table(registry().entry(Function::segment, 0, 0, prepared(t), nullptr), x, Expr(0.0));
}

Expr table_next_breakpoint(const Expr& x, const Table1D& t) {
  return make_table(registry().entry(Function::next_breakpoint, 0, 0, prepared(t), nullptr), x, Expr(0.0));
}

TableEntryData table_entry_data(std::uint32_t id) {
  const Entry& e = registry().at(id);
  TableEntryData data{static_cast<int>(e.function), e.order, e.order2, e.grid != nullptr, {}, {}};
  if (e.grid)
    data.grid = e.grid->data;
  else
    data.column = e.column->data;
  return data;
}

std::uint32_t table_entry(const TableEntryData& data) {
  if (data.function < 0 || data.function > static_cast<int>(Function::value_2d) || data.order < 0 || data.order2 < 0 ||
      data.two_dimensional != (data.function == static_cast<int>(Function::value_2d)))
    throw ModelError(fmt::format("table entry: function {} with orders {}, {} is not one of a table's", data.function,
                                 data.order, data.order2));
  const auto function = static_cast<Function>(data.function);
  if (data.two_dimensional) {
    check_table(data.grid, "table");
    return registry().entry(function, data.order, data.order2, nullptr, registry().grid(data.grid));
  }
  return registry().entry(function, data.order, 0, prepared(data.column), nullptr);
}

Expr table(const Expr& u1, const Expr& u2, const Table2D& t) {
  check_table(t, "table");
  return make_table(registry().entry(Function::value_2d, 0, 0, nullptr, registry().grid(t)), u1, u2);
}

std::size_t interned_table_count() { return registry().tables(); }

double table_evaluate(std::uint32_t id, double a, double b) {
  const Entry& e = registry().at(id);
  switch (e.function) {
    case Function::value: return piece(*e.column, segment_of(*e.column, a), a, e.order);
    case Function::in_segment: return piece(*e.column, b, a, e.order);
    case Function::segment: return segment_of(*e.column, a);
    case Function::next_breakpoint: return next_breakpoint(*e.column, a);
    case Function::value_2d: return grid_value(*e.grid, a, b, e.order, e.order2);
  }
  return kNaN;
}

Expr table_partial(const Node* n, int i) {
  const Entry& e = registry().at(n->symbol);
  const Expr a(n->arg[0]), b(n->arg[1]);
  switch (e.function) {
    case Function::value: case Function::in_segment:
      return i == 0 ? column_node(e.function, e.order + 1, e.column, a, b) : Expr(0.0);
    case Function::segment: case Function::next_breakpoint: return Expr(0.0);  // steps: read at events only
    case Function::value_2d: {
      const int k1 = e.order + (i == 0), k2 = e.order2 + (i == 1), highest = e.grid->data.smoothness == TableSmoothness::linear ? 1 : 3;
      if (k1 > highest || k2 > highest) return Expr(0.0);
      return make_table(registry().entry(Function::value_2d, k1, k2, nullptr, e.grid), a, b);
    }
  }
  return Expr(0.0);
}

std::string table_entry_name(std::uint32_t id) {
  const Entry& e = registry().at(id);
  std::string name = fmt::format("table{}", e.table_number);
  switch (e.function) {
    case Function::segment: return name + ".segment";
    case Function::next_breakpoint: return name + ".next_breakpoint";
    case Function::value_2d:
      if (e.order + e.order2 == 0) return name;
      return fmt::format("{}.d{}{}", name, e.order ? "u1" : "", e.order2 ? "u2" : "");
    default: return name + std::string(static_cast<std::size_t>(e.order), '\'');
  }
}

}  // namespace acausal
