#include "src/xspace/columnar/wire_format.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace stepscope::xspace::wire {
namespace {

std::string Encode(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

// Every varint length, with and without bytes after it (the 64-bit-load path needs 8
// readable bytes; the byte loop handles the end of the buffer).
TEST(WireFormatTest, VarintsOfEveryLengthRoundTrip) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    int bits = static_cast<int>(rng() % 65);
    uint64_t v = bits == 64 ? rng() : (rng() & ((uint64_t{1} << bits) - 1));
    std::string bytes = Encode(v);
    size_t tail = rng() % 12;
    bytes.append(tail, '\x81');
    WireCursor c{reinterpret_cast<const uint8_t*>(bytes.data()),
                 reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size()};
    uint64_t got = 0;
    ASSERT_TRUE(c.ReadVarint(&got)) << v;
    ASSERT_EQ(got, v);
    ASSERT_EQ(c.remaining(), tail);
  }
}

TEST(WireFormatTest, MalformedVarintsFail) {
  std::string eleven(11, '\xff');
  WireCursor c{reinterpret_cast<const uint8_t*>(eleven.data()),
               reinterpret_cast<const uint8_t*>(eleven.data()) + eleven.size()};
  uint64_t v;
  EXPECT_FALSE(c.ReadVarint(&v));
  std::string truncated = "\x80\x80";
  WireCursor t{reinterpret_cast<const uint8_t*>(truncated.data()),
               reinterpret_cast<const uint8_t*>(truncated.data()) + truncated.size()};
  EXPECT_FALSE(t.ReadVarint(&v));
  std::string length = "\x05" "abc";  // claims 5 bytes, has 3
  WireCursor l{reinterpret_cast<const uint8_t*>(length.data()),
               reinterpret_cast<const uint8_t*>(length.data()) + length.size()};
  const uint8_t* b;
  size_t n;
  EXPECT_FALSE(l.ReadLengthDelimited(&b, &n));
}

}  // namespace
}  // namespace stepscope::xspace::wire
