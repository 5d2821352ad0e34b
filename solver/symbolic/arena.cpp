// The process-wide node arena: hash-consing, symbol names, derived symbols and
// the collector that frees nodes no handle reaches.
#include "solver/symbolic/arena.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ACAUSAL_POISON(p, size) ASAN_POISON_MEMORY_REGION(p, size)
#define ACAUSAL_UNPOISON(p, size) ASAN_UNPOISON_MEMORY_REGION(p, size)
#else
#define ACAUSAL_POISON(p, size) ((void)(p), (void)(size))
#define ACAUSAL_UNPOISON(p, size) ((void)(p), (void)(size))
#endif

namespace acausal {

namespace {

std::size_t mix(std::size_t h, std::size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

std::uint64_t bits_of(double v) {
  if (v == 0.0) v = 0.0;  // -0 and +0 are one constant
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// What identifies a node: everything but its id and handle count.
struct Key {
  Op op;
  std::uint32_t symbol;
  double value;
  const Node* arg[3];

  bool matches(const Node& n) const {
    return n.op == op && n.symbol == symbol && bits_of(n.value) == bits_of(value) && n.arg[0] == arg[0] &&
           n.arg[1] == arg[1] && n.arg[2] == arg[2];
  }
};

std::uint64_t hash_of(Op op, std::uint32_t symbol, double value, const Node* const* arg) {
  std::size_t h = static_cast<std::size_t>(op);
  h = mix(h, symbol);
  h = mix(h, bits_of(value));
  for (int i = 0; i < 3; ++i) h = mix(h, reinterpret_cast<std::uintptr_t>(arg[i]));
  h ^= h >> 33;  // spread the bits the mask and the tag use
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 33);
}
std::uint64_t hash_of(const Key& k) { return hash_of(k.op, k.symbol, k.value, k.arg); }
std::uint64_t hash_of(const Node& n) { return hash_of(n.op, n.symbol, n.value, n.arg); }

bool names_a_symbol(Op op) { return op == Op::Var || op == Op::Param || op == Op::Discrete; }

// Threads that have made nodes and are still running: a collection is sound
// only when the thread that runs it is the only one.
std::atomic<int> threads_making_nodes{0};
struct ThreadMark {
  ThreadMark() { threads_making_nodes.fetch_add(1); }
  ~ThreadMark() { threads_making_nodes.fetch_sub(1); }
};
void note_thread() {
  thread_local ThreadMark mark;
  (void)mark;
}

class Interner;

// Live marks by node id, for one collection.
class Marking final : public detail::Marks {
 public:
  Marking(const Interner& arena, std::uint32_t ids) : arena_(arena), marked_(ids, 0) {}
  bool live(const Node* n) const override { return marked_[n->id] != 0; }
  bool keep(const Node* n) override {
    if (marked_[n->id]) return false;
    marked_[n->id] = 1;
    stack_.push_back(n);
    while (!stack_.empty()) {
      const Node* x = stack_.back();
      stack_.pop_back();
      for (const Node* child : x->arg)
        if (child && !marked_[child->id]) {
          marked_[child->id] = 1;
          stack_.push_back(child);
        }
    }
    return true;
  }
  void for_each_live(const std::function<void(const Node*)>& visit) const override;

 private:
  const Interner& arena_;
  std::vector<std::uint8_t> marked_;
  std::vector<const Node*> stack_;
};

// The arena: fixed-size chunks of nodes (a node never moves), an open-addressing
// table from content to id, and a free list of the ids collections released.
// Guarded by a mutex so models may be built on several threads; the solver loop
// never touches it.
class Interner {
 public:
  Interner() : slots_(1 << 16, 0) {}

  const Node* intern(const Key& key) {
    note_thread();
    const std::uint64_t h = hash_of(key);
    std::lock_guard<std::mutex> lock(mutex_);
    // A slot holds the hash's high half beside the node id, so a probe reads
    // the node itself only when those 32 bits match.
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    for (; slots_[i]; i = (i + 1) & mask)
      if ((slots_[i] >> 32) == (h >> 32) && key.matches(*at(slot_id(slots_[i])))) return at(slot_id(slots_[i]));
    const Node* n = store(key);
    slots_[i] = slot_of(h, n->id);
    if (10 * count_ > 7 * slots_.size()) rehash(slots_.size() * 2);
    return n;
  }

  std::uint32_t new_symbol(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (next_symbol_ == UINT32_MAX) throw std::length_error("acausal: more than 2^32 symbols made in one process");
    names_.emplace(next_symbol_, name);
    return next_symbol_++;
  }

  const std::string& name(std::uint32_t symbol) {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string unknown = "?";
    auto it = names_.find(symbol);
    return it == names_.end() ? unknown : it->second;
  }

  const Node* derived(Op kind, const Node* of, const std::string& role, const std::string& name) {
    std::string key = fmt::format("{}:{}:{}", static_cast<int>(kind), static_cast<const void*>(of), role);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto found = derived_.find(key); found != derived_.end()) return found->second.symbol;
    }
    const Node* symbol = intern(Key{kind, new_symbol(name), 0.0, {nullptr, nullptr, nullptr}});
    std::lock_guard<std::mutex> lock(mutex_);
    // Another thread may have made it meanwhile: the first one made stays the symbol.
    return derived_.emplace(std::move(key), Derived{of, symbol}).first->second.symbol;
  }

