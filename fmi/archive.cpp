#include "fmi/archive.hpp"

#include <fmt/format.h>

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <string_view>

#include "solver/runtime/atomic_file.hpp"

namespace acausal::fmi {

namespace {

constexpr std::uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr std::uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr std::uint32_t kEndRecordSignature = 0x06054b50;
constexpr std::uint32_t kZip64EndLocatorSignature = 0x07064b50;
constexpr std::size_t kLocalHeaderSize = 30;
constexpr std::size_t kCentralHeaderSize = 46;
constexpr std::size_t kEndRecordSize = 22;
constexpr std::size_t kZip64EndLocatorSize = 20;

constexpr std::uint16_t kMethodStored = 0;
constexpr std::uint16_t kMethodDeflated = 8;
constexpr std::uint16_t kFlagEncrypted = 0x0001;
constexpr std::uint16_t kFlagStrongEncryption = 0x0040;
constexpr std::uint16_t kFlagUtf8Names = 0x0800;

// Version 1.0 suffices to extract stored entries; "made by" Unix 2.0 lets the external attributes carry a mode.
constexpr std::uint16_t kVersionNeededStored = 10;
constexpr std::uint16_t kVersionMadeByUnix = (3 << 8) | 20;
constexpr std::uint32_t kRegularFileMode = 0100644;

// MS-DOS date of 1980-01-01 (the earliest a ZIP can hold) at 00:00:00.
constexpr std::uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;
constexpr std::uint16_t kDosTime = 0;

constexpr std::uint16_t kMax16 = std::numeric_limits<std::uint16_t>::max();
constexpr std::uint32_t kMax32 = std::numeric_limits<std::uint32_t>::max();

void put16(std::string& out, std::uint16_t value) {
  out.push_back(static_cast<char>(value & 0xff));
  out.push_back(static_cast<char>(value >> 8));
}

void put32(std::string& out, std::uint32_t value) {
  put16(out, static_cast<std::uint16_t>(value & 0xffff));
  put16(out, static_cast<std::uint16_t>(value >> 16));
}

std::uint16_t get16(std::string_view bytes, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1])
                                                                                << 8);
}

std::uint32_t get32(std::string_view bytes, std::size_t at) {
  return static_cast<std::uint32_t>(get16(bytes, at)) | static_cast<std::uint32_t>(get16(bytes, at + 2)) << 16;
}

std::uint32_t crc_of(std::string_view data) {
  return static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

[[noreturn]] void fail(const std::string& archive, std::string_view entry, std::string_view what) {
  if (entry.empty()) throw std::runtime_error(fmt::format("{}: {}", archive, what));
  throw std::runtime_error(fmt::format("{}: entry '{}': {}", archive, entry, what));
}

// Both separators count: some Windows tools write '\', and an extractor elsewhere may honour it.
bool escapes_extraction_directory(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\') return true;
  if (name.size() >= 2 && name[1] == ':') return true;  // a drive letter
  std::size_t begin = 0;
  while (begin <= name.size()) {
    std::size_t end = name.find_first_of("/\\", begin);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(begin, end - begin) == "..") return true;
    begin = end + 1;
  }
  return false;
}

std::string local_header(const ArchiveEntry& entry, std::uint32_t crc) {
  std::string header;
  put32(header, kLocalHeaderSignature);
  put16(header, kVersionNeededStored);
  put16(header, kFlagUtf8Names);
  put16(header, kMethodStored);
  put16(header, kDosTime);
  put16(header, kDosDate);
  put32(header, crc);
  put32(header, static_cast<std::uint32_t>(entry.data.size()));
  put32(header, static_cast<std::uint32_t>(entry.data.size()));
  put16(header, static_cast<std::uint16_t>(entry.name.size()));
  put16(header, 0);  // extra field length
  header += entry.name;
  return header;
}

std::string central_header(const ArchiveEntry& entry, std::uint32_t crc, std::uint32_t local_offset) {
  std::string header;
  put32(header, kCentralHeaderSignature);
  put16(header, kVersionMadeByUnix);
  put16(header, kVersionNeededStored);
  put16(header, kFlagUtf8Names);
  put16(header, kMethodStored);
  put16(header, kDosTime);
  put16(header, kDosDate);
  put32(header, crc);
  put32(header, static_cast<std::uint32_t>(entry.data.size()));
  put32(header, static_cast<std::uint32_t>(entry.data.size()));
  put16(header, static_cast<std::uint16_t>(entry.name.size()));
  put16(header, 0);  // extra field length
  put16(header, 0);  // comment length
  put16(header, 0);  // disk number
  put16(header, 0);  // internal attributes
  put32(header, kRegularFileMode << 16);
  put32(header, local_offset);
  header += entry.name;
  return header;
}

