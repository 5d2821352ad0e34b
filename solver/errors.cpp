#include "solver/errors.hpp"

#include <fmt/format.h>

namespace acausal {

std::string format_number(double value, int significant) { return fmt::format("{:.{}g}", value, significant); }

}  // namespace acausal