  void register_weak(detail::WeakNodeMap* map) {
    std::lock_guard<std::mutex> lock(mutex_);
    weak_.push_back(map);
  }

  std::size_t count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }

  bool due() {
    std::lock_guard<std::mutex> lock(mutex_);
    return made_since_collection_ >= std::max<std::size_t>(std::size_t{1} << 16, live_after_collection_);
  }

  std::size_t collect() {
    std::lock_guard<std::mutex> lock(mutex_);
    Marking marks(*this, high_);
    for (std::uint32_t id = 0; id < high_; ++id)
      if (!free_[id] && at(id)->handles.load(std::memory_order_relaxed) > 0) marks.keep(at(id));
    // A derived symbol lives as long as what it derives from; the maps of the
    // layers above have rules of their own. Repeat until none marks anything.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [key, d] : derived_)
        if (!d.of || marks.live(d.of)) changed |= marks.keep(d.symbol);
      for (detail::WeakNodeMap* map : weak_) changed |= map->keep(marks);
    }
    for (detail::WeakNodeMap* map : weak_) map->sweep(marks);
    std::erase_if(derived_, [&](const auto& entry) {
      return (entry.second.of && !marks.live(entry.second.of)) || !marks.live(entry.second.symbol);
    });
    std::size_t freed = 0;
    for (std::uint32_t id = 0; id < high_; ++id) {
      if (free_[id] || marks.live(at(id))) continue;
      Node* n = mutable_at(id);
      if (names_a_symbol(n->op)) names_.erase(n->symbol);
      free_[id] = 1;
      free_ids_.push_back(id);
      ACAUSAL_POISON(n, sizeof(Node));
      ++freed;
    }
    count_ -= freed;
    rehash(slots_.size());
    live_after_collection_ = count_;
    made_since_collection_ = 0;
    return freed;
  }

  const Node* at(std::uint32_t id) const { return &chunks_[id >> kChunkBits][id & ((1u << kChunkBits) - 1)]; }

 private:
  static constexpr unsigned kChunkBits = 16;  // nodes per chunk: 2^16 (3 MB)

  struct Derived {
    const Node* of;
    const Node* symbol;
  };

  // 0 marks an empty slot, so ids are stored plus one.
  static std::uint64_t slot_of(std::uint64_t hash, std::uint32_t id) { return (hash & ~0xffffffffULL) | (id + 1ULL); }
  static std::uint32_t slot_id(std::uint64_t slot) { return static_cast<std::uint32_t>(slot) - 1; }
  Node* mutable_at(std::uint32_t id) { return const_cast<Node*>(at(id)); }

  void rehash(std::size_t size) {
    std::vector<std::uint64_t> slots(size, 0);
    const std::size_t mask = size - 1;
    for (std::uint32_t id = 0; id < high_; ++id) {
      if (free_[id]) continue;
      const std::uint64_t h = hash_of(*at(id));
      std::size_t i = h & mask;
      while (slots[i]) i = (i + 1) & mask;
      slots[i] = slot_of(h, id);
    }
    slots_.swap(slots);
  }

  // A freed id is reused first; the allocator is called once per 65536 new ids.
  const Node* store(const Key& key) {
    std::uint32_t id;
    if (!free_ids_.empty()) {
      id = free_ids_.back();
      free_ids_.pop_back();
      free_[id] = 0;
      ACAUSAL_UNPOISON(mutable_at(id), sizeof(Node));
    } else {
      if (high_ == UINT32_MAX) throw std::length_error("acausal: more than 2^32 expression nodes alive");
      if ((high_ >> kChunkBits) == chunks_.size())
        chunks_.push_back(std::make_unique_for_overwrite<Node[]>(std::size_t{1} << kChunkBits));
      id = high_++;
      free_.push_back(0);
    }
    Node* n = mutable_at(id);
    n->op = key.op;
    n->id = id;
    n->serial = next_serial_++;
    n->symbol = key.symbol;
    n->handles.store(0, std::memory_order_relaxed);
    n->value = key.value;
    for (int i = 0; i < 3; ++i) n->arg[i] = key.arg[i];
    ++count_;
    ++made_since_collection_;
    return n;
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<Node[]>> chunks_;
  std::uint32_t high_ = 0;                  // ids handed out so far
  std::size_t count_ = 0;                   // nodes alive (not freed)
  std::vector<std::uint8_t> free_;          // by id
  std::vector<std::uint32_t> free_ids_;
  std::size_t made_since_collection_ = 0, live_after_collection_ = 0;
  std::uint32_t next_symbol_ = 0;
  std::uint32_t next_serial_ = 0;  // wraps after 2^32 nodes made: Node::before() then falls back to ids
  std::unordered_map<std::uint32_t, std::string> names_;
  std::unordered_map<std::string, Derived> derived_;
  std::vector<detail::WeakNodeMap*> weak_;
  std::vector<std::uint64_t> slots_;
};

