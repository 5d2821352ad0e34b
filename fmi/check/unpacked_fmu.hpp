// An FMU unpacked into a private temporary directory, its description parsed and its shared library loaded:
// what the runner instantiates. Loading problems are findings, so a broken binary still gets its description
// checked.
#pragma once

#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fmi/check/model_description.hpp"
#include "fmi/check/rules.hpp"

namespace acausal::fmi::check {

// A directory only its owner can enter, removed with everything in it when this goes.
class TemporaryDirectory {
 public:
  TemporaryDirectory();  // under $TMPDIR, else /tmp; throws std::runtime_error if it cannot be made
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// dlopen'ed with RTLD_LOCAL | RTLD_NOW, so two FMUs exporting the same names do not see each other's, and a
// missing dependency shows when loading rather than in the middle of a run.
class SharedLibrary {
 public:
  explicit SharedLibrary(const std::string& path);  // throws std::runtime_error with dlerror()'s text
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  void* symbol(const char* name) const;  // nullptr when not exported

 private:
  void* handle_;
};

class UnpackedFmu {
 public:
  // Reads the archive (read_zip), parses modelDescription.xml, writes the files into a TemporaryDirectory and
  // loads binaries/linux64/<modelIdentifier>.so, Co-Simulation's identifier if both interfaces are declared.
  // Throws std::runtime_error if the archive, its description or the directory cannot be read or written.
  explicit UnpackedFmu(const std::string& path);

  const ModelDescription& description() const { return description_; }

  // Rules "binary-present", "binary-loads", "exported-functions" (each function the standard requires of the
  // declared interfaces that the binary lacks), "version-string" and "types-platform".
  const std::vector<Finding>& load_findings() const { return findings_; }

  const std::string& binary_name() const { return binary_name_; }  // binaries/linux64/<modelIdentifier>.so
  bool binary_loaded() const { return library_ != nullptr; }

  // The exported function `name` as a pointer to `Function` (one of fmi2_api.h's function types), or nullptr.
  template <class Function>
  Function* function(std::string_view name) const {
    auto found = symbols_.find(name);
    if (found == symbols_.end()) return nullptr;
    // POSIX promises that dlsym's data pointer converts to a function pointer; copying the bits says so
    // without the cast ISO C++ supports only conditionally.
    Function* pointer = nullptr;
    static_assert(sizeof pointer == sizeof found->second);
    std::memcpy(&pointer, &found->second, sizeof pointer);
    return pointer;
  }

  std::string resource_uri() const;  // file:// URI of the unpacked resources directory, as fmi2Instantiate wants

 private:
  void load_binary();
  void look_up(std::span<const std::string_view> names);
  void check_identity();

  TemporaryDirectory directory_;  // declared first so it is removed after the library is unloaded
  ModelDescription description_;
  std::string binary_name_;
  std::unique_ptr<SharedLibrary> library_;
  std::map<std::string, void*, std::less<>> symbols_;
  std::vector<Finding> findings_;
};

}  // namespace acausal::fmi::check