std::string end_record(std::size_t entry_count, std::size_t directory_size, std::size_t directory_offset) {
  std::string record;
  put32(record, kEndRecordSignature);
  put16(record, 0);  // this disk
  put16(record, 0);  // disk holding the central directory
  put16(record, static_cast<std::uint16_t>(entry_count));
  put16(record, static_cast<std::uint16_t>(entry_count));
  put32(record, static_cast<std::uint32_t>(directory_size));
  put32(record, static_cast<std::uint32_t>(directory_offset));
  put16(record, 0);  // comment length
  return record;
}

std::string archive_bytes(const std::string& path, const std::vector<ArchiveEntry>& entries) {
  if (entries.size() >= kMax16) fail(path, "", fmt::format("{} entries need ZIP64", entries.size()));
  std::set<std::string_view> names;
  std::string body;
  std::string directory;
  for (const ArchiveEntry& entry : entries) {
    if (escapes_extraction_directory(entry.name)) fail(path, entry.name, "not a relative path inside the archive");
    if (entry.name.size() >= kMax16) fail(path, entry.name, "name too long");
    if (!names.insert(entry.name).second) fail(path, entry.name, "written twice");
    if (entry.data.size() >= kMax32 || body.size() >= kMax32) fail(path, entry.name, "too large without ZIP64");
    std::uint32_t crc = crc_of(entry.data);
    directory += central_header(entry, crc, static_cast<std::uint32_t>(body.size()));
    body += local_header(entry, crc);
    body += entry.data;
  }
  if (body.size() >= kMax32) fail(path, "", "too large without ZIP64");
  std::size_t directory_offset = body.size();
  body += directory;
  body += end_record(entries.size(), directory.size(), directory_offset);
  return body;
}

}  // namespace

void write_zip(const std::string& path, const std::vector<ArchiveEntry>& entries) {
  const std::string bytes = archive_bytes(path, entries);
  write_file_atomically(path, "write_zip", [&](std::FILE* out) {
    return std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  });
}

namespace {

struct CentralEntry {
  std::string name;
  std::uint16_t flags = 0;
  std::uint16_t method = 0;
  std::uint32_t crc = 0;
  std::uint32_t compressed_size = 0;
  std::uint32_t uncompressed_size = 0;
  std::uint32_t local_offset = 0;
};

struct EndRecord {
  std::size_t position = 0;
  std::size_t entry_count = 0;
  std::size_t directory_size = 0;
  std::size_t directory_offset = 0;
};

std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "", "cannot open");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(path, "", "cannot read");
  return bytes;
}

// The end record sits last, but an archive comment (up to 64 KiB) may follow it, so search backwards.
EndRecord find_end_record(const std::string& path, std::string_view bytes) {
  if (bytes.size() < kEndRecordSize) fail(path, "", "too short to be a ZIP archive");
  std::size_t lowest = bytes.size() > kEndRecordSize + kMax16 ? bytes.size() - kEndRecordSize - kMax16 : 0;
  for (std::size_t at = bytes.size() - kEndRecordSize + 1; at-- > lowest;) {
    if (get32(bytes, at) != kEndRecordSignature) continue;
    if (at + kEndRecordSize + get16(bytes, at + 20) != bytes.size()) continue;  // a signature inside the comment
    if (at >= kZip64EndLocatorSize && get32(bytes, at - kZip64EndLocatorSize) == kZip64EndLocatorSignature)
      fail(path, "", "ZIP64 archives are not supported");
    if (get16(bytes, at + 4) != 0 || get16(bytes, at + 6) != 0 || get16(bytes, at + 8) != get16(bytes, at + 10))
      fail(path, "", "multi-disk archives are not supported");
    EndRecord record{at, get16(bytes, at + 10), get32(bytes, at + 12), get32(bytes, at + 16)};
    if (record.entry_count == kMax16 || record.directory_size == kMax32 || record.directory_offset == kMax32)
      fail(path, "", "ZIP64 archives are not supported");
    if (record.directory_offset > at || record.directory_size > at - record.directory_offset)
      fail(path, "", "the central directory reaches beyond the file");
    return record;
  }
  fail(path, "", "no end of central directory record: not a ZIP archive");
}

