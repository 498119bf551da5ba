// Memory policy of a short batch command (`stepscope analyze`, `import`, `convert`, `info`):
// a run that allocates tens to hundreds of megabytes in many phases and then exits.
//
// With malloc's defaults such a run spends as much time in the kernel as in its own code
// (15 MB Kineto trace: 11.7 k page faults, 29 ms of 74 ms CPU): every 4 KiB page is faulted
// in separately, blocks above 128 KiB are mmap'ed fresh and unmapped when freed (so the
// next phase faults the same amount in again), and each worker thread gets its own heap.
// PrepareHeapForBatchRun changes that for the calling process:
//   - one heap for all threads, no trimming, nothing under 32 MiB mmap'ed on its own:
//     memory freed by one phase (the inflated text, the importer's records, the XSpace
//     arena) is reused by the next instead of being returned and faulted in again;
//   - the first `expected_bytes` of heap growth are reserved up front and marked for
//     transparent huge pages (MADV_HUGEPAGE; one fault per 2 MiB where the kernel allows
//     it), what glibc's `glibc.malloc.hugetlb=1` tunable does, which can only be set from
//     the environment before the process starts.
// Only address space is reserved, and a helper thread backs its first 16 MiB meanwhile
// (the run's first milliseconds leave a core idle; each 2 MiB page costs ~0.1 ms of
// zeroing to whichever thread faults it); the rest is backed when first touched. The
// server (`stepscope serve`) keeps malloc's defaults: it runs for days and must give
// memory back.
#pragma once

#include <cstddef>

namespace stepscope::base {

struct BatchHeapReport {
  bool applied = false;           // the mallopt settings took (glibc)
  size_t huge_page_bytes = 0;     // heap bytes marked for huge pages
};

// True where PrepareHeapForBatchRun can act: glibc's malloc, not replaced by a sanitizer's.
bool BatchHeapSupported();

// Call once, early in the command, before it starts threads. Safe to call again (no-op).
// `expected_bytes`: about the peak the run will allocate; clamped to [32 MiB, 2 GiB].
BatchHeapReport PrepareHeapForBatchRun(size_t expected_bytes);

// Blocks this large are mapped on their own by malloc, never carved from its heap (glibc's
// largest mmap threshold, which the batch policy also sets).
constexpr size_t kLargeBlockBytes = size_t{32} << 20;

// Hands the pages of freed heap blocks back to the kernel (glibc's malloc_trim; nothing
// elsewhere). Freed memory otherwise stays resident for reuse, and a large block (which
// malloc maps on its own) is then counted on top of it: call this before allocating one
// at a memory peak. It costs a walk of the heap and re-faulting the pages if reused.
void ReleaseFreedHeapMemory();

}  // namespace stepscope::base
