#include "src/base/utf8.h"

#include <cstdint>
#include <cstring>

namespace stepscope::base {
namespace {

// Length of the well-formed sequence starting at p[0] (RFC 3629, table 3-7 of the
// Unicode standard), or 0 when it is not one. `left` >= 1 bytes are readable.
size_t SequenceLength(const unsigned char* p, size_t left) {
  const unsigned char lead = p[0];
  auto continuation = [&](size_t i, unsigned char low = 0x80, unsigned char high = 0xBF) {
    return i < left && p[i] >= low && p[i] <= high;
  };
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;  // continuation byte, or an overlong 2-byte lead
  if (lead < 0xE0) return continuation(1) ? 2 : 0;
  if (lead < 0xF0) {
    unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;   // overlong
    unsigned char high = lead == 0xED ? 0x9F : 0xBF;  // surrogates
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (lead < 0xF5) {
    unsigned char low = lead == 0xF0 ? 0x90 : 0x80;   // overlong
    unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;  // past U+10FFFF
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  size_t left = text.size();
  while (left > 0) {
    // ASCII, eight bytes at a time: names in profiles are nearly all ASCII.
    if (left >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        p += 8;
        left -= 8;
        continue;
      }
    }
    size_t length = SequenceLength(p, left);
    if (length == 0) return false;
    p += length;
    left -= length;
  }
  return true;
}

}  // namespace stepscope::base
