#include "solver/lower/native_code.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <fmt/format.h>

#include "solver/symbolic/errors.hpp"
#include "solver/lower/evaluation.hpp"
#include "solver/symbolic/table_entries.hpp"

extern char** environ;

namespace acausal {

namespace {

namespace fs = std::filesystem;

// Without errno, math functions have no side effect the compiler must keep;
// without contraction, no fused multiply-add changes a rounding: the library
// computes exactly what the interpreter computes.
const std::vector<std::string> c_flags = {"-std=c99", "-O2", "-fPIC", "-shared", "-fno-math-errno", "-ffp-contract=off"};

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

// FIPS 180-4 SHA-256. The cache's record of a library is only as good as its
// hash: a 64-bit hash would let a damaged or substituted file pass by collision.
class Sha256 {
 public:
  void update(std::string_view bytes) {
    for (unsigned char ch : bytes) {
      block_[filled_++] = ch;
      if (filled_ == 64) compress();
    }
    length_ += bytes.size();
  }

  std::string hex_digest() {
    const std::uint64_t bits = length_ * 8;
    block_[filled_++] = 0x80;
    if (filled_ > 56) {
      while (filled_ < 64) block_[filled_++] = 0;
      compress();
    }
    while (filled_ < 56) block_[filled_++] = 0;
    for (int k = 7; k >= 0; --k) block_[filled_++] = static_cast<unsigned char>(bits >> (8 * k));
    compress();
    std::string hex;
    for (std::uint32_t word : state_) hex += fmt::format("{:08x}", word);
    return hex;
  }

