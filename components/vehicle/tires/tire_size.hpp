#pragma once

#include <regex>
#include <stdexcept>
#include <string>

namespace acausal::vehicle {

/// Rolling radius [m] from a tire designation "Width/AspectRatio R Rim"
/// ("205/55R16" -> 0.316 m): (rim·25.4 + 2·width·aspect/100) / 2000 (seed 001).
inline double radius_from_tire_size(const std::string& designation) {
  static const std::regex pattern(R"(\s*(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*[A-Z]*R\s*(\d+(?:\.\d+)?)\s*)",
                                  std::regex::icase);
  std::smatch m;
  if (!std::regex_match(designation, m, pattern))
    throw std::invalid_argument("radius_from_tire_size: '" + designation +
                                "' is not a tire size like 205/55R16 (width mm / aspect % R rim inches)");
  const double width_mm = std::stod(m[1]), aspect_percent = std::stod(m[2]), rim_inch = std::stod(m[3]);
  return (rim_inch * 25.4 + 2.0 * width_mm * aspect_percent / 100.0) / 2000.0;
}

}  // namespace acausal::vehicle