std::vector<CentralEntry> central_directory(const std::string& path, std::string_view bytes, const EndRecord& end) {
  std::vector<CentralEntry> entries;
  std::size_t at = end.directory_offset;
  std::size_t directory_end = end.directory_offset + end.directory_size;
  for (std::size_t k = 0; k < end.entry_count; ++k) {
    if (at + kCentralHeaderSize > directory_end || get32(bytes, at) != kCentralHeaderSignature)
      fail(path, "", fmt::format("central directory entry {} is damaged", k + 1));
    std::size_t name_length = get16(bytes, at + 28);
    std::size_t header_length = kCentralHeaderSize + name_length + get16(bytes, at + 30) + get16(bytes, at + 32);
    if (at + header_length > directory_end)
      fail(path, "", fmt::format("central directory entry {} reaches beyond the directory", k + 1));
    CentralEntry entry;
    entry.name.assign(bytes.substr(at + kCentralHeaderSize, name_length));
    entry.flags = get16(bytes, at + 8);
    entry.method = get16(bytes, at + 10);
    entry.crc = get32(bytes, at + 16);
    entry.compressed_size = get32(bytes, at + 20);
    entry.uncompressed_size = get32(bytes, at + 24);
    entry.local_offset = get32(bytes, at + 42);
    entries.push_back(std::move(entry));
    at += header_length;
  }
  return entries;
}

std::string inflated(const std::string& path, const CentralEntry& entry, std::string_view compressed) {
  std::string out(entry.uncompressed_size, '\0');
  z_stream stream{};
  // Negative window bits: ZIP stores raw deflate data, without the zlib header and trailer.
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) fail(path, entry.name, "cannot start zlib");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int result = inflate(&stream, Z_FINISH);
  uLong produced = stream.total_out;
  inflateEnd(&stream);
  if (result != Z_STREAM_END || produced != entry.uncompressed_size)
    fail(path, entry.name,
         fmt::format("deflated data is damaged or does not inflate to the {} bytes recorded", entry.uncompressed_size));
  return out;
}

ArchiveEntry extracted(const std::string& path, std::string_view bytes, const CentralEntry& entry,
                       std::size_t directory_offset) {
  if (entry.flags & (kFlagEncrypted | kFlagStrongEncryption)) fail(path, entry.name, "encrypted entries are refused");
  if (entry.compressed_size == kMax32 || entry.uncompressed_size == kMax32 || entry.local_offset == kMax32)
    fail(path, entry.name, "ZIP64 entries are not supported");
  if (entry.local_offset + kLocalHeaderSize > directory_offset ||
      get32(bytes, entry.local_offset) != kLocalHeaderSignature)
    fail(path, entry.name, "local header missing or beyond the file");
  // The local header's name and extra field may differ in length from the central directory's copy.
  std::size_t data_offset = entry.local_offset + kLocalHeaderSize + get16(bytes, entry.local_offset + 26) +
                            get16(bytes, entry.local_offset + 28);
  if (data_offset > directory_offset || entry.compressed_size > directory_offset - data_offset)
    fail(path, entry.name, "data reaches beyond the file");
  std::string_view stored = bytes.substr(data_offset, entry.compressed_size);
  ArchiveEntry result{entry.name, {}};
  if (entry.method == kMethodStored) {
    if (entry.compressed_size != entry.uncompressed_size) fail(path, entry.name, "stored entry whose sizes differ");
    result.data.assign(stored);
  } else if (entry.method == kMethodDeflated) {
    result.data = inflated(path, entry, stored);
  } else {
    fail(path, entry.name, fmt::format("compression method {} is not supported", entry.method));
  }
  if (crc_of(result.data) != entry.crc) fail(path, entry.name, "CRC-32 mismatch");
  return result;
}

}  // namespace

std::vector<ArchiveEntry> read_zip(const std::string& path) {
  std::string bytes = file_contents(path);
  EndRecord end = find_end_record(path, bytes);
  std::vector<ArchiveEntry> entries;
  std::set<std::string> names;
  for (const CentralEntry& entry : central_directory(path, bytes, end)) {
    if (escapes_extraction_directory(entry.name)) fail(path, entry.name, "absolute path or '..' component: refused");
    if (!names.insert(entry.name).second) fail(path, entry.name, "appears twice");
    if (entry.name.back() == '/' || entry.name.back() == '\\') {
      if (entry.uncompressed_size != 0) fail(path, entry.name, "a directory entry holding data");
      continue;  // directories are implied by the files' names
    }
    entries.push_back(extracted(path, bytes, entry, end.directory_offset));
  }
  return entries;
}

}  // namespace acausal::fmi
