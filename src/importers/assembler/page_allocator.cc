#include "src/importers/assembler/page_allocator.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace stepscope::importers {
namespace {

size_t RoundUp(size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }

}  // namespace

void* MapHugePages(size_t bytes) {
  const size_t size = RoundUp(bytes);
  // Map one huge page more than needed and trim to a 2 MiB boundary: huge pages need the
  // alignment.
  void* mapped = ::mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) ::munmap(mapped, aligned - start);
  const uintptr_t end = start + size + kHugePageBytes;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  void* memory = reinterpret_cast<void*>(aligned);
  ::madvise(memory, size, MADV_HUGEPAGE);  // a hint: without THP the pages are ordinary
  return memory;
}

void UnmapHugePages(void* memory, size_t bytes) { ::munmap(memory, RoundUp(bytes)); }

namespace internal {

void* GrowRecordBuffer(void* data, size_t old_bytes, size_t used_bytes, size_t new_bytes, bool* mapped) {
  if (new_bytes < kHugePageBytes) {
    // Only reached while the buffer is malloc'ed: mapped buffers never shrink here.
    return std::realloc(data, new_bytes == 0 ? 1 : new_bytes);
  }
  if (!*mapped) {
    void* fresh = MapHugePages(new_bytes);
    if (fresh == nullptr) return nullptr;
    if (used_bytes > 0) std::memcpy(fresh, data, used_bytes);
    std::free(data);
    *mapped = true;
    return fresh;
  }
  const size_t old_size = RoundUp(old_bytes);
  const size_t new_size = RoundUp(new_bytes);
  if (new_size == old_size) return data;
  // In place when the addresses after the mapping are free (the extension keeps its
  // huge-page advice: it joins the same mapping).
  void* grown = ::mremap(data, old_size, new_size, 0);
  if (grown != MAP_FAILED) return grown;
  // Otherwise a larger aligned mapping, into whose start the pages are moved: the kernel
  // moves page tables (whole 2 MiB entries where both sides are aligned), not bytes.
  void* target = MapHugePages(new_bytes);
  if (target == nullptr) return nullptr;
  if (::mremap(data, old_size, old_size, MREMAP_MAYMOVE | MREMAP_FIXED, target) == MAP_FAILED) {
    std::memcpy(target, data, used_bytes);
    ::munmap(data, old_size);
  }
  return target;
}

void FreeRecordBuffer(void* data, size_t bytes, bool mapped) {
  if (data == nullptr) return;
  if (mapped) {
    UnmapHugePages(data, bytes);
  } else {
    std::free(data);
  }
}

}  // namespace internal

}  // namespace stepscope::importers
