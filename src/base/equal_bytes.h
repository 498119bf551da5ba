// Equality of two byte strings for the short keys and names the importers compare once
// per event or arg (arg keys, pid/tid texts, interned names): inline, with overlapping
// 8- or 4-byte loads that stay inside both strings, where std::string_view's == is a call
// into libc's memcmp and its size dispatch (4 % of importing a Kineto trace).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace stepscope::base {

namespace internal {
inline uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
}  // namespace internal

inline bool EqualBytes(std::string_view a, std::string_view b) {
  using internal::Load32;
  using internal::Load64;
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (Load64(x + i) != Load64(y + i)) return false;
    }
    return Load64(x + n - 8) == Load64(y + n - 8);
  }
  if (n >= 4) return Load32(x) == Load32(y) && Load32(x + n - 4) == Load32(y + n - 4);
  if (n == 0) return true;
  return x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1];  // n = 1..3: every byte
}

}  // namespace stepscope::base
