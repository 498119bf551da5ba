#include "src/base/batch_heap.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "src/base/mapped_buffer.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Sanitizers bring their own allocator; the settings would mean nothing there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STEPSCOPE_SANITIZED_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define STEPSCOPE_SANITIZED_HEAP 1
#endif
#endif
#if defined(__GLIBC__) && !defined(STEPSCOPE_SANITIZED_HEAP)
#define STEPSCOPE_TUNE_GLIBC_HEAP 1
#endif

namespace stepscope::base {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
// glibc's largest mmap threshold on 64-bit (HEAP_MAX_SIZE / 2): blocks below it come from
// the heap, so the reservation is made of blocks just under it.
constexpr size_t kMmapThreshold = kLargeBlockBytes;
constexpr size_t kReserveBlock = kMmapThreshold - 64 * 1024;
constexpr size_t kMinReserve = 32 * kMiB;
constexpr size_t kMaxReserve = 2048 * kMiB;

#if defined(STEPSCOPE_TUNE_GLIBC_HEAP)
// Backs the first pages of the reserved heap on a thread of its own (PopulatePages:
// faulted in as by a write, contents untouched, so malloc's free chunks there stay as
// they are). A run's first milliseconds (argument parsing, opening the input, the first
// window) leave a core idle, and every 2 MiB page the run touches first later costs its
// thread ~0.1 ms of zeroing in the fault. Bounded: beyond the start of the run the
// threads that fault are busy anyway.
constexpr size_t kPrefaultBytes = 16 * kMiB;

void PrefaultInBackground(uintptr_t first, size_t bytes) {
  if (bytes == 0) return;
  std::thread([first, bytes] { PopulatePages(reinterpret_cast<void*>(first), bytes); }).detach();
}

// Grows the heap by about `bytes` with blocks that malloc places one after another, marks
// the whole-huge-page interior for THP, and frees the blocks: with trimming off they stay
// in the heap (as its free top) and later allocations are carved out of them. Then backs
// the start of that interior (PrefaultInBackground).
size_t ReserveHugePageHeap(size_t bytes) {
  std::vector<void*> blocks;
  uintptr_t low = UINTPTR_MAX;
  uintptr_t high = 0;
  for (size_t reserved = 0; reserved < bytes; reserved += kReserveBlock) {
    void* block = std::malloc(kReserveBlock);
    if (block == nullptr) break;
    blocks.push_back(block);
    const auto start = reinterpret_cast<uintptr_t>(block);
    low = std::min(low, start);
    high = std::max(high, start + kReserveBlock);
  }
  size_t advised = 0;
  const uintptr_t first = (low + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  if (!blocks.empty()) {
    const uintptr_t last = high & ~uintptr_t{kHugePageBytes - 1};
    // The blocks are contiguous unless something else moved the program break between
    // them; advising a gap would fail (ENOMEM) harmlessly, but say nothing was done.
    const bool contiguous = high - low < (blocks.size() + 1) * (kReserveBlock + kHugePageBytes);
    if (contiguous && last > first && ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) == 0) {
      advised = last - first;
    }
  }
  for (void* block : blocks) std::free(block);
  if (advised > 0) PrefaultInBackground(first, std::min(advised, kPrefaultBytes));
  return advised;
}
#endif

}  // namespace

bool BatchHeapSupported() {
#if defined(STEPSCOPE_TUNE_GLIBC_HEAP)
  return true;
#else
  return false;
#endif
}

BatchHeapReport PrepareHeapForBatchRun(size_t expected_bytes) {
  static std::atomic<bool> prepared{false};
  BatchHeapReport report;
  if (prepared.exchange(true)) return report;
#if defined(STEPSCOPE_TUNE_GLIBC_HEAP)
  report.applied = mallopt(M_ARENA_MAX, 1) == 1 && mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold)) == 1 &&
                   mallopt(M_TRIM_THRESHOLD, static_cast<int>(1024 * kMiB)) == 1;
  if (report.applied) {
    report.huge_page_bytes = ReserveHugePageHeap(std::clamp(expected_bytes, kMinReserve, kMaxReserve));
  }
#else
  (void)expected_bytes;
#endif
  return report;
}

void ReleaseFreedHeapMemory() {
#if defined(__GLIBC__) && !defined(STEPSCOPE_SANITIZED_HEAP)
  malloc_trim(0);
#endif
}

}  // namespace stepscope::base
