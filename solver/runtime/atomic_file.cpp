#include "solver/runtime/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "solver/symbolic/errors.hpp"

namespace acausal {

namespace {

// Named after the process and a counter, so that writers of one path never
// share it. open(O_EXCL) rather than mkstemp: mkstemp makes the file 0600, and
// the output would keep that instead of the mode any new file gets.
int create_temporary(const std::string& path, std::string& temporary) {
  static std::atomic<unsigned long> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = fmt::format("{}.{}.{}.tmp", path, static_cast<long>(::getpid()), counter++);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;  // EEXIST: a leftover of a killed writer with our pid
  }
  return -1;
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view caller,
                           const std::function<bool(std::FILE*)>& fill) {
  // Renaming over a symbolic link replaces the link and never writes its
  // target; a FIFO or a device is not a file an output can be written whole into.
  struct stat existing{};
  const bool exists = ::lstat(path.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode)) {
    const char* what = S_ISLNK(existing.st_mode)    ? "a symbolic link"
                       : S_ISDIR(existing.st_mode)  ? "a directory"
                       : S_ISFIFO(existing.st_mode) ? "a FIFO"
                       : S_ISSOCK(existing.st_mode) ? "a socket"
                                                    : "a device";
    throw ModelError(fmt::format("{}: {} is {}, not a regular file; {} replaces only a regular file (or creates a new "
                                 "one): give the path of a file",
                                 caller, path, what, caller));
  }
  std::string temporary;
  const int fd = create_temporary(path, temporary);
  if (fd < 0)
    throw std::runtime_error(
        fmt::format("{}: cannot create a temporary file next to {}: {}", caller, path, std::strerror(errno)));
  if (exists) ::fchmod(fd, existing.st_mode & 0777);  // a file replaced keeps its permissions
  std::FILE* out = ::fdopen(fd, "wb");
  if (!out) {
    ::close(fd);
    std::remove(temporary.c_str());
    throw std::runtime_error(fmt::format("{}: cannot open {} for writing", caller, temporary));
  }
  bool written = false;
  try {
    written = fill(out);
  } catch (...) {
    std::fclose(out);
    std::remove(temporary.c_str());
    throw;
  }
  written = std::fclose(out) == 0 && written;
  if (!written) {
    std::remove(temporary.c_str());
    throw std::runtime_error(fmt::format("{}: writing {} failed", caller, temporary));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error(
        fmt::format("{}: cannot rename {} to {}: {}", caller, temporary, path, std::strerror(error)));
  }
}

}  // namespace acausal
