// Runs in its own process (its own test binary): the heap policy is process-wide and
// one-shot.
#include "src/base/batch_heap.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "src/base/mapped_buffer.h"

namespace stepscope::base {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// Of the calling thread: the heap's background prefault (PrepareHeapForBatchRun) faults
// pages in on a thread of its own while the tests run.
long MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// "[madvise]" or "[always]" when transparent huge pages can back an madvise'd range.
bool HugePagesOnRequest() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(in, mode);
  return mode.find("[madvise]") != std::string::npos || mode.find("[always]") != std::string::npos;
}

// Resident memory of this process, from /proc/self/statm.
size_t ResidentBytes() {
  std::ifstream in("/proc/self/statm");
  size_t pages = 0, resident = 0;
  in >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// Whether this kernel backs pages on request (PopulatePages): probed on a scratch mapping.
bool KernelPopulatesOnRequest() {
  void* probe = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED) return false;
  const bool supported = PopulatePages(probe, 4096);
  munmap(probe, 4096);
  return supported;
}

// Threads of this process, from /proc/self/status.
int ThreadCount() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  }
  return 0;
}

// Waits (up to 5 s) for the heap's background prefault thread to end: while it runs it
// backs pages, some of which malloc_trim may just have handed back.
void WaitForBackgroundPrefault() {
  for (int wait = 0; wait < 500 && ThreadCount() > 1; ++wait) usleep(10000);
}

TEST(BatchHeapTest, ReservedHeapIsFaultedInByHugePagesAndReusedAfterFree) {
  ASSERT_TRUE(BatchHeapSupported()) << "the tests build with glibc and no sanitizer";
  const size_t resident_before = ResidentBytes();
  const BatchHeapReport report = PrepareHeapForBatchRun(96 * kMiB);
  ASSERT_TRUE(report.applied);
  // The start of the reservation is backed in the background, without being written to.
  if (KernelPopulatesOnRequest()) {
    for (int wait = 0; wait < 200 && ResidentBytes() < resident_before + 14 * kMiB; ++wait) usleep(10000);
    EXPECT_GE(ResidentBytes(), resident_before + 14 * kMiB) << "the first 16 MiB were not backed ahead";
  }
  // The reservation is made of blocks just under 32 MiB, the last one may go past it.
  EXPECT_GE(report.huge_page_bytes, 60 * kMiB);
  EXPECT_LE(report.huge_page_bytes, (96 + 32) * kMiB);

  // 24 MiB in 4 KiB pages would be 6144 faults.
  const size_t bytes = 24 * kMiB;
  long before = MinorFaults();
  auto* first = static_cast<char*>(std::malloc(bytes));
  ASSERT_NE(first, nullptr);
  std::memset(first, 1, bytes);
  const long first_faults = MinorFaults() - before;
  if (HugePagesOnRequest()) {
    EXPECT_LT(first_faults, 6144 / 8) << "the reserved heap was not backed by huge pages";
  }
  std::free(first);

  // Freed memory stays in the heap (no trim, no mmap below 32 MiB): the next phase of a run
  // reuses it without faulting it in again.
  before = MinorFaults();
  auto* second = static_cast<char*>(std::malloc(bytes));
  ASSERT_NE(second, nullptr);
  std::memset(second, 2, bytes);
  // Faulting it in again takes 6144 faults (4 KiB pages); the process's other threads (the
  // background backing, a busy machine's reclaim) add a few dozen: 64 was hit exactly in
  // a loaded ctest run, so the bound is a sixteenth of a re-fault.
  EXPECT_LT(MinorFaults() - before, 6144 / 16);
  std::free(second);
}

// Freed heap blocks stay resident under the batch policy (that is its point); a phase about
// to map a large block hands them back first, so they are not counted twice at a peak.
TEST(BatchHeapTest, FreedHeapMemoryIsHandedBackOnRequest) {
  PrepareHeapForBatchRun(96 * kMiB);  // applied by the first test or here
  // Else it may re-back freed pages between the two readings below: under load (ctest
  // -j2) the prefault is still running here, and the test saw less than 40 MiB go.
  WaitForBackgroundPrefault();
  ASSERT_EQ(ThreadCount(), 1);
  std::vector<char*> blocks;
  for (int i = 0; i < 48; ++i) {
    auto* block = static_cast<char*>(std::malloc(kMiB));
    ASSERT_NE(block, nullptr);
    std::memset(block, 3, kMiB);
    blocks.push_back(block);
  }
  // A live block after them keeps the freed ones below the heap's top.
  auto* keep = static_cast<char*>(std::malloc(kMiB));
  std::memset(keep, 4, kMiB);
  for (char* block : blocks) std::free(block);
  const size_t before = ResidentBytes();
  ReleaseFreedHeapMemory();
  const size_t after = ResidentBytes();
  EXPECT_GE(before, after + 40 * kMiB) << "resident " << before << " -> " << after;
  EXPECT_EQ(keep[kMiB - 1], 4);  // what is alive is untouched
  std::free(keep);
}

TEST(BatchHeapTest, IsAppliedOnce) {
  PrepareHeapForBatchRun(32 * kMiB);
  const BatchHeapReport again = PrepareHeapForBatchRun(32 * kMiB);
  EXPECT_FALSE(again.applied);
  EXPECT_EQ(again.huge_page_bytes, 0u);
}

}  // namespace
}  // namespace stepscope::base
