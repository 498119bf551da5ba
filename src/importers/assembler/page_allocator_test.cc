#include "src/importers/assembler/page_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace stepscope::importers {
namespace {

TEST(PageAllocatorTest, LargeBlocksAreAlignedZeroedAndWritable) {
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

// Records survive growth across the 2 MiB threshold (malloc to mapped and on).
TEST(PageAllocatorTest, VectorsGrowAcrossTheThreshold) {
  RecordVector<uint64_t> values;
  for (uint64_t i = 0; i < (uint64_t{3} << 20); ++i) values.push_back(i * 7);
  for (uint64_t i = 0; i < values.size(); i += 4099) ASSERT_EQ(values[i], i * 7);
  RecordVector<uint64_t> moved = std::move(values);
  EXPECT_EQ(moved.back(), ((uint64_t{3} << 20) - 1) * 7);
}

}  // namespace
}  // namespace stepscope::importers
