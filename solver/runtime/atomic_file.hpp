// Writing a file whole or not at all: what every output of the library
// (results as CSV and MAT, exported FMUs) is written through.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace acausal {

/// `fill` writes the content into a temporary file next to `path` (in the same
/// folder, so the final rename is atomic), which then replaces `path`: a reader
/// never sees half a file, and writers of one path (threads or processes) never
/// share a temporary. Only a regular file is replaced, keeping its permissions
/// (a symbolic link, directory, FIFO, socket or device at `path` is a
/// ModelError); a new file gets 0666 less the umask. `fill` returns false when
/// a write failed. Errors start with `caller` ("write_csv") and name the path.
void write_file_atomically(const std::string& path, std::string_view caller,
                           const std::function<bool(std::FILE*)>& fill);

}  // namespace acausal
