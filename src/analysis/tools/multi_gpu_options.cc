#include "src/analysis/tools/multi_gpu_options.h"

#include <charconv>
#include <string>

namespace stepscope::analysis {
namespace {

constexpr int64_t kMaxParameters = 1'000'000'000'000'000;  // 10^15: beyond any model, far from int64 overflow
constexpr double kMaxLinkGbps = 1e6;

// Parses all of `text` as a T, or nothing.
template <typename T>
bool ParseWhole(std::string_view text, T* value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

}  // namespace

StatusOr<int64_t> ParseParameterCount(std::string_view name, std::string_view text) {
  int64_t count = 0;
  if (!ParseWhole(text, &count) || count < 1 || count > kMaxParameters) {
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
