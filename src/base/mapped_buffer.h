// Growable buffers behind the large arrays of plain records (xspace::PodArray, the
// importers' RecordVector). Small buffers come from malloc; from a threshold up a buffer
// is mapped on its own and grows with mremap: the kernel moves page tables instead of
// bytes, and capacity never reached is never touched, so resident memory stays at the size
// of the data (a doubling vector holds old and new buffer at once, and the kernel zeroes
// every new one again).
#pragma once

#include <cstddef>
#include <cstdint>

namespace stepscope::base {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

struct BufferPolicy {
  // Buffers at or above this size are mapped.
  size_t map_threshold_bytes = 0;
  // Mapped buffers at or above this size are mapped 2 MiB-aligned with transparent huge
  // pages requested (MADV_HUGEPAGE: one fault per 2 MiB where the kernel allows it), and
  // kept aligned as they grow; a buffer that grows past it moves its pages into such a
  // mapping. Fewer faults (each 4 KiB fault zeroes one page, and on a VM costs the host a
  // fault too: 455 against 54 us per MB here), but a partly used last 2 MiB page is
  // resident whole: for large arrays, not many small ones. SIZE_MAX: never.
  size_t huge_pages_from_bytes = SIZE_MAX;

  bool HugePages(size_t bytes) const { return bytes >= huge_pages_from_bytes; }
};

// A buffer of `new_bytes` holding the first `used_bytes` of `data` (`old_bytes` long,
// mapped when `*mapped`), which it replaces; `*mapped` tells how the new one was obtained.
// Null when memory is exhausted (then `data` is untouched). Never shrinks a mapped buffer.
void* GrowBuffer(void* data, size_t old_bytes, size_t used_bytes, size_t new_bytes, const BufferPolicy& policy,
                 bool* mapped);
void FreeBuffer(void* data, size_t bytes, bool mapped, const BufferPolicy& policy);
// Hands back the pages of a mapped buffer (`bytes` long) past its first `used_bytes`
// (MADV_DONTNEED: they read as zeros if touched again). Where the buffer has huge pages,
// the first touch of its last 2 MiB made all of it resident; this splits that page and
// keeps what is used. Nothing for a malloc'ed buffer.
void ReleaseUnusedPages(void* data, size_t used_bytes, size_t bytes, bool mapped, const BufferPolicy& policy);

// Backs the pages of [begin, begin + bytes) now, as writes would, without changing their
// contents (MADV_POPULATE_WRITE; the pages around the range's ends included). One call
// instead of a fault per page, and it can run on a thread that is otherwise idle. Does
// nothing on kernels before 5.14, or where the range is not mapped; false then.
bool PopulatePages(void* begin, size_t bytes);

// At least `bytes` of zeroed memory aligned to 2 MiB with huge pages requested, or null.
// Freed with UnmapHugePages.
void* MapHugePages(size_t bytes);
void UnmapHugePages(void* memory, size_t bytes);

}  // namespace stepscope::base
