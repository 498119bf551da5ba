// The rules for multi_gpu's two options, in one place so that `stepscope analyze
// --parameters N --link_gbps X` and the HTTP API's `parameters=N&link_gbps=X` accept the same
// values and reject the others with the same one-line message.
#pragma once

#include <cstdint>
#include <string_view>

#include "stepscope/status.h"

namespace stepscope::analysis {

// 10^15 parameters: beyond any model, far from int64 overflow.
inline constexpr int64_t kMaxParameterCount = 1'000'000'000'000'000;
inline constexpr double kMaxLinkGbps = 1e6;

// The model's parameter count: a whole number from 1 to 10^15 (digits only).
// `name` is how the caller spells the option in the message ("--parameters", "parameters").
StatusOr<int64_t> ParseParameterCount(std::string_view name, std::string_view text);

// The link bandwidth in GB/s (1e9 B/s, one direction): a decimal number above 0 and at
// most 10^6 ("450", "37.5", "1e3"; no sign, spaces, nan or inf).
StatusOr<double> ParseLinkGbps(std::string_view name, std::string_view text);

}  // namespace stepscope::analysis
