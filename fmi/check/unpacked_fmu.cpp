#include "fmi/check/unpacked_fmu.hpp"

#include <fmt/format.h>

#include <dlfcn.h>
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "fmi/archive.hpp"
#include "fmi/fmi2_api.h"

namespace acausal::fmi::check {

namespace {

// The standard requires a binary to export every function of each interface it declares, even those its
// capability flags say it does not support (they then return fmi2Error): 25 common ones, plus 10 for Model
// Exchange and 9 for Co-Simulation.
constexpr std::string_view kCommonFunctions[] = {"fmi2GetTypesPlatform",
                                                 "fmi2GetVersion",
                                                 "fmi2SetDebugLogging",
                                                 "fmi2Instantiate",
                                                 "fmi2FreeInstance",
                                                 "fmi2SetupExperiment",
                                                 "fmi2EnterInitializationMode",
                                                 "fmi2ExitInitializationMode",
                                                 "fmi2Terminate",
                                                 "fmi2Reset",
                                                 "fmi2GetReal",
                                                 "fmi2GetInteger",
                                                 "fmi2GetBoolean",
                                                 "fmi2GetString",
                                                 "fmi2SetReal",
                                                 "fmi2SetInteger",
                                                 "fmi2SetBoolean",
                                                 "fmi2SetString",
                                                 "fmi2GetFMUstate",
                                                 "fmi2SetFMUstate",
                                                 "fmi2FreeFMUstate",
                                                 "fmi2SerializedFMUstateSize",
                                                 "fmi2SerializeFMUstate",
                                                 "fmi2DeSerializeFMUstate",
                                                 "fmi2GetDirectionalDerivative"};
constexpr std::string_view kModelExchangeFunctions[] = {"fmi2EnterEventMode",
                                                        "fmi2NewDiscreteStates",
                                                        "fmi2EnterContinuousTimeMode",
                                                        "fmi2CompletedIntegratorStep",
                                                        "fmi2SetTime",
                                                        "fmi2SetContinuousStates",
                                                        "fmi2GetDerivatives",
                                                        "fmi2GetEventIndicators",
                                                        "fmi2GetContinuousStates",
                                                        "fmi2GetNominalsOfContinuousStates"};
constexpr std::string_view kCoSimulationFunctions[] = {"fmi2SetRealInputDerivatives",
                                                       "fmi2GetRealOutputDerivatives",
                                                       "fmi2DoStep",
                                                       "fmi2CancelStep",
                                                       "fmi2GetStatus",
                                                       "fmi2GetRealStatus",
                                                       "fmi2GetIntegerStatus",
                                                       "fmi2GetBooleanStatus",
                                                       "fmi2GetStringStatus"};

// resourceLocation is a URI: characters outside the unreserved set (a space in $TMPDIR) must be escaped.
std::string file_uri(const std::filesystem::path& path) {
  std::string uri = "file://";
  for (unsigned char c : path.string()) {
    if (std::isalnum(c) || std::string_view("/-._~").find(static_cast<char>(c)) != std::string_view::npos)
      uri += static_cast<char>(c);
    else
      uri += fmt::format("%{:02X}", c);
  }
  return uri;
}

void unpack(const std::vector<ArchiveEntry>& entries, const std::filesystem::path& directory) {
  for (const ArchiveEntry& entry : entries) {
    std::filesystem::path target = directory / entry.name;  // read_zip refused names that would leave it
    std::filesystem::create_directories(target.parent_path());
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(entry.data.data(), static_cast<std::streamsize>(entry.data.size()));
    out.close();
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", target.string()));
  }
}

std::string_view or_null(const char* text) { return text ? text : "(NULL)"; }

}  // namespace

TemporaryDirectory::TemporaryDirectory() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/acausal-fmu-XXXXXX";
  // mkdtemp makes the directory owner-only, so no other user can swap a file before it is loaded.
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error(fmt::format("cannot create a directory like {}: {}", pattern, std::strerror(errno)));
  path_ = std::filesystem::absolute(pattern);
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

SharedLibrary::SharedLibrary(const std::string& path) : handle_(::dlopen(path.c_str(), RTLD_LOCAL | RTLD_NOW)) {
  if (!handle_) throw std::runtime_error(std::string(or_null(::dlerror())));
}

SharedLibrary::~SharedLibrary() { ::dlclose(handle_); }

void* SharedLibrary::symbol(const char* name) const { return ::dlsym(handle_, name); }

UnpackedFmu::UnpackedFmu(const std::string& path) {
  std::vector<ArchiveEntry> entries = read_zip(path);
  auto description = std::find_if(entries.begin(), entries.end(),
                                  [](const ArchiveEntry& entry) { return entry.name == "modelDescription.xml"; });
  if (description == entries.end()) throw std::runtime_error(fmt::format("{}: no modelDescription.xml", path));
  description_ = parse_model_description(description->data, path + ":modelDescription.xml");
  unpack(entries, directory_.path());
  load_binary();
}

std::string UnpackedFmu::resource_uri() const { return file_uri(directory_.path() / "resources"); }

void UnpackedFmu::load_binary() {
  const InterfaceCapabilities* interface = nullptr;
  if (description_.co_simulation)
    interface = &*description_.co_simulation;
  else if (description_.model_exchange)
    interface = &*description_.model_exchange;
  if (!interface) return;  // the rules report the missing interface
  const std::string& identifier = interface->model_identifier;
  binary_name_ = fmt::format("binaries/linux64/{}.so", identifier);
  if (identifier.empty() || identifier.front() == '.' || identifier.find('/') != std::string::npos) {
    findings_.push_back({"binary-present", fmt::format("modelIdentifier \"{}\" cannot name a binary", identifier)});
    return;
  }
  std::filesystem::path binary = directory_.path() / binary_name_;
  if (!std::filesystem::is_regular_file(binary)) {
    findings_.push_back({"binary-present", fmt::format("the FMU has no {}", binary_name_)});
    return;
  }
  try {
    library_ = std::make_unique<SharedLibrary>(binary.string());
  } catch (const std::runtime_error& error) {
    findings_.push_back({"binary-loads", fmt::format("{} does not load: {}", binary_name_, error.what())});
    return;
  }
  look_up(kCommonFunctions);
  if (description_.model_exchange) look_up(kModelExchangeFunctions);
  if (description_.co_simulation) look_up(kCoSimulationFunctions);
  check_identity();
}

void UnpackedFmu::look_up(std::span<const std::string_view> names) {
  for (std::string_view name : names) {
    if (void* symbol = library_->symbol(std::string(name).c_str()))
      symbols_.emplace(name, symbol);
    else
      findings_.push_back({"exported-functions", fmt::format("{} does not export {}", binary_name_, name)});
  }
}

// The two functions that say which header the binary was compiled against.
void UnpackedFmu::check_identity() {
  if (auto get_version = function<fmi2GetVersionTYPE>("fmi2GetVersion")) {
    const char* version = get_version();
    if (!version || std::string_view(version) != fmi2Version)
      findings_.push_back(
          {"version-string", fmt::format("fmi2GetVersion returns \"{}\", not \"{}\"", or_null(version), fmi2Version)});
  }
  if (auto get_types_platform = function<fmi2GetTypesPlatformTYPE>("fmi2GetTypesPlatform")) {
    const char* platform = get_types_platform();
    if (!platform || std::string_view(platform) != fmi2TypesPlatform)
      findings_.push_back({"types-platform", fmt::format("fmi2GetTypesPlatform returns \"{}\", not \"{}\"",
                                                         or_null(platform), fmi2TypesPlatform)});
  }
}

}  // namespace acausal::fmi::check
