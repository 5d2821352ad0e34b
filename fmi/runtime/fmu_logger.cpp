// The FMU's messages to its master, through the logger callback the master gave.
#include <map>

#include "fmi/runtime/fmu_instance.hpp"

namespace acausal::fmi {

namespace {
constexpr const char* kCategories[] = {"logAll", "logError", "logWarning", "logInfo"};
}  // namespace

FmuLogger::FmuLogger(std::string instance_name, fmi2CallbackLogger logger, fmi2ComponentEnvironment environment,
                     bool logging_on)
    : instance_name_(std::move(instance_name)), logger_(logger), environment_(environment) {
  for (const char* category : kCategories) enabled_[category] = logging_on;
}

void FmuLogger::error(std::string_view message, fmi2Status status) const noexcept { send(status, "logError", message); }

void FmuLogger::info(std::string_view message) const noexcept {
  // The map is searched by string_view: nothing here allocates, so nothing throws.
  const auto on = [&](std::string_view category) {
    const auto found = enabled_.find(category);
    return found != enabled_.end() && found->second;
  };
  if (on("logInfo") || on("logAll")) send(fmi2OK, "logInfo", message);
}

std::optional<std::string> FmuLogger::set_debug_logging(bool logging_on, const std::vector<std::string>& categories) {
  for (const std::string& category : categories)
    if (!enabled_.count(category)) return category;
  if (categories.empty())
    for (auto& entry : enabled_) entry.second = logging_on;
  for (const std::string& category : categories) enabled_[category] = logging_on;
  return std::nullopt;
}

void FmuLogger::send(fmi2Status status, const char* category, std::string_view message) const noexcept {
  if (!logger_) return;
  try {
    // The logger reads the message as a printf format, and "#r12#" as a
    // value reference: literal '%' and '#' are doubled.
    std::string escaped;
    escaped.reserve(message.size());
    for (const char c : message) {
      if (c == '%' || c == '#') escaped += c;
      escaped += c;
    }
    logger_(environment_, instance_name_.c_str(), status, category, escaped.c_str());
  } catch (...) {
    // Out of memory while formatting: the message is lost, the call's status still tells the master.
  }
}

}  // namespace acausal::fmi
