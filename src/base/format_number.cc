#include "src/base/format_number.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stepscope::base {

std::string FormatFixed(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", std::clamp(decimals, 0, 12), value);
  std::string s = buf;
  // No "-0.00" for tiny negatives.
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

}  // namespace stepscope::base
