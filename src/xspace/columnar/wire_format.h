// Protocol-buffer wire format primitives for the streaming XSpace reader.
//
// Facts from the protobuf encoding spec: a field key is a varint (field_number << 3 |
// wire_type); wire types 0 varint, 1 fixed64, 2 length-delimited, 3/4 start/end group
// (deprecated), 5 fixed32. Varints are little-endian base-128, at most 10 bytes.
//
// WireCursor never reads outside [begin, end): every read checks the bounds and returns
// false on truncated or malformed input, leaving the error position for the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace stepscope::xspace::wire {

enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

struct WireCursor {
  const uint8_t* p;
  const uint8_t* end;

  bool done() const { return p >= end; }
  size_t remaining() const { return static_cast<size_t>(end - p); }

  // Reads one varint. One-byte varints (field keys, small ids) return at once; with 8
  // bytes readable, varints of up to 8 bytes (56 bits: every timestamp and duration) are
  // decoded from one 64-bit load with masks instead of a byte loop; the rest take the
  // checked byte loop.
  inline bool ReadVarint(uint64_t* value) {
    if (p < end && *p < 0x80) {
      *value = *p++;
      return true;
    }
    if (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);  // little-endian hosts only (x86-64, aarch64)
      uint64_t stops = ~word & 0x8080808080808080ull;
      if (stops != 0) {
        int bytes = (__builtin_ctzll(stops) >> 3) + 1;
        uint64_t x = bytes == 8 ? word : word & ((1ull << (bytes * 8)) - 1);
        // Squeeze out the continuation bits: 8x7 -> 4x14 -> 2x28 -> 1x56.
        x = (x & 0x007f007f007f007full) | ((x & 0x7f007f007f007f00ull) >> 1);
        x = (x & 0x00003fff00003fffull) | ((x & 0x3fff00003fff0000ull) >> 2);
        x = (x & 0x000000000fffffffull) | ((x & 0x0fffffff00000000ull) >> 4);
        *value = x;
        p += bytes;
        return true;
      }
    }
    return ReadVarintSlow(value);
  }

  bool ReadVarintSlow(uint64_t* value) {
    uint64_t result = 0;
    const uint8_t* q = p;
    for (int shift = 0; shift < 70 && q < end; shift += 7) {
      uint64_t byte = *q++;
      result |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        *value = result;
        p = q;
        return true;
      }
    }
    return false;
  }

  inline bool ReadFixed64(uint64_t* value) {
    if (remaining() < 8) return false;
    std::memcpy(value, p, 8);  // little-endian hosts only (x86-64, aarch64)
    p += 8;
    return true;
  }

  // Reads a length prefix and returns the sub-range [*begin, *begin + len).
  inline bool ReadLengthDelimited(const uint8_t** begin, size_t* length) {
    uint64_t len;
    if (!ReadVarint(&len) || len > remaining()) return false;
    *begin = p;
    *length = static_cast<size_t>(len);
    p += len;
    return true;
  }

  // Skips a field of `wire_type` whose key was just read. Groups are skipped up to their
  // matching end-group key, with a nesting limit so hostile input cannot recurse deeply.
  bool SkipField(uint32_t wire_type, uint32_t field_number);
};

static_assert(sizeof(uint64_t) == 8);

}  // namespace stepscope::xspace::wire
