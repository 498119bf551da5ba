// Unit conversions and small arithmetic shared by the model's derivations and the tools, so
// every number is rounded and divided the same way (a percent of nothing is 0, never NaN).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stepscope::analysis {

constexpr double kPsPerMs = 1e9;
constexpr double kPsPerUs = 1e6;

inline double PsToMs(int64_t ps) { return static_cast<double>(ps) / kPsPerMs; }
inline double PsToUs(int64_t ps) { return static_cast<double>(ps) / kPsPerUs; }
// 100 * part / whole, or 0 when whole is not positive.
inline double Percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }
// The middle value (the mean of the two middle ones for an even count); 0 for none.
inline double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace stepscope::analysis
