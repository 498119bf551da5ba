#include "src/base/mapped_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace stepscope::base {
namespace {

TEST(MappedBufferTest, HugePageBlocksAreAlignedZeroedAndWritable) {
  for (size_t bytes : {kHugePageBytes, kHugePageBytes + 1, size_t{5} << 20}) {
    char* memory = static_cast<char*>(MapHugePages(bytes));
    ASSERT_NE(memory, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(memory) % kHugePageBytes, 0u);
    EXPECT_EQ(memory[0], 0);
    EXPECT_EQ(memory[bytes - 1], 0);
    std::memset(memory, 0x5a, bytes);
    UnmapHugePages(memory, bytes);
  }
}

// Both policies: bytes kept across growth from malloc to mapped and on; huge-page buffers
// stay 2 MiB-aligned.
TEST(MappedBufferTest, GrowthKeepsTheBytes) {
  for (const BufferPolicy policy : {BufferPolicy{.map_threshold_bytes = 256 << 10, .huge_pages = false},
                                    BufferPolicy{.map_threshold_bytes = kHugePageBytes, .huge_pages = true}}) {
    bool mapped = false;
    size_t capacity = 0;
    size_t used = 0;
    void* data = nullptr;
    for (size_t next = 4096; next <= (size_t{24} << 20); next *= 2) {
      data = GrowBuffer(data, capacity, used, next, policy, &mapped);
      ASSERT_NE(data, nullptr);
      auto* bytes = static_cast<unsigned char*>(data);
      for (size_t i = 0; i < used; i += 4093) ASSERT_EQ(bytes[i], static_cast<unsigned char>(i * 7)) << i;
      for (size_t i = used; i < next; ++i) bytes[i] = static_cast<unsigned char>(i * 7);
      capacity = used = next;
      EXPECT_EQ(mapped, next >= policy.map_threshold_bytes);
      if (mapped && policy.huge_pages) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kHugePageBytes, 0u);
      }
    }
    FreeBuffer(data, capacity, mapped, policy);
  }
}

}  // namespace
}  // namespace stepscope::base
