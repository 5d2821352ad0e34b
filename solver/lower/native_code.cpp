#include "solver/lower/native_code.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <fmt/format.h>

#include "solver/symbolic/errors.hpp"
#include "solver/lower/evaluation.hpp"
#include "solver/symbolic/table_entries.hpp"

namespace acausal {

namespace {

namespace fs = std::filesystem;

// Without errno, math functions have no side effect the compiler must keep;
// without contraction, no fused multiply-add changes a rounding: the library
// computes exactly what the interpreter computes.
constexpr const char* c_flags = "-std=c99 -O2 -fPIC -shared -fno-math-errno -ffp-contract=off";

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

fs::path cache_directory(const NativeCodeOptions& options) {
  if (!options.cache_directory.empty()) return options.cache_directory;
  if (auto dir = environment("ACAUSAL_CACHE_DIR"); !dir.empty()) return dir;
  if (auto xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return fs::path(xdg) / "acausal";
  if (auto home = environment("HOME"); !home.empty()) return fs::path(home) / ".cache" / "acausal";
  return fs::temp_directory_path() / "acausal";
}

std::uint64_t fnv1a(std::string_view text, std::uint64_t h = 14695981039346656037ull) {
  for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  return h;
}

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// Compiles `source` into `library` (written under a temporary name, then renamed,
// so a concurrent process never loads half a file).
void build(const std::string& compiler, const std::string& source, const fs::path& library) {
  const std::string stem = fmt::format("{}.{}", library.string(), getpid());
  const std::string c_file = stem + ".c", so_file = stem + ".so", log_file = stem + ".log";
  {
    std::ofstream out(c_file, std::ios::binary);
    out << source;
    if (!out) throw ModelError(fmt::format("native code: cannot write '{}'", c_file));
  }
  const std::string command = fmt::format("{} {} -o {} {} -lm > {} 2>&1", compiler, c_flags, shell_quoted(so_file),
                                          shell_quoted(c_file), shell_quoted(log_file));
  const int status = std::system(command.c_str());
  if (status != 0) {
    std::ifstream log(log_file);
    std::string output((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    if (output.size() > 2000) output = output.substr(0, 2000) + "...";
    std::error_code ec;
    fs::remove(so_file, ec);
    fs::remove(log_file, ec);
    throw ModelError(fmt::format(
        "native code: the C compiler failed (exit status {}): {}\n{}\nThe source is kept in '{}'; set the compiler "
        "with NativeCodeOptions::compiler or $ACAUSAL_CC, or compile without native_code.",
        status, command, output, c_file));
  }
  std::error_code ec;
  fs::rename(so_file, library, ec);
  if (ec) throw ModelError(fmt::format("native code: cannot move '{}' to '{}': {}", so_file, library.string(), ec.message()));
  fs::remove(c_file, ec);
  fs::remove(log_file, ec);
}

}  // namespace

void generate_native_code(CompiledModel& m, const NativeCodeOptions& options) {
  std::vector<Tape*> tapes = {&m.residual, &m.jacobian, &m.observed, &m.relations, &m.indicators, &m.hybrid,
                              &m.initialization.residuals, &m.initialization.jacobian};
  for (Tape& t : m.delay_arguments) tapes.push_back(&t);

  // Tables are evaluated by the host (table_evaluate), through a pointer set after loading.
  std::string source = "#include <math.h>\n\ndouble (*acausal_table)(unsigned, double, double);\n\n";
  std::size_t instructions = 0;
  for (std::size_t k = 0; k < tapes.size(); ++k) {
    tapes[k]->write_c(source, fmt::format("acausal_tape_{}", k));
    instructions += tapes[k]->n_instructions();
  }
  std::string compiler = options.compiler;
  if (compiler.empty()) compiler = environment("ACAUSAL_CC");
  if (compiler.empty()) compiler = "cc";
  const std::uint64_t key = fnv1a(source, fnv1a(compiler + c_flags));

  const fs::path dir = cache_directory(options);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ModelError(fmt::format("native code: cannot create the cache directory '{}': {}", dir.string(), ec.message()));
  const fs::path library = dir / fmt::format("acausal-{:016x}.so", key);

  bool built = false;
  void* handle = fs::exists(library) ? dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  if (!handle) {
    build(compiler, source, library);
    built = true;
    handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw ModelError(fmt::format("native code: cannot load '{}': {}", library.string(), dlerror()));
  }
  std::shared_ptr<const void> keep(handle, [](const void* h) { dlclose(const_cast<void*>(h)); });
  auto* table_pointer = reinterpret_cast<double (**)(unsigned, double, double)>(dlsym(handle, "acausal_table"));
  if (!table_pointer) throw ModelError(fmt::format("native code: '{}' has no acausal_table", library.string()));
  *table_pointer = [](unsigned entry, double a, double b) { return table_evaluate(entry, a, b); };
  for (std::size_t k = 0; k < tapes.size(); ++k) {
    void* symbol = dlsym(handle, fmt::format("acausal_tape_{}", k).c_str());
    if (!symbol) throw ModelError(fmt::format("native code: '{}' has no function acausal_tape_{}", library.string(), k));
    tapes[k]->use_native(reinterpret_cast<Tape::NativeFunction>(symbol), keep);
  }

  PassReport& r = m.dae.report.add("native_code");
  r.counts = {{"functions", static_cast<long>(tapes.size())},
              {"instructions", static_cast<long>(instructions)},
              {"source_bytes", static_cast<long>(source.size())},
              {"compiled", built ? 1 : 0}};
  r.notes.push_back(fmt::format("{} {}", built ? "built" : "loaded from the cache:", library.string()));
}

}  // namespace acausal
