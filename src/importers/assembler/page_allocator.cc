#include "src/importers/assembler/page_allocator.h"

#include <sys/mman.h>

#include <cstdint>

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

}  // namespace stepscope::importers
