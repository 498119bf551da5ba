#include "src/base/mapped_buffer.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "src/base/testing/resident_pages.h"

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

// Every policy: bytes kept across growth from malloc to mapped and on (and, for the
// third, from 4 KiB pages to huge ones); huge-page buffers stay 2 MiB-aligned.
TEST(MappedBufferTest, GrowthKeepsTheBytes) {
  for (const BufferPolicy policy : {BufferPolicy{.map_threshold_bytes = 256 << 10},
                                    BufferPolicy{.map_threshold_bytes = kHugePageBytes,
                                                 .huge_pages_from_bytes = kHugePageBytes},
                                    BufferPolicy{.map_threshold_bytes = 256 << 10,
                                                 .huge_pages_from_bytes = size_t{3} << 20}}) {
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
      if (mapped && policy.HugePages(next)) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kHugePageBytes, 0u);
      }
    }
    FreeBuffer(data, capacity, mapped, policy);
  }
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

// A mapped buffer gives back the pages past what it uses and keeps what it uses; with huge
// pages, the rest of the 2 MiB page its last bytes share is given back too.
TEST(MappedBufferTest, UnusedPagesAreHandedBack) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (const BufferPolicy policy : {BufferPolicy{.map_threshold_bytes = 256 << 10},
                                    BufferPolicy{.map_threshold_bytes = kHugePageBytes,
                                                 .huge_pages_from_bytes = kHugePageBytes}}) {
    bool mapped = false;
    const size_t capacity = size_t{8} << 20;
    auto* data = static_cast<unsigned char*>(GrowBuffer(nullptr, 0, 0, capacity, policy, &mapped));
    ASSERT_NE(data, nullptr);
    ASSERT_TRUE(mapped);
    std::memset(data, 0x7b, capacity);  // all of it backed, as PopulateReserved would
    ASSERT_EQ(ResidentPages(data, capacity), capacity / page);
    const size_t used = (size_t{3} << 20) + 100;  // into the second huge page
    ReleaseUnusedPages(data, used, capacity, mapped, policy);
    const size_t kept = (used + page - 1) / page;
    EXPECT_EQ(ResidentPages(data, capacity), kept) << "huge pages " << policy.HugePages(capacity);
    for (size_t i = 0; i < used; i += 4093) ASSERT_EQ(data[i], 0x7b) << i;
    EXPECT_EQ(data[used - 1], 0x7b);
    EXPECT_EQ(data[kept * page], 0);  // reads as zero once handed back
    FreeBuffer(data, capacity, mapped, policy);
  }
  // Not mapped (malloc'ed): nothing to do, and nothing changes.
  bool mapped = false;
  void* small = GrowBuffer(nullptr, 0, 0, 4096, BufferPolicy{.map_threshold_bytes = 256 << 10}, &mapped);
  ASSERT_FALSE(mapped);
  std::memset(small, 1, 4096);
  ReleaseUnusedPages(small, 10, 4096, mapped, BufferPolicy{.map_threshold_bytes = 256 << 10});
  EXPECT_EQ(static_cast<unsigned char*>(small)[4095], 1);
  FreeBuffer(small, 4096, mapped, BufferPolicy{.map_threshold_bytes = 256 << 10});
}

}  // namespace
}  // namespace stepscope::base