void Marking::for_each_live(const std::function<void(const Node*)>& visit) const {
  for (std::uint32_t id = 0; id < marked_.size(); ++id)
    if (marked_[id]) visit(arena_.at(id));
}

Interner& interner() {
  static Interner* instance = new Interner();  // never destroyed: nodes outlive static destructors
  return *instance;
}

}  // namespace

namespace arena {

const Node* intern(Op op, std::uint32_t symbol, double value, const Node* a, const Node* b, const Node* c) {
  return interner().intern(Key{op, symbol, value == 0.0 ? 0.0 : value, {a, b, c}});
}
std::uint32_t new_symbol(const std::string& name) { return interner().new_symbol(name); }
const std::string& symbol_name(std::uint32_t symbol) { return interner().name(symbol); }
const Node* derived(Op kind, const Node* of, const std::string& role, const std::string& name) {
  return interner().derived(kind, of, role, name);
}
std::size_t count() { return interner().count(); }
const Node* pin(const Node* n) {
  n->handles.fetch_add(1, std::memory_order_relaxed);
  return n;
}

}  // namespace arena

void detail::register_weak_node_map(detail::WeakNodeMap* map) { interner().register_weak(map); }

std::size_t collect_expressions() { return interner().collect(); }

void collect_expressions_if_due() {
  static const bool always = [] {
    const char* setting = std::getenv("ACAUSAL_COLLECT");
    return setting && std::string_view(setting) == "always";
  }();
  if (threads_making_nodes.load() > 1) return;
  if (always || interner().due()) collect_expressions();
}

}  // namespace acausal
