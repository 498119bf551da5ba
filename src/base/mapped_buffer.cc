#include "src/base/mapped_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace stepscope::base {
namespace {

size_t RoundUp(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

size_t PageBytes() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// The size a mapping of `bytes` really has. A function of the size alone: a mapped
// buffer never shrinks, so once past the huge-page threshold it stays past it.
size_t MappedSize(size_t bytes, const BufferPolicy& policy) {
  return RoundUp(bytes, policy.HugePages(bytes) ? kHugePageBytes : PageBytes());
}

void* MapBuffer(size_t bytes, const BufferPolicy& policy) {
  if (policy.HugePages(bytes)) return MapHugePages(bytes);
  // NORESERVE: untouched capacity is neither resident nor charged against overcommit.
  void* mapped = ::mmap(nullptr, MappedSize(bytes, policy), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return mapped == MAP_FAILED ? nullptr : mapped;
}

// Grows a mapped buffer. Huge-page buffers stay 2 MiB-aligned: in place when the addresses
// after them are free (the extension joins the same advised mapping), else their pages
// move into the start of a larger aligned mapping (whole 2 MiB entries where both sides
// are aligned), as do a buffer's pages when it grows past the huge-page threshold (they
// stay 4 KiB pages; the rest come as huge ones). Others may move anywhere.
void* GrowMapped(void* data, size_t old_bytes, size_t used_bytes, size_t new_bytes, const BufferPolicy& policy) {
  const size_t old_size = MappedSize(old_bytes, policy);
  const size_t new_size = MappedSize(new_bytes, policy);
  if (new_size == old_size) return data;
  if (!policy.HugePages(new_bytes)) {
    void* grown = ::mremap(data, old_size, new_size, MREMAP_MAYMOVE);
    return grown == MAP_FAILED ? nullptr : grown;
  }
  if (policy.HugePages(old_bytes)) {
    void* grown = ::mremap(data, old_size, new_size, 0);
    if (grown != MAP_FAILED) return grown;
  }
  void* target = MapHugePages(new_bytes);
  if (target == nullptr) return nullptr;
  if (::mremap(data, old_size, old_size, MREMAP_MAYMOVE | MREMAP_FIXED, target) == MAP_FAILED) {
    std::memcpy(target, data, used_bytes);
    ::munmap(data, old_size);
  }
  return target;
}

}  // namespace

bool PopulatePages(void* begin, size_t bytes) {
  if (bytes == 0) return true;
  constexpr int kMadvPopulateWrite = 23;  // MADV_POPULATE_WRITE, Linux 5.14
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~uintptr_t{PageBytes() - 1};
  const uintptr_t end = reinterpret_cast<uintptr_t>(begin) + bytes;
  return ::madvise(reinterpret_cast<void*>(first), RoundUp(end - first, PageBytes()), kMadvPopulateWrite) == 0;
}

void* MapHugePages(size_t bytes) {
  const size_t size = RoundUp(bytes, kHugePageBytes);
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

void UnmapHugePages(void* memory, size_t bytes) { ::munmap(memory, RoundUp(bytes, kHugePageBytes)); }

void* GrowBuffer(void* data, size_t old_bytes, size_t used_bytes, size_t new_bytes, const BufferPolicy& policy,
                 bool* mapped) {
  if (new_bytes < policy.map_threshold_bytes) {
    // Only reached while the buffer is malloc'ed: mapped buffers never shrink here.
    return std::realloc(data, new_bytes == 0 ? 1 : new_bytes);
  }
  if (*mapped) return GrowMapped(data, old_bytes, used_bytes, new_bytes, policy);
  void* fresh = MapBuffer(new_bytes, policy);
  if (fresh == nullptr) return nullptr;
  if (used_bytes > 0) std::memcpy(fresh, data, used_bytes);
  std::free(data);
  *mapped = true;
  return fresh;
}

void FreeBuffer(void* data, size_t bytes, bool mapped, const BufferPolicy& policy) {
  if (data == nullptr) return;
  if (mapped) {
    ::munmap(data, MappedSize(bytes, policy));
  } else {
    std::free(data);
  }
}

void ReleaseUnusedPages(void* data, size_t used_bytes, size_t bytes, bool mapped, const BufferPolicy& policy) {
  if (!mapped || data == nullptr) return;
  const size_t keep = RoundUp(used_bytes, PageBytes());
  const size_t size = MappedSize(bytes, policy);
  if (keep < size) ::madvise(static_cast<char*>(data) + keep, size - keep, MADV_DONTNEED);
}

}  // namespace stepscope::base
