// Saturating arithmetic for totals: sums over millions of events of a hostile file must
// not overflow (undefined behaviour); they stop at INT64_MAX / INT64_MIN instead.
#pragma once

#include <cstdint>

namespace stepscope::analysis {

inline int64_t SatAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

inline int64_t SatSub(int64_t a, int64_t b) {
  int64_t difference;
  if (!__builtin_sub_overflow(a, b, &difference)) return difference;
  return b < 0 ? INT64_MAX : INT64_MIN;
}

// acc += v, saturating.
inline void AddTo(int64_t& acc, int64_t v) { acc = SatAdd(acc, v); }

}  // namespace stepscope::analysis
