#include "src/xspace/columnar/wire_format.h"

namespace stepscope::xspace::wire {
namespace {
// Nesting bound for deprecated groups inside unknown fields: real files have none; hostile
// ones must not make us loop or recurse without bound.
constexpr int kMaxGroupDepth = 64;
}  // namespace

bool WireCursor::SkipField(uint32_t wire_type, uint32_t field_number) {
  // Field number 0 does not exist: protobuf refuses it, and all-zero bytes would
  // otherwise read as an endless run of empty fields.
  if (field_number == 0) return false;
  int depth = 0;
  for (;;) {
    uint64_t ignored;
    switch (wire_type) {
      case kVarint:
        if (!ReadVarint(&ignored)) return false;
        break;
      case kFixed64:
        if (remaining() < 8) return false;
        p += 8;
        break;
      case kFixed32:
        if (remaining() < 4) return false;
        p += 4;
        break;
      case kLengthDelimited: {
        const uint8_t* begin;
        size_t length;
        if (!ReadLengthDelimited(&begin, &length)) return false;
        break;
      }
      case kStartGroup:
        if (++depth > kMaxGroupDepth) return false;
        break;
      case kEndGroup:
        if (depth == 0) return false;  // an end without a start
        --depth;
        break;
      default:
        return false;  // wire types 6 and 7 do not exist
    }
    if (depth == 0) return true;
    // Inside a group: read the next key and skip that field too.
    uint64_t key;
    if (!ReadVarint(&key)) return false;
    wire_type = static_cast<uint32_t>(key & 7);
    field_number = static_cast<uint32_t>(key >> 3);
    if (field_number == 0) return false;
  }
}

}  // namespace stepscope::xspace::wire
