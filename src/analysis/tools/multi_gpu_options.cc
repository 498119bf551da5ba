#include "src/analysis/tools/multi_gpu_options.h"

#include <string>

#include "src/base/parse_number.h"

namespace stepscope::analysis {

using base::ParseWhole;

StatusOr<int64_t> ParseParameterCount(std::string_view name, std::string_view text) {
  int64_t count = 0;
  if (!ParseWhole(text, &count) || count < 1 || count > kMaxParameterCount) {
    return InvalidArgumentError(std::string(name) + " takes a parameter count from 1 to 10^15, not '" +
                                std::string(text) + "'");
  }
  return count;
}

StatusOr<double> ParseLinkGbps(std::string_view name, std::string_view text) {
  double gbps = 0;
  if (!ParseWhole(text, &gbps) || !(gbps > 0) || gbps > kMaxLinkGbps) {
    return InvalidArgumentError(std::string(name) + " takes a bandwidth in GB/s above 0 and at most 10^6, not '" +
                                std::string(text) + "'");
  }
  return gbps;
}

}  // namespace stepscope::analysis
