// Unit conversions and small arithmetic shared by the tools, so every tool rounds and
// divides the same way (a percent of nothing is 0, never NaN).
#pragma once

#include <cstdint>

namespace stepscope::analysis {

constexpr double kPsPerMs = 1e9;
constexpr double kPsPerUs = 1e6;

inline double PsToMs(int64_t ps) { return static_cast<double>(ps) / kPsPerMs; }
inline double PsToUs(int64_t ps) { return static_cast<double>(ps) / kPsPerUs; }
// 100 * part / whole, or 0 when whole is not positive.
inline double Percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

}  // namespace stepscope::analysis
