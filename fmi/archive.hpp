// ZIP archives as FMI 2.0 packages them (an FMU is a ZIP file): writing stored entries, reading stored or
// deflated ones.
#pragma once

#include <string>
#include <vector>

namespace acausal::fmi {

struct ArchiveEntry {
  std::string name;  // path inside the archive, '/'-separated
  std::string data;
};

// Writes the entries stored (uncompressed) with a fixed 1980-01-01 time stamp, so the same entries always give
// the same bytes. The file appears whole or not at all: it is written beside `path` and renamed over it.
// Throws std::runtime_error naming the archive (and the entry, if one is at fault).
void write_zip(const std::string& path, const std::vector<ArchiveEntry>& entries);

// Reads every file entry (directory entries are skipped) through the central directory, checking each CRC.
// Refuses ZIP64, encryption, multi-disk archives, methods other than stored and deflated, sizes that reach
// beyond the file and names that could escape an extraction directory. Throws std::runtime_error naming the
// archive and the entry.
std::vector<ArchiveEntry> read_zip(const std::string& path);

}  // namespace acausal::fmi