 private:
  static std::uint32_t rotate_right(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

  void compress() {
    static constexpr std::array<std::uint32_t, 64> round_constants = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    std::array<std::uint32_t, 64> w{};
    for (int k = 0; k < 16; ++k)
      w[k] = std::uint32_t{block_[4 * k]} << 24 | std::uint32_t{block_[4 * k + 1]} << 16 |
             std::uint32_t{block_[4 * k + 2]} << 8 | std::uint32_t{block_[4 * k + 3]};
    for (int k = 16; k < 64; ++k) {
      const std::uint32_t s0 = rotate_right(w[k - 15], 7) ^ rotate_right(w[k - 15], 18) ^ (w[k - 15] >> 3);
      const std::uint32_t s1 = rotate_right(w[k - 2], 17) ^ rotate_right(w[k - 2], 19) ^ (w[k - 2] >> 10);
      w[k] = w[k - 16] + s0 + w[k - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, h] = state_;
    for (int k = 0; k < 64; ++k) {
      const std::uint32_t t1 = h + (rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25)) +
                               ((e & f) ^ (~e & g)) + round_constants[k] + w[k];
      const std::uint32_t t2 =
          (rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    const std::array<std::uint32_t, 8> round = {a, b, c, d, e, f, g, h};
    for (int k = 0; k < 8; ++k) state_[k] += round[k];
    filled_ = 0;
  }

  std::array<std::uint32_t, 8> state_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> block_{};
  std::size_t filled_ = 0;
  std::uint64_t length_ = 0;
};

std::string sha256(std::string_view bytes) {
  Sha256 h;
  h.update(bytes);
  return h.hex_digest();
}

// ---- the cache directory ----------------------------------------------------

// Anyone who can write into the cache directory chooses the code compile()
// loads, so it must be the user's own and closed to everyone else.
void refuse_unless_private(const fs::path& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0)
    throw ModelError(fmt::format("native code: cannot use the cache directory '{}': {}", dir.string(),
                                 std::strerror(errno)));
  const std::string remedy = fmt::format(
      "; another user could plant a library that compile() would load. Use a directory of your own that only you "
      "may write to (chmod 700 '{}'), or name another with NativeCodeOptions::cache_directory or "
      "$ACAUSAL_CACHE_DIR.",
      dir.string());
  if (!S_ISDIR(info.st_mode))
    throw ModelError(fmt::format("native code: the cache directory '{}' is not a directory", dir.string()));
  if (info.st_uid != ::geteuid())
    throw ModelError(fmt::format("native code: the cache directory '{}' belongs to user id {}, not to you (user id {}){}",
                                 dir.string(), info.st_uid, ::geteuid(), remedy));
  if (info.st_mode & (S_IWGRP | S_IWOTH))
    throw ModelError(fmt::format("native code: the cache directory '{}' is writable by {} (mode {:04o}){}",
                                 dir.string(), (info.st_mode & S_IWOTH) ? "everyone" : "its group",
                                 info.st_mode & 07777, remedy));
}

// Every directory this creates, the cache and any missing parent, is owner-only.
void create_private_directories(const fs::path& dir) {
  fs::path prefix;
  for (const fs::path& part : dir) {
    prefix /= part;
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      throw ModelError(fmt::format("native code: cannot create the cache directory '{}' ('{}': {})", dir.string(),
                                   prefix.string(), std::strerror(errno)));
  }
}

// Without HOME, XDG_CACHE_HOME or ACAUSAL_CACHE_DIR there is no place of the
// user's own that outlives the process; a shared name under /tmp could be
// made in advance by another user. A fresh directory from mkdtemp (0700) serves
// this process, and is removed when it exits (not by a forked child).
struct ProcessPrivateDirectory {
  fs::path path;
  pid_t creator;

  ProcessPrivateDirectory() : creator(::getpid()) {
    std::error_code no_temporary_directory;
    fs::path temporary = fs::temp_directory_path(no_temporary_directory);
    if (no_temporary_directory) temporary = "/tmp";
    std::string name = (temporary / "acausal-XXXXXX").string();
    if (!::mkdtemp(name.data()))
      throw ModelError(fmt::format(
          "native code: HOME, XDG_CACHE_HOME and ACAUSAL_CACHE_DIR are unset and no private directory could be made "
          "as '{}': {}; set ACAUSAL_CACHE_DIR to a directory of your own",
          name, std::strerror(errno)));
    path = name;
  }
  ~ProcessPrivateDirectory() {
    if (::getpid() != creator) return;
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  ProcessPrivateDirectory(const ProcessPrivateDirectory&) = delete;
  ProcessPrivateDirectory& operator=(const ProcessPrivateDirectory&) = delete;
};

fs::path cache_directory(const NativeCodeOptions& options) {
  if (!options.cache_directory.empty()) return options.cache_directory;
  if (auto dir = environment("ACAUSAL_CACHE_DIR"); !dir.empty()) return dir;
  if (auto xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return fs::path(xdg) / "acausal";
  if (auto home = environment("HOME"); !home.empty()) return fs::path(home) / ".cache" / "acausal";
  static const ProcessPrivateDirectory this_process;
  return this_process.path;
}

// ---- files ------------------------------------------------------------------

// The bytes of a regular file of the user's own, read through one descriptor
// (no symbolic link followed, no second lookup of the name); nothing when the
// file is missing, of another kind or owner, or longer than `max_bytes`.
std::optional<std::string> read_own_file(const fs::path& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> bytes;
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == ::geteuid() &&
      static_cast<std::size_t>(info.st_size) <= max_bytes) {
    bytes.emplace();
    char buffer[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 || bytes->size() + static_cast<std::size_t>(n) > max_bytes) {
        bytes.reset();
        break;
      }
      if (n == 0) break;
      bytes->append(buffer, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return bytes;
}

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ModelError(fmt::format("native code: cannot write '{}': {}", path, std::strerror(errno)));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// A new file of a name no other process or thread holds: `prefix` + six
// random characters + `suffix`.
std::string create_unique_file(const std::string& prefix, const std::string& suffix, std::string_view contents) {
  std::string name = prefix + "XXXXXX" + suffix;
  const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0) throw ModelError(fmt::format("native code: cannot create '{}': {}", name, std::strerror(errno)));
  try {
    write_all(fd, contents, name);
  } catch (...) {
    ::close(fd);
    ::unlink(name.c_str());
    throw;
  }
  ::close(fd);
  return name;
}

// Written under a unique temporary name, then renamed: a concurrent process
// sees the old file or the new one, never half of one.
void write_atomically(const fs::path& path, std::string_view contents) {
  const std::string temporary = create_unique_file(path.string() + ".", ".tmp", contents);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw ModelError(fmt::format("native code: cannot move '{}' to '{}': {}", temporary, path.string(),
                                 std::strerror(error)));
  }
}

// ---- the compiler -------------------------------------------------------------

// The setting is a program and its arguments separated by whitespace; it is
// never given to a shell, so no character in it is special.
std::vector<std::string> compiler_words(const std::string& setting) {
  std::vector<std::string> words;
  std::string word;
  for (char ch : setting) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += ch;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  if (words.empty())
    throw ModelError(fmt::format("native code: the compiler setting '{}' names no program; set "
                                 "NativeCodeOptions::compiler or $ACAUSAL_CC to a C compiler such as cc",
                                 setting));
  return words;
}

// Runs argv (argv[0] looked up in PATH) with stdin from /dev/null and stdout
// and stderr into `log_file`. Returns what went wrong, or nothing on exit status 0.
std::optional<std::string> run(const std::vector<std::string>& argv, const std::string& log_file) {
  std::vector<char*> pointers;
  for (const auto& a : argv) pointers.push_back(const_cast<char*>(a.c_str()));
  pointers.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t child = 0;
  const int spawn_error = ::posix_spawnp(&child, pointers[0], &actions, nullptr, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) return fmt::format("cannot run '{}': {}", argv[0], std::strerror(spawn_error));

  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return fmt::format("cannot wait for '{}': {}", argv[0], std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  if (WIFEXITED(status)) return fmt::format("exit status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {}", WTERMSIG(status));
  return fmt::format("wait status {}", status);
}

// ---- the cache ----------------------------------------------------------------

// What is kept beside a library: the hash of everything it was built from and
// the hash of its bytes. A library is loaded only if both match.
std::string library_record(const std::string& source_hash, const std::string& library_hash) {
  return fmt::format("acausal native library\nsource sha256 {}\nlibrary sha256 {}\n", source_hash, library_hash);
}

constexpr std::size_t largest_library = std::size_t{1} << 31;
constexpr std::size_t largest_record = 4096;
constexpr std::size_t largest_compiler_log = std::size_t{16} << 20;

// The cached library, loaded, if its bytes are those its record names and the
// record is the one of this source; nothing (so it is rebuilt) when either
// file is missing, truncated, altered or not the user's own. Nothing is
// loaded before it is verified: loading runs the library's constructors.
void* load_verified(const fs::path& library, const fs::path& record, const std::string& source_hash) {
  const std::optional<std::string> recorded = read_own_file(record, largest_record);
  if (!recorded) return nullptr;
  const std::optional<std::string> bytes = read_own_file(library, largest_library);
  if (!bytes || bytes->empty()) return nullptr;
  if (*recorded != library_record(source_hash, sha256(*bytes))) return nullptr;
  // The directory is the user's own and closed to others (refuse_unless_private),
  // so nobody else can replace the file between this check and dlopen.
  return ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
}

struct TemporaryFiles {
  std::vector<std::string> paths;
  ~TemporaryFiles() {
    for (const auto& p : paths) ::unlink(p.c_str());
  }
};

// Compiles `source` into `library`, writes its record and returns it loaded.
// The library is loaded under its unique temporary name (before it is renamed
// into place), so this process runs what it just built even if a concurrent
// process replaces the cached file.
void* build(const std::string& compiler_setting, const std::string& source, const std::string& source_hash,
            const fs::path& library, const fs::path& record) {
  std::vector<std::string> argv = compiler_words(compiler_setting);
  const std::string c_file = create_unique_file(library.string() + ".", ".c", source);
  const std::string stem = c_file.substr(0, c_file.size() - 2);  // unique while c_file exists
  const std::string so_file = stem + ".so", log_file = stem + ".log";
  TemporaryFiles cleanup{{so_file, log_file}};

  argv.insert(argv.end(), c_flags.begin(), c_flags.end());
  argv.insert(argv.end(), {"-o", so_file, c_file, "-lm"});
  if (const std::optional<std::string> failure = run(argv, log_file)) {
    std::string output = read_own_file(log_file, largest_compiler_log).value_or("");
    if (output.size() > 2000) output = output.substr(0, 2000) + "...";
    throw ModelError(fmt::format(
        "native code: the C compiler failed ({}); the compiler setting '{}' is a program and its arguments, run "
        "without a shell: {}\n{}\nThe source is kept in '{}'; set the compiler with NativeCodeOptions::compiler or "
        "$ACAUSAL_CC, or compile without native_code.",
        *failure, compiler_setting, joined(argv), output, c_file));
  }
  cleanup.paths.push_back(c_file);

  const std::optional<std::string> bytes = read_own_file(so_file, largest_library);
  if (!bytes || bytes->empty())
    throw ModelError(fmt::format("native code: the C compiler '{}' wrote no library '{}'", compiler_setting, so_file));
  void* handle = ::dlopen(so_file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw ModelError(fmt::format("native code: cannot load '{}': {}", so_file, ::dlerror()));
  if (::rename(so_file.c_str(), library.c_str()) != 0) {
    const int error = errno;
    ::dlclose(handle);
    throw ModelError(fmt::format("native code: cannot move '{}' to '{}': {}", so_file, library.string(),
                                 std::strerror(error)));
  }
  try {
    write_atomically(record, library_record(source_hash, sha256(*bytes)));
  } catch (...) {
    ::dlclose(handle);
    throw;
  }
  return handle;
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
  const std::string flags = joined(c_flags);
  Sha256 everything_built_from;  // each part length-prefixed, so no two settings hash alike
  for (std::string_view part : {std::string_view(compiler), std::string_view(flags), std::string_view(source)}) {
    everything_built_from.update(fmt::format("{}\n", part.size()));
    everything_built_from.update(part);
  }
  const std::string source_hash = everything_built_from.hex_digest();

  const fs::path dir = cache_directory(options);
  create_private_directories(dir);
  refuse_unless_private(dir);
  const fs::path library = dir / fmt::format("acausal-{}.so", source_hash);
  const fs::path record = dir / fmt::format("acausal-{}.so.sha256", source_hash);

  bool built = false;
  void* handle = load_verified(library, record, source_hash);
  if (!handle) {
    handle = build(compiler, source, source_hash, library, record);
    built = true;
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
