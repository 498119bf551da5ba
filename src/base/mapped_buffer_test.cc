#include "src/base/mapped_buffer.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

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

// Pages of the mapped range in memory (mincore), for PopulatePages.
size_t ResidentPages(const void* begin, size_t bytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((bytes + page - 1) / page);
  if (mincore(const_cast<void*>(begin), bytes, in_core.data()) != 0) return 0;
  size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1;
  return resident;
}

// PopulatePages backs a range (where the kernel has MADV_POPULATE_WRITE, 5.14) without
// changing what is written there, and a range not page-aligned includes its end pages.
TEST(MappedBufferTest, PopulatedPagesAreBackedAndKeepTheirBytes) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t bytes = 64 * page;
  auto* memory = static_cast<unsigned char*>(
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  ASSERT_NE(memory, MAP_FAILED);
  memory[page + 5] = 0x5a;  // page 1 is backed and holds a byte
  ASSERT_EQ(ResidentPages(memory, bytes), 1u);
  const bool supported = PopulatePages(memory + page + 7, 10 * page);  // pages 1 to 11
  if (supported) {
    EXPECT_EQ(ResidentPages(memory + page, 11 * page), 11u);
    EXPECT_EQ(ResidentPages(memory + 12 * page, bytes - 12 * page), 0u);
  }
  EXPECT_EQ(memory[page + 5], 0x5a);
  EXPECT_EQ(memory[2 * page], 0);
  EXPECT_TRUE(PopulatePages(memory, 0));  // nothing to do
  munmap(memory, bytes);
}

}  // namespace
}  // namespace stepscope::base
